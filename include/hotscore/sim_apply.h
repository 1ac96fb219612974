/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_apply.h - Linux 6.12's kdamond_apply_schemes() on a list of regions,
 * with every scheme's quota state carried from one call to the next as the
 * kernel carries it: the charge window, the bytes charged in it, the
 * resume address of a window that ended part-way, the effective size, and
 * the histogram's min_score (src/sim/apply612.c).  hotscore replay holds
 * it against a 6.12 kdamond's own damos_before_apply events.
 *
 * What the kernel measures and a model cannot know comes in through
 * callbacks: the jiffies of each call, and a time quota's summed action
 * time (quota->total_charged_ns), which sets the throughput the next
 * window's effective size is computed from.
 */
#ifndef HOTSCORE_SIM_APPLY_H
#define HOTSCORE_SIM_APPLY_H

#include <stdbool.h>
#include <stddef.h>

#include "score.h"
#include "sim.h"

struct hs_apply;

/**
 * struct hs_apply_ops - what hs_apply612() asks of its caller.
 * @hot:	damon_hot_score() on @in; the core takes the cold score from
 *		it as damon_cold_score() does.
 * @charged_ns:	quota->total_charged_ns of scheme @s when a new charge
 *		window computes its effective size (a time quota only).
 * @jiffies:	jiffies when scheme @s's quota is adjusted, if not @dflt
 *		(hs_apply612()'s); NULL: @dflt.
 * @on_apply:	damos_apply_scheme() reached the ops' apply_scheme() for
 *		region @r (as trace_damos_before_apply() shows it: @r's age
 *		before the reset) of scheme @s, whose quota is @q just then
 *		(charged_sz before @r is added); @score is the score that let
 *		it through, or HS_EVENT_NO_SCORE; @nr_regions the target's
 *		regions then (damon_nr_regions(), the tracepoint's field).
 */
struct hs_apply_ops {
	int (*hot)(void *ctx, const struct hs_input *in);
	unsigned long (*charged_ns)(void *ctx, unsigned int s);
	unsigned long (*jiffies)(void *ctx, unsigned int s,
				 unsigned long dflt);
	void (*on_apply)(void *ctx, const struct hs_region *r, unsigned int s,
			 int score, const struct hs_quota *q,
			 size_t nr_regions);
};

/**
 * struct hs_apply - one DAMON context's schemes, between calls.
 * @attrs:	sample_us, aggr_us and min_region_sz are read.
 * @ops:	vaddr or paddr: which score an action takes.
 * @hz:		jiffies per second (msecs_to_jiffies()).
 * @schemes:	the schemes with their quota state; @next_apply_sis of
 *		each starts as kdamond_init_intervals_sis() sets it
 *		(hs_apply612_init()).
 * @nr_schemes:	how many.
 * @cb:		the callbacks.
 * @ctx:	passed to them.
 * @next_aggr_sis: ctx->next_aggregation_sis, for the score's input; the
 *		caller keeps it.
 * @hist:	regions_score_histogram.
 * @nr_adjust:	damos_adjust_quota() calls that built a histogram.
 * @nr_windows:	charge windows started, all schemes.
 * @nomem:	a split found no memory: the walk stopped.
 */
struct hs_apply {
	struct hs_attrs attrs;
	enum hs_ops ops;
	unsigned long hz;
	struct hs_scheme *schemes;
	unsigned int nr_schemes;
	const struct hs_apply_ops *cb;
	void *ctx;
	unsigned long next_aggr_sis;
	unsigned long hist[HS_DAMOS_MAX_SCORE + 1];
	unsigned long nr_adjust;
	unsigned long nr_windows;
	bool nomem;
};

void hs_apply612_init(struct hs_apply *a);
bool hs_apply612_due(const struct hs_apply *a, unsigned long passed_sis);
int hs_apply612(struct hs_apply *a, unsigned long passed_sis,
		unsigned long jiffies, struct hs_region **r, size_t *nr,
		size_t *cap);

#endif /* HOTSCORE_SIM_APPLY_H */
