// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - a real kdamond's record and a simulated one, reduced to the
 * same metrics over the time both cover, and held against one table of
 * bounds.
 *
 * Each record is timed from its own first snapshot's start: a trace's
 * clock is the guest's uptime, a simulation's starts at 0.  Percentiles
 * over snapshots are damo's (_damo_dist.get_percentile(): the value at
 * index p * n / 100 of the sorted list); byte-weighted ones the same with
 * each byte an element, so that a region of 10 MiB counts 2560 times as
 * much as a page.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotscore/record_compare.h"

#define DAMO_SAMPLE_US	5000	/* damo's intervals, for a record without */
#define DAMO_AGGR_US	100000

/*
 * The bounds: |REAL - SIM| <= rel * min(|REAL|, |SIM|) + abs, printed
 * with every comparison.  The simulation they expect is the one of the
 * real run's own measurements: its achieved access rate (hotscore
 * workload) and the intervals its kdamond really kept (hs_sample events,
 * hotscore convert), so that no bound depends on how fast the machine or
 * an emulator ran the guest.  Calibrated and checked on the DAMON kernel
 * under QEMU (TCG), docs/sim.md, "Sim against a real kdamond".  Rows an
 * emulator cannot make meaningful are information only.
 */
const struct hs_cmp_bound hs_cmp_bounds[] = {
	{ "aggr_interval", 0.2, 0, "us", false,
	  "both sides' own: the sim is given the real run's" },
	{ "samples", 0.2, 0.5, "", false,
	  "the real run's mean, the sim's a whole number: 0.5 is rounding" },
	{ "nr_regions", 0.5, 4, "", false,
	  "the real process has 3 more mappings; late samples split more" },
	{ "nr_regions/max", 0, 0, "", true,
	  "one snapshot: TCG's uneven samples split in bursts" },
	{ "nr_regions/tenth", 0, 0, "", true,
	  "as nr_regions, over a tenth of the time each: bursts weigh more" },
	{ "wss", 0.75, 0, "B", false,
	  "TCG's speed varies within a phase; the sim's rate is its mean" },
	{ "wss/tail", 0, 0, "B", true,
	  "the slowest snapshots, and the 10-region phase: the host's speed" },
	{ "age", 0.5, 5, "aggr", false,
	  "an age resets when nr_accesses moves; late samples move it" },
	{ "age/median", 0, 0, "aggr", true,
	  "the swept region's ages, reset by TCG's uneven coverage" },
	{ "nr_accesses", 1.0, 1, "samples", false,
	  "TCG: the accessed bit is set again only when QEMU's TLB misses" },
	{ "nr_tried", 0.8, 2, "", false,
	  "regions tried: nr_regions' bound at 15 regions, 1.5 x + 4, is 1.77 x" },
	{ "sz_tried", 0.5, 0, "B", false, "follows the cold memory's size" },
	{ "nr_applied", 0.8, 2, "", false, "as nr_tried, under the quota" },
	{ "sz_applied", 0.5, 0, "B", false, "the size quota caps both" },
	{ "qt_exceeds", 0.5, 2, "", false,
	  "windows that ended with the quota full" },
	{ "score", 0, 10, "", false,
	  "age and nr_accesses move it; 10 of 0..99 is one log2 step of age" },
};
const size_t hs_cmp_nr_bounds = sizeof(hs_cmp_bounds) / sizeof(hs_cmp_bounds[0]);

static const struct hs_cmp_bound *bound(const char *name)
{
	size_t i;

	for (i = 0; i < hs_cmp_nr_bounds; i++)
		if (!strcmp(hs_cmp_bounds[i].name, name))
			return &hs_cmp_bounds[i];
	return &hs_cmp_bounds[0];	/* not reached: the names are ours */
}

/**
 * hs_cmp_span() - a record's length and intervals, from a first pass.
 * @path:	the record file.
 * @side:	zeroed by the caller; its span, snapshots and intervals set.
 * @err:	why not, when it returns -1.
 * @errlen:	room in @err.
 *
 * Return: 0, or -1 for a file that is not one record of snapshots.
 */
int hs_cmp_span(const char *path, struct hs_cmp_side *side, char *err,
		size_t errlen)
{
	struct hs_rec_info *infos;
	size_t nr;

	if (hs_rec_scan(path, &infos, &nr, err, errlen))
		return -1;
	if (nr != 1 || !infos[0].nr_snapshots) {
		snprintf(err, errlen, nr != 1 ?
			 "%zu records: compare-records takes a record of one target" :
			 "no snapshots", nr);
		free(infos);
		return -1;
	}
	side->nr_snapshots = infos[0].nr_snapshots;
	side->span_ns = infos[0].last_ns > infos[0].first_ns ?
		infos[0].last_ns - infos[0].first_ns : 0;
	side->has_intervals = infos[0].has_intervals && infos[0].sample_us &&
		infos[0].aggr_us;
	side->sample_us = side->has_intervals ? infos[0].sample_us : DAMO_SAMPLE_US;
	side->aggr_us = side->has_intervals ? infos[0].aggr_us : DAMO_AGGR_US;
	free(infos);
	return 0;
}

/* Room for one more region in @side->acc. */
static int acc_room(struct hs_cmp_side *side)
{
	size_t cap = side->cap_acc ? 2 * side->cap_acc : 1024;
	struct hs_cmp_acc *p;

	if (side->nr_acc < side->cap_acc)
		return 0;
	p = reallocarray(side->acc, cap, sizeof(*p));
	if (!p)
		return -1;
	side->acc = p;
	side->cap_acc = cap;
	return 0;
}

/* nr_accesses in samples, and the age in aggregations, as rank takes them */
static void values_of(const struct hs_cmp_side *side,
		      const struct hs_rec_region *q, unsigned int *nr,
		      unsigned int *age)
{
	double max_nr = (double)side->aggr_us / side->sample_us;
	double pnr = q->has_percent ? q->percent * max_nr / 100 : 0;
	uint64_t aggrs = q->has_usec ? q->age_us / side->aggr_us : 0;

	/*
	 * A percent or an age in us can stand for more than an unsigned int
	 * holds (a far-fetched record): the kernel's fields saturate here
	 * rather than wrap, and the cast is never out of range.
	 */
	*nr = q->has_samples ? q->nr_accesses :
		pnr >= (double)UINT_MAX ? UINT_MAX : (unsigned int)pnr;
	*age = q->has_aggrs ? q->age :
		aggrs > UINT_MAX ? UINT_MAX : (unsigned int)aggrs;
}

/* The scheme's score of one region, 0..99; -1 where it traps. */
static int score_of(const struct hs_cmp_side *side,
		    const struct hs_cmp_score *sc, unsigned int nr,
		    unsigned int age)
{
	struct hs_input in = {
		.sample_us = side->sample_us, .aggr_us = side->aggr_us,
		/* at the aggregation's end, as rank scores a snapshot */
		.passed_sis = 1, .next_aggr_sis = 1,
		.nr_accesses = nr, .last_nr_accesses = nr, .age = age,
		.nr_accesses_bp = hs_bp_of_nr(nr),
		.weight_nr_accesses = sc->weight_nr,
		.weight_age = sc->weight_age,
	};
	struct hs_result res;
	int s;

	if (sc->kind == HS_SCORE_MAX)
		return HS_DAMOS_MAX_SCORE;
	res = hs_score(&sc->comp, &in, NULL);
	if (res.status == HS_DIV0)
		return -1;
	s = sc->kind == HS_SCORE_HOT ? res.hot : res.cold;
	/* the kernel would index past its histogram: counted at its edge */
	return s < 0 ? 0 : s > HS_DAMOS_MAX_SCORE ? HS_DAMOS_MAX_SCORE : s;
}

/* Room for one more snapshot in the three per-snapshot arrays. */
static int snapshot_room(struct hs_cmp_side *side)
{
	size_t cap = side->cap ? 2 * side->cap : 256;
	uint64_t **arrays[] = { &side->end_ns, &side->nr_regions, &side->wss };
	size_t i;

	for (i = 0; i < 3; i++) {
		uint64_t *p = reallocarray(*arrays[i], cap, sizeof(uint64_t));

		if (!p)
			return -1;
		*arrays[i] = p;
	}
	side->cap = cap;
	return 0;
}

/* One snapshot within the window: its counts, and every region. */
static int take(struct hs_cmp_side *side, const struct hs_cmp_score *sc,
		const struct hs_rec_snapshot *s, uint64_t end_ns)
{
	uint64_t wss = 0;
	size_t i;

	if (side->n == side->cap && snapshot_room(side))
		return -1;
	for (i = 0; i < s->nr; i++) {
		const struct hs_rec_region *q = &s->r[i];
		struct hs_cmp_acc a = { .bytes = q->end - q->start };
		int score;

		values_of(side, q, &a.nr, &a.age);
		if (a.nr)
			wss += a.bytes;
		score = score_of(side, sc, a.nr, a.age);
		if (score < 0)
			side->nr_traps++;
		else
			side->score_bytes[score] += a.bytes;
		if (acc_room(side))
			return -1;
		side->acc[side->nr_acc++] = a;
	}
	side->end_ns[side->n] = end_ns;
	side->nr_regions[side->n] = s->nr;
	side->wss[side->n++] = wss;
	return 0;
}

/**
 * hs_cmp_read() - reduce a record: every snapshot that ends within
 * @window_ns of the first's start, and the last snapshot's stats.
 * @path:	the record file.
 * @window_ns:	the time both records cover.
 * @sc:		the score.
 * @side:	after hs_cmp_span(); filled.
 * @err:	why not, when it returns -1.
 * @errlen:	room in @err.
 *
 * Return: 0, or -1.
 */
int hs_cmp_read(const char *path, uint64_t window_ns,
		const struct hs_cmp_score *sc, struct hs_cmp_side *side,
		char *err, size_t errlen)
{
	struct hs_rec_reader *rd;
	struct hs_rec_snapshot s;
	uint64_t first = 0, end;
	int ret;

	if (hs_rec_open(path, &rd, err, errlen))
		return -1;
	while ((ret = hs_rec_next(rd, &s)) > 0) {
		if (s.index == 0)
			first = s.start_ns;
		end = s.end_ns > first ? s.end_ns - first : 0;
		side->has_stats = s.has_stats;
		side->stats = s.stats;
		if (end <= window_ns && take(side, sc, &s, end)) {
			hs_rec_snapshot_free(&s);
			hs_rec_close(rd);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		hs_rec_snapshot_free(&s);
	}
	if (ret < 0)
		snprintf(err, errlen, "%s", hs_rec_error(rd));
	hs_rec_close(rd);
	return ret;
}

/** hs_cmp_free() - what hs_cmp_read() allocated. */
void hs_cmp_free(struct hs_cmp_side *side)
{
	free(side->end_ns);
	free(side->nr_regions);
	free(side->wss);
	free(side->acc);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * damo's percentile of @n values (sorted here, in a copy): the one at
 * index p * n / 100; -1 for none.  @from, @to: only the snapshots whose
 * end is in [@from, @to).
 */
static double percentile(const uint64_t *v, const uint64_t *end_ns, size_t n,
			 unsigned int p, uint64_t from, uint64_t to)
{
	uint64_t *s = malloc((n ? n : 1) * sizeof(*s));
	size_t i, k = 0, idx;
	double x;

	if (!s)
		return -1;
	for (i = 0; i < n; i++)
		if (end_ns[i] >= from && end_ns[i] < to)
			s[k++] = v[i];
	qsort(s, k, sizeof(*s), cmp_u64);
	idx = k * p / 100;
	x = k ? (double)s[idx < k ? idx : k - 1] : -1;
	free(s);
	return x;
}

static int cmp_age(const void *a, const void *b)
{
	unsigned int x = ((const struct hs_cmp_acc *)a)->age;
	unsigned int y = ((const struct hs_cmp_acc *)b)->age;

	return (x > y) - (x < y);
}

static int cmp_nr(const void *a, const void *b)
{
	unsigned int x = ((const struct hs_cmp_acc *)a)->nr;
	unsigned int y = ((const struct hs_cmp_acc *)b)->nr;

	return (x > y) - (x < y);
}

/* The byte-weighted percentile: the first value past p % of the bytes. */
static double weighted(struct hs_cmp_acc *acc, size_t n, bool age,
		       unsigned int p)
{
	double total = 0, cum = 0;
	size_t i;

	qsort(acc, n, sizeof(*acc), age ? cmp_age : cmp_nr);
	for (i = 0; i < n; i++)
		total += (double)acc[i].bytes;
	for (i = 0; i < n; i++) {
		cum += (double)acc[i].bytes;
		if (cum > total * p / 100)
			return age ? acc[i].age : acc[i].nr;
	}
	return -1;
}

static double score_pct(const uint64_t *bytes, unsigned int p)
{
	double total = 0, cum = 0;
	int s;

	for (s = 0; s <= HS_DAMOS_MAX_SCORE; s++)
		total += (double)bytes[s];
	for (s = 0; s <= HS_DAMOS_MAX_SCORE; s++) {
		cum += (double)bytes[s];
		if (cum > total * p / 100)
			return s;
	}
	return -1;
}

/* Append a row; a value below 0 is one the record does not give. */
static void row(struct hs_cmp_row *rows, size_t *n, const char *name,
		const char *group, double real, double sim)
{
	struct hs_cmp_row *r = &rows[(*n)++];
	const struct hs_cmp_bound *b = bound(group);

	snprintf(r->name, sizeof(r->name), "%s", name);
	r->bound = b;
	r->real = real;
	r->sim = sim;
	r->have = real >= 0 && sim >= 0;
	r->within = r->have &&
		fabs(real - sim) <= b->rel * fmin(fabs(real), fabs(sim)) + b->abs;
}

/**
 * hs_cmp_outside() - whether a row counts against the records: it has
 * both values, is outside its bound, and its bound is not for
 * information only.
 * @r:		the row.
 */
bool hs_cmp_outside(const struct hs_cmp_row *r)
{
	return r->have && !r->within && !r->bound->info;
}

/* The mean time between two snapshots' ends, in us; -1 without two. */
static double aggr_interval(const struct hs_cmp_side *side)
{
	if (side->n < 2)
		return -1;
	return (double)(side->end_ns[side->n - 1] - side->end_ns[0]) /
	       (double)(side->n - 1) / 1000;
}

/*
 * The monitoring schedule each side kept: how often it aggregated, from
 * its snapshots, and how many samples an aggregation took, from its
 * intervals (a converted trace with hs_sample events: measured).
 */
static void schedule_rows(const struct hs_cmp_side *real,
			  const struct hs_cmp_side *sim,
			  struct hs_cmp_row *rows, size_t *np)
{
	row(rows, np, "aggregation interval (us)", "aggr_interval",
	    aggr_interval(real), aggr_interval(sim));
	row(rows, np, "samples per aggregation", "samples",
	    (double)real->aggr_us / (double)real->sample_us,
	    (double)sim->aggr_us / (double)sim->sample_us);
}

/* Both sides' percentile of snapshots in [from, to). */
#define SNAP_ROW(name, group, field, p, from, to)			\
	row(rows, &n, name, group,					\
	    percentile(real->field, real->end_ns, real->n, p, from, to),	\
	    percentile(sim->field, sim->end_ns, sim->n, p, from, to))

static void region_rows(struct hs_cmp_side *real, struct hs_cmp_side *sim,
			struct hs_cmp_row *rows, size_t *np)
{
	static const unsigned int ps[] = { 50, 90 };
	size_t n = *np, k;
	char name[40];

	for (k = 0; k < 2; k++) {
		snprintf(name, sizeof(name), "age p%u (aggregations)", ps[k]);
		row(rows, &n, name, ps[k] == 50 ? "age/median" : "age",
		    weighted(real->acc, real->nr_acc, true, ps[k]),
		    weighted(sim->acc, sim->nr_acc, true, ps[k]));
	}
	for (k = 0; k < 2; k++) {
		snprintf(name, sizeof(name), "nr_accesses p%u (samples)", ps[k]);
		row(rows, &n, name, "nr_accesses",
		    weighted(real->acc, real->nr_acc, false, ps[k]),
		    weighted(sim->acc, sim->nr_acc, false, ps[k]));
	}
	*np = n;
}

static void stats_rows(const struct hs_cmp_side *real,
		       const struct hs_cmp_side *sim,
		       struct hs_cmp_row *rows, size_t *np)
{
	const struct hs_rec_stats *a = &real->stats, *b = &sim->stats;
	const uint64_t va[] = { a->nr_tried, a->sz_tried, a->nr_applied,
				a->sz_applied, a->qt_exceeds };
	const uint64_t vb[] = { b->nr_tried, b->sz_tried, b->nr_applied,
				b->sz_applied, b->qt_exceeds };
	static const char *const names[] = { "nr_tried", "sz_tried",
		"nr_applied", "sz_applied", "qt_exceeds" };
	bool both = real->has_stats && sim->has_stats;
	size_t k;

	for (k = 0; k < 5; k++)
		row(rows, np, names[k], names[k], both ? (double)va[k] : -1,
		    both ? (double)vb[k] : -1);
}

/**
 * hs_cmp_rows() - every metric of both records, against its bound.
 * @real:	the real kdamond's record, read.
 * @sim:	the simulated one; the regions of both are sorted here.
 * @window_ns:	the time both cover (for the tenths).
 * @rows:	HS_CMP_MAX_ROWS of room.
 *
 * Return: the rows filled.
 */
size_t hs_cmp_rows(struct hs_cmp_side *real, struct hs_cmp_side *sim,
		   uint64_t window_ns,
		   struct hs_cmp_row *rows)
{
	static const unsigned int wss_p[] = { 25, 50, 75, 90 };
	static const unsigned int score_p[] = { 10, 50, 90 };
	size_t n = 0, k;
	char name[40];

	schedule_rows(real, sim, rows, &n);
	SNAP_ROW("nr_regions min", "nr_regions", nr_regions, 0, 0, UINT64_MAX);
	SNAP_ROW("nr_regions median", "nr_regions", nr_regions, 50, 0, UINT64_MAX);
	SNAP_ROW("nr_regions max", "nr_regions/max", nr_regions, 100, 0,
		 UINT64_MAX);
	for (k = 0; k < 10; k++) {
		uint64_t from = window_ns * k / 10;
		uint64_t to = k == 9 ? UINT64_MAX : window_ns * (k + 1) / 10;

		snprintf(name, sizeof(name), "nr_regions median %zu-%zu%%",
			 k * 10, k * 10 + 10);
		SNAP_ROW(name, "nr_regions/tenth", nr_regions, 50, from, to);
	}
	for (k = 0; k < 4; k++) {
		snprintf(name, sizeof(name), "wss p%u", wss_p[k]);
		SNAP_ROW(name, wss_p[k] == 25 || wss_p[k] == 90 ? "wss/tail" :
			 "wss", wss, wss_p[k], 0, UINT64_MAX);
	}
	region_rows(real, sim, rows, &n);
	stats_rows(real, sim, rows, &n);
	for (k = 0; k < 3; k++) {
		snprintf(name, sizeof(name), "score p%u", score_p[k]);
		row(rows, &n, name, "score", score_pct(real->score_bytes, score_p[k]),
		    score_pct(sim->score_bytes, score_p[k]));
	}
	return n;
}
