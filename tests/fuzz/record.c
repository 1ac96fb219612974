// SPDX-License-Identifier: GPL-2.0
/*
 * record.c - `hotscore rank RECORD`'s reader: a damo record file through
 * hs_rec_open()/hs_rec_next(), as given and again zlib-compressed (damo's
 * json_compressed), and hs_rec_scan() over the same bytes.  Every snapshot
 * it returns must keep the reader's promises: regions in address order,
 * none empty or overlapping, records and snapshots numbered in order; the
 * scan must count what the stream returned; an error must say something;
 * and where jansson, parsing the whole input at once, sees a record
 * file's shape, the stream must see as many snapshots, or refuse a field.
 * The plain read uses a window of a few bytes (the last input byte says
 * how many), so that the sliding, refilling and edge retries all run; the
 * scan and the compressed read use the default.  The input as a string
 * also goes through damo's value readers.
 */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <zlib.h>

#include <hotscore/record.h>

#include "fuzz.h"

static void check_snapshot(const struct hs_rec_snapshot *s, size_t record,
			   size_t index)
{
	size_t i;

	fuzz_assert(s->record == record && s->index == index);
	for (i = 0; i < s->nr; i++) {
		fuzz_assert(s->r[i].start < s->r[i].end);
		/* in address order within a target; the next starts lower */
		if (i && s->r[i].target == s->r[i - 1].target)
			fuzz_assert(s->r[i - 1].end <= s->r[i].start);
		else if (i)
			fuzz_assert(s->r[i].target == s->r[i - 1].target + 1 &&
				    s->r[i].start < s->r[i - 1].end);
		else
			fuzz_assert(s->r[i].target == 0);
	}
	fuzz_assert(!s->nr || s->nr_targets == s->r[s->nr - 1].target + 1);
}

/*
 * jansson's view of the whole input: if it is a list of objects whose
 * "snapshots" (each exactly once) are lists of objects, the number of
 * snapshots; otherwise -1.  Where it is a number, the reader must return
 * exactly that many, or refuse a field ("record N, ..."), never the JSON.
 */
static long jansson_snapshots(const uint8_t *data, size_t size)
{
	json_t *top = json_loadb((const char *)data, size,
				 JSON_REJECT_DUPLICATES, NULL), *rec, *snaps, *v;
	size_t i, j;
	long n = 0;

	if (!json_is_array(top))
		n = -1;
	json_array_foreach(top, i, rec) {
		snaps = json_object_get(rec, "snapshots");
		if (n < 0 || !json_is_array(snaps)) {
			n = -1;
			break;
		}
		json_array_foreach(snaps, j, v)
			if (!json_is_object(v))
				n = -1;
		if (n >= 0)
			n += (long)json_array_size(snaps);
	}
	json_decref(top);
	return n;
}

/* Stream the file; return the snapshots read, or -1 on a rejection. */
static long stream(const char *path, long want)
{
	struct hs_rec_reader *rd;
	struct hs_rec_snapshot s;
	size_t record = 0, index = 0;
	long n = 0;
	char err[320];
	int ret;

	if (hs_rec_open(path, &rd, err, sizeof(err)) < 0) {
		fuzz_assert(err[0]);
		return -1;
	}
	while ((ret = hs_rec_next(rd, &s)) > 0) {
		if (s.record != record)
			index = 0;
		fuzz_assert(s.record >= record);
		record = s.record;
		check_snapshot(&s, record, index++);
		hs_rec_snapshot_free(&s);
		n++;
	}
	if (ret < 0)
		fuzz_assert(hs_rec_error(rd)[0]);
	/* valid JSON of a record's shape: refused only for a field's value */
	if (want >= 0 && ret < 0)
		fuzz_assert(!strncmp(hs_rec_error(rd), "record ", 7));
	if (want >= 0 && ret == 0)
		fuzz_assert(n == want);
	hs_rec_close(rd);
	return ret < 0 ? -1 : n;
}

/* hs_rec_scan() must agree with the stream. */
static void scan(const char *path, long n)
{
	struct hs_rec_info *infos = NULL;
	size_t nr = 0, i, total = 0;
	char err[320];

	if (hs_rec_scan(path, &infos, &nr, err, sizeof(err)) < 0) {
		fuzz_assert(n < 0 && err[0]);
		return;
	}
	for (i = 0; i < nr; i++)
		total += infos[i].nr_snapshots;
	fuzz_assert(n >= 0 && total == (size_t)n);
	free(infos);
}

static void values(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size > 64 ? 64 : size);
	uint64_t u;
	double d;

	hs_damo_number(s, &u);
	hs_damo_bytes(s, &u);
	hs_damo_time(s, 1000, &u);
	if (!hs_damo_percent(s, &d))
		fuzz_assert(d >= 0);
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uLongf zlen = compressBound(size);
	unsigned char *z = malloc(zlen);
	const char *path;
	long n, want;

	fuzz_begin(size);
	want = jansson_snapshots(data, size);
	path = fuzz_file(data, size);
	/* a window of a few bytes: every value crosses its edges */
	hs_rec_chunk = 3 + (size ? data[size - 1] % 61 : 0);
	n = stream(path, want);
	hs_rec_chunk = 64 << 10;
	scan(path, n);
	if (z && compress(z, &zlen, data, size) == Z_OK) {
		path = fuzz_file(z, zlen);
		/* what is read compressed is what is read plain */
		fuzz_assert(stream(path, want) == n || (size >= 2 &&
			    (data[0] & 0x0f) == 8));
	}
	free(z);
	values(data, size);
	fuzz_end();
	return 0;
}
