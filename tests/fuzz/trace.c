// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - `hotscore convert TRACE`'s parser: the input, split at
 * newlines, through hs_trace_line() and hs_trace_end(), every snapshot it
 * completes written with the damo record writer into memory, and that
 * record read back by the record reader.  The parser's promises: a
 * snapshot has the regions its lines declared, in address order, none
 * empty, its start not after its end, and one target; an error names its
 * line; what convert writes, rank and compare-records read, snapshot for
 * snapshot.  The input also goes through hs_damos_stats_parse().
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotscore/record_write.h>
#include <hotscore/record.h>
#include <hotscore/record_trace.h>

#include "fuzz.h"

static void check_snapshot(const struct hs_trace_reader *t)
{
	size_t i;

	fuzz_assert(t->nr >= 1 && !t->want && t->nr <= HS_TRACE_MAX_REGIONS);
	fuzz_assert(t->start_ns <= t->end_ns);
	for (i = 0; i < t->nr; i++) {
		fuzz_assert(t->r[i].start < t->r[i].end);
		if (i)
			fuzz_assert(t->r[i - 1].end <= t->r[i].start);
	}
}

/* The record written from the trace: as many snapshots, as many regions. */
static void read_back(const char *buf, size_t len, unsigned long nr_snapshots,
		      unsigned long nr_regions)
{
	struct hs_rec_reader *rd;
	struct hs_rec_snapshot s;
	unsigned long n = 0, regions = 0;
	char err[320];
	int ret;

	fuzz_assert(!hs_rec_open(fuzz_file((const uint8_t *)buf, len), &rd,
				 err, sizeof(err)));
	while ((ret = hs_rec_next(rd, &s)) > 0) {
		n++;
		regions += s.nr;
		hs_rec_snapshot_free(&s);
	}
	fuzz_assert(ret == 0 && n == nr_snapshots && regions == nr_regions);
	hs_rec_close(rd);
}

static void trace(const uint8_t *data, size_t size)
{
	struct hs_damo_intervals iv = { 5000, 100000, 60000000 };
	const char *p = (const char *)data, *end = p + size, *nl;
	struct hs_damo_writer w;
	struct hs_trace_reader t;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	int ret = 0;

	fuzz_assert(out && !hs_damo_begin(&w, out, HS_DAMO_JSON, &iv, -1));
	hs_trace_init(&t, 100000000);
	for (; p < end && ret >= 0; p = nl + 1) {
		struct hs_damo_snapshot s;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		ret = hs_trace_line(&t, p, (size_t)(nl - p));
		if (ret <= 0)
			continue;
		check_snapshot(&t);
		s = (struct hs_damo_snapshot){ t.start_ns, t.end_ns, t.r, t.nr,
					       NULL, NULL };
		fuzz_assert(!hs_damo_snapshot(&w, &s));
	}
	if (ret >= 0)
		ret = hs_trace_end(&t);
	if (ret < 0)
		fuzz_assert(!strncmp(t.err, "line ", 5));
	fuzz_assert(!hs_damo_end(&w) && !fclose(out));
	if (ret >= 0)
		read_back(buf, len, t.nr_snapshots, t.nr_regions);
	free(buf);
	hs_trace_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hs_damos_stat st;
	char err[256];

	fuzz_begin(size);
	trace(data, size);
	if (hs_damos_stats_parse((const char *)data, size, &st, err, sizeof(err)))
		fuzz_assert(err[0]);
	fuzz_end();
	return 0;
}
