// SPDX-License-Identifier: GPL-2.0
/*
 * kdamond.c - kdamond_fn()'s loop, one sample interval per step: prepare
 * and check accesses; at an aggregation boundary merge and re-apply
 * min_nr_regions; apply schemes (after the merge, before the reset, so that
 * a boundary sees the full count); then reset, split and the ops update.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"

/* time_after_eq(a, b) */
static bool after_eq(unsigned long a, unsigned long b)
{
	return (long)(a - b) >= 0;
}

/**
 * hs_sim_now_ns() - simulated time since kdamond started: the sample
 * intervals slept so far plus the time actions kept kdamond busy.
 * @sim:	the simulation.
 *
 * Return: nanoseconds.
 */
uint64_t hs_sim_now_ns(const struct hs_sim *sim)
{
	return (uint64_t)sim->passed_sis * sim->cfg.attrs.sample_us * 1000 +
		sim->busy_ns;
}

uint64_t hs_sim_now_us(const struct hs_sim *sim)
{
	return hs_sim_now_ns(sim) / 1000;
}

/**
 * hs_sim_stamp() - charge the stage clock's ticks since *@t to @stage.
 * @sim:	the simulation.
 * @stage:	the stage that just ran.
 * @t:		the last reading; updated.
 */
void hs_sim_stamp(struct hs_sim *sim, enum hs_stage stage, uint64_t *t)
{
	uint64_t now;

	if (!sim->cfg.clock)
		return;
	now = sim->cfg.clock->read();
	sim->stage_ticks[stage] += now - *t;
	*t = now;
}

/*
 * vaddr's damon_va_three_regions(): the mappings without the two biggest
 * gaps between them (heap to mmap area, mmap area to stack).
 */
static int three_regions(struct hs_sim *sim, char *err, size_t errlen)
{
	const struct hs_workload *wl = sim->wl;
	unsigned int i, g1 = 0, g2 = 0;
	uint64_t s1 = 0, s2 = 0;

	for (i = 1; i < wl->nr_regions; i++) {
		uint64_t gap = wl->regions[i].start - wl->regions[i - 1].end;

		if (gap > s1) {
			s2 = s1, g2 = g1;
			s1 = gap, g1 = i;
		} else if (gap > s2) {
			s2 = gap, g2 = i;
		}
	}
	if (!s2) {
		snprintf(err, errlen, "vaddr needs two gaps between mappings");
		return -1;
	}
	if (g1 > g2) {
		i = g1, g1 = g2, g2 = i;
	}
	sim->ranges[0][0] = wl->regions[0].start;
	sim->ranges[0][1] = wl->regions[g1 - 1].end;
	sim->ranges[1][0] = wl->regions[g1].start;
	sim->ranges[1][1] = wl->regions[g2 - 1].end;
	sim->ranges[2][0] = wl->regions[g2].start;
	sim->ranges[2][1] = wl->regions[wl->nr_regions - 1].end;
	sim->nr_ranges = 3;
	return 0;
}

/* damon_set_attrs()'s checks, plus what the simulator needs. */
static int check_attrs(const struct hs_attrs *a, char *err, size_t errlen)
{
	const char *why = NULL;

	if (!a->sample_us)
		why = "the sampling interval must be at least 1 us";
	else if (a->sample_us > a->aggr_us)
		why = "the sampling interval is longer than the aggregation interval";
	else if (a->min_nr_regions < 3)
		why = "min_nr_regions must be at least 3";
	else if (a->min_nr_regions > a->max_nr_regions)
		why = "min_nr_regions is larger than max_nr_regions";
	if (why)
		snprintf(err, errlen, "%s", why);
	return why ? -1 : 0;
}

/* A profile that divides by zero with these intervals would oops. */
static int check_profile(const struct hs_sim_config *cfg, char *err,
			 size_t errlen)
{
	struct hs_input in = { 0 };
	struct hs_result res;

	in.sample_us = cfg->attrs.sample_us;
	in.aggr_us = cfg->attrs.aggr_us;
	in.next_aggr_sis = cfg->attrs.aggr_us / cfg->attrs.sample_us;
	in.weight_nr_accesses = 1;
	res = hs_score(&cfg->comp, &in, NULL);
	if (res.status != HS_DIV0)
		return 0;
	snprintf(err, errlen, "divides by zero at --sample %lu --aggr %lu (a kernel oops)",
		 cfg->attrs.sample_us, cfg->attrs.aggr_us);
	return -1;
}

/*
 * Each quota goal: a target the kernel takes (not 0), and a user_input
 * goal's script of 1 to HS_GOAL_MAX_STEPS values.
 */
static int check_goals(const struct hs_sim_config *cfg, char *err,
		       size_t errlen)
{
	unsigned int i;

	for (i = 0; i < cfg->nr_schemes; i++) {
		const struct hs_quota_goal *g = &cfg->schemes[i].quota.goal;

		if (g->metric == HS_GOAL_NONE)
			continue;
		if (g->metric != HS_GOAL_USER_INPUT &&
		    g->metric != HS_GOAL_SOME_MEM_PSI_US) {
			snprintf(err, errlen, "scheme %u: quota goal metric %d is not simulated",
				 i, (int)g->metric);
			return -1;
		}
		if (!g->target) {
			snprintf(err, errlen, "scheme %u: quota goal target 0", i);
			return -1;
		}
		if (g->metric == HS_GOAL_USER_INPUT &&
		    (!g->script || !g->nr_script ||
		     g->nr_script > HS_GOAL_MAX_STEPS)) {
			snprintf(err, errlen, "scheme %u: a user_input goal needs 1 to %d values",
				 i, HS_GOAL_MAX_STEPS);
			return -1;
		}
	}
	return 0;
}

/**
 * hs_sim_validate() - whether a configuration can run: damon_set_attrs()'s
 * checks, and a profile that would not divide by zero with its intervals.
 * @cfg:	the configuration.
 * @err:	receives the reason on failure.
 * @errlen:	size of @err.
 *
 * Return: 0, or -1 with @err set.
 */
int hs_sim_validate(const struct hs_sim_config *cfg, char *err, size_t errlen)
{
	if (check_attrs(&cfg->attrs, err, errlen) ||
	    check_profile(cfg, err, errlen))
		return -1;
	if (cfg->nr_schemes > HS_MAX_SCHEMES) {
		snprintf(err, errlen, "at most %d schemes", HS_MAX_SCHEMES);
		return -1;
	}
	return check_goals(cfg, err, errlen);
}

static const char *const scorer_names[HS_NR_SCORERS] = {
	"kernel", "fast", "fast-batch",
};

/** hs_scorer_name() - "kernel", "fast" or "fast-batch". */
const char *hs_scorer_name(enum hs_scorer s)
{
	return s < HS_NR_SCORERS ? scorer_names[s] : "?";
}

/** hs_scorer_parse() - a scorer by name, or -1. */
int hs_scorer_parse(const char *name)
{
	int i;

	for (i = 0; i < HS_NR_SCORERS; i++)
		if (!strcmp(name, scorer_names[i]))
			return i;
	return -1;
}

/*
 * Each scheme's prepared scorer: what the kernel would build when the
 * scheme and the attributes are committed (they never change in a run).
 */
static int prepare_schemes(struct hs_sim *sim)
{
	const struct hs_attrs *a = &sim->cfg.attrs;
	unsigned int i;

	sim->preps = calloc(sim->cfg.nr_schemes + 1, sizeof(*sim->preps));
	if (!sim->preps)
		return -1;
	for (i = 0; i < sim->cfg.nr_schemes; i++) {
		struct hs_input in = {
			.sample_us = a->sample_us, .aggr_us = a->aggr_us,
			.passed_sis = sim->passed_sis,
			.next_aggr_sis = sim->next_aggr_sis,
			.weight_nr_accesses = sim->schemes[i].quota.weight_nr,
			.weight_age = sim->schemes[i].quota.weight_age,
		};

		hs_prep_init(&sim->preps[i], &sim->cfg.comp, &in);
	}
	return 0;
}

/*
 * damon_update_region_access_rate()'s len_window (6.12, mm/damon/core.c):
 * damon_max_nr_accesses(attrs) where sample_interval is set, else 1.
 */
static unsigned int bp_window(const struct hs_attrs *a)
{
	unsigned long q;

	if (!a->sample_us)
		return 1;
	q = a->aggr_us / a->sample_us;
	q = q < UINT_MAX ? q : UINT_MAX;
	return q ? (unsigned int)q : 1;
}

/**
 * hs_sim_init() - set up kdamond for a workload: the target's initial
 * regions (damon_set_regions() of the ranges, then min_nr_regions) and the
 * schemes' first apply times (kdamond_init_ctx()).
 * @sim:	receives the simulation; hs_sim_free() it.
 * @cfg:	the configuration (copied; the schemes too).
 * @wl:		a laid-out, prepared workload; the simulation changes its
 *		residency.
 * @err:	receives the reason on failure.
 * @errlen:	size of @err.
 *
 * Return: 0, or -1 with @err set.
 */
int hs_sim_init(struct hs_sim *sim, const struct hs_sim_config *cfg,
		struct hs_workload *wl, char *err, size_t errlen)
{
	unsigned int i;

	memset(sim, 0, sizeof(*sim));
	sim->cfg = *cfg;
	sim->wl = wl;
	if (hs_sim_validate(cfg, err, errlen))
		return -1;
	sim->rnd = cfg->seed;
	sim->track_bp = cfg->comp.freq == HS_FREQ_BP;
	hs_recip_init(&sim->bp_window, bp_window(&cfg->attrs));
	sim->capture_rnd = cfg->seed ^ 0x5851f42d4c957f2dULL;
	sim->hash = 0xcbf29ce484222325ULL;
	sim->schemes = calloc(cfg->nr_schemes + 1, sizeof(*sim->schemes));
	sim->events = calloc(cfg->max_events + 1, sizeof(*sim->events));
	sim->inputs = calloc(cfg->capture + 1, sizeof(*sim->inputs));
	if (!sim->schemes || !sim->events || !sim->inputs)
		goto oom;
	if (cfg->nr_schemes)
		memcpy(sim->schemes, cfg->schemes,
		       cfg->nr_schemes * sizeof(*sim->schemes));
	if (cfg->ops == HS_OPS_VADDR) {
		if (three_regions(sim, err, errlen))
			return -1;
	} else {
		sim->ranges[0][0] = wl->regions[0].start;
		sim->ranges[0][1] = wl->regions[wl->nr_regions - 1].end;
		sim->nr_ranges = 1;
	}
	if (hs_set_regions(sim))
		goto oom;
	sim->next_aggr_sis = cfg->attrs.aggr_us / cfg->attrs.sample_us;
	sim->next_ops_update_sis = cfg->attrs.ops_update_us /
		cfg->attrs.sample_us;
	for (i = 0; i < cfg->nr_schemes; i++) {
		struct hs_scheme *s = &sim->schemes[i];
		unsigned long apply = s->apply_us ? s->apply_us :
			cfg->attrs.aggr_us;

		memset(&s->stat, 0, sizeof(s->stat));
		/* damos_quota_init(): what API users do not set */
		s->quota.esz = 0;
		s->quota.total_charged_sz = 0;
		s->quota.total_charged_ns = 0;
		s->quota.charged_sz = 0;
		s->quota.charged_from = 0;
		s->quota.charge_from_set = false;
		s->quota.charge_addr_from = 0;
		s->quota.min_score = 0;
		s->quota.esz_bp = 0;
		s->quota.goal_step = 0;
		s->quota.goal_current = 0;
		s->quota.goal_last_psi = UINT64_MAX;	/* damos_new_quota_goal() */
		s->next_apply_sis = apply / cfg->attrs.sample_us;
	}
	if (cfg->scorer != HS_SCORER_KERNEL && prepare_schemes(sim))
		goto oom;
	sim->sz_limit = hs_apply_min_nr_regions(sim);
	sim->min_seen = SIZE_MAX;	/* set by the first split */
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

void hs_sim_free(struct hs_sim *sim)
{
	free(sim->r);
	free(sim->tmp);
	free(sim->schemes);
	free(sim->events);
	free(sim->inputs);
	free(sim->preps);
	free(sim->batch.idx);	/* the block of every batch array */
	memset(sim, 0, sizeof(*sim));
}

/*
 * Which workload region each kdamond region lies in, and whether wholly:
 * recomputed after the regions changed (at most once per apply or
 * aggregation), so that the sampling pass rarely has to look it up.
 */
static void locate_regions(struct hs_sim *sim)
{
	const struct hs_workload *wl = sim->wl;
	size_t i;

	for (i = 0; i < sim->nr; i++) {
		struct hs_region *r = &sim->r[i];
		unsigned int w = hs_workload_find(wl, r->start,
						  r->wl & ~HS_REGION_WHOLE);

		if (w < wl->nr_regions && r->end <= wl->regions[w].end)
			w |= HS_REGION_WHOLE;
		r->wl = w;
	}
	sim->regions_changed = false;
}

/*
 * One sample's result for @r: nr_accesses and, where kept, 6.12's
 * damon_update_region_access_rate():
 *	r->nr_accesses_bp = damon_moving_sum(r->nr_accesses_bp,
 *			r->last_nr_accesses * 10000, len_window,
 *			accessed ? 10000 : 0);
 * with damon_moving_sum() = mvsum - nomvsum / len_window + new_value, all
 * unsigned int.
 */
static __always_inline void sampled(struct hs_region *r, bool accessed,
				    bool bp, const struct hs_recip *len_window)
{
	/* nomvsum / len_window by the reciprocal: exact for any u32 */
	if (bp)
		r->nr_accesses_bp = r->nr_accesses_bp -
			hs_recip_div(len_window, r->last_nr_accesses * 10000u) +
			(accessed ? 10000u : 0);
	r->nr_accesses += accessed;
}

/**
 * hs_region_sampled() - damon_update_region_access_rate() of 6.12 on one
 * region: one sample's result, nr_accesses_bp included.
 * @r:		the region.
 * @accessed:	whether the sample found it accessed.
 * @len_window:	damon_max_nr_accesses() of the attributes (1 if the
 *		sampling interval is 0).
 */
void hs_region_sampled(struct hs_region *r, bool accessed,
		       unsigned int len_window)
{
	struct hs_recip d;

	hs_recip_init(&d, len_window);
	sampled(r, accessed, true, &d);
}

/*
 * prepare_access_checks, the sample interval and check_accesses.  The
 * kernel picks every sampling address, sleeps, then checks them all; as
 * the workload oracle does not depend on when a region is checked, one
 * pass does both, drawing damon_rand() in the same order.  A region wholly
 * inside a workload region that this sample touches entirely or not at
 * all has an answer that no sampling address can change: it draws none.
 */
static __always_inline void sample_with(struct hs_sim *sim, bool bp)
{
	const struct hs_workload *wl = sim->wl;
	struct hs_region *r = sim->r, *end = sim->r + sim->nr;
	uint64_t rnd = sim->rnd;	/* a local: no aliasing with regions */
	const struct hs_recip *len_window = &sim->bp_window;

	hs_workload_begin(sim->wl, sim->passed_sis, hs_sim_now_us(sim));
	if (sim->regions_changed)
		locate_regions(sim);
	for (; r < end; r++) {
		unsigned long addr;

		if (r->wl & HS_REGION_WHOLE) {
			uint8_t kind = wl->kind[r->wl & ~HS_REGION_WHOLE];

			if (kind != HS_WL_SOME) {
				sampled(r, kind == HS_WL_ALL, bp, len_window);
				continue;
			}
		}
		addr = hs_rand_next(&rnd, r->start, r->end);
		if (!(r->wl & HS_REGION_WHOLE))
			r->wl = hs_workload_find(wl, addr, r->wl);
		sampled(r, hs_workload_touched(wl, r->wl & ~HS_REGION_WHOLE,
					       addr), bp, len_window);
	}
	sim->rnd = rnd;
	sim->region_samples += sim->nr;
}

/* Two copies: the moving sum costs nothing where no profile reads it. */
static void sample(struct hs_sim *sim)
{
	if (sim->track_bp)
		sample_with(sim, true);
	else
		sample_with(sim, false);
}

/* check_accesses()'s return: the largest nr_accesses. */
static unsigned int max_nr_accesses(const struct hs_sim *sim)
{
	unsigned int max_nr = 0;
	size_t i;

	for (i = 0; i < sim->nr; i++)
		if (sim->r[i].nr_accesses > max_nr)
			max_nr = sim->r[i].nr_accesses;
	return max_nr;
}

/*
 * kdamond_reset_aggregated(); 6.12's leaves nr_accesses_bp as it is: the
 * moving sum runs on across the boundary.
 */
static void reset_aggregated(struct hs_sim *sim)
{
	size_t i;

	for (i = 0; i < sim->nr; i++) {
		sim->r[i].last_nr_accesses = sim->r[i].nr_accesses;
		sim->r[i].nr_accesses = 0;
	}
}

/**
 * hs_sim_step() - one iteration of kdamond_fn(): one sample interval.
 * @sim:	the simulation.
 *
 * Return: true while the run should go on: not past the duration, and no
 * score has left [0, 99].
 */
bool hs_sim_step(struct hs_sim *sim)
{
	const struct hs_attrs *a = &sim->cfg.attrs;
	unsigned long next_aggr = sim->next_aggr_sis;
	unsigned long next_update = sim->next_ops_update_sis;
	uint64_t t = sim->cfg.clock ? sim->cfg.clock->read() : 0;
	bool boundary;

	sample(sim);
	hs_sim_stamp(sim, HS_STAGE_SAMPLE, &t);
	/* the workload's own touches of paged-out pages during the sample */
	hs_workload_fault_in(sim->wl);
	hs_sim_stamp(sim, HS_STAGE_WORKLOAD, &t);
	sim->passed_sis++;
	sim->nr_samples++;
	boundary = after_eq(sim->passed_sis, next_aggr);
	if (boundary) {
		/* only the boundary's check_accesses() result is used */
		hs_merge_regions(sim, max_nr_accesses(sim) / 10, sim->sz_limit);
		sim->sz_limit = hs_apply_min_nr_regions(sim);
		hs_sim_stamp(sim, HS_STAGE_MERGE, &t);
	}
	if (sim->cfg.nr_schemes)
		hs_apply_schemes(sim, &t);
	if (boundary) {
		if (sim->cfg.on_aggregate)
			sim->cfg.on_aggregate(sim, sim->cfg.ctx);
		if (sim->cfg.clock)
			t = sim->cfg.clock->read();
		sim->next_aggr_sis = next_aggr + a->aggr_us / a->sample_us;
		reset_aggregated(sim);
		hs_sim_stamp(sim, HS_STAGE_AGGREGATE, &t);
		hs_split_regions(sim);
		hs_sim_stamp(sim, HS_STAGE_SPLIT, &t);
		sim->nr_aggr++;
		if (sim->nr < sim->min_seen)
			sim->min_seen = sim->nr;
		if (sim->nr > sim->max_seen)
			sim->max_seen = sim->nr;
	}
	if (after_eq(sim->passed_sis, next_update)) {
		sim->next_ops_update_sis = next_update +
			a->ops_update_us / a->sample_us;
		/* vaddr re-reads the mappings; the layout does not change */
		if (sim->cfg.ops == HS_OPS_VADDR)
			hs_set_regions(sim);
		hs_sim_stamp(sim, HS_STAGE_AGGREGATE, &t);
	}
	return !sim->overrun && hs_sim_now_us(sim) < sim->cfg.duration_us;
}
