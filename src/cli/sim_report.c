// SPDX-License-Identifier: GPL-2.0
/*
 * sim_report.c - what `hotscore sim` writes: the summary, the profile
 * comparison, --json, --record (damo's record format, through
 * src/record/write.c), --actions and --heatmap.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotscore/record_write.h>
#include <hotscore/json_out.h>

#include "cli.h"
#include "cmd_sim.h"

static const char *const stage_names[HS_NR_STAGES] = {
	[HS_STAGE_SAMPLE] = "sampling (prepare + check)",
	[HS_STAGE_WORKLOAD] = "workload faults (not kdamond)",
	[HS_STAGE_AGGREGATE] = "aggregation (reset, ops update)",
	[HS_STAGE_MERGE] = "merge (+ min_nr_regions)",
	[HS_STAGE_SPLIT] = "split",
	[HS_STAGE_SCORE] = "score + histogram",
	[HS_STAGE_APPLY] = "apply (walk + actions)",
};

static const char *const stage_keys[HS_NR_STAGES] = {
	"sample", "workload", "aggregate", "merge", "split", "score", "apply",
};

static double mib(uint64_t bytes)
{
	return bytes / 1048576.0;
}

/* Ticks of the stage clock in ns per aggregation. */
static double stage_ns(const struct sim_cmd *c, const struct sim_run *run,
		       enum hs_stage s)
{
	if (!run->sim.nr_aggr || !c->host.clock.hz)
		return 0;
	return run->sim.stage_ticks[s] * 1e9 / c->host.clock.hz /
		run->sim.nr_aggr;
}

/* kdamond's own time per aggregation: every stage but the workload's. */
static double kdamond_ns(const struct sim_cmd *c, const struct sim_run *run)
{
	double sum = 0;
	int s;

	for (s = 0; s < HS_NR_STAGES; s++)
		if (s != HS_STAGE_WORKLOAD)
			sum += stage_ns(c, run, s);
	return sum;
}

/* The score function's time per aggregation, from the replayed cost. */
static double score_fn_ns(const struct sim_run *run)
{
	if (!run->have_cost || !run->sim.nr_aggr)
		return 0;
	return (double)run->sim.nr_scores * run->cost.fn_ps / 1000.0 /
		run->sim.nr_aggr;
}

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
		snprintf(buf, size, "%.1f MiB", mib(bytes));
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
		st->nr_tried, mib(st->sz_tried), st->nr_applied,
		mib(st->sz_applied), st->qt_exceeds);
	if (q->ms || q->sz)
		fprintf(f, "  score histograms %lu over %lu regions; last effective quota %.2f MiB, min_score %u\n",
			st->nr_adjust, st->nr_scored, mib(q->esz), q->min_score);
	report_picks(f, s, &run->picks[i]);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The median of @n values, which it sorts. */
static uint64_t median_u64(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

/*
 * Memory over time, in about a dozen periods: resident bytes at the end
 * of each, the faults in it, and the median working set and region count
 * (a phase change makes one aggregation see two hot regions; the median
 * does not let it speak for the period).
 */
static void report_memory(FILE *f, const struct sim_run *run,
			  uint64_t duration_us)
{
	uint64_t step = duration_us / 12, *wss, *nr, faults = 0;
	size_t i, from = 0;

	if (!run->nr_points)
		return;
	if (step >= 1000000)
		step = (step + 999999) / 1000000 * 1000000;
	if (!step)
		step = 1;
	wss = calloc(run->nr_points, sizeof(*wss));
	nr = calloc(run->nr_points, sizeof(*nr));
	if (!wss || !nr)
		cli_die("out of memory");
	fprintf(f, "\nmemory over time (resident at the period's end; faults in it; median working set and regions):\n");
	fprintf(f, "  %17s %12s %10s %12s %8s\n", "period", "resident",
		"faults", "working set", "regions");
	for (i = 0; i < run->nr_points; i++) {
		const struct sim_point *p = &run->points[i];
		size_t k;

		if (i + 1 < run->nr_points &&
		    (run->points[i + 1].t_us - 1) / step == (p->t_us - 1) / step)
			continue;
		for (k = from; k <= i; k++) {
			wss[k - from] = run->points[k].wss;
			nr[k - from] = run->points[k].nr_regions;
		}
		fprintf(f, "  %6.1f - %6.1f s %8.1f MiB %10" PRIu64 " %8.1f MiB %8" PRIu64 "\n",
			from ? run->points[from - 1].t_us / 1e6 : 0.0,
			p->t_us / 1e6, mib(p->resident), p->faults - faults,
			mib(median_u64(wss, i - from + 1)),
			median_u64(nr, i - from + 1));
		faults = p->faults;
		from = i + 1;
	}
	free(wss);
	free(nr);
}

/* --compare-scorers: the score + histogram stage, before and after. */
static void report_score_stage(FILE *f, const struct sim_cmd *c)
{
	double a = stage_ns(c, &c->runs[0], HS_STAGE_SCORE);
	double b = stage_ns(c, &c->runs[1], HS_STAGE_SCORE);
	double ka = kdamond_ns(c, &c->runs[0]), kb = kdamond_ns(c, &c->runs[1]);

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
			fprintf(f, " %18.0f", stage_ns(c, &c->runs[k], s));
		fputc('\n', f);
	}
	fprintf(f, "  %-32s", "kdamond total");
	for (k = 0; k < c->nr_runs; k++)
		fprintf(f, " %18.0f", kdamond_ns(c, &c->runs[k]));
	fputc('\n', f);
	if (c->compare_scorers)
		report_score_stage(f, c);
	for (k = 0; k < c->nr_runs; k++) {
		const struct sim_run *run = &c->runs[k];
		double fn = score_fn_ns(run), kd = kdamond_ns(c, run);
		double sc = stage_ns(c, run, HS_STAGE_SCORE);

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
		mib(run->wl.nr_pages << HS_PAGE_SHIFT), run->wl.nr_phases,
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

/*
 * The same decision: the fields the hash covers.  Two profiles that pick
 * alike may still score the regions differently.
 */
static bool same_decision(const struct hs_event *a, const struct hs_event *b)
{
	return a->sis == b->sis && a->start == b->start && a->end == b->end &&
		a->scheme == b->scheme && a->sz_applied == b->sz_applied;
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
	size_t i, n = a->nr_events < b->nr_events ? a->nr_events :
		b->nr_events;
	char ea[160], eb[160];

	if (a->hash == b->hash && a->nr_events == b->nr_events) {
		fprintf(f, "compare: %s and %s made identical decisions: %zu action%s, hash %016" PRIx64 " in both\n",
			c->runs[0].label, c->runs[1].label, a->nr_events,
			cli_s(a->nr_events), a->hash);
		return 0;
	}
	if (n > a->cfg.max_events)
		n = a->cfg.max_events;
	for (i = 0; i < n; i++)
		if (!same_decision(&a->events[i], &b->events[i]))
			break;
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

/**
 * sim_record_begin() - --record: start damo's record, in the format
 * asked (src/record/write.c).  The snapshots carry the stats of scheme 0.
 * @run:	the first run; run->record is open.
 * @c:		the command.
 */
void sim_record_begin(struct sim_run *run, const struct sim_cmd *c)
{
	const struct hs_attrs *a = &c->cfg.attrs;
	struct hs_damo_intervals iv = { a->sample_us, a->aggr_us,
					a->ops_update_us };

	run->record_path = c->record;
	run->aggr_start_ns = 0;
	/* no scheme index, as damo record's: the stats are scheme 0's */
	if (hs_damo_begin(&run->rec, run->record, c->record_format, &iv, -1))
		cli_die("--record: %s: %s", c->record, strerror(errno));
}

/**
 * sim_record_snapshot() - one snapshot per aggregation, where the
 * kernel's damon_aggregated tracepoint fires: after schemes, before the
 * reset.  A write error (a full disk) stops the run at once.
 * @run:	the run writing the record.
 * @sim:	its simulation, at the aggregation boundary.
 */
void sim_record_snapshot(struct sim_run *run, const struct hs_sim *sim)
{
	struct hs_damo_snapshot snap = {
		.start_ns = run->aggr_start_ns,
		.end_ns = hs_sim_now_ns(sim),
		.regions = sim->r,
		.nr = sim->nr,
		.stat = sim->cfg.nr_schemes ? &sim->schemes[0].stat : NULL,
	};

	if (hs_damo_snapshot(&run->rec, &snap))
		cli_die("--record: %s: write error: %s", run->record_path,
			strerror(errno));
	run->aggr_start_ns = snap.end_ns;
}

/**
 * sim_record_end() - close the record's lists and finish its zlib stream;
 * the caller then closes the file (cli_out_done()).
 * @run:	the run writing the record.
 */
void sim_record_end(struct sim_run *run)
{
	if (hs_damo_end(&run->rec))
		cli_die("--record: %s: write error: %s", run->record_path,
			strerror(errno));
}

/**
 * sim_picks_add() - count an action in its scheme's summary.
 * @run:	the run.
 * @e:		the action.
 */
void sim_picks_add(struct sim_run *run, const struct hs_event *e)
{
	struct sim_picks *p = &run->picks[e->scheme];

	if (!p->applications || p->last_sis != e->sis)
		p->applications++;
	p->last_sis = e->sis;
	if (p->nr_first < SIM_FIRST_ACTIONS)
		p->first[p->nr_first++] = *e;
	if (e->score == HS_EVENT_NO_SCORE)
		return;
	if (!p->nr_scored || e->score < p->score_lo)
		p->score_lo = e->score;
	if (!p->nr_scored || e->score > p->score_hi)
		p->score_hi = e->score;
	if (!p->nr_scored || e->min_score < p->min_lo)
		p->min_lo = e->min_score;
	if (!p->nr_scored || e->min_score > p->min_hi)
		p->min_hi = e->min_score;
	p->nr_scored++;
}

/*
 * --actions FILE.json, written as the actions happen: one per process,
 * for only the first run writes it.
 */
static struct hs_json_stream actions_js;

/**
 * sim_actions_begin() - --actions: the CSV header, or the JSON's opening.
 * @run:	the first run; run->actions is open.
 */
void sim_actions_begin(struct sim_run *run)
{
	if (run->actions_json) {
		hs_json_stream_init(&actions_js, run->actions, 0);
		hs_json_open(&actions_js, NULL, true, false);
		hs_json_put(&actions_js, "schema", json_integer(1));
		hs_json_open(&actions_js, "actions", false, true);
	} else
		fputs("t_us,scheme,start,end,score,min_score,sz_applied\n",
		      run->actions);
}

/**
 * sim_actions_row() - one action, as it happens: every one is written,
 * not only the events the run keeps.
 * @run:	the run writing --actions.
 * @e:		the action.
 */
void sim_actions_row(struct sim_run *run, const struct hs_event *e)
{
	char score[16];
	bool none = e->score == HS_EVENT_NO_SCORE;

	/* not scored (no quota): an empty CSV field, null in JSON */
	snprintf(score, sizeof(score), "%d", e->score);
	if (run->actions_json)
		hs_json_put(&actions_js, NULL, json_pack(
			"{s:o, s:I, s:o, s:o, s:o, s:I, s:o}",
			"t_us", hs_json_u64(e->t_us),
			"scheme", (json_int_t)e->scheme,
			"start", hs_json_u64(e->start),
			"end", hs_json_u64(e->end),
			"score", none ? json_null() : json_integer(e->score),
			"min_score", (json_int_t)e->min_score,
			"sz_applied", hs_json_u64(e->sz_applied)));
	else
		fprintf(run->actions, "%" PRIu64 ",%u,%lu,%lu,%s,%u,%lu\n",
			e->t_us, e->scheme, e->start, e->end,
			none ? "" : score, e->min_score, e->sz_applied);
	run->nr_actions++;
	if (ferror(run->actions))
		cli_die("--actions: %s: write error: %s", run->actions_path,
			strerror(errno));
}

/**
 * sim_actions_end() - close the JSON's list; the caller closes the file.
 * @run:	the run writing --actions.
 */
void sim_actions_end(struct sim_run *run)
{
	if (run->actions_json) {
		hs_json_close(&actions_js);
		hs_json_close(&actions_js);
	}
}

/* The ranges joined end to end: the heatmap's address axis. */
static uint64_t heat_offset(const struct hs_sim *sim, unsigned long addr)
{
	uint64_t off = 0;
	unsigned int k;

	for (k = 0; k < sim->nr_ranges; k++) {
		unsigned long s = sim->ranges[k][0], e = sim->ranges[k][1];

		if (addr <= s)
			return off;
		if (addr < e)
			return off + (addr - s);
		off += e - s;
	}
	return off;
}

void sim_heat_add(struct heatmap *h, const struct hs_sim *sim)
{
	unsigned long max_nr = sim->cfg.attrs.aggr_us / sim->cfg.attrs.sample_us;
	/* the aggregation ending now covered the last aggr_us */
	uint64_t mid = hs_sim_now_us(sim) - sim->cfg.attrs.aggr_us / 2;
	size_t t = (size_t)(mid * HEAT_T / sim->cfg.duration_us), i;
	uint64_t span;

	if (!h->span) {
		unsigned int k;

		for (k = 0; k < sim->nr_ranges; k++)
			h->span += sim->ranges[k][1] - sim->ranges[k][0];
	}
	span = h->span;
	if (t >= HEAT_T)
		t = HEAT_T - 1;
	for (i = 0; i < sim->nr; i++) {
		const struct hs_region *r = &sim->r[i];
		uint64_t os = heat_offset(sim, r->start);
		uint64_t oe = heat_offset(sim, r->end);
		double pct = max_nr ? r->nr_accesses * 100.0 / max_nr : 0;
		size_t b;

		for (b = (size_t)(os * HEAT_A / span);
		     b < HEAT_A && b * span / HEAT_A < oe; b++) {
			uint64_t bs = b * span / HEAT_A;
			uint64_t be = (b + 1) * span / HEAT_A;
			uint64_t lo = os > bs ? os : bs, hi = oe < be ? oe : be;

			if (hi <= lo)
				continue;
			h->sum[t][b] += pct * (double)(hi - lo);
			h->bytes[t][b] += (double)(hi - lo);
		}
	}
}

/* Black to red to yellow to white, like a flame palette. */
static void heat_colour(double pct, char *buf, size_t size)
{
	double v = pct / 100.0;
	int r, g, b;

	v = v < 0 ? 0 : v > 1 ? 1 : v;
	r = (int)(255 * (v < 0.4 ? v / 0.4 : 1) + 0.5);
	g = (int)(255 * (v < 0.4 ? 0 : v < 0.8 ? (v - 0.4) / 0.4 : 1) + 0.5);
	b = (int)(255 * (v < 0.8 ? 0 : (v - 0.8) / 0.2) + 0.5);
	snprintf(buf, size, "#%02x%02x%02x", r, g, b);
}

/* @s as XML character data. */
static void xml_write(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
}

void sim_heat_write(const struct heatmap *h, const struct sim_cmd *c, FILE *f)
{
	const int cw = 5, ch = 5, left = 70, top = 40;
	const int w = HEAT_T * cw, hh = HEAT_A * ch;
	double secs = c->cfg.duration_us / 1e6;
	char col[16];
	int t, a, k;

	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n",
		left + w + 90, top + hh + 50);
	fprintf(f, "<text x=\"%d\" y=\"20\" font-size=\"13\">hotscore sim: ", left);
	xml_write(f, c->runs[0].wl.name);
	fprintf(f, " (%s), %s: access frequency over time and address</text>\n",
		c->ops == HS_OPS_PADDR ? "paddr" : "vaddr", c->runs[0].profile);
	for (t = 0; t < HEAT_T; t++) {
		for (a = 0; a < HEAT_A; a++) {
			if (h->bytes[t][a] > 0)
				heat_colour(h->sum[t][a] / h->bytes[t][a], col,
					    sizeof(col));
			else
				snprintf(col, sizeof(col), "#dddddd");
			/* low addresses at the bottom, as in damo's heatmap */
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
				left + t * cw, top + (HEAT_A - 1 - a) * ch, cw,
				ch, col);
		}
	}
	for (k = 0; k <= 4; k++) {
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%.1f s</text>\n",
			left + k * w / 4, top + hh + 16, secs * k / 4);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.0f MiB</text>\n",
			left - 6, top + hh - k * hh / 4 + 4,
			mib(h->span) * k / 4);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">time</text>\n",
		left + w / 2, top + hh + 34);
	for (k = 0; k <= 10; k++) {
		heat_colour(k * 10.0, col, sizeof(col));
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"%d\" fill=\"%s\"/>\n",
			left + w + 20, top + hh - (k + 1) * hh / 11, hh / 11,
			col);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\">100%%</text><text x=\"%d\" y=\"%d\">0%%</text>\n",
		left + w + 38, top + 10, left + w + 38, top + hh);
	fputs("</svg>\n", f);
}

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
				    hs_json_fixed(stage_ns(c, run, s), 1));
	json_object_set_new(cost, "kdamond",
			    hs_json_fixed(kdamond_ns(c, run), 1));
	json_object_set_new(cost, "score_function",
			    hs_json_fixed(score_fn_ns(run), 1));
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
		json_object_set_new(doc, "identical_decisions", json_boolean(
			c->runs[0].sim.hash == c->runs[1].sim.hash &&
			c->runs[0].sim.nr_events == c->runs[1].sim.nr_events));
	for (k = 0; k < c->nr_runs; k++)
		json_array_append_new(runs, json_run(c, &c->runs[k]));
	json_object_set_new(doc, "runs", runs);
	if (!hs_json_write_doc(f, doc, 0))
		return 0;
	if (!ferror(f))
		errno = ENOMEM;	/* jansson could not build it */
	return -1;
}
