// SPDX-License-Identifier: GPL-2.0
/*
 * bench_import.c - `hotscore bench --import FILE`: the samples hotscore.ko
 * measured inside a kernel (debugfs hotscore/results, one JSON object a
 * line, schema "hotscore-kmod-1") as a struct bench, so that user space
 * analyses and reports them exactly as it does its own.  The kernel
 * measures no cost classes, so the seed-format tables are the module's,
 * in the kernel log.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd_bench.h"
#include "cli.h"

struct record {
	json_t *j;
	unsigned int line;
	unsigned int dist, mode, fn;	/* fn 0: empty */
};

/*
 * Reachable until exit, even from cli_die(); bench_import_reset() frees
 * them when a fuzz harness's hook returns from cli_die() by longjmp().
 */
static const char *path;
static char *text;		/* the file */
static struct record *recs;	/* the bench results, parsed */
static unsigned int nr_recs;	/* how many hold a parse tree */
static json_t *line_json;	/* the line being checked */

/*
 * What hotscore.ko times besides the model's variants: identify's running
 * kernel's own damon_hot_score(), and the candidates built in with make
 * kmod CANDIDATE=FILE (kmod/candidates.c).
 */
static const struct hs_variant module_fns[] = {
	{ .name = "kernel", .what = "the running kernel's damon_hot_score()" },
	{ .name = "candidate",
	  .what = "a candidate file compiled into hotscore.ko (make kmod CANDIDATE=FILE)" },
	{ .name = "hotfix-cand",
	  .what = "examples/candidates/hotfix.c compiled into hotscore.ko as a candidate" },
};

/* A name in the module's results: one of module_fns, or the model's. */
static const struct hs_variant *module_fn(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(module_fns) / sizeof(module_fns[0]); i++)
		if (!strcmp(module_fns[i].name, name))
			return &module_fns[i];
	return hs_variant_find(name);
}

#define MAX_FILE	(256UL << 20)
#define MAX_DEPTH	64	/* the module's lines are 2 deep */
#define E6		1000000ULL
#define MAX_EXACT	(1ULL << 53)	/* doubles are exact up to here */

/*
 * A whole number in 0..@max, or exit 2.  The module prints every number
 * as an unsigned integer (%llu, %lu, %zu), and jansson keeps integers
 * exact as json_int_t (long long): so each is taken exactly, the seed (a
 * u64 in the module) up to 2^63 - 1 where the old reader's doubles
 * stopped at 2^53; past 2^63 - 1 jansson refuses the line (read_line()).
 * A number written as a real, 4e5, is still taken if whole and at most
 * 2^53, where a double is exact, as the old reader took it.
 */
static uint64_t whole(const json_t *v, const char *what, uint64_t max,
		      unsigned int line)
{
	double d = json_is_real(v) ? json_real_value(v) : -1;

	if (json_is_integer(v) && json_integer_value(v) >= 0 &&
	    (uint64_t)json_integer_value(v) <= max)
		return (uint64_t)json_integer_value(v);
	if (d >= 0 && d <= (double)max && d <= (double)MAX_EXACT &&
	    d == (double)(uint64_t)d)
		return (uint64_t)d;
	cli_die("--import: %s:%u: %s is not a whole number in 0..%llu", path,
		line, what, (unsigned long long)max);
}

static const json_t *need(const json_t *o, const char *key,
			  json_type type, unsigned int line)
{
	const json_t *v = json_object_get(o, key);

	if (!v || json_typeof(v) != type)
		cli_die("--import: %s:%u: no %s", path, line, key);
	return v;
}

static const char *need_string(const json_t *o, const char *key,
			       unsigned int line)
{
	return json_string_value(need(o, key, JSON_STRING, line));
}

/* @key's whole number: a missing or non-number member is "no KEY". */
static uint64_t need_whole(const json_t *o, const char *key, uint64_t max,
			   unsigned int line)
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_number(v))
		cli_die("--import: %s:%u: no %s", path, line, key);
	return whole(v, key, max, line);
}

/* The whole file into text, NUL-terminated. */
static void read_all(size_t *len)
{
	FILE *f = fopen(path, "rb");
	int err;

	if (!f)
		cli_die("--import: %s: %s", path, strerror(errno));
	text = cli_read_stream(f, MAX_FILE, len);
	err = errno;
	fclose(f);	/* before any cli_die(): a harness's hook returns */
	if (!text && err == EFBIG)
		cli_die("--import: %s: larger than 256 MiB", path);
	if (!text && err == ENOMEM)
		cli_die("--import: out of memory");
	if (!text)
		cli_die("--import: %s: %s", path, strerror(err));
	if (strlen(text) != *len)
		cli_die("--import: %s: a NUL byte: not the module's text output",
		       path);
}

/*
 * For tests/fuzz/: free what bench_import() holds, wherever cli_die() left
 * it; struct bench is the caller's.  Not part of the CLI's interface.
 */
void bench_import_reset(void);
void bench_import_reset(void)
{
	while (nr_recs)
		json_decref(recs[--nr_recs].j);
	free(recs);
	recs = NULL;
	json_decref(line_json);
	line_json = NULL;
	free(text);
	text = NULL;
}

/* The index of @name in @names, appending it if new. */
static unsigned int intern(const char **names, unsigned int *nr,
			   const char *name, unsigned int line)
{
	unsigned int i;

	for (i = 0; i < *nr; i++)
		if (!strcmp(names[i], name))
			return i;
	if (*nr == BENCH_MAX_LIST)
		cli_die("--import: %s:%u: more than %d names", path, line,
		       BENCH_MAX_LIST);
	names[*nr] = name;
	return (*nr)++;
}

/*
 * @key's string into @buf, or BENCH_UNKNOWN where the line has none (or an
 * empty one): results from a module older than the member still import,
 * and the report says what it does not know rather than guessing.
 */
static void optional_string(const json_t *o, const char *key, char *buf,
			    size_t len, unsigned int line)
{
	const json_t *v = json_object_get(o, key);

	if (v && !json_is_string(v))
		cli_die("--import: %s:%u: %s is not a string", path, line, key);
	snprintf(buf, len, "%s", v && *json_string_value(v) ?
		 json_string_value(v) : BENCH_UNKNOWN);
}

static void set_host(struct bench *b, const json_t *j, unsigned int line)
{
	const char *kernel = need_string(j, "kernel", line);
	static char clock_name[128];	/* outlives the parsed line */
	struct hs_host *h = &b->host;

	snprintf(clock_name, sizeof(clock_name), "%s",
		 need_string(j, "clock", line));
	h->clock.name = clock_name;
	h->clock.hz = need_whole(j, "hz", E6 * E6, line);
	h->clock.step = need_whole(j, "step", 1000 * E6, line);
	h->clock.tsc = strstr(h->clock.name, "tsc") != NULL;
	if (!h->clock.hz)
		cli_die("--import: %s:%u: hz is 0", path, line);
	snprintf(h->clock_desc, sizeof(h->clock_desc),
		 "the kernel's tsc_khz, read by hotscore.ko");
	snprintf(h->perf, sizeof(h->perf), "none (measured in the kernel)");
	optional_string(j, "cpu_model", h->cpu_model, sizeof(h->cpu_model),
			line);
	optional_string(j, "vector", b->vector.impl, sizeof(b->vector.impl),
			line);
	optional_string(j, "cpu_flags", b->vector.flags,
			sizeof(b->vector.flags), line);
	snprintf(h->governor, sizeof(h->governor), "n/a");
	snprintf(h->kernel, sizeof(h->kernel), "%s", kernel);
	h->cpu = -1;
	b->iterations = need_whole(j, "iterations", E6 * E6, line);
	/* the module's runs are the blocks: one load, one placement */
	b->invocations = need_whole(j, "runs", E6, line);
	b->rounds = need_whole(j, "rounds_per_run", E6, line);
	b->placements = 1;
	b->module_blocks = true;
	b->n = need_whole(j, "n", 1000 * E6, line);
	b->seed = need_whole(j, "seed", INT64_MAX, line);
	if (!b->n || !b->invocations || !b->rounds)
		cli_die("--import: %s:%u: n, runs and rounds_per_run must be positive",
		       path, line);
	b->pool = 1000;
	b->layout = HS_LAYOUT_FIXED;
	b->compiler = "the kernel's (Kbuild)";
	b->cflags = "the kernel's (Kbuild)";
}

static void fill(struct bench *b, const struct record *rec)
{
	struct bench_result *r = bench_at(b, rec->dist, rec->mode, rec->fn);
	const json_t *mt = need(rec->j, "mt", JSON_ARRAY, rec->line);
	const json_t *sc = need(rec->j, "scale", JSON_ARRAY, rec->line);
	size_t i;

	if (r->mt)
		cli_die("--import: %s:%u: %s is given twice", path, rec->line,
		       r->name);
	if (json_array_size(mt) != 2 * b->invocations * b->rounds ||
	    json_array_size(sc) != json_array_size(mt))
		cli_die("--import: %s:%u: mt and scale must hold 2 x runs x rounds_per_run = %lu samples",
		       path, rec->line, 2 * b->invocations * b->rounds);
	r->n = json_array_size(mt);
	r->mt = calloc(r->n, sizeof(*r->mt));
	r->scale = calloc(r->n, sizeof(*r->scale));
	r->cycles = calloc(r->n, sizeof(*r->cycles));
	r->ins = calloc(r->n, sizeof(*r->ins));
	if (!r->mt || !r->scale || !r->cycles || !r->ins)
		cli_die("--import: out of memory");
	/* a call of a second, a 2N/N ratio of 1000: far beyond any sample */
	for (i = 0; i < r->n; i++) {
		r->mt[i] = whole(json_array_get(mt, i), "a sample (mt)",
				 1000 * E6 * E6, rec->line);
		r->scale[i] = whole(json_array_get(sc, i), "a sample (scale)",
				    E6, rec->line);
	}
}

/*
 * The hand-written reader this replaced refused nesting beyond 64 levels;
 * jansson stops only at JSON_PARSER_MAX_DEPTH (2048).  The module's lines
 * are 2 deep, so keep the old, tighter promise to hostile input.
 */
static bool shallow(json_t *v, unsigned int depth)
{
	const char *key;
	json_t *item;
	size_t i;

	if (depth > MAX_DEPTH)
		return false;
	if (json_is_array(v)) {
		json_array_foreach(v, i, item)
			if (!shallow(item, depth + 1))
				return false;
	} else if (json_is_object(v)) {
		json_object_foreach(v, key, item)
			if (!shallow(item, depth + 1))
				return false;
	}
	return true;
}

/*
 * One line of the file, parsed and checked to be one of the module's,
 * into line_json; or exit 2 with why.  Duplicate names are not refused,
 * as the old reader did not refuse them, but jansson keeps the last one
 * (the old reader the first); the module never repeats a name.
 */
static json_t *read_line(const char *p, unsigned int line)
{
	const char *schema;
	json_error_t e;
	json_t *j;

	j = line_json = json_loadb(p, strlen(p), 0, &e);
	if (!j && json_error_code(&e) == json_error_numeric_overflow)
		cli_die("--import: %s:%u: column %d: a number out of range (integers stop at 2^63 - 1): %s",
			path, line, e.column, e.text);
	if (!j)
		cli_die("--import: %s:%u: not a JSON object: column %d: %s",
			path, line, e.column, e.text);
	if (!json_is_object(j))
		cli_die("--import: %s:%u: not a JSON object", path, line);
	if (!shallow(j, 0))
		cli_die("--import: %s:%u: nested more than %d deep", path, line,
			MAX_DEPTH);
	schema = json_string_value(json_object_get(j, "schema"));
	if (!schema || strcmp(schema, "hotscore-kmod-1"))
		cli_die("--import: %s:%u: not hotscore-kmod-1 output", path,
			line);
	if (!json_object_get(j, "fn") && !json_object_get(j, "identify") &&
	    !json_object_get(j, "verdict"))
		cli_die("--import: %s:%u: neither a result (fn) nor identify's",
			path, line);
	return j;
}

/* A bench result line, kept: the record owns it from here. */
static struct record *keep(json_t *j, unsigned int line)
{
	struct record *rec;

	recs = realloc(recs, (nr_recs + 1) * sizeof(*recs));
	if (!recs)
		cli_die("--import: out of memory");
	rec = &recs[nr_recs++];
	rec->j = j;
	rec->line = line;
	line_json = NULL;
	return rec;
}

/*
 * A header member of a later line, @o, is the first line's @a: the same
 * string, or the same number however written (4e5 is 400000, as when
 * every number was a double); two integers compare exactly.
 */
static bool same_value(const json_t *a, const json_t *o)
{
	if (json_is_string(a))
		return json_is_string(o) &&
		       !strcmp(json_string_value(a), json_string_value(o));
	if (json_is_integer(a) && json_is_integer(o))
		return json_integer_value(a) == json_integer_value(o);
	return json_is_number(o) && json_number_value(a) == json_number_value(o);
}

/* The file's names, in order of first appearance; fns[0] is "empty". */
struct names {
	const char *dists[BENCH_MAX_LIST], *modes[BENCH_MAX_LIST];
	const char *fns[BENCH_MAX_LIST + 1];
	unsigned int nd, nm, nf;
};

/* One non-empty line: a bench result is kept and its names interned. */
static void take_line(struct names *nn, char *p, unsigned int line)
{
	json_t *j = read_line(p, line);
	struct record *rec;

	if (!json_object_get(j, "fn")) {	/* identify's lines */
		json_decref(j);
		line_json = NULL;
		return;
	}
	rec = keep(j, line);
	rec->dist = intern(nn->dists, &nn->nd, need_string(j, "dist", line),
			   line);
	rec->mode = intern(nn->modes, &nn->nm, need_string(j, "mode", line),
			   line);
	rec->fn = intern(nn->fns, &nn->nf, need_string(j, "fn", line), line);
}

/* Every line of the file into recs, its names into @nn. */
static void read_records(struct names *nn)
{
	unsigned int line = 0;
	size_t len;
	char *p;

	read_all(&len);
	for (p = text; *p; ) {
		char *end = strchr(p, '\n');

		if (end)
			*end = '\0';
		line++;
		if (*p)
			take_line(nn, p, line);
		if (!end)
			break;
		p = end + 1;
	}
	if (!nr_recs)
		cli_die("--import: %s: no bench results (identify's lines only?)",
		       path);
	if (nn->nf < 2)
		cli_die("--import: %s: no variant besides the empty function",
		       path);
}

/*
 * Every line is one measurement's: the same configuration and machine as
 * the first.  A member that no line has (an older module's) agrees.
 */
static void check_one_config(void)
{
	static const char *const keys[] = {
		"kernel", "clock", "hz", "step", "iterations", "runs",
		"rounds_per_run", "n", "seed", "cpu_model", "cpu_flags",
		"vector",
	};
	unsigned int i, k;

	for (i = 1; i < nr_recs; i++)
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			const json_t *a = json_object_get(recs[0].j, keys[k]);
			const json_t *o = json_object_get(recs[i].j, keys[k]);

			if (!a && !o)
				continue;
			if (!a || !o || !same_value(a, o))
				cli_die("--import: %s:%u: %s differs from line %u's",
				       path, recs[i].line, keys[k],
				       recs[0].line);
		}
}

/* The variants, distributions and modes that @nn names, checked. */
static void set_lists(struct bench *b, const struct names *nn)
{
	unsigned int i, k;

	for (k = 1; k < nn->nf; k++) {
		b->variants[k - 1] = module_fn(nn->fns[k]);
		if (!b->variants[k - 1])
			cli_die("--import: %s: '%s' is not a variant", path,
			       nn->fns[k]);
		if (b->variants[k - 1]->user_only)
			cli_die("--import: %s: '%s' is timed in user space only, not by hotscore.ko",
			       path, nn->fns[k]);
	}
	b->nr_variants = nn->nf - 1;
	for (i = 0; i < nn->nd; i++) {
		struct bench_dist *d = &b->dists[i];

		snprintf(d->name, sizeof(d->name), "%s", nn->dists[i]);
		for (k = 0; k < HS_NR_DISTS; k++)
			if (!strcmp(nn->dists[i], hs_dist_name(k)))
				break;
		if (k == HS_NR_DISTS)
			cli_die("--import: %s: '%s' is not a distribution", path,
			       nn->dists[i]);
		d->kind = k;
	}
	b->nr_dists = nn->nd;
	for (i = 0; i < nn->nm; i++) {
		for (k = 0; k < HS_NR_MODES; k++)
			if (!strcmp(nn->modes[i], hs_mode_name(k)))
				break;
		if (k == HS_NR_MODES)
			cli_die("--import: %s: '%s' is not a mode", path,
			       nn->modes[i]);
		b->modes[i] = k;
	}
	b->nr_modes = nn->nm;
}

/* b->results, each named and placed, its samples still to fill. */
static void alloc_results(struct bench *b, unsigned int nf)
{
	unsigned int i, k, v;

	b->results = calloc((size_t)b->nr_dists * b->nr_modes * nf,
			    sizeof(*b->results));
	if (!b->results)
		cli_die("--import: out of memory");
	for (i = 0; i < b->nr_dists; i++)
		for (k = 0; k < b->nr_modes; k++)
			for (v = 0; v < nf; v++) {
				struct bench_result *r = bench_at(b, i, k, v);

				r->variant = v ? b->variants[v - 1] : NULL;
				r->name = v ? r->variant->name : "empty";
				r->dist = i;
				r->mode = b->modes[k];
			}
}

/* Every (distribution, mode, function) has samples, as many as its mode's. */
static void check_complete(const struct bench *b, unsigned int nf)
{
	unsigned int i, all = b->nr_dists * b->nr_modes * nf;

	for (i = 0; i < all; i++) {
		const struct bench_result *r = &b->results[i];

		if (!r->mt)
			cli_die("--import: %s: no results for %s, %s, %s", path,
			       r->name, b->dists[r->dist].name,
			       hs_mode_name(r->mode));
		if (r->n != b->results[i - i % nf].n)
			cli_die("--import: %s: %s has %zu samples, the others of its mode %zu",
			       path, r->name, r->n, b->results[i - i % nf].n);
	}
}

/**
 * bench_import() - fill @b from --import's file: the configuration, the
 * machine as far as the module knows it, and every sample.
 * @b:		the bench, parsed; b->import is the file.
 *
 * Bad input exits with status 2 naming the file and line.
 */
void bench_import(struct bench *b)
{
	static struct names nn;
	unsigned int i;

	nn = (struct names){ .fns = { "empty" }, .nf = 1 };
	path = b->import;
	read_records(&nn);
	set_host(b, recs[0].j, recs[0].line);
	check_one_config();
	set_lists(b, &nn);
	alloc_results(b, nn.nf);
	for (i = 0; i < nr_recs; i++)
		fill(b, &recs[i]);
	while (nr_recs)
		json_decref(recs[--nr_recs].j);
	check_complete(b, nn.nf);
	bench_import_reset();
}
