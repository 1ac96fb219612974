/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim.h - kdamond and DAMOS in user space, following linux-mm (2026)
 * mm/damon/core.c; every choice is listed in docs/sim.md.
 *
 * One context, one target.  The monitoring core samples a workload
 * (workload.h), aggregates, merges and splits regions; DAMOS schemes build
 * the quota's score histogram with a scoring-model profile and apply their
 * action to the regions it lets through.  Each stage is timed with a bench
 * engine clock, so that the cost of scoring is seen in context.
 *
 * This is the API a user of libhotscore runs a simulation with; the steps
 * inside hs_sim_step() are the simulator's own (src/sim/sim_internal.h).
 */
#ifndef HOTSCORE_SIM_H
#define HOTSCORE_SIM_H

#include "bench.h"
#include "score_fast.h"
#include "score.h"
#include "sim_masim.h"

/**
 * struct hs_region - struct damon_region, as the core uses it.
 * @start:	ar.start.
 * @end:	ar.end.
 * @nr_accesses: samples that found the region accessed, this aggregation.
 * @last_nr_accesses: @nr_accesses of the last aggregation.
 * @age:	aggregation intervals its access pattern has lasted.
 * @wl:		the workload region it lies in, and whether wholly: the
 *		simulator's own hint (src/sim/sim_internal.h).
 * @nr_accesses_bp: 6.7+'s running moving sum of the samples, in basis
 *		points: kept (struct hs_sim.track_bp) only where the profile
 *		reads it, else 0.
 */
struct hs_region {
	unsigned long start, end;
	unsigned int nr_accesses;
	unsigned int last_nr_accesses;
	unsigned int age;
	unsigned int wl;
	unsigned int nr_accesses_bp;
};

/**
 * struct hs_attrs - struct damon_attrs plus the context's min_region_sz.
 * @sample_us:	sampling interval.
 * @aggr_us:	aggregation interval.
 * @ops_update_us: operations update interval.
 * @min_nr_regions: at least this many regions.
 * @max_nr_regions: at most this many (the merge's aim).
 * @min_region_sz: DAMON_MIN_REGION_SZ: the page size.
 */
struct hs_attrs {
	unsigned long sample_us;
	unsigned long aggr_us;
	unsigned long ops_update_us;
	unsigned long min_nr_regions;
	unsigned long max_nr_regions;
	unsigned long min_region_sz;
};

enum hs_ops { HS_OPS_VADDR, HS_OPS_PADDR };

enum hs_action {
	HS_ACT_STAT,
	HS_ACT_PAGEOUT,
	HS_ACT_LRU_PRIO,
	HS_ACT_LRU_DEPRIO,
	HS_ACT_MIGRATE_HOT,
	HS_ACT_MIGRATE_COLD,
	HS_NR_ACTIONS
};

/**
 * struct hs_pattern - struct damos_access_pattern (all bounds inclusive).
 * @min_sz:	bytes.
 * @max_sz:	bytes.
 * @min_nr:	nr_accesses, in samples.
 * @max_nr:	nr_accesses, in samples.
 * @min_age:	in aggregation intervals.
 * @max_age:	in aggregation intervals.
 */
struct hs_pattern {
	unsigned long min_sz, max_sz;
	unsigned int min_nr, max_nr;
	unsigned int min_age, max_age;
};

/* struct damos_quota_goal's metrics that the simulator models. */
enum hs_goal_metric {
	HS_GOAL_NONE,
	HS_GOAL_USER_INPUT,		/* DAMOS_QUOTA_USER_INPUT */
	HS_GOAL_SOME_MEM_PSI_US,	/* DAMOS_QUOTA_SOME_MEM_PSI_US */
};

/* The most values a user_input goal's script holds. */
#define HS_GOAL_MAX_STEPS	256

/**
 * struct hs_quota_goal - struct damos_quota_goal, one per quota.
 * @metric:	what is measured; HS_GOAL_NONE: no goal.
 * @target:	target_value (never 0: damos_commit_quota_goal() refuses it).
 * @script:	user_input: the current_value the user has committed when
 *		each charge window that computes an effective size starts,
 *		in order; after the last, the last holds.
 * @nr_script:	how many (at least 1 for user_input).
 */
struct hs_quota_goal {
	enum hs_goal_metric metric;
	unsigned long target;
	const unsigned long *script;
	unsigned int nr_script;
};

/**
 * struct hs_quota - struct damos_quota: settings, then state.
 * @ms:		time quota per reset interval.
 * @sz:		size quota per reset interval.
 * @reset_ms:	charge window.
 * @weight_sz:	weight of size (damon_hot_score() ignores it).
 * @weight_nr:	weight of nr_accesses.
 * @weight_age:	weight of age.
 * @goal:	the quota goal, if its metric is set.
 * @esz:	effective size quota of this window.
 * @total_charged_sz: bytes charged before this window.
 * @total_charged_ns: time the action took, summed.
 * @charged_sz:	bytes charged in this window.
 * @charged_from: jiffies when this window started.
 * @charge_from_set: a window ended part-way (charge_target_from != NULL).
 * @charge_addr_from: where the next window resumes.
 * @min_score:	the histogram's cut-off.
 * @esz_bp:	the goal's feedback loop: esz in 1/10000 bytes.
 * @goal_step:	the next value of the goal's script.
 * @goal_current: the goal's current_value when esz was last computed.
 * @goal_last_psi: some_mem_psi_us: the stall total then (last_psi_total;
 *		UINT64_MAX before the first).
 */
struct hs_quota {
	unsigned long ms, sz, reset_ms;
	unsigned int weight_sz, weight_nr, weight_age;
	struct hs_quota_goal goal;
	unsigned long esz;
	unsigned long total_charged_sz, total_charged_ns;
	unsigned long charged_sz;
	unsigned long charged_from;
	bool charge_from_set;
	unsigned long charge_addr_from;
	unsigned int min_score;
	unsigned long esz_bp;
	unsigned int goal_step;
	unsigned long goal_current;
	uint64_t goal_last_psi;
};

/**
 * struct hs_damos_stat - struct damos_stat, plus the action's effects.
 * @nr_tried:	regions the action was tried on.
 * @sz_tried:	their bytes.
 * @nr_applied:	regions where it did something.
 * @sz_applied:	bytes it did something to.
 * @qt_exceeds:	charge windows that ended with the quota full.
 * @nr_adjust:	quota adjustments (score histograms built).
 * @nr_scored:	regions scored for the histograms.
 * @nr_applies:	times the scheme was due and the regions walked for it.
 */
struct hs_damos_stat {
	unsigned long nr_tried, sz_tried;
	unsigned long nr_applied, sz_applied;
	unsigned long qt_exceeds;
	unsigned long nr_adjust, nr_scored;
	unsigned long nr_applies;
};

/**
 * struct hs_scheme - struct damos.
 * @action:	what to do.
 * @pattern:	which regions.
 * @apply_us:	apply_interval_us (0: the aggregation interval).
 * @quota:	the quota.
 * @stat:	statistics.
 * @next_apply_sis: when it applies next.
 */
struct hs_scheme {
	enum hs_action action;
	struct hs_pattern pattern;
	unsigned long apply_us;
	struct hs_quota quota;
	struct hs_damos_stat stat;
	unsigned long next_apply_sis;
};

/* The stages timed per kdamond iteration. */
enum hs_stage {
	HS_STAGE_SAMPLE,	/* prepare + check accesses */
	HS_STAGE_WORKLOAD,	/* the workload's own faults (not kdamond) */
	HS_STAGE_AGGREGATE,	/* the reset, the ops update */
	HS_STAGE_MERGE,		/* merge + min_nr_regions */
	HS_STAGE_SPLIT,
	HS_STAGE_SCORE,		/* damos_adjust_quota: score + histogram */
	HS_STAGE_APPLY,		/* the region walk and the actions */
	HS_NR_STAGES
};

#define HS_EVENT_NO_SCORE	(-1)	/* hs_event.score without a quota */

/**
 * struct hs_event - one action applied (or tried) on a region.
 * @sis:	passed_sample_intervals when it happened.
 * @start:	region start.
 * @end:	region end.
 * @scheme:	the scheme's index.
 * @sz_applied:	bytes the action did something to.
 * @score:	the region's score, which passed the quota's cut-off; or
 *		HS_EVENT_NO_SCORE: without a quota the kernel scores nothing.
 * @min_score:	the scheme's cut-off then (0 without a quota).
 * @t_us:	simulated time when the action started (hs_sim_now_us()).
 *
 * The decisions' hash covers @sis to @sz_applied only, so that it stays
 * what it was before @score, @min_score and @t_us were kept.
 */
struct hs_event {
	unsigned long sis;
	unsigned long start, end;
	unsigned int scheme;
	unsigned long sz_applied;
	int score;
	unsigned int min_score;
	uint64_t t_us;
};

struct hs_sim;

#define HS_MAX_SCHEMES	8

/* How the schemes' scores are computed (struct hs_sim_config.scorer). */
enum hs_scorer {
	HS_SCORER_KERNEL,	/* @score_fn on a struct hs_input per region */
	HS_SCORER_FAST,		/* the scheme's prepared scorer, per region */
	HS_SCORER_FAST_BATCH,	/* prepared, the eligible regions at once */
	HS_NR_SCORERS
};

const char *hs_scorer_name(enum hs_scorer s);
int hs_scorer_parse(const char *name);

/**
 * struct hs_sim_config - what a run is given.
 * @attrs:	monitoring attributes.
 * @ops:	vaddr or paddr.
 * @schemes:	the schemes (copied).
 * @nr_schemes:	how many.
 * @comp:	the score's components (from a profile).
 * @score_fn:	damon_hot_score() specialised for @comp (the bench's
 *		variant); called on a struct hs_input.
 * @scorer:	@score_fn, or each scheme's prepared scorer (score_fast.h).
 * @batch:	HS_SCORER_FAST_BATCH's batch scorer; NULL: hs_fast_batch().
 * @duration_us: how long to simulate.
 * @seed:	seeds damon_rand() and the workload.
 * @clock:	times the stages; NULL: no timing.
 * @hz:		jiffies per second, for quota windows and charged time.
 * @capture:	keep up to this many score inputs for the cost replay.
 * @max_events:	keep up to this many events (all are hashed).
 * @on_aggregate: called at each aggregation boundary, after schemes were
 *		applied and before the reset; may be NULL.
 * @on_event:	called at every event, kept or not (@max_events bounds
 *		only what is kept), when the action has been taken and
 *		before the quota is charged for it; may be NULL.
 * @on_quota:	called when a scheme's charge window sets its effective size
 *		(damos_set_effective_quota()); may be NULL.
 * @ctx:	passed to @on_aggregate, @on_event and @on_quota.
 */
struct hs_sim_config {
	struct hs_attrs attrs;
	enum hs_ops ops;
	const struct hs_scheme *schemes;
	unsigned int nr_schemes;
	struct hs_components comp;
	int (*score_fn)(const void *input);
	enum hs_scorer scorer;
	enum hs_status (*batch)(const struct hs_prep *p,
				const struct hs_fast_regions *r, size_t n,
				int *hot);
	uint64_t duration_us;
	uint64_t seed;
	const struct hs_clock *clock;
	unsigned long hz;
	size_t capture;
	size_t max_events;
	void (*on_aggregate)(const struct hs_sim *sim, void *ctx);
	void (*on_event)(const struct hs_sim *sim, const struct hs_event *e,
			 void *ctx);
	void (*on_quota)(const struct hs_sim *sim, unsigned int scheme,
			 const struct hs_quota *q, void *ctx);
	void *ctx;
};

/**
 * struct hs_sim_batch - the eligible regions of one histogram, gathered
 * for a batch scorer.
 * @idx:	their index in the region array; the start of one block that
 *		holds every array.
 * @nr:		their nr_accesses.
 * @last:	their last_nr_accesses.
 * @age:	their ages.
 * @hot:	their scores.
 * @cap:	room in each array.
 */
struct hs_sim_batch {
	size_t *idx;
	unsigned int *nr, *last, *age;
	int *hot;
	size_t cap;
};

/**
 * struct hs_sim - a running simulation.
 * @cfg:	its configuration.
 * @wl:		the workload (owned by the caller).
 * @r:		the target's regions, in address order.
 * @nr:		how many.
 * @cap:	allocated.
 * @regions_changed: @r changed since the workload regions were located.
 * @tmp:	scratch for passes that change the count.
 * @tmp_cap:	allocated.
 * @ranges:	the target's address ranges (three for vaddr, one for paddr).
 * @nr_ranges:	how many.
 * @schemes:	the schemes and their state.
 * @passed_sis:	passed_sample_intervals.
 * @next_aggr_sis: next_aggregation_sis.
 * @next_ops_update_sis: next_ops_update_sis.
 * @sz_limit:	the region size limit from damon_apply_min_nr_regions().
 * @last_nr_regions: kdamond_split_regions()'s function-static counter.
 * @split_offset: the rotating start of the above-half split.
 * @busy_ns:	simulated time kdamond spent in actions (delays sampling).
 * @rnd:	damon_rand()'s state.
 * @stage_ticks: clock ticks per stage, summed.
 * @nr_aggr:	aggregations done.
 * @nr_samples:	samples done.
 * @region_samples: region checks done (sum of nr over samples).
 * @min_seen:	fewest regions after a split (SIZE_MAX before the first).
 * @max_seen:	most regions after a split.
 * @hash:	FNV-1a over every event, in order.
 * @nr_events:	events so far.
 * @events:	the first @cfg.max_events of them.
 * @inputs:	captured score inputs (a reservoir sample).
 * @capture_rnd: the reservoir's own random state.
 * @nr_inputs:	how many are held.
 * @nr_scores:	score calls so far.
 * @overrun:	a score left [0, 99]: the kernel would index past the
 *		histogram; the run stops at the first.
 * @overrun_in:	its input.
 * @overrun_hot: its score.
 * @preps:	per scheme, its prepared scorer (not HS_SCORER_KERNEL).
 * @track_bp:	the profile reads nr_accesses_bp (HS_FREQ_BP): each region
 *		keeps the kernel's running one.
 * @bp_window:	its moving sum's len_window, damon_max_nr_accesses(), as
 *		a reciprocal (score_fast.h): a division per region a sample.
 * @batch:	HS_SCORER_FAST_BATCH's scratch.
 */
struct hs_sim {
	struct hs_sim_config cfg;
	struct hs_workload *wl;
	struct hs_region *r;
	size_t nr, cap;
	bool regions_changed;
	struct hs_region *tmp;
	size_t tmp_cap;
	unsigned long ranges[3][2];
	unsigned int nr_ranges;
	struct hs_scheme *schemes;
	unsigned long passed_sis;
	unsigned long next_aggr_sis;
	unsigned long next_ops_update_sis;
	unsigned long sz_limit;
	unsigned long last_nr_regions;
	unsigned long split_offset;
	uint64_t busy_ns;
	uint64_t rnd;
	uint64_t stage_ticks[HS_NR_STAGES];
	unsigned long nr_aggr;
	unsigned long nr_samples;
	uint64_t region_samples;
	size_t min_seen, max_seen;
	uint64_t hash;
	size_t nr_events;
	struct hs_event *events;
	struct hs_input *inputs;
	uint64_t capture_rnd;
	size_t nr_inputs;
	uint64_t nr_scores;
	bool overrun;
	struct hs_input overrun_in;
	int overrun_hot;
	struct hs_prep *preps;
	bool track_bp;
	struct hs_recip bp_window;
	struct hs_sim_batch batch;
};

/* Action names as damo spells them; -1 if unknown. */
int hs_action_parse(const char *name);
const char *hs_action_name(enum hs_action a);

int hs_sim_validate(const struct hs_sim_config *cfg, char *err, size_t errlen);
int hs_sim_init(struct hs_sim *sim, const struct hs_sim_config *cfg,
		struct hs_workload *wl, char *err, size_t errlen);
bool hs_sim_step(struct hs_sim *sim);
void hs_sim_free(struct hs_sim *sim);
uint64_t hs_sim_now_ns(const struct hs_sim *sim);
uint64_t hs_sim_now_us(const struct hs_sim *sim);

#endif /* HOTSCORE_SIM_H */
