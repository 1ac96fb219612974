/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_damos.h - DAMOS's quota arithmetic on one snapshot of regions, for
 * callers that have regions but no running kdamond (hotscore rank):
 * which score an action takes, the effective size quota with no charge
 * history, the score histogram's cut-off, and the regions the walk picks
 * (hs_damos_walk(), src/sim/apply.c: the walk the simulated kdamond runs,
 * hs_apply_run(), on a fresh quota).
 */
#ifndef HOTSCORE_SIM_DAMOS_H
#define HOTSCORE_SIM_DAMOS_H

#include "sim.h"

/* ops->get_scheme_score(): which score an action gets (docs/scoring.md). */
enum hs_score_kind { HS_SCORE_MAX, HS_SCORE_HOT, HS_SCORE_COLD };

enum hs_score_kind hs_score_kind(enum hs_ops ops, enum hs_action a);
/* The kernel's throughput before anything is charged: PAGE_SIZE * 1024 B/ms. */
#define HS_QUOTA_FIRST_THROUGHPUT	(HS_PAGE_SIZE * 1024)

unsigned long hs_msecs_to_jiffies(unsigned long hz, unsigned long ms);
unsigned long hs_quota_esz(const struct hs_quota *q, unsigned long throughput,
			   unsigned long min_region_sz);
unsigned long hs_feed_loop_next_input(unsigned long last, unsigned long score);
unsigned long hs_feed_loop_next_input_612(unsigned long last,
					  unsigned long score);
unsigned long hs_goal_score(unsigned long current, unsigned long target);
unsigned long hs_quota_goal_esz(const struct hs_quota *q,
				unsigned long throughput,
				unsigned long min_region_sz);
unsigned int hs_quota_min_score(const unsigned long *hist,
				unsigned int max_score, unsigned long esz);
unsigned long hs_quota_take(unsigned long esz, unsigned long charged,
			    unsigned long sz, unsigned long min_region_sz);

/**
 * hs_pattern_admits() - __damos_valid_target()'s test: size, moving-sum
 * nr_accesses and age within the pattern, all bounds inclusive.
 * @p:		the pattern.
 * @sz:		the region's bytes.
 * @nr:		its moving-sum nr_accesses.
 * @age:	its age.
 *
 * Return: true if the pattern admits the region.
 */
static inline bool hs_pattern_admits(const struct hs_pattern *p,
				     unsigned long sz, unsigned int nr,
				     unsigned int age)
{
	return p->min_sz <= sz && sz <= p->max_sz &&
		p->min_nr <= nr && nr <= p->max_nr &&
		p->min_age <= age && age <= p->max_age;
}

/**
 * struct hs_damos_region - one region of a snapshot, as hs_damos_walk()
 * reads it.
 * @start:	ar.start.
 * @end:	ar.end.
 * @nr_accesses: in samples; at the aggregation's end this is also the
 *		moving sum that __damos_valid_target() compares.
 * @age:	in aggregation intervals.
 */
struct hs_damos_region {
	unsigned long start, end;
	unsigned int nr_accesses, age;
};

/*
 * The ops' get_scheme_score() for hs_damos_walk(): the score of @r,
 * 0..HS_DAMOS_MAX_SCORE, or negative where it has none (a trap), which
 * leaves the region out of the histogram and the walk.
 */
typedef int (*hs_damos_score_fn)(void *ctx, const struct hs_damos_region *r);

/**
 * struct hs_damos_walk - what hs_damos_walk() found on one snapshot.
 * @score:	the caller's array, one per region: its score, or -1 where
 *		it is not eligible, has no score, or the scheme has no quota
 *		(the kernel then scores nothing).
 * @charged:	the caller's array, one per region: the bytes the action is
 *		applied to (a region the quota cuts, in part, page-aligned).
 * @hist:	bytes of the scored eligible regions per score.
 * @max_score:	the highest score in @hist, 0 if none.
 * @esz:	the quota's effective size (hs_quota_esz()), 0 without one.
 * @min_score:	the score a region needs under the quota
 *		(hs_quota_min_score()), 0 without one.
 * @nr_eligible: regions the scheme's access pattern admits.
 * @sz_eligible: their bytes.
 * @nr_charged:	regions the action is applied to.
 * @sz_charged:	their bytes, charged to the quota.
 */
struct hs_damos_walk {
	int *score;
	unsigned long *charged;
	unsigned long hist[HS_DAMOS_MAX_SCORE + 1];
	unsigned int max_score;
	unsigned long esz;
	unsigned int min_score;
	size_t nr_eligible;
	unsigned long sz_eligible;
	size_t nr_charged;
	unsigned long sz_charged;
};

/*
 * hs_damos_histogram()'s view of region @i: its score, and its bytes in
 * @sz; negative where it is not eligible or has no score.
 */
typedef int (*hs_damos_region_fn)(void *ctx, size_t i, unsigned long *sz);

unsigned int hs_damos_histogram(size_t nr, hs_damos_region_fn region_fn,
				void *ctx, unsigned long *hist);
void hs_damos_regions(const struct hs_damos_region *in, size_t nr,
		      struct hs_region *out);
int hs_damos_walk(const struct hs_damos_region *r, size_t nr,
		  const struct hs_scheme *s, hs_damos_score_fn score_fn,
		  void *ctx, struct hs_damos_walk *w);

#endif /* HOTSCORE_SIM_DAMOS_H */
