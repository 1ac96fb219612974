// SPDX-License-Identifier: GPL-2.0
/*
 * sim_json.c - `hotscore sim --json` (the configuration, each run's stats,
 * costs and series) and `--actions FILE.json` (an action at a time, as the
 * run goes), through jansson.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include <jansson.h>

#include <hotscore/cand.h>
#include <hotscore/json_out.h>

#include "../cmd_sim.h"
#include "../sim_report.h"

static const char *const stage_keys[HS_NR_STAGES] = {
	"sample", "workload", "aggregate", "merge", "split", "score", "apply",
};

/* Each scheme: its access pattern, quota and stats. */
static json_t *json_schemes(const struct hs_sim *sim)
{
	json_t *list = json_array();
	unsigned int i;

	for (i = 0; i < sim->cfg.nr_schemes; i++) {
		const struct hs_scheme *sc = &sim->schemes[i];
		const struct hs_damos_stat *st = &sc->stat;

		json_array_append_new(list, json_pack(
			"{s:s, s:{s:o, s:o, s:I, s:I, s:I, s:I}, s:o,"
			" s:{s:o, s:o, s:o, s:I, s:I, s:I, s:o, s:I},"
			" s:{s:o, s:o, s:o, s:o, s:o, s:o, s:o}}",
			"action", hs_action_name(sc->action), "pattern",
			"min_sz", hs_json_u64(sc->pattern.min_sz),
			"max_sz", hs_json_u64(sc->pattern.max_sz),
			"min_nr_accesses", (json_int_t)sc->pattern.min_nr,
			"max_nr_accesses", (json_int_t)sc->pattern.max_nr,
			"min_age", (json_int_t)sc->pattern.min_age,
			"max_age", (json_int_t)sc->pattern.max_age,
			"apply_interval_us", hs_json_u64(sc->apply_us), "quota",
			"ms", hs_json_u64(sc->quota.ms),
			"sz", hs_json_u64(sc->quota.sz),
			"reset_interval_ms", hs_json_u64(sc->quota.reset_ms),
			"weight_sz", (json_int_t)sc->quota.weight_sz,
			"weight_nr_accesses", (json_int_t)sc->quota.weight_nr,
			"weight_age", (json_int_t)sc->quota.weight_age,
			"esz", hs_json_u64(sc->quota.esz),
			"min_score", (json_int_t)sc->quota.min_score, "stats",
			"nr_tried", hs_json_u64(st->nr_tried),
			"sz_tried", hs_json_u64(st->sz_tried),
			"nr_applied", hs_json_u64(st->nr_applied),
			"sz_applied", hs_json_u64(st->sz_applied),
			"qt_exceeds", hs_json_u64(st->qt_exceeds),
			"histograms", hs_json_u64(st->nr_adjust),
			"regions_scored", hs_json_u64(st->nr_scored)));
	}
	return list;
}

/* With timing: the cost of each stage, and of the score function. */
static void json_costs(json_t *o, const struct sim_cmd *c,
		       const struct sim_run *run)
{
	json_t *cost = json_object();
	int s;

	for (s = 0; s < HS_NR_STAGES; s++)
		json_object_set_new(cost, stage_keys[s],
				    hs_json_fixed(sim_stage_ns(c, run, s), 1));
	json_object_set_new(cost, "kdamond",
			    hs_json_fixed(sim_kdamond_ns(c, run), 1));
	json_object_set_new(cost, "score_function",
			    hs_json_fixed(sim_score_fn_ns(run), 1));
	json_object_set_new(o, "cost_ns_per_aggregation", cost);
	if (run->have_cost)
		json_object_set_new(o, "score_call", json_pack(
			"{s:o, s:o, s:o, s:o, s:I, s:s}",
			"ps", hs_json_u64(run->cost.fn_ps),
			"empty_ps", hs_json_u64(run->cost.empty_ps),
			"inputs", hs_json_u64(run->sim.nr_inputs),
			"n", hs_json_u64(run->cost.n),
			"rounds", (json_int_t)run->cost.rounds,
			"check", hs_check_name(run->cost.check)));
}

/* The memory and regions over time, a point per few aggregations. */
static json_t *json_series(const struct sim_run *run)
{
	json_t *list = json_array();
	size_t p;

	for (p = 0; p < run->nr_points; p++) {
		const struct sim_point *pt = &run->points[p];

		json_array_append_new(list, json_pack(
			"{s:o, s:o, s:o, s:o, s:o}",
			"t_us", hs_json_u64(pt->t_us),
			"resident", hs_json_u64(pt->resident),
			"faults", hs_json_u64(pt->faults),
			"wss", hs_json_u64(pt->wss),
			"regions", hs_json_u64(pt->nr_regions)));
	}
	return list;
}

/* Each scheme's quota goal with its charge windows. */
static json_t *json_goals(const struct sim_run *run)
{
	const struct hs_sim *sim = &run->sim;
	json_t *list = json_array();
	unsigned int i;
	size_t k;

	for (i = 0; list && i < sim->cfg.nr_schemes; i++) {
		const struct hs_quota_goal *g = &sim->schemes[i].quota.goal;
		json_t *wins;

		if (g->metric == HS_GOAL_NONE)
			continue;
		wins = json_array();
		for (k = 0; wins && k < run->nr_qwin; k++)
			if (run->qwin[k].scheme == i)
				json_array_append_new(wins, json_pack("{s:o, s:o, s:o}",
					"t_us", hs_json_u64(run->qwin[k].t_us),
					"current_value", hs_json_u64(run->qwin[k].current),
					"effective_sz_bytes", hs_json_u64(run->qwin[k].esz)));
		json_array_append_new(list, json_pack("{s:I, s:s, s:o, s:o}",
			"scheme", (json_int_t)i, "metric",
			g->metric == HS_GOAL_USER_INPUT ? "user_input" :
			"some_mem_psi_us", "target", hs_json_u64(g->target),
			"windows", wins));
	}
	return list;
}

static json_t *json_run(const struct sim_cmd *c, const struct sim_run *run)
{
	const struct hs_sim *sim = &run->sim;
	char hash[17];
	json_t *o;

	snprintf(hash, sizeof(hash), "%016" PRIx64, sim->hash);
	o = json_pack("{s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o,"
		      " s:b, s:{s:o, s:s}, s:o}",
		      "profile", hs_json_text(run->profile),
		      "scorer", hs_scorer_name(run->scorer),
		      "simulated_us", hs_json_u64(hs_sim_now_us(sim)),
		      "wall_ns", hs_json_u64(run->wall_ns),
		      "samples", hs_json_u64(sim->nr_samples),
		      "aggregations", hs_json_u64(sim->nr_aggr),
		      "region_samples", hs_json_u64(sim->region_samples),
		      "regions_min", hs_json_u64(sim->nr_aggr ?
						 sim->min_seen : sim->nr),
		      "regions_max", hs_json_u64(sim->nr_aggr ?
						 sim->max_seen : sim->nr),
		      "score_calls", hs_json_u64(sim->nr_scores),
		      "overrun", sim->overrun, "decisions",
		      "actions", hs_json_u64(sim->nr_events), "hash", hash,
		      "schemes", json_schemes(sim));
	if (o && c->timing)
		json_costs(o, c, run);
	json_object_set_new(o, "series", json_series(run));
	if (run->nr_qwin)
		json_object_set_new(o, "quota_goals", json_goals(run));
	return o;
}

/* With timing: the clock the costs were measured with. */
static void json_clock(json_t *doc, const struct sim_cmd *c)
{
	if (!c->timing)
		return;
	json_object_set_new(doc, "clock", hs_json_text(c->host.clock.name));
	json_object_set_new(doc, "clock_tsc",
			    json_boolean(c->host.clock.tsc));
}

/*
 * Two runs: whether they decided alike, each one's kept actions the other
 * did not take, and the scores call by call (docs/sim.md).
 */
static void json_compare(json_t *doc, const struct sim_cmd *c)
{
	const struct sim_diff *d = &c->diff;
	json_t *scores;

	json_object_set_new(doc, "identical_decisions",
			    json_boolean(sim_same_decisions(c)));
	json_object_set_new(doc, "actions_not_in_other", json_pack("[o, o]",
			    hs_json_u64(d->only[0]), hs_json_u64(d->only[1])));
	if (!d->scored && !d->trap) {
		json_object_set_new(doc, "scores", json_pack("{s:b, s:s}",
				    "compared", 0, "why_not", c->compare_scorers ?
				    "one profile, scored two ways" : d->why_not));
		return;
	}
	scores = json_pack("{s:b, s:o, s:o}", "compared", 1,
			   "calls", hs_json_u64(d->nr_calls),
			   "differ", hs_json_u64(d->nr_differ));
	if (d->trap)
		json_object_set_new(scores, "trap", json_string(d->trap ==
				    HS_CAND_HANG ? "hang" :
				    hs_cand_trap_name(d->trap)));
	if (d->trap || d->nr_differ)
		json_object_set_new(scores, "command", hs_json_text(d->command));
	if (!d->trap && d->nr_differ)
		json_object_set_new(scores, "first", json_pack("{s:o, s:i, s:i}",
				    "t_us", hs_json_u64(d->first_us),
				    "a", d->first_a, "b", d->first_b));
	json_object_set_new(doc, "scores", scores);
}

/**
 * sim_write_json() - --json: the configuration, stats and costs.
 * @c:		the command, after its runs.
 * @f:		the file, open.
 *
 * Return: 0, or -1 (errno set).
 */
int sim_write_json(const struct sim_cmd *c, FILE *f)
{
	const struct hs_attrs *a = &c->cfg.attrs;
	json_t *doc, *runs = json_array();
	unsigned int k;

	doc = json_pack("{s:i, s:o, s:o, s:s, s:o, s:o, s:o,"
			" s:{s:o, s:o, s:o, s:o, s:o}}",
			"schema", 1, "command", hs_json_text(c->command),
			"workload", hs_json_text(c->runs[0].wl.name),
			"ops", c->ops == HS_OPS_PADDR ? "paddr" : "vaddr",
			"seed", hs_json_u64(c->cfg.seed),
			"rate_per_ms", hs_json_u64(c->rate),
			"duration_us", hs_json_u64(c->cfg.duration_us), "attrs",
			"sample_us", hs_json_u64(a->sample_us),
			"aggr_us", hs_json_u64(a->aggr_us),
			"ops_update_us", hs_json_u64(a->ops_update_us),
			"min_nr_regions", hs_json_u64(a->min_nr_regions),
			"max_nr_regions", hs_json_u64(a->max_nr_regions));
	json_clock(doc, c);
	/* the peak after the last run: the process' peak */
	json_object_set_new(doc, "max_rss_kb", json_integer(
		c->runs[c->nr_runs - 1].max_rss_kb));
	if (c->compare)
		json_compare(doc, c);
	for (k = 0; k < c->nr_runs; k++)
		json_array_append_new(runs, json_run(c, &c->runs[k]));
	json_object_set_new(doc, "runs", runs);
	if (!hs_json_write_doc(f, doc, 0))
		return 0;
	if (!ferror(f))
		errno = ENOMEM;	/* jansson could not build it */
	return -1;
}

/*
 * --actions FILE.json, written as the actions happen: one per process,
 * for only the first run writes it.
 */
static struct hs_json_stream actions_js;

/**
 * sim_json_actions_begin() - --actions FILE.json: the document's opening.
 * @f:		the file, open.
 */
void sim_json_actions_begin(FILE *f)
{
	hs_json_stream_init(&actions_js, f, 0);
	hs_json_open(&actions_js, NULL, true, false);
	hs_json_put(&actions_js, "schema", json_integer(1));
	hs_json_open(&actions_js, "actions", false, true);
}

/**
 * sim_json_action() - one action; a score not computed (no quota) is null.
 * @e:		the action.
 */
void sim_json_action(const struct hs_event *e)
{
	bool none = e->score == HS_EVENT_NO_SCORE;

	hs_json_put(&actions_js, NULL, json_pack(
		"{s:o, s:I, s:o, s:o, s:o, s:I, s:o}",
		"t_us", hs_json_u64(e->t_us),
		"scheme", (json_int_t)e->scheme,
		"start", hs_json_u64(e->start),
		"end", hs_json_u64(e->end),
		"score", none ? json_null() : json_integer(e->score),
		"min_score", (json_int_t)e->min_score,
		"sz_applied", hs_json_u64(e->sz_applied)));
}

/**
 * sim_json_actions_end() - close the list and the document; the caller
 * closes the file.
 */
void sim_json_actions_end(void)
{
	hs_json_close(&actions_js);
	hs_json_close(&actions_js);
}
