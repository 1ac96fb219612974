/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record_trace.h - the text of DAMON's damon:damon_aggregated tracepoint, read
 * into snapshots (src/record/trace.c), and the scheme stats DAMON's sysfs
 * shows, read from "NAME VALUE" lines.
 *
 * Linux 6.1 shows a kdamond's regions only through that tracepoint: at
 * the end of every aggregation interval it fires once per region,
 *
 *   kdamond.0-45 [000] ..... 12.345678: damon_aggregated: target_id=0
 *	nr_regions=10 140737488351232-140737488355328: 0 3
 *
 * (one line; perf script prints the event as damon:damon_aggregated, and
 * kernels before 5.16 leave out the age).  As damo's
 * parse_damon_trace_aggregated() does, nr_regions consecutive lines of a
 * target make one snapshot, whose end is the first line's timestamp.
 */
#ifndef HOTSCORE_RECORD_TRACE_H
#define HOTSCORE_RECORD_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim.h"

/*
 * The kprobe event at every sample's check that convert counts: set up as
 * "p:hs_sample damon_va_check_accesses" in tracefs' kprobe_events.
 */
#define HS_TRACE_SAMPLE_EVENT	"hs_sample"
/*
 * And at every sample's start, "p:hs_prepare damon_va_prepare_access_checks":
 * a page accessed between the two is seen; kdamond's own work between a
 * check and the next start is time in which no access can be.
 */
#define HS_TRACE_PREPARE_EVENT	"hs_prepare"

/* The most regions a snapshot may declare: sim's own limit. */
#define HS_TRACE_MAX_REGIONS	(1UL << 22)

/**
 * struct hs_trace_reader - a trace being read, a line at a time.
 * @first_ns:	how long the first snapshot's aggregation is taken to be
 *		(the trace has no earlier end to start it from); the caller
 *		sets it.
 * @lineno:	the line just read, from 1.
 * @nr_ignored:	lines of other events (not '#' comments, not blank).
 * @nr_snapshots: snapshots completed.
 * @nr_regions:	regions in them.
 * @min_nr:	the fewest regions of a snapshot.
 * @max_nr:	the most.
 * @age_mode:	0 before the first region, 1 with ages, 2 without (old
 *		kernels): every line of a trace must agree.
 * @target_id:	the trace's one target, once @nr_snapshots or @want.
 * @r:		the snapshot being read, or just completed.
 * @nr:		regions in @r.
 * @cap:	room in @r.
 * @want:	its nr_regions; 0 when none is open.
 * @open_line:	the line that opened it.
 * @start_ns:	the completed snapshot's start: the end of the one before.
 * @end_ns:	its end: its first line's timestamp, as damo takes it.
 * @first_end_ns: the first snapshot's end.
 * @nr_samples:	hs_sample events read.
 * @first_sample_ns: the first one's timestamp.
 * @last_sample_ns: the last one's.
 * @pending_samples: those since the last snapshot began.
 * @snap_samples: the samples of the snapshot being read or just completed:
 *		those before its first line.
 * @min_samples: the fewest of a snapshot (ULONG_MAX before the first).
 * @prepare_ns:	the last hs_prepare event's timestamp; 0: none open.
 * @nr_windows:	samples with an hs_prepare before them.
 * @window_ns:	their windows, from hs_prepare to hs_sample, summed.
 * @max_samples: the most.
 * @err:	why hs_trace_line() or hs_trace_end() returned -1.
 */
struct hs_trace_reader {
	uint64_t first_ns;
	unsigned long lineno, nr_ignored, nr_snapshots, nr_regions;
	size_t min_nr, max_nr;
	int age_mode;
	uint64_t target_id;
	struct hs_region *r;
	size_t nr, cap, want;
	unsigned long open_line;
	uint64_t start_ns, end_ns, first_end_ns;
	unsigned long nr_samples;
	uint64_t first_sample_ns, last_sample_ns;
	unsigned long pending_samples, snap_samples, min_samples, max_samples;
	uint64_t prepare_ns;
	unsigned long nr_windows;
	uint64_t window_ns;
	char err[256];
};

void hs_trace_init(struct hs_trace_reader *t, uint64_t first_ns);
int hs_trace_line(struct hs_trace_reader *t, const char *line, size_t len);
int hs_trace_end(struct hs_trace_reader *t);
void hs_trace_free(struct hs_trace_reader *t);
void hs_trace_intervals(const struct hs_trace_reader *t,
			unsigned long *sample_us, unsigned long *aggr_us);
unsigned long hs_trace_window_us(const struct hs_trace_reader *t);

int hs_damos_stats_parse(const char *text, size_t len,
			 struct hs_damos_stat *st, char *err, size_t errlen);

#endif /* HOTSCORE_RECORD_TRACE_H */
