// SPDX-License-Identifier: GPL-2.0
/*
 * sim_report.c - what `hotscore sim` keeps of a run for its reports: the
 * costs per aggregation, the memory's periods, where two runs' decisions
 * part, each scheme's picks, the heatmap's bins; and the files written as
 * the run goes: --record (damo's record format, through
 * src/record/write.c) and --actions.  The reports themselves are files of
 * src/cli/report/: sim_text.c, sim_json.c, sim_csv.c, sim_svg.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotscore/record_write.h>

#include "cli.h"
#include "cmd_sim.h"
#include "sim_report.h"

/**
 * sim_stage_ns() - a stage's ticks of the stage clock, in ns per
 * aggregation.
 * @c:		the command, with its clock.
 * @run:	the run.
 * @s:		the stage.
 *
 * Return: the ns, or 0 without aggregations or a clock.
 */
double sim_stage_ns(const struct sim_cmd *c, const struct sim_run *run,
		    enum hs_stage s)
{
	if (!run->sim.nr_aggr || !c->host.clock.hz)
		return 0;
	return run->sim.stage_ticks[s] * 1e9 / c->host.clock.hz /
		run->sim.nr_aggr;
}

/**
 * sim_kdamond_ns() - kdamond's own time per aggregation: every stage but
 * the workload's.
 * @c:		the command, with its clock.
 * @run:	the run.
 *
 * Return: the ns.
 */
double sim_kdamond_ns(const struct sim_cmd *c, const struct sim_run *run)
{
	double sum = 0;
	int s;

	for (s = 0; s < HS_NR_STAGES; s++)
		if (s != HS_STAGE_WORKLOAD)
			sum += sim_stage_ns(c, run, s);
	return sum;
}

/**
 * sim_score_fn_ns() - the score function's time per aggregation, from the
 * replayed cost.
 * @run:	the run.
 *
 * Return: the ns, or 0 without a cost or aggregations.
 */
double sim_score_fn_ns(const struct sim_run *run)
{
	if (!run->have_cost || !run->sim.nr_aggr)
		return 0;
	return (double)run->sim.nr_scores * run->cost.fn_ps / 1000.0 /
		run->sim.nr_aggr;
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


/* The periods' length: about a twelfth of the run, in whole seconds. */
static uint64_t period_us(uint64_t duration_us)
{
	uint64_t step = duration_us / 12;

	if (step >= 1000000)
		step = (step + 999999) / 1000000 * 1000000;
	return step ? step : 1;
}

/**
 * sim_periods() - memory over time, in about a dozen periods: resident
 * bytes at the end of each, the faults in it, and the median working set
 * and region count (a phase change makes one aggregation see two hot
 * regions; the median does not let it speak for the period).
 * @run:	the run, with its points.
 * @duration_us: the simulated time.
 * @nr:		set to how many periods.
 *
 * Return: the periods (the caller frees them), or NULL without points.
 */
struct sim_period *sim_periods(const struct sim_run *run,
			       uint64_t duration_us, size_t *nr)
{
	uint64_t step = period_us(duration_us), *wss, *nrr, faults = 0;
	struct sim_period *out;
	size_t i, from = 0;

	*nr = 0;
	if (!run->nr_points)
		return NULL;
	wss = calloc(run->nr_points, sizeof(*wss));
	nrr = calloc(run->nr_points, sizeof(*nrr));
	out = calloc(run->nr_points, sizeof(*out));
	if (!wss || !nrr || !out)
		cli_die("out of memory");
	for (i = 0; i < run->nr_points; i++) {
		const struct sim_point *p = &run->points[i];
		struct sim_period *o = &out[*nr];
		size_t k;

		if (i + 1 < run->nr_points &&
		    (run->points[i + 1].t_us - 1) / step == (p->t_us - 1) / step)
			continue;
		for (k = from; k <= i; k++) {
			wss[k - from] = run->points[k].wss;
			nrr[k - from] = run->points[k].nr_regions;
		}
		o->from_us = from ? run->points[from - 1].t_us : 0;
		o->to_us = p->t_us;
		o->resident = p->resident;
		o->faults = p->faults - faults;
		o->wss = median_u64(wss, i - from + 1);
		o->nr_regions = median_u64(nrr, i - from + 1);
		(*nr)++;
		faults = p->faults;
		from = i + 1;
	}
	free(wss);
	free(nrr);
	return out;
}

/**
 * sim_same_decisions() - whether the two runs applied the same actions:
 * the same count and the same hash.
 * @c:		the command, after both runs.
 *
 * Return: true if they did.
 */
bool sim_same_decisions(const struct sim_cmd *c)
{
	const struct hs_sim *a = &c->runs[0].sim, *b = &c->runs[1].sim;

	return a->hash == b->hash && a->nr_events == b->nr_events;
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
 * sim_first_difference() - where two runs' kept actions part.
 * @c:		the command, after both runs.
 * @nr:		set to how many actions both runs kept.
 *
 * Return: the index of the first action that differs, or *@nr when the
 * first *@nr agree.
 */
size_t sim_first_difference(const struct sim_cmd *c, size_t *nr)
{
	const struct hs_sim *a = &c->runs[0].sim, *b = &c->runs[1].sim;
	size_t i, n = a->nr_events < b->nr_events ? a->nr_events :
		b->nr_events;

	if (n > a->cfg.max_events)
		n = a->cfg.max_events;
	for (i = 0; i < n; i++)
		if (!same_decision(&a->events[i], &b->events[i]))
			break;
	*nr = n;
	return i;
}

/* The fields of an action that make it a decision, in an order to sort. */
struct decision {
	unsigned long sis, start, end, sz_applied;
	unsigned int scheme;
};

static int cmp_decision(const void *pa, const void *pb)
{
	const struct decision *a = pa, *b = pb;

	if (a->sis != b->sis)
		return a->sis < b->sis ? -1 : 1;
	if (a->scheme != b->scheme)
		return a->scheme < b->scheme ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end < b->end ? -1 : 1;
	if (a->sz_applied != b->sz_applied)
		return a->sz_applied < b->sz_applied ? -1 : 1;
	return 0;
}

/* A run's kept actions as decisions, sorted; the caller frees them. */
static struct decision *decisions_of(const struct hs_sim *sim, size_t *nr)
{
	size_t i, n = sim->nr_events < sim->cfg.max_events ? sim->nr_events :
		sim->cfg.max_events;
	struct decision *d = calloc(n + 1, sizeof(*d));

	if (!d)
		cli_die("out of memory");
	for (i = 0; i < n; i++) {
		const struct hs_event *e = &sim->events[i];

		d[i] = (struct decision){ e->sis, e->start, e->end,
					  e->sz_applied, e->scheme };
	}
	qsort(d, n, sizeof(*d), cmp_decision);
	*nr = n;
	return d;
}

/**
 * sim_decisions_diff() - how many of each run's kept actions the other
 * run did not take (as many times: the actions are a multiset); into
 * c->diff's @nr_kept and @only.
 * @c:		the command, after both runs.
 */
void sim_decisions_diff(struct sim_cmd *c)
{
	struct sim_diff *d = &c->diff;
	struct decision *a = decisions_of(&c->runs[0].sim, &d->nr_kept[0]);
	struct decision *b = decisions_of(&c->runs[1].sim, &d->nr_kept[1]);
	size_t i = 0, j = 0, common = 0;

	while (i < d->nr_kept[0] && j < d->nr_kept[1]) {
		int r = cmp_decision(&a[i], &b[j]);

		if (!r)
			common++;
		i += r <= 0;
		j += r >= 0;
	}
	d->only[0] = d->nr_kept[0] - common;
	d->only[1] = d->nr_kept[1] - common;
	free(a);
	free(b);
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
		.quota = sim->cfg.nr_schemes ? &sim->schemes[0].quota : NULL,
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


/**
 * sim_actions_begin() - --actions: the CSV header, or the JSON's opening.
 * @run:	the first run; run->actions is open.
 */
void sim_actions_begin(struct sim_run *run)
{
	if (run->actions_json)
		sim_json_actions_begin(run->actions);
	else
		sim_csv_actions_head(run->actions);
}

/**
 * sim_actions_row() - one action, as it happens: every one is written,
 * not only the events the run keeps.
 * @run:	the run writing --actions.
 * @e:		the action.
 */
void sim_actions_row(struct sim_run *run, const struct hs_event *e)
{
	if (run->actions_json)
		sim_json_action(e);
	else
		sim_csv_action(run->actions, e);
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
	if (run->actions_json)
		sim_json_actions_end();
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

/**
 * sim_heat_add() - the regions of one aggregation into the heatmap's bins:
 * each bin's access frequency, weighted by the bytes in it.
 * @h:		the heatmap.
 * @sim:	the simulation, at the aggregation's end.
 */
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
