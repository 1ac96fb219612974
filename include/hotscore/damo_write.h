/* SPDX-License-Identifier: GPL-2.0 */
/*
 * damo_write.h - DAMON records as damo writes and reads them: a JSON list
 * of records (../shared/docs/ecosystem-formats.md §1.3), plain ("json") or
 * through zlib's deflate ("json_compressed", damo's default).
 *
 * Written as it goes, one snapshot at a time, so that a record of any
 * length costs a few buffers of memory.  damo v3.3.0 picks a record's
 * parser from `file -b`: a zlib stream is "zlib compressed data" whatever
 * its size, while plain JSON is recognised only when `file` prints
 * exactly "JSON data", which Debian 12's file 5.44 never does.
 *
 * jansson writes every value; struct hs_json_stream puts them together
 * into one document, a value at a time, which the other JSON writers of
 * hotscore use as well.
 */
#ifndef HOTSCORE_DAMO_WRITE_H
#define HOTSCORE_DAMO_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "sim.h"

/*
 * json_dumpf()'s flags for every value: 15 significant digits, which
 * print a real rounded to a few decimals (hs_json_fixed()) as that
 * decimal, where jansson's default of 17 would print 0.1 as
 * 0.10000000000000001.
 */
#define HS_JSON_REALS	JSON_REAL_PRECISION(15)

/*
 * Containers open at once: damo's has the most, five (the list of records,
 * a record, its snapshots, a snapshot, its regions).
 */
#define HS_JSON_DEPTH	6

/**
 * struct hs_json_stream - one JSON document written a value at a time, so
 * that a list of any length costs the memory of one element.  jansson
 * dumps every key and value; this tracks only the punctuation between
 * them, which a streamed container cannot leave to jansson.
 * @f:		where the text goes.
 * @flags:	json_dumpf()'s flags for each value: JSON_COMPACT (',' and
 *		':'), or 0 (", " and ": ", as damo and python write).
 * @depth:	containers open.
 * @nr:		values written so far into each open container.
 * @lines:	whether each open container puts each value on a line of its
 *		own.
 * @object:	whether each open container is an object (else a list).
 */
struct hs_json_stream {
	FILE *f;
	size_t flags;
	unsigned int depth;
	size_t nr[HS_JSON_DEPTH];
	bool lines[HS_JSON_DEPTH];
	bool object[HS_JSON_DEPTH];
};

void hs_json_stream_init(struct hs_json_stream *js, FILE *f, size_t flags);
int hs_json_open(struct hs_json_stream *js, const char *key, bool object,
		 bool lines);
int hs_json_put(struct hs_json_stream *js, const char *key, json_t *v);
int hs_json_members(struct hs_json_stream *js, json_t *obj);
int hs_json_close(struct hs_json_stream *js);
json_t *hs_json_u64(uint64_t v);
json_t *hs_json_fixed(double x, unsigned int places);

/* damo's --record_format names, in this order. */
enum hs_damo_format {
	HS_DAMO_JSON,
	HS_DAMO_JSON_COMPRESSED,
	HS_NR_DAMO_FORMATS
};

int hs_damo_format_parse(const char *name);
const char *hs_damo_format_name(enum hs_damo_format fmt);

/**
 * struct hs_damo_intervals - the record's monitoring intervals.
 * @sample_us:	the sampling interval.
 * @aggr_us:	the aggregation interval.
 * @ops_update_us: the operations update interval.
 */
struct hs_damo_intervals {
	unsigned long sample_us, aggr_us, ops_update_us;
};

/**
 * struct hs_damo_snapshot - one aggregation interval, as the kernel's
 * damon_aggregated tracepoint shows it.
 * @start_ns:	when the interval began (ns since the start).
 * @end_ns:	when it ended.
 * @regions:	the target's regions, sorted, disjoint.
 * @nr:		how many.
 * @stat:	the record's scheme's stats so far (cumulative, as the
 *		kernel's); NULL writes none.
 */
struct hs_damo_snapshot {
	uint64_t start_ns, end_ns;
	const struct hs_region *regions;
	size_t nr;
	const struct hs_damos_stat *stat;
};

struct hs_zfile;

/**
 * struct hs_damo_writer - a record being written.
 * @out:	the file underneath (not closed here).
 * @f:		what the JSON text goes to: @out, or a stream that deflates
 *		into it.
 * @z:		the deflate state, or NULL for plain JSON.
 * @js:		the JSON document on @f.
 * @iv:		the intervals (the percent of a region's samples needs them).
 * @nr_snapshots: snapshots written.
 * @err:	the first write error (an errno), or 0.
 */
struct hs_damo_writer {
	FILE *out;
	FILE *f;
	struct hs_zfile *z;
	struct hs_json_stream js;
	struct hs_damo_intervals iv;
	uint64_t nr_snapshots;
	int err;
};

int hs_damo_begin(struct hs_damo_writer *w, FILE *out,
		  enum hs_damo_format fmt, const struct hs_damo_intervals *iv,
		  int scheme_idx);
int hs_damo_snapshot(struct hs_damo_writer *w,
		     const struct hs_damo_snapshot *s);
int hs_damo_end(struct hs_damo_writer *w);

#endif /* HOTSCORE_DAMO_WRITE_H */
