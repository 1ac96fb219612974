// SPDX-License-Identifier: GPL-2.0
/*
 * write.c - DAMON records in damo's format, plain or zlib-compressed,
 * written as the run goes.
 *
 * jansson writes each value, and struct hs_json_stream the punctuation
 * between them (defined here, for every JSON writer of hotscore); for
 * json_compressed the text goes to a stream made with fopencookie() whose
 * writes feed zlib's deflate(), and whose close finishes the zlib stream
 * (Z_FINISH) into the file beneath.
 * The result is what python's zlib.decompress() reads, as damo does.
 * Every write error is kept (the first errno) and reported by the next
 * call, so that a full disk stops a long run rather than its end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "hotscore/record_write.h"

#define ZBUF_SIZE	(64 * 1024)

/**
 * struct hs_zfile - a deflating stream's state.
 * @s:		zlib's.
 * @out:	where the compressed bytes go.
 * @err:	the first error (an errno), or 0.
 * @buf:	deflate()'s output, written to @out when full.
 */
struct hs_zfile {
	z_stream s;
	FILE *out;
	int err;
	unsigned char buf[ZBUF_SIZE];
};

static const char *const format_names[HS_NR_DAMO_FORMATS] = {
	[HS_DAMO_JSON] = "json",
	[HS_DAMO_JSON_COMPRESSED] = "json_compressed",
};

/**
 * hs_damo_format_parse() - a record format by damo's name for it.
 * @name:	"json" or "json_compressed".
 *
 * Return: the enum hs_damo_format, or -1 if @name is neither.
 */
int hs_damo_format_parse(const char *name)
{
	int i;

	for (i = 0; i < HS_NR_DAMO_FORMATS; i++)
		if (!strcmp(name, format_names[i]))
			return i;
	return -1;
}

/**
 * hs_damo_format_name() - damo's name for a record format.
 * @fmt:	the format.
 *
 * Return: the name, or "?" for a value out of range.
 */
const char *hs_damo_format_name(enum hs_damo_format fmt)
{
	return fmt < HS_NR_DAMO_FORMATS ? format_names[fmt] : "?";
}

static int zfail(struct hs_zfile *z, int err)
{
	if (!z->err)
		z->err = err ? err : EIO;
	errno = z->err;
	return -1;
}

/*
 * Run deflate() with @flush over what is in z->s.next_in, writing every
 * full output buffer; with Z_FINISH, until the stream's end is out.
 */
static int zpump(struct hs_zfile *z, int flush)
{
	size_t have;
	int ret;

	do {
		z->s.next_out = z->buf;
		z->s.avail_out = sizeof(z->buf);
		ret = deflate(&z->s, flush);
		if (ret == Z_STREAM_ERROR)
			return zfail(z, EINVAL);
		have = sizeof(z->buf) - z->s.avail_out;
		if (have && fwrite(z->buf, 1, have, z->out) != have)
			return zfail(z, errno);
	} while (z->s.avail_out == 0 ||
		 (flush == Z_FINISH && ret != Z_STREAM_END));
	return 0;
}

static ssize_t zwrite(void *cookie, const char *buf, size_t size)
{
	struct hs_zfile *z = cookie;
	size_t done = 0;

	if (z->err)
		return zfail(z, z->err);
	while (done < size) {	/* avail_in is an unsigned int */
		size_t n = size - done < UINT_MAX ? size - done : UINT_MAX;

		z->s.next_in = (Bytef *)(buf + done);
		z->s.avail_in = (uInt)n;
		if (zpump(z, Z_NO_FLUSH))
			return -1;
		done += n;
	}
	return (ssize_t)size;
}

/* fclose(): the end of the zlib stream, flushed into the file beneath. */
static int zclose(void *cookie)
{
	struct hs_zfile *z = cookie;
	int err;

	if (!z->err) {
		z->s.next_in = NULL;
		z->s.avail_in = 0;
		if (!zpump(z, Z_FINISH) && fflush(z->out))
			zfail(z, errno);
	}
	err = z->err;
	deflateEnd(&z->s);
	free(z);
	if (!err)
		return 0;
	errno = err;
	return -1;
}

/*
 * A stdio stream whose bytes are deflated into @out at @level, in zlib's
 * format (a header, the deflate stream, an Adler-32).  fclose() finishes
 * it and frees *@zp; @out stays open.
 */
static FILE *zfile_open(FILE *out, int level, struct hs_zfile **zp)
{
	static const cookie_io_functions_t io = {
		.write = zwrite,
		.close = zclose,
	};
	struct hs_zfile *z = calloc(1, sizeof(*z));
	FILE *f;

	if (!z)
		return NULL;
	z->out = out;
	if (deflateInit(&z->s, level) != Z_OK) {
		free(z);
		errno = ENOMEM;
		return NULL;
	}
	f = fopencookie(z, "w", io);
	if (!f) {
		deflateEnd(&z->s);
		free(z);
		return NULL;
	}
	*zp = z;
	return f;
}

/*
 * The first error of either stream, kept in @w->err; errno is set to it.
 * ferror() says that something failed; the deflating stream knows what.
 */
static int check(struct hs_damo_writer *w)
{
	int err = errno;

	if (!w->err && w->z && w->z->err)
		w->err = w->z->err;
	if (!w->err && (ferror(w->f) || ferror(w->out)))
		w->err = err ? err : EIO;
	errno = w->err;
	return w->err ? -1 : 0;
}

/*
 * A value that could not be written: a write error as check() finds it,
 * else out of memory (jansson could not build the value).
 */
static int fail(struct hs_damo_writer *w)
{
	if (!check(w))
		w->err = ENOMEM;
	errno = w->err;
	return -1;
}

/* An unsigned long as damo writes a number it may print with units. */
static json_t *number_text(unsigned long v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%lu", v);
	return json_string(buf);
}

/*
 * The record's fixed members, before its snapshots: as damo's own
 * trace-based records (damo record), no kdamond or context index, for
 * damo report holistic draws its heatmaps only for records without them;
 * target_id 0, not null, for it prints that with %d.
 */
static json_t *record_head(const struct hs_damo_intervals *iv, int scheme_idx)
{
	return json_pack("{s:n, s:n, s:{s:o, s:o, s:o}, s:o, s:i, s:[]}",
			 "kdamond_idx", "context_idx", "intervals",
			 "sample_us", number_text(iv->sample_us),
			 "aggr_us", number_text(iv->aggr_us),
			 "ops_update_us", number_text(iv->ops_update_us),
			 "scheme_idx", scheme_idx < 0 ? json_null() :
			 json_integer(scheme_idx), "target_id", 0,
			 "scheme_filters");
}

/**
 * hs_damo_begin() - start a record: one target (id 0), with no scheme
 * filters and no kdamond or context index, as damo record writes them.
 * @w:		the writer, set up here.
 * @out:	an open file; the caller closes it after hs_damo_end().
 * @fmt:	HS_DAMO_JSON or HS_DAMO_JSON_COMPRESSED (zlib, default level).
 * @iv:		the monitoring intervals.
 * @scheme_idx:	the scheme whose stats the snapshots carry, or -1 (none:
 *		"scheme_idx": null).
 *
 * Return: 0, or -1 with errno set (out of memory, a write error).
 */
int hs_damo_begin(struct hs_damo_writer *w, FILE *out,
		  enum hs_damo_format fmt, const struct hs_damo_intervals *iv,
		  int scheme_idx)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
	w->f = out;
	w->iv = *iv;
	if (fmt == HS_DAMO_JSON_COMPRESSED) {
		w->f = zfile_open(out, Z_DEFAULT_COMPRESSION, &w->z);
		if (!w->f) {
			w->err = errno;
			return -1;
		}
	}
	hs_json_stream_init(&w->js, w->f, 0);
	if (hs_json_open(&w->js, NULL, false, false) ||
	    hs_json_open(&w->js, NULL, true, false) ||
	    hs_json_members(&w->js, record_head(iv, scheme_idx)) ||
	    hs_json_open(&w->js, "snapshots", false, true))
		return fail(w);
	return check(w);
}

/* The kernel's struct damos_stat as damo names it; no filters: 0 passed. */
static json_t *stats(const struct hs_damos_stat *st)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:i, s:o}",
			 "nr_tried", hs_json_u64(st->nr_tried),
			 "sz_tried", hs_json_u64(st->sz_tried),
			 "nr_applied", hs_json_u64(st->nr_applied),
			 "sz_applied", hs_json_u64(st->sz_applied),
			 "sz_ops_filter_passed", 0,
			 "qt_exceeds", hs_json_u64(st->qt_exceeds));
}

/*
 * A goal-tuned quota: its effective size as damo names it in a kdamond's
 * status (quotas' effective_sz_bytes), and the goal's current value.
 */
static json_t *quota(const struct hs_quota *q)
{
	return json_pack("{s:o, s:o}",
			 "effective_sz_bytes", hs_json_u64(q->esz),
			 "goal_current_value", hs_json_u64(q->goal_current));
}

/* One region as damo writes it: addresses and the age's count as text. */
static json_t *region(const struct hs_damo_writer *w,
		      const struct hs_region *r)
{
	unsigned long max_nr = w->iv.aggr_us / w->iv.sample_us;

	return json_pack("{s:o, s:o, s:{s:I, s:o}, s:{s:o, s:o}}",
			 "start", number_text(r->start),
			 "end", number_text(r->end),
			 "nr_accesses", "samples", (json_int_t)r->nr_accesses,
			 "percent", hs_json_fixed(max_nr ? r->nr_accesses *
						  100.0 / max_nr : 0.0, 2),
			 "age", "usec", hs_json_u64((uint64_t)r->age *
						    w->iv.aggr_us),
			 "aggr_intervals", number_text(r->age));
}

/* The snapshot's members before its regions. */
static json_t *snapshot_head(const struct hs_damo_writer *w,
			     const struct hs_damo_snapshot *s)
{
	unsigned long total = 0;
	char start[24], end[24];
	size_t i;

	for (i = 0; i < s->nr; i++)
		total += s->regions[i].end - s->regions[i].start;
	snprintf(start, sizeof(start), "%" PRIu64, s->start_ns);
	snprintf(end, sizeof(end), "%" PRIu64, s->end_ns);
	return json_pack("{s:s, s:s, s:o, s:o}", "start_time", start,
			 "end_time", end, "total_bytes", number_text(total),
			 "sample_interval_us", number_text(w->iv.sample_us));
}

/**
 * hs_damo_snapshot() - append one snapshot, a region at a time, so that
 * its memory does not grow with the regions.
 * @w:		the writer, after hs_damo_begin().
 * @s:		the snapshot.
 *
 * Return: 0, or -1 with errno set to the first write error so far.
 */
int hs_damo_snapshot(struct hs_damo_writer *w,
		     const struct hs_damo_snapshot *s)
{
	size_t i;

	if (w->err)
		return check(w);
	if (hs_json_open(&w->js, NULL, true, false) ||
	    hs_json_members(&w->js, snapshot_head(w, s)) ||
	    (s->stat && hs_json_put(&w->js, "damos_stats", stats(s->stat))) ||
	    (s->quota && s->quota->goal.metric != HS_GOAL_NONE &&
	     hs_json_put(&w->js, "damos_quota", quota(s->quota))) ||
	    hs_json_open(&w->js, "regions", false, false))
		return fail(w);
	for (i = 0; i < s->nr; i++)
		if (hs_json_put(&w->js, NULL, region(w, &s->regions[i])))
			return fail(w);
	if (hs_json_close(&w->js) || hs_json_close(&w->js))
		return fail(w);
	w->nr_snapshots++;
	return check(w);
}

/**
 * hs_damo_end() - close the record's lists and, when compressed, finish
 * the zlib stream into the file beneath, so that the file is complete
 * once the caller flushes and closes it.
 * @w:		the writer; nothing is left to free afterwards.
 *
 * Return: 0, or -1 with errno set to the first write error.
 */
int hs_damo_end(struct hs_damo_writer *w)
{
	int ret;

	if (hs_json_close(&w->js) ||
	    hs_json_put(&w->js, "data_source", json_string("unknown")) ||
	    hs_json_close(&w->js) || hs_json_close(&w->js))
		fail(w);
	ret = check(w);
	if (w->z) {
		/* the close runs Z_FINISH; the state goes with it */
		if (fclose(w->f) && !w->err)
			w->err = errno ? errno : EIO;
		w->z = NULL;
		w->f = w->out;
		ret = check(w);
	}
	return ret;
}
