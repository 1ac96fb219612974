/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_apply.h - kdamond_apply_schemes() on a list of regions, with every
 * scheme's quota state carried from one call to the next as the kernel
 * carries it: the charge window, the bytes charged in it, the resume
 * address of a window that ended part-way, the effective size, and the
 * histogram's min_score (src/sim/apply.c).
 *
 * It is the one DAMOS walk of hotscore, in two cores:
 * - HS_CORE_612, Linux 6.12's, which hotscore replay holds against a 6.12
 *   kdamond's own damos_before_apply events and rank --damos_trace marks
 *   the kernel's picks with;
 * - HS_CORE_NEWEST, the newest core's, which the simulated kdamond runs.
 *
 * What the kernel measures and a model cannot know comes in through
 * callbacks: the jiffies of each call, and a time quota's summed action
 * time (quota->total_charged_ns), which sets the throughput the next
 * window's effective size is computed from.  The simulator also supplies
 * its own scores, access pattern test, batch histogram and goal-driven
 * effective size through them.
 */
#ifndef HOTSCORE_SIM_APPLY_H
#define HOTSCORE_SIM_APPLY_H

#include <stdbool.h>
#include <stddef.h>

#include "score.h"
#include "sim.h"

/**
 * enum hs_core - whose kdamond_apply_schemes() the walk is.
 * @HS_CORE_612:	6.12's: the first charge window has esz 0 (no limit),
 *			the quota is full only at charged_sz >= esz, the
 *			resume address is forgotten only at the last region,
 *			and split regions stay split until the next merge.
 * @HS_CORE_NEWEST:	the newest core's: the first window computes esz,
 *			less than a region's minimum left is full, the resume
 *			address is forgotten once passed, and the walk merges
 *			a region into its equal left neighbour.
 */
enum hs_core {
	HS_CORE_612,
	HS_CORE_NEWEST,
};

/**
 * struct hs_apply_ops - what hs_apply_run() asks of its caller.
 * @hot:	damon_hot_score() on @in; the core takes the cold score from
 *		it as damon_cold_score() does.  Used when @score is NULL.
 * @score:	get_scheme_score() of region @r for scheme @s, 0..99; NULL:
 *		from @hot.
 * @eligible:	__damos_valid_target() of @r for scheme @s; NULL: 6.12's
 *		test, on nr_accesses_bp / 10000.
 * @histogram:	fill @hist (zeroed here) with the sizes of scheme @s's
 *		eligible regions by score and return the highest score, or
 *		-1 to leave it to the walk (region by region); NULL: -1.
 * @set_esz:	damos_set_effective_quota() of scheme @s; NULL: without
 *		goals, from @charged_ns, as 6.12 computes it (a plain
 *		multiply where the newest core uses mult_frac(): the same
 *		while nothing was charged, hs_damos_walk()'s and rank
 *		--carry's case).
 * @charged_ns:	quota->total_charged_ns of scheme @s when a new charge
 *		window computes its effective size (a time quota only);
 *		NULL: the quota's own.
 * @jiffies:	jiffies when scheme @s's quota is adjusted, if not @dflt
 *		(hs_apply_run()'s); NULL: @dflt.
 * @on_apply:	damos_apply_scheme() reached the ops' apply_scheme() for
 *		region @r (as trace_damos_before_apply() shows it: @r's age
 *		before the reset) of scheme @s, whose quota is @q just then
 *		(charged_sz before @r is added); @score is the score that let
 *		it through, or HS_EVENT_NO_SCORE; @nr_regions the target's
 *		regions then (damon_nr_regions(), the tracepoint's field).
 *		Returns the bytes the action acted on (sz_applied).
 */
struct hs_apply_ops {
	int (*hot)(void *ctx, const struct hs_input *in);
	int (*score)(void *ctx, const struct hs_region *r, unsigned int s);
	bool (*eligible)(void *ctx, const struct hs_region *r, unsigned int s);
	int (*histogram)(void *ctx, unsigned int s, unsigned long *hist);
	void (*set_esz)(void *ctx, unsigned int s);
	unsigned long (*charged_ns)(void *ctx, unsigned int s);
	unsigned long (*jiffies)(void *ctx, unsigned int s,
				 unsigned long dflt);
	unsigned long (*on_apply)(void *ctx, const struct hs_region *r,
				  unsigned int s, int score,
				  const struct hs_quota *q, size_t nr_regions);
};

/**
 * struct hs_apply - one DAMON context's schemes, between calls.
 * @core:	whose walk.
 * @attrs:	sample_us, aggr_us and min_region_sz are read.
 * @ops:	vaddr or paddr: which score an action takes.
 * @hz:		jiffies per second (msecs_to_jiffies()).
 * @schemes:	the schemes with their quota state; @next_apply_sis of
 *		each starts as kdamond_init_intervals_sis() sets it
 *		(hs_apply_init()).
 * @nr_schemes:	how many.
 * @cb:		the callbacks.
 * @ctx:	passed to them.
 * @next_aggr_sis: ctx->next_aggregation_sis, for the score's input; the
 *		caller keeps it.
 * @max_region_sz: HS_CORE_NEWEST: the largest region the walk's merge
 *		makes (damon_region_sz_limit()); the caller keeps it.
 * @hist:	regions_score_histogram.
 * @nr_adjust:	damos_adjust_quota() calls that built a histogram.
 * @nr_windows:	charge windows started, all schemes.
 * @nomem:	a split found no memory: the walk stopped.
 */
struct hs_apply {
	enum hs_core core;
	struct hs_attrs attrs;
	enum hs_ops ops;
	unsigned long hz;
	struct hs_scheme *schemes;
	unsigned int nr_schemes;
	const struct hs_apply_ops *cb;
	void *ctx;
	unsigned long next_aggr_sis;
	unsigned long max_region_sz;
	unsigned long hist[HS_DAMOS_MAX_SCORE + 1];
	unsigned long nr_adjust;
	unsigned long nr_windows;
	bool nomem;
};

void hs_apply_init(struct hs_apply *a);
bool hs_apply_due(const struct hs_apply *a, unsigned long passed_sis);
void hs_apply_adjust(struct hs_apply *a, unsigned int s,
		     unsigned long passed_sis, unsigned long jiffies,
		     const struct hs_region *r, size_t nr);
bool hs_apply_adjust_due(struct hs_apply *a, unsigned long passed_sis,
			 unsigned long jiffies, const struct hs_region *r,
			 size_t nr);
int hs_apply_walk(struct hs_apply *a, unsigned long passed_sis,
		  struct hs_region **r, size_t *nr, size_t *cap);
int hs_apply_one(struct hs_apply *a, struct hs_region **r, size_t *nr,
		 size_t *cap, size_t i, unsigned int s, int score);
int hs_apply_run(struct hs_apply *a, unsigned long passed_sis,
		 unsigned long jiffies, struct hs_region **r, size_t *nr,
		 size_t *cap);

#endif /* HOTSCORE_SIM_APPLY_H */
