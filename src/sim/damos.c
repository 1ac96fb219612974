// SPDX-License-Identifier: GPL-2.0
/*
 * damos.c - DAMOS in the newest core: access patterns, the quota's charge
 * window and effective size, damos_adjust_quota()'s score histogram and
 * min_score, and the region walk that applies actions within the quota.
 *
 * Quota goals, watermarks and filters are not simulated (docs/sim.md).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "hotscore/kernel.h"
#include "hotscore/sim_apply.h"
#include "hotscore/sim_damos.h"
#include "sim_internal.h"

#define ALIGN_DOWN(x, a)	((x) / (a) * (a))
#define PAGE_SIZE		HS_PAGE_SIZE

static const char *const action_names[HS_NR_ACTIONS] = {
	[HS_ACT_STAT] = "stat",
	[HS_ACT_PAGEOUT] = "pageout",
	[HS_ACT_LRU_PRIO] = "lru_prio",
	[HS_ACT_LRU_DEPRIO] = "lru_deprio",
	[HS_ACT_MIGRATE_HOT] = "migrate_hot",
	[HS_ACT_MIGRATE_COLD] = "migrate_cold",
};

/*
 * Simulated time an action takes per page it acts on (ns): what the ms
 * quota's throughput estimate sees.  A model, not a measurement: reclaim at
 * about 2 GB/s, LRU moves and migration in between (docs/sim.md).
 */
static const unsigned long action_ns_per_page[HS_NR_ACTIONS] = {
	[HS_ACT_STAT] = 0,
	[HS_ACT_PAGEOUT] = 2000,
	[HS_ACT_LRU_PRIO] = 100,
	[HS_ACT_LRU_DEPRIO] = 100,
	[HS_ACT_MIGRATE_HOT] = 1000,
	[HS_ACT_MIGRATE_COLD] = 1000,
};

int hs_action_parse(const char *name)
{
	int i;

	for (i = 0; i < HS_NR_ACTIONS; i++)
		if (!strcmp(name, action_names[i]))
			return i;
	return -1;
}

const char *hs_action_name(enum hs_action a)
{
	return a < HS_NR_ACTIONS ? action_names[a] : "?";
}

static unsigned long sz_region(const struct hs_region *r)
{
	return r->end - r->start;
}

/**
 * hs_jiffies() - the simulated jiffies: kdamond starts at jiffies = HZ.
 * Any non-zero start would do: a running 64-bit machine's jiffies are
 * never 0 (INITIAL_JIFFIES is 2^32 - 300 s worth), and the first window's
 * "charged_from == 0" test must not fire again.
 * @sim:	the simulation.
 *
 * Return: jiffies.
 */
unsigned long hs_jiffies(const struct hs_sim *sim)
{
	return sim->cfg.hz + hs_sim_now_us(sim) * sim->cfg.hz / 1000000;
}

static bool time_before(unsigned long a, unsigned long b)
{
	return (long)(a - b) < 0;
}

static void fill_input(const struct hs_sim *sim, const struct hs_region *r,
		       const struct hs_quota *q, struct hs_input *in)
{
	in->sample_us = sim->cfg.attrs.sample_us;
	in->aggr_us = sim->cfg.attrs.aggr_us;
	in->passed_sis = sim->passed_sis;
	in->next_aggr_sis = sim->next_aggr_sis;
	in->nr_accesses = r->nr_accesses;
	in->nr_accesses_bp = sim->track_bp ? r->nr_accesses_bp :
		hs_bp_of_nr(r->nr_accesses);
	in->last_nr_accesses = r->last_nr_accesses;
	in->age = r->age;
	in->weight_nr_accesses = q ? q->weight_nr : 0;
	in->weight_age = q ? q->weight_age : 0;
}

/**
 * hs_region_mvsum() - damon_nr_accesses_mvsum(r, c) of the newest core.
 * @sim:	the simulation.
 * @r:		the region.
 *
 * Return: the moving-sum nr_accesses.
 */
unsigned int hs_region_mvsum(const struct hs_sim *sim,
			     const struct hs_region *r)
{
	struct hs_input in;

	/*
	 * At an aggregation boundary the rest of the window is empty and the
	 * moving sum is nr_accesses exactly; skip the model's divisions.
	 */
	if (!time_before(sim->passed_sis, sim->next_aggr_sis))
		return r->nr_accesses;
	fill_input(sim, r, NULL, &in);
	return hs_nr_accesses_mvsum(&in);
}

/**
 * hs_pattern_match() - __damos_valid_target(): size, moving-sum
 * nr_accesses and age within the pattern, all bounds inclusive.
 * @sim:	the simulation.
 * @r:		the region.
 * @p:		the pattern.
 *
 * Return: true if @r matches.
 */
bool hs_pattern_match(const struct hs_sim *sim, const struct hs_region *r,
		      const struct hs_pattern *p)
{
	/* 6.12: 'unsigned int nr_accesses = r->nr_accesses_bp / 10000;' */
	unsigned int nr = sim->track_bp ? r->nr_accesses_bp / 10000 :
		hs_region_mvsum(sim, r);

	return hs_pattern_admits(p, sz_region(r), nr, r->age);
}

/* The region field a prepared scorer takes (hs_fast_nr_of()). */
static unsigned int fast_nr(const struct hs_sim *sim,
			    const struct hs_region *r)
{
	return sim->track_bp ? r->nr_accesses_bp : r->nr_accesses;
}

/* Keep a uniform sample of the score inputs for the cost replay. */
static void capture(struct hs_sim *sim, const struct hs_input *in)
{
	uint64_t j;

	sim->nr_scores++;
	if (!sim->cfg.capture)
		return;
	if (sim->nr_inputs < sim->cfg.capture) {
		sim->inputs[sim->nr_inputs++] = *in;
		return;
	}
	/* reservoir sampling, from a stream separate from damon_rand() */
	sim->capture_rnd = sim->capture_rnd * 6364136223846793005ULL +
		1442695040888963407ULL;
	j = (uint64_t)(((unsigned __int128)sim->capture_rnd * sim->nr_scores)
		       >> 64);
	if (j < sim->cfg.capture)
		sim->inputs[j] = *in;
}

/*
 * The scheme's prepared scorer, its moving-sum window moved to now: what
 * kdamond would do once per sampling interval, done when first needed.
 */
static const struct hs_prep *scheme_prep(struct hs_sim *sim,
					 const struct hs_scheme *s)
{
	struct hs_prep *p = &sim->preps[s - sim->schemes];

	if (p->attrs.passed_sis != sim->passed_sis ||
	    p->attrs.next_aggr_sis != sim->next_aggr_sis)
		hs_prep_window(p, sim->passed_sis, sim->next_aggr_sis);
	return p;
}

/*
 * The score @kind of a region whose damon_hot_score() is @hot: a score
 * outside [0, 99] stops the run (the kernel would index past its
 * histogram) and is clamped only to keep the simulator safe.
 */
static int score_of(struct hs_sim *sim, const struct hs_region *r,
		    const struct hs_scheme *s, enum hs_score_kind kind, int hot)
{
	if (hot < 0 || hot > HS_DAMOS_MAX_SCORE) {
		if (!sim->overrun) {
			sim->overrun = true;
			fill_input(sim, r, &s->quota, &sim->overrun_in);
			sim->overrun_hot = hot;
		}
		hot = hot < 0 ? 0 : HS_DAMOS_MAX_SCORE;
	}
	/* damon_cold_score(): DAMOS_MAX_SCORE - hot */
	return kind == HS_SCORE_HOT ? hot : HS_DAMOS_MAX_SCORE - hot;
}

/**
 * hs_scheme_score() - the ops' get_scheme_score(): damon_hot_score() or
 * damon_cold_score() of the selected profile, or DAMOS_MAX_SCORE.
 * @sim:	the simulation; a score outside [0, 99] sets @sim->overrun.
 * @r:		the region.
 * @s:		the scheme.
 *
 * Return: the score, clamped to [0, 99] only to keep the simulator safe
 * after an overrun (which stops the run).
 */
int hs_scheme_score(struct hs_sim *sim, const struct hs_region *r,
		    const struct hs_scheme *s)
{
	enum hs_score_kind kind = hs_score_kind(sim->cfg.ops, s->action);
	struct hs_input in;
	int hot;

	if (kind == HS_SCORE_MAX)
		return HS_DAMOS_MAX_SCORE;
	if (sim->cfg.scorer != HS_SCORER_KERNEL) {
		sim->nr_scores++;
		hot = hs_fast_hot(scheme_prep(sim, s), fast_nr(sim, r),
				  r->last_nr_accesses, r->age);
		return score_of(sim, r, s, kind, hot);
	}
	fill_input(sim, r, &s->quota, &in);
	capture(sim, &in);
	return score_of(sim, r, s, kind, sim->cfg.score_fn(&in));
}

/* Room for @n regions in the batch scratch: one block, carved up. */
static int batch_reserve(struct hs_sim_batch *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 64;
	void *mem;

	if (n <= b->cap)
		return 0;
	while (cap < n)
		cap *= 2;
	mem = malloc(cap * (sizeof(*b->idx) + 3 * sizeof(*b->nr) +
			    sizeof(*b->hot)));
	if (!mem)
		return -1;
	free(b->idx);
	b->idx = mem;
	b->nr = (unsigned int *)(b->idx + cap);
	b->last = b->nr + cap;
	b->age = b->last + cap;
	b->hot = (int *)(b->age + cap);
	b->cap = cap;
	return 0;
}

/* What hs_damos_histogram() asks of a simulated region. */
struct hist_ctx {
	struct hs_sim *sim;
	struct hs_scheme *s;
	enum hs_score_kind kind;
};

/* A batch-scored region: the batch holds the eligible ones' scores. */
static int batch_region(void *ctx, size_t i, unsigned long *sz)
{
	struct hist_ctx *h = ctx;
	struct hs_sim_batch *b = &h->sim->batch;
	const struct hs_region *r = &h->sim->r[b->idx[i]];

	*sz = sz_region(r);
	h->s->stat.nr_scored++;
	return score_of(h->sim, r, h->s, h->kind, b->hot[i]);
}

/*
 * The histogram pass of hs_adjust_quota() with a batch scorer: gather the
 * eligible regions' fields, score them in one call, then count.  The
 * scratch must hold sim->nr regions.
 */
static unsigned int histogram_batch(struct hs_sim *sim, struct hs_scheme *s,
				    enum hs_score_kind kind,
				    unsigned long *hist)
{
	struct hist_ctx h = { sim, s, kind };
	struct hs_sim_batch *b = &sim->batch;
	struct hs_fast_regions fr;
	size_t i, n = 0;

	for (i = 0; i < sim->nr; i++) {
		const struct hs_region *r = &sim->r[i];

		if (!hs_pattern_match(sim, r, &s->pattern))
			continue;
		b->idx[n] = i;
		b->nr[n] = fast_nr(sim, r);
		b->last[n] = r->last_nr_accesses;
		b->age[n] = r->age;
		n++;
	}
	fr = (struct hs_fast_regions){ b->nr, b->last, b->age };
	(sim->cfg.batch ? sim->cfg.batch : hs_fast_batch)(scheme_prep(sim, s),
							  &fr, n, b->hot);
	sim->nr_scores += n;
	return hs_damos_histogram(n, batch_region, &h, hist);
}

/*
 * The modelled memory pressure: each fault on a page an action paged out
 * stalls the workload this long (a swap-in from fast storage), and
 * PSI's "some" memory total is their sum (docs/sim.md).
 */
#define PSI_US_PER_FAULT	50

/**
 * hs_sim_psi_us() - the modelled some_mem_psi total so far, in us.
 * @sim:	the simulation.
 *
 * Return: stall time.
 */
uint64_t hs_sim_psi_us(const struct hs_sim *sim)
{
	return sim->wl ? sim->wl->faults * PSI_US_PER_FAULT : 0;
}

/* damos_set_quota_goal_current_value(): the goal's current value now. */
static unsigned long goal_current(const struct hs_sim *sim, struct hs_quota *q)
{
	const struct hs_quota_goal *g = &q->goal;
	unsigned long v = 0;
	uint64_t now;

	switch (g->metric) {
	case HS_GOAL_USER_INPUT:
		/* the user's commit before this window: the script's next */
		v = g->script[q->goal_step < g->nr_script ? q->goal_step :
			      g->nr_script - 1];
		q->goal_step++;
		break;
	case HS_GOAL_SOME_MEM_PSI_US:
		now = hs_sim_psi_us(sim);
		/* uninitialized last_psi_total: no effect this round */
		v = q->goal_last_psi == UINT64_MAX ? g->target :
			(unsigned long)(now - q->goal_last_psi);
		q->goal_last_psi = now;
		break;
	case HS_GOAL_NONE:
		break;
	}
	return v;
}

/* damos_set_effective_quota() */
static void set_effective_quota(const struct hs_sim *sim, struct hs_scheme *s)
{
	struct hs_quota *q = &s->quota;
	unsigned long throughput = HS_QUOTA_FIRST_THROUGHPUT, score;

	if (q->ms && q->total_charged_ns)
		throughput = hs_mult_frac(q->total_charged_sz, 1000000UL,
					  q->total_charged_ns);
	if (q->goal.metric == HS_GOAL_NONE) {
		q->esz = hs_quota_esz(q, throughput,
				      sim->cfg.attrs.min_region_sz);
	} else {
		/* the consist tuner: esz_bp fed back by the goal's score */
		q->goal_current = goal_current(sim, q);
		score = hs_goal_score(q->goal_current, q->goal.target);
		q->esz_bp = hs_feed_loop_next_input(q->esz_bp > 10000 ?
						    q->esz_bp : 10000, score);
		q->esz = hs_quota_goal_esz(q, throughput,
					   sim->cfg.attrs.min_region_sz);
	}
	if (sim->cfg.on_quota)
		sim->cfg.on_quota(sim, (unsigned int)(s - sim->schemes), q,
				  sim->cfg.ctx);
}

/* The ops' apply_scheme(): returns the bytes the action acted on. */
static unsigned long ops_apply(struct hs_sim *sim, const struct hs_region *r,
			       enum hs_action a, unsigned long *pages)
{
	unsigned long resident;

	*pages = 0;
	if (a == HS_ACT_STAT)
		return 0;
	/* vaddr has no LRU actions: damon_va_apply_scheme() returns 0 */
	if (sim->cfg.ops == HS_OPS_VADDR &&
	    (a == HS_ACT_LRU_PRIO || a == HS_ACT_LRU_DEPRIO))
		return 0;
	if (a == HS_ACT_PAGEOUT) {
		/*
		 * paddr's damon_pa_pageout() skips pages accessed since their
		 * last check (its default young filter); madvise(MADV_PAGEOUT)
		 * reclaims the whole range and reports all of it.
		 */
		bool paddr = sim->cfg.ops == HS_OPS_PADDR;

		resident = hs_workload_pageout(sim->wl, r->start, r->end,
					       paddr);
		*pages = resident / PAGE_SIZE;
		return paddr ? resident : sz_region(r);
	}
	/* LRU moves and migrations act on the resident pages */
	resident = hs_workload_resident(sim->wl, r->start, r->end);
	*pages = resident / PAGE_SIZE;
	return resident;
}

/* The simulated coarse clock (ktime_get_coarse_ts64): jiffy resolution. */
static uint64_t coarse_ns(const struct hs_sim *sim)
{
	uint64_t tick = 1000000000ULL / sim->cfg.hz;

	return hs_sim_now_ns(sim) / tick * tick;
}

/*
 * The fields the decisions' hash has always covered, laid out as struct
 * hs_event was before it kept scores: hashing this, padding zeroed, gives
 * the same bytes as then, so that every recorded hash stays valid.
 */
struct event_key {
	unsigned long sis;
	unsigned long start, end;
	unsigned int scheme;
	unsigned long sz_applied;
};

static void hash_event(struct hs_sim *sim, const struct hs_event *e)
{
	struct event_key k;
	const unsigned char *p = (const unsigned char *)&k;
	size_t i;

	memset(&k, 0, sizeof(k));	/* no padding bytes in the hash */
	k.sis = e->sis;
	k.start = e->start;
	k.end = e->end;
	k.scheme = e->scheme;
	k.sz_applied = e->sz_applied;
	for (i = 0; i < sizeof(k); i++)
		sim->hash = (sim->hash ^ p[i]) * 0x100000001b3ULL;
}

/* An action on @r: hashed, kept while there is room, and passed on. */
static void record_event(struct hs_sim *sim, const struct hs_region *r,
			 const struct hs_scheme *s, int score,
			 unsigned long sz_applied, uint64_t t_us)
{
	struct hs_event e;

	memset(&e, 0, sizeof(e));
	e.sis = sim->passed_sis;
	e.start = r->start;
	e.end = r->end;
	e.scheme = (unsigned int)(s - sim->schemes);
	e.sz_applied = sz_applied;
	e.score = score;
	e.min_score = hs_quota_set(&s->quota) ? s->quota.min_score : 0;
	e.t_us = t_us;
	hash_event(sim, &e);
	if (sim->nr_events < sim->cfg.max_events)
		sim->events[sim->nr_events] = e;
	sim->nr_events++;
	if (sim->cfg.on_event)
		sim->cfg.on_event(sim, &e, sim->cfg.ctx);
}

/*
 * What the shared walk (src/sim/apply.c, HS_CORE_NEWEST) asks of the
 * simulated kdamond: its scores, its access pattern test (the moving sum
 * when nr_accesses_bp is not tracked), its batch histogram, its effective
 * size with goals, and the action on the simulated memory.
 */
static int cb_score(void *ctx, const struct hs_region *r, unsigned int s)
{
	struct hs_sim *sim = ctx;

	return hs_scheme_score(sim, r, &sim->schemes[s]);
}

static bool cb_eligible(void *ctx, const struct hs_region *r, unsigned int s)
{
	const struct hs_sim *sim = ctx;

	return hs_pattern_match(sim, r, &sim->schemes[s].pattern);
}

/* The batch scorer's histogram; -1 leaves it to the walk's own. */
static int cb_histogram(void *ctx, unsigned int si, unsigned long *hist)
{
	struct hs_sim *sim = ctx;
	struct hs_scheme *s = &sim->schemes[si];
	enum hs_score_kind kind = hs_score_kind(sim->cfg.ops, s->action);

	/* out of scratch memory, score region by region: the same scores */
	if (sim->cfg.scorer != HS_SCORER_FAST_BATCH ||
	    kind == HS_SCORE_MAX || batch_reserve(&sim->batch, sim->nr))
		return -1;
	return (int)histogram_batch(sim, s, kind, hist);
}

static void cb_set_esz(void *ctx, unsigned int s)
{
	struct hs_sim *sim = ctx;

	set_effective_quota(sim, &sim->schemes[s]);
}

/*
 * The ops' apply_scheme() on @r, timed by the simulated coarse clock for
 * the time quota, and the decision recorded.
 */
static unsigned long cb_apply(void *ctx, const struct hs_region *r,
			      unsigned int si, int score,
			      const struct hs_quota *q, size_t nr_regions)
{
	struct hs_sim *sim = ctx;
	struct hs_scheme *s = &sim->schemes[si];
	unsigned long sz_applied, pages;
	uint64_t begin = coarse_ns(sim), t_us = hs_sim_now_us(sim);

	(void)q;
	(void)nr_regions;
	sz_applied = ops_apply(sim, r, s->action, &pages);
	sim->busy_ns += pages * action_ns_per_page[s->action];
	s->quota.total_charged_ns += coarse_ns(sim) - begin;
	record_event(sim, r, s, score, sz_applied, t_us);
	return sz_applied;
}

static const struct hs_apply_ops sim_apply_ops = {
	.score = cb_score, .eligible = cb_eligible,
	.histogram = cb_histogram, .set_esz = cb_set_esz,
	.on_apply = cb_apply,
};

/* The shared walk's context for the simulation, as it stands now. */
static void sim_apply(struct hs_sim *sim, struct hs_apply *a)
{
	a->core = HS_CORE_NEWEST;
	a->attrs = sim->cfg.attrs;
	a->ops = sim->cfg.ops;
	a->hz = sim->cfg.hz;
	a->schemes = sim->schemes;
	a->nr_schemes = sim->cfg.nr_schemes;
	a->cb = &sim_apply_ops;
	a->ctx = sim;
	a->next_aggr_sis = sim->next_aggr_sis;
	a->max_region_sz = ULONG_MAX;
	a->nr_adjust = a->nr_windows = 0;
	a->nomem = false;
}

/**
 * hs_adjust_quota() - damos_adjust_quota() of scheme @s alone, now
 * (hs_apply_adjust()).
 * @sim:	the simulation.
 * @s:		the scheme.
 */
void hs_adjust_quota(struct hs_sim *sim, struct hs_scheme *s)
{
	struct hs_apply a;

	sim_apply(sim, &a);
	hs_apply_adjust(&a, (unsigned int)(s - sim->schemes), sim->passed_sis,
			hs_jiffies(sim), sim->r, sim->nr);
}

/**
 * hs_apply_scheme_at() - damos_apply_scheme() alone on region @i, as the
 * KUnit case damos_test_apply_scheme_quota_sz calls it: no quota-full or
 * pattern check first.  A split leaves the right part after @i.
 * @sim:	the simulation.
 * @s:		index of the scheme.
 * @i:		index of the region.
 */
void hs_apply_scheme_at(struct hs_sim *sim, unsigned int s, size_t i)
{
	struct hs_apply a;

	sim_apply(sim, &a);
	hs_apply_one(&a, &sim->r, &sim->nr, &sim->cap, i, s,
		     HS_EVENT_NO_SCORE);
	sim->regions_changed = true;
}

/**
 * hs_apply_schemes() - kdamond_apply_schemes() through the shared walk
 * (hs_apply_adjust_due(), then hs_apply_walk()), timed by stage.
 * @sim:	the simulation.
 * @t:		the stage clock's last reading (hs_sim_stamp()).
 */
void hs_apply_schemes(struct hs_sim *sim, uint64_t *t)
{
	struct hs_apply a;
	bool due;

	sim_apply(sim, &a);
	due = hs_apply_adjust_due(&a, sim->passed_sis, hs_jiffies(sim),
				  sim->r, sim->nr);
	hs_sim_stamp(sim, HS_STAGE_SCORE, t);
	if (!due)
		return;
	a.max_region_sz = hs_region_sz_limit(sim);
	hs_apply_walk(&a, sim->passed_sis, &sim->r, &sim->nr, &sim->cap);
	sim->regions_changed = true;
	hs_sim_stamp(sim, HS_STAGE_APPLY, t);
}
