// SPDX-License-Identifier: GPL-2.0
/*
 * test_report.c - `hotscore bench` reports, from a run whose every figure
 * is fixed here: golden files for the text, commit, Markdown and CSV
 * formats; the JSON is parsed back and checked against the schema in
 * docs/bench.md.  HS_UPDATE_GOLDEN=1 rewrites the golden files.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <hotscore/json_out.h>

#include "cli/bench_report.h"
#include "cli/cmd_bench.h"
#include "cli/report/layout.h"
#include "check.h"
#include "jsonpath.h"

#define GOLDEN_DIR "tests/data/"

static struct bench b;
static struct bench_classes cls;
static struct bench_class classes[3];
static uint64_t cls_mt[3][3];	/* [variant][class] */
static struct bench_result res[3];

/* Two variants on the seed distribution, throughput, TSC at 2.5 GHz. */
static void make_bench(void)
{
	static const uint64_t mt[3][3] = {	/* 1000 mt = 0.4 ns */
		{ 0, 0, 0 },
		{ 11000, 17000, 20000 },	/* loop: grows with the log */
		{ 11500, 11600, 11700 },	/* ilog2: flat */
	};
	static const unsigned int keys[3] = { 0, 5, 20 };
	static const uint64_t counts[3] = { 10, 1000, 9998990 };
	unsigned int v, c;

	b.iterations = 10000000;
	b.invocations = 10;
	b.placements = 4;
	b.warmup_us = 250000;
	b.batch = 8192;
	b.pool = 16384;
	b.seed = 42;
	b.order_seed = 4242;
	b.variants[0] = hs_variant_find("loop");
	b.variants[1] = hs_variant_find("ilog2");
	b.nr_variants = 2;
	b.modes[0] = HS_THROUGHPUT;
	b.nr_modes = 1;
	snprintf(b.dists[0].name, sizeof(b.dists[0].name), "seed");
	b.nr_dists = 1;
	snprintf(b.command, sizeof(b.command),
		 "hotscore bench --variants loop,ilog2 --modes throughput --seed 42 --json out.json");
	b.compiler = "gcc 12.2.0";
	b.cflags = "-std=gnu11 -O2";
	b.host.clock.name = "tsc (lfence; rdtsc; lfence)";
	b.host.clock.hz = 2500000000ULL;
	b.host.clock.tsc = true;
	b.host.clock.step = 44;
	b.host.resolution = 2;
	snprintf(b.host.clock_desc, sizeof(b.host.clock_desc),
		 "2500.000 MHz, calibrated against CLOCK_MONOTONIC_RAW");
	snprintf(b.host.perf, sizeof(b.host.perf),
		 "unavailable (perf_event_open cycles: No such file or directory)");
	snprintf(b.host.cpu_model, sizeof(b.host.cpu_model), "Test CPU \"X\"");
	snprintf(b.host.governor, sizeof(b.host.governor), "performance");
	snprintf(b.host.kernel, sizeof(b.host.kernel), "6.1.0-test");
	b.host.hypervisor = true;
	snprintf(b.vector.impl, sizeof(b.vector.impl), "avx512");
	snprintf(b.vector.flags, sizeof(b.vector.flags),
		 "avx2 bmi1 bmi2 avx512f avx512cd avx512bw avx512vl avx512vbmi");
	b.n = 8192;
	b.rounds = 13;
	b.block = -1;
	b.accuracy = true;
	b.ktime = true;
	b.layout = HS_LAYOUT_REEXECUTED;
	b.core_hz = 4000000000ULL;
	b.add_ppm = 1000000;	/* 1.0000 cycles per add */

	for (c = 0; c < 3; c++) {
		classes[c].key = keys[c];
		classes[c].count = counts[c];
	}
	cls.c = classes;
	cls.nr = 3;
	for (v = 0; v < 3; v++) {
		struct bench_result *r = &res[v];
		struct hs_wvalue w[3];

		r->variant = v ? b.variants[v - 1] : NULL;
		r->name = v ? r->variant->name : "empty";
		r->mode = HS_THROUGHPUT;
		r->n = 20;
		r->ns = (struct hs_summary){
			.n = 20, .min = v ? mt[v][0] : 4000,
			.q1 = v ? mt[v][1] : 4100,
			.median = v ? mt[v][2] : 4200,
			.q3 = v ? mt[v][2] + 1000 : 4300,
			.max = v ? mt[v][2] + 2500 : 5000, .mad = 50,
			.tmean = v ? mt[v][2] + 100 : 4150 };
		r->scale_median = 1998;
		r->check = HS_CHECK_OK;
		r->baseline = v == 1;
		if (v == 2) {
			r->ratio = 1652000;
			r->ci_low = 1640500;
			r->ci_high = 1661250;
			r->rounds = 520;
			r->verdict = HS_FASTER;
			r->cells = (struct hs_cell_stats){
				.ratio = { r->ratio, r->ci_low, r->ci_high,
					   1637100, 1667000 },
				.net = { 1893000, 1870000, 1915500, 1860000,
					 1926000 },
				.units = 10, .df = 7,
				.layout_low = 1641000, .layout_high = 1660000,
				.layout_sd = 4800, .vn = 420, .trend = true,
				.state_n = { 6, 4 },
				.state = { 1648000, 1657000 },
				.rounds = 520, .var_round = 900000000ULL,
				.var_within = 4000000, .var_block = 25000000,
				.var_placement = 16000000, .var_residual = 1000000,
				.nr_outliers = 1, .outliers = 1ULL << 6,
				.verdict = HS_FASTER };
		}
		if (!v)
			continue;
		for (c = 0; c < 3; c++) {
			cls_mt[v][c] = mt[v][c];
			w[c].value = mt[v][c];
			w[c].weight = counts[c];
		}
		r->cls = &cls;
		r->cls_mt = cls_mt[v];
		hs_sort_wvalues(w, 3);
		r->cls_min = w[0].value;
		r->cls_max = w[2].value;
		r->cls_mean = hs_wmean(w, 3);
		r->cls_p95 = hs_wquantile(w, 3, 950);
		r->cls_p99 = hs_wquantile(w, 3, 990);
	}
	res[1].counters = true;		/* as if the machine had a PMU */
	res[1].cycles_median = 34500;
	res[1].ins_median = 69000;
	res[1].has_ktime = true;
	res[1].ktime = (struct bench_ktime){ 1400, 40, 41, 20, 59,
		{ 0, 35220, 14780, 0, 0, 0 }, 50000 };
	res[2].has_ktime = true;
	res[2].ktime = (struct bench_ktime){ 1300, 39, 40, 20, 45,
		{ 0, 49990, 10, 0, 0, 0 }, 50000 };
	b.results = res;
	bench_choose_interval(&b);
}

static char *render(void (*fn)(struct bench *, FILE *), size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	fn(&b, f);
	fclose(f);
	return buf;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	*len = fread(buf, 1, (size_t)n, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

/* Compare with the golden file; on a difference, show the first line. */
static void golden(const char *name, void (*fn)(struct bench *, FILE *))
{
	char path[256], *got, *want;
	size_t glen, wlen, i, line = 1;

	snprintf(path, sizeof(path), GOLDEN_DIR "%s", name);
	got = render(fn, &glen);
	if (getenv("HS_UPDATE_GOLDEN")) {
		FILE *f = fopen(path, "w");

		fwrite(got, 1, glen, f);
		fclose(f);
	}
	want = slurp(path, &wlen);
	CHECK(want != NULL, "%s: missing", path);
	if (want) {
		for (i = 0; i < glen && i < wlen && got[i] == want[i]; i++)
			line += got[i] == '\n';
		CHECK(glen == wlen && i == glen, "%s differs at line %zu",
		      path, line);
	}
	free(got);
	free(want);
}

static void test_text(void) { golden("bench-report.txt", bench_print_text); }
static void test_markdown(void) { golden("bench-report.md", bench_print_markdown); }
static void test_csv(void) { golden("bench-report.csv", bench_write_csv); }

static void test_commit(void)
{
	size_t len, n = 0;
	char *s = render(bench_print_commit, &len), *line, *save = NULL;

	golden("bench-report.commit", bench_print_commit);
	for (line = strtok_r(s, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), n++)
		CHECK(strlen(line) <= 72, "line %zu has %zu columns: %s", n,
		      strlen(line), line);
	CHECK(n > 5, "only %zu lines", n);
	free(s);
}

/*
 * The harness check says whether it passed: a folded add chain (0.89 a
 * cycle at "19 GHz", as this VM once printed) and a slow ruler fail.
 */
static void test_accuracy_verdict(void)
{
	static const struct { uint64_t hz, ppm; const char *want; } c[] = {
		{ 4000000000ULL, 1000000, "+- 0.02: passed." },
		{ 2550800000ULL, 985300, "+- 0.02: passed." },
		{ 19450700000ULL, 889700, "FAILED, the core clock is impossible" },
		{ 2500000000ULL, 1050000, "+- 0.02: FAILED." },
	};
	uint64_t hz = b.core_hz, ppm = b.add_ppm;
	size_t i, len;
	char *s;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		b.core_hz = c[i].hz;
		b.add_ppm = c[i].ppm;
		s = render(print_accuracy, &len);
		CHECK(strstr(s, c[i].want) != NULL, "%zu: %s", i, s);
		free(s);
	}
	b.core_hz = hz;
	b.add_ppm = ppm;
}

/* The seed table's average must lie within the range it summarizes. */
static void test_seed_table_average(void)
{
	unsigned int v;

	for (v = 1; v < 3; v++)
		CHECK(res[v].cls_min <= res[v].cls_mean &&
		      res[v].cls_mean <= res[v].cls_max &&
		      res[v].cls_p95 <= res[v].cls_p99,
		      "%s: mean %llu outside [%llu, %llu]", res[v].name,
		      (unsigned long long)res[v].cls_mean,
		      (unsigned long long)res[v].cls_min,
		      (unsigned long long)res[v].cls_max);
}

static double num(json_t *root, const char *path)
{
	const json_t *v = json_at(root, path);

	CHECK(json_is_number(v), "%s is not a number", path);
	return json_is_number(v) ? json_number_value(v) : -1;
}

static const char *str(json_t *root, const char *path)
{
	const json_t *v = json_at(root, path);

	CHECK(json_is_string(v), "%s is not a string", path);
	return json_is_string(v) ? json_string_value(v) : "";
}

static void test_json(void)
{
	size_t len;
	char *s = render(bench_write_json, &len);
	json_error_t err;
	json_t *j = json_loadb(s, len, 0, &err);

	CHECK(j != NULL, "not JSON: line %d, column %d: %s", err.line,
	      err.column, err.text);
	if (!j)
		return;
	CHECK(!strcmp(str(j, "environment.cpu_model"), "Test CPU \"X\""),
	      "cpu_model");
	CHECK_EQ(num(j, "environment.tsc_hz"), 2500000000.0);
	CHECK(json_is_false(json_at(j, "environment.aslr")), "aslr");
	CHECK_EQ(num(j, "config.seed"), 42);
	CHECK_EQ(num(j, "config.order_seed"), 4242);
	CHECK(!strcmp(str(j, "environment.compiler"), "gcc 12.2.0"), "cc");
	/* the recorded machine's vector unit, not this one's */
	CHECK(!strcmp(str(j, "environment.vector"), "avx512"), "vector");
	CHECK(!strcmp(str(j, "environment.cpu_flags"),
		      "avx2 bmi1 bmi2 avx512f avx512cd avx512bw avx512vl avx512vbmi"),
	      "cpu_flags");
	CHECK(!strcmp(str(j, "command"), b.command), "command");
	CHECK_EQ(json_array_size(json_at(j, "results")), 3);
	CHECK(!strcmp(str(j, "results.1.variant"), "loop"), "variant");
	CHECK(!strcmp(str(j, "results.1.dist"), "seed"), "dist");
	CHECK(!strcmp(str(j, "results.1.mode"), "throughput"), "mode");
	/* 20000 mt at 2.5 GHz: 8 ns; min 11000 mt: 4.4 ns */
	CHECK(num(j, "results.1.ns_per_call.median") == 8.0, "median");
	CHECK(num(j, "results.1.ns_per_call.min") == 4.4, "min");
	CHECK(num(j, "results.1.ns_per_call.max") == 9.0, "max");
	CHECK(num(j, "results.1.cycles_per_call.median") == 20.0, "cycles");
	CHECK(!strcmp(str(j, "results.1.cycles_per_call.source"), "tsc"),
	      "cycles source");
	CHECK(num(j, "results.1.seed_report.average_ns") >=
	      num(j, "results.1.seed_report.min_ns") &&
	      num(j, "results.1.seed_report.average_ns") <=
	      num(j, "results.1.seed_report.max_ns"), "average in range");
	CHECK_EQ(num(j, "results.1.ktime.p95_ns"), 40);
	CHECK(num(j, "results.1.counters.cycles") == 34.5 &&
	      num(j, "results.1.counters.instructions") == 69.0, "counters");
	CHECK(json_is_null(json_at(j, "results.2.counters")), "no counters: null");
	CHECK_EQ(json_array_size(json_at(j, "comparisons")), 1);
	CHECK(!strcmp(str(j, "comparisons.0.baseline"), "loop"), "baseline");
	CHECK(!strcmp(str(j, "comparisons.0.variant"), "ilog2"), "variant");
	CHECK(num(j, "comparisons.0.ratio") == 1.652, "ratio");
	CHECK(num(j, "comparisons.0.ci_low") == 1.6405, "ci_low");
	CHECK(num(j, "comparisons.0.ci_high") == 1.66125, "ci_high");
	CHECK(num(j, "comparisons.0.rerun_low") == 1.6371 &&
	      num(j, "comparisons.0.rerun_high") == 1.667, "re-run interval");
	CHECK(num(j, "comparisons.0.layout.low") == 1.641 &&
	      num(j, "comparisons.0.layout.high") == 1.66 &&
	      num(j, "comparisons.0.layout.sd_percent") == 0.48, "layout");
	CHECK(num(j, "comparisons.0.states.1.units") == 4 &&
	      num(j, "comparisons.0.states.1.ratio") == 1.657, "states");
	CHECK(json_is_true(json_at(j, "comparisons.0.drifts_over_run")),
	      "drift over the run");
	CHECK(!strcmp(str(j, "comparisons.0.verdict"), "faster"), "verdict");
	CHECK(num(j, "accuracy.cycles_per_add") == 1.0, "accuracy");
	json_decref(j);
	free(s);
}

static void test_svg(void)
{
	size_t len, rects = 0;
	char *s = render(bench_write_svg, &len), *p;

	CHECK(!strncmp(s, "<svg ", 5), "no <svg> at the start");
	CHECK(len > 7 && !strcmp(s + len - 7, "</svg>\n"), "no </svg>");
	for (p = s; (p = strstr(p, "<rect ")); p++)
		rects++;
	CHECK_EQ(rects, 1 + 3);	/* the background and one box each */
	CHECK(strstr(s, "loop | seed | throughput") != NULL, "label");
	free(s);
}

/*
 * The reader hotscore uses, jansson as bench --import and the tests' tools
 * call it, refuses what the hand-written reader before it refused: the
 * RFC's violations.  Beyond those: \u0000 (no JSON_ALLOW_NUL), bytes that
 * are not UTF-8, integers past long long, and nesting past jansson's
 * JSON_PARSER_MAX_DEPTH (bench --import refuses past 64 itself).
 */
static void test_json_reader(void)
{
	static const char *const bad[] = {
		"", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "\"\\x\"",
		"\"a\nb\"", "[1] 2", "tru", "\"\\ud800\"", "{1:2}", "nul",
		"\"\\u0000\"", "\"\xff\"", "9223372036854775808",
	};
	const char *good = " {\"a\": [1, -2.5e3, true, false, null,"
			   " 9223372036854775807], \"d\": 1, \"d\": 2,"
			   " \"s\": \"\\u00e9\\ud83d\\ude00\\n\"} ";
	char deep[2 * JSON_PARSER_MAX_DEPTH + 4];
	json_error_t err;
	json_t *j;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		j = json_loadb(bad[i], strlen(bad[i]), JSON_DECODE_ANY, &err);
		CHECK(j == NULL, "accepted '%s'", bad[i]);
		json_decref(j);
	}
	memset(deep, '[', JSON_PARSER_MAX_DEPTH + 1);
	memset(deep + JSON_PARSER_MAX_DEPTH + 1, ']', JSON_PARSER_MAX_DEPTH + 1);
	j = json_loadb(deep, 2 * JSON_PARSER_MAX_DEPTH + 2, 0, &err);
	CHECK(j == NULL, "accepted %d levels", JSON_PARSER_MAX_DEPTH + 1);
	json_decref(j);

	j = json_loadb(good, strlen(good), 0, &err);
	CHECK(j != NULL, "rejected: line %d, column %d: %s", err.line,
	      err.column, err.text);
	if (!j)
		return;
	CHECK(json_is_integer(json_at(j, "a.0")) &&
	      json_integer_value(json_at(j, "a.0")) == 1, "integer");
	CHECK(json_is_real(json_at(j, "a.1")) &&
	      json_real_value(json_at(j, "a.1")) == -2500, "real");
	CHECK(json_is_true(json_at(j, "a.2")), "true");
	CHECK(json_is_false(json_at(j, "a.3")), "false");
	CHECK(json_is_null(json_at(j, "a.4")), "null");
	CHECK(json_integer_value(json_at(j, "a.5")) == INT64_MAX, "2^63 - 1 exact");
	/* not refused, as before; but the last of a name wins, not the first */
	CHECK(json_integer_value(json_at(j, "d")) == 2, "duplicate");
	CHECK(!strcmp(json_string_value(json_at(j, "s")),
		      "\xc3\xa9\xf0\x9f\x98\x80\n"), "escapes");
	CHECK(json_at(j, "a.6") == NULL && json_at(j, "b") == NULL, "missing paths");
	json_decref(j);
}

/* hs_json_text(): whatever the bytes, valid JSON that says them. */
static void test_json_string(void)
{
	static const char *const in[][2] = {
		{ "plain", "plain" },
		{ "q\"b\\\n", "q\"b\\\n" },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80" },
		{ "x\xff,y", "x\xef\xbf\xbd,y" },		/* a stray byte */
		{ "\xc0\x80", "\xef\xbf\xbd\xef\xbf\xbd" },	/* overlong NUL */
		{ "\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },	/* a surrogate */
		{ "\xe2\x82", "\xef\xbf\xbd\xef\xbf\xbd" },	/* cut short */
	};
	size_t i, len;
	char *text;
	json_t *v;
	FILE *f;

	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		text = NULL;
		f = open_memstream(&text, &len);
		v = hs_json_text(in[i][0]);
		json_dumpf(v, f, JSON_ENCODE_ANY);
		json_decref(v);
		fclose(f);
		v = json_loadb(text, len, JSON_DECODE_ANY, NULL);
		CHECK(json_is_string(v) && !strcmp(json_string_value(v), in[i][1]),
		      "string %zu: %s", i, text);
		json_decref(v);
		free(text);
	}
}

/* layout_wrap() into a string, for the tests below. */
static char *wrapped(const char *text, size_t col, size_t indent,
		     size_t width, unsigned int flags)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	layout_wrap(f, text, col, indent, width, flags);
	fclose(f);
	return buf;
}

#define CHECK_WRAP(want, ...) do {					\
	char *got_ = wrapped(__VA_ARGS__);				\
	CHECK(!strcmp(got_, want), "got \"%s\", want \"%s\"", got_, want); \
	free(got_);							\
} while (0)

/* Each of the three wraps the reports had, now flags of one function. */
static void test_layout_wrap(void)
{
	/* words fill a line exactly, then the next starts at @indent */
	CHECK_WRAP("aa bb\n  cc\n", "aa bb  cc", 0, 2, 5, 0);
	CHECK_WRAP("abcde\nfghij\n", " abcde fghij ", 0, 0, 5, 0);
	/* a word longer than a line: whole, or cut with LAYOUT_CUT */
	CHECK_WRAP("abcdefgh\nij\n", "abcdefgh ij", 0, 0, 5, 0);
	CHECK_WRAP("abcde\nfgh\nij\n", "abcdefgh ij", 0, 0, 5, LAYOUT_CUT);
	CHECK_WRAP("abcde\nfghij\n", "abcdefghij", 0, 0, 5, LAYOUT_CUT);
	/* the cursor already past the width: the first word still goes */
	CHECK_WRAP("xx\n  yy\n", "xx yy", 10, 2, 5, 0);
	/* a hard space prints as a space and holds its words together */
	CHECK_WRAP("a\n1 tick\n", "a 1" LAYOUT_NBSP_STR "tick", 0, 0, 6,
		   LAYOUT_NBSP);
	/* spaces as given, broken at the last space that fits; continuation
	 * lines have @width - @indent columns */
	CHECK_WRAP("a  b\nc\n", "a  b c", 0, 0, 4,
		   LAYOUT_KEEP_SPACES | LAYOUT_CUT);
	CHECK_WRAP("abcd\n  ef\n  g\n", "abcdef g", 0, 2, 4,
		   LAYOUT_KEEP_SPACES | LAYOUT_CUT);
	CHECK_WRAP("\n", "", 3, 0, 10, 0);
}

/* Rows of @t into a string. */
static char *table_text(const struct layout_table *t, const char *const *cells,
			unsigned int nr_rows)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);
	unsigned int r;

	for (r = 0; r < nr_rows; r++)
		layout_row(f, t, cells + r * t->nr_cols);
	fclose(f);
	return buf;
}

static void test_layout_table(void)
{
	static const char *const plain[] = { "a", "bbb", "c",
					     "dddd", "e", "ff" };
	static const char *const list[] = { "x", "aa, bb, cc" };
	static const char *const word[] = { "abcdefghij" };
	struct layout_table t = { .nr_cols = 3, .gap = 2 };
	char *s;

	/* as wide as the widest cell, the last column unpadded */
	layout_widen(&t, plain);
	layout_widen(&t, plain + 3);
	CHECK_EQ(layout_total(&t), 4 + 3 + 2 + 2 * 2);
	s = table_text(&t, plain, 2);
	CHECK(!strcmp(s, "a     bbb  c\ndddd  e    ff\n"), "got \"%s\"", s);
	free(s);
	t.right = 1U << 2;		/* a right-aligned last one is padded */
	s = table_text(&t, plain, 2);
	CHECK(!strcmp(s, "a     bbb   c\ndddd  e    ff\n"), "got \"%s\"", s);
	free(s);

	/* a list gives way whole items first, wrapped under its column */
	t = (struct layout_table){ .nr_cols = 2, .lead = 2, .gap = 2,
				   .flags = LAYOUT_WRAP_CELLS | LAYOUT_TRIM };
	layout_fit(&t, list, 1, 10, 1);
	CHECK_EQ(t.width[0], 1);
	CHECK_EQ(t.width[1], 5);
	CHECK_EQ(layout_total(&t), 10);
	s = table_text(&t, list, 1);
	CHECK(!strcmp(s, "  x  aa,\n     bb,\n     cc\n"), "got \"%s\"", s);
	free(s);

	/* a word wider than the table is cut, the width held exactly */
	t = (struct layout_table){ .nr_cols = 1, .flags = LAYOUT_WRAP_CELLS };
	layout_fit(&t, word, 1, 4, 0);
	CHECK_EQ(t.width[0], 4);
	s = table_text(&t, word, 1);
	CHECK(!strcmp(s, "abcd\nefgh\nij\n"), "got \"%s\"", s);
	free(s);
}

int main(void)
{
	make_bench();
	RUN(test_text);
	RUN(test_markdown);
	RUN(test_csv);
	RUN(test_commit);
	RUN(test_seed_table_average);
	RUN(test_accuracy_verdict);
	RUN(test_json);
	RUN(test_svg);
	RUN(test_json_reader);
	RUN(test_json_string);
	RUN(test_layout_wrap);
	RUN(test_layout_table);
	return CHECK_DONE();
}
