// SPDX-License-Identifier: GPL-2.0
/*
 * rank_text.c - hotscore rank's summary: each context with its schemes, a
 * row per snapshot ranked (what each pick acts on, and how two differ),
 * the regions of a chosen snapshot, and what the ranking assumed.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <hotscore/record.h>

#include "../cli.h"
#include "../cmd_rank.h"
#include "layout.h"

/* Text output fits this many columns (the CLI conventions). */
#define COLS	100

static void fmt_bytes(char *buf, size_t size, uint64_t v)
{
	if (v >= 1ULL << 30)
		snprintf(buf, size, "%.1f GiB", (double)v / (1ULL << 30));
	else if (v >= 1ULL << 20)
		snprintf(buf, size, "%.1f MiB", (double)v / (1ULL << 20));
	else if (v >= 1ULL << 10)
		snprintf(buf, size, "%.1f KiB", (double)v / (1ULL << 10));
	else
		snprintf(buf, size, "%" PRIu64 " B", v);
}

/**
 * rank_text_begin() - the summary's first line: the file and its records.
 * @run:	the ranking, its records scanned.
 * @compressed:	whether the file is json_compressed.
 */
void rank_text_begin(const struct rank_run *run, bool compressed)
{
	fprintf(run->txt, "hotscore rank: %s (%s), %zu record%s\n",
		run->c->input, compressed ? "json_compressed" : "json",
		run->nr_infos, cli_s(run->nr_infos));
}

/* A table line, built in pieces and printed without trailing blanks. */
struct line {
	char s[1024];
	size_t n;
};

static void addf(struct line *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void addf(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(l->s + l->n, sizeof(l->s) - l->n, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->n = l->n + (size_t)n < sizeof(l->s) ? l->n + (size_t)n :
			sizeof(l->s) - 1;
}

static void line_put(struct line *l, FILE *f)
{
	while (l->n && l->s[l->n - 1] == ' ')
		l->n--;
	l->s[l->n] = '\0';
	fprintf(f, "%s\n", l->s);
	l->n = 0;
}

/* "3..max": a pattern's bounds, UINT_MAX as damo's "max". */
static void fmt_limit(char *buf, size_t size, unsigned int min,
		      unsigned int max)
{
	if (max == UINT32_MAX)
		snprintf(buf, size, "%u..max", min);
	else
		snprintf(buf, size, "%u..%u", min, max);
}

static void print_scheme(FILE *f, const struct cli_scheme_spec *sp,
			 const struct hs_scheme *s, unsigned int k)
{
	char sz[32], reset[32], nr[32], age[32];

	fmt_bytes(sz, sizeof(sz), s->quota.sz);
	snprintf(reset, sizeof(reset), sp->quota[2] == UINT64_MAX ? "max" :
		 "%" PRIu64 " ms", sp->quota[2]);
	fmt_limit(nr, sizeof(nr), s->pattern.min_nr, s->pattern.max_nr);
	fmt_limit(age, sizeof(age), s->pattern.min_age, s->pattern.max_age);
	fprintf(f, "scheme %u: %s; nr_accesses %s, age %s aggregations; quota %lu ms,"
	       " %s per %s;\n          weights sz %u nr_accesses %u age %u\n",
	       k, hs_action_name(s->action), nr, age, s->quota.ms,
	       s->quota.sz ? sz : "no size limit", reset, s->quota.weight_sz,
	       s->quota.weight_nr, s->quota.weight_age);
}

/* A pick's column head: its profile, and its scheme when there are more. */
static void pick_head(const struct rank_run *run, unsigned int k, char *buf,
		      size_t size)
{
	if (run->c->nr_schemes > 1)
		snprintf(buf, size, "%s scheme %u", rank_pick_prof(run, k)->name,
			 rank_pick_scheme(run, k));
	else
		snprintf(buf, size, "%s", rank_pick_prof(run, k)->name);
}

/**
 * rank_text_context() - a context's heading: its records and intervals,
 * its schemes, and the head of its table.
 * @run:	the ranking, at the context's start.
 * @in:		the context's first record.
 * @nr_records:	its records (one per target).
 */
void rank_text_context(const struct rank_run *run,
		       const struct hs_rec_info *in, size_t nr_records)
{
	char who[96] = "";
	struct line l = { .n = 0 };
	unsigned int k;

	/* damo record's trace-based records name no kdamond or context */
	if (in->kdamond_idx >= 0 || in->context_idx >= 0)
		snprintf(who, sizeof(who), "kdamond %ld, context %ld, ",
			 in->kdamond_idx, in->context_idx);
	if (in->scheme_idx >= 0)
		snprintf(who + strlen(who), sizeof(who) - strlen(who),
			 "scheme %ld, ", in->scheme_idx);
	fprintf(run->txt, "\ncontext: %s%zu record%s; sample %lu us, aggregation %lu us\n",
	       who, nr_records, cli_s(nr_records), run->sample_us,
	       run->aggr_us);
	for (k = 0; k < run->c->nr_schemes; k++)
		print_scheme(run->txt, &run->c->specs[k], &run->schemes[k], k);
	addf(&l, "%6s  %7s  %6s  %14s", "snap", "end (s)", "regions",
	     "eligible");
	for (k = 0; k < run->nr_picks; k++) {
		char head[96];

		pick_head(run, k, head, sizeof(head));
		addf(&l, "  %-22.22s", head);
	}
	addf(&l, "%s", run->nr_picks == 2 ? "  differ" : "");
	line_put(&l, run->txt);
	addf(&l, "%6s  %7s  %6s  %14s", "", "", "", "");
	for (k = 0; k < run->nr_picks; k++)
		addf(&l, "  %-22s", "min_score  picked");
	addf(&l, "%s", run->nr_picks == 2 ? "  bytes/nr" : "");
	line_put(&l, run->txt);
}

/**
 * rank_text_row() - a snapshot's row: its regions, what the first pick
 * finds eligible, what each pick acts on under which min_score, and with
 * two picks what they act on differently; then each pick's traps and
 * scores out of range.
 * @run:	the ranking, after the snapshot's.
 * @s:		the snapshot (its first target's).
 * @t0:		when the context's first snapshot started, in ns.
 */
void rank_text_row(const struct rank_run *run,
		   const struct hs_rec_snapshot *s, uint64_t t0)
{
	struct line l = { .n = 0 };
	char e[32], p[32];
	unsigned int k;

	fmt_bytes(e, sizeof(e), run->picks[0].sz_eligible);
	addf(&l, "%6zu  %7.3f  %6zu  %4zu %9s", s->index,
	     (double)(s->end_ns - t0) / 1e9, run->nr,
	     run->picks[0].nr_eligible, e);
	for (k = 0; k < run->nr_picks; k++) {
		const struct rank_pick *pk = &run->picks[k];

		fmt_bytes(p, sizeof(p), pk->sz_picked);
		addf(&l, "  %9u %3zu %8s", pk->min_score, pk->nr_picked, p);
	}
	if (run->nr_picks == 2) {
		fmt_bytes(p, sizeof(p), run->diff_bytes);
		addf(&l, "  %s/%zu", p, run->diff_regions);
	}
	line_put(&l, run->txt);
	for (k = 0; k < run->nr_picks; k++) {
		if (run->picks[k].nr_traps)
			fprintf(run->txt, "          %s: %zu region%s trapped (the kernel would divide by zero)\n",
			       rank_pick_prof(run, k)->name,
			       run->picks[k].nr_traps,
			       cli_s(run->picks[k].nr_traps));
		if (run->picks[k].nr_out)
			fprintf(run->txt, "          %s: %zu score%s outside 0..99 (the kernel would index past its histogram)\n",
			       rank_pick_prof(run, k)->name,
			       run->picks[k].nr_out,
			       cli_s(run->picks[k].nr_out));
	}
}

#define LIST_MAX	20	/* picked regions listed per pick */

/**
 * rank_text_picked() - one snapshot chosen (--snapshot, --time): the
 * regions each pick acts on, in walk order, the first LIST_MAX of them.
 * @run:	the ranking, after the snapshot's.
 */
void rank_text_picked(const struct rank_run *run)
{
	char sz[32], head[96];
	unsigned int k;
	size_t i, n;

	for (k = 0; k < run->nr_picks; k++) {
		const struct rank_pick *pk = &run->picks[k];

		pick_head(run, k, head, sizeof(head));
		fprintf(run->txt, "%s picks %zu region%s:%s\n", head, pk->nr_picked,
		       cli_s(pk->nr_picked), pk->nr_picked ?
		       "  start-end, bytes picked, nr_accesses, age, score" : "");
		for (i = n = 0; i < run->nr; i++) {
			const struct hs_damos_region *r = &run->r[i];

			if (!pk->picked[i] || n++ >= LIST_MAX)
				continue;
			fmt_bytes(sz, sizeof(sz), pk->picked[i]);
			fprintf(run->txt, "  %lx-%lx  %10s  %5u  %5u  %2d\n",
				r->start, r->end, sz, r->nr_accesses, r->age,
				pk->score[i]);
		}
		if (n > LIST_MAX)
			fprintf(run->txt, "  ... %zu more (--csv has them all)\n",
			       n - LIST_MAX);
	}
}

/* The rows the context printed, where it printed fewer than it ranked. */
static void summary_fold(const struct rank_run *run)
{
	const struct rank_context *cx = &run->ctx;

	if (cx->shown == cx->ranked)
		return;
	layout_printf(run->txt, COLS, "  (%zu of %zu snapshots shown: %s; --csv and --json have every one)\n",
		      cx->shown, cx->ranked, run->nr_picks == 2 ?
		      "where the picks differ" : "the first");
}

/* With two picks: in how many snapshots, and by how much, they differ. */
static void summary_differ(const struct rank_run *run)
{
	const struct rank_context *cx = &run->ctx;
	char b[32];

	if (!cx->nr_differ) {
		layout_printf(run->txt, COLS, "  they pick alike in all %zu snapshot%s\n",
			      cx->ranked, cli_s(cx->ranked));
		return;
	}
	fmt_bytes(b, sizeof(b), cx->diff_bytes);
	layout_printf(run->txt, COLS, "  they differ in %zu of %zu snapshots: %" PRIu64 " region%s, %s, picked by one only\n",
		      cx->nr_differ, cx->ranked, cx->diff_regions,
		      cli_s(cx->diff_regions), b);
	if (run->c->snapshot < 0 && !run->c->has_time)
		layout_printf(run->txt, COLS, "  first in snapshot %zu (%.3f s): --snapshot %zu lists the regions each picks\n",
			      cx->first, cx->first_ns / 1e9, cx->first);
}

/**
 * rank_text_summary() - a context's summary: each pick's weights, and the
 * regions and bytes it acts on, summed over the snapshots ranked; with two
 * picks, where they differ.
 * @run:	the ranking, after the context's snapshots.
 */
void rank_text_summary(const struct rank_run *run)
{
	const struct rank_context *cx = &run->ctx;
	char head[96], b[32];
	unsigned int k;

	summary_fold(run);
	fprintf(run->txt, "summary, totals over %zu snapshot%s ranked:\n",
		cx->ranked, cli_s(cx->ranked));
	for (k = 0; k < run->nr_picks; k++) {
		const struct hs_quota *q =
			&run->schemes[rank_pick_scheme(run, k)].quota;
		const struct rank_total *t = &cx->total[k];

		pick_head(run, k, head, sizeof(head));
		fmt_bytes(b, sizeof(b), t->bytes);
		layout_printf(run->txt, COLS, "  %s, weights sz %u nr_accesses %u age %u: %" PRIu64 " region%s, %s, in %zu of %zu snapshots\n",
			      head, q->weight_sz, q->weight_nr, q->weight_age,
			      t->regions, cli_s(t->regions), b, t->snapshots,
			      cx->ranked);
	}
	if (run->nr_picks == 2)
		summary_differ(run);
}

/* The grid's row of nr_accesses weight @i: each age weight's bytes. */
static void sweep_row(const struct rank_run *run, unsigned int i)
{
	const struct rank_sweep *sw = &run->sweep;
	struct line l = { .n = 0 };
	unsigned int j, oi, oj;
	bool own = rank_sweep_at(&run->schemes[0].quota, &oi, &oj);
	char b[32];

	addf(&l, "  nr_accesses %2u ", rank_sweep_weights[i]);
	for (j = 0; j < RANK_SWEEP_N; j++) {
		fmt_bytes(b, sizeof(b), sw->differ[i][j]);
		addf(&l, " %9s%c", b, own && oi == i && oj == j ? '*' : ' ');
	}
	line_put(&l, run->txt);
}

/* The pair of weights whose picks differ most from the scheme's own. */
static void sweep_most(const struct rank_sweep *sw, unsigned int *mi,
		       unsigned int *mj, unsigned int *nr_differ)
{
	unsigned int i, j;

	*mi = *mj = 0;
	*nr_differ = 0;
	for (i = 0; i < RANK_SWEEP_N; i++)
		for (j = 0; j < RANK_SWEEP_N; j++) {
			*nr_differ += sw->differ[i][j] > 0;
			if (sw->differ[i][j] > sw->differ[*mi][*mj])
				*mi = i, *mj = j;
		}
}

/**
 * rank_text_sweep() - --sweep_weights: for each pair of weights of the
 * grid, the bytes it picks that the scheme's own weights do not, summed
 * over the snapshots; the range of the bytes picked; and the pair that
 * changes the most.
 * @run:	the ranking, after every context.
 */
void rank_text_sweep(const struct rank_run *run)
{
	const struct rank_sweep *sw = &run->sweep;
	const struct hs_quota *q = &run->schemes[0].quota;
	uint64_t lo = UINT64_MAX, hi = 0;
	struct line l = { .n = 0 };
	unsigned int i, j, mi, mj, n;
	char a[32], b[32];

	layout_printf(run->txt, COLS, "\nweights swept: %s, scheme 0, %zu snapshot%s; yours: nr_accesses %u, age %u%s\n",
		      run->c->prof[0].name, sw->snapshots, cli_s(sw->snapshots),
		      q->weight_nr, q->weight_age,
		      rank_sweep_at(q, &i, &j) ? " (*)" : ", not on the grid");
	layout_printf(run->txt, COLS, "bytes each pair picks that yours do not (summed over the snapshots; sz is %u in all):\n",
		      q->weight_sz);
	addf(&l, "  %-15s", "weights");
	for (j = 0; j < RANK_SWEEP_N; j++)
		addf(&l, " %6s %-3u", "age", rank_sweep_weights[j]);
	line_put(&l, run->txt);
	for (i = 0; i < RANK_SWEEP_N; i++)
		sweep_row(run, i);
	for (i = 0; i < RANK_SWEEP_N; i++)
		for (j = 0; j < RANK_SWEEP_N; j++) {
			lo = sw->picked[i][j] < lo ? sw->picked[i][j] : lo;
			hi = sw->picked[i][j] > hi ? sw->picked[i][j] : hi;
		}
	fmt_bytes(a, sizeof(a), lo);
	fmt_bytes(b, sizeof(b), hi);
	layout_printf(run->txt, COLS, "picked in all: %s%s%s under each pair\n", a,
		      lo == hi ? "" : " to ", lo == hi ? "" : b);
	sweep_most(sw, &mi, &mj, &n);
	fmt_bytes(b, sizeof(b), sw->differ[mi][mj]);
	if (!n)
		layout_printf(run->txt, COLS, "no pair of the %u picks otherwise than yours on this record\n",
			      RANK_SWEEP_N * RANK_SWEEP_N);
	else
		layout_printf(run->txt, COLS, "%u of the %u pairs pick otherwise than yours; the most: nr_accesses %u, age %u, %s\n",
			      n, RANK_SWEEP_N * RANK_SWEEP_N,
			      rank_sweep_weights[mi], rank_sweep_weights[mj], b);
	if (sw->traps)
		layout_printf(run->txt, COLS, "%" PRIu64 " score%s trapped over the grid (counted as not picked)\n",
			      sw->traps, cli_s(sw->traps));
}

/**
 * rank_text_end() - the summary's end: what the ranking assumed.
 * @run:	the ranking, after every context.
 */
void rank_text_end(const struct rank_run *run)
{
	char text[256];
	unsigned int a;

	fprintf(run->txt, "\nassumed:\n");
	for (a = 0; a < RANK_NR_ASSUMPTIONS; a++)
		if (run->assumed[a]) {
			fputs("  - ", run->txt);
			layout_wrap(run->txt, rank_assumption_text[a], 4, 4,
				    COLS, 0);
		}
	fputs("  - ", run->txt);
	if (!run->c->carry) {
		layout_wrap(run->txt, "each snapshot is the first window of a fresh quota, each scheme alone; a page is 4 KiB",
			    4, 4, COLS, 0);
		return;
	}
	snprintf(text, sizeof(text), "--carry: each snapshot is the regions of one kdamond_apply_schemes() at its end, every scheme due applied in order, each quota carried from snapshot to snapshot at HZ %lu; a page is 4 KiB",
		 run->c->kd.hz);
	layout_wrap(run->txt, text, 4, 4, COLS, 0);
}

/* One application only one side made. */
static void trace_diff(const struct rank_trace *rt,
		       const struct hs_replay_pick *p)
{
	char text[320], score[48] = "", min[64] = "";

	if (p->score >= 0)
		snprintf(score, sizeof(score), ", score %d", p->score);
	if (p->min_score >= 0)
		snprintf(min, sizeof(min), ", min_score %d%s", p->min_score,
			 p->picked ? "" : " (the kernel's)");
	snprintf(text, sizeof(text), "%s: sample %lu, scheme %u, window %lu: %lu-%lu (%lu B), nr_accesses %u, age %u%s%s",
		 p->picked ? "picked, the kernel did not" :
		 "the kernel's, not picked", p->sis, p->scheme, p->window,
		 p->start, p->end, p->end - p->start, p->nr_accesses, p->age,
		 score, min);
	fputs("    ", rt->txt);
	layout_wrap(rt->txt, text, 4, 8, COLS, 0);
}

/* Profile @k: per scheme, its picks against the kernel's. */
static void trace_profile(const struct rank_trace *rt, unsigned int k)
{
	const struct rank_cmd *c = rt->c;
	struct rank_trace_count all = { 0 };
	char a[32], b[32];
	unsigned int s;
	size_t i, n;

	fprintf(rt->txt, "profile %s: %lu charge window%s\n", c->prof[k].name,
		rt->windows[k], cli_s(rt->windows[k]));
	fprintf(rt->txt, "  scheme  picks  bytes       kernel's  bytes       marked\n");
	for (s = 0; s < c->nr_schemes; s++) {
		const struct rank_trace_count *sc = &rt->count[k][s];

		fmt_bytes(a, sizeof(a), sc->sz_picks);
		fmt_bytes(b, sizeof(b), sc->sz_kernel);
		fprintf(rt->txt, "  %-6u  %-5lu  %-10s  %-8lu  %-10s  %lu\n", s,
			sc->picks, a, sc->kernel, b, sc->marked);
		all.picks += sc->picks;
		all.kernel += sc->kernel;
		all.marked += sc->marked;
	}
	fprintf(rt->txt, "  kernel picks: %lu of %lu marked; %lu pick%s the kernel did not make\n",
		all.marked, all.kernel, all.picks - all.marked,
		cli_s(all.picks - all.marked));
	if (rt->traps[k])
		fprintf(rt->txt, "  %lu score%s trapped (undefined behaviour), clamped to 0..99 as 6.12 clamps\n",
			rt->traps[k], cli_s(rt->traps[k]));
	n = rt->nr_diffs[k] < RANK_TRACE_DIFFS ? rt->nr_diffs[k] :
		RANK_TRACE_DIFFS;
	for (i = 0; i < n; i++)
		trace_diff(rt, &rt->diffs[k][i]);
	if (rt->nr_diffs[k] > n)
		fprintf(rt->txt, "    (%zu more; --csv has every one)\n",
			rt->nr_diffs[k] - n);
}

/**
 * rank_trace_text() - rank --damos_trace's summary: the trace and the
 * kdamond, the schemes, and each profile's picks against the kernel's.
 * @rt:		the ranking, every profile walked.
 */
void rank_trace_text(const struct rank_trace *rt)
{
	const struct rank_cmd *c = rt->c;
	unsigned int k;

	fprintf(rt->txt, "hotscore rank: %s (a 6.12 kdamond's DAMOS trace): %zu samples, %zu\n"
		"  applications; sample %lu us, aggregation %lu us, HZ %lu, DAMON_MIN_REGION %lu B;\n"
		"  every scheme in order, each quota carried from window to window\n",
		c->trace, rt->t.nr_iters, rt->t.nr_applies, c->kd.sample_us,
		c->kd.aggr_us, c->kd.hz, c->kd.min_region);
	for (k = 0; k < c->nr_schemes; k++)
		print_scheme(rt->txt, &c->specs[k], &rt->schemes[k], k);
	for (k = 0; k < c->nr_prof; k++)
		trace_profile(rt, k);
}
