// SPDX-License-Identifier: GPL-2.0
/*
 * sim_text.c - `hotscore sim`'s summary on standard output: the run, each
 * scheme and what it picked, memory over time, the costs with timing, and
 * the comparison of two runs' decisions.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "../cli.h"
#include "../cmd_sim.h"
#include "../sim_report.h"

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
	char sz[32], applied[32];

	fmt_size(sz, sizeof(sz), e->end - e->start);
	fmt_size(applied, sizeof(applied), e->sz_applied);
	fprintf(f, "    %8.3f s  %#lx-%#lx (%s)", e->t_us / 1e6, e->start,
		e->end, sz);
	if (e->score != HS_EVENT_NO_SCORE)
		fprintf(f, ": score %d >= %u", e->score, e->min_score);
	fprintf(f, ", applied %s\n", applied);
}

/*
 * What the scheme acted on: how many regions and bytes, in how many of
 * its applications, with which scores; then its first actions.
 */
static void report_picks(FILE *f, const struct hs_scheme *s,
			 const struct sim_picks *p)
{
	const struct hs_damos_stat *st = &s->stat;
	char sz[32];
	size_t k;

	if (!p->applications) {
		fprintf(f, "  picked nothing in %lu application%s\n",
			st->nr_applies, cli_s(st->nr_applies));
		return;
	}
	fmt_size(sz, sizeof(sz), st->sz_tried);
	fprintf(f, "  picked %lu region%s (%s) in %lu of %lu applications",
		st->nr_tried, cli_s(st->nr_tried), sz, p->applications,
		st->nr_applies);
	if (p->nr_scored)
		fprintf(f, "; scores %d..%d, min_score %u..%u\n",
			p->score_lo, p->score_hi, p->min_lo, p->min_hi);
	else
		fprintf(f, "; no quota, no scores\n");
	for (k = 0; k < p->nr_first; k++)
		report_action(f, &p->first[k]);
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
	fprintf(f, "scheme %u: %s; nr_accesses %u..%s samples, age %u..%s aggregations, size %lu..%s\n",
		i, hs_action_name(s->action), p->min_nr, nr, p->min_age, age,
		p->min_sz, sz);
	if (q->ms || q->sz)
		fprintf(f, "  quota: %lu ms, %lu B per %s; weights sz %u nr_accesses %u age %u; apply every %lu us\n",
			q->ms, q->sz, reset, q->weight_sz, q->weight_nr,
			q->weight_age,
			s->apply_us ? s->apply_us : c->cfg.attrs.aggr_us);
	else
		fprintf(f, "  no quota; apply every %lu us\n",
			s->apply_us ? s->apply_us : c->cfg.attrs.aggr_us);
	fprintf(f, "  nr_tried %lu, sz_tried %.1f MiB, nr_applied %lu, sz_applied %.1f MiB, qt_exceeds %lu\n",
		st->nr_tried, sim_mib(st->sz_tried), st->nr_applied,
		sim_mib(st->sz_applied), st->qt_exceeds);
	if (q->ms || q->sz)
		fprintf(f, "  score histograms %lu over %lu regions; last effective quota %.2f MiB, min_score %u\n",
			st->nr_adjust, st->nr_scored, sim_mib(q->esz),
			q->min_score);
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
	fprintf(f, "\nmemory over time (resident at the period's end; faults in it; median working set and regions):\n");
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

	fprintf(f, "score + histogram stage: %s %.0f ns -> %s %.0f ns per aggregation: %.2fx (%.1f%% -> %.1f%% of kdamond's time)\n",
		hs_scorer_name(c->runs[0].scorer), a,
		hs_scorer_name(c->runs[1].scorer), b, b > 0 ? a / b : 0,
		ka > 0 ? 100.0 * a / ka : 0, kb > 0 ? 100.0 * b / kb : 0);
}

static void report_costs(FILE *f, const struct sim_cmd *c)
{
	unsigned int k;
	int s;

	fprintf(f, "\ncost per aggregation, ns (clock: %s; %s):\n",
		c->host.clock.name, c->host.clock.tsc ?
		"TSC-derived, this VM has no PMU" : "wall time");
	fprintf(f, "  %-32s", "stage");
	for (k = 0; k < c->nr_runs; k++)
		fprintf(f, " %18s", c->runs[k].label);
	fputc('\n', f);
	for (s = 0; s < HS_NR_STAGES; s++) {
		fprintf(f, "  %-32s", stage_names[s]);
		for (k = 0; k < c->nr_runs; k++)
			fprintf(f, " %18.0f", sim_stage_ns(c, &c->runs[k], s));
		fputc('\n', f);
	}
	fprintf(f, "  %-32s", "kdamond total");
	for (k = 0; k < c->nr_runs; k++)
		fprintf(f, " %18.0f", sim_kdamond_ns(c, &c->runs[k]));
	fputc('\n', f);
	if (c->compare_scorers)
		report_score_stage(f, c);
	for (k = 0; k < c->nr_runs; k++) {
		const struct sim_run *run = &c->runs[k];
		double fn = sim_score_fn_ns(run), kd = sim_kdamond_ns(c, run);
		double sc = sim_stage_ns(c, run, HS_STAGE_SCORE);

		if (c->compare_scorers)	/* the stage line says it */
			continue;
		if (run->scorer != HS_SCORER_KERNEL) {
			fprintf(f, "score function (%s): %" PRIu64 " calls, prepared; their cost is in the score + histogram stage\n",
				run->label, run->sim.nr_scores);
			continue;
		}
		if (!run->have_cost) {
			fprintf(f, "score function (%s): %" PRIu64 " calls; no inputs to time\n",
				run->label, run->sim.nr_scores);
			continue;
		}
		fprintf(f, "score function (%s): %" PRIu64 " calls, %.2f ns per call in context (empty call %.2f ns; %zu of its inputs replayed, N=%zu, %s)\n",
			run->label, run->sim.nr_scores,
			run->cost.fn_ps / 1000.0, run->cost.empty_ps / 1000.0,
			run->sim.nr_inputs, run->cost.n,
			hs_check_name(run->cost.check));
		fprintf(f, "  = %.0f ns per aggregation: %.2f%% of kdamond's time, %.1f%% of the score + histogram stage\n",
			fn, kd > 0 ? 100.0 * fn / kd : 0,
			sc > 0 ? 100.0 * fn / sc : 0);
	}
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

	fprintf(f, "hotscore sim: %s on %s, %s; seed %" PRIu64 "\n",
		run->wl.name, c->ops == HS_OPS_PADDR ? "paddr" : "vaddr",
		run->label, c->cfg.seed);
	fprintf(f, "  %.1f s simulated in %.3f s (%.0fx real time%s)\n",
		sim_s, wall_s, wall_s > 0 ? sim_s / wall_s : 0,
		c->timing ? ", stage clock on" : "");
	fprintf(f, "  intervals: sample %lu us, aggr %lu us, ops update %lu us; nr_regions %lu..%lu\n",
		a->sample_us, a->aggr_us, a->ops_update_us, a->min_nr_regions,
		a->max_nr_regions);
	fprintf(f, "  workload: %u region%s, %.1f MiB, %u phase%s, %.1f s a pass; %" PRIu64 " accesses/ms (model%s)\n",
		run->wl.nr_masim, cli_s(run->wl.nr_masim),
		sim_mib(run->wl.nr_pages << HS_PAGE_SHIFT), run->wl.nr_phases,
		cli_s(run->wl.nr_phases), run->wl.total_ms / 1e3, run->wl.rate,
		run->wl.phases[0].rate ? "; the phases' own, their mean" : "");
	if (sim->nr_aggr)
		fprintf(f, "  kdamond: %lu sample%s, %lu aggregation%s, %zu..%zu regions after a split, %" PRIu64 " score call%s\n",
			sim->nr_samples, cli_s(sim->nr_samples), sim->nr_aggr,
			cli_s(sim->nr_aggr), sim->min_seen, sim->max_seen,
			sim->nr_scores, cli_s(sim->nr_scores));
	else
		fprintf(f, "  kdamond: %lu sample%s, no aggregation, %zu region%s, %" PRIu64 " score call%s\n",
			sim->nr_samples, cli_s(sim->nr_samples), sim->nr,
			cli_s(sim->nr), sim->nr_scores, cli_s(sim->nr_scores));
	fputc('\n', f);
	for (i = 0; i < sim->cfg.nr_schemes; i++)
		report_scheme(f, c, run, i);
	report_memory(f, run, c->cfg.duration_us);
	if (c->timing)
		report_costs(f, c);
	fprintf(f, "\ndecisions: %zu action%s taken, hash %016" PRIx64 "\n",
		sim->nr_events, cli_s(sim->nr_events), sim->hash);
}

static void fmt_event(char *buf, size_t size, const struct hs_event *e,
		      unsigned long sample_us)
{
	snprintf(buf, size, "%.3f s: scheme %u on %#lx-%#lx (%lu B), applied %lu B",
		 e->sis * (double)sample_us / 1e6, e->scheme, e->start, e->end,
		 e->end - e->start, e->sz_applied);
}

/**
 * sim_compare() - whether two runs (profiles or scorers) made the same
 * decisions.
 * @f:		where to.
 * @c:		the command, after both runs.
 *
 * Return: 0 if every applied action was the same, 1 otherwise.
 */
int sim_compare(FILE *f, const struct sim_cmd *c)
{
	const struct hs_sim *a = &c->runs[0].sim, *b = &c->runs[1].sim;
	char ea[160], eb[160];
	size_t i, n;

	if (sim_same_decisions(c)) {
		fprintf(f, "compare: %s and %s made identical decisions: %zu action%s, hash %016" PRIx64 " in both\n",
			c->runs[0].label, c->runs[1].label, a->nr_events,
			cli_s(a->nr_events), a->hash);
		return 0;
	}
	i = sim_first_difference(c, &n);
	fprintf(f, "compare: %s and %s decided differently (%zu vs %zu actions, hash %016" PRIx64 " vs %016" PRIx64 ")\n",
		c->runs[0].label, c->runs[1].label, a->nr_events,
		b->nr_events, a->hash, b->hash);
	if (i < n) {
		fmt_event(ea, sizeof(ea), &a->events[i], c->cfg.attrs.sample_us);
		fmt_event(eb, sizeof(eb), &b->events[i], c->cfg.attrs.sample_us);
		fprintf(f, "  first difference, action #%zu:\n    %s: %s\n    %s: %s\n",
			i, c->runs[0].label, ea, c->runs[1].label, eb);
	} else {
		fprintf(f, "  the first %zu action%s agree%s; one run made more\n",
			n, cli_s(n), n == 1 ? "s" : "");
	}
	return 1;
}
