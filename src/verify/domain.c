// SPDX-License-Identifier: GPL-2.0
/*
 * domain.c - verify's inputs: boundary values, the grid and the random
 * stream.
 *
 * The grid is built so that every freq_subscore 0..100 and every reachable
 * age_in_log 0..32 meet, for each pair of intervals, weights and moving-sum
 * state in the tables below; boundary values (0, 1, powers of two +- 1,
 * type maxima, the wrap points of the kernel's products) are added to both
 * axes.  Everything is a function of its index: the threads may take the
 * units in any order.
 */
#include <stdlib.h>
#include <string.h>

#include <hotscore/bench_stats.h>

#include "domain.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NR_B32 (3 * 31 + 12)
#define NR_B64 (3 * 63 + 6)

/* 0, 1, 2^k - 1, 2^k, 2^k + 1, the maxima and the products' wrap points. */
static uint32_t b32[NR_B32];
static uint64_t b64[NR_B64];
static size_t nr_b32, nr_b64;

static void boundaries(void)
{
	static const uint32_t extra32[] = {
		0, 1, 2, 3, 10, 99, 100, 1000,
		42949672, 42949673,	/* nr_accesses * 100 wraps above */
		UINT32_MAX - 1, UINT32_MAX };
	static const uint64_t extra64[] = {
		0, 1, 5000, 100000, 1000000, UINT64_MAX };
	unsigned int k;

	if (nr_b32)
		return;
	for (k = 0; k < ARRAY_SIZE(extra32); k++)
		b32[nr_b32++] = extra32[k];
	for (k = 2; k <= 32; k++) {
		uint64_t p = 1ULL << k;

		b32[nr_b32++] = (uint32_t)(p - 1);
		if (k < 32) {
			b32[nr_b32++] = (uint32_t)p;
			b32[nr_b32++] = (uint32_t)(p + 1);
		}
	}
	for (k = 0; k < ARRAY_SIZE(extra64); k++)
		b64[nr_b64++] = extra64[k];
	for (k = 2; k <= 64; k++) {
		uint64_t p = k < 64 ? 1ULL << k : 0;

		b64[nr_b64++] = p - 1;
		if (k < 64) {
			b64[nr_b64++] = p;
			b64[nr_b64++] = p + 1;
		}
	}
}

/* Intervals (sample_us, aggr_us): the usual, the extremes, the traps. */
static const uint64_t divisors[][2] = {
	{ 5000, 100000 },		/* the defaults */
	{ 1, 1 }, { 1, 2 }, { 7, 1000000 },
	{ 1000, 1000ULL * UINT32_MAX + 1000 },	/* ratio above UINT_MAX */
	{ 1, (1ULL << 32) + 5 },	/* u32-trunc keeps 5 */
	{ 3, 3ULL << 32 },		/* u32-trunc makes it 0 */
	{ 0, 100000 },			/* sample_interval 0 */
	{ 100000, 5000 },		/* aggr < sample: 0 samples */
	{ 5000, 0 },
	{ 1, 1000000000000ULL },	/* old ages reach age_in_log 32 */
	{ 1, UINT64_MAX }, { UINT64_MAX, UINT64_MAX },
	{ 10, 1ULL << 40 },
};

/* Weights (nr_accesses, age): zero sums, skew, the products' wrap. */
static const uint32_t weights[][2] = {
	{ 0, 0 }, { 0, 1 }, { 1, 0 }, { 1, 1 }, { 50, 50 }, { 3, 7 },
	{ 1000, 1 }, { 1, 1000 }, { 10000, 10000 }, { 1u << 24, 1u << 24 },
	{ 1u << 25, 1u << 25 },	/* the weighted sum wraps, the sum does not */
	{ 1u << 30, 1u << 30 }, { 1u << 31, 1u << 31 }, { UINT32_MAX, UINT32_MAX },
	{ UINT32_MAX, 1 }, { 1, UINT32_MAX },
};

#define NR_MV 4	/* moving-sum and bp states, for mvsum and bp profiles */
/* Axis sizes: 257 small counts + 2 x 202 thresholds + the boundary values;
 * 2 x 33 first ages + the boundary values.  Checked in hs_grid_unit(). */
#define NR_AXIS_MAX (257 + 2 * 202 + NR_B32 + 1)
#define AGE_AXIS_MAX (2 * 33 + NR_B32 + 1)

unsigned int hs_grid_units(bool mvsum)
{
	return (unsigned int)(ARRAY_SIZE(divisors) * ARRAY_SIZE(weights)) *
	       (mvsum ? NR_MV : 1);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static size_t sort_unique(uint32_t *v, size_t n)
{
	size_t i, m = 0;

	qsort(v, n, sizeof(*v), cmp_u32);
	for (i = 0; i < n; i++)
		if (!m || v[m - 1] != v[i])
			v[m++] = v[i];
	return m;
}

/* --quick's rows: a few frequencies and ages, every 8th boundary value. */
static const unsigned int quick_fs[] = { 0, 1, 2, 50, 98, 99, 100 };
static const unsigned int quick_logs[] = { 0, 1, 2, 3, 8, 16, 24, 30, 31 };

/*
 * nr_accesses: every value up to the samples per aggregation (+2) when
 * that is small, and for every freq_subscore 0..100 the first count that
 * reaches it and the one before.
 */
static size_t nr_axis(uint64_t sample, uint64_t aggr, bool quick,
		      uint32_t *out)
{
	uint64_t q = aggr / (sample ? sample : 1), max[2], fs, nr;
	size_t n = 0, i, m;

	/* min(q, UINT_MAX) ?: 1 for max-nr and safe; (u32)q for u32-trunc */
	max[0] = q > UINT32_MAX ? UINT32_MAX : (q ? q : 1);
	max[1] = (uint32_t)q ? (uint32_t)q : 1;
	if (!quick)
		for (i = 0; i <= 256 && i <= max[0] + 2; i++)
			out[n++] = (uint32_t)i;
	for (m = 0; m < 2; m++) {
		if (m && max[1] == max[0])
			break;
		for (i = 0; i <= (quick ? ARRAY_SIZE(quick_fs) - 1 : 100);
		     i++) {
			fs = quick ? quick_fs[i] : i;
			nr = (fs * max[m] + 99) / 100;
			out[n++] = (uint32_t)nr;
			if (nr)
				out[n++] = (uint32_t)(nr - 1);
		}
	}
	for (i = 0; i < nr_b32; i += quick ? 8 : 1)
		out[n++] = b32[i];
	return sort_unique(out, n);
}

/* age_in_sec as the kernel computes it: a 64-bit product, then 32 bits. */
static uint32_t age_in_sec(uint64_t age, uint64_t aggr)
{
	return (uint32_t)(age * aggr / 1000000);
}

static unsigned int bit_length(uint32_t x)
{
	return x ? 32 - (unsigned int)__builtin_clz(x) : 0;
}

/* The first age found for each age_in_log, per interval pair. */
static uint32_t first_age[ARRAY_SIZE(divisors)][33];
static bool first_found[ARRAY_SIZE(divisors)][33];

static void note_age(unsigned int d, uint64_t age)
{
	unsigned int k = bit_length(age_in_sec(age, divisors[d][1]));

	if (!first_found[d][k] || age < first_age[d][k]) {
		first_found[d][k] = true;
		first_age[d][k] = (uint32_t)age;
	}
}

/*
 * The first age in 64-bit wrap segment @w (ages whose age * aggr lies in
 * [w * 2^64, (w + 1) * 2^64)) whose age_in_sec has bit length @k.  Inside a
 * segment age * aggr / 10^6 grows with the age, so for each wrap count j of
 * the 32-bit truncation the ages of bit length k form one interval, whose
 * start is computed: exact.  Return false if the segment has none.
 */
static bool first_in_segment(unsigned int d, uint64_t w, unsigned int k)
{
	uint64_t aggr = divisors[d][1], j;
	unsigned __int128 base = (unsigned __int128)w << 64, a, end, start;

	end = (base + UINT64_MAX) / aggr;
	if (end > UINT32_MAX)
		end = UINT32_MAX;
	/* the segment's first age, and the wrap count j it starts at */
	start = (base + aggr - 1) / aggr;
	if (start > end)
		return false;
	j = (uint64_t)((start * aggr - base) / 1000000 >> 32);
	for (;; j++) {
		a = ((((unsigned __int128)j << 32) + (1ULL << (k - 1))) *
		     1000000 + ((unsigned __int128)w << 64) + aggr - 1) / aggr;
		if (a > end)
			return false;
		if (bit_length(age_in_sec((uint64_t)a, aggr)) == k) {
			note_age(d, (uint64_t)a);
			return true;
		}
	}
}

/*
 * The first age of every age_in_log the interval pair reaches: searched
 * exactly, segment by 64-bit wrap segment (at most 4096 of them), for the
 * bit lengths the segments before did not reach; plus a scan of all ages
 * below 2^12 and 2^16 spread over the rest, for pairs with more segments.
 * A brute force over all 2^32 ages found nothing more for any pair here.
 */
static void find_ages(unsigned int d)
{
	uint64_t aggr = divisors[d][1], i, w, segments;
	unsigned int k;

	note_age(d, 0);
	if (!aggr)
		return;
	segments = (uint64_t)(((unsigned __int128)UINT32_MAX * aggr) >> 64) + 1;
	if (segments > 4096)
		segments = 4096;
	for (k = 1; k <= 32; k++)
		for (w = 0; w < segments && !first_found[d][k]; w++)
			first_in_segment(d, w, k);
	for (i = 0; i < 4096; i++)
		note_age(d, i);
	for (i = 0; i < (1 << 16); i++)
		note_age(d, i << 16 | (i & 0xffff));
}

/* age: the first age of every age_in_log found, and the one before. */
static size_t age_axis(unsigned int d, bool quick, uint32_t *out)
{
	size_t n = 0, i;
	unsigned int k;

	out[n++] = 0;
	for (k = 0; k <= 32; k++) {
		if (!first_found[d][k])
			continue;
		if (quick) {
			for (i = 0; i < ARRAY_SIZE(quick_logs); i++)
				if (quick_logs[i] == k)
					break;
			if (i == ARRAY_SIZE(quick_logs))
				continue;
		}
		out[n++] = first_age[d][k];
		if (first_age[d][k])
			out[n++] = first_age[d][k] - 1;
	}
	if (!quick)
		for (i = 0; i < nr_b32; i++)
			out[n++] = b32[i];
	return sort_unique(out, n);
}

/**
 * hs_domain_init() - build the boundary tables and find the first ages of
 * every interval pair.  Call once before the threads start; the other
 * functions call it too, for single-threaded use.
 */
void hs_domain_init(void)
{
	static bool done;
	unsigned int d;

	if (done)
		return;
	boundaries();
	for (d = 0; d < ARRAY_SIZE(divisors); d++)
		find_ages(d);
	done = true;
}

/*
 * The moving-sum state: last window's count and where in the window; and
 * nr_accesses_bp apart from nr_accesses (state 0: nr_accesses * 10000).
 */
static void mv_state(unsigned int m, uint64_t window, uint32_t nr,
		     uint32_t max, struct hs_input *in)
{
	in->nr_accesses_bp = hs_bp_of_nr(nr);
	switch (m) {
	case 1:		/* half-way through the window */
		in->last_nr_accesses = nr;
		in->next_aggr_sis = window / 2;
		/* bp / 10000 one below nr (or wrapped, from 0) */
		in->nr_accesses_bp -= 1;
		break;
	case 2:		/* the window just started: mvsum = last */
		in->last_nr_accesses = max;
		in->next_aggr_sis = window;
		/* bp / 10000 at the window's count, above nr but at max */
		in->nr_accesses_bp = hs_bp_of_nr(max) + 9999u;
		break;
	case 3:		/* half-way, last window full, counters wrapped */
		in->last_nr_accesses = UINT32_MAX;
		in->passed_sis = UINT64_MAX - window / 4;
		in->next_aggr_sis = in->passed_sis + window / 2;
		/* near UINT_MAX: bp / 10000 is 429496 or just below */
		in->nr_accesses_bp = UINT32_MAX - nr % 20000u;
		break;
	default:
		break;
	}
}

/** hs_grid_unit_mv() - the moving-sum state of grid unit @u (0..3). */
unsigned int hs_grid_unit_mv(unsigned int u, bool mvsum)
{
	return mvsum ? u % NR_MV : 0;
}

/**
 * hs_grid_unit() - the inputs of grid unit @u.
 * @u:		below hs_grid_units(@mvsum).
 * @quick:	the boundary rows only: no full sweep of small counts.
 * @mvsum:	also vary the moving-sum state and nr_accesses_bp (for
 *		mvsum and bp profiles: hs_reads_state()).
 * @out:	room for HS_GRID_UNIT_MAX inputs, or NULL to count them.
 *
 * Return: how many inputs the unit has.
 */
size_t hs_grid_unit(unsigned int u, bool quick, bool mvsum,
		    struct hs_input *out)
{
	uint32_t nrs[NR_AXIS_MAX], ages[AGE_AXIS_MAX];
	unsigned int m = mvsum ? u % NR_MV : 0, d, w;
	size_t n_nr, n_age, i, j, n = 0;
	uint64_t sample, aggr, window;

	hs_domain_init();
	if (mvsum)
		u /= NR_MV;
	w = u % ARRAY_SIZE(weights);
	d = u / ARRAY_SIZE(weights);
	sample = divisors[d][0];
	aggr = divisors[d][1];
	window = (aggr ? aggr : 1) / (sample ? sample : 1);
	n_nr = nr_axis(sample, aggr, quick, nrs);
	n_age = age_axis(d, quick, ages);
	/* the axes fit by construction; a unit must fit its buffer */
	if (n_nr * n_age > HS_GRID_UNIT_MAX)
		abort();
	if (!out)
		return n_nr * n_age;
	for (i = 0; i < n_nr; i++)
		for (j = 0; j < n_age; j++) {
			struct hs_input *in = &out[n++];

			memset(in, 0, sizeof(*in));
			in->sample_us = sample;
			in->aggr_us = aggr;
			in->nr_accesses = nrs[i];
			in->age = ages[j];
			in->weight_nr_accesses = weights[w][0];
			in->weight_age = weights[w][1];
			mv_state(m, window, nrs[i],
				 window > UINT32_MAX ? UINT32_MAX :
				 (uint32_t)window, in);
		}
	return n;
}

static uint64_t pick64(uint64_t r, uint64_t small)
{
	switch (r & 3) {
	case 0:
		return b64[(r >> 2) % nr_b64];
	case 1:
		return (r >> 2) % small;
	case 2:
		return (r >> 2) & 0xffffffff;
	default:
		return r ^ (r << 7);
	}
}

static uint32_t pick32(uint64_t r, uint32_t small)
{
	switch (r & 3) {
	case 0:
		return b32[(r >> 2) % nr_b32];
	case 1:
		return (uint32_t)((r >> 2) % small);
	case 2:
		return (uint32_t)((r >> 2) % 1024);
	default:
		return (uint32_t)(r >> 32);
	}
}

/**
 * hs_random_input() - the @i-th input of the random domain.
 * @seed:	the domain's seed.
 * @i:		the index: any input can be made without the others.
 * @in:		receives it.
 *
 * Each field is, in equal parts, a boundary value, a small value, a
 * mid-sized one or one at the field's full width.
 */
void hs_random_input(uint64_t seed, uint64_t i, struct hs_input *in)
{
	uint64_t s = seed ^ (i * 0xd1b54a32d192ed03ULL);

	hs_domain_init();
	memset(in, 0, sizeof(*in));	/* padding too: examples are compared */
	in->sample_us = pick64(hs_stats_rand(&s), 100001);
	in->aggr_us = (hs_stats_rand(&s) & 7) == 0 ?
		pick64(hs_stats_rand(&s), 1ULL << 40) :
		in->sample_us * (1 + hs_stats_rand(&s) % 1000);
	in->nr_accesses = pick32(hs_stats_rand(&s), 1001);
	in->last_nr_accesses = pick32(hs_stats_rand(&s), 1001);
	in->age = pick32(hs_stats_rand(&s), 100000);
	in->passed_sis = pick64(hs_stats_rand(&s), 1000);
	in->next_aggr_sis = pick64(hs_stats_rand(&s), 1000);
	in->weight_nr_accesses = pick32(hs_stats_rand(&s), 1001);
	in->weight_age = pick32(hs_stats_rand(&s), 1001);
	/* drawn last: the other fields are what they were before it */
	in->nr_accesses_bp = (hs_stats_rand(&s) & 3) == 0 ?
		hs_bp_of_nr(in->nr_accesses) :
		pick32(hs_stats_rand(&s), 10010000);
}

/**
 * hs_agelog_quick_values() - --quick's age_in_sec values: every 2^k - 2 ..
 * 2^k + 1 and a stride of 65,537 (65,536 values, every residue mod 2^16).
 * @out: room for HS_AGELOG_QUICK_MAX values.
 *
 * Return: how many.
 */
size_t hs_agelog_quick_values(uint32_t *out)
{
	size_t n = 0;
	uint64_t k;

	for (k = 0; k < 65536; k++)
		out[n++] = (uint32_t)(k * 65537);
	for (k = 1; k <= 32; k++) {
		uint64_t p = 1ULL << k;

		out[n++] = (uint32_t)(p - 2);
		out[n++] = (uint32_t)(p - 1);
		if (k < 32) {
			out[n++] = (uint32_t)p;
			out[n++] = (uint32_t)(p + 1);
		}
	}
	out[n++] = 0;
	return n;
}
