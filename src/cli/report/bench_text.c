// SPDX-License-Identifier: GPL-2.0
/*
 * bench_text.c - `hotscore bench`'s default report: the header, the seed
 * module's tables, then the comparison (per call, ratios, variance), the
 * counters and the harness's accuracy.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../cmd_bench.h"
#include "../bench_report.h"
#include "../cli.h"
#include "../opt.h"
#include "layout.h"

/* A space that the wrap does not break a line at: "1" NBSP "tick". */
#define NBSP LAYOUT_NBSP_STR

#define RULE "============================================="
#define THIN "---------------------------------------------"

/* "21.2 [16.7 - 28.0]": TSC ticks per call; "-" with no sample above 0. */
static const char *tsc_range(const struct bench_result *r)
{
	static char buf[48];

	if (!r->ns.n)
		return "-";
	snprintf(buf, sizeof(buf), "%.1f [%.1f - %.1f]",
		 tsc_cycles(r->ns.median), tsc_cycles(r->ns.min),
		 tsc_cycles(r->ns.max));
	return buf;
}

/* --warmup as given: "200 ms". */
static const char *warmup_text(const struct bench *b)
{
	static char buf[32];

	cli_format_time_us(b->warmup_us, buf, sizeof(buf));
	return buf;
}

/* "  clock     " and @text, wrapped within 100 columns under the text. */
static void header_field(FILE *f, const char *label, const char *text)
{
	fprintf(f, "  %-9s ", label);
	layout_wrap(f, text, 12, 12, 100, BENCH_WRAP);
}

/*
 * The batches line of the header: what a batch costs are reported per, and
 * which scorer fast-batch used on each distribution (the vector one needs
 * intervals up to 1 s, and a moving-sum window at an end).
 */
static void print_batches(const struct bench *b, FILE *f)
{
	unsigned int v, vec = b->nr_variants, di;
	bool any = false;
	char text[8192];
	size_t at;

	for (v = 0; v < b->nr_variants; v++) {
		any |= hs_variant_regions(b->variants[v]) > 1;
		if (b->variants[v]->vector && vec == b->nr_variants)
			vec = v;
	}
	if (!any)
		return;
	at = (size_t)snprintf(text, sizeof(text),
			      "%u regions a call, costs per region",
			      HS_BATCH_REGIONS);
	if (vec < b->nr_variants && b->dists[0].calls[vec].c.prep) {
		at += (size_t)snprintf(text + at, sizeof(text) - at,
				       "; %s scores with",
				       b->variants[vec]->name);
		for (di = 0; di < b->nr_dists && at < sizeof(text); di++)
			at += (size_t)snprintf(text + at, sizeof(text) - at,
				"%s %s on %s", di ? "," : "",
				hs_fast_impl_name(b->dists[di].calls[vec].impl),
				b->dists[di].name);
	}
	header_field(f, "batches", text);
}

/*
 * The first lines: how the rounds were laid out.  A module's runs are
 * time blocks of one load; bench's invocations are processes.
 */
static void print_layout(const struct bench *b, FILE *f)
{
	char text[1024];

	if (b->module_blocks)
		snprintf(text, sizeof(text), "hotscore bench: %lu %s x %lu %s"
			 " per variant in hotscore.ko, each run %zu paired %s"
			 " of 12N = %zu calls, batches of N = %zu and 2N calls,"
			 " differenced", b->iterations,
			 plural(b->iterations, "iteration", "iterations"),
			 b->invocations, plural(b->invocations, "run", "runs"),
			 b->rounds, plural(b->rounds, "round", "rounds"),
			 12 * b->n, b->n);
	else
		snprintf(text, sizeof(text), "hotscore bench: %lu %s x %lu %s"
			 " x %zu paired %s of 12N = %zu calls per function,"
			 " batches of N = %zu and 2N calls, differenced; %lu"
			 " %s per invocation, %s of warm-up each",
			 b->invocations, plural(b->invocations, "invocation",
						"invocations"),
			 b->placements, plural(b->placements, "placement",
					       "placements"),
			 b->rounds, plural(b->rounds, "round", "rounds"),
			 12 * b->n, b->n, b->iterations,
			 plural(b->iterations, "call", "calls"),
			 warmup_text(b));
	layout_wrap(f, text, 0, 0, 100, BENCH_WRAP);
	if (b->blocks_in_process)
		fputs("(this process cannot execute itself again here, under"
		      " valgrind or ld.so: the\ninvocations are time blocks of"
		      " one process, and a re-run can land outside)\n", f);
	if (!b->module_blocks && b->n < b->pool)
		fprintf(f, "(N = %zu is below the pool of %lu: the N and 2N"
			" batches time different stretches\nof it; give"
			" --iterations %lu or more, or a smaller --pool)\n",
			b->n, b->pool, 12 * b->pool * b->placements);
}

/*
 * A distribution as the inputs line names it; a capture's says how many
 * calls it left out (cli_read_inputs()).  Return: what it wrote.
 */
static size_t dist_text(const struct bench_dist *d, char *buf, size_t size,
			const char *sep)
{
	int n;

	if (d->nr_nested)
		n = snprintf(buf, size, "%s (%zu %s; %zu damon_hot_score()"
			     " %s inside damon_cold_score() left out: the same"
			     " inputs as their cold %s)%s", d->name, d->nr_rows,
			     plural(d->nr_rows, "call", "calls"), d->nr_nested,
			     plural(d->nr_nested, "call", "calls"),
			     plural(d->nr_nested, "row", "rows"), sep);
	else
		n = snprintf(buf, size, "%s%s", d->name, sep);
	return n < 0 ? 0 : (size_t)n;
}

static void print_header(struct bench *b, FILE *f)
{
	const struct hs_host *h = &b->host;
	unsigned long long step = h->clock.step;
	char text[8192];
	size_t at;
	unsigned int i;

	print_layout(b, f);
	if (h->resolution)
		snprintf(text, sizeof(text), "%s, %s, steps" NBSP "of" NBSP
			 "%llu" NBSP "%s; two reads in a row %llu" NBSP "%s"
			 " apart at least (a batch spans 1000 of those)%s",
			 h->clock.name, h->clock_desc,
			 (unsigned long long)h->resolution,
			 plural(h->resolution, "tick", "ticks"), step,
			 plural(step, "tick", "ticks"), h->clock.tsc ?
			 "; cycle figures are TSC-derived" : "");
	else	/* the module's: the read pair only */
		snprintf(text, sizeof(text), "%s, %s, two reads in a row"
			 " %llu" NBSP "%s apart at least%s", h->clock.name,
			 h->clock_desc, step, plural(step, "tick", "ticks"),
			 h->clock.tsc ? "; cycle figures are TSC-derived" :
			 "");
	header_field(f, "clock", text);
	header_field(f, "counters", h->perf);
	if (b->import)
		snprintf(text, sizeof(text), "CPU %s, Linux %s, measured by"
			 " hotscore.ko: preemption and interrupts off for each"
			 " batch", h->cpu_model, h->kernel);
	else
		snprintf(text, sizeof(text), "%s, CPU %d (pinned)%s, governor"
			 " %s, Linux %s", h->cpu_model, h->cpu, h->hypervisor ?
			 ", under a hypervisor" : "", h->governor, h->kernel);
	header_field(f, "machine", text);
	snprintf(text, sizeof(text), "%s; CPU flags: %s", b->vector.impl,
		 b->vector.flags);
	header_field(f, "vector", text);
	header_field(f, "layout", b->import ?
		     "where the kernel loaded the module (not fixed by hotscore)" :
		     b->layout == HS_LAYOUT_REEXECUTED ?
		     "fixed: address-space randomization off (re-executed)" :
		     b->layout == HS_LAYOUT_FIXED ?
		     "fixed: address-space randomization was already off" :
		     "randomized per invocation (ASLR on): each has its own"
		     " code and data addresses");
	for (i = 0, at = 0; i < b->nr_dists && at < sizeof(text); i++)
		at += dist_text(&b->dists[i], text + at, sizeof(text) - at,
				i + 1 < b->nr_dists ? ", " : "");
	if (at < sizeof(text))
		snprintf(text + at, sizeof(text) - at, b->import ?
			 "; pool of %lu; hotscore.ko's seed=%llu" :
			 "; pool of %lu; --seed %llu --order_seed %llu",
			 b->pool, (unsigned long long)b->seed,
			 (unsigned long long)b->order_seed);
	header_field(f, "inputs", text);
	print_batches(b, f);
}

/* The smallest "nice" bucket width (ps) that fits [min, max] in 5. */
static uint64_t bucket_width(uint64_t min_ps, uint64_t max_ps)
{
	static const uint64_t nice[] = { 50, 100, 200, 250, 500, 1000, 2000,
					 2500, 5000, 10000, 20000, 50000 };
	unsigned int i;

	for (i = 0; i < sizeof(nice) / sizeof(nice[0]); i++)
		if (max_ps - min_ps / nice[i] * nice[i] < 5 * nice[i])
			return nice[i];
	return 100000;
}

/*
 * The seed module's table, from the classes: each class's batch-timed cost
 * stands for all of its inputs, so the ranks, the average and the ranges
 * are those of the per-call costs over the inputs.
 */
/* The histogram rows: each class's cost counted in one of 6 buckets. */
static void print_seed_buckets(const struct bench *b,
			       const struct bench_result *r, uint64_t total,
			       FILE *f)
{
	uint64_t counts[6] = { 0 }, w, lo, min_ps, max_ps;
	unsigned int c, k;

	min_ps = hs_mt_to_ps(r->cls_min, b->host.clock.hz);
	max_ps = hs_mt_to_ps(r->cls_max, b->host.clock.hz);
	w = bucket_width(min_ps, max_ps);
	lo = min_ps / w * w;
	for (c = 0; c < r->cls->nr; c++) {
		uint64_t ps = hs_mt_to_ps(r->cls_mt[c], b->host.clock.hz);

		k = (unsigned int)((ps - lo) / w);
		counts[k > 5 ? 5 : k] += r->cls->c[c].count;
	}
	for (k = 0; k < 6; k++) {
		char range[32];

		if (k < 5)
			snprintf(range, sizeof(range), "%.2f-%.2f",
				 (double)(lo + k * w) / 1000,
				 (double)(lo + (k + 1) * w) / 1000);
		else
			snprintf(range, sizeof(range), "%.2f+",
				 (double)(lo + k * w) / 1000);
		fprintf(f, " %-15s | %-12llu | %6.2f%%\n", range,
			(unsigned long long)counts[k],
			total ? 100.0 * (double)counts[k] / (double)total : 0);
	}
}

/* Below the table: how the classes were timed, and the mixed stream's figure. */
static void print_seed_how(const struct bench *b,
			   const struct bench_result *r, uint64_t total,
			   FILE *f)
{
	fprintf(f, " How: %u %s of inputs with equal work (same age_in_log"
		" and branches),\n each timed by itself in N/2N batches of %zu"
		" calls; the figures weight each\n class by its share of the"
		" %llu inputs.  No call was timed alone.  Ranges\n are [from,"
		" to) ns; the cost per class is %.3f to %.3f ns.\n",
		r->cls->nr, plural(r->cls->nr, "class", "classes"), b->n,
		(unsigned long long)total,
		bench_ns(b, r->cls_min), bench_ns(b, r->cls_max));
	if (!r->ns.n) {
		fprintf(f, " Mixed stream (inputs in order, branch history"
			" included): all %zu samples\n measured 0 (2N calls took"
			" no longer than N): no figure.\n", r->n);
		return;
	}
	fprintf(f, " Mixed stream (inputs in order, branch history included):"
		" median %.3f ns/call,\n min-max %.3f - %.3f over %zu %s",
		bench_ns(b, r->ns.median), bench_ns(b, r->ns.min),
		bench_ns(b, r->ns.max), r->ns.n,
		plural(r->ns.n, "sample", "samples"));
	if (r->nonpositive)
		fprintf(f, " (%zu of %zu measured 0: left out)", r->nonpositive,
			r->n);
	fputs(".\n", f);
}

static void print_seed_table(struct bench *b, const struct bench_result *r,
			     FILE *f)
{
	uint64_t total = 0;
	unsigned int c;

	for (c = 0; c < r->cls->nr; c++)
		total += r->cls->c[c].count;
	fprintf(f, "DAMON Perf Test: Starting %lu iterations\n", b->iterations);
	fprintf(f, "%s\n", RULE);
	fprintf(f, " Total Iterations : %llu\n", (unsigned long long)total);
	fprintf(f, " Average Latency  : %.3f ns\n", bench_ns(b, r->cls_mean));
	fprintf(f, " P95 Latency      : %.3f ns\n", bench_ns(b, r->cls_p95));
	fprintf(f, " P99 Latency      : %.3f ns\n", bench_ns(b, r->cls_p99));
	fprintf(f, "%s\n", THIN);
	fprintf(f, " Range (ns)      | Count        | Percent\n");
	fprintf(f, "%s\n", THIN);
	print_seed_buckets(b, r, total, f);
	fprintf(f, "%s\n", RULE);
	print_seed_how(b, r, total, f);
}

/* The seed's own figures, printed as its module printed them. */
static void print_ktime_table(struct bench *b, const struct bench_result *r,
			      FILE *f)
{
	const struct bench_ktime *k = &r->ktime;
	static const char *const ranges[BENCH_KTIME_BUCKETS] = {
		"0-19", "20-39", "40-59", "60-79", "80-99", "100+" };
	unsigned int i;

	fprintf(f, "DAMON Perf Test: Starting %lu iterations\n", b->iterations);
	fprintf(f, "%s\n", RULE);
	fprintf(f, " Total Iterations : %lu\n", b->iterations);
	fprintf(f, " Average Latency  : %llu ns\n",
		(unsigned long long)(k->average_ns_x1000 / 1000));
	fprintf(f, " P95 Latency      : %llu ns\n",
		(unsigned long long)k->p95_ns);
	fprintf(f, " P99 Latency      : %llu ns\n",
		(unsigned long long)k->p99_ns);
	fprintf(f, "%s\n", THIN);
	fprintf(f, " Range (ns)      | Count        | Percent\n");
	fprintf(f, "%s\n", THIN);
	/* as the seed: timed calls scaled to all calls of a run */
	for (i = 0; i < BENCH_KTIME_BUCKETS; i++)
		fprintf(f, " %-15s | %-12llu | %6llu%%\n", ranges[i],
			(unsigned long long)(k->buckets[i] * b->iterations /
					     k->samples),
			(unsigned long long)(k->buckets[i] * 100 / k->samples));
	fprintf(f, "%s\n", RULE);
	fprintf(f, " How (the seed's method): one call in %d timed alone"
		" between two\n clock_gettime(CLOCK_MONOTONIC) reads (%zu"
		" samples, %llu-%llu ns, %d %s pooled,\n counts per run);"
		" the average is the whole loop's time / calls (%.3f ns);\n"
		" the untimed calls' results are discarded.\n",
		BENCH_KTIME_EVERY, k->samples, (unsigned long long)k->min_ns,
		(unsigned long long)k->max_ns, BENCH_CLASS_RUNS,
		plural(BENCH_CLASS_RUNS, "run", "runs"),
		(double)k->average_ns_x1000 / 1000);
	if (k->average_ns_x1000 < k->min_ns * 1000)
		fprintf(f, " The average lies below every timed call: the"
			" untimed calls cost less than\n one call plus a"
			" clock read, so the clock, not the function, is"
			" measured.\n");
}

/*
 * Tables in columns as wide as their widest cell (header included), two
 * spaces apart, the last one unpadded (layout_row()): the header and every
 * row align whatever the names, numbers and labels.
 */
#define MAX_COLS 9

struct row {
	const char *cell[MAX_COLS];
	char buf[MAX_COLS][64];		/* for the cells made here */
};

/* The per-call table's row of @r; without a TSC, no cycles column. */
static unsigned int cost_row(struct bench *b, const struct bench_result *r,
			     struct row *row)
{
	unsigned int c = 0;

	row->cell[c++] = r->name;
	row->cell[c++] = b->dists[r->dist].name;
	row->cell[c++] = hs_mode_name(r->mode);
	if (r->ns.n)
		sig3_range(row->buf[c], sizeof(row->buf[c]),
			   bench_ns(b, r->ns.median), bench_ns(b, r->ns.min),
			   bench_ns(b, r->ns.max), " - ");
	else
		snprintf(row->buf[c], sizeof(row->buf[c]),
			 "- (all %zu samples 0)", r->n);
	row->cell[c] = row->buf[c];
	c++;
	if (b->host.clock.tsc) {
		snprintf(row->buf[c], sizeof(row->buf[c]), "%s", tsc_range(r));
		row->cell[c] = row->buf[c];
		c++;
	}
	row->cell[c++] = check_of(r);
	return c;
}

/* The comparison table's row of a variant. */
static unsigned int ratio_row(struct bench *b, const struct bench_result *r,
			      struct row *row)
{
	const struct bench_result *empty = empty_of(b, r);
	unsigned int c = 0;

	row->cell[c++] = r->name;
	row->cell[c++] = b->dists[r->dist].name;
	row->cell[c++] = hs_mode_name(r->mode);
	if (r->baseline) {
		row->cell[c++] = "1";
		row->cell[c++] = "-";
		row->cell[c++] = "1";
	} else {
		const struct hs_estimate *e = &r->cells.ratio;

		row->cell[c] = estimate_text(row->buf[c], sizeof(row->buf[c]),
					     r, e);
		c++;
		if (e->rerun_low || e->rerun_high)
			snprintf(row->buf[c], sizeof(row->buf[c]),
				 "[%#.4g - %#.4g]", bench_ppm(e->rerun_low),
				 bench_ppm(e->rerun_high));
		else
			snprintf(row->buf[c], sizeof(row->buf[c]), "-");
		row->cell[c] = row->buf[c];
		c++;
		row->cell[c] = r->cells.net.value ?
			       sig3(row->buf[c], sizeof(row->buf[c]),
				    bench_ppm(r->cells.net.value)) : "-";
		c++;
	}
	row->cell[c] = empty->ns.n ? sig3(row->buf[c], sizeof(row->buf[c]),
					  bench_ns(b, empty->ns.median)) : "-";
	c++;
	row->cell[c++] = verdict_of(r);
	return c;
}

/* The variance table's row: each component's SD, % of the ratio. */
static unsigned int variance_row(struct bench *b,
				 const struct bench_result *r,
				 struct row *row)
{
	const struct hs_cell_stats *cs = &r->cells;
	uint64_t var[] = { cs->var_placement, cs->var_block,
			   cs->var_residual, cs->var_within };
	unsigned int c = 0, i;

	row->cell[c++] = r->name;
	row->cell[c++] = b->dists[r->dist].name;
	row->cell[c++] = hs_mode_name(r->mode);
	for (i = 0; i < 4; i++, c++) {
		snprintf(row->buf[c], sizeof(row->buf[c]), "%.2f",
			 cs->ratio.value ? 100.0 * sqrt((double)var[i]) /
			 (double)cs->ratio.value : 0.0);
		row->cell[c] = row->buf[c];
	}
	snprintf(row->buf[c], sizeof(row->buf[c]), "%u", cs->nr_outliers);
	row->cell[c] = row->buf[c];
	c++;
	if (kj_rounds(b, r))
		snprintf(row->buf[c], sizeof(row->buf[c]), "%llu",
			 (unsigned long long)kj_rounds(b, r));
	else
		snprintf(row->buf[c], sizeof(row->buf[c]), "-");
	row->cell[c] = row->buf[c];
	return c + 1;
}

/* The layout table's row: the placements' ratios, lowest to highest. */
static unsigned int layout_row_of(struct bench *b,
				  const struct bench_result *r,
				  struct row *row)
{
	const struct hs_cell_stats *cs = &r->cells;
	unsigned int c = 0;

	row->cell[c++] = r->name;
	row->cell[c++] = b->dists[r->dist].name;
	row->cell[c++] = hs_mode_name(r->mode);
	if (cs->layout_low)
		snprintf(row->buf[c], sizeof(row->buf[c]), "%#.4g - %#.4g",
			 bench_ppm(cs->layout_low), bench_ppm(cs->layout_high));
	else
		snprintf(row->buf[c], sizeof(row->buf[c]), "-");
	row->cell[c] = row->buf[c];
	c++;
	snprintf(row->buf[c], sizeof(row->buf[c]), "%.2f",
		 (double)cs->layout_sd / 1e4);
	row->cell[c] = row->buf[c];
	return c + 1;
}

/*
 * What the invocations of each ratio say beyond it: two states among
 * them, or a drift over the run that widened its intervals.
 */
static void print_units(struct bench *b, FILE *f)
{
	unsigned int nr = b->nr_dists * b->nr_modes * (b->nr_variants + 1);
	const char *unit = b->module_blocks ? "runs" : "invocations";
	char text[512];
	unsigned int i;

	for (i = 0; i < nr; i++) {
		const struct bench_result *r = &b->results[i];
		const struct hs_cell_stats *cs = &r->cells;

		if (!r->variant || r->baseline)
			continue;
		if (cs->state_n[0]) {
			snprintf(text, sizeof(text), "Two states: %s, %s, %s:"
				 " %zu %s at %.4g, %zu at %.4g; the ratio is"
				 " their trimmed mean, and a re-run may land"
				 " in either.", r->name, b->dists[r->dist].name,
				 hs_mode_name(r->mode), cs->state_n[0], unit,
				 bench_ppm(cs->state[0]), cs->state_n[1],
				 bench_ppm(cs->state[1]));
			layout_wrap(f, text, 0, 2, 100, BENCH_WRAP);
		}
		if (cs->trend) {
			snprintf(text, sizeof(text), "Drift over the run: %s,"
				 " %s, %s: the %s move with time (von Neumann"
				 " ratio %.2f, below its 5 %% limit); both"
				 " intervals widened %.2f times.", r->name,
				 b->dists[r->dist].name, hs_mode_name(r->mode),
				 unit, cs->vn / 1000.0,
				 sqrt((2000.0 - (cs->vn > 100 ? cs->vn : 100)) /
				      (cs->vn > 100 ? cs->vn : 100)));
			layout_wrap(f, text, 0, 2, 100, BENCH_WRAP);
		}
	}
}

enum table_rows { ALL_ROWS, NO_EMPTY_ROWS, VARIANT_ROWS };

/* Print a table: the head, then @fill's row of every result it takes. */
static void print_table(struct bench *b, FILE *f, const struct row *head,
			unsigned int (*fill)(struct bench *,
					     const struct bench_result *,
					     struct row *),
			enum table_rows rows, unsigned int right)
{
	unsigned int nr = b->nr_dists * b->nr_modes * (b->nr_variants + 1);
	struct layout_table t = { .gap = 2, .right = right };
	unsigned int i, pass;
	struct row row;

	while (t.nr_cols < MAX_COLS && head->cell[t.nr_cols])
		t.nr_cols++;
	layout_widen(&t, head->cell);
	for (pass = 0; pass < 2; pass++) {
		if (pass)
			layout_row(f, &t, head->cell);
		for (i = 0; i < nr; i++) {
			const struct bench_result *r = &b->results[i];

			if ((rows != ALL_ROWS && !r->variant) ||
			    (rows == VARIANT_ROWS && r->baseline))
				continue;
			fill(b, r, &row);
			if (pass)
				layout_row(f, &t, row.cell);
			else
				layout_widen(&t, row.cell);
		}
		/* the door's rows, after the variants' */
		for (i = 0; rows == ALL_ROWS && b->doors &&
		     i < b->nr_dists * b->nr_modes; i++) {
			fill(b, &b->doors[i], &row);
			if (pass)
				layout_row(f, &t, row.cell);
			else
				layout_widen(&t, row.cell);
		}
	}
}

/* Which invocations were unlike the rest, per ratio. */
static void print_outliers(struct bench *b, FILE *f)
{
	unsigned int nr = b->nr_dists * b->nr_modes * (b->nr_variants + 1);
	unsigned int i, k;

	for (i = 0; i < nr; i++) {
		const struct bench_result *r = &b->results[i];

		if (!r->variant || r->baseline || !r->cells.nr_outliers)
			continue;
		fprintf(f, "  %s, %s, %s: %s", r->name,
			b->dists[r->dist].name, hs_mode_name(r->mode),
			b->module_blocks ? "run" : "invocation");
		for (k = 0; k < 64; k++)
			if (r->cells.outliers & (1ULL << k))
				fprintf(f, " %u", k + 1);
		fputc('\n', f);
	}
}

static void print_comparison(struct bench *b, FILE *f)
{
	struct row cost = { .cell = { "variant", "dist", "mode",
				      "ns/call median [min - max]" } };
	struct row ratio = { .cell = { "variant", "dist", "mode",
				       "ratio [95% CI]", "re-run [95%]",
				       "net ratio", "empty ns", "verdict" } };
	struct row lay = { .cell = { "variant", "dist", "mode",
				     "placements' ratios", "SD %" } };
	struct row var = { .cell = { "variant", "dist", "mode", "placement",
				     "invocation", "interaction", "rounds",
				     "unlike the rest", "K-J rounds" } };
	char text[1024];

	fprintf(f, "\nPer call (a batch variant's: per region): median [min -"
		" max] of the samples.%s\n\n", b->host.clock.tsc ?
		"\nCycles are TSC ticks (TSC-derived), not core cycles." : "");
	cost.cell[4] = b->host.clock.tsc ? "TSC cycles/call" : "check";
	cost.cell[5] = b->host.clock.tsc ? "check" : NULL;
	print_table(b, f, &cost, cost_row, ALL_ROWS, 0);
	print_nonpositive(b, f);
	print_door(b, f);
	snprintf(text, sizeof(text), "Against %s: ratio = %s time / variant"
		 " time (above 1: faster than %s), each cell's median paired"
		 " round; net ratio: the same with the empty call's cost"
		 " (empty ns, the call and loop overhead, which pulls every"
		 " ratio toward 1) taken from both.  A verdict needs the CI"
		 " to exclude 1 and the ratio to leave the 1 %% noise band.",
		 b->variants[0]->name, b->variants[0]->name,
		 b->variants[0]->name);
	fputc('\n', f);
	layout_wrap(f, text, 0, 0, 100, BENCH_WRAP);
	print_interval_note(b, f);
	print_budget(b, f);
	fputc('\n', f);
	print_table(b, f, &ratio, ratio_row, NO_EMPTY_ROWS, 0);
	print_differs(b, f);
	print_units(b, f);
	if (b->aa)
		fputc('\n', f);
	print_aa(b, f);
	if (b->invocations * b->placements == 1)
		return;
	fprintf(f, "\nWhere the variance is: each component's standard"
		" deviation, %% of the ratio\n(rounds: a cell's own, from its"
		" rounds); \"unlike the rest\": %s outside the\nre-run interval"
		" and 3 SD from the others'; K-J rounds: the rounds per cell"
		" that give\nthe most precision for the time (Kalibera and Jones)"
		" with these variances\nand costs; this run had %zu.\n\n",
		b->module_blocks ? "runs" : "invocations", b->rounds);
	if (b->module_blocks)
		var.cell[4] = "run";
	print_table(b, f, &var, variance_row, VARIANT_ROWS, 0);
	print_outliers(b, f);
	if (b->placements < 2)
		return;
	fprintf(f, "\nLayout sensitivity: each placement's ratio (its"
		" geometric mean over the %s),\nlowest to highest, and their"
		" standard deviation, %% of the ratio.\n\n",
		b->module_blocks ? "runs" : "invocations");
	print_table(b, f, &lay, layout_row_of, VARIANT_ROWS, 0);
}

static void counters_row(const struct bench *b, const struct bench_result *r,
			 struct row *row)
{
	row->cell[0] = r->name;
	row->cell[1] = b->dists[r->dist].name;
	row->cell[2] = hs_mode_name(r->mode);
	snprintf(row->buf[3], sizeof(row->buf[3]), "%.1f",
		 (double)r->cycles_median / 1000);
	snprintf(row->buf[4], sizeof(row->buf[4]), "%.1f",
		 (double)r->ins_median / 1000);
	snprintf(row->buf[5], sizeof(row->buf[5]), "%.2f", r->cycles_median ?
		 (double)r->ins_median / (double)r->cycles_median : 0);
	row->cell[3] = row->buf[3];
	row->cell[4] = row->buf[4];
	row->cell[5] = row->buf[5];
}

static void print_counters(struct bench *b, FILE *f)
{
	unsigned int i, nr = b->nr_dists * b->nr_modes * (b->nr_variants + 1);
	const struct row head = { .cell = { "variant", "dist", "mode", "cycles",
					    "instructions", "IPC" } };
	/* the counts right-aligned */
	struct layout_table t = { .nr_cols = 6, .gap = 2, .right = 0x38 };
	struct row row;
	bool any = false;

	layout_widen(&t, head.cell);
	for (i = 0; i < nr; i++) {
		if (!b->results[i].counters)
			continue;
		any = true;
		counters_row(b, &b->results[i], &row);
		layout_widen(&t, row.cell);
	}
	if (!any)
		return;
	fprintf(f, "\nHardware counters (perf_event_open, user space), per"
		" call, median of the\nsame differenced samples:\n\n");
	layout_row(f, &t, head.cell);
	for (i = 0; i < nr; i++) {
		if (!b->results[i].counters)
			continue;
		counters_row(b, &b->results[i], &row);
		layout_row(f, &t, row.cell);
	}
}

/* --method ktime: name the variants the seed's loop does not apply to. */
static void print_no_ktime(const struct bench *b, FILE *f)
{
	unsigned int v, n = 0;

	if (!b->ktime)
		return;
	for (v = 0; v < b->nr_variants; v++) {
		if (b->variants[v]->ktime)
			continue;
		fprintf(f, "%s%s", n++ ? ", " : "\n--method ktime: not for ",
			b->variants[v]->name);
	}
	if (n)
		fputs(" (no seed-style loop: they are not one call an input)\n",
		      f);
}

/** bench_print_text() - the default report: seed tables, then comparison. */
void bench_print_text(struct bench *b, FILE *f)
{
	unsigned int di, mi, v;

	print_header(b, f);
	for (di = 0; di < b->nr_dists; di++) {
		for (mi = 0; mi < b->nr_modes; mi++)
			for (v = 1; v <= b->nr_variants; v++) {
				const struct bench_result *r =
					bench_at(b, di, mi, v);

				if (!r->cls)	/* imported: no classes */
					continue;
				fprintf(f, "\n### %s | dist %s | %s\n", r->name,
					b->dists[di].name,
					hs_mode_name(r->mode));
				print_seed_table(b, r, f);
			}
		if (!b->ktime)
			continue;
		for (v = 1; v <= b->nr_variants; v++) {
			const struct bench_result *r = bench_at(b, di, 0, v);

			if (!r->has_ktime)	/* not the seed's shape */
				continue;
			fprintf(f, "\n### %s | dist %s | --method ktime (the"
				" seed's single-call timing)\n", r->name,
				b->dists[di].name);
			print_ktime_table(b, r, f);
		}
	}
	print_no_ktime(b, f);
	print_comparison(b, f);
	print_counters(b, f);
	print_accuracy(b, f);
}
