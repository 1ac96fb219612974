// SPDX-License-Identifier: GPL-2.0
/*
 * quota.c - DAMOS's quota arithmetic on its own (include/hotscore/sim_damos.h),
 * each step after the line of mm/damon/core.c (linux-mm, 2026) it models.
 * The walk that puts the steps together is src/sim/apply.c's.
 */
#include <limits.h>
#include <string.h>

#include "hotscore/kernel.h"
#include "hotscore/sim_damos.h"

#include "sim_internal.h"

#define ALIGN_DOWN(x, a)	((x) / (a) * (a))

/**
 * hs_score_kind() - what the ops' get_scheme_score() returns for an
 * action: damon_cold_score() for the actions that want cold memory,
 * damon_hot_score() for those that want hot memory, and DAMOS_MAX_SCORE
 * where the ops set has no score for the action (vaddr's LRU actions).
 * @ops:	vaddr or paddr.
 * @a:		the action.
 *
 * Return: the kind of score.
 */
enum hs_score_kind hs_score_kind(enum hs_ops ops, enum hs_action a)
{
	switch (a) {
	case HS_ACT_PAGEOUT:
	case HS_ACT_MIGRATE_COLD:
		return HS_SCORE_COLD;
	case HS_ACT_MIGRATE_HOT:
		return HS_SCORE_HOT;
	case HS_ACT_LRU_PRIO:
		return ops == HS_OPS_PADDR ? HS_SCORE_HOT : HS_SCORE_MAX;
	case HS_ACT_LRU_DEPRIO:
		return ops == HS_OPS_PADDR ? HS_SCORE_COLD : HS_SCORE_MAX;
	default:
		return HS_SCORE_MAX;
	}
}

/** hs_quota_set() - damos_quota_is_set(): esz, sz, ms or a goal. */
bool hs_quota_set(const struct hs_quota *q)
{
	return q->esz || q->sz || q->ms || q->goal.metric != HS_GOAL_NONE;
}

/**
 * hs_msecs_to_jiffies() - msecs_to_jiffies(const unsigned int m), as
 * damos_adjust_quota() converts a reset interval, in 6.12 and the newest
 * core alike: the unsigned long reset_interval is truncated to 32 bits on
 * the way in, and a "negative" one is MAX_JIFFY_OFFSET, a window that
 * never ends.
 * @hz:		jiffies per second.
 * @ms:		the interval.
 *
 * Return: the interval in jiffies, rounded up.
 */
unsigned long hs_msecs_to_jiffies(unsigned long hz, unsigned long ms)
{
	unsigned int m = (unsigned int)ms;

	if ((int)m < 0)
		return (LONG_MAX >> 1) - 1;
	return ((unsigned long)m * hz + 999) / 1000;
}

/**
 * hs_quota_esz() - damos_set_effective_quota() without goals: the time
 * quota converted to bytes at @throughput, at least one region, capped
 * by the size quota when that is set and smaller; the size quota alone
 * when there is no time quota.
 * @q:		the quota (ms and sz).
 * @throughput: bytes per ms the action has achieved; before anything was
 *		charged, HS_QUOTA_FIRST_THROUGHPUT.
 * @min_region_sz: the smallest region (a page).
 *
 * Return: the effective size quota in bytes.
 */
unsigned long hs_quota_esz(const struct hs_quota *q, unsigned long throughput,
			   unsigned long min_region_sz)
{
	unsigned long esz;

	if (!q->ms)
		return q->sz;
	esz = throughput * q->ms;	/* unsigned long: may wrap */
	if (esz < min_region_sz)
		esz = min_region_sz;
	if (q->sz && q->sz < esz)
		esz = q->sz;
	return esz;
}

/*
 * The feedback loop's goal and its least input, both 10000: the caller
 * scales its score so that the goal is met at 10000.
 */
#define FEED_GOAL	10000UL
#define FEED_MIN_INPUT	10000UL

/*
 * damon_feed_loop_next_input(): @last moved by its share of the distance
 * to the goal, the share by mult_frac() or, in 6.12 (@by_hand), by
 * last * diff / goal unless that product would overflow, then last /
 * goal * diff.
 */
static unsigned long feed_next(unsigned long last, unsigned long score,
			       bool by_hand)
{
	bool over = score > FEED_GOAL;
	unsigned long diff, comp;

	if (score == FEED_GOAL)
		return last;
	if (score >= FEED_GOAL * 2)
		return FEED_MIN_INPUT;
	diff = over ? score - FEED_GOAL : FEED_GOAL - score;
	if (!by_hand)
		comp = hs_mult_frac(last, diff, FEED_GOAL);
	else if (last < ULONG_MAX / diff)
		comp = last * diff / FEED_GOAL;
	else
		comp = last / FEED_GOAL * diff;
	if (over)
		return last - comp > FEED_MIN_INPUT ? last - comp : FEED_MIN_INPUT;
	if (last < ULONG_MAX - comp)
		return last + comp;
	return ULONG_MAX;
}

/**
 * hs_feed_loop_next_input() - damon_feed_loop_next_input() of the newest
 * core: the last input moved by its own share of the distance to the goal,
 * next = max(last * ((goal - score) / goal + 1), min_input), with
 * mult_frac() for the share.
 * @last:	the last input (>= 10000: the caller takes max(esz_bp, 10000)).
 * @score:	the score that input made, 10000 at the goal.
 *
 * Return: the next input.
 */
unsigned long hs_feed_loop_next_input(unsigned long last, unsigned long score)
{
	return feed_next(last, score, false);
}

/**
 * hs_feed_loop_next_input_612() - damon_feed_loop_next_input() of 6.12
 * (linux-source-6.12 mm/damon/core.c): the share computed by hand, with
 * its overflow guard.
 * @last:	the last input.
 * @score:	the score that input made, 10000 at the goal.
 *
 * Return: the next input.
 */
unsigned long hs_feed_loop_next_input_612(unsigned long last,
					  unsigned long score)
{
	return feed_next(last, score, true);
}

/**
 * hs_goal_score() - damos_quota_score() of one goal in the newest core:
 * mult_frac(current_value, 10000, target_value), 10000 at the target.
 * 6.12 computes current_value * 10000 / target_value; both wrap for a
 * large enough current_value, at different points (unsigned, defined).
 * @current:	current_value.
 * @target:	target_value, not 0.
 *
 * Return: the score.
 */
unsigned long hs_goal_score(unsigned long current, unsigned long target)
{
	return hs_mult_frac(current, 10000UL, target);
}

/**
 * hs_quota_goal_esz() - the rest of damos_set_effective_quota() once the
 * goal has fed esz_bp: esz_bp / 10000; with a time quota, its bytes if
 * smaller and then at least one region (min first, as 6.12's core.c and
 * the newest one read: docs/sim.md); then the size quota if smaller.
 * @q:		the quota, its esz_bp fed.
 * @throughput: bytes per ms the action has achieved (hs_quota_esz()'s).
 * @min_region_sz: the smallest region.
 *
 * Return: the effective size quota in bytes.
 */
unsigned long hs_quota_goal_esz(const struct hs_quota *q,
				unsigned long throughput,
				unsigned long min_region_sz)
{
	unsigned long esz = q->esz_bp / 10000, t;

	if (q->ms) {
		t = throughput * q->ms;		/* unsigned long: may wrap */
		if (t < esz)
			esz = t;
		if (esz < min_region_sz)
			esz = min_region_sz;
	}
	if (q->sz && q->sz < esz)
		esz = q->sz;
	return esz;
}

/**
 * hs_quota_min_score() - the cut-off of damos_adjust_quota(): walk the
 * size histogram down from the highest score until the cumulated size
 * reaches the effective quota.
 * @hist:	bytes per score, 0..DAMOS_MAX_SCORE.
 * @max_score:	the highest score with bytes.
 * @esz:	the effective size quota.
 *
 * Return: min_score; 0 when the eligible regions all fit.
 */
unsigned int hs_quota_min_score(const unsigned long *hist,
				unsigned int max_score, unsigned long esz)
{
	unsigned long cumulated = 0;
	unsigned int score;

	for (score = max_score;; score--) {
		cumulated += hist[score];
		if (cumulated >= esz || !score)
			break;
	}
	return score;
}

/**
 * hs_quota_take() - how much of a region of @sz bytes damos_apply_scheme()
 * acts on with @charged bytes of @esz used: all of it, the page-aligned
 * part that still fits (the kernel splits the region there), or nothing.
 * @esz:	the effective size quota.
 * @charged:	bytes charged in this window.
 * @sz:		the region's size.
 * @min_region_sz: the split granularity (a page).
 *
 * Return: bytes acted on.
 */
unsigned long hs_quota_take(unsigned long esz, unsigned long charged,
			    unsigned long sz, unsigned long min_region_sz)
{
	/* damos_quota_is_full(): less than a region's minimum left */
	if (charged >= esz || esz - charged < min_region_sz)
		return 0;
	if (charged + sz > esz)
		sz = ALIGN_DOWN(esz - charged, min_region_sz);
	return sz;
}

/**
 * hs_damos_histogram() - damos_adjust_quota()'s pass over the regions: each
 * eligible region's score counted by its size, for hs_quota_min_score().
 * The simulated kdamond and rank both build their histograms here.
 * @nr:		how many regions.
 * @region_fn:	region @i's score, 0..HS_DAMOS_MAX_SCORE (a larger one
 *		counts as the largest), with its size in @sz; negative where it
 *		is not eligible or has no score, which leaves it out.
 * @ctx:	passed to @region_fn.
 * @hist:	the histogram, HS_DAMOS_MAX_SCORE + 1 counters, zeroed here.
 *
 * Return: the highest score counted, 0 if none.
 */
unsigned int hs_damos_histogram(size_t nr, hs_damos_region_fn region_fn,
				void *ctx, unsigned long *hist)
{
	unsigned int max_score = 0;
	unsigned long sz;
	size_t i;
	int score;

	memset(hist, 0, (HS_DAMOS_MAX_SCORE + 1) * sizeof(*hist));
	for (i = 0; i < nr; i++) {
		score = region_fn(ctx, i, &sz);
		if (score < 0)
			continue;
		if (score > HS_DAMOS_MAX_SCORE)	/* past it, hist overruns */
			score = HS_DAMOS_MAX_SCORE;
		hs_hist_add(hist, &max_score, (unsigned int)score, sz);
	}
	return max_score;
}
