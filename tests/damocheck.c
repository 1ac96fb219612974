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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

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
static bool num_string(const json_t *v, unsigned long long *out)
{
	const char *s = json_string_value(v);
	char *end;

	if (!s || !s[0])
		return false;
	*out = strtoull(s, &end, 10);
	return !*end;
}

static bool check_region(const json_t *r, unsigned long max_nr,
			 unsigned long long *start, unsigned long long *end)
{
	const json_t *nr = json_object_get(r, "nr_accesses");
	const json_t *age = json_object_get(r, "age");
	const json_t *samples, *pct, *usec;
	unsigned long long aggrs;

	if (!json_is_object(r) ||
	    !num_string(json_object_get(r, "start"), start) ||
	    !num_string(json_object_get(r, "end"), end) || *start >= *end)
		return fail("region start/end", "region");
	if (!json_is_object(nr) || !json_is_object(age))
		return fail("nr_accesses/age objects", "region");
	samples = json_object_get(nr, "samples");
	pct = json_object_get(nr, "percent");
	usec = json_object_get(age, "usec");
	if (!json_is_number(samples) || json_number_value(samples) < 0)
		return fail("nr_accesses.samples", "region");
	if (!json_is_number(pct) && !json_is_null(pct))
		return fail("nr_accesses.percent", "region");
	if (json_is_number(pct) && max_nr &&
	    fabs(json_number_value(pct) -
		 json_number_value(samples) * 100.0 / max_nr) > 0.01)
		return fail("percent does not match samples", "region");
	if (!json_is_number(usec) && !json_is_null(usec))
		return fail("age.usec", "region");
	if (!num_string(json_object_get(age, "aggr_intervals"), &aggrs))
		return fail("age.aggr_intervals", "region");
	return true;
}

static bool check_snapshot(const json_t *s, unsigned long max_nr,
			   unsigned long long *last_end, size_t *nr_regions)
{
	const json_t *regions = json_object_get(s, "regions");
	unsigned long long t0, t1, total, sum = 0, prev_end = 0;
	size_t i;

	if (!num_string(json_object_get(s, "start_time"), &t0) ||
	    !num_string(json_object_get(s, "end_time"), &t1) || t1 <= t0 ||
	    t0 < *last_end)
		return fail("start_time/end_time", "snapshot");
	*last_end = t1;
	if (!num_string(json_object_get(s, "total_bytes"), &total))
		return fail("total_bytes", "snapshot");
	if (!json_is_array(regions) || !json_array_size(regions))
		return fail("regions list", "snapshot");
	for (i = 0; i < json_array_size(regions); i++) {
		unsigned long long start, end;

		if (!check_region(json_array_get(regions, i), max_nr, &start,
				  &end))
			return false;
		if (i && start < prev_end)
			return fail("regions overlap or are unsorted", "snapshot");
		prev_end = end;
		sum += end - start;
	}
	if (sum != total)
		return fail("total_bytes is not the regions' sum", "snapshot");
	*nr_regions += json_array_size(regions);
	return true;
}

static bool check(const json_t *root, size_t *nr_snap, size_t *nr_reg)
{
	size_t i, j;

	if (!json_is_array(root) || !json_array_size(root))
		return fail("top level is not a non-empty list", "records");
	for (i = 0; i < json_array_size(root); i++) {
		const json_t *rec = json_array_get(root, i);
		const json_t *iv = json_object_get(rec, "intervals");
		const json_t *snaps = json_object_get(rec, "snapshots");
		unsigned long long sample, aggr, last_end = 0;

		if (!num_string(json_object_get(iv, "sample_us"), &sample) ||
		    !num_string(json_object_get(iv, "aggr_us"), &aggr) ||
		    !sample)
			return fail("intervals", "record");
		if (!json_is_array(snaps) || !json_array_size(snaps))
			return fail("snapshots list", "record");
		for (j = 0; j < json_array_size(snaps); j++)
			if (!check_snapshot(json_array_get(snaps, j),
					    aggr / sample, &last_end, nr_reg))
				return false;
		*nr_snap += json_array_size(snaps);
	}
	return true;
}

int main(int argc, char **argv)
{
	size_t nr_snap = 0, nr_reg = 0;
	json_error_t err;
	json_t *root;
	FILE *f;
	int rc = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: damocheck FILE\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		fprintf(stderr, "damocheck: %s: cannot read\n", argv[1]);
		return 2;
	}
	/*
	 * The checks compare numbers as doubles, and damo (Python) takes an
	 * integer of any size: so read every number as a double, as the
	 * hand-written reader before jansson did, and a u64 beyond jansson's
	 * long long does not make a record "not JSON".
	 */
	root = json_loadf(f, JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL, &err);
	fclose(f);
	if (!root) {
		fprintf(stderr, "damocheck: %s: not JSON: line %d, column %d: %s\n",
			argv[1], err.line, err.column, err.text);
		return 1;
	}
	if (check(root, &nr_snap, &nr_reg)) {
		printf("records %zu snapshots %zu regions %zu\n",
		       json_array_size(root), nr_snap, nr_reg);
	} else {
		fprintf(stderr, "damocheck: %s: %s (%s)\n", argv[1], problem,
			where);
		rc = 1;
	}
	json_decref(root);
	return rc;
}
