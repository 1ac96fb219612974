/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record_write.h - DAMON records as damo writes and reads them: a JSON list
 * of records (damo v3.3.0, src/_damon_records.py), plain ("json") or
 * through zlib's deflate ("json_compressed", damo's default).
 *
 * Written as it goes, one snapshot at a time, so that a record of any
 * length costs a few buffers of memory.  damo v3.3.0 picks a record's
 * parser from `file -b`: a zlib stream is "zlib compressed data" whatever
 * its size, while plain JSON is recognised only when `file` prints
 * exactly "JSON data", which Debian 12's file 5.44 never does.
 *
 * jansson writes every value; struct hs_json_stream (<hotscore/json_out.h>)
 * puts them together into one document, a value at a time.
 */
#ifndef HOTSCORE_RECORD_WRITE_H
#define HOTSCORE_RECORD_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "json_out.h"
#include "sim.h"

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
 * @quota:	the record's scheme's quota, written ("damos_quota": its
 *		effective size, and the goal's current value) when it has a
 *		goal; NULL or no goal writes none.  damo reads past it.
 */
struct hs_damo_snapshot {
	uint64_t start_ns, end_ns;
	const struct hs_region *regions;
	size_t nr;
	const struct hs_damos_stat *stat;
	const struct hs_quota *quota;
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

#endif /* HOTSCORE_RECORD_WRITE_H */
