// SPDX-License-Identifier: GPL-2.0
/*
 * test_record.c - damo's records read back (src/record/): damo's values
 * exactly, the stream over several records, what a missing field becomes,
 * a record written by src/record/write.c read back region for region; and
 * the quota arithmetic rank uses (src/sim/quota.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hotscore/record_write.h>
#include <hotscore/sim_damos.h>
#include <hotscore/record.h>

#include "check.h"

static void test_damo_values(void)
{
	uint64_t v;
	double d;

	CHECK(!hs_damo_number("93,824,992,231,424", &v) &&
	      v == 93824992231424ULL, "commas");
	CHECK(!hs_damo_number("max", &v) && v == UINT64_MAX, "max");
	CHECK(hs_damo_number("1.5", &v), "a fraction is no count");
	CHECK(hs_damo_number("1,,000", &v), "a stray comma");
	CHECK(hs_damo_number("18446744073709551616", &v), "2^64 refused");
	CHECK(!hs_damo_time("100 ms", 1000, &v) && v == 100000000, "100 ms");
	CHECK(!hs_damo_time("1 m 3 s 200 ms", 1, &v) && v == 63200000000ULL,
	      "format_time_ns_exact's parts");
	CHECK(!hs_damo_time("1.500 s", 1, &v) && v == 1500000000, "decimals exact");
	CHECK(!hs_damo_time("5000", 1000, &v) && v == 5000000, "bare: the field's unit");
	CHECK(!hs_damo_time("5ms", 1, &v) && v == 5000000, "no space");
	CHECK(hs_damo_time("3 fortnights", 1, &v), "unknown unit");
	CHECK(hs_damo_time("1 s 3", 1, &v), "a number without a unit after one with");
	CHECK(hs_damo_time("0 s 5", 1, &v), "after a zero with a unit, too");
	CHECK(!hs_damo_bytes("143.027 MiB", &v) && v == 149974679, "MiB, truncated");
	CHECK(!hs_damo_bytes("4 KB", &v) && v == 4096, "damo's KB is 1024");
	CHECK(!hs_damo_bytes("0 B", &v) && v == 0, "0 B");
	CHECK(hs_damo_bytes("20 EiB", &v), "past 2^64 refused");
	CHECK(!hs_damo_percent("30 %", &d) && d == 30, "30 percent");
	CHECK(!hs_damo_percent("0.5", &d) && d == 0.5, "0.5");
	CHECK(hs_damo_percent("-1", &d), "a negative percentage");
}

/* @text in a temporary file; its path in @path. */
static void put(char *path, const void *text, size_t len)
{
	int fd;

	strcpy(path, "/tmp/hotscore-test-record-XXXXXX");
	fd = mkstemp(path);
	CHECK(fd >= 0, "mkstemp");
	CHECK(write(fd, text, len) == (ssize_t)len, "write");
	close(fd);
}

static const char multi[] =
	"[{\"kdamond_idx\": 0, \"context_idx\": 1, \"intervals\": {\"sample_us\": \"5 ms\", \"aggr_us\": \"100 ms\"},"
	" \"scheme_idx\": null, \"target_id\": 18446623438842320000, \"snapshots\": ["
	"{\"start_time\": \"1 s\", \"end_time\": \"1 s 100 ms\", \"regions\": ["
	"{\"start\": \"4,096\", \"end\": \"8,192\", \"nr_accesses\": {\"samples\": null, \"percent\": \"50 %\"},"
	" \"age\": {\"usec\": \"1 s 250 ms\", \"aggr_intervals\": null}},"
	"{\"start\": 8192, \"end\": 16384}]}]},"
	" {\"snapshots\": [], \"target_id\": 1}, {\"snapshots\": [{\"start_time\": 0, \"end_time\": 1,"
	" \"regions\": [], \"damos_stats\": {\"nr_tried\": \"2\", \"sz_tried\": \"8 KiB\", \"nr_applied\": 1,"
	" \"sz_applied\": \"4 KiB\", \"sz_ops_filter_passed\": \"0 B\", \"qt_exceeds\": \"0\"}}]}]";

static void test_stream(void)
{
	struct hs_rec_reader *rd;
	struct hs_rec_snapshot s;
	const struct hs_rec_info *in;
	char path[64], err[320];

	put(path, multi, sizeof(multi) - 1);
	CHECK_EQ(hs_rec_open(path, &rd, err, sizeof(err)), 0);
	CHECK_EQ(hs_rec_next(rd, &s), 1);
	in = hs_rec_info(rd);
	CHECK(in->kdamond_idx == 0 && in->context_idx == 1 && in->scheme_idx == -1,
	      "indices, null as -1");
	CHECK(in->has_target_id && in->target_id == 18446623438842320000ULL,
	      "a target_id past long long");
	CHECK(in->sample_us == 5000 && in->aggr_us == 100000, "intervals");
	CHECK(s.start_ns == 1000000000 && s.end_ns == 1100000000, "times");
	CHECK_EQ(s.nr, 2);
	CHECK(!s.r[0].has_samples && s.r[0].has_percent && s.r[0].percent == 50,
	      "percent only, as given");
	CHECK(!s.r[0].has_aggrs && s.r[0].has_usec && s.r[0].age_us == 1250000,
	      "usec only, exactly");
	CHECK(!s.r[1].has_samples && !s.r[1].has_percent && !s.r[1].has_aggrs &&
	      !s.r[1].has_usec, "a region without either");
	CHECK(s.nr_targets == 1 && s.r[1].target == 0, "one target");
	hs_rec_snapshot_free(&s);
	/* the second record has no snapshot: the third's comes next */
	CHECK_EQ(hs_rec_next(rd, &s), 1);
	CHECK(s.record == 2 && s.index == 0 && s.has_stats &&
	      s.stats.sz_tried == 8192 && s.stats.nr_applied == 1, "record 2's stats");
	hs_rec_snapshot_free(&s);
	CHECK_EQ(hs_rec_next(rd, &s), 0);
	hs_rec_close(rd);
	unlink(path);
}

static void test_scan(void)
{
	struct hs_rec_info *infos;
	char path[64], err[320];
	size_t nr;

	put(path, multi, sizeof(multi) - 1);
	if (hs_rec_scan(path, &infos, &nr, err, sizeof(err))) {
		CHECK(0, "scan: %s", err);
		unlink(path);
		return;
	}
	CHECK_EQ(nr, 3);
	CHECK(infos[0].nr_snapshots == 1 && infos[1].nr_snapshots == 0 &&
	      infos[2].nr_snapshots == 1, "snapshot counts");
	CHECK(infos[1].has_target_id && infos[1].target_id == 1, "record 1");
	free(infos);
	unlink(path);
}

/* What write.c writes, read.c reads, compressed or not, field for field. */
static void test_written(void)
{
	static const struct hs_region r[] = {
		{ .start = 4096, .end = 12288, .nr_accesses = 3, .age = 7 },
		{ .start = 12288, .end = 16384, .nr_accesses = 20, .age = 0 },
	};
	const struct hs_damo_intervals iv = { 5000, 100000, 1000000 };
	struct hs_damo_snapshot ds = { .start_ns = 0, .end_ns = 100000000,
				       .regions = r, .nr = 2 };
	struct hs_damo_writer w;
	struct hs_rec_reader *rd;
	struct hs_rec_snapshot s;
	char path[64], err[320];
	int fmt, fd;
	FILE *f;

	for (fmt = HS_DAMO_JSON; fmt <= HS_DAMO_JSON_COMPRESSED; fmt++) {
		strcpy(path, "/tmp/hotscore-test-record-XXXXXX");
		fd = mkstemp(path);
		f = fdopen(fd, "w");
		CHECK_EQ(hs_damo_begin(&w, f, (enum hs_damo_format)fmt, &iv, -1), 0);
		CHECK_EQ(hs_damo_snapshot(&w, &ds), 0);
		CHECK_EQ(hs_damo_end(&w), 0);
		fclose(f);
		CHECK_EQ(hs_rec_open(path, &rd, err, sizeof(err)), 0);
		CHECK_EQ(hs_rec_compressed(rd), fmt == HS_DAMO_JSON_COMPRESSED);
		CHECK_EQ(hs_rec_next(rd, &s), 1);
		CHECK(s.nr == 2 && s.r[0].start == 4096 && s.r[0].end == 12288 &&
		      s.r[0].has_samples && s.r[0].nr_accesses == 3 &&
		      s.r[0].has_aggrs && s.r[0].age == 7 &&
		      s.r[1].nr_accesses == 20 && s.r[1].age == 0 &&
		      s.r[0].has_usec && s.r[0].age_us == 700000,
		      "regions as written (format %d)", fmt);
		CHECK(s.has_sample_us && s.sample_us == 5000 && s.end_ns == 100000000,
		      "snapshot fields");
		hs_rec_snapshot_free(&s);
		CHECK_EQ(hs_rec_next(rd, &s), 0);
		hs_rec_close(rd);
		unlink(path);
	}
}

/* damo's tried-regions snapshots: targets one after another, no target_id. */
static void test_targets(void)
{
	static const char text[] =
		"[{\"kdamond_idx\": 0, \"context_idx\": 0, \"scheme_idx\": 0, \"target_id\": null,"
		" \"snapshots\": [{\"start_time\": 0, \"end_time\": 1, \"regions\": ["
		"{\"start\": 8192, \"end\": 16384}, {\"start\": 16384, \"end\": 20480},"
		"{\"start\": 4096, \"end\": 8192}, {\"start\": 12288, \"end\": 16384}]}]}]";
	struct hs_rec_reader *rd;
	struct hs_rec_snapshot s;
	char path[64], err[320];

	put(path, text, sizeof(text) - 1);
	CHECK_EQ(hs_rec_open(path, &rd, err, sizeof(err)), 0);
	CHECK_EQ(hs_rec_next(rd, &s), 1);
	CHECK(s.nr == 4 && s.nr_targets == 2 && s.r[1].target == 0 &&
	      s.r[2].target == 1 && s.r[3].target == 1,
	      "an address drop starts the next target");
	hs_rec_snapshot_free(&s);
	hs_rec_close(rd);
	unlink(path);
}

/* hs_rec_range(): records in turn; earlier ones passed by brackets. */
static void test_skip(void)
{
	struct hs_rec_reader *rd;
	struct hs_rec_snapshot s;
	char path[64], err[320];

	put(path, multi, sizeof(multi) - 1);
	CHECK_EQ(hs_rec_open(path, &rd, err, sizeof(err)), 0);
	hs_rec_range(rd, 0, 0);
	CHECK_EQ(hs_rec_next(rd, &s), 1);
	CHECK(s.record == 0 && s.index == 0, "record 0");
	hs_rec_snapshot_free(&s);
	CHECK_EQ(hs_rec_next(rd, &s), 0);	/* record 0 ends */
	CHECK_EQ(hs_rec_record(rd), 1);
	hs_rec_range(rd, 2, SIZE_MAX);		/* record 1 skipped */
	CHECK_EQ(hs_rec_next(rd, &s), 1);
	CHECK(s.record == 2 && s.index == 0 && s.has_stats, "record 2 next");
	hs_rec_snapshot_free(&s);
	CHECK_EQ(hs_rec_next(rd, &s), 0);
	hs_rec_close(rd);
	/* a fresh reader starts at record 2 by brackets alone */
	CHECK_EQ(hs_rec_open(path, &rd, err, sizeof(err)), 0);
	hs_rec_range(rd, 2, 2);
	CHECK_EQ(hs_rec_next(rd, &s), 1);
	CHECK(s.record == 2, "record 2 first");
	hs_rec_snapshot_free(&s);
	CHECK_EQ(hs_rec_next(rd, &s), 0);
	hs_rec_close(rd);
	unlink(path);
}

static void test_bad(void)
{
	static const char *const bad[][2] = {
		{ "[{\"snapshots\": [{\"start_time\": 0, \"end_time\": 1, \"regions\": [{\"start\": 8192, \"end\": 4096}]}]}]",
		  "record 0, snapshot 0: region 0: start 8192 is not below end 4096" },
		{ "[{\"snapshots\": [{\"end_time\": 1, \"regions\": []}]}]",
		  "record 0, snapshot 0: no \"start_time\"" },
		{ "[{\"snapshots\": [], \"snapshots\": []}]",
		  "record 0: \"snapshots\" twice" },
		{ "[{\"kdamond_idx\": 0}]", "record 0: no \"snapshots\"" },
		{ "[{\"snapshots\": [{\"start_time\": 0, \"end_time\": 1, \"regions\": [{\"start\": 0, \"end\": 4096, \"age\": {\"aggr_intervals\": -1}}]}]}]",
		  "\"aggr_intervals\": negative" },
		{ "[{\"snapshots\": [{\"start_time\": 0, \"end_time\": 1, \"regions\": []}]}",
		  "byte 65: the file ends inside the record list" },
		{ "[{\"snapshots\": [{\"start_time\": 0, \"end_time\": 1, \"regions\": []}]}] x",
		  "data after the end of the record list" },
		{ "[{\"snapshots\": [{\"start_time\": 0, \"end_time\": 1, \"regions\": [{\"start\": 0, \"end\": 4096},",
		  "byte 87: the file ends where a value should be" },
		{ "[{\"snapshots\": [{\"regions\": [], \"start_time\": 0, \"end_time\": 1, \"regions\": []}]}]",
		  "record 0, snapshot 0: \"regions\" twice" },
		{ "[{\"snapshots\": [{\"start_time\": 0, \"start_time\": 1, \"regions\": []}]}]",
		  "record 0, snapshot 0: \"start_time\" twice" },
		{ "[{\"snapshots\": [{\"start_time\": 0, \"end_time\": 1, \"regions\": {}}]}]",
		  "record 0, snapshot 0: \"regions\" is not a list" },
		{ "[{\"snapshots\": [[]]}]", "record 0, snapshot 0: not an object" },
		{ "[{\"target_id\": 3, \"snapshots\": [{\"start_time\": 0, \"end_time\": 1, \"regions\": [{\"start\": 8192, \"end\": 12288}, {\"start\": 4096, \"end\": 8192}]}]}]",
		  "overlaps or precedes the region before it" },
	};
	struct hs_rec_reader *rd;
	struct hs_rec_snapshot s;
	char path[64], err[320];
	size_t i;
	int ret;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put(path, bad[i][0], strlen(bad[i][0]));
		CHECK_EQ(hs_rec_open(path, &rd, err, sizeof(err)), 0);
		while ((ret = hs_rec_next(rd, &s)) > 0)
			hs_rec_snapshot_free(&s);
		CHECK(ret < 0 && strstr(hs_rec_error(rd), bad[i][1]),
		      "bad record %zu: '%s', want '%s'", i, hs_rec_error(rd),
		      bad[i][1]);
		hs_rec_close(rd);
		unlink(path);
	}
}

static void test_quota(void)
{
	unsigned long hist[HS_DAMOS_MAX_SCORE + 1] = { 0 };
	struct hs_quota q = { .ms = 10, .sz = 0 };

	CHECK_EQ(hs_score_kind(HS_OPS_VADDR, HS_ACT_PAGEOUT), HS_SCORE_COLD);
	CHECK_EQ(hs_score_kind(HS_OPS_VADDR, HS_ACT_LRU_PRIO), HS_SCORE_MAX);
	CHECK_EQ(hs_score_kind(HS_OPS_PADDR, HS_ACT_LRU_PRIO), HS_SCORE_HOT);
	CHECK_EQ(hs_score_kind(HS_OPS_PADDR, HS_ACT_STAT), HS_SCORE_MAX);
	/* 4 MiB/ms for 10 ms, capped by an 8 MiB size quota */
	CHECK_EQ(hs_quota_esz(&q, HS_QUOTA_FIRST_THROUGHPUT, 4096), 40UL << 20);
	q.sz = 8UL << 20;
	CHECK_EQ(hs_quota_esz(&q, HS_QUOTA_FIRST_THROUGHPUT, 4096), 8UL << 20);
	q.ms = 0;
	CHECK_EQ(hs_quota_esz(&q, 1, 4096), 8UL << 20);
	/* 3 MiB at 90, 2 MiB at 50, 10 MiB at 10: a 4 MiB budget cuts at 50 */
	hist[90] = 3UL << 20;
	hist[50] = 2UL << 20;
	hist[10] = 10UL << 20;
	CHECK_EQ(hs_quota_min_score(hist, 90, 4UL << 20), 50);
	CHECK_EQ(hs_quota_min_score(hist, 90, 3UL << 20), 90);
	CHECK_EQ(hs_quota_min_score(hist, 90, 1UL << 30), 0);
	/* the walk: whole regions, then the page-aligned part, then none */
	CHECK_EQ(hs_quota_take(4UL << 20, 0, 3UL << 20, 4096), 3UL << 20);
	CHECK_EQ(hs_quota_take(4UL << 20, 3UL << 20, 2UL << 20, 4096), 1UL << 20);
	CHECK_EQ(hs_quota_take(4UL << 20, (4UL << 20) - 100, 8192, 4096), 0);
	CHECK_EQ(hs_quota_take(4UL << 20, (4UL << 20) - 5000, 8192, 4096), 4096);
}

int main(void)
{
	RUN(test_damo_values);
	RUN(test_stream);
	RUN(test_scan);
	RUN(test_written);
	RUN(test_targets);
	RUN(test_skip);
	RUN(test_bad);
	RUN(test_quota);
	return CHECK_DONE();
}
