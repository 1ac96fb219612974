/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_internal.h - what the simulator's files share with each other and with
 * their tests, and with nobody else: damon_rand(), the stage clock, the
 * region passes of regions.c and the DAMOS steps of damos.c.
 *
 * mm/damon keeps what its operations sets share in ops-common.h, out of
 * include/linux/damon.h; so here include/hotscore/sim.h is what a user of
 * libhotscore runs a simulation with, and this header holds the steps
 * inside hs_sim_step().  The KUnit-style tests (tests/test_sim*.c) include
 * it to call those steps one at a time, as mm/damon/tests/core-kunit.h
 * calls core.c's own functions.  Only src/sim/ and tests/ include it.
 */
#ifndef HOTSCORE_SIM_INTERNAL_H
#define HOTSCORE_SIM_INTERNAL_H

#include "hotscore/sim.h"
#include "hotscore/sim_damos.h"

/* in hs_region.wl: the region lies wholly inside that workload region */
#define HS_REGION_WHOLE	(1U << 31)

/**
 * hs_rand_next() - damon_rand(l, r): a number in [l, r) as
 * l + (rnd32 * (r - l) >> 32), 64-bit, from the pseudo-random state @rnd.
 * @rnd:	the state (wyrand: one 64x64->128 multiply per number).
 * @l:		smallest.
 * @r:		one past the largest; r > l.
 *
 * Return: the number.
 */
static inline unsigned long hs_rand_next(uint64_t *rnd, unsigned long l,
					 unsigned long r)
{
	unsigned __int128 t;
	uint32_t rnd32;

	*rnd += 0xa0761d6478bd642fULL;
	t = (unsigned __int128)*rnd * (*rnd ^ 0xe7037ed1a0b428dbULL);
	rnd32 = (uint32_t)(((uint64_t)(t >> 64) ^ (uint64_t)t) >> 32);
	return l + (unsigned long)(((uint64_t)rnd32 * (r - l)) >> 32);
}

/**
 * hs_rand() - damon_rand() from the context's state.
 * @sim:	the simulation; @sim->rnd advances.
 * @l:		smallest.
 * @r:		one past the largest; r > l.
 *
 * Return: the number.
 */
static inline unsigned long hs_rand(struct hs_sim *sim, unsigned long l,
				    unsigned long r)
{
	return hs_rand_next(&sim->rnd, l, r);
}

/* The stage clock (src/sim/kdamond.c). */
void hs_sim_stamp(struct hs_sim *sim, enum hs_stage stage, uint64_t *t);

/* Regions (src/sim/regions.c). */
int hs_split_region_at(struct hs_sim *sim, size_t i, unsigned long sz_r);
void hs_merge_two(struct hs_region *l, const struct hs_region *r, bool bp);
void hs_region_sampled(struct hs_region *r, bool accessed,
		       unsigned int len_window);
void hs_merge_regions(struct hs_sim *sim, unsigned int threshold,
		      unsigned long sz_limit);
void hs_split_regions(struct hs_sim *sim);
unsigned long hs_region_sz_limit(const struct hs_sim *sim);
unsigned long hs_apply_min_nr_regions(struct hs_sim *sim);
int hs_set_regions(struct hs_sim *sim);
struct hs_region *hs_sim_scratch(struct hs_sim *sim, size_t need);
void hs_sim_adopt(struct hs_sim *sim, size_t nr);

/* DAMOS (src/sim/damos.c). */
unsigned int hs_region_mvsum(const struct hs_sim *sim,
			     const struct hs_region *r);
bool hs_pattern_match(const struct hs_sim *sim, const struct hs_region *r,
		      const struct hs_pattern *p);
int hs_scheme_score(struct hs_sim *sim, const struct hs_region *r,
		    const struct hs_scheme *s);
void hs_adjust_quota(struct hs_sim *sim, struct hs_scheme *s);
void hs_apply_schemes(struct hs_sim *sim, uint64_t *t);
void hs_apply_scheme_at(struct hs_sim *sim, unsigned int s, size_t i);
unsigned long hs_jiffies(const struct hs_sim *sim);
uint64_t hs_sim_psi_us(const struct hs_sim *sim);

/* The quota's arithmetic (quota.c) that the simulator alone uses. */
bool hs_quota_set(const struct hs_quota *q);

/*
 * A step the walk (apply.c) and the batch histogram of the simulated
 * kdamond (damos.c) share, inline: it runs per region.
 */

/**
 * hs_hist_add() - one scored region into damos_adjust_quota()'s size
 * histogram, whose highest score hs_quota_min_score() starts from.
 * @hist:	bytes per score, 0..DAMOS_MAX_SCORE.
 * @max_score:	the highest score so far; raised to @score.
 * @score:	the region's score, 0..DAMOS_MAX_SCORE.
 * @sz:		the region's bytes.
 */
static inline void hs_hist_add(unsigned long *hist, unsigned int *max_score,
			       unsigned int score, unsigned long sz)
{
	hist[score] += sz;
	if (score > *max_score)
		*max_score = score;
}

#endif /* HOTSCORE_SIM_INTERNAL_H */
