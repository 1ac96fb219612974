// SPDX-License-Identifier: GPL-2.0
/*
 * kmod_import.c - `hotscore bench --import FILE` and the JSON reader under
 * it.  The input is read twice:
 *
 *  - whole, by json_parse() (length-delimited, so NUL bytes too): a value
 *    must come with no error, a failure with "line L, column C: ...";
 *    each string of the value must survive json_write_string() and a
 *    second parse unchanged, and json_path() is walked over it;
 *  - as the file of bench_import(): hotscore.ko's JSON lines, schema
 *    hotscore-kmod-1, into a struct bench whose results must then be
 *    complete (every distribution x mode x function, the sample counts
 *    the header promises).
 *
 * What bench does next with an import (analyze() and the reports) is
 * static in bench.c and not reached here; docs/reliability.md.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/bench.h"
#include "cli/cli.h"
#include "cli/json.h"
#include "fuzz.h"

#define MAX_ROUND_TRIPS 16	/* strings re-parsed per input */

/* Across the jump: static, never a local of a function that setjmp()s. */
static struct bench b;

static void free_bench(void)
{
	size_t i, n;

	if (b.results) {
		n = (size_t)b.nr_dists * b.nr_modes * (b.nr_variants + 1);
		for (i = 0; i < n; i++) {
			free(b.results[i].mt);
			free(b.results[i].scale);
			free(b.results[i].cycles);
			free(b.results[i].ins);
		}
		free(b.results);
	}
	memset(&b, 0, sizeof(b));
}

/* @s written as a JSON string and read back is @s. */
static void round_trip(const char *s)
{
	char *text = NULL, err[128];
	size_t len = 0;
	struct json *v;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	json_write_string(f, s);
	if (fclose(f))
		abort();
	v = json_parse(text, len, err, sizeof(err));
	fuzz_assert(v && v->type == JSON_STRING && !strcmp(v->string, s));
	json_free(v);
	free(text);
}

static void walk(const struct json *v, unsigned int *trips)
{
	size_t i;

	switch (v->type) {
	case JSON_STRING:
		fuzz_assert(v->string && !v->n);
		if ((*trips)++ < MAX_ROUND_TRIPS)
			round_trip(v->string);
		break;
	case JSON_OBJECT:
		for (i = 0; i < v->n; i++) {
			fuzz_assert(v->keys[i]);
			/* the first member of a name is the one json_get() finds */
			fuzz_assert(json_get(v, v->keys[i]) &&
				    json_get(v, v->keys[i])->type <= JSON_OBJECT);
		}
		/* fall through */
	case JSON_ARRAY:
		for (i = 0; i < v->n; i++)
			walk(v->items[i], trips);
		break;
	default:
		fuzz_assert(!v->n && !v->items);
	}
}

static void check_json(const uint8_t *data, size_t size)
{
	static const char *const paths[] = {
		"schema", "mt.0", "0", "0.0", "results.0.ns_per_call.median",
		"a.b.c.d", "",
	};
	struct json *v;
	unsigned int trips = 0, i;
	char err[256] = "";

	v = json_parse((const char *)data, size, err, sizeof(err));
	if (!v) {
		fuzz_assert(!strncmp(err, "line ", 5));
		return;
	}
	walk(v, &trips);
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		(void)json_path(v, paths[i]);
	json_free(v);
}

/* What reporting an import relies on: every cell filled, counts agree. */
static void check_import(void)
{
	size_t i, n = (size_t)b.nr_dists * b.nr_modes * (b.nr_variants + 1);

	fuzz_assert(b.nr_variants >= 1 && b.nr_dists >= 1 && b.nr_modes >= 1);
	fuzz_assert(b.host.clock.hz && b.n && b.runs && b.rounds_per_run);
	for (i = 0; i < n; i++) {
		const struct bench_result *r = &b.results[i];

		fuzz_assert(r->mt && r->scale && r->n ==
			    2 * b.runs * b.rounds_per_run);
		fuzz_assert(r->dist < b.nr_dists && r->name);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_begin(size);
	check_json(data, size);
	b.import = fuzz_file(data, size);
	if (!setjmp(fuzz_jmp)) {
		bench_import(&b);
		check_import();
	}
	bench_import_reset();	/* after a rejection, what the read held */
	free_bench();
	fuzz_end();
	return 0;
}
