// SPDX-License-Identifier: GPL-2.0
/*
 * bench_compare.c - `hotscore bench compare BEFORE.json AFTER.json`: two
 * saved runs (bench --json, schema 2), before and after a build, set
 * against each other cell by cell (variant, distribution, mode), as
 * google/benchmark's tools/compare.py sets two runs' JSON side by side.
 *
 * Each cell's ratio is before / after of its 10 % trimmed geometric mean
 * cost over its run's invocations, with the confidence interval that the
 * two runs' own invocations support (hs_runs_ratio()) and a verdict.  Whatever differs between the runs'
 * machines or settings is named above the table.  A file that is not a
 * saved run gets one line and exit 2; the parser (bench_saved_parse())
 * is fuzzed by tests/fuzz/bench_compare.c.  Either file may be "-",
 * standard input.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "bench_compare.h"
#include "bench_report.h"
#include "cmd_bench.h"
#include "cli.h"
#include "opt.h"
#include "report/layout.h"

#define MAX_FILE	(256UL << 20)	/* as --import's */
#define MAX_CELLS	4096
#define MAX_NAME	255
#define MAX_VALUE	1000	/* invocations: bench's own limit */

static void set_err(char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s", what);
}

/* @o's member @key as a string of at most MAX_NAME bytes, or NULL. */
static const char *name_of(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s && strlen(s) <= MAX_NAME ? s : NULL;
}

/* A cell's invocation values: finite ns >= 0 (null: none measured). */
static int read_values(const json_t *a, struct bench_saved_cell *c,
		       char *err, size_t errlen)
{
	const json_t *v;
	size_t i;
	double ns;

	if (!json_is_array(a)) {
		set_err(err, errlen, "a result without invocation_ns (saved"
			" before schema 2: run bench --json again)");
		return -1;
	}
	if (json_array_size(a) > MAX_VALUE) {
		set_err(err, errlen, "more than 1000 invocations in a result");
		return -1;
	}
	c->ps = calloc(json_array_size(a) + 1, sizeof(*c->ps));
	if (!c->ps) {
		set_err(err, errlen, "out of memory");
		return -1;
	}
	json_array_foreach(a, i, v) {
		if (json_is_null(v))
			continue;
		ns = json_number_value(v);
		if (!json_is_number(v) || !(ns >= 0 && ns < 1e9)) {
			set_err(err, errlen, "an invocation_ns value that is"
				" not a time in ns");
			return -1;
		}
		c->ps[c->nr++] = (uint64_t)llround(ns * 1000);
	}
	return 0;
}

/* One member of "results": kept if a variant's, else skipped. */
static int read_result(const json_t *r, struct bench_saved *s, char *err,
		       size_t errlen)
{
	const char *role = name_of(r, "role");
	const char *names[3] = { name_of(r, "variant"), name_of(r, "dist"),
				 name_of(r, "mode") };
	struct bench_saved_cell *c;
	size_t i;

	if (!json_is_object(r) || !role || !names[0] || !names[1] ||
	    !names[2] || !*names[0] || !*names[1] || !*names[2]) {
		set_err(err, errlen, "a result without its variant, dist, mode"
			" and role");
		return -1;
	}
	if (strcmp(role, "variant") && strcmp(role, "baseline"))
		return 0;	/* the empty call, the door */
	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->cells[i].variant, names[0]) &&
		    !strcmp(s->cells[i].dist, names[1]) &&
		    !strcmp(s->cells[i].mode, names[2])) {
			set_err(err, errlen, "a variant, dist and mode twice");
			return -1;
		}
	c = &s->cells[s->nr++];
	snprintf(c->variant, sizeof(c->variant), "%s", names[0]);
	snprintf(c->dist, sizeof(c->dist), "%s", names[1]);
	snprintf(c->mode, sizeof(c->mode), "%s", names[2]);
	return read_values(json_object_get(r, "invocation_ns"), c, err,
			   errlen);
}

/* jansson's reason, its bytes made printable: the user's one line. */
static void json_err(const json_error_t *je, char *err, size_t errlen)
{
	char text[sizeof(je->text)];
	size_t i;

	for (i = 0; je->text[i] && i + 1 < sizeof(text); i++)
		text[i] = je->text[i] >= 0x20 && je->text[i] < 0x7f ?
			  je->text[i] : '?';
	text[i] = '\0';
	snprintf(err, errlen, "not JSON (line %d: %.60s)", je->line, text);
}

/**
 * bench_saved_parse() - a saved `hotscore bench --json` run.
 * @text:	the file's bytes.
 * @len:	how many.
 * @s:		receives the run: its variants' cells, its environment and
 *		config (bench_saved_free()).
 * @err:	receives one line on failure: printable, at most @errlen.
 * @errlen:	of @err.
 *
 * Return: 0, or -1 with @err set and nothing to free.
 */
int bench_saved_parse(const char *text, size_t len, struct bench_saved *s,
		      char *err, size_t errlen)
{
	const char *tool;
	json_error_t je;
	const json_t *results, *r;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!s->root) {
		json_err(&je, err, errlen);
		return -1;
	}
	tool = json_string_value(json_object_get(s->root, "tool"));
	results = json_object_get(s->root, "results");
	s->env = json_object_get(s->root, "environment");
	s->config = json_object_get(s->root, "config");
	if (!tool || strcmp(tool, "hotscore bench") || !json_is_array(results) ||
	    !json_is_object(s->env) || !json_is_object(s->config)) {
		set_err(err, errlen, "not a run saved by hotscore bench --json");
		goto fail;
	}
	if (json_integer_value(json_object_get(s->root, "schema")) < 2) {
		set_err(err, errlen, "an older schema, without each"
			" invocation: run bench --json again");
		goto fail;
	}
	if (json_array_size(results) > MAX_CELLS) {
		set_err(err, errlen, "more than 4096 results");
		goto fail;
	}
	s->cells = calloc(json_array_size(results) + 1, sizeof(*s->cells));
	if (!s->cells) {
		set_err(err, errlen, "out of memory");
		goto fail;
	}
	json_array_foreach(results, i, r)
		if (read_result(r, s, err, errlen))
			goto fail;
	if (!s->nr) {
		set_err(err, errlen, "no variant's results");
		goto fail;
	}
	return 0;
fail:
	bench_saved_free(s);
	return -1;
}

/** bench_saved_free() - what bench_saved_parse() holds. */
void bench_saved_free(struct bench_saved *s)
{
	size_t i;

	for (i = 0; s->cells && i < s->nr; i++)
		free(s->cells[i].ps);
	free(s->cells);
	json_decref(s->root);
	memset(s, 0, sizeof(*s));
}

/* @path read and parsed, or one line and exit 2. */
static void load(const char *path, struct bench_saved *s)
{
	char msg[256], *text;
	size_t len;
	bool in = !strcmp(path, "-");
	FILE *f = in ? stdin : fopen(path, "rb");
	int err;

	if (!f)
		cli_die("compare: %s: %s", path, strerror(errno));
	text = cli_read_stream(f, MAX_FILE, &len);
	err = errno;	/* fclose() may set it */
	if (!in)
		fclose(f);
	if (!text)
		cli_die("compare: %s: %s", path, err == EFBIG ?
			"larger than 256 MiB" : strerror(err));
	if (bench_saved_parse(text, len, s, msg, sizeof(msg))) {
		free(text);
		cli_die("compare: %s: %s", path, msg);
	}
	free(text);
}

/* @key's value in @o as text, for a mismatch line. */
static void value_text(const json_t *o, const char *key, char *buf,
		       size_t size)
{
	const json_t *v = json_object_get(o, key);
	char *dump;

	if (!v) {
		snprintf(buf, size, "none");
		return;
	}
	if (json_is_string(v)) {
		snprintf(buf, size, "%s", json_string_value(v));
		return;
	}
	dump = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	snprintf(buf, size, "%s", dump ? dump : "?");
	free(dump);
}

/*
 * Equal values; numbers within 0.1 %: a calibrated clock (clock_hz) is
 * never the same to the hertz twice.
 */
static bool same(const json_t *x, const json_t *y)
{
	double a = json_number_value(x), b = json_number_value(y);

	if (!x || !y)
		return !x && !y;
	if (json_is_number(x) && json_is_number(y))
		return fabs(a - b) <= 0.001 * fabs(a > b ? a : b);
	return json_equal(x, y);
}

/*
 * Name each of @keys whose value differs between the runs, in one
 * wrapped paragraph after @what; nothing if none does.  A key "config.K"
 * is K of the runs' config, any other one of their environment.
 */
static void mismatches(const char *what, const char *const *keys,
		       const struct bench_saved *a,
		       const struct bench_saved *b, FILE *f)
{
	char text[2048], va[64], vb[64];
	size_t at = 0;
	unsigned int i, n = 0;

	for (i = 0; keys[i] && at < sizeof(text); i++) {
		bool config = !strncmp(keys[i], "config.", 7);
		const char *key = config ? keys[i] + 7 : keys[i];
		const json_t *x = config ? a->config : a->env;
		const json_t *y = config ? b->config : b->env;

		if (same(json_object_get(x, key), json_object_get(y, key)))
			continue;
		value_text(x, key, va, sizeof(va));
		value_text(y, key, vb, sizeof(vb));
		at += (size_t)snprintf(text + at, sizeof(text) - at,
				       "%s%s %s | %s", n++ ? "; " : what,
				       key, va, vb);
	}
	if (!n)
		return;
	if (at < sizeof(text))
		snprintf(text + at, sizeof(text) - at, ".");
	layout_wrap(f, text, 0, 2, 100, BENCH_WRAP);
}

/* @s chose its invocations by --budget and --precision. */
static bool budgeted(const struct bench_saved *s)
{
	const char *stop = json_string_value(json_object_get(
		json_object_get(s->config, "budget"), "stop"));

	return stop && strcmp(stop, "fixed");
}

/* The machine, then the settings, where the two runs differ. */
static void print_mismatches(const struct bench_saved *a,
			     const struct bench_saved *b, FILE *f)
{
	static const char *const machine[] = {
		"cpu_model", "cpu_flags", "hypervisor", "kernel", "clock",
		"clock_hz", "invariant_tsc", "counters", NULL,
	};
	static const char *settings[] = {
		"governor", "aslr", "compiler", "cflags", "vector",
		"config.iterations", "config.placements",
		"config.rounds", "config.warmup_us",
		"config.batch_n", "config.pool", "config.seed", "config.method",
		"config.invocations", NULL,
	};
	size_t last = sizeof(settings) / sizeof(settings[0]) - 2;

	/* two budgeted runs stop where their noise lets them: not a setting */
	settings[last] = budgeted(a) && budgeted(b) ? NULL :
			 "config.invocations";
	mismatches("Other machines (before | after), so the ratios compare"
		   " the machines too: ", machine, a, b, f);
	mismatches("Other settings (before | after): ", settings, a, b, f);
}

/* @c's cell in @s (same variant, dist and mode), or NULL. */
static const struct bench_saved_cell *cell_in(const struct bench_saved *s,
					      const struct bench_saved_cell *c)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->cells[i].variant, c->variant) &&
		    !strcmp(s->cells[i].dist, c->dist) &&
		    !strcmp(s->cells[i].mode, c->mode))
			return &s->cells[i];
	return NULL;
}

#define COLS 5

/* One row of the table: @x before, @y after. */
static void row_of(const struct bench_saved_cell *x,
		   const struct bench_saved_cell *y, char (*buf)[64],
		   const char **cell)
{
	uint64_t *scratch = cli_xcalloc(HS_RUNS_SCRATCH(x->nr, y->nr),
					sizeof(*scratch));
	struct hs_estimate e;
	enum hs_verdict v;
	char t[2][32];

	v = hs_runs_ratio(x->ps, x->nr, y->ps, y->nr, scratch, &e);
	free(scratch);
	cell[0] = x->variant;
	snprintf(buf[1], 64, "%s", x->nr ? sig3(t[0], sizeof(t[0]),
		 (double)x->median_ps / 1000) : "-");
	snprintf(buf[2], 64, "%s", y->nr ? sig3(t[1], sizeof(t[1]),
		 (double)y->median_ps / 1000) : "-");
	if (!e.value)
		snprintf(buf[3], 64, "-");
	else if (!e.low && !e.high)
		snprintf(buf[3], 64, "%s (%zu | %zu invocations)",
			 sig3(t[0], sizeof(t[0]), bench_ppm(e.value)),
			 x->nr, y->nr);
	else
		sig3_range(buf[3], 64, bench_ppm(e.value), bench_ppm(e.low),
			   bench_ppm(e.high), " - ");
	snprintf(buf[4], 64, "%s", v == HS_FASTER ? "faster" :
		 v == HS_SLOWER ? "slower" : v == HS_UNDECIDED ?
		 "too few invocations" : (e.low > HS_PPM || e.high < HS_PPM) ?
		 "within 1 %" : "no difference");
	cell[1] = buf[1];
	cell[2] = buf[2];
	cell[3] = buf[3];
	cell[4] = buf[4];
}

/* Each cell's median over its invocations, in ps (0: none). */
static void medians(struct bench_saved *s)
{
	uint64_t *buf;
	size_t i;

	for (i = 0; i < s->nr; i++) {
		struct bench_saved_cell *c = &s->cells[i];

		if (!c->nr)
			continue;
		buf = cli_xcalloc(c->nr, sizeof(*buf));
		memcpy(buf, c->ps, c->nr * sizeof(*buf));
		hs_sort_u64(buf, c->nr);
		c->median_ps = hs_quantile(buf, c->nr, 500);
		free(buf);
	}
}

/* Cell @i of @s is the first of its distribution and mode. */
static bool first_of_stream(const struct bench_saved *s, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (!strcmp(s->cells[j].dist, s->cells[i].dist) &&
		    !strcmp(s->cells[j].mode, s->cells[i].mode))
			return false;
	return true;
}

/*
 * The cells in both runs, a table per distribution and mode (in the
 * first run's order), its columns as wide as the widest of all of them.
 */
static void print_cells(struct bench_saved *a, struct bench_saved *b,
			FILE *f)
{
	static const char *const head[COLS] = { "variant", "before ns",
		"after ns", "ratio [95% CI]", "verdict" };
	const char **cells = cli_xcalloc((a->nr + 1) * COLS, sizeof(*cells));
	char (*buf)[64] = cli_xcalloc((a->nr + 1) * COLS, sizeof(*buf));
	struct bench_saved_cell **of = cli_xcalloc(a->nr + 1, sizeof(*of));
	struct layout_table t = { .nr_cols = COLS, .gap = 2,
				  .flags = LAYOUT_WRAP_CELLS };
	unsigned int rows = 1, i, k;
	const struct bench_saved_cell *y;

	memcpy(cells, head, sizeof(head));
	for (i = 0; i < a->nr; i++) {
		y = cell_in(b, &a->cells[i]);
		if (!y)
			continue;
		of[rows] = &a->cells[i];
		row_of(&a->cells[i], y, buf + rows * COLS, cells + rows * COLS);
		rows++;
	}
	layout_fit(&t, cells, rows, 100, COLS);
	for (i = 0; i < a->nr; i++) {
		if (!first_of_stream(a, i))
			continue;
		fprintf(f, "\n%s, %s:\n", a->cells[i].dist, a->cells[i].mode);
		layout_row(f, &t, cells);
		for (k = 1; k < rows; k++)
			if (!strcmp(of[k]->dist, a->cells[i].dist) &&
			    !strcmp(of[k]->mode, a->cells[i].mode))
				layout_row(f, &t, cells + k * COLS);
	}
	free(of);
	free(buf);
	free(cells);
}

/* The cells of @s that @other lacks, in one wrapped line. */
static void print_only(const char *which, const struct bench_saved *s,
		       const struct bench_saved *other, FILE *f)
{
	char text[2048];
	size_t at = 0, i;
	unsigned int n = 0;

	for (i = 0; i < s->nr && at < sizeof(text); i++)
		if (!cell_in(other, &s->cells[i]))
			at += (size_t)snprintf(text + at, sizeof(text) - at,
				"%s%s %s %s", n++ ? ", " : "Only in ",
				s->cells[i].variant, s->cells[i].dist,
				s->cells[i].mode);
	if (!n)
		return;
	if (at < sizeof(text))
		snprintf(text + at, sizeof(text) - at, " (%s).", which);
	layout_wrap(f, text, 0, 2, 100, BENCH_WRAP);
}

/**
 * bench_compare() - `hotscore bench compare BEFORE.json AFTER.json`.
 * @argc:	argument count, argv[0] being "compare".
 * @argv:	the arguments.
 *
 * Return: 0; a file that is not a saved run, or two runs with no cell in
 * common, exit 2.
 */
int bench_compare(int argc, char **argv)
{
	static struct bench_saved a, b;
	char text[1024];
	size_t i, n;

	if (argc == 2 && (!strcmp(argv[1], "-h") ||
			  !strcmp(argv[1], "--help"))) {
		printf("usage: hotscore bench compare BEFORE.json AFTER.json\n"
		       "(hotscore help bench: the whole of it)\n");
		return 0;
	}
	if (argc != 3 || (argv[1][0] == '-' && argv[1][1]) ||
	    (argv[2][0] == '-' && argv[2][1]) ||
	    (!strcmp(argv[1], "-") && !strcmp(argv[2], "-")))
		cli_usage_die("compare takes two saved runs: BEFORE.json"
			      " AFTER.json");
	opt_parsed(&cmd_bench);	/* HOTSCORE_CHECK_ARGS: the form alone */
	load(argv[1], &a);
	load(argv[2], &b);
	for (i = n = 0; i < a.nr; i++)
		n += cell_in(&b, &a.cells[i]) != NULL;
	if (!n)
		cli_die("compare: %s and %s have no variant, dist and mode in"
			" common", argv[1], argv[2]);
	medians(&a);
	medians(&b);
	snprintf(text, sizeof(text), "Before %s, after %s. Ratio = before"
		 " / after of each variant's cost, its 10 %% trimmed geometric"
		 " mean over its run's invocations (above 1: after is faster,"
		 " and the verdict says so; the ns columns are the medians);"
		 " the 95 %% confidence interval adds the two runs' standard"
		 " errors. A drift between the runs that neither run's"
		 " invocations show is not in it: each run's A/A line says"
		 " whether it saw noise beyond its invocations. A verdict"
		 " needs the interval to exclude 1 and the ratio to leave the"
		 " 1 %% noise band.", argv[1], argv[2]);
	layout_wrap(stdout, text, 0, 0, 100, BENCH_WRAP);
	print_mismatches(&a, &b, stdout);
	print_cells(&a, &b, stdout);
	print_only(argv[1], &a, &b, stdout);
	print_only(argv[2], &b, &a, stdout);
	bench_saved_free(&a);
	bench_saved_free(&b);
	return cli_finish(0);
}
