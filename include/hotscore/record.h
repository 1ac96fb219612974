/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record.h - damo's record files, read back (src/record/read.c).
 *
 * damo (damonitor/damo, src/_damo_records.py) writes a list of records,
 * one per kdamond/context/target (or scheme), each a list of snapshots of
 * regions, as JSON or as zlib-compressed JSON ("json_compressed", its
 * default).  Its values may be raw or formatted for people
 * ("93,824,992,231,424", "100 ms", "143.027 MiB"); src/record/damo_fmt.c
 * reads both.
 *
 * The reader streams: it holds one snapshot at a time (its text, jansson's
 * tree of it and its regions), so a record of any length is read in the
 * memory of its largest snapshot.  jansson parses every value; the reader
 * itself only walks the punctuation of the two outer lists.
 */
#ifndef HOTSCORE_RECORD_H
#define HOTSCORE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest single JSON value (one snapshot) the reader holds. */
#define HS_REC_MAX_VALUE	(1024UL << 20)

/**
 * struct hs_rec_region - one region of a snapshot.
 * @start:	its start address.
 * @end:	one past its end.
 * @nr_accesses: samples that found it accessed; valid if @has_nr.
 * @age:	aggregation intervals; valid if @has_age.
 * @age_from_usec: @age was computed from "usec" (no "aggr_intervals").
 * @nr_from_percent: @nr_accesses was computed from "percent".
 * @has_nr:	the record gave nr_accesses (samples or percent).
 * @has_age:	the record gave an age.
 */
struct hs_rec_region {
	unsigned long start, end;
	unsigned int nr_accesses;
	unsigned int age;
	bool age_from_usec, nr_from_percent;
	bool has_nr, has_age;
};

/**
 * struct hs_rec_stats - a snapshot's damos_stats (damo's DamosStats).
 */
struct hs_rec_stats {
	uint64_t nr_tried, sz_tried, nr_applied, sz_applied;
	uint64_t sz_ops_filter_passed, qt_exceeds;
};

/**
 * struct hs_rec_info - a record's own fields (damo's DamonRecord).
 * @kdamond_idx, @context_idx, @scheme_idx: -1 when absent or null.
 * @target_id:	valid if @has_target_id.
 * @sample_us, @aggr_us, @ops_update_us: "intervals"; valid if
 *		@has_intervals.
 * @nr_snapshots: snapshots seen so far (all, after hs_rec_scan()).
 */
struct hs_rec_info {
	long kdamond_idx, context_idx, scheme_idx;
	uint64_t target_id;
	bool has_target_id;
	unsigned long sample_us, aggr_us, ops_update_us;
	bool has_intervals;
	size_t nr_snapshots;
};

/**
 * struct hs_rec_snapshot - one snapshot (damo's DamonSnapshot).
 * @record:	index of its record in the file.
 * @index:	its index in the record.
 * @start_ns, @end_ns: the aggregation it covers.
 * @sample_us:	"sample_interval_us", if @has_sample_us.
 * @total_bytes: "total_bytes", if @has_total.
 * @stats:	"damos_stats", if @has_stats.
 * @r:		the regions, in address order, not overlapping.
 * @nr:		how many.
 */
struct hs_rec_snapshot {
	size_t record, index;
	uint64_t start_ns, end_ns;
	unsigned long sample_us;
	uint64_t total_bytes;
	struct hs_rec_stats stats;
	bool has_sample_us, has_total, has_stats;
	struct hs_rec_region *r;
	size_t nr;
};

struct hs_rec_reader;

int hs_rec_open(const char *path, struct hs_rec_reader **out, char *err,
		size_t errlen);
int hs_rec_next(struct hs_rec_reader *rd, struct hs_rec_snapshot *snap);
const struct hs_rec_info *hs_rec_info(const struct hs_rec_reader *rd);
const char *hs_rec_error(const struct hs_rec_reader *rd);
bool hs_rec_compressed(const struct hs_rec_reader *rd);
void hs_rec_close(struct hs_rec_reader *rd);
void hs_rec_snapshot_free(struct hs_rec_snapshot *snap);

int hs_rec_scan(const char *path, struct hs_rec_info **infos, size_t *nr,
		char *err, size_t errlen);

/* damo's values (src/record/damo_fmt.c): NULL, or why not. */
const char *hs_damo_number(const char *s, uint64_t *out);
const char *hs_damo_time(const char *s, uint64_t bare_ns, uint64_t *ns);
const char *hs_damo_bytes(const char *s, uint64_t *out);
const char *hs_damo_percent(const char *s, double *out);

#endif /* HOTSCORE_RECORD_H */
