// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_bench.c - `hotscore bench`: the DAMON Perf Test, measured honestly.
 *
 * For each distribution and mode, every variant and an empty function run in
 * paired, interleaved rounds (engine: src/bench/engine.c); the inputs are
 * then grouped into classes of equal cost and each class is timed in
 * batches, which gives the per-call distribution the seed's table shows
 * without timing any call alone.  Reporting is in bench_report.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hotscore/cand.h>
#include <hotscore/spec.h>
#include <hotscore/verify.h>

#include "bench_compare.h"
#include "bench_report.h"
#include "cmd_bench.h"
#include "cli.h"
#include "opt.h"
#include "outfile.h"

#define DEFAULT_VARIANTS "loop,fls,ilog2"
#define DEFAULT_MODES "throughput,latency"
#define DEFAULT_ITERATIONS "10000000"
#define DEFAULT_PLACEMENTS "4"
#define DEFAULT_WARMUP "250ms"
#define DEFAULT_WARMUP_US 250000
/* the budget's defaults: docs/bench.md, "Budget" */
#define DEFAULT_BUDGET "60s"
#define DEFAULT_BUDGET_US 60000000ULL
#define DEFAULT_PRECISION "1%"
#define DEFAULT_PRECISION_PPM 10000ULL
/* beyond what a branch predictor learns: docs/bench.md, "Pools" */
#define DEFAULT_POOL "16384"
#define MAX_INVOCATIONS 1000UL
#define MAX_ITERATIONS 1000000000UL
/* enough rounds for a CI; more only cost memory and bootstrap time */
#define MAX_ROUNDS_PER_RUN 256UL
#define MIN_ITERATIONS 10000UL
/* N covers the pool up to this many inputs (a file's rows can be more) */
#define MAX_POOL_N (1UL << 20)

enum { O_PROFILE, O_DIST, O_MODE, O_ITER, O_INVOCATIONS, O_PLACEMENTS,
       O_WARMUP, O_BUDGET, O_PRECISION, O_BATCH, O_POOL, O_SEED, O_ORDER_SEED,
       O_CPU, O_CLOCK, O_METHOD, O_ACCURACY, O_FIXED_LAYOUT, O_FORMAT, O_JSON,
       O_CSV, O_SVG, O_IMPORT, O_LIST, O_LIST_DISTS, O_AGAINST, O_BASE,
       O_CALL_LIMIT, O_ALLOW_DIFFERENT };

/* Everything that chooses what is measured: not for --import. */
#define MEASURE OPT_NOIMPORT

static const struct opt bench_opts[] = {
	{ .id = O_PROFILE, .name = "profile", .old = "variants",
	  .type = OPT_LIST, .arg = "LIST", .dflt = DEFAULT_VARIANTS,
	  .flags = MEASURE | OPT_CANDS, .words = "@variants",
	  .help = "what to time: profiles and variants (--list-profiles),"
		  " FREQ+DIVISOR+AGE+CLAMP combinations, candidate files"
		  " (./mine.c, NAME=./mine.c); the first is the baseline",
	  .example = "loop,fls" },
	{ .id = O_AGAINST, .name = "against", .type = OPT_STR,
	  .arg = "PROFILE", .dflt = "the first profile of --profile, else"
	  " hotfix", .flags = MEASURE, .words = "@profiles",
	  .help = "what a candidate must equal on verify's edge set before"
		  " it is timed", .example = "hotfix" },
	{ .id = O_ALLOW_DIFFERENT, .name = "allow-different",
	  .type = OPT_FLAG, .flags = MEASURE,
	  .help = "time a candidate that differs from --against too, labelled"
		  " with how many inputs it differs on" },
	CLI_BASE_OPT(O_BASE, "--against", MEASURE, NULL),
	CLI_CALL_LIMIT_OPT(O_CALL_LIMIT, MEASURE, NULL),
	{ .id = O_DIST, .name = "dist", .type = OPT_LIST, .arg = "LIST",
	  .dflt = "seed", .flags = MEASURE | OPT_INPUT,
	  .words = "seed uniform young zero worst file:",
	  .help = "input distributions: seed, uniform, young, zero, worst,"
		  " file:PATH (a CSV as `hotscore score --input FILE` reads)",
	  .example = "uniform,young" },
	{ .id = O_MODE, .name = "mode", .old = "modes", .type = OPT_LIST,
	  .arg = "LIST", .dflt = DEFAULT_MODES, .flags = MEASURE,
	  .words = "throughput latency",
	  .help = "throughput (independent calls), latency (each call waits"
		  " for the last)", .example = "throughput" },
	{ .id = O_ITER, .name = "iterations", .type = OPT_COUNT, .arg = "N",
	  .dflt = DEFAULT_ITERATIONS, .min = MIN_ITERATIONS,
	  .max = MAX_ITERATIONS, .flags = MEASURE,
	  .help = "calls per variant per invocation, over its placements",
	  .example = "100000" },
	{ .id = O_INVOCATIONS, .name = "invocations", .old = "runs",
	  .type = OPT_COUNT, .arg = "K",
	  .dflt = "as --budget and --precision decide, 12 to 100",
	  .min = 1, .max = MAX_INVOCATIONS, .flags = MEASURE,
	  .help = "exactly K separate processes, one after another; the"
		  " intervals are over them (1: this process only)",
	  .example = "20" },
	{ .id = O_BUDGET, .name = "budget", .type = OPT_TIME, .arg = "TIME",
	  .dflt = DEFAULT_BUDGET, .min = 1000000, .max = 3600000000ULL,
	  .flags = MEASURE,
	  .help = "without --invocations: the most time the run may take",
	  .example = "2m" },
	{ .id = O_PRECISION, .name = "precision", .type = OPT_RATE,
	  .arg = "PCT", .dflt = DEFAULT_PRECISION, .flags = MEASURE,
	  .help = "without --invocations: add invocations until every"
		  " confidence interval's half-width is at most PCT of its"
		  " ratio", .example = "0.5%" },
	{ .id = O_PLACEMENTS, .name = "placements", .type = OPT_COUNT,
	  .arg = "P", .dflt = DEFAULT_PLACEMENTS, .min = 1,
	  .max = HS_NR_PLACEMENTS, .flags = MEASURE,
	  .help = "copies of each timed function at other entry offsets mod"
		  " 64, a fixed factor of every interval", .example = "1" },
	{ .id = O_WARMUP, .name = "warmup", .type = OPT_TIME, .arg = "TIME",
	  .dflt = DEFAULT_WARMUP, .min = 0, .max = 60000000,
	  .flags = MEASURE,
	  .help = "untimed calls of every function before an invocation's"
		  " rounds, per distribution and mode", .example = "1s" },
	{ .id = O_BATCH, .name = "batch", .type = OPT_COUNT, .arg = "N",
	  .dflt = "8192", .min = 16, .max = 1UL << 24, .flags = MEASURE,
	  .help = "N of the N/2N differenced batches (raised to span 1000"
		  " clock steps)", .example = "4096" },
	{ .id = O_POOL, .name = "pool", .type = OPT_COUNT, .arg = "N",
	  .dflt = DEFAULT_POOL, .min = 1, .max = 1UL << 20, .flags = MEASURE,
	  .help = "inputs cycled over, as regions in a context",
	  .example = "4096" },
	{ .id = O_SEED, .name = "seed", .type = OPT_COUNT, .arg = "N",
	  .dflt = "1", .flags = MEASURE, .help = "seed of the inputs",
	  .example = "7" },
	{ .id = O_ORDER_SEED, .name = "order_seed", .type = OPT_COUNT,
	  .arg = "N", .dflt = "drawn fresh each run (getrandom), or --seed's"
	  " when --seed is given", .flags = MEASURE,
	  .help = "seed of the invocations' orders, padding, pool offsets"
		  " and the intervals' bootstraps; printed in every format so"
		  " the run can be repeated", .example = "12345" },
	{ .id = O_CPU, .name = "cpu", .type = OPT_COUNT, .arg = "N",
	  .dflt = "the current one", .max = 4095, .flags = MEASURE,
	  .help = "pin to CPU N", .example = "0" },
	{ .id = O_CLOCK, .name = "clock", .type = OPT_STR, .arg = "C",
	  .dflt = "auto", .flags = MEASURE, .words = "auto gettime",
	  .help = "auto (the TSC or cntvct) or gettime", .example = "gettime" },
	{ .id = O_METHOD, .name = "method", .type = OPT_STR, .arg = "M",
	  .dflt = "batch", .flags = MEASURE, .words = "batch ktime",
	  .help = "batch, or ktime: also the seed's single-call timing",
	  .example = "ktime" },
	{ .id = O_ACCURACY, .name = "accuracy", .type = OPT_FLAG,
	  .flags = MEASURE,
	  .help = "also time a chain of dependent adds (cycles per add)" },
	{ .id = O_FIXED_LAYOUT, .name = "fixed-layout", .type = OPT_FLAG,
	  .flags = MEASURE,
	  .help = "measure every invocation with address-space randomization"
		  " off (one layout; by default each invocation gets its own)" },
	{ .id = O_FORMAT, .name = "format", .type = OPT_STR, .arg = "F",
	  .dflt = "text", .flags = OPT_OUTPUT, .words = "text commit markdown",
	  .help = "text, commit (a block for a commit message) or markdown",
	  .example = "commit" },
	{ .id = O_JSON, .name = "json", .type = OPT_STR, .arg = "FILE",
	  .flags = OPT_OUTPUT | OPT_WRITE, .words = "@file",
	  .help = "every figure and the environment (docs/bench.md)",
	  .example = "r.json" },
	{ .id = O_CSV, .name = "csv", .type = OPT_STR, .arg = "FILE",
	  .flags = OPT_OUTPUT | OPT_WRITE, .words = "@file",
	  .help = "one row per variant, distribution and mode",
	  .example = "r.csv" },
	{ .id = O_SVG, .name = "svg", .type = OPT_STR, .arg = "FILE",
	  .flags = OPT_OUTPUT | OPT_WRITE, .words = "@file",
	  .help = "box plot of the per-call cost of each variant",
	  .example = "r.svg" },
	{ .id = O_IMPORT, .name = "import", .type = OPT_STR, .arg = "FILE",
	  .flags = OPT_IMPORT | OPT_INPUT, .words = "@file",
	  .help = "no timing: report what hotscore.ko measured (debugfs"
		  " hotscore/results)", .example = "r.jsonl" },
	{ .id = O_LIST, .name = "list-profiles", .old = "list-variants",
	  .type = OPT_FLAG, .flags = OPT_EXIT,
	  .help = "the profiles and variants, and what each is" },
	{ .id = O_LIST_DISTS, .name = "list-dists", .type = OPT_FLAG,
	  .flags = OPT_EXIT, .help = "the distributions" },
};

/*
 * --list-profiles: name, components and what each is, in columns as wide as
 * their longest entry; the description wraps to stay within 100 columns
 * (on lines of its own, indented, if the first two leave it too little
 * room).
 */
static void list_variants(void)
{
	enum { WIDTH = 100, MIN_WHAT = 32 };
	size_t nw = strlen("profile"), cw = strlen("components"), col, at, len;
	const char *p;
	char buf[96];
	unsigned int i;
	bool below, first;

	for (i = 0; i < hs_nr_variants; i++) {
		hs_components_format(&hs_variants[i].comp, buf, sizeof(buf));
		if (strlen(hs_variants[i].name) > nw)
			nw = strlen(hs_variants[i].name);
		if (strlen(buf) > cw)
			cw = strlen(buf);
	}
	col = nw + 2 + cw + 2;
	below = col + MIN_WHAT > WIDTH;
	if (below)
		col = 4;
	printf("%-*s  %-*s%s%s\n", (int)nw, "profile", below ? 0 : (int)cw,
	       "components", below ? "\n    " : "  ", "what");
	for (i = 0; i < hs_nr_variants; i++) {
		hs_components_format(&hs_variants[i].comp, buf, sizeof(buf));
		printf("%-*s  %-*s", (int)nw, hs_variants[i].name,
		       below ? 0 : (int)cw, buf);
		at = nw + 2 + (below ? strlen(buf) : cw);
		first = true;
		for (p = hs_variants[i].what; *p; p += len) {
			while (*p == ' ')
				p++;
			len = strcspn(p, " ");
			if (!len)
				break;
			if (first ? below : at + 1 + len > WIDTH) {
				printf("\n%*s", (int)col, "");
				at = col;
			} else {
				at += printf(first ? "  " : " ");
			}
			first = false;
			fwrite(p, 1, len, stdout);
			at += len;
		}
		putchar('\n');
	}
}

static void list_dists(void)
{
	unsigned int d;

	for (d = 0; d < HS_NR_DISTS; d++)
		printf("%-12s %s\n", hs_dist_name(d), hs_dist_what(d));
	printf("%-12s %s\n", "file:PATH",
	       "the rows of a CSV file as `hotscore score --input FILE` reads it, in order");
}

/* Split @value at commas; call @add for each non-empty item. */
static void for_each_item(const char *opt, const char *value,
			  void (*add)(struct bench *, const char *, const char *),
			  struct bench *b)
{
	char *copy = strdup(value), *item, *save = NULL;
	unsigned int n = 0;

	if (!copy)
		cli_die("out of memory");
	for (item = strtok_r(copy, ",", &save); item;
	     item = strtok_r(NULL, ",", &save), n++)
		add(b, opt, item);
	if (!n)
		cli_die("%s: empty list", opt);
	free(copy);
}

/*
 * A variant: a built-in one by name (loop, fast-batch, ...), a profile or
 * a combination with a compiled variant, or a candidate file (loaded once
 * every item, and so the base, is known).
 */
static void add_variant(struct bench *b, const char *opt, const char *name)
{
	const struct hs_variant *v = hs_variant_find(name);
	struct hs_spec sp;
	unsigned int i;

	if (b->nr_variants == BENCH_MAX_LIST)
		cli_die("%s: more than %d items", opt, BENCH_MAX_LIST);
	if (!v) {
		cli_spec_parse(opt, name, &sp);
		if (!hs_spec_is_model(&sp)) {
			b->cand_spec[b->nr_variants] = sp;
			b->variants[b->nr_variants++] = NULL;
			return;
		}
		v = hs_spec_variant(&sp);
		if (!v)
			cli_die("%s: '%s' has no compiled variant: write it as a candidate file (docs/your-change.md)",
				opt, name);
	}
	for (i = 0; i < b->nr_variants; i++)
		if (b->variants[i] == v)
			cli_die("%s: '%s' is listed twice", opt, name);
	b->variants[b->nr_variants++] = v;
}

static void add_mode(struct bench *b, const char *opt, const char *name)
{
	enum hs_bench_mode m;
	unsigned int i;

	if (!strcmp(name, "throughput"))
		m = HS_THROUGHPUT;
	else if (!strcmp(name, "latency"))
		m = HS_LATENCY;
	else
		cli_die("%s: unknown mode '%s' (throughput or latency)", opt,
		       name);
	for (i = 0; i < b->nr_modes; i++)
		if (b->modes[i] == m)
			cli_die("%s: '%s' is listed twice", opt, name);
	b->modes[b->nr_modes++] = m;
}

static void add_dist(struct bench *b, const char *opt, const char *name)
{
	struct bench_dist *d;
	unsigned int k, i;

	for (i = 0; i < b->nr_dists; i++)
		if (!strcmp(b->dists[i].name, name))
			cli_die("%s: '%s' is listed twice", opt, name);
	if (b->nr_dists == BENCH_MAX_LIST)
		cli_die("%s: more than %d items", opt, BENCH_MAX_LIST);
	d = &b->dists[b->nr_dists];
	if (strlen(name) >= sizeof(d->name))
		cli_die("%s: '%.40s...' is too long", opt, name);
	snprintf(d->name, sizeof(d->name), "%s", name);
	if (!strncmp(name, "file:", 5)) {
		d->kind = HS_NR_DISTS;
		d->path = d->name + 5;
		if (!*d->path)
			cli_die("%s: file: needs a path", opt);
	} else {
		for (k = 0; k < HS_NR_DISTS; k++)
			if (!strcmp(name, hs_dist_name(k)))
				break;
		if (k == HS_NR_DISTS)
			cli_die("%s: unknown distribution '%s' (see --list-dists)",
			       opt, name);
		d->kind = k;
	}
	b->nr_dists++;
}

static enum hs_clock_choice clock_arg(const char *v)
{
	if (!strcmp(v, "auto"))
		return HS_CLOCK_AUTO;
	if (!strcmp(v, "gettime"))
		return HS_CLOCK_GETTIME;
	cli_usage_die("--clock: unknown clock '%s' (auto or gettime)", v);
}

static enum bench_format format_arg(const char *v)
{
	if (!strcmp(v, "text"))
		return FORMAT_TEXT;
	if (!strcmp(v, "commit"))
		return FORMAT_COMMIT;
	if (!strcmp(v, "markdown"))
		return FORMAT_MARKDOWN;
	cli_usage_die("--format: unknown format '%s' (text, commit or markdown)",
		      v);
}

struct bench_args {
	struct bench *b;
	const char *variants, *modes, *dists;
	bool budget_given;
	bool seed, order_seed;		/* given */
};

static void set(void *ctx, const struct opt *o, const struct opt_val *v,
		unsigned int nr)
{
	struct bench_args *a = ctx;
	struct bench *b = a->b;

	(void)nr;
	switch (o->id) {
	case O_PROFILE: a->variants = v->s; break;
	case O_DIST: a->dists = v->s; break;
	case O_MODE: a->modes = v->s; break;
	case O_ITER: b->iterations = v->u; break;
	case O_INVOCATIONS:
		b->invocations = v->u;
		b->budget = false;
		break;
	case O_BUDGET: b->budget_us = v->u; a->budget_given = true; break;
	case O_PRECISION:
		b->precision_ppm = v->u * 100;
		a->budget_given = true;
		break;
	case O_PLACEMENTS: b->placements = v->u; break;
	case O_WARMUP: b->warmup_us = v->u; break;
	case O_BATCH: b->batch = v->u; break;
	case O_POOL: b->pool = v->u; break;
	case O_SEED: b->seed = v->u; a->seed = true; break;
	case O_ORDER_SEED: b->order_seed = v->u; a->order_seed = true; break;
	case O_CPU: b->cpu = (int)v->u; break;
	case O_CLOCK: b->clock = clock_arg(v->s); break;
	case O_METHOD:
		if (strcmp(v->s, "ktime") && strcmp(v->s, "batch"))
			cli_usage_die("--method: unknown method '%s' (batch or ktime)",
				      v->s);
		b->ktime = !strcmp(v->s, "ktime");
		break;
	case O_ACCURACY: b->accuracy = true; break;
	case O_FIXED_LAYOUT: b->fixed_layout = true; break;
	case O_ALLOW_DIFFERENT: b->allow_different = true; break;
	case O_FORMAT: b->format = format_arg(v->s); break;
	case O_JSON: b->json = v->s; break;
	case O_CSV: b->csv = v->s; break;
	case O_SVG: b->svg = v->s; break;
	case O_IMPORT: b->import = v->s; break;
	case O_AGAINST:
	case O_BASE:
		*(o->id == O_AGAINST ? &b->against : &b->base) =
			cli_profile_named(o->id == O_AGAINST ? "--against" :
					  "--base", v->s);
		break;
	case O_CALL_LIMIT:
		cli_call_limit_set(v->u);
		break;
	case O_LIST:
		list_variants();
		cli_exit(0);
	case O_LIST_DISTS:
		list_dists();
		cli_exit(0);
	}
}

static void parse(struct bench *b, int argc, char **argv)
{
	struct bench_args a = { b, DEFAULT_VARIANTS, DEFAULT_MODES, "seed",
				 false, false, false };

	b->iterations = strtoul(DEFAULT_ITERATIONS, NULL, 10);
	b->invocations = BENCH_MAX_INVOCATIONS;
	b->budget = true;
	b->budget_us = DEFAULT_BUDGET_US;
	b->precision_ppm = DEFAULT_PRECISION_PPM;
	b->placements = strtoul(DEFAULT_PLACEMENTS, NULL, 10);
	b->warmup_us = DEFAULT_WARMUP_US;
	b->batch = 8192;
	b->pool = strtoul(DEFAULT_POOL, NULL, 10);
	b->cpu = -1;
	b->seed = CLI_DEFAULT_SEED;
	opt_parse(&cmd_bench, argc, argv, set, &a);
	if (a.budget_given && !b->budget)
		cli_usage_die("--budget and --precision decide how many"
			      " invocations: not with --invocations");
	if (!b->precision_ppm)
		cli_usage_die("--precision: 0 %% is never reached");
	if (!b->import) {
		for_each_item("--profile", a.variants, add_variant, b);
		for_each_item("--mode", a.modes, add_mode, b);
		for_each_item("--dist", a.dists, add_dist, b);
	}
	opt_parsed(&cmd_bench);
	/* --seed S alone repeats a run; without either, a fresh order */
	if (!a.order_seed)
		b->order_seed = a.seed ? b->seed : hs_host_fresh_seed();
	opt_reproduce(&cmd_bench, b->command, sizeof(b->command));
	b->block = -1;
	if (!b->import) {
		bench_block_child(b);	/* an invocation: its block's plan */
		bench_load_candidates(b);	/* vetted by the first process only */
	}
}

static void alloc_result(struct bench *b, struct bench_result *r)
{
	size_t n = 2 * b->invocations * b->placements * b->rounds;

	r->mt = cli_xcalloc(n, sizeof(*r->mt));
	r->scale = cli_xcalloc(n, sizeof(*r->scale));
	r->cycles = cli_xcalloc(n, sizeof(*r->cycles));
	r->ins = cli_xcalloc(n, sizeof(*r->ins));
	r->counters = true;
	r->n = n;
}

static uint64_t median_of(const uint64_t *v, size_t n)
{
	uint64_t *scratch = cli_xcalloc(2 * n + 1, sizeof(*scratch)), m;

	m = hs_median(v, n, scratch);
	free(scratch);
	return m;
}

/*
 * The variant against the baseline over the first @blocks invocations and
 * the placements, with its confidence and re-run intervals, @extra_var
 * added to them (src/bench/analysis.c).
 */
static void compare_blocks(struct bench *b, struct bench_result *base,
			   struct bench_result *r, size_t blocks,
			   uint64_t extra_var)
{
	struct hs_cells c = {
		.base = base->mt, .fn = r->mt, .empty = empty_of(b, r)->mt,
		.base_empty = empty_of(b, base)->mt,
		.base_units = base->variant ?
			      hs_variant_regions(base->variant) : 1,
		.fn_units = r->variant ? hs_variant_regions(r->variant) : 1,
		.blocks = blocks, .placements = b->placements,
		.rounds = b->rounds, .extra_var = extra_var,
	};
	uint64_t *scratch = cli_xcalloc(HS_CELLS_SCRATCH(c.blocks,
							 c.placements,
							 c.rounds) +
					HS_PAIRED_SCRATCH(2 * c.rounds),
					sizeof(*scratch));

	hs_cells_ratio(&c, hs_comparison_seed(b->interval.seed,
					      hs_comparison_key(r->name,
								r->mode)),
		       scratch, &r->cells);
	r->rounds = r->cells.rounds;
	r->ratio = r->cells.ratio.value;
	r->ci_low = r->cells.ratio.low;
	r->ci_high = r->cells.ratio.high;
	r->verdict = r->cells.verdict;
	free(scratch);
}

static void compare(struct bench *b, struct bench_result *base,
		    struct bench_result *r, uint64_t extra_var)
{
	compare_blocks(b, base, r, b->invocations, extra_var);
}

/*
 * The half-width of @r's confidence interval, ppm of its ratio (the wider
 * side); ~0 without an interval.
 */
static uint64_t half_width(const struct bench_result *r)
{
	const struct hs_estimate *e = &r->cells.ratio;
	uint64_t lo, hi;

	if (!e->value || (!e->low && !e->high))
		return ~0ULL;
	lo = e->value > e->low ? e->value - e->low : 0;
	hi = e->high > e->value ? e->high - e->value : 0;
	return (lo > hi ? lo : hi) * HS_PPM / e->value;
}

/*
 * The A/A pairs over the first @blocks invocations: the baseline against
 * itself, per distribution and mode; then each mode's excess variance,
 * which its intervals get.
 */
static void analyze_aa(struct bench *b, size_t blocks)
{
	struct hs_cell_stats st[BENCH_MAX_LIST];
	unsigned int di, mi;

	if (!b->aa)
		return;
	for (mi = 0; mi < b->nr_modes; mi++) {
		for (di = 0; di < b->nr_dists; di++) {
			struct bench_result *r = bench_aa_at(b, di, mi);

			compare_blocks(b, bench_at(b, di, mi, 1), r, blocks, 0);
			st[di] = r->cells;
		}
		b->aa_var[mi] = hs_excess_var(st, b->nr_dists);
	}
}

/**
 * bench_enough() - whether a budgeted run has invocations enough: every
 * confidence interval within --precision, or no time for another
 * invocation within --budget.  The budget is the whole run's: what came
 * before the invocations (b->start_ns on) counts, and as much again is
 * kept for what comes after them (the classes, the report).  Records why
 * in b->stop, and the widest interval.
 * @b:		the bench, measuring.
 * @blocks:	invocations measured so far.
 * @elapsed_ns:	the time they took.
 *
 * Return: stop adding invocations.
 */
bool bench_enough(struct bench *b, size_t blocks, uint64_t elapsed_ns)
{
	uint64_t before = hs_host_now_ns() - elapsed_ns - b->start_ns;

	unsigned int di, mi, v;
	uint64_t w;

	if (!b->budget) {
		b->stop = STOP_FIXED;
		return blocks >= b->invocations;
	}
	if (blocks < BENCH_MIN_INVOCATIONS)
		return false;
	b->widest_ppm = 0;
	b->widest = NULL;
	analyze_aa(b, blocks);	/* the intervals as the report will print them */
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			for (v = 2; v <= b->nr_variants; v++) {
				struct bench_result *r = bench_at(b, di, mi, v);

				compare_blocks(b, bench_at(b, di, mi, 1), r,
					       blocks, b->aa_var[mi]);
				w = half_width(r);
				/* no value, no interval: nothing to narrow */
				if (w != ~0ULL && (!b->widest || w > b->widest_ppm)) {
					b->widest_ppm = w;
					b->widest = r;
				}
			}
	if (b->widest_ppm <= b->precision_ppm)
		b->stop = STOP_PRECISION;
	else if (2 * before + elapsed_ns + elapsed_ns / blocks >
		 b->budget_us * 1000)
		b->stop = STOP_BUDGET;	/* the next one would overrun */
	else if (blocks >= BENCH_MAX_INVOCATIONS)
		b->stop = STOP_LIMIT;
	else
		return false;
	return true;
}

/* The summary of a result's per-call samples, those of 0 left out. */
static void summarize(struct bench_result *r)
{
	uint64_t *scratch = cli_xcalloc(2 * r->n + 1, sizeof(*scratch));

	r->nonpositive = hs_summary_nonzero(r->mt, r->n, scratch, &r->ns);
	r->scale_median = hs_median(r->scale, r->n, scratch);
	if (r->counters) {
		r->cycles_median = hs_median(r->cycles, r->n, scratch);
		r->ins_median = hs_median(r->ins, r->n, scratch);
	}
	free(scratch);
}

/**
 * bench_choose_interval() - which interval the ratios get, from what the
 * blocks were (src/bench/analysis.c), recorded in b->interval: the
 * analysis uses it and the reports print it.
 * @b:	the bench, measured or imported.
 */
void bench_choose_interval(struct bench *b)
{
	enum hs_blocks what = b->module_blocks ? HS_BLOCKS_MODULE_RUNS :
			      b->blocks_in_process ? HS_BLOCKS_IN_PROCESS :
			      HS_BLOCKS_PROCESSES;

	hs_interval_choose(&b->interval, b->invocations, b->placements, what,
			   b->order_seed);
}

/* Summaries, self-checks and paired ratios of one (distribution, mode). */
static void analyze(struct bench *b, unsigned int di, unsigned int mi)
{
	struct bench_result *empty = bench_at(b, di, mi, 0);
	struct bench_result *base = bench_at(b, di, mi, 1);
	unsigned int v;

	summarize(empty);
	if (b->doors)
		summarize(bench_door_at(b, di, mi));
	for (v = 1; v <= b->nr_variants; v++) {
		struct bench_result *r = bench_at(b, di, mi, v);

		summarize(r);
		/* a call, not a region, against the empty call */
		r->check = hs_bench_check(r->ns.median *
					  (r->variant ?
					   hs_variant_regions(r->variant) : 1),
					  empty_of(b, r)->ns.median,
					  r->scale_median, b->host.clock.hz);
		r->baseline = v == 1;
		if (v > 1)
			compare(b, base, r, b->aa_var[mi]);
	}
}

/* Each class of inputs alone, in batches: a median per class. */
static void measure_classes(struct bench *b, unsigned int di,
			    unsigned int v, struct bench_result *r)
{
	struct bench_dist *d = &b->dists[di];
	unsigned int nsamples = BENCH_CLASS_RUNS;
	uint64_t mt[100];
	struct hs_wvalue *w;
	struct hs_sample s;
	unsigned int c, k, m;

	r->cls = bench_class_set(d, &r->variant->comp);
	bench_build_classes(b, d, (struct bench_classes *)r->cls);
	r->cls_mt = cli_xcalloc(r->cls->nr, sizeof(*r->cls_mt));
	w = cli_xcalloc(r->cls->nr, sizeof(*w));
	for (c = 0; c < r->cls->nr; c++) {
		const struct bench_class *cl = &r->cls->c[c];
		struct hs_pool pool = { cl->inputs, sizeof(*cl->inputs),
					cl->nr, 1 };
		void *door = NULL;

		if (r->variant->call == HS_CALL_DOOR)
			door = bench_door_pool(b, v, cl->inputs, cl->nr, &pool);
		m = 0;
		cli_progress("bench: %s, %s, %s: class %u/%u", d->name,
			 hs_mode_name(r->mode), r->name, c + 1, r->cls->nr);
		hs_bench_batch(&b->host.clock, r->variant->fn, &pool, 0, b->n,
			       r->mode);
		for (k = 0; k < nsamples; k++) {
			hs_bench_sample(&b->host.clock, r->variant->fn, &pool,
					hs_bench_start(k, pool.nr), b->n,
					r->mode, k & 1, &s);
			mt[m] = s.mt;
			m += s.mt > 0;	/* a sample of 0 is noise, not a cost */
		}
		free(door);
		r->cls_mt[c] = m ? median_of(mt, m) : 0;
		w[c].value = r->cls_mt[c];
		w[c].weight = cl->count;
	}
	hs_sort_wvalues(w, r->cls->nr);
	r->cls_min = w[0].value;
	r->cls_max = w[r->cls->nr - 1].value;
	r->cls_mean = hs_wmean(w, r->cls->nr);
	r->cls_p95 = hs_wquantile(w, r->cls->nr, 950);
	r->cls_p99 = hs_wquantile(w, r->cls->nr, 990);
	free(w);
}

/* The seed module's own method, for the side-by-side report. */
static void measure_ktime(struct bench *b, unsigned int di,
			  struct bench_result *r)
{
	struct bench_dist *d = &b->dists[di];
	size_t per_run = (b->iterations + BENCH_KTIME_EVERY - 1) /
			 BENCH_KTIME_EVERY;
	uint64_t *all = cli_xcalloc(per_run * BENCH_CLASS_RUNS, sizeof(*all));
	uint64_t total = 0;
	struct hs_ktime_run kr = {
		.pool = d->pool, .nr = d->nr_pool,
		.seed_ages = d->kind == HS_DIST_SEED,
		.iterations = b->iterations, .every = BENCH_KTIME_EVERY,
		.now = hs_host_now_ns,
	};
	struct bench_ktime *k = &r->ktime;
	unsigned int run;
	size_t i, n = per_run * BENCH_CLASS_RUNS;

	for (run = 0; run < BENCH_CLASS_RUNS; run++) {
		cli_progress("bench: %s: ktime method, %s, run %u/%d", d->name,
			 r->name, run + 1, BENCH_CLASS_RUNS);
		kr.samples = all + run * per_run;
		r->variant->ktime(&kr);
		total += kr.total_ns;
	}
	hs_sort_u64(all, n);
	/* the seed's arithmetic: integer average, sorted-sample ranks */
	k->average_ns_x1000 = total * 1000 / (b->iterations * BENCH_CLASS_RUNS);
	k->p95_ns = all[n * 95 / 100];
	k->p99_ns = all[n * 99 / 100];
	k->min_ns = all[0];
	k->max_ns = all[n - 1];
	k->samples = n;
	for (i = 0; i < n; i++) {
		unsigned int bucket = all[i] >= 100 ? 5 : (unsigned int)all[i] / 20;

		k->buckets[bucket]++;
	}
	r->has_ktime = true;
	free(all);
}

/*
 * The harness's own ruler: HS_ADD_CHAIN_LEN dependent adds per call, timed
 * by the engine, against the core clock measured right before and after
 * each sample, so that a turbo clock's drift cancels.
 */
static void measure_accuracy(struct bench *b)
{
	struct hs_pool pool = { NULL, 0, 1, 1 };
	uint64_t ppm[31], hz[31], hz0, hz1;
	struct hs_sample s;
	unsigned int k;

	cli_progress("bench: timing a chain of dependent adds");
	b->core_hz = hs_host_core_hz();
	if (!b->core_hz)
		return;
	for (k = 0; k < 31; k++) {
		hz0 = hs_host_core_hz();
		hs_bench_sample(&b->host.clock, hs_add_chain, &pool, 0, 2048,
				HS_LATENCY, k & 1, &s);
		hz1 = hs_host_core_hz();
		hz[k] = (hz0 + hz1) / 2;
		/* cycles per add, ppm: ps per call * Hz / 10^12 / adds */
		ppm[k] = (uint64_t)((unsigned __int128)hs_mt_to_ps(
				s.mt, b->host.clock.hz) * hz[k] /
				(1000000ULL * HS_ADD_CHAIN_LEN));
	}
	b->core_hz = median_of(hz, 31);
	b->add_ppm = median_of(ppm, 31);
}

/*
 * Every distribution's inputs, built and checked: bad input exits here,
 * before any output file is opened (and truncated) and before any timing.
 */
static void prepare_inputs(struct bench *b)
{
	unsigned int di;

	for (di = 0; di < b->nr_dists; di++) {
		bench_build_pool(b, &b->dists[di]);
		bench_check_inputs(b, &b->dists[di]);
		bench_build_calls(b, &b->dists[di]);
		bench_vet_calls(b, &b->dists[di]);
	}
}

/*
 * N and the rounds (src/bench/plan.c): a batch spans 1000 clock steps; an
 * invocation's --iterations calls of each function are shared by its
 * placements, in rounds of 12 N calls, at most MAX_ROUNDS_PER_RUN a cell.
 */
static void plan(struct bench *b)
{
	struct hs_pool pool = { b->dists[0].pool, sizeof(*b->dists[0].pool),
				b->dists[0].nr_pool, 1 };
	struct hs_plan p = { .runs = 1 };
	unsigned int di;

	p.n = hs_plan_batch(&b->host.clock, &pool, b->batch, 1UL << 24);
	/*
	 * A batch covers the whole pool, so that the N and the 2N batch time
	 * the same mix of inputs: with a pool longer than N they would time
	 * different stretches of it (the seed's ages ascend), and their
	 * difference would be the stretches', not a call's.
	 */
	for (di = 0; di < b->nr_dists; di++)
		if (p.n < b->dists[di].nr_pool && p.n < MAX_POOL_N)
			p.n = b->dists[di].nr_pool < MAX_POOL_N ?
			      b->dists[di].nr_pool : MAX_POOL_N;
	hs_plan_rounds(&p, b->iterations / b->placements, MAX_ROUNDS_PER_RUN);
	b->n = p.n;
	b->rounds = p.rounds_per_run;
}

static void alloc_results(struct bench *b)
{
	unsigned int di, mi, v;

	b->results = cli_xcalloc((size_t)b->nr_dists * b->nr_modes *
				 (b->nr_variants + 1), sizeof(*b->results));
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			for (v = 0; v <= b->nr_variants; v++) {
				struct bench_result *r = bench_at(b, di, mi, v);

				r->variant = v ? b->variants[v - 1] : NULL;
				r->name = v ? b->variants[v - 1]->name :
					      "empty";
				r->dist = di;
				r->mode = b->modes[mi];
				alloc_result(b, r);
			}
	b->aa = cli_xcalloc((size_t)b->nr_dists * b->nr_modes, sizeof(*b->aa));
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++) {
			struct bench_result *r = bench_aa_at(b, di, mi);

			*r = *bench_at(b, di, mi, 1);
			r->name = "A/A";
			alloc_result(b, r);
		}
	if (!b->has_door)
		return;
	b->doors = cli_xcalloc((size_t)b->nr_dists * b->nr_modes,
			       sizeof(*b->doors));
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++) {
			struct bench_result *r = bench_door_at(b, di, mi);

			r->name = "door";
			r->door = true;
			r->dist = di;
			r->mode = b->modes[mi];
			alloc_result(b, r);
		}
}

/* Every result's samples: those of the invocations measured. */
static void trim_results(struct bench *b)
{
	size_t n = 2 * b->invocations * b->placements * b->rounds, i;
	size_t streams = (size_t)b->nr_dists * b->nr_modes;

	for (i = 0; i < streams * (b->nr_variants + 1); i++)
		b->results[i].n = n;
	for (i = 0; b->aa && i < streams; i++)
		b->aa[i].n = n;
	for (i = 0; b->doors && i < streams; i++)
		b->doors[i].n = n;
}

static void measure(struct bench *b)
{
	unsigned int di, mi, v;

	if (b->block < 0)
		plan(b);
	alloc_results(b);
	bench_measure_blocks(b);
	if (b->block >= 0)
		return;
	trim_results(b);
	bench_choose_interval(b);
	for (di = 0; b->aa && di < b->nr_dists * b->nr_modes; di++)
		summarize(&b->aa[di]);
	analyze_aa(b, b->invocations);
	for (di = 0; di < b->nr_dists; di++) {
		for (mi = 0; mi < b->nr_modes; mi++) {
			analyze(b, di, mi);
			for (v = 1; v <= b->nr_variants; v++)
				if (b->variants[v - 1]->call == HS_CALL_INPUT ||
				    b->variants[v - 1]->call == HS_CALL_DOOR)
					measure_classes(b, di, v - 1,
							bench_at(b, di, mi, v));
		}
		if (b->ktime)
			for (v = 1; v <= b->nr_variants; v++)
				if (b->variants[v - 1]->ktime)
					measure_ktime(b, di,
						      bench_at(b, di, 0, v));
	}
	if (b->accuracy)
		measure_accuracy(b);
	cli_progress_done();
}

/* Write one of the optional files; a failed write is an error too. */
static void emit(FILE *f, struct bench *b,
		 void (*write)(struct bench *, FILE *))
{
	if (!f)
		return;
	write(b, f);
	cli_out_done(f);
}

/*
 * The vector unit of the machine being measured, recorded now: the
 * reports print it from here, so an --import report prints the module's.
 */
static void record_vector(struct bench *b)
{
	snprintf(b->vector.impl, sizeof(b->vector.impl), "%s",
		 hs_fast_impl_name(b->simd));
	hs_cpu_flag_names(hs_cpu_features(), b->vector.flags,
			  sizeof(b->vector.flags));
}

/* Print the reports of a measured or imported struct bench. */
static void report(struct bench *b, FILE *json, FILE *csv, FILE *svg)
{
	if (b->format == FORMAT_COMMIT)
		bench_print_commit(b, stdout);
	else if (b->format == FORMAT_MARKDOWN)
		bench_print_markdown(b, stdout);
	else
		bench_print_text(b, stdout);
	emit(json, b, bench_write_json);
	emit(csv, b, bench_write_csv);
	emit(svg, b, bench_write_svg);
	cli_out_commit();	/* all of them, or none */
}

/* --import: hotscore.ko's samples, analysed and reported as if measured. */
static int import_results(struct bench *b)
{
	FILE *json = cli_out_open("--json", b->json);
	FILE *csv = cli_out_open("--csv", b->csv);
	FILE *svg = cli_out_open("--svg", b->svg);
	unsigned int di, mi;

	bench_import(b);
	b->order_seed = b->seed;	/* the module's one seed */
	bench_choose_interval(b);
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			analyze(b, di, mi);
	report(b, json, csv, svg);
	return 0;
}

/*
 * An invocation of another `hotscore bench` (bench_invoke.c): measure its
 * block on the parent's plan, write it to the pipe, report nothing.
 */
static int block_child(struct bench *b)
{
	char err[256];

	/* no output of its own to keep: Ctrl-C just ends it, silently */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);

	if (hs_host_init(&b->host, b->cpu, b->clock, err, sizeof(err)))
		cli_die("%s", err);
	prepare_inputs(b);
	measure(b);
	hs_host_fini(&b->host);
	return 0;
}

/*
 * `hotscore bench`.
 * @argc: argument count, argv[0] being "bench".
 * @argv: the arguments.
 *
 * Return: 0; bad input exits with status 2 before any timing.
 */
static int bench_run(int argc, char **argv)
{
	static struct bench b;
	FILE *json, *csv, *svg;
	char err[256];

	if (argc > 1 && !strcmp(argv[1], "compare"))
		return bench_compare(argc - 1, argv + 1);
	b.start_ns = hs_host_now_ns();
	parse(&b, argc, argv);
	b.simd = cli_simd_choice();
	if (b.import)
		return import_results(&b);
	if (b.block >= 0)
		return block_child(&b);
	/* this process's; the invocations say theirs (bench_invoke.c) */
	b.layout = b.fixed_layout ? hs_host_fixed_layout(hs_argv) :
		   hs_host_aslr() ? HS_LAYOUT_RANDOM : HS_LAYOUT_FIXED;
#ifdef __clang__
	b.compiler = "clang " __clang_version__;
#else
	b.compiler = "gcc " __VERSION__;
#endif
	b.cflags = HS_CFLAGS;
	if (hs_host_init(&b.host, b.cpu, b.clock, err, sizeof(err)))
		cli_die("%s", err);
	record_vector(&b);
	prepare_inputs(&b);
	json = cli_out_open("--json", b.json);
	csv = cli_out_open("--csv", b.csv);
	svg = cli_out_open("--svg", b.svg);
	measure(&b);
	hs_host_fini(&b.host);
	report(&b, json, csv, svg);
	return 0;
}

const struct cli_cmd cmd_bench = {
	.name = "bench",
	.summary = "the DAMON Perf Test: variants timed in batches, compared paired",
	.usage = "hotscore bench [--profile LIST] [--dist LIST] [--mode LIST]"
		 " [--invocations K] ...\n"
		 "hotscore bench --import FILE [--format F] [--json FILE]"
		 " [--csv FILE] [--svg FILE]\n"
		 "hotscore bench compare BEFORE.json AFTER.json",
	.about = "Time damon_hot_score() variants in batches, with the timer"
		 " cancelled, and compare them\npairwise.  With no options: the"
		 " seed module's scenario (10,000,000 iterations of\nthe seed"
		 " distribution in each of 10 invocations, loop,fls,ilog2).",
	.notes = "The reproduce line of --format commit leaves out the"
		 " options that name outputs.\n\n"
		 "bench compare BEFORE.json AFTER.json sets two runs saved"
		 " with --json (before and after\na build) against each"
		 " other: for each variant, distribution and mode, before ns"
		 " /\nafter ns with a 95 % interval from the two runs'"
		 " invocations, a verdict, and the\nmachine and settings that"
		 " differ between the runs.  A file that is not a saved run:"
		 "\nexit 2.",
	.opts = bench_opts,
	.nr_opts = sizeof(bench_opts) / sizeof(bench_opts[0]),
	.run = bench_run,
};
