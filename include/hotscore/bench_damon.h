/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_damon.h - what the bench engine measures for DAMON: the variants of
 * damon_hot_score(), the input distributions and the cost classes.
 *
 * Kernel-safe (no libc): the kernel module times the same variants on the
 * same inputs.
 */
#ifndef HOTSCORE_BENCH_DAMON_H
#define HOTSCORE_BENCH_DAMON_H

#include "bench.h"
#include "score_fast.h"
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

/* What a variant's function is given (struct hs_variant.call). */
enum hs_call {
	HS_CALL_INPUT,	/* a struct hs_input: damon_hot_score() as it is */
	HS_CALL_FAST,	/* a struct hs_fast_call: one region, prepared */
	HS_CALL_BATCH,	/* a struct hs_batch_call: many regions a call */
	HS_CALL_DOOR,	/* a candidate object's prepared call (hs_cand_door():
			 * user space): the kernel's structs, built first */
};

#define HS_BATCH_REGIONS 64	/* regions a batch variant scores per call */

/**
 * struct hs_fast_call - the input of the prepared scorer, one region.
 * @prep:		the scheme, prepared for the pool's intervals and
 *			weights, as the kernel would keep it in the scheme.
 * @nr_accesses:	the region's fields.
 * @last_nr_accesses:	-
 * @age:		-
 */
struct hs_fast_call {
	const struct hs_prep *prep;
	unsigned int nr_accesses, last_nr_accesses, age;
};

typedef enum hs_status (*hs_batch_fn)(const struct hs_prep *p,
				      const struct hs_fast_regions *r,
				      size_t n, int *hot);

/**
 * struct hs_batch_call - the input of a batch variant: @n regions.
 * @prep:	prepared variants: the scheme.
 * @batch:	prepared variants: the batch scorer (hs_fast_batch(), or a
 *		vector one in user space).
 * @r:		prepared variants: the regions' fields.
 * @in:		the kernel's form: the regions' whole inputs.
 * @hot:	receives the @n scores.
 * @n:		at least 1.
 */
struct hs_batch_call {
	const struct hs_prep *prep;
	hs_batch_fn batch;
	struct hs_fast_regions r;
	const struct hs_input *in;
	int *hot;
	unsigned int n;
};

/**
 * struct hs_variant - one damon_hot_score() compiled for the bench.
 * @name:	as --variants takes it.
 * @comp:	its components: @fn computes hs_score(@comp, ...).hot.
 * @fn:		the function, not inlined into the engine: in the kernel it
 *		is reached through ops->get_scheme_score() too.
 * @ktime:	the seed's loop around an inlined copy (see hs_ktime_run).
 * @what:	one line for --list-variants.
 * @call:	what @fn is given: HS_CALL_INPUT unless set.
 * @regions:	regions scored per call: 0 (one) unless a batch.
 * @vector:	a prepared batch that takes the best vector scorer.
 * @user_only:	timed by `hotscore bench` only: hotscore.ko refuses it.
 * @placed:	@fn's copies at each code placement (HS_PLACEMENT_COPIES;
 *		copy 0 is @fn), or NULL: @fn alone (a candidate).
 */
struct hs_variant {
	const char *name;
	struct hs_components comp;
	hs_bench_fn fn;
	void (*ktime)(struct hs_ktime_run *run);
	const char *what;
	enum hs_call call;
	unsigned int regions;
	bool vector;
	bool user_only;
	const hs_bench_fn *placed;
};

extern const struct hs_variant hs_variants[];
extern const unsigned int hs_nr_variants;
const struct hs_variant *hs_variant_find(const char *name);
unsigned int hs_variant_regions(const struct hs_variant *v);

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

#endif /* HOTSCORE_BENCH_DAMON_H */
