/* SPDX-License-Identifier: GPL-2.0 */
/*
 * damon_bench.h - what the bench engine measures for DAMON: the variants of
 * damon_hot_score(), the input distributions and the cost classes.
 *
 * Kernel-safe (no libc): the kernel module times the same variants on the
 * same inputs.
 */
#ifndef HOTSCORE_DAMON_BENCH_H
#define HOTSCORE_DAMON_BENCH_H

#include "bench.h"
#include "score.h"

/**
 * struct hs_ktime_run - the seed module's methodology, for comparison.
 * @pool:	inputs, round-robin.
 * @nr:		how many.
 * @seed_ages:	age = i, as the seed's loop did, instead of the pool's age.
 * @iterations:	calls in all.
 * @every:	time one call in @every alone (the seed: 1000).
 * @now:	a nanosecond clock (the seed: ktime_get()).
 * @samples:	receives iterations / @every single-call times, in ns.
 * @total_ns:	receives the whole loop's time, as the seed's average used.
 */
struct hs_ktime_run {
	const struct hs_input *pool;
	size_t nr;
	bool seed_ages;
	size_t iterations;
	unsigned int every;
	uint64_t (*now)(void);
	uint64_t *samples;
	uint64_t total_ns;
};

/**
 * struct hs_variant - one damon_hot_score() compiled for the bench.
 * @name:	as --variants takes it.
 * @comp:	its components: @fn computes hs_score(@comp, ...).hot.
 * @fn:		the function, not inlined into the engine: in the kernel it
 *		is reached through ops->get_scheme_score() too.
 * @ktime:	the seed's loop around an inlined copy (see hs_ktime_run).
 * @what:	one line for --list-variants.
 */
struct hs_variant {
	const char *name;
	struct hs_components comp;
	hs_bench_fn fn;
	void (*ktime)(struct hs_ktime_run *run);
	const char *what;
};

extern const struct hs_variant hs_variants[];
extern const unsigned int hs_nr_variants;
const struct hs_variant *hs_variant_find(const char *name);
int hs_bench_empty(const void *input);

enum hs_dist {
	HS_DIST_SEED,		/* age = i: the seed module's loop */
	HS_DIST_UNIFORM,	/* random 32-bit ages */
	HS_DIST_YOUNG,		/* age_in_sec mostly 0..8 */
	HS_DIST_ZERO,		/* age 0 */
	HS_DIST_WORST,		/* ages with 32 significant bits */
	HS_NR_DISTS
};

const char *hs_dist_name(enum hs_dist d);
const char *hs_dist_what(enum hs_dist d);
void hs_dist_base(struct hs_input *in);
void hs_dist_input(enum hs_dist d, uint64_t seed, uint64_t index,
		   struct hs_input *in);

#define HS_NR_CLASSES 1024
unsigned int hs_cost_class(const struct hs_components *comp,
			   const struct hs_input *in);
int hs_class_name(unsigned int key, char *buf, unsigned int size);

#endif /* HOTSCORE_DAMON_BENCH_H */
