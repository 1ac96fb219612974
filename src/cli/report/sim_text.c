// SPDX-License-Identifier: GPL-2.0
/*
 * sim_text.c - `hotscore sim`'s summary on standard output: the run, each
 * scheme and what it picked, memory over time, the costs with timing, and
 * the comparison of two runs' decisions.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotscore/cand.h>

#include "../cli.h"
#include "../cmd_sim.h"
#include "../sim_report.h"
#include "layout.h"

/* Text output fits this many columns (the CLI conventions). */
#define COLS 100
/* The cost table's first column: a stage's name. */
#define STAGE_W 32

static const char *const stage_names[HS_NR_STAGES] = {
	[HS_STAGE_SAMPLE] = "sampling (prepare + check)",
	[HS_STAGE_WORKLOAD] = "workload faults (not kdamond)",
	[HS_STAGE_AGGREGATE] = "aggregation (reset, ops update)",
	[HS_STAGE_MERGE] = "merge (+ min_nr_regions)",
	[HS_STAGE_SPLIT] = "split",
	[HS_STAGE_SCORE] = "score + histogram",
	[HS_STAGE_APPLY] = "apply (walk + actions)",
};

static void fmt_limit(char *buf, size_t size, unsigned long v,
		      unsigned long max, const char *unit)
{
	if (v == max)
		snprintf(buf, size, "max");
	else
		snprintf(buf, size, "%lu%s", v, unit);
}

/* A size in the unit that keeps it short: B, KiB, MiB or GiB. */
static void fmt_size(char *buf, size_t size, uint64_t bytes)
{
	if (bytes < 1024)
		snprintf(buf, size, "%" PRIu64 " B", bytes);
	else if (bytes < 1048576)
		snprintf(buf, size, "%.1f KiB", bytes / 1024.0);
	else if (bytes < 1073741824)
		snprintf(buf, size, "%.1f MiB", sim_mib(bytes));
	else
		snprintf(buf, size, "%.2f GiB", bytes / 1073741824.0);
}

/* One action of the summary: when, where, its score against the cut-off. */
static void report_action(FILE *f, const struct hs_event *e)
{
	char sz[32], applied[32], score[48] = "";

	fmt_size(sz, sizeof(sz), e->end - e->start);
	fmt_size(applied, sizeof(applied), e->sz_applied);
	if (e->score != HS_EVENT_NO_SCORE)
		snprintf(score, sizeof(score), ": score %d >= %u", e->score,
			 e->min_score);
	layout_printf(f, COLS, "    %8.3f s  %#lx-%#lx (%s)%s, applied %s\n",
			    e->t_us / 1e6, e->start, e->end, sz, score, applied);
}

/*
 * What the scheme acted on: how many regions and bytes, in how many of
 * its applications, with which scores; then its first actions.
 */
static void report_picks(FILE *f, const struct hs_scheme *s,
			 const struct sim_picks *p)
{
	const struct hs_damos_stat *st = &s->stat;
	char sz[32], scores[96] = "; no quota, no scores";
	size_t k;

	if (!p->applications) {
		layout_printf(f, COLS, "  picked nothing in %lu application%s\n",
				    st->nr_applies, cli_s(st->nr_applies));
		return;
	}
	fmt_size(sz, sizeof(sz), st->sz_tried);
	if (p->nr_scored)
		snprintf(scores, sizeof(scores), "; scores %d..%d, min_score %u..%u",
			 p->score_lo, p->score_hi, p->min_lo, p->min_hi);
	layout_printf(f, COLS, "  picked %lu region%s (%s) in %lu of %lu applications%s\n",
			    st->nr_tried, cli_s(st->nr_tried), sz, p->applications,
			    st->nr_applies, scores);
	for (k = 0; k < p->nr_first; k++)
		report_action(f, &p->first[k]);
}

static const char *goal_metric_name(enum hs_goal_metric m)
{
	return m == HS_GOAL_USER_INPUT ? "user_input" :
		m == HS_GOAL_SOME_MEM_PSI_US ? "some_mem_psi_us" : "none";
}

/* The goal's windows: each current value and the effective size it set. */
static void report_goal(FILE *f, const struct sim_run *run, unsigned int i)
{
	const struct hs_quota_goal *g = &run->sim.schemes[i].quota.goal;
	char text[1024];
	size_t k, n = 0, shown = 0;
	int len;

	for (k = 0; k < run->nr_qwin; k++)
		n += run->qwin[k].scheme == i;
	len = snprintf(text, sizeof(text), "quota goal: %s, target %lu: %zu charge window%s; current value -> effective size in bytes:",
		       goal_metric_name(g->metric), g->target, n, cli_s(n));
	for (k = 0; k < run->nr_qwin && len < (int)sizeof(text) - 64; k++) {
		const struct sim_qwin *w = &run->qwin[k];

		if (w->scheme != i)
			continue;
		if (++shown > 12 && shown < n) {
			if (shown == 13)
				len += snprintf(text + len, sizeof(text) - (size_t)len, " ...");
			continue;
		}
		len += snprintf(text + len, sizeof(text) - (size_t)len,
				"%s %lu -> %lu", shown > 1 ? "," : "", w->current,
				w->esz);
	}
	fputs("  ", f);
	layout_wrap(f, text, 2, 4, COLS, 0);
}

static void report_scheme(FILE *f, const struct sim_cmd *c,
			  const struct sim_run *run, unsigned int i)
{
	const struct hs_scheme *s = &run->sim.schemes[i];
	const struct hs_pattern *p = &s->pattern;
	const struct hs_quota *q = &s->quota;
	const struct hs_damos_stat *st = &s->stat;
	char nr[32], age[32], sz[32], reset[32];

	fmt_limit(nr, sizeof(nr), p->max_nr, UINT32_MAX, "");
	fmt_limit(age, sizeof(age), p->max_age, UINT32_MAX, "");
	fmt_limit(sz, sizeof(sz), p->max_sz, ULONG_MAX, "");
	fmt_limit(reset, sizeof(reset), q->reset_ms, ULONG_MAX, " ms");
	layout_printf(f, COLS, "scheme %u: %s; nr_accesses %u..%s samples, age %u..%s aggregations, size %lu..%s\n",
		      i, hs_action_name(s->action), p->min_nr, nr, p->min_age, age,
		      p->min_sz, sz);
	if (q->ms || q->sz || q->goal.metric != HS_GOAL_NONE)
		layout_printf(f, COLS, "  quota: %lu ms, %lu B per %s; weights sz %u nr_accesses %u age %u; apply every %lu us\n",
			      q->ms, q->sz, reset, q->weight_sz, q->weight_nr,
			      q->weight_age,
			      s->apply_us ? s->apply_us : c->cfg.attrs.aggr_us);
	else
		layout_printf(f, COLS, "  no quota; apply every %lu us\n",
			      s->apply_us ? s->apply_us : c->cfg.attrs.aggr_us);
	layout_printf(f, COLS, "  nr_tried %lu, sz_tried %.1f MiB, nr_applied %lu, sz_applied %.1f MiB, qt_exceeds %lu\n",
		      st->nr_tried, sim_mib(st->sz_tried), st->nr_applied,
		      sim_mib(st->sz_applied), st->qt_exceeds);
	if (q->ms || q->sz || q->goal.metric != HS_GOAL_NONE)
		layout_printf(f, COLS, "  score histograms %lu over %lu regions; last effective quota %.2f MiB, min_score %u\n",
			      st->nr_adjust, st->nr_scored, sim_mib(q->esz),
			      q->min_score);
	if (q->goal.metric != HS_GOAL_NONE)
		report_goal(f, run, i);
	report_picks(f, s, &run->picks[i]);
}

/* Memory over time, a row per period of sim_periods(). */
static void report_memory(FILE *f, const struct sim_run *run,
			  uint64_t duration_us)
{
	struct sim_period *p;
	size_t i, nr;

	p = sim_periods(run, duration_us, &nr);
	if (!p)
		return;
	layout_printf(f, COLS, "\nmemory over time (resident at the period's end; faults in it; median working set and regions):\n");
	fprintf(f, "  %17s %12s %10s %12s %8s\n", "period", "resident",
		"faults", "working set", "regions");
	for (i = 0; i < nr; i++)
		fprintf(f, "  %6.1f - %6.1f s %8.1f MiB %10" PRIu64 " %8.1f MiB %8" PRIu64 "\n",
			p[i].from_us / 1e6, p[i].to_us / 1e6,
			sim_mib(p[i].resident), p[i].faults,
			sim_mib(p[i].wss), p[i].nr_regions);
	free(p);
}

/* --compare-scorers: the score + histogram stage, before and after. */
static void report_score_stage(FILE *f, const struct sim_cmd *c)
{
	double a = sim_stage_ns(c, &c->runs[0], HS_STAGE_SCORE);
	double b = sim_stage_ns(c, &c->runs[1], HS_STAGE_SCORE);
	double ka = sim_kdamond_ns(c, &c->runs[0]);
	double kb = sim_kdamond_ns(c, &c->runs[1]);

	layout_printf(f, COLS, "score + histogram stage: %s %.0f ns -> %s %.0f ns per aggregation: %.2fx (%.1f%% -> %.1f%% of kdamond's time)\n",
		      hs_scorer_name(c->runs[0].scorer), a,
		      hs_scorer_name(c->runs[1].scorer), b, b > 0 ? a / b : 0,
		      ka > 0 ? 100.0 * a / ka : 0, kb > 0 ? 100.0 * b / kb : 0);
}

/* The runs' column width: their labels', within COLS. */
static size_t col_width(const struct sim_cmd *c)
{
	size_t w = 18, max = (COLS - 2 - STAGE_W) / c->nr_runs - 1;
	unsigned int k;

	for (k = 0; k < c->nr_runs; k++)
		if (strlen(c->runs[k].label) > w)
			w = strlen(c->runs[k].label);
	return w < max ? w : max;
}

/* The replayed cost of the score function of @run, wrapped at COLS. */
static void report_fn_cost(FILE *f, const struct sim_cmd *c,
			   const struct sim_run *run)
{
	double fn = sim_score_fn_ns(run), kd = sim_kdamond_ns(c, run);
	double sc = sim_stage_ns(c, run, HS_STAGE_SCORE);

	if (run->scorer != HS_SCORER_KERNEL) {
		layout_printf(f, COLS, "score function (%s): %" PRIu64 " calls, prepared; their cost is in the score + histogram stage\n",
			      run->label, run->sim.nr_scores);
		return;
	}
	if (!run->have_cost) {
		layout_printf(f, COLS, "score function (%s): %" PRIu64 " calls; no inputs to time\n",
			      run->label, run->sim.nr_scores);
		return;
	}
	layout_printf(f, COLS, "score function (%s): %" PRIu64 " calls, %.2f ns per call in context\n",
		      run->label, run->sim.nr_scores, run->cost.fn_ps / 1000.0);
	layout_printf(f, COLS, "  (empty call %.2f ns; %zu of its inputs replayed, N=%zu, %s)\n",
		      run->cost.empty_ps / 1000.0, run->sim.nr_inputs,
		      run->cost.n, hs_check_name(run->cost.check));
	layout_printf(f, COLS, "  = %.0f ns per aggregation: %.2f%% of kdamond's time, %.1f%% of the score + histogram stage\n",
		      fn, kd > 0 ? 100.0 * fn / kd : 0,
		      sc > 0 ? 100.0 * fn / sc : 0);
}

static void report_costs(FILE *f, const struct sim_cmd *c)
{
	size_t w = col_width(c);
	char buf[64];
	unsigned int k;
	int s;

	layout_printf(f, COLS, "\ncost per aggregation, ns (clock: %s; %s):\n",
		      c->host.clock.name, c->host.clock.tsc ?
		      "TSC-derived, this VM has no PMU" : "wall time");
	fprintf(f, "  %-*s", STAGE_W, "stage");
	for (k = 0; k < c->nr_runs; k++)
		fprintf(f, " %*s", (int)w, layout_tail(c->runs[k].label, w,
							buf, sizeof(buf)));
	fputc('\n', f);
	for (s = 0; s < HS_NR_STAGES; s++) {
		fprintf(f, "  %-*s", STAGE_W, stage_names[s]);
		for (k = 0; k < c->nr_runs; k++)
			fprintf(f, " %*.0f", (int)w,
				sim_stage_ns(c, &c->runs[k], s));
		fputc('\n', f);
	}
	fprintf(f, "  %-*s", STAGE_W, "kdamond total");
	for (k = 0; k < c->nr_runs; k++)
		fprintf(f, " %*.0f", (int)w, sim_kdamond_ns(c, &c->runs[k]));
	fputc('\n', f);
	if (c->compare_scorers) {	/* the stage line says it */
		report_score_stage(f, c);
		return;
	}
	for (k = 0; k < c->nr_runs; k++)
		report_fn_cost(f, c, &c->runs[k]);
	/* a candidate pays for the kernel's structs; a built-in does not */
	if (c->nr_runs == 2 && c->runs[0].cand != c->runs[1].cand &&
	    c->runs[0].have_cost && c->runs[1].have_cost)
		layout_printf(f, COLS, "note: a candidate's ns include its door (the kernel's structs, built per call); a built-in's do not\n");
}

/* vaddr: the process' own memory beside masim's regions (docs/sim.md). */
static void print_own(FILE *f, const struct hs_workload *wl)
{
	uint64_t own = 0, rnd = 0;
	char more[64] = "";
	unsigned int i;

	for (i = 0; i < wl->nr_regions; i++) {
		const struct hs_wl_region *r = &wl->regions[i];

		if (r->own == HS_WL_OWN_RND)
			rnd += r->end - r->start;
		else if (r->own)
			own += r->end - r->start;
	}
	if (rnd)
		snprintf(more, sizeof(more), "; masim's random numbers %.1f MiB",
			 sim_mib(rnd));
	layout_printf(f, COLS, "  process: %.1f MiB of its own (binary, bss, heap, stack)%s\n",
		      sim_mib(own), more);
}

/**
 * sim_report() - the human summary of every run.
 * @f:		where to.
 * @c:		the command, after its runs.
 */
void sim_report(FILE *f, const struct sim_cmd *c)
{
	const struct sim_run *run = &c->runs[0];
	const struct hs_sim *sim = &run->sim;
	const struct hs_attrs *a = &c->cfg.attrs;
	double sim_s = hs_sim_now_us(sim) / 1e6;
	double wall_s = run->wall_ns / 1e9;
	unsigned int i;

	layout_printf(f, COLS, "hotscore sim: %s on %s, %s; seed %" PRIu64 "\n",
		      run->wl.name, c->ops == HS_OPS_PADDR ? "paddr" : "vaddr",
		      run->label, c->cfg.seed);
	layout_printf(f, COLS, "  %.1f s simulated in %.3f s (%.0fx real time%s)\n",
		      sim_s, wall_s, wall_s > 0 ? sim_s / wall_s : 0,
		      c->timing ? ", stage clock on" : "");
	layout_printf(f, COLS, "  intervals: sample %lu us, aggr %lu us, ops update %lu us; nr_regions %lu..%lu\n",
		      a->sample_us, a->aggr_us, a->ops_update_us, a->min_nr_regions,
		      a->max_nr_regions);
	layout_printf(f, COLS, "  workload: %u region%s, %.1f MiB, %u phase%s, %.1f s a pass; %" PRIu64 " accesses/ms (model%s)\n",
		      run->wl.nr_masim, cli_s(run->wl.nr_masim),
		      sim_mib(run->wl.total_bytes), run->wl.nr_phases,
		      cli_s(run->wl.nr_phases), run->wl.total_ms / 1e3, run->wl.rate,
		      run->wl.phases[0].rate ? "; the phases' own, their mean" : "");
	if (c->ops == HS_OPS_VADDR)
		print_own(f, &run->wl);
	if (sim->nr_aggr)
		layout_printf(f, COLS, "  kdamond: %lu sample%s, %lu aggregation%s, %zu..%zu regions after a split, %" PRIu64 " score call%s\n",
			      sim->nr_samples, cli_s(sim->nr_samples), sim->nr_aggr,
			      cli_s(sim->nr_aggr), sim->min_seen, sim->max_seen,
			      sim->nr_scores, cli_s(sim->nr_scores));
	else
		layout_printf(f, COLS, "  kdamond: %lu sample%s, no aggregation, %zu region%s, %" PRIu64 " score call%s\n",
			      sim->nr_samples, cli_s(sim->nr_samples), sim->nr,
			      cli_s(sim->nr), sim->nr_scores, cli_s(sim->nr_scores));
	fputc('\n', f);
	for (i = 0; i < sim->cfg.nr_schemes; i++)
		report_scheme(f, c, run, i);
	report_memory(f, run, c->cfg.duration_us);
	if (c->timing)
		report_costs(f, c);
	layout_printf(f, COLS, "\ndecisions: %zu action%s taken, hash %016" PRIx64 "\n",
		      sim->nr_events, cli_s(sim->nr_events), sim->hash);
}

static void fmt_event(char *buf, size_t size, const struct hs_event *e,
		      unsigned long sample_us)
{
	snprintf(buf, size, "%.3f s: scheme %u on %#lx-%#lx (%lu B), applied %lu B",
		 e->sis * (double)sample_us / 1e6, e->scheme, e->start, e->end,
		 e->end - e->start, e->sz_applied);
}

/* What went wrong with B on A's inputs: a trap's name, or a hang. */
static void fmt_trap(char *buf, size_t size, int trap)
{
	if (trap == HS_CAND_HANG)
		snprintf(buf, size, "did not return (hang: a call ran past --call_limit %s)",
			 cli_call_limit_text());
	else
		snprintf(buf, size, "trapped (%s)", hs_cand_trap_name(trap));
}

/*
 * The scores, call by call: how many of A's run's calls B scores
 * differently, and the first of them as a command.
 */
static void report_scores(FILE *f, const struct sim_cmd *c)
{
	const struct sim_diff *d = &c->diff;
	char what[128], note[64];

	if (d->trap) {
		fmt_trap(what, sizeof(what), d->trap);
		layout_printf(f, COLS, "  scores: B %s on call %" PRIu64 " of A's run; stopped:\n",
			      what, d->nr_calls + 1);
		layout_command(f, "    ", 6, d->command, NULL, COLS);
		return;
	}
	if (!d->scored) {
		layout_printf(f, COLS, "  scores: not compared call by call (%s)\n",
			      c->compare_scorers ? "one profile, scored two ways" :
			      d->why_not);
		return;
	}
	if (!d->nr_differ) {
		layout_printf(f, COLS, "  scores: equal on all %" PRIu64 " calls of A's run (each scored by both; verify checks every input)\n",
			      d->nr_calls);
		return;
	}
	layout_printf(f, COLS, "  scores: differ on %" PRIu64 " of %" PRIu64 " calls of A's run (each scored by both); the first, at %.3f s:\n",
		      d->nr_differ, d->nr_calls, d->first_us / 1e6);
	snprintf(note, sizeof(note), "A: %d, B: %d", d->first_a, d->first_b);
	layout_command(f, "    ", 6, d->command, note, COLS);
}

/* Where the decisions part: the counts, then the first action apart. */
static void report_decisions(FILE *f, const struct sim_cmd *c)
{
	const struct hs_sim *a = &c->runs[0].sim, *b = &c->runs[1].sim;
	const struct sim_diff *d = &c->diff;
	char ea[160], eb[160];
	size_t i, n;

	layout_printf(f, COLS, "  decided differently: %zu of A's %zu actions are not B's, %zu of B's %zu are not A's%s (hash %016" PRIx64 " vs %016" PRIx64 ")\n",
		      d->only[0], a->nr_events, d->only[1], b->nr_events,
		      d->nr_kept[0] < a->nr_events ||
		      d->nr_kept[1] < b->nr_events ? " (of those kept)" : "",
		      a->hash, b->hash);
	i = sim_first_difference(c, &n);
	if (i < n) {
		fmt_event(ea, sizeof(ea), &a->events[i], c->cfg.attrs.sample_us);
		fmt_event(eb, sizeof(eb), &b->events[i], c->cfg.attrs.sample_us);
		layout_printf(f, COLS, "  first difference, action #%zu:\n", i);
		layout_printf(f, COLS, "    A: %s\n", ea);
		layout_printf(f, COLS, "    B: %s\n", eb);
	} else {
		layout_printf(f, COLS, "  the first %zu action%s agree%s; one run made more\n",
			      n, cli_s(n), n == 1 ? "s" : "");
	}
}

/**
 * sim_compare() - how two runs (profiles or scorers) differ: their scores
 * call by call, then their decisions, and "decisions identical" where
 * every applied action was the same.
 * @f:		where to.
 * @c:		the command, after both runs.
 *
 * Return: 0 if every applied action was the same, 1 otherwise.
 */
int sim_compare(FILE *f, const struct sim_cmd *c)
{
	const struct hs_sim *a = &c->runs[0].sim;

	layout_printf(f, COLS, "compare: A = %s, B = %s, the same seed\n",
		      c->runs[0].label, c->runs[1].label);
	report_scores(f, c);
	if (!sim_same_decisions(c)) {
		report_decisions(f, c);
		return 1;
	}
	layout_printf(f, COLS, "  decisions: all %zu actions the same, hash %016" PRIx64 " in both\n",
		      a->nr_events, a->hash);
	layout_printf(f, COLS, "  decisions identical for this workload and scheme%s\n",
		      c->cfg.nr_schemes > 1 ? "s" : "");
	return 0;
}
