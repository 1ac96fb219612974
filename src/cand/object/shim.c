// SPDX-License-Identifier: GPL-2.0
/*
 * shim.c - the candidate's side of the door: compiled with env.h into the
 * candidate's shared object, it turns hotscore's flat input into the
 * kernel's structs and calls the candidate's functions.
 *
 * struct hs_cand_input has struct hs_input's layout (include/hotscore/
 * score.h); cand.c checks the size.  Embedded in the hotscore binary.
 */

/* the fields, in struct hs_input's order */
struct hs_cand_input {
	unsigned long sample_us, aggr_us, passed_sis, next_aggr_sis;
	unsigned int nr_accesses, last_nr_accesses, age;
	unsigned int weight_nr_accesses, weight_age, nr_accesses_bp;
};

/* a candidate need not have a cold function: then cold is 99 - hot */
#pragma weak damon_cold_score
#pragma weak damon_pageout_score

unsigned long hs_cand_input_size = sizeof(struct hs_cand_input);

/**
 * hs_cand_build() - the context, region and scheme that @in describes, as
 * a kdamond would hand them to damon_hot_score().
 * @in:	the input, in struct hs_input's layout.
 * @c:	receives the context: the intervals and the sample counters.
 * @r:	receives the region: its access counts and age.
 * @s:	receives the scheme: its quota's weights.
 *
 * The other fields are zeroed.
 */
void hs_cand_build(const struct hs_cand_input *in, struct damon_ctx *c,
		   struct damon_region *r, struct damos *s)
{
	/*
	 * Field by field: a struct assignment of zeroes becomes rep stosq
	 * without SSE, which costs more than the function being timed.
	 */
	c->attrs.ops_update_interval = 0;
	c->attrs.min_nr_regions = c->attrs.max_nr_regions = 0;
	c->next_ops_update_sis = 0;
	r->ar.start = r->ar.end = r->sampling_addr = 0;
	r->list.next = r->list.prev = NULL;
	s->pattern.min_sz_region = s->pattern.max_sz_region = 0;
	s->pattern.min_nr_accesses = s->pattern.max_nr_accesses = 0;
	s->pattern.min_age_region = s->pattern.max_age_region = 0;
	s->action = 0;
	s->apply_interval_us = 0;
	s->quota.ms = s->quota.sz = s->quota.reset_interval = 0;
	s->quota.weight_sz = 0;
	c->attrs.sample_interval = in->sample_us;
	c->attrs.aggr_interval = in->aggr_us;
	c->passed_sample_intervals = in->passed_sis;
	c->next_aggregation_sis = in->next_aggr_sis;
	r->nr_accesses = in->nr_accesses;
	r->nr_accesses_bp = in->nr_accesses_bp;
	r->last_nr_accesses = in->last_nr_accesses;
	r->age = in->age;
	s->quota.weight_nr_accesses = in->weight_nr_accesses;
	s->quota.weight_age = in->weight_age;
}

/* The hot score of @in. */
int hs_cand_hot(const struct hs_cand_input *in)
{
	struct damon_ctx c;
	struct damon_region r;
	struct damos s;

	hs_cand_build(in, &c, &r, &s);
	return damon_hot_score(&c, &r, &s);
}

/* The cold score of @in: the candidate's function, or 99 - hot. */
int hs_cand_cold(const struct hs_cand_input *in)
{
	struct damon_ctx c;
	struct damon_region r;
	struct damos s;

	hs_cand_build(in, &c, &r, &s);
	if (damon_cold_score)
		return damon_cold_score(&c, &r, &s);
	if (damon_pageout_score)
		return damon_pageout_score(&c, &r, &s);
	return (int)((unsigned int)DAMOS_MAX_SCORE -
		     (unsigned int)damon_hot_score(&c, &r, &s));
}

/* What the candidate defines: 1 hot only, 2 a cold function too. */
int hs_cand_has_cold(void)
{
	return damon_cold_score || damon_pageout_score;
}

/**
 * hs_cand_sweep() - damon_hot_score() of @n ages from @from, the other
 * fields from @in, into @hot: verify's exhaustive age sweep, one call an
 * age through the same door as every other call.
 * @in:		the input; its age is replaced.
 * @from:	the first age.
 * @n:		how many ages.
 * @hot:	receives the @n scores.
 * @at:		the age index being scored, so that a trap can be located
 *		and stepped over: the sweep starts at *@at and leaves it at
 *		@n.
 */
void hs_cand_sweep(const struct hs_cand_input *in, unsigned int from,
		   unsigned int n, int *hot, volatile unsigned int *at)
{
	int (*volatile fn)(struct damon_ctx *, struct damon_region *,
			   struct damos *) = damon_hot_score;
	struct damon_ctx c;
	struct damon_region r;
	struct damos s;
	unsigned int i;

	hs_cand_build(in, &c, &r, &s);
	for (i = *at; i < n; i++) {
		*at = i;
		r.age = from + i;
		hot[i] = fn(&c, &r, &s);
	}
	*at = n;
}

/* Through a pointer, as a kdamond's DAMOS walk calls it (bench). */
int (*hs_cand_fn)(struct damon_ctx *, struct damon_region *,
		  struct damos *) = damon_hot_score;

/**
 * struct hs_cand_call - one input of the bench, as a kdamond hands it to
 * the scoring function: a region of its own, the context and the scheme
 * shared with the inputs around it (kmod/candidates.c has the same).
 * @c:	the context: its intervals.
 * @s:	the scheme: its weights.
 * @r:	the region.
 */
struct hs_cand_call {
	struct damon_ctx *c;
	struct damos *s;
	struct damon_region r;
};

unsigned long hs_cand_call_size = sizeof(struct hs_cand_call);

/* Bytes hs_cand_calls() needs for @n inputs: every input may need its own. */
unsigned long hs_cand_calls_size(unsigned long n)
{
	return n * (sizeof(struct hs_cand_call) + sizeof(struct damon_ctx) +
		    sizeof(struct damos));
}

/* @a and @b have the same context and scheme: the fields outside the region. */
static bool same_scheme(const struct hs_cand_input *a,
			const struct hs_cand_input *b)
{
	return a->sample_us == b->sample_us && a->aggr_us == b->aggr_us &&
	       a->passed_sis == b->passed_sis &&
	       a->next_aggr_sis == b->next_aggr_sis &&
	       a->weight_nr_accesses == b->weight_nr_accesses &&
	       a->weight_age == b->weight_age;
}

/**
 * hs_cand_calls() - the bench's calls of @n inputs, built before anything
 * is timed: the timed call converts nothing (hs_cand_door()).
 * @in:		the inputs.
 * @n:		how many.
 * @mem:	hs_cand_calls_size(@n) bytes, 16-byte aligned: the @n calls
 *		(hs_cand_call_size apart) first, then the contexts and
 *		schemes, one for each run of inputs that shares them.
 */
void hs_cand_calls(const struct hs_cand_input *in, unsigned long n,
		   void *mem)
{
	struct hs_cand_call *call = mem;
	struct damon_ctx *c = (struct damon_ctx *)(call + n);
	struct damos *s = (struct damos *)(c + n);
	struct damon_ctx ctx;
	struct damos scheme;
	unsigned long i;

	for (i = 0; i < n; i++) {
		if (i && same_scheme(&in[i], &in[i - 1])) {
			hs_cand_build(&in[i], &ctx, &call[i].r, &scheme);
		} else {
			hs_cand_build(&in[i], c, &call[i].r, s);
			c++;
			s++;
		}
		call[i].c = c - 1;
		call[i].s = s - 1;
	}
}

/*
 * The door the bench times: the function on a prepared call, and nothing
 * else (a tail call: three loads and a jump).  A kdamond pays as much in
 * damon_pa_scheme_score(), the caller in another object.
 */
int hs_cand_door(const struct hs_cand_call *k)
{
	return damon_hot_score(k->c, (struct damon_region *)&k->r, k->s);
}

/* A function that does nothing, which the compiler cannot see through. */
__hs_direct noinline int hs_cand_nothing(struct damon_ctx *c,
					 struct damon_region *r,
					 struct damos *s)
{
	int zero = 0;

	(void)c;
	(void)r;
	(void)s;
	__asm__("" : "+r" (zero));	/* emits nothing */
	return zero;
}

/* The same door to nothing: what the door itself costs (bench). */
int hs_cand_door_empty(const struct hs_cand_call *k)
{
	return hs_cand_nothing(k->c, (struct damon_region *)&k->r, k->s);
}
