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
 * The reader streams: it holds one snapshot's regions at a time, so a
 * record of any length is read in the memory of its largest snapshot's
 * regions.  jansson parses every value (a key, a field, one region); the
 * reader itself only walks the punctuation of the lists and objects that
 * hold them: the records, their snapshots, and each snapshot's regions.
 */
#ifndef HOTSCORE_RECORD_H
#define HOTSCORE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest single JSON value (a field, one region) the reader holds. */
#define HS_REC_MAX_VALUE	(1024UL << 20)

/*
 * Bytes read at a time (64 KiB); the window starts at four times that.
 * The fuzz harness makes it small, so that every input crosses the
 * window's edges.
 */
extern size_t hs_rec_chunk;

/**
 * struct hs_rec_region - one region of a snapshot, its fields as the
 * record gives them; what a field converts to depends on the intervals,
 * which the caller settles (a record may lack them).
 * @start:	its start address.
 * @end:	one past its end.
 * @target:	which target of the snapshot it belongs to, from 0.  A record
 *		without a target_id (damo's tried-regions snapshots) lists its
 *		targets one after another: a region that starts below the end
 *		of the one before begins the next target.
 * @nr_accesses: "nr_accesses.samples", if @has_samples.
 * @percent:	"nr_accesses.percent", if @has_percent.
 * @age:	"age.aggr_intervals", if @has_aggrs.
 * @age_us:	"age.usec", if @has_usec.
 * @has_samples: the record gives "nr_accesses.samples".
 * @has_percent: the record gives "nr_accesses.percent".
 * @has_aggrs:	the record gives "age.aggr_intervals".
 * @has_usec:	the record gives "age.usec".
 */
struct hs_rec_region {
	unsigned long start, end;
	unsigned int target;
	unsigned int nr_accesses;
	double percent;
	unsigned int age;
	uint64_t age_us;
	bool has_samples, has_percent, has_aggrs, has_usec;
};

/**
 * struct hs_rec_stats - a snapshot's damos_stats (damo's DamosStats).
 * @nr_tried:	"nr_tried": regions the scheme was tried on.
 * @sz_tried:	"sz_tried": their total size, in bytes.
 * @nr_applied:	"nr_applied": regions the action was applied to.
 * @sz_applied:	"sz_applied": their total size, in bytes.
 * @sz_ops_filter_passed: "sz_ops_filter_passed": bytes that passed the
 *		operations layer's filters.
 * @qt_exceeds:	"qt_exceeds": times the quota was exceeded.
 */
struct hs_rec_stats {
	uint64_t nr_tried, sz_tried, nr_applied, sz_applied;
	uint64_t sz_ops_filter_passed, qt_exceeds;
};

/**
 * struct hs_rec_info - a record's own fields (damo's DamonRecord).
 * @kdamond_idx: "kdamond_idx"; -1 when absent or null.
 * @context_idx: "context_idx"; -1 when absent or null.
 * @scheme_idx:	"scheme_idx"; -1 when absent or null.
 * @target_id:	valid if @has_target_id.
 * @has_target_id: the record gives a "target_id".
 * @sample_us:	"intervals.sample_us"; valid if @has_intervals.
 * @aggr_us:	"intervals.aggr_us"; valid if @has_intervals.
 * @ops_update_us: "intervals.ops_update_us" (0 when absent); valid if
 *		@has_intervals.
 * @has_intervals: the record gives "intervals".
 * @nr_snapshots: snapshots seen so far (all, after hs_rec_scan()).
 * @first_ns:	the first snapshot's start_time (valid with snapshots).
 * @last_ns:	the last snapshot's end_time.
 */
struct hs_rec_info {
	long kdamond_idx, context_idx, scheme_idx;
	uint64_t target_id;
	bool has_target_id;
	unsigned long sample_us, aggr_us, ops_update_us;
	bool has_intervals;
	size_t nr_snapshots;
	uint64_t first_ns, last_ns;
};

/**
 * struct hs_rec_snapshot - one snapshot (damo's DamonSnapshot).
 * @record:	index of its record in the file.
 * @index:	its index in the record.
 * @start_ns:	"start_time", in ns: the start of the aggregation it
 *		covers.
 * @end_ns:	"end_time", in ns: the end of that aggregation.
 * @sample_us:	"sample_interval_us", if @has_sample_us.
 * @total_bytes: "total_bytes", if @has_total.
 * @stats:	"damos_stats", if @has_stats.
 * @has_sample_us: the snapshot gives "sample_interval_us".
 * @has_total:	the snapshot gives "total_bytes".
 * @has_stats:	the snapshot gives "damos_stats".
 * @r:		the regions, in address order within each target, not
 *		overlapping.
 * @nr:		how many.
 * @nr_targets:	targets in @r (1, or more in a record without target_id).
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
	unsigned int nr_targets;
};

struct hs_rec_reader;

int hs_rec_open(const char *path, struct hs_rec_reader **out, char *err,
		size_t errlen);
int hs_rec_next(struct hs_rec_reader *rd, struct hs_rec_snapshot *snap);
void hs_rec_range(struct hs_rec_reader *rd, size_t first, size_t last);
size_t hs_rec_record(const struct hs_rec_reader *rd);
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
