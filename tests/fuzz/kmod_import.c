// SPDX-License-Identifier: GPL-2.0
/*
 * kmod_import.c - `hotscore bench --import FILE`, and hotscore's JSON
 * writer against the reader, jansson.  The input is read twice:
 *
 *  - whole, by json_loadb() (length-delimited, so NUL bytes too): a
 *    failure must say what; each string of a value must survive
 *    hs_json_text() and a second parse unchanged, and each member
 *    of an object be the one json_object_get() finds by its name;
 *  - as the file of bench_import(): hotscore.ko's JSON lines, schema
 *    hotscore-kmod-1, into a struct bench whose results must then be
 *    complete (every distribution x mode x function, the sample counts
 *    the header promises).
 *
 * What bench does next with an import (analyze() and the reports) is
 * static in cmd_bench.c and not reached here; docs/reliability.md.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <hotscore/json_out.h>

#include "cli/cmd_bench.h"
#include "cli/cli.h"
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
	char *text = NULL;
	size_t len = 0;
	json_error_t err;
	json_t *v;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	v = hs_json_text(s);
	json_dumpf(v, f, JSON_ENCODE_ANY);
	json_decref(v);
	if (fclose(f))
		abort();
	v = json_loadb(text, len, JSON_DECODE_ANY, &err);
	fuzz_assert(json_is_string(v) && !strcmp(json_string_value(v), s));
	json_decref(v);
	free(text);
}

static void walk(json_t *v, unsigned int *trips)
{
	const char *key;
	json_t *item;
	size_t i;

	switch (json_typeof(v)) {
	case JSON_STRING:
		/* no JSON_ALLOW_NUL: a string is all of its C string */
		fuzz_assert(strlen(json_string_value(v)) ==
			    json_string_length(v));
		if ((*trips)++ < MAX_ROUND_TRIPS)
			round_trip(json_string_value(v));
		break;
	case JSON_OBJECT:
		/* a repeated name is kept once, its last value */
		json_object_foreach(v, key, item) {
			fuzz_assert(json_object_get(v, key) == item);
			walk(item, trips);
		}
		break;
	case JSON_ARRAY:
		json_array_foreach(v, i, item)
			walk(item, trips);
		break;
	default:
		fuzz_assert(json_is_number(v) || json_is_boolean(v) ||
			    json_is_null(v));
	}
}

/* The input as one JSON text, any value (bench --import wants objects). */
static void check_json(const uint8_t *data, size_t size)
{
	unsigned int trips = 0;
	json_error_t err;
	json_t *v;

	v = json_loadb((const char *)data, size, JSON_DECODE_ANY, &err);
	if (!v) {
		fuzz_assert(err.text[0]);	/* what, for the user's line */
		return;
	}
	walk(v, &trips);
	json_decref(v);
}

/* What reporting an import relies on: every cell filled, counts agree. */
static void check_import(void)
{
	size_t i, n = (size_t)b.nr_dists * b.nr_modes * (b.nr_variants + 1);

	fuzz_assert(b.nr_variants >= 1 && b.nr_dists >= 1 && b.nr_modes >= 1);
	fuzz_assert(b.host.clock.hz && b.n && b.invocations && b.rounds);
	for (i = 0; i < n; i++) {
		const struct bench_result *r = &b.results[i];

		fuzz_assert(r->mt && r->scale && r->n ==
			    2 * b.invocations * b.rounds);
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
