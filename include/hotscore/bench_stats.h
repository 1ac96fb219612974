/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_stats.h - robust statistics on integer samples.
 *
 * No OS calls, no floating point and no allocation: the kernel module runs
 * the same code (the ankerl::nanobench rule: the maths is kept apart from
 * the OS so it can be unit-tested alone).  Values are whatever fixed-point
 * unit the caller chose; the bench uses milliticks per call and ratios in
 * parts per million.
 */
#ifndef HOTSCORE_BENCH_STATS_H
#define HOTSCORE_BENCH_STATS_H

#include "compat.h"

#define HS_PPM 1000000ULL	/* fixed-point one for ratios */

/**
 * struct hs_summary - the aggregates hotscore reports for a sample set.
 * @n:		number of samples.
 * @min:	smallest.
 * @q1:		25th percentile.
 * @median:	50th percentile.
 * @q3:		75th percentile.
 * @max:	largest.
 * @mad:	median absolute deviation from @median.
 * @tmean:	mean of the 20th..80th percentile samples.
 */
struct hs_summary {
	size_t n;
	uint64_t min, q1, median, q3, max, mad, tmean;
};

/**
 * struct hs_wvalue - a value that stands for @weight equal values.
 * @value:	e.g. the per-call cost of one class of inputs.
 * @weight:	e.g. how many inputs fall in that class.
 */
struct hs_wvalue {
	uint64_t value;
	uint64_t weight;
};

void hs_sort_u64(uint64_t *v, size_t n);
uint64_t hs_quantile(const uint64_t *sorted, size_t n, unsigned int permille);
uint64_t hs_trimmed_mean(const uint64_t *sorted, size_t n);
void hs_summarize(uint64_t *v, size_t n, uint64_t *scratch,
		  struct hs_summary *s);

void hs_sort_wvalues(struct hs_wvalue *v, size_t n);
uint64_t hs_wquantile(const struct hs_wvalue *sorted, size_t n,
		      unsigned int permille);
uint64_t hs_wmean(const struct hs_wvalue *v, size_t n);

uint64_t hs_stats_rand(uint64_t *state);
uint64_t hs_gcd(uint64_t a, uint64_t b);
void hs_bootstrap_median_ci(const uint64_t *v, size_t n, unsigned int rounds,
			    uint64_t seed, uint64_t *scratch, uint64_t *medians,
			    uint64_t *lo, uint64_t *hi);

#endif /* HOTSCORE_BENCH_STATS_H */
