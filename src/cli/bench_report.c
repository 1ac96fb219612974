// SPDX-License-Identifier: GPL-2.0
/*
 * bench_report.c - `hotscore bench` output: the seed module's table, the
 * comparison, a commit-message block, Markdown, JSON, CSV and SVG.
 *
 * Nothing here measures; everything comes from struct bench.  The JSON
 * schema is documented in docs/bench.md.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>


#include <hotscore/json_out.h>

#include "bench.h"
#include "cli.h"
#include "opt.h"

#define RULE "============================================="
#define THIN "---------------------------------------------"

/** bench_ns() - milliticks of the run's clock as nanoseconds. */
double bench_ns(const struct bench *b, uint64_t mt)
{
	return (double)hs_mt_to_ps(mt, b->host.clock.hz) / 1000.0;
}

/** bench_ppm() - a ppm fixed-point ratio as a double. */
double bench_ppm(uint64_t ppm)
{
	return (double)ppm / (double)HS_PPM;
}

/*
 * @x to three significant digits ("9.84", "18.6", "1.54", "123"): the
 * figures of a noisy VM carry no more (docs/bench.md, "Intervals").
 * Machine outputs (--json, --csv) keep every digit.
 */
static const char *sig3(char *buf, size_t size, double x)
{
	char e[32];
	int exp10 = 0;

	snprintf(e, sizeof(e), "%.2e", x);	/* rounded first: 9.996 is 10.0 */
	sscanf(strchr(e, 'e') + 1, "%d", &exp10);
	snprintf(buf, size, "%.*f", exp10 >= 2 ? 0 : 2 - exp10, x);
	return buf;
}

/* "1.54 [1.50 - 1.58]" (@sep " - "), each to three significant digits. */
static const char *sig3_range(char *buf, size_t size, double v, double lo,
			      double hi, const char *sep)
{
	char a[32], b[32], c[32];

	snprintf(buf, size, "%s [%s%s%s]", sig3(a, sizeof(a), v),
		 sig3(b, sizeof(b), lo), sep, sig3(c, sizeof(c), hi));
	return buf;
}

/* TSC ticks per call; meaningful only when the clock is the TSC. */
static double tsc_cycles(uint64_t mt)
{
	return (double)mt / 1000.0;
}

/* "1 tick", "26 ticks": @one for a count of 1, @many for any other. */
static const char *plural(unsigned long long n, const char *one,
			  const char *many)
{
	return n == 1 ? one : many;
}

/* A space that wrap() does not break a line at: "1" NBSP "tick". */
#define NBSP "\001"

static void put_word(FILE *f, const char *p, size_t len)
{
	for (; len--; p++)
		fputc(*p == NBSP[0] ? ' ' : *p, f);
}

/*
 * Print @text from column @indent of the current line, wrapped at @width
 * columns; continuation lines start with @indent spaces.  A word longer
 * than a line is broken where the line ends.
 */
static void wrap(FILE *f, const char *text, size_t indent, size_t width)
{
	size_t at = indent, len, room;
	const char *p = text;

	for (;;) {
		while (*p == ' ')
			p++;
		len = strcspn(p, " ");
		if (!len)
			break;
		if (at > indent && at + 1 + len > width) {
			fprintf(f, "\n%*s", (int)indent, "");
			at = indent;
		} else if (at > indent) {
			fputc(' ', f);
			at++;
		}
		while (at + len > width) {	/* at == indent here */
			room = width - at;
			put_word(f, p, room);
			fprintf(f, "\n%*s", (int)indent, "");
			p += room;
			len -= room;
		}
		put_word(f, p, len);
		at += len;
		p += len;
	}
	fputc('\n', f);
}

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

/*
 * The paired ratio, "1.652", or "-" when no round had both sides above 0
 * to compare (compare() in bench.c).
 */
static const char *ratio_or_dash(const struct bench_result *r, int digits)
{
	static char buf[32];

	if (!r->rounds)
		return "-";
	snprintf(buf, sizeof(buf), "%.*f", digits, bench_ppm(r->ratio));
	return buf;
}

/* "no difference" with a CI that excludes 1 is a significant change that
 * stays inside the noise band: say so, or the two read as a contradiction. */
static const char *verdict_of(const struct bench_result *r)
{
	if (r->baseline)
		return "baseline";
	if (r->verdict == HS_SAME && (r->ci_low > HS_PPM || r->ci_high < HS_PPM))
		return "within 1 %";
	return hs_verdict_name(r->verdict);
}

static const char *check_of(const struct bench_result *r)
{
	return r->variant ? hs_check_name(r->check) : "empty-call baseline";
}

/* A batch variant's figures are per region, not per call. */
static bool per_region(const struct bench_result *r)
{
	return r->variant && hs_variant_regions(r->variant) > 1;
}

/* The 0-based index of @r's variant in the run's list. */
static unsigned int variant_index(const struct bench *b,
				  const struct bench_result *r)
{
	unsigned int v;

	for (v = 0; v < b->nr_variants && b->variants[v] != r->variant; v++)
		;
	return v;
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
	wrap(f, text, 12, 100);
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
	wrap(f, text, 0, 100);
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
		     "randomized (ASLR on): code placement varies from run to run");
	for (i = 0, at = 0; i < b->nr_dists && at < sizeof(text); i++)
		at += dist_text(&b->dists[i], text + at, sizeof(text) - at,
				i + 1 < b->nr_dists ? ", " : "");
	if (at < sizeof(text))
		snprintf(text + at, sizeof(text) - at, b->import ?
			 "; pool of %lu; hotscore.ko's seed=%llu" :
			 "; pool of %lu; --seed %llu", b->pool,
			 (unsigned long long)b->seed);
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
 * spaces apart, the last one unpadded: the header and every row align
 * whatever the names, numbers and labels.
 */
#define MAX_COLS 9

struct row {
	const char *cell[MAX_COLS];
	char buf[MAX_COLS][64];		/* for the cells made here */
};

static void widen(size_t *w, const struct row *row, unsigned int nr)
{
	unsigned int c;

	for (c = 0; c < nr; c++)
		if (strlen(row->cell[c]) > w[c])
			w[c] = strlen(row->cell[c]);
}

/* @right: bit c set right-aligns column c. */
static void print_row(FILE *f, const struct row *row, const size_t *w,
		      unsigned int nr, unsigned int right)
{
	unsigned int c;

	for (c = 0; c < nr; c++) {
		if (right & (1U << c))
			fprintf(f, "%*s", (int)w[c], row->cell[c]);
		else if (c + 1 < nr)
			fprintf(f, "%-*s", (int)w[c], row->cell[c]);
		else
			fputs(row->cell[c], f);
		fputs(c + 1 < nr ? "  " : "\n", f);
	}
}

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

/* "1.54 [1.50 - 1.58]", or "1.54 (3 rounds)" without an interval. */
static const char *estimate_text(char *buf, size_t size,
				 const struct bench_result *r,
				 const struct hs_estimate *e)
{
	char v[32];

	if (!e->value)
		snprintf(buf, size, "-");
	else if (!e->low && !e->high)
		snprintf(buf, size, "%s (%zu %s)",
			 sig3(v, sizeof(v), bench_ppm(e->value)), r->rounds,
			 plural(r->rounds, "round", "rounds"));
	else
		sig3_range(buf, size, bench_ppm(e->value), bench_ppm(e->low),
			   bench_ppm(e->high), " - ");
	return buf;
}

/* The empty call timed in the same rounds as @r. */
static const struct bench_result *empty_of(const struct bench *b,
					   const struct bench_result *r)
{
	unsigned int mi;

	for (mi = 0; mi + 1 < b->nr_modes && b->modes[mi] != r->mode; mi++)
		;
	return &b->results[(r->dist * b->nr_modes + mi) *
			   (b->nr_variants + 1)];
}

/*
 * Kalibera and Jones's rounds per cell for @r (hs_kj_rounds()): the rounds
 * per invocation and stream that buy the most precision for the time,
 * from an invocation's own cost (a process, its set-up, its warm-up),
 * shared by its streams (distribution and mode), against a round's; a
 * round's variance is a median's (pi/2 of a mean's).  The placements of
 * an invocation share its rounds, so a cell gets 1/P of them.  0: unknown
 * (one invocation, an import, no invocation component).
 */
static uint64_t kj_rounds(const struct bench *b, const struct bench_result *r)
{
	uint64_t streams = (uint64_t)b->nr_dists * b->nr_modes;
	uint64_t rounds = b->invocations * streams * b->placements * b->rounds;
	uint64_t m;

	if (b->module_blocks || b->invocations < 2 || !rounds ||
	    b->blocks_ns <= b->stream_ns)
		return 0;
	m = hs_kj_rounds((b->blocks_ns - b->stream_ns) /
			 (b->invocations * streams), b->stream_ns / rounds,
			 r->cells.var_round * 157 / 100, r->cells.var_block);
	return m ? (m + b->placements - 1) / b->placements : 0;
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
		row->cell[c++] = "1";
	} else {
		row->cell[c] = estimate_text(row->buf[c], sizeof(row->buf[c]),
					     r, &r->cells.ratio);
		c++;
		row->cell[c] = estimate_text(row->buf[c], sizeof(row->buf[c]),
					     r, &r->cells.net);
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

enum table_rows { ALL_ROWS, NO_EMPTY_ROWS, VARIANT_ROWS };

/* Print a table: the head, then @fill's row of every result it takes. */
static void print_table(struct bench *b, FILE *f, const struct row *head,
			unsigned int (*fill)(struct bench *,
					     const struct bench_result *,
					     struct row *),
			enum table_rows rows, unsigned int right)
{
	unsigned int nr = b->nr_dists * b->nr_modes * (b->nr_variants + 1);
	unsigned int i, nc = 0, pass;
	size_t w[MAX_COLS] = { 0 };
	struct row row;

	while (nc < MAX_COLS && head->cell[nc])
		nc++;
	widen(w, head, nc);
	for (pass = 0; pass < 2; pass++) {
		if (pass)
			print_row(f, head, w, nc, right);
		for (i = 0; i < nr; i++) {
			const struct bench_result *r = &b->results[i];

			if ((rows != ALL_ROWS && !r->variant) ||
			    (rows == VARIANT_ROWS && r->baseline))
				continue;
			fill(b, r, &row);
			if (pass)
				print_row(f, &row, w, nc, right);
			else
				widen(w, &row, nc);
		}
	}
}

/* Say which results had samples of 0, and that they are left out. */
static void print_nonpositive(struct bench *b, FILE *f)
{
	unsigned int i, nr = b->nr_dists * b->nr_modes * (b->nr_variants + 1);
	bool any = false;

	for (i = 0; i < nr; i++) {
		const struct bench_result *r = &b->results[i];

		if (!r->nonpositive)
			continue;
		if (!any)
			fprintf(f, "\nSamples that measured 0 (the 2N batch"
				" took no longer than the N batch: noise\nlarger"
				" than N calls) say nothing of a call's cost;"
				" they are left out of the\nfigures:\n");
		any = true;
		fprintf(f, "  %s, %s, %s: %zu of %zu %s\n", r->name,
			b->dists[r->dist].name, hs_mode_name(r->mode),
			r->nonpositive, r->n,
			plural(r->n, "sample", "samples"));
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

/* What an interval resamples (hs_cells_ratio()'s cells). */
enum interval_of {
	IV_ROUNDS,	/* one cell: one process's (or run's) rounds */
	IV_PLACEMENTS,	/* one invocation: its placements */
	IV_MODULE_RUNS,	/* a module's runs: time blocks of one load */
	IV_BLOCKS,	/* invocations that could not exec: time blocks */
	IV_RERUN,	/* invocations and placements, and the drift */
};

static enum interval_of interval_of(const struct bench *b)
{
	if (b->invocations * b->placements == 1)
		return IV_ROUNDS;
	if (b->module_blocks)
		return IV_MODULE_RUNS;
	if (b->invocations == 1)
		return IV_PLACEMENTS;
	return b->blocks_in_process ? IV_BLOCKS : IV_RERUN;
}

/* What an interval is of, in a few words: the commit block, the JSON. */
static const char *interval_kind(const struct bench *b)
{
	switch (interval_of(b)) {
	case IV_ROUNDS:
		return "within one process (its rounds resampled)";
	case IV_PLACEMENTS:
		return "within one process (its placements resampled)";
	case IV_MODULE_RUNS:
		return "95 % of re-runs of the load (its runs resampled)";
	case IV_BLOCKS:
		return "within one process (time blocks and placements"
		       " resampled, drift added)";
	case IV_RERUN:
		break;
	}
	return "95 % of re-runs and rebuilds (invocations and placements"
	       " resampled, drift added)";
}

/* What the intervals resample, and what they are for, at length. */
static void print_interval_note(const struct bench *b, FILE *f)
{
	const char *unit = interval_of(b) == IV_BLOCKS ? "time block" :
			   "invocation";
	char text[1024];

	switch (interval_of(b)) {
	case IV_ROUNDS:
		snprintf(text, sizeof(text), "Within one %s: each interval"
			 " resamples its rounds, which share its state, so a"
			 " re-run can land outside it.", b->module_blocks ?
			 "run of the module" : "process (--invocations 1"
			 " --placements 1)");
		break;
	case IV_PLACEMENTS:
		snprintf(text, sizeof(text), "Within one process"
			 " (--invocations 1): each interval resamples the %lu"
			 " code placements, not the process's state, so a re-run"
			 " can land outside it.", b->placements);
		break;
	case IV_MODULE_RUNS:
		snprintf(text, sizeof(text), "Each interval holds 95 %% of"
			 " re-runs' ratios: it resamples the module's %lu runs"
			 " (time blocks of one load, one code placement), never"
			 " rounds.", b->invocations);
		break;
	case IV_BLOCKS:
	case IV_RERUN:
		snprintf(text, sizeof(text), "Each interval holds 95 %% of"
			 " re-runs' ratios, and of rebuilds' that move the code:"
			 " it resamples the %lu %ss and the %lu code %s (never"
			 " rounds; a re-run of one binary keeps its placements,"
			 " so for re-runs alone it is conservative), adds a"
			 " re-run's own error and a drift between runs of %.2f %%"
			 " (--drift).", b->invocations, unit, b->placements,
			 plural(b->placements, "placement", "placements"),
			 (double)b->drift_bp / 100);
		break;
	}
	wrap(f, text, 0, 100);
}

static void print_comparison(struct bench *b, FILE *f)
{
	struct row cost = { .cell = { "variant", "dist", "mode",
				      "ns/call median [min - max]" } };
	struct row ratio = { .cell = { "variant", "dist", "mode",
				       "ratio [95% interval]",
				       "net ratio [95% interval]",
				       "empty ns", "verdict" } };
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
	snprintf(text, sizeof(text), "Against %s: ratio = %s time / variant"
		 " time (above 1: faster than %s): per placement the median"
		 " over invocations of their median paired round, averaged over"
		 " the placements; net ratio: the same with the"
		 " empty call's cost (empty ns, the call and loop overhead,"
		 " which pulls every ratio toward 1) taken from both.  A"
		 " verdict needs the interval to exclude 1 and the ratio to"
		 " leave the 1 %% noise band.", b->variants[0]->name,
		 b->variants[0]->name, b->variants[0]->name);
	fputc('\n', f);
	wrap(f, text, 0, 100);
	print_interval_note(b, f);
	fputc('\n', f);
	print_table(b, f, &ratio, ratio_row, NO_EMPTY_ROWS, 0);
	if (b->invocations * b->placements == 1)
		return;
	fprintf(f, "\nWhere the variance is: each component's standard"
		" deviation, %% of the ratio\n(rounds: a cell's own, from its"
		" rounds); \"unlike the rest\": %s outside the\ninterval"
		" and 3 SD from the others'; K-J rounds: the rounds per cell"
		" that give\nthe most precision for the time (Kalibera and Jones)"
		" with these variances\nand costs; this run had %zu.\n\n",
		b->module_blocks ? "runs" : "invocations", b->rounds);
	if (b->module_blocks)
		var.cell[4] = "run";
	print_table(b, f, &var, variance_row, VARIANT_ROWS, 0);
	print_outliers(b, f);
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
	size_t w[MAX_COLS] = { 0 };
	struct row row;
	bool any = false;

	widen(w, &head, 6);
	for (i = 0; i < nr; i++) {
		if (!b->results[i].counters)
			continue;
		any = true;
		counters_row(b, &b->results[i], &row);
		widen(w, &row, 6);
	}
	if (!any)
		return;
	fprintf(f, "\nHardware counters (perf_event_open, user space), per"
		" call, median of the\nsame differenced samples:\n\n");
	print_row(f, &head, w, 6, 0x38);
	for (i = 0; i < nr; i++) {
		if (!b->results[i].counters)
			continue;
		counters_row(b, &b->results[i], &row);
		print_row(f, &row, w, 6, 0x38);
	}
}

static void print_accuracy(struct bench *b, FILE *f)
{
	double per_add;

	if (!b->accuracy)
		return;
	if (!b->core_hz) {
		fprintf(f, "\nHarness accuracy: no add chain in asm for this"
			" architecture.\n");
		return;
	}
	per_add = bench_ppm(b->add_ppm);
	fprintf(f, "\nHarness accuracy: a chain of %d dependent adds, timed"
		" by the engine\n(latency mode), costs %.4f core cycles per add"
		" against the core clock\n(median %.1f MHz, 2^24 adds timed with"
		" CLOCK_MONOTONIC_RAW around\neach of 31 samples).  Target"
		" 1.00 +- 0.02.\n", HS_ADD_CHAIN_LEN, per_add,
		(double)b->core_hz / 1e6);
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

/* A markdown cell of @e: "1.54 [1.50–1.58]", or what estimate_text says. */
static void md_estimate(FILE *f, const struct bench_result *r,
			const struct hs_estimate *e)
{
	char buf[64];

	if (e->value && (e->low || e->high))
		sig3_range(buf, sizeof(buf), bench_ppm(e->value),
			   bench_ppm(e->low), bench_ppm(e->high), "–");
	else
		estimate_text(buf, sizeof(buf), r, e);
	fprintf(f, "%s | ", buf);
}

/* One result's row of the markdown table. */
static void md_row(struct bench *b, const struct bench_result *r, FILE *f)
{
	char buf[64];

	fprintf(f, "| %s | %s | %s | ", r->name, b->dists[r->dist].name,
		hs_mode_name(r->mode));
	if (!r->ns.n)	/* every sample was 0 */
		fprintf(f, "– (all %zu samples 0) | %s", r->n,
			b->host.clock.tsc ? "– | " : "");
	else
		fprintf(f, "%s | ", sig3_range(buf, sizeof(buf),
			bench_ns(b, r->ns.median), bench_ns(b, r->ns.min),
			bench_ns(b, r->ns.max), "–"));
	if (b->host.clock.tsc && r->ns.n)
		fprintf(f, "%.1f [%.1f–%.1f] | ", tsc_cycles(r->ns.median),
			tsc_cycles(r->ns.min), tsc_cycles(r->ns.max));
	if (r->variant && !r->baseline) {
		md_estimate(f, r, &r->cells.ratio);
		md_estimate(f, r, &r->cells.net);
	} else {
		fprintf(f, "%s | %s | ", r->variant ? "1" : "–",
			r->variant ? "1" : "–");
	}
	fprintf(f, "%s | %s |\n", r->variant ? verdict_of(r) : "–",
		check_of(r));
}

/** bench_print_markdown() - the comparison as a Markdown table. */
void bench_print_markdown(struct bench *b, FILE *f)
{
	unsigned int di, mi, v;

	fprintf(f, "| variant | dist | mode | ns/call (batches: per region) median [min–max] | %s"
		"ratio vs %s [95%% interval] | net of the empty call | verdict | check |\n"
		"|---|---|---|---|%s---|---|---|---|\n", b->host.clock.tsc ?
		"TSC cycles/call median [min–max] | " : "",
		b->variants[0]->name, b->host.clock.tsc ? "---|" : "");
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			for (v = 0; v <= b->nr_variants; v++)
				md_row(b, bench_at(b, di, mi, v), f);
	fputc('\n', f);
	print_interval_note(b, f);
	fprintf(f, b->import ? "\nInputs: hotscore.ko's seed=%llu.\n" :
		"\nInputs: --seed %llu.\n", (unsigned long long)b->seed);
	print_nonpositive(b, f);
	print_accuracy(b, f);
}

#define COMMIT_WIDTH 72

/*
 * Where to cut a word of a shell command that does not fit in @room
 * columns: after the last comma that fits, else as late as fits.  @quoted
 * says whether the word is inside single quotes at its start, and receives
 * whether it is at the cut, where a quoted cut needs a column for the
 * closing quote.
 */
static size_t command_cut(const char *p, size_t len, size_t room,
			  bool *quoted)
{
	size_t i, cut = 0, comma = 0;
	bool q = *quoted, q_cut = q, q_comma = q;

	for (i = 0; i < len; i++) {
		if (p[i] == '\'')
			q = !q;
		if (i + 1 + q > room)	/* p[0..i] and a closing quote */
			break;
		cut = i + 1;
		q_cut = q;
		if (p[i] == ',') {
			comma = cut;
			q_comma = q;
		}
	}
	if (comma) {
		cut = comma;
		q_cut = q_comma;
	}
	*quoted = q_cut;
	return cut ? cut : 1;
}

/*
 * A shell command after @prompt, wrapped at 72 columns: " \" between
 * words; a word too long for a line is cut (after a comma where it can
 * be) with a "\" that the shell removes with the newline, joining the
 * parts again.  Inside single quotes it would not be removed, so there
 * the quote is closed before the cut and reopened after it.
 */
static void wrap_command(FILE *f, const char *prompt, const char *cmd)
{
	size_t at = strlen(prompt), len, need, cut;
	const char *p = cmd, *q;
	bool empty = true, quoted, last;

	fputs(prompt, f);
	for (;;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		for (q = p, quoted = false; *q && (quoted || *q != ' '); q++)
			quoted ^= *q == '\'';
		len = (size_t)(q - p);
		last = !q[strspn(q, " ")];
		need = len + (last ? 0 : 2);	/* room for " \" after it */
		if (!empty && at + 1 + need > COMMIT_WIDTH) {
			fputs(" \\\n", f);
			at = 0;
			empty = true;
		}
		if (!empty) {
			fputc(' ', f);
			at++;
		}
		quoted = false;
		while (at + need > COMMIT_WIDTH) {	/* cut the word */
			cut = command_cut(p, len, COMMIT_WIDTH - at - 1,
					  &quoted);
			fwrite(p, 1, cut, f);
			fputs(quoted ? "'\\\n'" : "\\\n", f);
			at = quoted;
			p += cut;
			len -= cut;
			need -= cut;
		}
		fwrite(p, 1, len, f);
		at += len;
		p += len;
		empty = false;
	}
	fputc('\n', f);
}

/*
 * A distribution as a commit message shows it: a file by its base name
 * (file:worst.csv), never a path of the machine it ran on.
 */
static const char *commit_dist(const struct bench_dist *d)
{
	static char buf[sizeof(d->name)];
	const char *base;

	if (strncmp(d->name, "file:", 5) || !strchr(d->name + 5, '/'))
		return d->name;
	base = strrchr(d->name, '/') + 1;
	snprintf(buf, sizeof(buf), "file:%s", *base ? base : d->name + 5);
	return buf;
}

/*
 * The reproduce line: the option layer's command, with the --seed that
 * makes the same inputs, and each --dist file:PATH as commit_dist() shows
 * it (the file is expected beside the command, as the block names it).
 */
static void commit_command(const struct bench *b, char *buf, size_t size)
{
	unsigned int di;
	size_t at;

	snprintf(buf, size, "%s", b->command);
	for (di = 0; di < b->nr_dists; di++) {
		const char *name = b->dists[di].name, *show = commit_dist(
			&b->dists[di]);
		size_t nl = strlen(name), sl = strlen(show);
		char *p = buf;

		if (!strcmp(name, show))
			continue;
		while ((p = strstr(p, name))) {
			/* a whole list item: after ' ', ',', '\'', '=' */
			bool whole = p > buf && strchr(" ,'=", p[-1]) &&
				     (!p[nl] || strchr(" ,'", p[nl]));

			if (!whole) {
				p++;
				continue;
			}
			memmove(p + sl, p + nl, strlen(p + nl) + 1);
			memcpy(p, show, sl);
			p += sl;
		}
	}
	/* the seed, always: with it the command makes the same inputs */
	if (!strstr(buf, "--seed")) {
		at = strlen(buf);
		snprintf(buf + at, size - at, " --seed %llu",
			 (unsigned long long)b->seed);
	}
}

/* "name=value " unless the value is the module's default. */
static size_t insmod_param(char *buf, size_t size, size_t at,
			   const char *name, const char *value,
			   const char *dflt)
{
	if (at >= size || (dflt && !strcmp(value, dflt)))
		return at;
	return at + (size_t)snprintf(buf + at, size - at, " %s=%s", name,
				     value);
}

/*
 * An import's reproduce lines: the module loads that measure it again
 * (kmod/main.c's parameters, those at their defaults left out except the
 * seed), then the import.  The module takes one dist a load, so each
 * distribution is a load of its own; the results of identify's timing
 * (the "kernel" row) come from mode=identify, which times the seed's
 * inputs in throughput mode only.
 */
static void commit_insmod(const struct bench *b, FILE *f)
{
	char cmd[1024], list[512], num[32];
	bool identify = false;
	unsigned int di, i;
	size_t at, lat;

	for (i = 0; i < b->nr_variants; i++)
		identify |= !strcmp(b->variants[i]->name, "kernel");
	for (i = 0, lat = 0, list[0] = '\0'; i < b->nr_variants; i++)
		if (strcmp(b->variants[i]->name, "kernel") &&
		    lat < sizeof(list))
			lat += (size_t)snprintf(list + lat, sizeof(list) - lat,
						"%s%s", lat ? "," : "",
						b->variants[i]->name);
	wrap(f, identify || b->nr_dists == 1 ?
	     "To measure again, as root (kmod/hotscore.ko built for the"
	     " kernel):" : "To measure again, as root (kmod/hotscore.ko built"
	     " for the kernel), one load per distribution:", 0, COMMIT_WIDTH);
	for (di = 0; di < (identify ? 1 : b->nr_dists); di++) {
		at = (size_t)snprintf(cmd, sizeof(cmd), "insmod hotscore.ko");
		if (identify)
			at = insmod_param(cmd, sizeof(cmd), at, "mode",
					  "identify", NULL);
		if (*list)
			at = insmod_param(cmd, sizeof(cmd), at, "variants",
					  list, "loop,fls,ilog2");
		if (!identify) {
			char modes[64];
			size_t mat = 0;

			at = insmod_param(cmd, sizeof(cmd), at, "dist",
					  b->dists[di].name, "seed");
			for (i = 0; i < b->nr_modes; i++)
				mat += (size_t)snprintf(modes + mat,
					sizeof(modes) - mat, "%s%s",
					i ? "," : "",
					hs_mode_name(b->modes[i]));
			at = insmod_param(cmd, sizeof(cmd), at, "modes", modes,
					  "throughput,latency");
		}
		snprintf(num, sizeof(num), "%lu", b->iterations);
		at = insmod_param(cmd, sizeof(cmd), at, "iterations", num,
				  "10000000");
		snprintf(num, sizeof(num), "%lu", b->invocations);
		at = insmod_param(cmd, sizeof(cmd), at, "runs", num, "10");
		snprintf(num, sizeof(num), "%llu", (unsigned long long)b->seed);
		insmod_param(cmd, sizeof(cmd), at, "seed", num, NULL);
		wrap_command(f, "$ ", cmd);
		wrap_command(f, "$ ", di ?
			     "cat /sys/kernel/debug/hotscore/results >> r.jsonl" :
			     "cat /sys/kernel/debug/hotscore/results > r.jsonl");
		wrap_command(f, "$ ", "rmmod hotscore");
	}
	wrap_command(f, "$ ", "hotscore bench --import r.jsonl");
}

/* The cells of one result in the commit block. */
struct commit_row {
	const char *name;
	char ns[32], cyc[32], ratio[48];
	const char *unit, *verdict;
};

static void commit_row(struct bench *b, const struct bench_result *r,
		       struct commit_row *c)
{
	char buf[32];

	c->name = r->name;
	c->unit = per_region(r) ? "ns/r" : "ns";
	c->verdict = "";
	snprintf(c->ns, sizeof(c->ns), "%s", r->ns.n ?
		 sig3(buf, sizeof(buf), bench_ns(b, r->ns.median)) : "-");
	snprintf(c->cyc, sizeof(c->cyc), r->ns.n ? "%.1f" : "-",
		 tsc_cycles(r->ns.median));
	if (r->baseline) {
		snprintf(c->ratio, sizeof(c->ratio), "baseline");
	} else if (r->verdict == HS_UNDECIDED) {
		snprintf(c->ratio, sizeof(c->ratio), "%s, too few rounds",
			 r->rounds ? sig3(buf, sizeof(buf), bench_ppm(r->ratio)) :
			 "-");
	} else {
		sig3_range(c->ratio, sizeof(c->ratio), bench_ppm(r->ratio),
			   bench_ppm(r->ci_low), bench_ppm(r->ci_high), ", ");
		c->verdict = r->check == HS_CHECK_OK ? verdict_of(r) :
			     r->check == HS_CHECK_AT_BASELINE ? "at-base" :
			     "DCE?";
	}
}

/*
 * "  NAME  8.00 ns  20.0 cyc  1.652 [1.641, 1.661] faster", the columns as
 * wide as their widest cell.  What would pass 72 columns wraps: a name
 * wider than NAME_MAX above its figures, a verdict below its ratio.
 */
#define COMMIT_NAME_MAX 20

static void commit_rows(struct bench *b, FILE *f, unsigned int di,
			unsigned int mi, const size_t *w)
{
	unsigned int v;

	for (v = 1; v <= b->nr_variants; v++) {
		struct commit_row c;
		char line[256];
		int n, ratio_col;

		commit_row(b, bench_at(b, di, mi, v), &c);
		if (strlen(c.name) > w[0]) {
			fputs("  ", f);
			wrap(f, c.name, 2, COMMIT_WIDTH);
		}
		n = snprintf(line, sizeof(line), "  %-*s  %*s %-*s", (int)w[0],
			     strlen(c.name) > w[0] ? "" : c.name, (int)w[1],
			     c.ns, (int)w[2], c.unit);
		if (b->host.clock.tsc)
			n += snprintf(line + n, sizeof(line) - (size_t)n,
				      "  %*s cyc", (int)w[3], c.cyc);
		ratio_col = n + 2;
		n += snprintf(line + n, sizeof(line) - (size_t)n, "  %s",
			      c.ratio);
		if (*c.verdict && n + 1 + strlen(c.verdict) <= COMMIT_WIDTH)
			fprintf(f, "%s %s\n", line, c.verdict);
		else if (*c.verdict)
			fprintf(f, "%s\n%*s%s\n", line, ratio_col, "",
				c.verdict);
		else
			fprintf(f, "%s\n", line);
	}
}

/*
 * Below a table: the empty call's cost, which every ratio includes, and
 * each variant's ratio net of it.
 */
static void commit_net(struct bench *b, FILE *f, unsigned int di,
		       unsigned int mi)
{
	const struct bench_result *e = bench_at(b, di, mi, 0);
	char text[4096], v[32], range[96];
	size_t at;
	unsigned int k;

	if (!e->ns.n)
		return;
	at = (size_t)snprintf(text, sizeof(text), "  Net of the %s ns empty"
			      " call:", sig3(v, sizeof(v), bench_ns(b,
			      e->ns.median)));
	for (k = 2; k <= b->nr_variants && at < sizeof(text); k++) {
		const struct bench_result *r = bench_at(b, di, mi, k);
		const struct hs_estimate *n = &r->cells.net;

		if (!n->value)
			continue;
		if (n->low || n->high)
			sig3_range(range, sizeof(range), bench_ppm(n->value),
				   bench_ppm(n->low), bench_ppm(n->high), ", ");
		else
			sig3(range, sizeof(range), bench_ppm(n->value));
		at += (size_t)snprintf(text + at, sizeof(text) - at, "%s %s %s",
				       k > 2 ? "," : "", r->name, range);
	}
	if (at < sizeof(text))
		snprintf(text + at, sizeof(text) - at, ".");
	wrap(f, text, 4, COMMIT_WIDTH);
}

/* The first paragraph: how and where the figures were measured. */
static void commit_intro(const struct bench *b, FILE *f)
{
	const struct hs_host *h = &b->host;
	char text[8192];

	if (b->import)	/* hotscore.ko's samples: no CPU number, no compiler */
		snprintf(text, sizeof(text), "Measured in hotscore.ko on CPU %s,"
			 " Linux %s, preemption and interrupts off per batch:"
			 " %lu calls x %lu %s per variant, timed in N/2N batches"
			 " with the timer cancelled, paired and interleaved; %s;"
			 " built by Kbuild.  Intervals: %s.", h->cpu_model,
			 h->kernel, b->iterations, b->invocations,
			 plural(b->invocations, "run", "runs"), h->clock.tsc ?
			 "cycles are TSC-derived" : h->clock.name,
			 interval_kind(b));
	else
		snprintf(text, sizeof(text), "Measured with hotscore bench: %lu"
			 " %s x %lu code %s x %zu paired %s per function, timed"
			 " in N/2N batches with the timer cancelled; %s; CPU %d"
			 " of %s%s, Linux %s, %s.  Intervals: %s.",
			 b->invocations,
			 plural(b->invocations, "invocation", "invocations"),
			 b->placements, plural(b->placements, "placement",
					       "placements"), b->rounds,
			 plural(b->rounds, "round", "rounds"), h->clock.tsc ?
			 "cycles are TSC-derived" : h->clock.name, h->cpu,
			 h->cpu_model, h->hypervisor ? " (VM)" : "", h->kernel,
			 b->compiler, interval_kind(b));
	wrap(f, text, 0, COMMIT_WIDTH);
}

/* @w: the widths of the rows' columns, shared by every table. */
static void commit_widths(struct bench *b, size_t *w)
{
	unsigned int nr = b->nr_dists * b->nr_modes * (b->nr_variants + 1);
	unsigned int i;

	for (i = 0; i < nr; i++) {
		struct commit_row c;
		const struct bench_result *r = &b->results[i];

		if (!r->variant)
			continue;
		commit_row(b, r, &c);
		if (strlen(c.name) > w[0] && strlen(c.name) <= COMMIT_NAME_MAX)
			w[0] = strlen(c.name);
		if (strlen(c.ns) > w[1])
			w[1] = strlen(c.ns);
		if (strlen(c.unit) > w[2])
			w[2] = strlen(c.unit);
		if (strlen(c.cyc) > w[3])
			w[3] = strlen(c.cyc);
	}
}

/* Below the tables: per-region costs, and samples left out as noise. */
static void commit_notes(const struct bench *b, FILE *f)
{
	unsigned int nr = b->nr_dists * b->nr_modes * (b->nr_variants + 1);
	size_t excluded = 0, samples = 0;
	char text[512];
	unsigned int v, i;

	for (i = 0; i < nr; i++) {
		excluded += b->results[i].nonpositive;
		samples += b->results[i].n;
	}
	for (v = 0; v < b->nr_variants; v++)
		if (hs_variant_regions(b->variants[v]) > 1) {
			fprintf(f, "\nns/r: per region of a %u-region batch.\n",
				HS_BATCH_REGIONS);
			break;
		}
	if (excluded) {
		snprintf(text, sizeof(text), "%zu of %zu samples measured 0 (the"
			 " 2N batch took no longer than the N batch: noise) and"
			 " are left out of the figures.", excluded, samples);
		fputc('\n', f);
		wrap(f, text, 0, COMMIT_WIDTH);
	}
}

/** bench_print_commit() - a block of at most 72 columns for a commit. */
void bench_print_commit(struct bench *b, FILE *f)
{
	size_t w[4] = { 0, 0, 2, 0 };
	char text[8192];
	unsigned int di, mi;

	commit_intro(b, f);
	commit_widths(b, w);
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++) {
			snprintf(text, sizeof(text), "%s inputs, %s (ratio = %s"
				 " time / variant time):",
				 commit_dist(&b->dists[di]),
				 hs_mode_name(b->modes[mi]),
				 b->variants[0]->name);
			fputc('\n', f);
			wrap(f, text, 0, COMMIT_WIDTH);
			commit_rows(b, f, di, mi, w);
			commit_net(b, f, di, mi);
		}
	commit_notes(b, f);
	fputc('\n', f);
	if (b->import) {
		commit_insmod(b, f);
		return;
	}
	commit_command(b, text, sizeof(text));
	wrap_command(f, "$ ", text);
}

/*
 * The JSON report is built as a jansson tree and dumped whole: jansson
 * writes every key, comma and escape, so no writer here spells one.
 */

/* ns figures: 4 decimals of a nanosecond. */
static json_t *jns(const struct bench *b, uint64_t mt)
{
	return hs_json_fixed(bench_ns(b, mt), 4);
}

static json_t *json_ns_stats(const struct bench *b, const struct hs_summary *s)
{
	if (!s->n)	/* every sample measured 0 */
		return json_pack("{s:n,s:n,s:n,s:n,s:n,s:n,s:n}", "median",
				 "min", "max", "q1", "q3", "mad", "tmean_20_80");
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
			 "median", jns(b, s->median), "min", jns(b, s->min),
			 "max", jns(b, s->max), "q1", jns(b, s->q1),
			 "q3", jns(b, s->q3), "mad", jns(b, s->mad),
			 "tmean_20_80", jns(b, s->tmean));
}

/* The machine, as measured or as the module's results give it. */
static json_t *json_environment(const struct bench *b)
{
	const struct hs_host *h = &b->host;

	return json_pack("{s:o,s:i,s:b,s:o,s:o,s:o,s:b,s:o,s:o,s:b,s:b,s:b,"
			 "s:o,s:o,s:o,s:o,s:o,s:o}",
			 "cpu_model", hs_json_text(h->cpu_model), "cpu", h->cpu,
			 "hypervisor", h->hypervisor,
			 "governor", hs_json_text(h->governor),
			 "clock", hs_json_text(h->clock.name),
			 "clock_hz", hs_json_u64(h->clock.hz), "tsc", h->clock.tsc,
			 "tsc_hz", h->clock.tsc ? hs_json_u64(h->clock.hz) : json_null(),
			 "clock_step_ticks", hs_json_u64(h->clock.step),
			 "invariant_tsc", h->invariant_tsc,
			 "aslr", b->layout == HS_LAYOUT_RANDOM,
			 "reexecuted", b->layout == HS_LAYOUT_REEXECUTED,
			 "counters", hs_json_text(h->perf), "kernel", hs_json_text(h->kernel),
			 "compiler", hs_json_text(b->compiler),
			 "cflags", hs_json_text(b->cflags),
			 /* what fast-batch scores with, and the flags around it */
			 "vector", hs_json_text(b->vector.impl),
			 "cpu_flags", hs_json_text(b->vector.flags));
}

static json_t *json_config(const struct bench *b)
{
	json_t *v = json_array(), *d = json_array(), *m = json_array();
	unsigned int i;

	for (i = 0; i < b->nr_variants; i++)
		json_array_append_new(v, hs_json_text(b->variants[i]->name));
	for (i = 0; i < b->nr_dists; i++)
		json_array_append_new(d, hs_json_text(b->dists[i].name));
	for (i = 0; i < b->nr_modes; i++)
		json_array_append_new(m, json_string(hs_mode_name(b->modes[i])));
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:f,s:b,s:o,s:o,s:o,s:s,s:i,s:o,s:o,s:o,s:o}",
			 "iterations", hs_json_u64(b->iterations),
			 "measure_ns", hs_json_u64(b->blocks_ns),
			 "rounds_ns", hs_json_u64(b->stream_ns),
			 "invocations", hs_json_u64(b->invocations),
			 "placements", hs_json_u64(b->placements),
			 "rounds", hs_json_u64(b->rounds),
			 "warmup_us", hs_json_u64(b->warmup_us),
			 "drift_percent", (double)b->drift_bp / 100,
			 "module_blocks", b->module_blocks,
			 "batch_n", hs_json_u64(b->n),
			 "pool", hs_json_u64(b->pool), "seed", hs_json_u64(b->seed),
			 "method", b->ktime ? "ktime" : "batch",
			 "batch_regions", HS_BATCH_REGIONS,
			 "prepared_bytes", hs_json_u64(sizeof(struct hs_prep)),
			 "variants", v, "dists", d, "modes", m);
}

static json_t *json_classes(const struct bench *b,
			    const struct bench_result *r)
{
	json_t *classes = json_array();
	uint64_t total = 0;
	unsigned int c;
	char name[64];

	for (c = 0; c < r->cls->nr; c++) {
		total += r->cls->c[c].count;
		hs_class_name(r->cls->c[c].key, name, sizeof(name));
		json_array_append_new(classes, json_pack("{s:o,s:o,s:o}",
			"class", hs_json_text(name), "count", hs_json_u64(r->cls->c[c].count),
			"ns_per_call", jns(b, r->cls_mt[c])));
	}
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
			 "iterations", hs_json_u64(total),
			 "average_ns", jns(b, r->cls_mean),
			 "p95_ns", jns(b, r->cls_p95), "p99_ns", jns(b, r->cls_p99),
			 "min_ns", jns(b, r->cls_min), "max_ns", jns(b, r->cls_max),
			 "classes", classes);
}

static json_t *json_ktime(const struct bench_ktime *k)
{
	json_t *buckets = json_array();
	unsigned int i;

	for (i = 0; i < BENCH_KTIME_BUCKETS; i++)
		json_array_append_new(buckets, hs_json_u64(k->buckets[i]));
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
			 "average_ns", hs_json_fixed((double)k->average_ns_x1000 / 1000, 3),
			 "p95_ns", hs_json_u64(k->p95_ns), "p99_ns", hs_json_u64(k->p99_ns),
			 "min_ns", hs_json_u64(k->min_ns), "max_ns", hs_json_u64(k->max_ns),
			 "samples", hs_json_u64(k->samples), "buckets", buckets);
}

/* TSC cycles a call; null where the clock is no TSC or no sample was above 0. */
static json_t *json_cycles(const struct bench *b, const struct bench_result *r)
{
	if (!b->host.clock.tsc)
		return json_pack("{s:n,s:n}", "median", "source");
	if (!r->ns.n)
		return json_pack("{s:n,s:n,s:n,s:s}", "median", "min", "max",
				 "source", "tsc");
	return json_pack("{s:o,s:o,s:o,s:s}",
			 "median", hs_json_fixed(tsc_cycles(r->ns.median), 3),
			 "min", hs_json_fixed(tsc_cycles(r->ns.min), 3),
			 "max", hs_json_fixed(tsc_cycles(r->ns.max), 3), "source", "tsc");
}

static json_t *json_result(const struct bench *b,
			   const struct bench_result *r)
{
	json_t *o = json_pack("{s:o,s:o,s:s,s:s,s:o,s:o,s:i}",
		"variant", hs_json_text(r->name), "dist", hs_json_text(b->dists[r->dist].name),
		"mode", hs_mode_name(r->mode),
		"role", !r->variant ? "empty-call baseline" :
			r->baseline ? "baseline" : "variant",
		"samples", hs_json_u64(r->n), "nonpositive_samples", hs_json_u64(r->nonpositive),
		"regions_per_call", r->variant ? hs_variant_regions(r->variant) : 1);

	if (r->variant && r->variant->vector)	/* what fast-batch used here */
		json_object_set_new(o, "vector", json_string(hs_fast_impl_name(
			b->dists[r->dist].calls[variant_index(b, r)].impl)));
	json_object_set_new(o, "ns_per_call", json_ns_stats(b, &r->ns));
	json_object_set_new(o, "cycles_per_call", json_cycles(b, r));
	json_object_set_new(o, "counters", !r->counters ? json_null() :
		json_pack("{s:o,s:o}",
			  "cycles", hs_json_fixed((double)r->cycles_median / 1000, 3),
			  "instructions", hs_json_fixed((double)r->ins_median / 1000, 3)));
	json_object_set_new(o, "scale_2n_over_n",
			    hs_json_fixed((double)r->scale_median / 1000, 3));
	json_object_set_new(o, "check", hs_json_text(check_of(r)));
	if (r->variant && r->cls)
		json_object_set_new(o, "seed_report", json_classes(b, r));
	if (r->has_ktime)
		json_object_set_new(o, "ktime", json_ktime(&r->ktime));
	return o;
}

/* Variant @r against the first, paired: the ratio and its interval. */
/* A ratio and its interval, or nulls for what is not there. */
static json_t *json_estimate(const struct hs_estimate *e)
{
	bool interval = e->low || e->high;

	return json_pack("{s:o,s:o,s:o}", "value", e->value ?
			 hs_json_fixed(bench_ppm(e->value), 6) : json_null(),
			 "low", interval ? hs_json_fixed(bench_ppm(e->low), 6) :
			 json_null(), "high", interval ?
			 hs_json_fixed(bench_ppm(e->high), 6) : json_null());
}

/* The variance components as standard deviations, ppm of the ratio. */
static json_t *json_components(const struct hs_cell_stats *cs)
{
	return json_pack("{s:f,s:f,s:f,s:f,s:f}",
		"placement", sqrt((double)cs->var_placement) / (double)HS_PPM,
		"invocation", sqrt((double)cs->var_block) / (double)HS_PPM,
		"interaction", sqrt((double)cs->var_residual) / (double)HS_PPM,
		"rounds", sqrt((double)cs->var_within) / (double)HS_PPM,
		"round", sqrt((double)cs->var_round) / (double)HS_PPM);
}

/* The blocks unlike the rest, 1-based, of the first 64. */
static json_t *json_outliers(const struct hs_cell_stats *cs)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < 64; i++)
		if (cs->outliers & (1ULL << i))
			json_array_append_new(a, json_integer(i + 1));
	return a;
}

/*
 * A comparison: ratio, ci_low and ci_high are the printed estimate and
 * interval (kept under these names for earlier readers); "interval" says
 * what the interval is of.
 */
static json_t *json_comparison(const struct bench *b,
			       const struct bench_result *r)
{
	const struct hs_cell_stats *cs = &r->cells;
	bool interval = r->ci_low || r->ci_high;

	return json_pack("{s:o,s:o,s:o,s:s,s:o,s:o,s:o,s:s,s:f,s:o,s:f,s:s,s:o,s:o,s:i,s:o,s:o}",
		"baseline", hs_json_text(b->variants[0]->name), "variant", hs_json_text(r->name),
		"dist", hs_json_text(b->dists[r->dist].name), "mode", hs_mode_name(r->mode),
		/* no round to compare: no ratio */
		"ratio", r->rounds ? hs_json_fixed(bench_ppm(r->ratio), 6) : json_null(),
		"ci_low", interval ? hs_json_fixed(bench_ppm(r->ci_low), 6) : json_null(),
		"ci_high", interval ? hs_json_fixed(bench_ppm(r->ci_high), 6) : json_null(),
		"interval", interval_kind(b),
		"confidence", 0.95, "rounds", hs_json_u64(r->rounds),
		"noise_band", 0.01, "verdict", hs_verdict_name(r->verdict),
		"net", json_estimate(&cs->net),
		"empty_ns", jns(b, empty_of(b, r)->ns.median),
		"kj_rounds", (int)kj_rounds(b, r),
		"components", json_components(cs),
		"unlike_the_rest", json_outliers(cs));
}

/* Every (dist, mode, variant) result, and every paired comparison. */
static void json_results(const struct bench *b, json_t *results,
			 json_t *comparisons)
{
	unsigned int di, mi, v;

	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			for (v = 0; v <= b->nr_variants; v++)
				json_array_append_new(results, json_result(b,
					bench_at((struct bench *)b, di, mi, v)));
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			for (v = 2; v <= b->nr_variants; v++)
				json_array_append_new(comparisons,
					json_comparison(b, bench_at(
						(struct bench *)b, di, mi, v)));
}

/** bench_write_json() - every figure, the configuration and the machine. */
void bench_write_json(struct bench *b, FILE *f)
{
	json_t *results = json_array(), *comparisons = json_array();
	json_t *root;

	json_results(b, results, comparisons);
	root = json_pack("{s:s,s:i,s:o,s:o,s:o,s:o,s:o}",
			 "tool", "hotscore bench", "schema", 1,
			 "command", hs_json_text(b->command),
			 "environment", json_environment(b),
			 "config", json_config(b),
			 "results", results, "comparisons", comparisons);
	if (!root)
		cli_die("out of memory");
	if (b->accuracy && b->core_hz)
		json_object_set_new(root, "accuracy", json_pack("{s:i,s:o,s:o}",
			"add_chain", HS_ADD_CHAIN_LEN,
			"core_hz", hs_json_u64(b->core_hz),
			"cycles_per_add", hs_json_fixed(bench_ppm(b->add_ppm), 4)));
	hs_json_write_doc(f, root, JSON_COMPACT);
}

/* The ratio, interval and verdict columns: empty for baselines' figures. */
static void csv_comparison(const struct bench_result *r, FILE *f)
{
	if (r->variant && !r->baseline && r->verdict == HS_UNDECIDED)
		fprintf(f, "%s,,,%s,", r->rounds ? ratio_or_dash(r, 6) : "",
			hs_verdict_name(r->verdict));
	else if (r->variant && !r->baseline)
		fprintf(f, "%.6f,%.6f,%.6f,%s,", bench_ppm(r->ratio),
			bench_ppm(r->ci_low), bench_ppm(r->ci_high),
			hs_verdict_name(r->verdict));
	else
		fprintf(f, "%s,,,%s,", r->variant ? "1" : "",
			r->variant ? "baseline" : "");
}

static void csv_row(const struct bench *b, const struct bench_result *r,
		    FILE *f)
{
	fprintf(f, "%s,", r->name);
	cli_csv_field(f, b->dists[r->dist].name);
	fprintf(f, ",%s,%zu,", hs_mode_name(r->mode), r->n);
	if (r->ns.n)	/* else every sample was 0 */
		fprintf(f, "%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,",
			bench_ns(b, r->ns.median), bench_ns(b, r->ns.min),
			bench_ns(b, r->ns.max), bench_ns(b, r->ns.q1),
			bench_ns(b, r->ns.q3), bench_ns(b, r->ns.mad),
			bench_ns(b, r->ns.tmean));
	else
		fputs(",,,,,,,", f);
	if (b->host.clock.tsc && r->ns.n)
		fprintf(f, "%.3f,", tsc_cycles(r->ns.median));
	else
		fputs(",", f);
	csv_comparison(r, f);
	fprintf(f, "%s,", r->variant ? (r->check == HS_CHECK_AT_BASELINE ?
		"at-baseline" : r->check ? "optimized-away" : "ok") :
		"empty-call baseline");
	if (r->variant && r->cls)
		fprintf(f, "%.4f,%.4f,%.4f,", bench_ns(b, r->cls_mean),
			bench_ns(b, r->cls_p95), bench_ns(b, r->cls_p99));
	else
		fputs(",,,", f);
	fprintf(f, "%u,%zu\n", r->variant ? hs_variant_regions(r->variant) : 1,
		r->nonpositive);
}

/** bench_write_csv() - one row per (variant, distribution, mode). */
void bench_write_csv(struct bench *b, FILE *f)
{
	unsigned int di, mi, v;

	fputs("variant,dist,mode,samples,ns_median,ns_min,ns_max,ns_q1,ns_q3,"
	      "ns_mad,ns_tmean,tsc_cycles_median,ratio,ci_low,ci_high,verdict,"
	      "check,class_mean_ns,class_p95_ns,class_p99_ns,regions_per_call,"
	      "nonpositive_samples\n",
	      f);
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			for (v = 0; v <= b->nr_variants; v++)
				csv_row(b, bench_at(b, di, mi, v), f);
}

/* The smallest step of 1, 2 or 5 x 10^k giving at most 10 ticks. */
static double axis_step(double max)
{
	static const double steps[] = { 1, 2, 5 };
	double mag = 0.001;
	unsigned int i;

	for (;;) {
		for (i = 0; i < 3; i++)
			if (max / (steps[i] * mag) <= 10)
				return steps[i] * mag;
		mag *= 10;
	}
}

/* The plot's geometry: the axis from 0 to @max ns over the plot's width. */
struct svg_plot {
	double left, right, width, rh, top, max;
	unsigned int rows;
};

static const double SVG_LEFT = 260, SVG_RIGHT = 40, SVG_WIDTH = 960,
		    SVG_ROW = 26, SVG_TOP = 50;

/* The x of @ns on the axis. */
static double svg_x(const struct svg_plot *p, double ns)
{
	return p->left + ns / p->max * (p->width - p->left - p->right);
}

/* The title, the grid with its tick labels, and the axis' name. */
static void svg_frame(const struct bench *b, const struct svg_plot *p,
		      double step, FILE *f)
{
	double x, bottom = p->top + p->rows * p->rh;

	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		"<text x=\"10\" y=\"20\" font-size=\"14\">hotscore bench: ns per"
		" call (box: quartiles, bar: median, whiskers: min-max of %zu"
		" paired samples; diamond: class-weighted mean)</text>\n",
		p->width, bottom + 50, b->results[0].n);
	for (x = 0; x <= p->max + step / 2; x += step)
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\""
			" stroke=\"#ddd\"/><text x=\"%.1f\" y=\"%.0f\" "
			"text-anchor=\"middle\">%g</text>\n", svg_x(p, x),
			p->top - 10, svg_x(p, x), bottom, svg_x(p, x),
			bottom + 16, x);
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">ns per"
		" call (batches: per region)</text>\n",
		(p->left + p->width - p->right) / 2, bottom + 34);
}

/* A row's label, "<" and "&" escaped for SVG. */
static void svg_label(const struct bench *b, const struct bench_result *r,
		      double y, FILE *f)
{
	char label[200];

	snprintf(label, sizeof(label), "%s%s | %s | %s", r->name,
		 per_region(r) ? " (per region)" : "", b->dists[r->dist].name,
		 hs_mode_name(r->mode));
	fputs("<text x=\"10\" y=\"", f);
	fprintf(f, "%.1f\">", y + 4);
	for (const char *q = label; *q; q++)
		if (*q == '<')
			fputs("&lt;", f);
		else if (*q == '&')
			fputs("&amp;", f);
		else
			fputc(*q, f);
	fputs("</text>\n", f);
}

/* One result's box plot, centred on @y. */
static void svg_box(const struct bench *b, const struct svg_plot *p,
		    const struct bench_result *r, double y, FILE *f)
{
	if (!r->ns.n)	/* every sample was 0 */
		return;
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\""
		" stroke=\"black\"/>\n", svg_x(p, bench_ns(b, r->ns.min)), y,
		svg_x(p, bench_ns(b, r->ns.max)), y);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\""
		" fill=\"%s\" stroke=\"black\"/>\n",
		svg_x(p, bench_ns(b, r->ns.q1)), y - 8,
		svg_x(p, bench_ns(b, r->ns.q3)) -
		svg_x(p, bench_ns(b, r->ns.q1)) + 0.5, 16.0,
		r->variant ? "#9ecae1" : "#ddd");
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\""
		" stroke=\"#b00\" stroke-width=\"2\"/>\n",
		svg_x(p, bench_ns(b, r->ns.median)), y - 9,
		svg_x(p, bench_ns(b, r->ns.median)), y + 9);
	if (r->variant && r->cls)
		fprintf(f, "<path d=\"M%.1f %.1fl4 4l-4 4l-4 -4z\""
			" fill=\"#060\"/>\n",
			svg_x(p, bench_ns(b, r->cls_mean)), y - 4);
}

/** bench_write_svg() - box plots of the per-call cost, one row each. */
void bench_write_svg(struct bench *b, FILE *f)
{
	struct svg_plot p = { SVG_LEFT, SVG_RIGHT, SVG_WIDTH, SVG_ROW, SVG_TOP,
			      0, b->nr_dists * b->nr_modes * (b->nr_variants + 1) };
	unsigned int di, mi, v, row = 0;
	double step;

	for (v = 0; v < p.rows; v++)
		if (bench_ns(b, b->results[v].ns.max) > p.max)
			p.max = bench_ns(b, b->results[v].ns.max);
	step = axis_step(p.max);
	p.max = step * (double)(unsigned long)(p.max / step + 1);
	svg_frame(b, &p, step, f);
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			for (v = 0; v <= b->nr_variants; v++, row++) {
				const struct bench_result *r =
					bench_at(b, di, mi, v);
				double y = p.top + row * p.rh + p.rh / 2;

				svg_label(b, r, y, f);
				svg_box(b, &p, r, y, f);
			}
	fputs("</svg>\n", f);
}
