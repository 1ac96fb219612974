// SPDX-License-Identifier: GPL-2.0
/*
 * read.c - damo's record files read back, a snapshot at a time.
 *
 * A record file is a JSON list of records, each an object whose
 * "snapshots" member is a list of snapshot objects, each with a list of
 * "regions" (damo's _damo_records.py).  Files of hundreds of MB are
 * common, so the file is never parsed whole: the reader walks the
 * punctuation of those lists and objects itself and hands every other
 * value (a key, a field, one region) to jansson, which parses it from a
 * sliding window of the (inflated) text.  The window grows to the largest
 * value, at most HS_REC_MAX_VALUE; a snapshot's regions are all that is
 * kept.
 *
 * zlib-compressed files (damo's default "json_compressed") are told from
 * plain JSON by the zlib header, not by the name: damo writes both under
 * any name.
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "reader.h"

size_t hs_rec_chunk = 64UL << 10;

/* The record members the reader knows: each may appear once. */
static const char *const member_names[NR_MEMBERS] = {
	"kdamond_idx", "context_idx", "scheme_idx", "target_id", "intervals",
	"snapshots",
};

enum vkind { V_NUMBER, V_NS, V_US, V_BYTES };

/* A damo value, raw (a JSON number) or formatted (a string), as @kind. */
static const char *u64_of(const json_t *v, enum vkind kind, uint64_t *out)
{
	const char *err;
	double d;

	if (json_is_integer(v)) {
		if (json_integer_value(v) < 0)
			return "negative";
		*out = (uint64_t)json_integer_value(v);
		return NULL;
	}
	if (json_is_real(v)) {
		d = json_real_value(v);
		if (!(d >= 0) || d >= 18446744073709551616.0)
			return "out of range";
		if (kind == V_NUMBER && d != floor(d))
			return "not a whole number";
		*out = (uint64_t)d;
		return NULL;
	}
	if (!json_is_string(v))
		return "not a number or a string";
	switch (kind) {
	case V_NUMBER:
		return hs_damo_number(json_string_value(v), out);
	case V_BYTES:
		return hs_damo_bytes(json_string_value(v), out);
	case V_NS:
		return hs_damo_time(json_string_value(v), 1, out);
	case V_US:
		err = hs_damo_time(json_string_value(v), 1000, out);
		if (!err && *out != UINT64_MAX)
			*out /= 1000;
		return err;
	}
	return "?";
}

/* Member @key of @o as @kind into @out: 1 if there, 0 if absent or null. */
static int get_u64(struct hs_rec_reader *rd, const char *at, const json_t *o,
		   const char *key, enum vkind kind, uint64_t max,
		   uint64_t *out)
{
	const json_t *v = json_object_get(o, key);
	const char *err;

	if (!v || json_is_null(v))
		return 0;
	err = u64_of(v, kind, out);
	if (!err && *out > max)
		err = "out of range";
	if (err)
		return rec_fail(rd, "%s\"%s\": %s", at, key, err);
	return 1;
}

static int need_u64(struct hs_rec_reader *rd, const char *at, const json_t *o,
		    const char *key, enum vkind kind, uint64_t max,
		    uint64_t *out)
{
	int ret = get_u64(rd, at, o, key, kind, max, out);

	if (!ret)
		return rec_fail(rd, "%sno \"%s\" (or it is null)", at, key);
	return ret;
}

/* nr_accesses {samples, percent}: either or both may be there, or null. */
static int region_nr(struct hs_rec_reader *rd, const char *at,
		     const json_t *o, struct hs_rec_region *r)
{
	const json_t *nr = json_object_get(o, "nr_accesses"), *pct;
	const char *err = NULL;
	uint64_t v;
	double p = 0;
	int ret;

	if (!nr || json_is_null(nr))
		return 0;
	if (!json_is_object(nr))
		return rec_fail(rd, "%s\"nr_accesses\" is not an object", at);
	ret = get_u64(rd, at, nr, "samples", V_NUMBER, UINT32_MAX, &v);
	if (ret < 0)
		return -1;
	r->nr_accesses = (unsigned int)v;
	r->has_samples = ret;
	pct = json_object_get(nr, "percent");
	if (!pct || json_is_null(pct))
		return 0;
	if (json_is_number(pct))
		p = json_number_value(pct);
	else if (json_is_string(pct))
		err = hs_damo_percent(json_string_value(pct), &p);
	else
		err = "not a number";
	/* above 100 % is possible: a sample count past aggr / sample */
	if (!err && !(p >= 0 && p < 1e12))
		err = "out of range";
	if (err)
		return rec_fail(rd, "%s\"percent\": %s", at, err);
	r->percent = p;
	r->has_percent = true;
	return 0;
}

/* age {usec, aggr_intervals}: either or both may be there, or null. */
static int region_age(struct hs_rec_reader *rd, const char *at,
		      const json_t *o, struct hs_rec_region *r)
{
	const json_t *age = json_object_get(o, "age");
	uint64_t v;
	int ret;

	if (!age || json_is_null(age))
		return 0;
	if (!json_is_object(age))
		return rec_fail(rd, "%s\"age\" is not an object", at);
	ret = get_u64(rd, at, age, "aggr_intervals", V_NUMBER, UINT32_MAX, &v);
	if (ret < 0)
		return -1;
	r->age = (unsigned int)v;
	r->has_aggrs = ret;
	ret = get_u64(rd, at, age, "usec", V_US, UINT64_MAX, &r->age_us);
	if (ret < 0)
		return -1;
	r->has_usec = ret;
	return 0;
}

/*
 * A region after @prev: above it, or, in a record without a target_id
 * (damo's tried-regions snapshots list every target of the context one
 * after another), the first region of the next target.
 */
static int region_order(struct hs_rec_reader *rd, const char *at,
			struct hs_rec_region *r,
			const struct hs_rec_region *prev)
{
	r->target = prev ? prev->target : 0;
	if (!prev || r->start >= prev->end)
		return 0;
	if (!rd->info.has_target_id) {
		r->target++;
		return 0;
	}
	return rec_fail(rd, "%s[%lu, %lu) overlaps or precedes the region before it, ending at %lu",
		    at, r->start, r->end, prev->end);
}

static int region_of(struct hs_rec_reader *rd, const char *snap_at,
		     const json_t *o, size_t i, struct hs_rec_region *r,
		     const struct hs_rec_region *prev)
{
	char at[160];
	uint64_t start, end;

	snprintf(at, sizeof(at), "%sregion %zu: ", snap_at, i);
	if (!json_is_object(o))
		return rec_fail(rd, "%snot an object", at);
	memset(r, 0, sizeof(*r));
	if (need_u64(rd, at, o, "start", V_NUMBER, ULONG_MAX, &start) < 0 ||
	    need_u64(rd, at, o, "end", V_NUMBER, ULONG_MAX, &end) < 0)
		return -1;
	if (start >= end)
		return rec_fail(rd, "%sstart %llu is not below end %llu", at,
			    (unsigned long long)start, (unsigned long long)end);
	r->start = start;
	r->end = end;
	if (region_order(rd, at, r, prev) < 0 ||
	    region_nr(rd, at, o, r) < 0 || region_age(rd, at, o, r) < 0)
		return -1;
	return 0;
}

static int snapshot_stats(struct hs_rec_reader *rd, const char *at,
			  const json_t *o, struct hs_rec_snapshot *s)
{
	const json_t *st = json_object_get(o, "damos_stats");
	struct hs_rec_stats *t = &s->stats;

	if (!st || json_is_null(st))
		return 0;
	if (!json_is_object(st))
		return rec_fail(rd, "%s\"damos_stats\" is not an object", at);
	if (need_u64(rd, at, st, "nr_tried", V_NUMBER, UINT64_MAX, &t->nr_tried) < 0 ||
	    need_u64(rd, at, st, "sz_tried", V_BYTES, UINT64_MAX, &t->sz_tried) < 0 ||
	    need_u64(rd, at, st, "nr_applied", V_NUMBER, UINT64_MAX, &t->nr_applied) < 0 ||
	    need_u64(rd, at, st, "sz_applied", V_BYTES, UINT64_MAX, &t->sz_applied) < 0 ||
	    need_u64(rd, at, st, "sz_ops_filter_passed", V_BYTES, UINT64_MAX,
		     &t->sz_ops_filter_passed) < 0 ||
	    need_u64(rd, at, st, "qt_exceeds", V_NUMBER, UINT64_MAX, &t->qt_exceeds) < 0)
		return -1;
	s->has_stats = true;
	return 0;
}

/* Room for one more region in @s: the array doubles. */
static int region_room(struct hs_rec_reader *rd, const char *at,
		       struct hs_rec_snapshot *s, size_t *cap)
{
	struct hs_rec_region *r;
	size_t n = *cap ? 2 * *cap : 64;

	if (s->nr < *cap)
		return 0;
	r = reallocarray(s->r, n, sizeof(*r));
	if (!r)
		return rec_fail(rd, "%sout of memory for %zu regions", at, n);
	s->r = r;
	*cap = n;
	return 0;
}

/*
 * "regions": one region at a time through jansson, so that a snapshot
 * costs its regions (a struct each), not a tree of its whole text.
 */
static int read_regions(struct hs_rec_reader *rd, const char *at,
			struct hs_rec_snapshot *s)
{
	bool first = true;
	size_t cap = 0;
	json_t *v;
	int c, ret;

	if (rec_peek(rd) != '[')
		return rd->state == S_FAILED ? -1 :
			rec_fail(rd, "%s\"regions\" is not a list", at);
	rd->pos++;
	for (;;) {
		c = rec_peek(rd);
		if (c == -2)
			return -1;
		if (c == -1)
			return rec_fail(rd, "%sthe file ends inside its regions (truncated?)",
				    at);
		if (c == ']')
			break;
		if (!first && rec_expect(rd, ',', "between regions") < 0)
			return -1;
		first = false;
		if (region_room(rd, at, s, &cap) < 0 || !(v = rec_value(rd)))
			return -1;
		ret = region_of(rd, at, v, s->nr, &s->r[s->nr],
				s->nr ? &s->r[s->nr - 1] : NULL);
		json_decref(v);
		if (ret < 0)
			return -1;
		s->nr++;
	}
	rd->pos++;
	s->nr_targets = s->nr ? s->r[s->nr - 1].target + 1 : 1;
	return 0;
}

/* The snapshot's other members, gathered in @o. */
static int snapshot_fields(struct hs_rec_reader *rd, const char *at,
			   const json_t *o, struct hs_rec_snapshot *s)
{
	uint64_t v;
	int ret;

	if (need_u64(rd, at, o, "start_time", V_NS, UINT64_MAX, &s->start_ns) < 0 ||
	    need_u64(rd, at, o, "end_time", V_NS, UINT64_MAX, &s->end_ns) < 0)
		return -1;
	ret = get_u64(rd, at, o, "sample_interval_us", V_US, ULONG_MAX, &v);
	if (ret < 0)
		return -1;
	s->sample_us = (unsigned long)v;
	s->has_sample_us = ret;
	ret = get_u64(rd, at, o, "total_bytes", V_BYTES, UINT64_MAX,
		      &s->total_bytes);
	if (ret < 0)
		return -1;
	s->has_total = ret;
	return snapshot_stats(rd, at, o, s);
}

/*
 * One member of a snapshot: "regions" read region by region, any other
 * parsed by jansson into @meta.  Return: 1 for "regions", 0 for another,
 * -1 on error.
 */
static int snapshot_member(struct hs_rec_reader *rd, const char *at,
			   json_t *meta, bool seen_regions,
			   struct hs_rec_snapshot *s)
{
	json_t *key = rec_value(rd), *v;
	const char *name;
	int ret = -1;

	if (!key)
		return -1;
	name = json_string_value(key);
	if (!name)
		rec_fail(rd, "%sa member name is not a string", at);
	else if (json_object_get(meta, name) ||
		 (seen_regions && !strcmp(name, "regions")))
		rec_fail(rd, "%s\"%s\" twice", at, name);
	else if (rec_expect(rd, ':', "after a member name") < 0)
		;
	else if (!strcmp(name, "regions"))
		ret = read_regions(rd, at, s) < 0 ? -1 : 1;
	else if ((v = rec_value(rd)))
		ret = json_object_set_new(meta, name, v) ? -1 : 0;
	json_decref(key);
	return ret;
}

/*
 * One snapshot, walked as the lists around it are: its members one by one,
 * its regions one by one; memory follows the number of regions.
 */
static int read_snapshot(struct hs_rec_reader *rd, struct hs_rec_snapshot *s)
{
	json_t *meta = json_object();
	bool first = true, regions = false;
	char at[96];
	int c, ret = -1;

	snprintf(at, sizeof(at), "record %zu, snapshot %zu: ", rd->record,
		 rd->info.nr_snapshots);
	memset(s, 0, sizeof(*s));
	s->record = rd->record;
	s->index = rd->info.nr_snapshots;
	if (!meta) {
		rec_fail(rd, "out of memory");
		return -1;
	}
	c = rec_peek(rd);
	if (c != '{') {
		if (c != -2)
			rec_fail(rd, "%snot an object", at);
		goto out;
	}
	for (rd->pos++;; first = false) {
		c = rec_peek(rd);
		if (c == -2)
			goto out;
		if (c == -1) {
			rec_fail(rd, "%sthe file ends inside it (truncated?)", at);
			goto out;
		}
		if (c == '}')
			break;
		if (!first && rec_expect(rd, ',', "between snapshot members") < 0)
			goto out;
		c = snapshot_member(rd, at, meta, regions, s);
		if (c < 0)
			goto out;
		regions |= c;
	}
	rd->pos++;
	if (!regions)
		rec_fail(rd, "%sno \"regions\"", at);
	else
		ret = snapshot_fields(rd, at, meta, s);
out:
	json_decref(meta);
	if (ret < 0)
		hs_rec_snapshot_free(s);
	return ret;
}

/* -1 for null, else a small non-negative index. */
static int index_of(struct hs_rec_reader *rd, const json_t *v,
		    const char *key, long *out)
{
	const char *err;
	uint64_t n;

	if (json_is_null(v)) {
		*out = -1;
		return 0;
	}
	err = u64_of(v, V_NUMBER, &n);
	if (!err && n > 1000000)
		err = "out of range";
	if (err)
		return rec_fail(rd, "record %zu: \"%s\": %s", rd->record, key, err);
	*out = (long)n;
	return 0;
}

static int intervals_of(struct hs_rec_reader *rd, const json_t *v)
{
	struct hs_rec_info *in = &rd->info;
	uint64_t s, a, u = 0;
	char at[64];

	if (json_is_null(v))
		return 0;
	snprintf(at, sizeof(at), "record %zu: intervals: ", rd->record);
	if (!json_is_object(v))
		return rec_fail(rd, "%snot an object", at);
	if (need_u64(rd, at, v, "sample_us", V_US, ULONG_MAX, &s) < 0 ||
	    need_u64(rd, at, v, "aggr_us", V_US, ULONG_MAX, &a) < 0 ||
	    get_u64(rd, at, v, "ops_update_us", V_US, ULONG_MAX, &u) < 0)
		return -1;
	in->sample_us = (unsigned long)s;
	in->aggr_us = (unsigned long)a;
	in->ops_update_us = (unsigned long)u;
	in->has_intervals = true;
	return 0;
}

/* One member of a record, other than "snapshots". */
static int member(struct hs_rec_reader *rd, enum member m, const json_t *v)
{
	const char *err;

	switch (m) {
	case M_KDAMOND:
		return index_of(rd, v, "kdamond_idx", &rd->info.kdamond_idx);
	case M_CONTEXT:
		return index_of(rd, v, "context_idx", &rd->info.context_idx);
	case M_SCHEME:
		return index_of(rd, v, "scheme_idx", &rd->info.scheme_idx);
	case M_TARGET:
		if (json_is_null(v))
			return 0;
		err = u64_of(v, V_NUMBER, &rd->info.target_id);
		if (err)
			return rec_fail(rd, "record %zu: \"target_id\": %s",
				    rd->record, err);
		rd->info.has_target_id = true;
		return 0;
	case M_INTERVALS:
		return intervals_of(rd, v);
	default:
		return 0;
	}
}

static void record_start(struct hs_rec_reader *rd)
{
	memset(&rd->info, 0, sizeof(rd->info));
	rd->info.kdamond_idx = rd->info.context_idx = -1;
	rd->info.scheme_idx = -1;
	rd->seen = 0;
}

static int record_end(struct hs_rec_reader *rd)
{
	struct hs_rec_info *p;

	if (!(rd->seen & (1U << M_SNAPSHOTS)))
		return rec_fail(rd, "record %zu: no \"snapshots\"", rd->record);
	if (rd->collect) {
		p = realloc(rd->done, (rd->nr_done + 1) * sizeof(*p));
		if (!p)
			return rec_fail(rd, "out of memory");
		rd->done = p;
		rd->done[rd->nr_done++] = rd->info;
	}
	rd->record++;
	return 0;
}

/* The key of a record member, and what follows it up to its value. */
static int member_key(struct hs_rec_reader *rd, enum member *m)
{
	json_t *key = rec_value(rd);
	unsigned int i;

	if (!key)
		return -1;
	if (!json_is_string(key)) {
		json_decref(key);
		return rec_fail(rd, "record %zu: a member name is not a string",
			    rd->record);
	}
	for (i = 0; i < NR_MEMBERS; i++)
		if (!strcmp(json_string_value(key), member_names[i]))
			break;
	json_decref(key);
	if (i < NR_MEMBERS && (rd->seen & (1U << i)))
		return rec_fail(rd, "record %zu: \"%s\" twice", rd->record,
			    member_names[i]);
	if (i < NR_MEMBERS)
		rd->seen |= 1U << i;
	*m = (enum member)i;
	return rec_expect(rd, ':', "after a member name");
}

/* Inside a record: the next member, or its end. */
static int step_members(struct hs_rec_reader *rd)
{
	enum member m = NR_MEMBERS;
	json_t *v;
	int c = rec_peek(rd), ret;

	if (c == -1)
		return rec_fail(rd, "byte %llu: the file ends inside record %zu (truncated?)",
			    (unsigned long long)rec_where(rd), rd->record);

	if (c == '}') {
		rd->pos++;
		rd->state = S_RECORDS;
		return record_end(rd);
	}
	if (!rd->first && rec_expect(rd, ',', "between record members") < 0)
		return -1;
	rd->first = false;
	if (member_key(rd, &m) < 0)
		return -1;
	if (m == M_SNAPSHOTS) {
		if (rec_expect(rd, '[', "to open \"snapshots\"") < 0)
			return -1;
		rd->state = S_SNAPSHOTS;
		rd->first = true;
		return 0;
	}
	v = rec_value(rd);
	if (!v)
		return -1;
	ret = member(rd, m, v);
	json_decref(v);
	return ret;
}

/* In the record list: the next record, or the list's end. */
static int step_records(struct hs_rec_reader *rd)
{
	int c = rec_peek(rd);

	if (c == -1)
		return rec_fail(rd, "byte %llu: the file ends inside the record list (truncated?)",
			    (unsigned long long)rec_where(rd));

	if (c == ']') {
		rd->pos++;
		c = rec_peek(rd);
		if (c == -2)
			return -1;
		if (c != -1)
			return rec_fail(rd, "byte %llu: data after the end of the record list",
				    (unsigned long long)rec_where(rd));
		rd->state = S_DONE;
		return 0;
	}
	if (!rd->first && rec_expect(rd, ',', "between records") < 0)
		return -1;
	rd->first = false;
	if (rec_expect(rd, '{', "to open a record") < 0)
		return -1;
	record_start(rd);
	rd->state = S_MEMBERS;
	rd->first = true;
	return 0;
}

/*
 * Past the value at pos without parsing it: brackets and strings only,
 * the window sliding as it goes.  For records a caller skips, which an
 * earlier pass (hs_rec_scan()) has parsed whole.
 */
static int skip_value(struct hs_rec_reader *rd)
{
	unsigned long depth = 0;
	bool str = false, esc = false;
	int c = rec_peek(rd);

	if (c < 0)
		return c == -2 ? -1 : rec_fail(rd, "byte %llu: the file ends where a value should be",
					   (unsigned long long)rec_where(rd));
	for (;;) {
		if (rd->pos == rd->len && (rec_fill(rd, 1) < 0 || rd->pos == rd->len))
			return rd->state == S_FAILED ? -1 :
				rec_fail(rd, "byte %llu: the file ends inside a value",
				     (unsigned long long)rec_where(rd));
		c = rd->buf[rd->pos++];
		if (str) {
			if (esc)
				esc = false;
			else if (c == '\\')
				esc = true;
			else if (c == '"')
				str = false;
		} else if (c == '"') {
			str = true;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if ((c == '}' || c == ']') && depth && !--depth) {
			return 0;
		}
		if (!depth && !str)
			return rec_fail(rd, "byte %llu: a snapshot is not an object",
				    (unsigned long long)rec_where(rd));
	}
}

/**
 * hs_rec_range() - limit the snapshots hs_rec_next() returns to those of
 * records @first to @last: the snapshots of the records before are
 * skipped without being parsed (brackets and strings only; for a file
 * hs_rec_scan() has read whole), and hs_rec_next() returns 0 where
 * record @last ends, without entering the next, so that a later range can
 * go on from there.
 * @rd:		the reader.
 * @first:	the first record whose snapshots are returned.
 * @last:	the last (SIZE_MAX: to the end of the file).
 */
void hs_rec_range(struct hs_rec_reader *rd, size_t first, size_t last)
{
	rd->skip_to = first;
	rd->stop_after = last;
}

/** hs_rec_record() - the record the reader is in, or will enter next. */
size_t hs_rec_record(const struct hs_rec_reader *rd)
{
	return rd->record;
}

/**
 * hs_rec_next() - the next snapshot of the file, records in order.
 * @rd:		the reader.
 * @snap:	filled; free it with hs_rec_snapshot_free().
 *
 * Return: 1 with a snapshot, 0 at the end of the file, -1 on error
 * (hs_rec_error() says what, where).
 */
int hs_rec_next(struct hs_rec_reader *rd, struct hs_rec_snapshot *snap)
{
	int c;

	for (;;) {
		switch (rd->state) {
		case S_TOP:
			/* a file of another kind: said so, not byte by byte */
			c = rec_peek(rd);
			if (c == -1)
				return rec_fail(rd, "empty: no damo record");
			if (c != '[' && c != -2)
				return rec_fail(rd, "%snot a damo record (its first byte is no '[')",
						rd->z ? "decompressed, " : "");
			if (rec_expect(rd, '[', "to start a record list") < 0)
				return -1;
			rd->state = S_RECORDS;
			rd->first = true;
			break;
		case S_RECORDS:
			if (rd->record > rd->stop_after)
				return 0;	/* hs_rec_range()'s end */
			if (step_records(rd) < 0)
				return -1;
			break;
		case S_MEMBERS:
			if (step_members(rd) < 0)
				return -1;
			break;
		case S_SNAPSHOTS:
			c = rec_peek(rd);
			if (c == -1)
				return rec_fail(rd, "byte %llu: the file ends inside the snapshots of record %zu (truncated?)",
					    (unsigned long long)rec_where(rd),
					    rd->record);
			if (c == ']') {
				rd->pos++;
				rd->state = S_MEMBERS;
				rd->first = false;	/* "snapshots" was one */
				break;
			}
			if (!rd->first && rec_expect(rd, ',', "between snapshots") < 0)
				return -1;
			rd->first = false;
			if (rd->record < rd->skip_to) {
				if (skip_value(rd) < 0)
					return -1;
				rd->info.nr_snapshots++;
				break;
			}
			if (read_snapshot(rd, snap) < 0)
				return -1;
			if (!rd->info.nr_snapshots)
				rd->info.first_ns = snap->start_ns;
			rd->info.last_ns = snap->end_ns;
			rd->info.nr_snapshots++;
			return 1;
		case S_DONE:
			return 0;
		case S_FAILED:
			return -1;
		}
	}
}

/**
 * hs_rec_open() - open a damo record file, plain or zlib-compressed JSON.
 * @path:	the file.
 * @out:	the reader.
 * @err:	why not, when it returns -1.
 * @errlen:	room in @err.
 *
 * Return: 0, or -1.
 */
int hs_rec_open(const char *path, struct hs_rec_reader **out, char *err,
		size_t errlen)
{
	struct hs_rec_reader *rd = calloc(1, sizeof(*rd));

	if (!rd || !(rd->zin = malloc(hs_rec_chunk))) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	rd->f = fopen(path, "rb");
	if (!rd->f) {
		snprintf(err, errlen, "%s", strerror(errno));
		goto fail;
	}
	rd->chunk = hs_rec_chunk;
	rd->stop_after = SIZE_MAX;
	rd->zin_len = fread(rd->zin, 1, rd->chunk, rd->f);
	if (ferror(rd->f)) {
		snprintf(err, errlen, "read error: %s", strerror(errno));
		goto fail;
	}
	rd->z = rec_zlib_header(rd->zin, rd->zin_len);
	if (rd->z) {
		rd->zs.next_in = rd->zin;
		rd->zs.avail_in = (uInt)rd->zin_len;
		if (inflateInit(&rd->zs) != Z_OK) {
			snprintf(err, errlen, "zlib: inflateInit failed");
			rd->z = false;
			goto fail;
		}
	}
	*out = rd;
	return 0;
fail:
	hs_rec_close(rd);
	return -1;
}

const struct hs_rec_info *hs_rec_info(const struct hs_rec_reader *rd)
{
	return &rd->info;
}

const char *hs_rec_error(const struct hs_rec_reader *rd)
{
	return rd->err;
}

bool hs_rec_compressed(const struct hs_rec_reader *rd)
{
	return rd->z;
}

void hs_rec_close(struct hs_rec_reader *rd)
{
	if (!rd)
		return;
	if (rd->z)
		inflateEnd(&rd->zs);
	if (rd->f)
		fclose(rd->f);
	free(rd->zin);
	free(rd->buf);
	free(rd->done);
	free(rd);
}

void hs_rec_snapshot_free(struct hs_rec_snapshot *snap)
{
	free(snap->r);
	snap->r = NULL;
	snap->nr = 0;
}

/**
 * hs_rec_scan() - read a whole file once, keeping only each record's
 * fields and snapshot count: the table of contents for a second pass.
 * @path:	the file.
 * @infos:	the records, malloc()ed.
 * @nr:		how many.
 * @err:	why not, when it returns -1.
 * @errlen:	room in @err.
 *
 * Return: 0, or -1.
 */
int hs_rec_scan(const char *path, struct hs_rec_info **infos, size_t *nr,
		char *err, size_t errlen)
{
	struct hs_rec_reader *rd;
	struct hs_rec_snapshot s;
	int ret;

	if (hs_rec_open(path, &rd, err, errlen) < 0)
		return -1;
	rd->collect = true;
	while ((ret = hs_rec_next(rd, &s)) > 0)
		hs_rec_snapshot_free(&s);
	if (ret < 0) {
		snprintf(err, errlen, "%s", rd->err);
		hs_rec_close(rd);
		return -1;
	}
	*infos = rd->done;
	*nr = rd->nr_done;
	rd->done = NULL;
	hs_rec_close(rd);
	return 0;
}
