// SPDX-License-Identifier: GPL-2.0
/*
 * test_damo_write.c - src/record/write.c: the record's text, byte for
 * byte; json_compressed is a zlib stream that inflates to exactly the
 * plain text, also across many buffers; a full disk is reported, with
 * its errno, by the call that finds it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <hotscore/record_write.h>

#include "check.h"

static const struct hs_damo_intervals iv = { 5000, 100000, 60000000 };

static const struct hs_region two[] = {
	{ .start = 4096, .end = 12288, .nr_accesses = 0, .age = 3 },
	{ .start = 12288, .end = 16384, .nr_accesses = 7, .age = 0 },
};

static const char two_text[] =
	"[{\"kdamond_idx\": null, \"context_idx\": null, \"intervals\": {\"sample_us\": \"5000\", \"aggr_us\": \"100000\", \"ops_update_us\": \"60000000\"}, \"scheme_idx\": 0, \"target_id\": 0, \"scheme_filters\": [], \"snapshots\": [\n"
	"{\"start_time\": \"0\", \"end_time\": \"100000000\", \"total_bytes\": \"12288\", \"sample_interval_us\": \"5000\", \"damos_stats\": {\"nr_tried\": 1, \"sz_tried\": 8192, \"nr_applied\": 1, \"sz_applied\": 4096, \"sz_ops_filter_passed\": 0, \"qt_exceeds\": 2}, \"regions\": [{\"start\": \"4096\", \"end\": \"12288\", \"nr_accesses\": {\"samples\": 0, \"percent\": 0.0}, \"age\": {\"usec\": 300000, \"aggr_intervals\": \"3\"}}, {\"start\": \"12288\", \"end\": \"16384\", \"nr_accesses\": {\"samples\": 7, \"percent\": 35.0}, \"age\": {\"usec\": 0, \"aggr_intervals\": \"0\"}}]},\n"
	"{\"start_time\": \"100000000\", \"end_time\": \"200000000\", \"total_bytes\": \"4096\", \"sample_interval_us\": \"5000\", \"regions\": [{\"start\": \"12288\", \"end\": \"16384\", \"nr_accesses\": {\"samples\": 7, \"percent\": 35.0}, \"age\": {\"usec\": 0, \"aggr_intervals\": \"0\"}}]}\n"
	"], \"data_source\": \"unknown\"}]\n";

/* The whole of @f, which is rewound; NUL-terminated. */
static char *slurp(FILE *f, size_t *len)
{
	long n;
	char *buf;

	fflush(f);
	n = ftell(f);
	buf = malloc((size_t)n + 1);
	rewind(f);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		abort();
	buf[n] = 0;
	*len = (size_t)n;
	return buf;
}

/* The two-snapshot record, the second without stats, in @fmt. */
static char *write_two(enum hs_damo_format fmt, size_t *len)
{
	struct hs_damos_stat st = { .nr_tried = 1, .sz_tried = 8192,
				    .nr_applied = 1, .sz_applied = 4096,
				    .qt_exceeds = 2 };
	struct hs_damo_snapshot a = { 0, 100000000, two, 2, &st, NULL };
	struct hs_damo_snapshot b = { 100000000, 200000000, two + 1, 1, NULL, NULL };
	struct hs_damo_writer w;
	FILE *f = tmpfile();
	char *text;

	CHECK(f, "tmpfile");
	CHECK_EQ(hs_damo_begin(&w, f, fmt, &iv, 0), 0);
	CHECK_EQ(hs_damo_snapshot(&w, &a), 0);
	CHECK_EQ(hs_damo_snapshot(&w, &b), 0);
	CHECK_EQ(hs_damo_end(&w), 0);
	text = slurp(f, len);
	fclose(f);
	return text;
}

/* @z inflated, NUL-terminated, or NULL if it is not one whole zlib stream. */
static char *inflate_all(const char *z, size_t zlen, size_t *len)
{
	size_t cap = 1 << 16;
	char *out = malloc(cap);
	z_stream s;
	int ret;

	memset(&s, 0, sizeof(s));
	if (!out || inflateInit(&s) != Z_OK)
		abort();
	s.next_in = (Bytef *)z;
	s.avail_in = (uInt)zlen;
	do {
		if (s.total_out + 1 >= cap && !(out = realloc(out, cap *= 2)))
			abort();
		s.next_out = (Bytef *)out + s.total_out;
		s.avail_out = (uInt)(cap - 1 - s.total_out);
		ret = inflate(&s, Z_NO_FLUSH);
	} while (ret == Z_OK);
	*len = s.total_out;
	out[*len] = 0;
	inflateEnd(&s);
	if (ret != Z_STREAM_END || s.avail_in) {
		free(out);
		return NULL;
	}
	return out;
}

static void test_names(void)
{
	CHECK_EQ(hs_damo_format_parse("json"), HS_DAMO_JSON);
	CHECK_EQ(hs_damo_format_parse("json_compressed"),
		 HS_DAMO_JSON_COMPRESSED);
	CHECK_EQ(hs_damo_format_parse("perf_data"), -1);
	CHECK(!strcmp(hs_damo_format_name(HS_DAMO_JSON_COMPRESSED),
		      "json_compressed"), "name");
}

/* The text damo reads: target_id 0, scheme_idx, damos_stats, percent. */
static void test_plain_text(void)
{
	size_t len;
	char *text = write_two(HS_DAMO_JSON, &len);

	CHECK(!strcmp(text, two_text), "got:\n%s", text);
	free(text);
}

/* A zlib stream (78 9c: what file(1) calls zlib compressed data). */
static void test_compressed(void)
{
	size_t zlen, len;
	char *z = write_two(HS_DAMO_JSON_COMPRESSED, &zlen);
	char *text = inflate_all(z, zlen, &len);

	CHECK(zlen > 2 && (unsigned char)z[0] == 0x78 &&
	      (unsigned char)z[1] == 0x9c, "header %02x %02x",
	      (unsigned char)z[0], (unsigned char)z[1]);
	CHECK(text && !strcmp(text, two_text), "inflated: %s",
	      text ? text : "(not a whole zlib stream)");
	free(z);
	free(text);
}

/* Many snapshots: every deflate buffer boundary crossed, nothing lost. */
static void test_large(void)
{
	static struct hs_region r[1000];
	struct hs_damo_writer w;
	size_t i, zlen, len, plen;
	char *z, *text, *plain;
	FILE *f[2];
	int k;

	for (i = 0; i < 1000; i++)
		r[i] = (struct hs_region){ .start = (i + 1) << 12,
					   .end = (i + 2) << 12,
					   .nr_accesses = (unsigned int)(i % 21),
					   .age = (unsigned int)(i * 7 % 100) };
	for (k = 0; k < 2; k++) {
		f[k] = tmpfile();
		CHECK_EQ(hs_damo_begin(&w, f[k], (enum hs_damo_format)k, &iv,
				       -1), 0);
		for (i = 0; i < 200; i++) {
			struct hs_damo_snapshot s = { i, i + 1, r,
						      1000 - i, NULL, NULL };

			CHECK_EQ(hs_damo_snapshot(&w, &s), 0);
		}
		CHECK_EQ(hs_damo_end(&w), 0);
	}
	plain = slurp(f[HS_DAMO_JSON], &plen);
	z = slurp(f[HS_DAMO_JSON_COMPRESSED], &zlen);
	text = inflate_all(z, zlen, &len);
	CHECK(plen > 20 << 20, "only %zu bytes", plen);
	CHECK(strstr(plain, "\"scheme_idx\": null"), "no scheme: null");
	CHECK(text && len == plen && !memcmp(text, plain, plen),
	      "inflated %zu bytes, plain %zu", text ? len : 0, plen);
	CHECK(zlen * 5 < plen, "compressed %zu of %zu", zlen, plen);
	free(plain);
	free(z);
	free(text);
	fclose(f[0]);
	fclose(f[1]);
}

/* /dev/full: ENOSPC from the call that meets it, at the latest the end. */
static void test_full_disk(void)
{
	struct hs_damo_snapshot s = { 0, 1, two, 2, NULL, NULL };
	struct hs_damo_writer w;
	FILE *f = fopen("/dev/full", "w");
	int ret = 0, k;

	if (!f) {
		printf("SKIP test_full_disk: no /dev/full\n");
		return;
	}
	CHECK_EQ(hs_damo_begin(&w, f, HS_DAMO_JSON_COMPRESSED, &iv, 0), 0);
	/* incompressible enough to fill the buffers: distinct numbers */
	for (k = 0; k < 100000 && !ret; k++) {
		s.start_ns = (uint64_t)k * 2654435761u;
		ret = hs_damo_snapshot(&w, &s);
	}
	if (!ret)
		ret = hs_damo_end(&w);
	else
		CHECK_EQ(hs_damo_end(&w), -1);	/* still failed, and freed */
	CHECK_EQ(ret, -1);
	CHECK_EQ(errno, ENOSPC);
	CHECK_EQ(w.err, ENOSPC);
	fclose(f);
}

int main(void)
{
	RUN(test_names);
	RUN(test_plain_text);
	RUN(test_compressed);
	RUN(test_large);
	RUN(test_full_disk);
	return CHECK_DONE();
}
