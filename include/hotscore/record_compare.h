/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record_compare.h - two damo records of one workload config, a real kdamond's
 * (hotscore convert) and a simulated one (hotscore sim --record), reduced
 * to the same metrics and held against one table of bounds
 * (src/record/compare.c; docs/sim.md, "Sim against a real kdamond").
 */
#ifndef HOTSCORE_RECORD_COMPARE_H
#define HOTSCORE_RECORD_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim_damos.h"
#include "record.h"
#include "score.h"

/**
 * struct hs_cmp_bound - how far REAL and SIM may be apart on one metric:
 * within when |REAL - SIM| <= @rel * min(|REAL|, |SIM|) + @abs, the same
 * whichever of the two is taken as right, and never without a lower bound.
 * @name:	the metric group ("wss", "score").
 * @rel:	the relative part, of the smaller (0.25: 25 %).
 * @abs:	the absolute part, in the metric's unit.
 * @unit:	"B" for bytes, "" for a count, else the unit's name.
 * @info:	shown, not counted: an emulated machine (TCG) cannot make the
 *		real side meaningful there.
 * @why:	one line: what makes REAL differ there.
 */
struct hs_cmp_bound {
	const char *name;
	double rel, abs;
	const char *unit;
	bool info;
	const char *why;
};

extern const struct hs_cmp_bound hs_cmp_bounds[];
extern const size_t hs_cmp_nr_bounds;

/**
 * struct hs_cmp_score - the scheme's score, as compare-records takes it.
 * @comp:	the profile's components.
 * @kind:	hot, cold, or the maximum (an action that takes no score).
 * @weight_nr:	the quota's nr_accesses weight.
 * @weight_age:	its age weight.
 */
struct hs_cmp_score {
	struct hs_components comp;
	enum hs_score_kind kind;
	unsigned int weight_nr, weight_age;
};

/* One region's values, byte-weighted in the distributions. */
struct hs_cmp_acc {
	unsigned int age, nr;
	uint64_t bytes;
};

/**
 * struct hs_cmp_side - one record, reduced.
 * @span_ns:	from its first snapshot's start to its last's end.
 * @nr_snapshots: snapshots in the file.
 * @sample_us:	the record's sampling interval (damo's default without).
 * @aggr_us:	its aggregation interval.
 * @has_intervals: the record gives them.
 * @end_ns:	per snapshot compared: its end, from the first's start.
 * @nr_regions:	per snapshot: its regions.
 * @wss:	per snapshot: bytes of regions with nr_accesses > 0.
 * @n:		snapshots compared (those ending within the window).
 * @cap:	room in the three arrays.
 * @acc:	every region of those snapshots.
 * @nr_acc:	how many.
 * @cap_acc:	room in @acc.
 * @score_bytes: bytes per score, 0..99.
 * @nr_traps:	regions whose score divides by zero (not counted).
 * @stats:	the last compared snapshot's damos_stats, if @has_stats.
 * @has_stats:	it carries them.
 */
struct hs_cmp_side {
	uint64_t span_ns;
	size_t nr_snapshots;
	unsigned long sample_us, aggr_us;
	bool has_intervals;
	uint64_t *end_ns, *nr_regions, *wss;
	size_t n, cap;
	struct hs_cmp_acc *acc;
	size_t nr_acc, cap_acc;
	uint64_t score_bytes[HS_DAMOS_MAX_SCORE + 1];
	uint64_t nr_traps;
	struct hs_rec_stats stats;
	bool has_stats;
};

/**
 * struct hs_cmp_row - one metric of both records.
 * @name:	"wss p50".
 * @bound:	its entry of hs_cmp_bounds[].
 * @real:	REAL's value, if @have.
 * @sim:	SIM's.
 * @have:	both records give it.
 * @within:	|@real - @sim| is within the bound (false if not @have).
 */
struct hs_cmp_row {
	char name[40];
	const struct hs_cmp_bound *bound;
	double real, sim;
	bool have, within;
};

/* The rows hs_cmp_rows() fills at most. */
#define HS_CMP_MAX_ROWS	48

int hs_cmp_span(const char *path, struct hs_cmp_side *side, char *err,
		size_t errlen);
int hs_cmp_read(const char *path, uint64_t window_ns,
		const struct hs_cmp_score *sc, struct hs_cmp_side *side,
		char *err, size_t errlen);
size_t hs_cmp_rows(struct hs_cmp_side *real, struct hs_cmp_side *sim,
		   uint64_t window_ns,
		   struct hs_cmp_row *rows);
bool hs_cmp_outside(const struct hs_cmp_row *r);
void hs_cmp_free(struct hs_cmp_side *side);

#endif /* HOTSCORE_RECORD_COMPARE_H */
