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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "json.h"

struct record {
	struct json *j;
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
static struct json *line_json;	/* the line being checked */

/*
 * What hotscore.ko times besides the model's variants: identify's running
 * kernel's own damon_hot_score(), and the candidates built in with make
 * kmod CANDIDATE=FILE (kmod/cand.c).
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
#define MAX_EXACT	9007199254740992.0	/* 2^53: doubles are exact below */

/* A whole non-negative number that a double holds exactly, or exit 2. */
static uint64_t whole(const struct json *v, const char *what, double max,
		      unsigned int line)
{
	if (v->type != JSON_NUMBER || v->number < 0 || v->number > max ||
	    v->number != (double)(uint64_t)v->number)
		cli_die("--import: %s:%u: %s is not a whole number in 0..%.0f",
		       path, line, what, max);
	return (uint64_t)v->number;
}

static const struct json *need(const struct json *o, const char *key,
			       enum json_type type, unsigned int line)
{
	const struct json *v = json_get(o, key);

	if (!v || v->type != type)
		cli_die("--import: %s:%u: no %s", path, line, key);
	return v;
}

/* The whole file into text, NUL-terminated. */
static void read_all(size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n;

	if (!f)
		cli_die("--import: %s: %s", path, strerror(errno));
	text = malloc(cap);
	*len = 0;
	while (text && (n = fread(text + *len, 1, cap - *len - 1, f)) > 0) {
		*len += n;
		if (*len > MAX_FILE)
			cli_die("--import: %s: larger than 256 MiB", path);
		if (*len + 1 == cap)
			text = realloc(text, cap *= 2);
	}
	if (!text)
		cli_die("--import: out of memory");
	if (ferror(f))
		cli_die("--import: %s: %s", path, strerror(errno));
	fclose(f);
	text[*len] = '\0';
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
		json_free(recs[--nr_recs].j);
	free(recs);
	recs = NULL;
	json_free(line_json);
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

static void set_host(struct bench *b, const struct json *j, unsigned int line)
{
	const char *kernel = need(j, "kernel", JSON_STRING, line)->string;
	static char clock_name[128];	/* outlives the parsed line */
	struct hs_host *h = &b->host;

	snprintf(clock_name, sizeof(clock_name), "%s",
		 need(j, "clock", JSON_STRING, line)->string);
	h->clock.name = clock_name;
	h->clock.hz = whole(need(j, "hz", JSON_NUMBER, line), "hz", 1e12, line);
	h->clock.step = whole(need(j, "step", JSON_NUMBER, line), "step", 1e9,
			      line);
	h->clock.tsc = strstr(h->clock.name, "tsc") != NULL;
	if (!h->clock.hz)
		cli_die("--import: %s:%u: hz is 0", path, line);
	snprintf(h->clock_desc, sizeof(h->clock_desc),
		 "the kernel's tsc_khz, read by hotscore.ko");
	snprintf(h->perf, sizeof(h->perf), "none (measured in the kernel)");
	snprintf(h->cpu_model, sizeof(h->cpu_model), "hotscore.ko");
	snprintf(h->governor, sizeof(h->governor), "n/a");
	snprintf(h->kernel, sizeof(h->kernel), "%s", kernel);
	h->cpu = -1;
	b->iterations = whole(need(j, "iterations", JSON_NUMBER, line),
			      "iterations", 1e12, line);
	b->runs = whole(need(j, "runs", JSON_NUMBER, line), "runs", 1e6, line);
	b->rounds_per_run = whole(need(j, "rounds_per_run", JSON_NUMBER, line),
				  "rounds_per_run", 1e6, line);
	b->n = whole(need(j, "n", JSON_NUMBER, line), "n", 1e9, line);
	b->seed = whole(need(j, "seed", JSON_NUMBER, line), "seed", MAX_EXACT,
			line);
	if (!b->n || !b->runs || !b->rounds_per_run)
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
	const struct json *mt = need(rec->j, "mt", JSON_ARRAY, rec->line);
	const struct json *sc = need(rec->j, "scale", JSON_ARRAY, rec->line);
	size_t i;

	if (r->mt)
		cli_die("--import: %s:%u: %s is given twice", path, rec->line,
		       r->name);
	if (mt->n != 2 * b->runs * b->rounds_per_run || sc->n != mt->n)
		cli_die("--import: %s:%u: mt and scale must hold 2 x runs x rounds_per_run = %lu samples",
		       path, rec->line, 2 * b->runs * b->rounds_per_run);
	r->n = mt->n;
	r->mt = calloc(r->n, sizeof(*r->mt));
	r->scale = calloc(r->n, sizeof(*r->scale));
	r->cycles = calloc(r->n, sizeof(*r->cycles));
	r->ins = calloc(r->n, sizeof(*r->ins));
	if (!r->mt || !r->scale || !r->cycles || !r->ins)
		cli_die("--import: out of memory");
	/* a call of a second, a 2N/N ratio of 1000: far beyond any sample */
	for (i = 0; i < r->n; i++) {
		r->mt[i] = whole(mt->items[i], "a sample (mt)", 1e3 * 1e12,
				 rec->line);
		r->scale[i] = whole(sc->items[i], "a sample (scale)", 1e6,
				    rec->line);
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
	static const char *dists[BENCH_MAX_LIST], *modes[BENCH_MAX_LIST];
	static const char *fns[BENCH_MAX_LIST + 1] = { "empty" };
	unsigned int nd = 0, nm = 0, nf = 1, line = 0, i, k;
	size_t len;
	char *p, err[256];

	path = b->import;
	read_all(&len);
	for (p = text; *p; ) {
		char *end = strchr(p, '\n');
		struct json *j;
		const struct json *schema;

		if (end)
			*end = '\0';
		line++;
		if (*p) {
			j = line_json = json_parse(p, strlen(p), err,
						   sizeof(err));
			if (!j || j->type != JSON_OBJECT)
				cli_die("--import: %s:%u: not a JSON object: %s",
				       path, line, j ? "" : err);
			schema = json_get(j, "schema");
			if (!schema || schema->type != JSON_STRING ||
			    strcmp(schema->string, "hotscore-kmod-1"))
				cli_die("--import: %s:%u: not hotscore-kmod-1 output",
				       path, line);
			if (!json_get(j, "fn") && !json_get(j, "identify") &&
			    !json_get(j, "verdict"))
				cli_die("--import: %s:%u: neither a result (fn) nor identify's",
				       path, line);
			if (json_get(j, "fn")) {	/* a bench result */
				struct record *rec;

				recs = realloc(recs, (nr_recs + 1) *
					       sizeof(*recs));
				if (!recs)
					cli_die("--import: out of memory");
				rec = &recs[nr_recs++];	/* owns j from here */
				rec->j = j;
				rec->line = line;
				line_json = NULL;
				rec->dist = intern(dists, &nd,
					need(j, "dist", JSON_STRING, line)->string, line);
				rec->mode = intern(modes, &nm,
					need(j, "mode", JSON_STRING, line)->string, line);
				rec->fn = intern(fns, &nf,
					need(j, "fn", JSON_STRING, line)->string, line);
			} else {	/* identify's lines */
				json_free(j);
				line_json = NULL;
			}
		}
		if (!end)
			break;
		p = end + 1;
	}
	if (!nr_recs)
		cli_die("--import: %s: no bench results (identify's lines only?)",
		       path);
	if (nf < 2)
		cli_die("--import: %s: no variant besides the empty function",
		       path);
	set_host(b, recs[0].j, recs[0].line);
	for (i = 1; i < nr_recs; i++) {	/* one measurement, one configuration */
		const char *keys[] = { "kernel", "clock", "hz", "step", "iterations",
				       "runs", "rounds_per_run", "n", "seed" };

		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			const struct json *a = json_get(recs[0].j, keys[k]);
			const struct json *o = json_get(recs[i].j, keys[k]);

			if (!o || o->type != a->type ||
			    (a->type == JSON_NUMBER && a->number != o->number) ||
			    (a->type == JSON_STRING &&
			     strcmp(a->string, o->string)))
				cli_die("--import: %s:%u: %s differs from line %u's",
				       path, recs[i].line, keys[k],
				       recs[0].line);
		}
	}
	for (k = 1; k < nf; k++) {
		b->variants[k - 1] = module_fn(fns[k]);
		if (!b->variants[k - 1])
			cli_die("--import: %s: '%s' is not a variant", path,
			       fns[k]);
		if (b->variants[k - 1]->user_only)
			cli_die("--import: %s: '%s' is timed in user space only, not by hotscore.ko",
			       path, fns[k]);
	}
	b->nr_variants = nf - 1;
	for (i = 0; i < nd; i++) {
		struct bench_dist *d = &b->dists[i];

		snprintf(d->name, sizeof(d->name), "%s", dists[i]);
		for (k = 0; k < HS_NR_DISTS; k++)
			if (!strcmp(dists[i], hs_dist_name(k)))
				break;
		if (k == HS_NR_DISTS)
			cli_die("--import: %s: '%s' is not a distribution", path,
			       dists[i]);
		d->kind = k;
	}
	b->nr_dists = nd;
	for (i = 0; i < nm; i++) {
		for (k = 0; k < HS_NR_MODES; k++)
			if (!strcmp(modes[i], hs_mode_name(k)))
				break;
		if (k == HS_NR_MODES)
			cli_die("--import: %s: '%s' is not a mode", path,
			       modes[i]);
		b->modes[i] = k;
	}
	b->nr_modes = nm;
	b->results = calloc((size_t)nd * nm * nf, sizeof(*b->results));
	if (!b->results)
		cli_die("--import: out of memory");
	for (i = 0; i < nd; i++)
		for (k = 0; k < nm; k++) {
			unsigned int v;

			for (v = 0; v < nf; v++) {
				struct bench_result *r = bench_at(b, i, k, v);

				r->variant = v ? b->variants[v - 1] : NULL;
				r->name = v ? r->variant->name : "empty";
				r->dist = i;
				r->mode = b->modes[k];
			}
		}
	for (i = 0; i < nr_recs; i++)
		fill(b, &recs[i]);
	while (nr_recs)
		json_free(recs[--nr_recs].j);
	for (i = 0; i < (unsigned int)(nd * nm * nf); i++) {
		const struct bench_result *r = &b->results[i];

		if (!r->mt)
			cli_die("--import: %s: no results for %s, %s, %s", path,
			       r->name, b->dists[r->dist].name,
			       hs_mode_name(r->mode));
		if (r->n != b->results[i - i % nf].n)
			cli_die("--import: %s: %s has %zu samples, the others of its mode %zu",
			       path, r->name, r->n, b->results[i - i % nf].n);
	}
	bench_import_reset();
}
