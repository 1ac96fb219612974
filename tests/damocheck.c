// SPDX-License-Identifier: GPL-2.0
/*
 * damocheck - for the shell tests: is FILE a damo JSON record as damo's
 * _damo_records.py reads it (ecosystem-formats.md §1.3)?  A list of
 * records, each with intervals and snapshots; each snapshot with
 * start_time, end_time, total_bytes and regions of start, end,
 * nr_accesses{samples, percent} and age{usec, aggr_intervals}.  Checks
 * types, that regions are sorted and disjoint, that total_bytes is their
 * sum, that time moves forward and that percent matches samples.  Prints
 * "records R snapshots S regions N" and exits 0, or names the first
 * problem and exits 1.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/json.h"

static const char *problem;
static char where[128];

static bool fail(const char *what, const char *at)
{
	if (!problem) {
		problem = what;
		snprintf(where, sizeof(where), "%s", at);
	}
	return false;
}

/* damo writes numbers as decimal strings; accept plain digits only. */
static bool num_string(const struct json *v, unsigned long long *out)
{
	char *end;

	if (!v || v->type != JSON_STRING || !v->string[0])
		return false;
	*out = strtoull(v->string, &end, 10);
	return !*end;
}

static bool check_region(const struct json *r, unsigned long max_nr,
			 unsigned long long *start, unsigned long long *end)
{
	const struct json *nr = json_get(r, "nr_accesses");
	const struct json *age = json_get(r, "age");
	const struct json *samples, *pct, *usec;
	unsigned long long aggrs;

	if (r->type != JSON_OBJECT || !num_string(json_get(r, "start"), start) ||
	    !num_string(json_get(r, "end"), end) || *start >= *end)
		return fail("region start/end", "region");
	if (!nr || nr->type != JSON_OBJECT || !age || age->type != JSON_OBJECT)
		return fail("nr_accesses/age objects", "region");
	samples = json_get(nr, "samples");
	pct = json_get(nr, "percent");
	usec = json_get(age, "usec");
	if (!samples || samples->type != JSON_NUMBER || samples->number < 0)
		return fail("nr_accesses.samples", "region");
	if (!pct || (pct->type != JSON_NUMBER && pct->type != JSON_NULL))
		return fail("nr_accesses.percent", "region");
	if (pct->type == JSON_NUMBER && max_nr &&
	    fabs(pct->number - samples->number * 100.0 / max_nr) > 0.01)
		return fail("percent does not match samples", "region");
	if (!usec || (usec->type != JSON_NUMBER && usec->type != JSON_NULL))
		return fail("age.usec", "region");
	if (!num_string(json_get(age, "aggr_intervals"), &aggrs))
		return fail("age.aggr_intervals", "region");
	return true;
}

static bool check_snapshot(const struct json *s, unsigned long max_nr,
			   unsigned long long *last_end, size_t *nr_regions)
{
	const struct json *regions = json_get(s, "regions");
	unsigned long long t0, t1, total, sum = 0, prev_end = 0;
	size_t i;

	if (!num_string(json_get(s, "start_time"), &t0) ||
	    !num_string(json_get(s, "end_time"), &t1) || t1 <= t0 ||
	    t0 < *last_end)
		return fail("start_time/end_time", "snapshot");
	*last_end = t1;
	if (!num_string(json_get(s, "total_bytes"), &total))
		return fail("total_bytes", "snapshot");
	if (!regions || regions->type != JSON_ARRAY || !regions->n)
		return fail("regions list", "snapshot");
	for (i = 0; i < regions->n; i++) {
		unsigned long long start, end;

		if (!check_region(regions->items[i], max_nr, &start, &end))
			return false;
		if (i && start < prev_end)
			return fail("regions overlap or are unsorted", "snapshot");
		prev_end = end;
		sum += end - start;
	}
	if (sum != total)
		return fail("total_bytes is not the regions' sum", "snapshot");
	*nr_regions += regions->n;
	return true;
}

static bool check(const struct json *root, size_t *nr_snap, size_t *nr_reg)
{
	size_t i, j;

	if (root->type != JSON_ARRAY || !root->n)
		return fail("top level is not a non-empty list", "records");
	for (i = 0; i < root->n; i++) {
		const struct json *rec = root->items[i];
		const struct json *iv = json_get(rec, "intervals");
		const struct json *snaps = json_get(rec, "snapshots");
		unsigned long long sample, aggr, last_end = 0;

		if (!iv || !num_string(json_get(iv, "sample_us"), &sample) ||
		    !num_string(json_get(iv, "aggr_us"), &aggr) || !sample)
			return fail("intervals", "record");
		if (!snaps || snaps->type != JSON_ARRAY || !snaps->n)
			return fail("snapshots list", "record");
		for (j = 0; j < snaps->n; j++)
			if (!check_snapshot(snaps->items[j], aggr / sample,
					    &last_end, nr_reg))
				return false;
		*nr_snap += snaps->n;
	}
	return true;
}

int main(int argc, char **argv)
{
	char err[256], *buf;
	size_t len, nr_snap = 0, nr_reg = 0;
	struct json *root;
	FILE *f;
	long size;

	if (argc != 2) {
		fprintf(stderr, "usage: damocheck FILE\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "damocheck: %s: cannot read\n", argv[1]);
		return 2;
	}
	buf = malloc((size_t)size + 1);
	len = buf ? fread(buf, 1, (size_t)size, f) : 0;
	fclose(f);
	root = buf ? json_parse(buf, len, err, sizeof(err)) : NULL;
	free(buf);
	if (!root) {
		fprintf(stderr, "damocheck: %s: not JSON: %s\n", argv[1], err);
		return 1;
	}
	if (!check(root, &nr_snap, &nr_reg)) {
		fprintf(stderr, "damocheck: %s: %s (%s)\n", argv[1], problem,
			where);
		json_free(root);
		return 1;
	}
	printf("records %zu snapshots %zu regions %zu\n", root->n, nr_snap,
	       nr_reg);
	json_free(root);
	return 0;
}
