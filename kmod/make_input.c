// SPDX-License-Identifier: GPL-2.0
/*
 * make_input.c - the inputs the modes share: identify's generated inputs,
 * which the candidates' checks (candidates.c) also take; a model input stored
 * into this kernel's own structures, and what they can hold of one;
 * whether the model divides by zero on one; one as `hotscore score`
 * options.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/damon.h>

#include <hotscore/bench_damon.h>
#include <hotscore/bench_stats.h>

#include "kmod.h"

/* struct damon_ctx's attrs, which these fields are in, appeared in 6.1 */
#if KMOD_HAVE_ATTRS
/**
 * kmod_set_input() - the kernel's structures from a model input: the
 * fields damon_hot_score() reads in any modelled kernel that this one has.
 * @in:		the input.
 * @c:		the context.
 * @r:		the region.
 * @s:		the scheme.
 */
void kmod_set_input(const struct hs_input *in, struct damon_ctx *c,
		    struct damon_region *r, struct damos *s)
{
	c->attrs.sample_interval = in->sample_us;
	c->attrs.aggr_interval = in->aggr_us;
#if KMOD_HAVE_SIS
	c->passed_sample_intervals = in->passed_sis;
	c->next_aggregation_sis = in->next_aggr_sis;
	r->nr_accesses_bp = in->nr_accesses_bp;
#endif
	r->nr_accesses = in->nr_accesses;
	r->last_nr_accesses = in->last_nr_accesses;
	r->age = in->age;
	s->quota.weight_nr_accesses = in->weight_nr_accesses;
	s->quota.weight_age = in->weight_age;
}

/**
 * kmod_fit_input() - what this kernel's structures can hold of an input.
 * @in:		the input, changed in place.
 */
void kmod_fit_input(struct hs_input *in)
{
#if !KMOD_HAVE_SIS
	/* no moving-sum fields: the window is always complete */
	in->passed_sis = 0;
	in->next_aggr_sis = 0;
	/* nor nr_accesses_bp: the value a merge gives it */
	in->nr_accesses_bp = hs_bp_of_nr(in->nr_accesses);
#endif
}

/**
 * kmod_any_div0() - whether some profile of the model divides by zero on
 * @in: such an input is never passed to the kernel's function or to a
 * candidate, which would oops there.
 * @in:		the input.
 */
bool kmod_any_div0(const struct hs_input *in)
{
	unsigned int k;

	for (k = 0; k < hs_nr_profiles; k++)
		if (hs_score(&hs_profiles[k].comp, in, NULL).status == HS_DIV0)
			return true;
	return false;
}

/**
 * kmod_input_args() - @in as `hotscore score` options.
 * @buf:	receives them.
 * @size:	of @buf.
 * @in:		the input.
 *
 * Return: as snprintf().
 */
int kmod_input_args(char *buf, size_t size, const struct hs_input *in)
{
	int n = snprintf(buf, size, "--sample %luus --aggr %luus --nr_accesses %u --last_nr_accesses %u --age %u --passed_sis %lu --next_aggr_sis %lu --weight_nr_accesses %u --weight_age %u",
			 in->sample_us, in->aggr_us, in->nr_accesses,
			 in->last_nr_accesses, in->age, in->passed_sis,
			 in->next_aggr_sis, in->weight_nr_accesses,
			 in->weight_age);

#if KMOD_HAVE_SIS
	if (n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - n, " --nr_accesses_bp %u",
			      in->nr_accesses_bp);
#endif
	return n;
}

/*
 * nr_accesses_bp apart from nr_accesses, from bits of @r: a merge's
 * (nr * 10000), one count above, one bp below, or near UINT_MAX.
 */
static unsigned int make_bp(unsigned int nr, u64 r)
{
	switch ((r >> 56) & 3) {
	case 1:
		return hs_bp_of_nr(nr + 1);
	case 2:
		return hs_bp_of_nr(nr) - 1;
	case 3:
		return U32_MAX - (u32)(r >> 32) % 10000;
	default:
		return hs_bp_of_nr(nr);
	}
}

/**
 * kmod_make_input() - identify's @i-th input: boundaries and grid points
 * (odd @i), seeded random values at full field widths (even @i); what this
 * kernel's structures hold of it.
 * @i:		the index.
 * @rnd:	the generator's state, advanced.
 * @in:		receives the input.
 */
void kmod_make_input(u64 i, u64 *rnd, struct hs_input *in)
{
	static const unsigned long samples[] = { 1, 3, 1000, 5000, 100000,
						 4294967295UL };
	static const unsigned long aggrs[] = { 1, 10, 100000, 1000000,
					       4294967296UL, 4294967301UL,
					       429496729600000UL };
	static const unsigned int weights[] = { 0, 1, 3, 1000, 33554432,
						2147483648U, 4294967295U };
	u64 r = hs_stats_rand(rnd);

	memset(in, 0, sizeof(*in));
	if (i & 1) {		/* a grid point, jittered */
		in->sample_us = samples[r % ARRAY_SIZE(samples)];
		in->aggr_us = aggrs[(r >> 8) % ARRAY_SIZE(aggrs)];
		in->nr_accesses = (unsigned int)((r >> 16) % 202);
		in->age = (1U << ((r >> 24) % 32)) - ((r >> 29) & 1);
		in->weight_nr_accesses = weights[(r >> 32) % ARRAY_SIZE(weights)];
		in->weight_age = weights[(r >> 40) % ARRAY_SIZE(weights)];
	} else {		/* anything at all */
		in->sample_us = hs_stats_rand(rnd) >> (r % 64);
		in->aggr_us = hs_stats_rand(rnd) >> ((r >> 6) % 64);
		in->nr_accesses = (u32)hs_stats_rand(rnd) >> ((r >> 12) % 32);
		in->age = (u32)hs_stats_rand(rnd) >> ((r >> 17) % 32);
		in->weight_nr_accesses = (u32)hs_stats_rand(rnd) >>
			((r >> 22) % 32);
		in->weight_age = (u32)hs_stats_rand(rnd) >> ((r >> 27) % 32);
	}
	in->last_nr_accesses = (u32)(r >> 48);
	in->next_aggr_sis = hs_stats_rand(rnd) % 1000;
	in->passed_sis = in->next_aggr_sis - (r >> 60);
	in->nr_accesses_bp = make_bp(in->nr_accesses, r);
	kmod_fit_input(in);
}
#endif
