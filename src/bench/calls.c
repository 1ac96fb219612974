// SPDX-License-Identifier: GPL-2.0
/*
 * calls.c - the inputs of the variants that do not take a struct hs_input:
 * the prepared scorer (one region a call) and the batches (HS_BATCH_REGIONS
 * regions a call), made from a pool of inputs.  `hotscore bench` builds
 * them for every distribution (src/cli/bench_calls.c), hotscore.ko for its
 * one (kmod/module.c): the same code, so the two time the same calls.
 *
 * The scheme is prepared once, from the pool's first row, as the kernel
 * would when a scheme is committed; every row must share its intervals and
 * weights.  A batch call scores HS_BATCH_REGIONS consecutive regions of
 * the pool, wrapping around; the calls cover every row equally often.
 *
 * Kernel-safe: integers only, no library calls; memory from the caller's
 * allocator.
 */
#include <hotscore/bench_calls.h>

/* @nr zeroed elements from @a, or NULL (and *@failed set). */
static void *take(const struct hs_alloc *a, size_t nr, size_t size,
		  bool *failed)
{
	void *p = a->zalloc(a->ctx, nr, size);

	if (!p)
		*failed = true;
	return p;
}

/* The scheme of @pool[0]; HS_CALLS_SCHEMES at the first row not under it. */
static enum hs_calls_status prepare(struct hs_calls *c,
				    const struct hs_variant *v,
				    const struct hs_input *pool, size_t nr,
				    size_t *row)
{
	size_t j;

	hs_prep_init(c->prep, &v->comp, &pool[0]);
	for (j = 1; j < nr; j++)
		if (!hs_prep_matches(c->prep, &pool[j])) {
			*row = j;
			return HS_CALLS_SCHEMES;
		}
	return HS_CALLS_OK;
}

/* One call a row: the region's own fields and the prepared scheme. */
static void build_fast(struct hs_calls *c, struct hs_fast_call *f,
		       const struct hs_input *pool, size_t nr)
{
	size_t j;

	for (j = 0; j < nr; j++)
		f[j] = (struct hs_fast_call){ c->prep, pool[j].nr_accesses,
			pool[j].last_nr_accesses, pool[j].age };
	c->pool = (struct hs_pool){ f, sizeof(*f), nr, 1 };
}

/* The regions' arrays: the pool and its first @per - 1 rows again. */
static void fill_regions(struct hs_calls *c, const struct hs_input *pool,
			 size_t nr, size_t len)
{
	size_t j;

	for (j = 0; j < len; j++) {
		c->in[j] = pool[j % nr];
		c->nr[j] = c->in[j].nr_accesses;
		c->last[j] = c->in[j].last_nr_accesses;
		c->age[j] = c->in[j].age;
	}
}

/*
 * Batch calls: call k scores the regions from (k * per) mod nr on, in
 * arrays padded with the pool's first per - 1 rows so that every call is
 * contiguous.  nr / gcd(nr, per) calls cover lcm(nr, per) regions: every
 * row of the pool equally often, as the one-region variants cover it.
 */
static void build_batch(struct hs_calls *c, struct hs_batch_call *bc,
			size_t calls, unsigned int per, hs_batch_fn batch,
			size_t nr)
{
	size_t j, at;

	for (j = 0; j < calls; j++) {
		at = j * per % nr;
		bc[j] = (struct hs_batch_call){
			.prep = c->prep,
			.batch = batch,
			.r = { c->nr + at, c->last + at, c->age + at },
			.in = c->in + at,
			.hot = c->hot,
			.n = per,
		};
	}
	c->pool = (struct hs_pool){ bc, sizeof(*bc), calls, per };
}

/* Every array a batch variant needs; false if one could not be had. */
static bool alloc_batch(struct hs_calls *c, const struct hs_alloc *a,
			size_t len, unsigned int per)
{
	bool failed = false;

	c->nr = take(a, len, sizeof(*c->nr), &failed);
	c->last = take(a, len, sizeof(*c->last), &failed);
	c->age = take(a, len, sizeof(*c->age), &failed);
	c->in = take(a, len, sizeof(*c->in), &failed);
	c->hot = take(a, per, sizeof(*c->hot), &failed);
	return !failed;
}

/**
 * hs_calls_build() - the calls variant @v is timed on, over @pool.
 * @c:		receives them; all zero (and nothing held) on failure.
 * @v:		a variant whose call is HS_CALL_FAST or HS_CALL_BATCH.
 * @batch:	the batch scorer a prepared batch call uses: hs_fast_batch(),
 *		or in user space a vector one.
 * @pool:	the inputs, none of which divides by zero under @v.
 * @nr:		how many, at least 1.
 * @a:		the allocator.
 * @row:	receives, for HS_CALLS_SCHEMES, the first row (0-based) whose
 *		intervals, weights or window are not row 0's.
 *
 * Return: HS_CALLS_OK, HS_CALLS_NOMEM or HS_CALLS_SCHEMES.
 */
enum hs_calls_status hs_calls_build(struct hs_calls *c,
				    const struct hs_variant *v,
				    hs_batch_fn batch,
				    const struct hs_input *pool, size_t nr,
				    const struct hs_alloc *a, size_t *row)
{
	unsigned int per = hs_variant_regions(v);
	size_t calls = v->call == HS_CALL_FAST ? nr : nr / hs_gcd(nr, per);
	enum hs_calls_status err = HS_CALLS_NOMEM;
	bool failed = false;
	void *p;

	*c = (struct hs_calls){ 0 };
	c->prep = take(a, 1, sizeof(*c->prep), &failed);
	p = take(a, calls, v->call == HS_CALL_FAST ?
		 sizeof(struct hs_fast_call) : sizeof(struct hs_batch_call),
		 &failed);
	if (failed || (v->call == HS_CALL_BATCH &&
		       !alloc_batch(c, a, nr + per - 1, per)))
		goto fail;
	err = prepare(c, v, pool, nr, row);
	if (err != HS_CALLS_OK)
		goto fail;
	if (v->call == HS_CALL_FAST) {
		build_fast(c, p, pool, nr);
		return HS_CALLS_OK;
	}
	fill_regions(c, pool, nr, nr + per - 1);
	build_batch(c, p, calls, per, batch, nr);
	return HS_CALLS_OK;
fail:
	a->free(a->ctx, p);
	hs_calls_free(c, a);
	return err;
}

/**
 * hs_calls_free() - give back what hs_calls_build() took.
 * @c:	the calls; zeroed.
 * @a:	the allocator they came from.
 */
void hs_calls_free(struct hs_calls *c, const struct hs_alloc *a)
{
	a->free(a->ctx, (void *)c->pool.base);
	a->free(a->ctx, c->prep);
	a->free(a->ctx, c->nr);
	a->free(a->ctx, c->last);
	a->free(a->ctx, c->age);
	a->free(a->ctx, c->in);
	a->free(a->ctx, c->hot);
	*c = (struct hs_calls){ 0 };
}

/* One copy @fn of @v's function: hs_calls_vet(). */
static bool vet_copy(const struct hs_calls *c, const struct hs_variant *v,
		     hs_bench_fn fn, const struct hs_input *pool, size_t nr,
		     struct hs_calls_diff *diff)
{
	unsigned int per = hs_variant_regions(v), i;
	const char *base = c->pool.base;
	size_t j, at;
	int got, want;

	for (j = 0; j < c->pool.nr; j++) {
		got = fn(base + j * c->pool.stride);
		for (i = 0; i < per; i++) {
			at = (j * per % nr + i) % nr;
			want = hs_score(&v->comp, &pool[at], NULL).hot;
			if (per > 1)
				got = c->hot[i];
			if (got == want)
				continue;
			*diff = (struct hs_calls_diff){ at, got, want };
			return false;
		}
	}
	return true;
}

/**
 * hs_calls_vet() - does every call return the model's scores for the rows
 * it covers?  Run before the timing: a timing of a wrong function is worth
 * nothing.
 * @c:		the calls, built by hs_calls_build() over @pool.
 * @v:		their variant.
 * @pool:	the inputs.
 * @nr:		how many.
 * @diff:	receives the first difference.
 *
 * Return: true when every score is the model's.
 */
bool hs_calls_vet(const struct hs_calls *c, const struct hs_variant *v,
		  const struct hs_input *pool, size_t nr,
		  struct hs_calls_diff *diff)
{
	unsigned int k;

	for (k = 0; k < HS_NR_PLACEMENTS; k++)
		if (!vet_copy(c, v, v->placed ? v->placed[k] : v->fn, pool, nr,
			      diff))
			return false;
	return true;
}
