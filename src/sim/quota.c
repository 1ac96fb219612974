// SPDX-License-Identifier: GPL-2.0
/*
 * quota.c - DAMOS's quota arithmetic on its own (include/hotscore/damos.h),
 * each step after the line of mm/damon/core.c (linux-mm, 2026) it models.
 */
#include "hotscore/damos.h"

#include "internal.h"

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

/** hs_quota_set() - damos_quota_is_set(): any of esz, sz or ms. */
bool hs_quota_set(const struct hs_quota *q)
{
	return q->esz || q->sz || q->ms;
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
