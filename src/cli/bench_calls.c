// SPDX-License-Identifier: GPL-2.0
/*
 * bench_calls.c - the inputs of the variants that do not take a struct
 * hs_input: the prepared scorer (one region a call) and the batches
 * (HS_BATCH_REGIONS regions a call), made from a distribution's pool.
 *
 * The scheme is prepared once, from the pool's first row, as the kernel
 * would when a scheme is committed; every row must share its intervals and
 * weights.  A batch call scores HS_BATCH_REGIONS consecutive regions of
 * the pool, wrapping around; the calls cover every row equally often.
 */
#include <stdlib.h>
#include <string.h>

#include <hotscore/simd.h>

#include "bench.h"
#include "cli.h"


static void prepare(const struct bench_dist *d, const struct hs_variant *v,
		    struct bench_calls *c)
{
	size_t j;

	c->prep = cli_xcalloc(1, sizeof(*c->prep));
	hs_prep_init(c->prep, &v->comp, &d->pool[0]);
	for (j = 1; j < d->nr_pool; j++)
		if (!hs_prep_matches(c->prep, &d->pool[j]))
			cli_die("--dist %s: row %zu has other intervals, weights or window than row 1; --profile %s prepares one scheme",
			       d->name, j + 1, v->name);
}

static void build_fast(const struct bench_dist *d, struct bench_calls *c)
{
	struct hs_fast_call *f = cli_xcalloc(d->nr_pool, sizeof(*f));
	size_t j;

	for (j = 0; j < d->nr_pool; j++)
		f[j] = (struct hs_fast_call){ c->prep, d->pool[j].nr_accesses,
			d->pool[j].last_nr_accesses, d->pool[j].age };
	c->pool = (struct hs_pool){ f, sizeof(*f), d->nr_pool, 1 };
}

static size_t gcd(size_t a, size_t b)
{
	while (b) {
		size_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * Batch calls: call k scores the regions from (k * per) mod nr on, in
 * arrays padded with the pool's first per - 1 rows so that every call is
 * contiguous.  nr / gcd(nr, per) calls cover lcm(nr, per) regions: every
 * row of the pool equally often, as the one-region variants cover it.
 */
static void build_batch(const struct bench *b, const struct bench_dist *d,
			const struct hs_variant *v, struct bench_calls *c)
{
	unsigned int per = hs_variant_regions(v);
	size_t nr = d->nr_pool / gcd(d->nr_pool, per), len = d->nr_pool + per - 1;
	struct hs_batch_call *bc = cli_xcalloc(nr, sizeof(*bc));
	size_t j, at;

	c->nr = cli_xcalloc(len, sizeof(*c->nr));
	c->last = cli_xcalloc(len, sizeof(*c->last));
	c->age = cli_xcalloc(len, sizeof(*c->age));
	c->in = cli_xcalloc(len, sizeof(*c->in));
	c->hot = cli_xcalloc(per, sizeof(*c->hot));
	for (j = 0; j < len; j++) {
		c->in[j] = d->pool[j % d->nr_pool];
		c->nr[j] = c->in[j].nr_accesses;
		c->last[j] = c->in[j].last_nr_accesses;
		c->age[j] = c->in[j].age;
	}
	for (j = 0; j < nr; j++) {
		at = j * per % d->nr_pool;
		bc[j] = (struct hs_batch_call){
			.prep = c->prep,
			.batch = v->vector ? hs_fast_batch_for(b->simd) :
					     hs_fast_batch,
			.r = { c->nr + at, c->last + at, c->age + at },
			.in = c->in + at,
			.hot = c->hot,
			.n = per,
		};
	}
	c->pool = (struct hs_pool){ bc, sizeof(*bc), nr, per };
	/* what hs_fast_batch_for(b->simd) does with this scheme */
	c->impl = v->vector ? hs_fast_batch_impl(b->simd, c->prep) :
			      HS_FAST_SCALAR;
}

/**
 * bench_build_calls() - every variant's inputs for distribution @d.
 * @b:	the bench, its variants chosen.
 * @d:	the distribution, its pool built.
 *
 * Bad input (rows that do not share one scheme) exits with status 2.
 */
void bench_build_calls(struct bench *b, struct bench_dist *d)
{
	unsigned int v;

	d->input_pool = (struct hs_pool){ d->pool, sizeof(*d->pool),
					  d->nr_pool, 1 };
	for (v = 0; v < b->nr_variants; v++) {
		const struct hs_variant *var = b->variants[v];
		struct bench_calls *c = &d->calls[v];

		if (var->call == HS_CALL_INPUT)
			continue;
		prepare(d, var, c);
		if (var->call == HS_CALL_FAST)
			build_fast(d, c);
		else
			build_batch(b, d, var, c);
	}
}

/** bench_pool() - what variant @v (0-based) of @b is timed on for @d. */
const struct hs_pool *bench_pool(const struct bench *b,
				 const struct bench_dist *d, unsigned int v)
{
	if (b->variants[v]->call == HS_CALL_INPUT)
		return &d->input_pool;
	return &d->calls[v].pool;
}

/**
 * bench_vet_calls() - every call of every variant built here returns
 * the model's scores for the pool rows it covers; an internal error exits
 * with status 1.
 * @b:	the bench.
 * @d:	the distribution, its calls built.
 */
void bench_vet_calls(const struct bench *b, const struct bench_dist *d)
{
	unsigned int v, i, per;
	size_t j, at;
	int got, want;

	for (v = 0; v < b->nr_variants; v++) {
		const struct hs_variant *var = b->variants[v];
		const struct bench_calls *c = &d->calls[v];
		const char *base = c->pool.base;

		if (var->call == HS_CALL_INPUT)
			continue;
		per = var->call == HS_CALL_BATCH ? hs_variant_regions(var) : 1;
		for (j = 0; j < c->pool.nr; j++) {
			got = var->fn(base + j * c->pool.stride);
			for (i = 0; i < per; i++) {
				at = (j * per % d->nr_pool + i) % d->nr_pool;
				want = hs_score(&var->comp, &d->pool[at],
						NULL).hot;
				if (per > 1)
					got = c->hot[i];
				if (got == want)
					continue;
				fprintf(stderr,
					"hotscore: internal error: variant %s returns %d, the model %d, on input %zu of %s\n",
					var->name, got, want, at, d->name);
				exit(1);
			}
		}
	}
}
