/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay.h - a 6.12 kdamond's DAMOS decisions, replayed from its trace
 * (record_damos.h) through hs_apply_run() and held against what the kernel
 * did, region by region (src/replay/replay.c).
 *
 * At each aggregation where a scheme is due, the replay rebuilds the
 * regions the walk started from out of what damon_aggregated showed after
 * it: each region an action reset gets back the age damos_before_apply
 * showed, and the splits the walk made (at a quota's end, at a resume
 * address) are joined again.  It then runs 6.12's kdamond_apply_schemes()
 * on them with the quota state it has carried since the first sample,
 * and compares:
 * - the applications, in walk order: scheme, region, nr_accesses, age;
 * - the quota state at each (hs_quota): esz, charged_sz, charged_from,
 *   min_score, total_charged_sz;
 * - the regions after the walk with what damon_aggregated showed.
 *
 * Two inputs come from the kernel, for no trace can show them: the
 * jiffies when the quota is adjusted (taken from that sample's hs_tick),
 * and a time quota's summed action time (the next hs_quota of the scheme
 * shows it, unchanged since the window started).
 */
#ifndef HOTSCORE_REPLAY_H
#define HOTSCORE_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "record_damos.h"
#include "score.h"
#include "sim.h"

/* What a miss is. */
enum hs_miss_kind {
	HS_MISS_KERNEL_ONLY,	/* the kernel applied, the replay did not */
	HS_MISS_REPLAY_ONLY,	/* the replay applied, the kernel did not */
	HS_MISS_QUOTA,		/* both applied; the quota state differs */
	HS_MISS_REGIONS,	/* the regions after the walk differ */
	HS_MISS_OFF_AGGR,	/* applied where no aggregation shows regions */
};

/**
 * struct hs_replay_miss - one difference.
 * @kind:	what it is.
 * @sis:	the sample.
 * @scheme:	the scheme.
 * @window:	the scheme's charge window, from 1.
 * @start:	the region.
 * @end:	its end.
 * @nr_accesses: its nr_accesses.
 * @age:	its age.
 * @kernel_min:	the kernel's min_score then, if @kernel_min_known.
 * @kernel_min_known: an hs_quota showed it.
 * @replay_min:	the replay's min_score.
 * @lineno:	the trace line.
 * @what:	the differing field, for HS_MISS_QUOTA and HS_MISS_REGIONS.
 */
struct hs_replay_miss {
	enum hs_miss_kind kind;
	unsigned long sis;
	unsigned int scheme;
	unsigned long window;
	unsigned long start, end;
	unsigned int nr_accesses, age;
	unsigned int kernel_min;
	bool kernel_min_known;
	unsigned int replay_min;
	unsigned long lineno;
	char what[128];
};

/**
 * struct hs_replay_pick - one region of one walk that the replay applied a
 * scheme to, the kernel did, or both: what hotscore rank marks.
 * @sis:	the sample.
 * @scheme:	the scheme.
 * @window:	the replay's charge window of the scheme then, from 1.
 * @start:	the region, as the walk had it just before the action.
 * @end:	its end.
 * @nr_accesses: its nr_accesses.
 * @age:	its age.
 * @score:	the replay's score of it, or HS_EVENT_NO_SCORE (-1) where
 *		it has none: not picked, or a scheme without a quota (the
 *		kernel then scores nothing).
 * @min_score:	the replay's min_score (@picked), else the kernel's if an
 *		hs_quota showed it, else -1.
 * @picked:	the replay applied the scheme to it.
 * @kernel:	the kernel did (damos_before_apply).
 */
struct hs_replay_pick {
	unsigned long sis;
	unsigned int scheme;
	unsigned long window;
	unsigned long start, end;
	unsigned int nr_accesses, age;
	int score, min_score;
	bool picked, kernel;
};

/**
 * struct hs_replay_cfg - what the kdamond was set up with.
 * @attrs:	sample_us, aggr_us, min_region_sz.
 * @ops:	vaddr or paddr.
 * @hz:		the kernel's jiffies per second.
 * @schemes:	the schemes, in the kernel's order; their state is ignored.
 * @nr_schemes:	how many (at most HS_MAX_SCHEMES).
 * @hot:	damon_hot_score() of the kernel's profile.
 * @ctx:	passed to @hot.
 * @max_misses:	keep up to this many misses (all are counted).
 * @on_pick:	if not NULL, called for every application of either side,
 *		in walk order (an application both made once).
 */
struct hs_replay_cfg {
	struct hs_attrs attrs;
	enum hs_ops ops;
	unsigned long hz;
	const struct hs_scheme *schemes;
	unsigned int nr_schemes;
	int (*hot)(void *ctx, const struct hs_input *in);
	void *ctx;
	size_t max_misses;
	void (*on_pick)(void *ctx, const struct hs_replay_pick *p);
};

/**
 * struct hs_replay_result - the comparison.
 * @nr_kernel:	the kernel's applications.
 * @nr_matched:	those the replay made the same (region, scheme,
 *		nr_accesses, age, and the quota state where shown).
 * @nr_replay_only: the replay's applications the kernel did not make.
 * @nr_quota:	applications with an hs_quota line; @nr_quota_equal with
 *		the replay's quota state equal.
 * @nr_quota_equal: see @nr_quota.
 * @nr_aggr:	aggregations where a scheme was due; @nr_aggr_equal whose
 *		regions after the walk equal the replay's.
 * @nr_aggr_equal: see @nr_aggr.
 * @nr_samples:	samples in the trace.
 * @nr_windows:	charge windows the replay started, all schemes.
 * @nr_ns_taken: time-quota windows whose action time a later hs_quota
 *		showed; @nr_ns_unseen those with no later one (the last
 *		known was used).
 * @nr_ns_unseen: see @nr_ns_taken.
 * @nr_from_kernel: quota adjustments whose jiffies the kernel's
 *		charged_from gave (a window it started there).
 * @nr_reanchored: windows in which nothing was applied whose start the
 *		replay moved earlier, to where the kernel's next window start
 *		says it was (see adjust_jiffies() in src/replay/replay.c).
 * @nr_late:	quota adjustments the replay put past the sample's check,
 *		at a window's end no later than the next sample's check,
 *		because only then did its walk equal the kernel's (a window
 *		started where nothing was applied; see late_candidates()).
 * @schemes_applied: a bit per scheme with a kernel application.
 * @per_scheme:	the kernel's applications per scheme.
 * @nr_misses:	misses, all counted; the first cfg->max_misses in @misses.
 * @misses:	kept misses (allocated; hs_replay_free()).
 */
struct hs_replay_result {
	unsigned long nr_kernel, nr_matched, nr_replay_only;
	unsigned long nr_quota, nr_quota_equal;
	unsigned long nr_aggr, nr_aggr_equal;
	unsigned long nr_samples, nr_windows;
	unsigned long nr_ns_taken, nr_ns_unseen;
	unsigned long nr_from_kernel, nr_reanchored;
	unsigned long nr_late;
	unsigned long schemes_applied;
	unsigned long per_scheme[HS_MAX_SCHEMES];
	unsigned long nr_misses;
	struct hs_replay_miss *misses;
};

int hs_replay(const struct hs_replay_cfg *cfg, const struct hs_dtrace *t,
	      struct hs_replay_result *res, char *err, size_t errlen);
void hs_replay_free(struct hs_replay_result *res);
const char *hs_miss_kind_name(enum hs_miss_kind k);

#endif /* HOTSCORE_REPLAY_H */
