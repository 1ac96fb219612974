// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - percentiles, MAD, trimmed mean and a bootstrap CI on integers.
 *
 * Kernel-safe: no library calls, no floating point, buffers come from the
 * caller.  Sorting is a heapsort: O(n log n) worst case and no recursion,
 * which matters on a kernel stack.
 */
#include <hotscore/bench_stats.h>

#define HS_SIFT_DOWN(v, type, less, root, end) do {			\
	size_t r_ = (root);						\
	while (2 * r_ + 1 < (end)) {					\
		size_t c_ = 2 * r_ + 1;					\
		type s_;						\
		if (c_ + 1 < (end) && less((v)[c_], (v)[c_ + 1]))	\
			c_++;						\
		if (!less((v)[r_], (v)[c_]))				\
			break;						\
		s_ = (v)[r_];						\
		(v)[r_] = (v)[c_];					\
		(v)[c_] = s_;						\
		r_ = c_;						\
	}								\
} while (0)

#define HS_HEAPSORT(v, n, type, less) do {				\
	size_t i_;							\
	type t_;							\
	for (i_ = (n) / 2; i_-- > 0;)					\
		HS_SIFT_DOWN(v, type, less, i_, n);			\
	for (i_ = (n); i_-- > 1;) {					\
		t_ = (v)[0];						\
		(v)[0] = (v)[i_];					\
		(v)[i_] = t_;						\
		HS_SIFT_DOWN(v, type, less, 0, i_);			\
	}								\
} while (0)

#define HS_LESS_U64(a, b) ((a) < (b))
#define HS_LESS_WV(a, b) ((a).value < (b).value)

/** hs_sort_u64() - sort @n values in ascending order, in place. */
void hs_sort_u64(uint64_t *v, size_t n)
{
	HS_HEAPSORT(v, n, uint64_t, HS_LESS_U64);
}

/** hs_sort_wvalues() - sort weighted values by value, in place. */
void hs_sort_wvalues(struct hs_wvalue *v, size_t n)
{
	HS_HEAPSORT(v, n, struct hs_wvalue, HS_LESS_WV);
}

/**
 * hs_quantile() - a percentile of sorted samples.
 * @sorted:	ascending values.
 * @n:		how many; 0 gives 0.
 * @permille:	0..1000 (500 is the median).
 *
 * Linear interpolation between the two nearest ranks (Hyndman-Fan type 7,
 * the default of R and numpy), rounded down.
 *
 * Return: the percentile.
 */
uint64_t hs_quantile(const uint64_t *sorted, size_t n, unsigned int permille)
{
	uint64_t h, lo, frac, d;

	if (!n)
		return 0;
	if (permille > 1000)
		permille = 1000;
	h = (uint64_t)(n - 1) * permille;
	lo = h / 1000;
	frac = h % 1000;
	if (!frac)
		return sorted[lo];
	d = sorted[lo + 1] - sorted[lo];	/* split: d * frac may not fit */
	return sorted[lo] + d / 1000 * frac + d % 1000 * frac / 1000;
}

/**
 * hs_trimmed_mean() - the mean of the middle 60 %: nanoBench's AVG_20_80.
 * @sorted:	ascending values.
 * @n:		how many.
 *
 * floor(n / 5) samples are dropped at each end; fewer than 5 samples are all
 * kept.  Return: the mean, rounded down.
 */
uint64_t hs_trimmed_mean(const uint64_t *sorted, size_t n)
{
	size_t cut = n / 5, i;
	uint64_t sum = 0;

	if (!n)
		return 0;
	for (i = cut; i < n - cut; i++)
		sum += sorted[i];
	return sum / (n - 2 * cut);
}

/**
 * hs_summarize() - min, quartiles, max, MAD and trimmed mean of samples.
 * @v:		the samples; sorted in place.
 * @n:		how many.
 * @scratch:	room for @n values (the absolute deviations).
 * @s:		receives the summary.
 */
void hs_summarize(uint64_t *v, size_t n, uint64_t *scratch,
		  struct hs_summary *s)
{
	size_t i;

	*s = (struct hs_summary){ .n = n };
	if (!n)
		return;
	hs_sort_u64(v, n);
	s->min = v[0];
	s->max = v[n - 1];
	s->q1 = hs_quantile(v, n, 250);
	s->median = hs_quantile(v, n, 500);
	s->q3 = hs_quantile(v, n, 750);
	s->tmean = hs_trimmed_mean(v, n);
	for (i = 0; i < n; i++)
		scratch[i] = v[i] > s->median ? v[i] - s->median :
						s->median - v[i];
	hs_sort_u64(scratch, n);
	s->mad = hs_quantile(scratch, n, 500);
}

/**
 * hs_wquantile() - a percentile of a weighted set.
 * @sorted:	ascending by value.
 * @n:		how many.
 * @permille:	0..1000.
 *
 * The smallest value whose cumulative weight reaches @permille of the total:
 * the value a sorted list of all the underlying items would show at that
 * rank.  Return: that value, or 0 for an empty or weightless set.
 */
uint64_t hs_wquantile(const struct hs_wvalue *sorted, size_t n,
		      unsigned int permille)
{
	uint64_t total = 0, cum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		total += sorted[i].weight;
	if (!total)
		return 0;
	for (i = 0; i < n; i++) {
		cum += sorted[i].weight;
		/* cum / total >= permille / 1000, without rounding */
		if (cum * 1000 >= total * permille && sorted[i].weight)
			return sorted[i].value;
	}
	return sorted[n - 1].value;
}

/** hs_wmean() - the weighted mean, rounded down; 0 if weightless. */
uint64_t hs_wmean(const struct hs_wvalue *v, size_t n)
{
	uint64_t total = 0, sum = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		total += v[i].weight;
		sum += v[i].value * v[i].weight;
	}
	return total ? sum / total : 0;
}

/** hs_stats_rand() - splitmix64: the seeded stream of the bootstrap. */
uint64_t hs_stats_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Move the k-th smallest of @v to v[k], with none larger before it and none
 * smaller after it: Wirth's selection, O(n) on average, fine with ties.
 */
static void hs_select(uint64_t *v, size_t n, size_t k)
{
	long l = 0, m = (long)n - 1, i, j, kk = (long)k;
	uint64_t x, t;

	while (l < m) {
		x = v[kk];
		i = l;
		j = m;
		do {
			while (v[i] < x)
				i++;
			while (x < v[j])
				j--;
			if (i <= j) {
				t = v[i];
				v[i] = v[j];
				v[j] = t;
				i++;
				j--;
			}
		} while (i <= j);
		if (j < kk)
			l = i;
		if (kk < i)
			m = j;
	}
}

/* The type-7 median of @v (reordered), without a full sort. */
static uint64_t hs_median_select(uint64_t *v, size_t n)
{
	size_t k = n / 2, i;
	uint64_t below;

	hs_select(v, n, k);
	if (n & 1)
		return v[k];
	below = v[0];		/* the largest of v[0..k-1] */
	for (i = 1; i < k; i++)
		if (v[i] > below)
			below = v[i];
	return below + (v[k] - below) / 2;
}

/**
 * hs_bootstrap_median_ci() - 95 % percentile-bootstrap CI of the median.
 * @v:		the samples (not modified).
 * @n:		how many; at least 1.
 * @rounds:	resamples, e.g. 2000.
 * @seed:	the stream's seed: the same seed gives the same interval.
 * @scratch:	room for @n values.
 * @medians:	room for @rounds values.
 * @lo:		receives the 2.5th percentile of the resampled medians.
 * @hi:		receives the 97.5th.
 *
 * O(@rounds * @n): each resample's median is found by selection.
 */
void hs_bootstrap_median_ci(const uint64_t *v, size_t n, unsigned int rounds,
			    uint64_t seed, uint64_t *scratch, uint64_t *medians,
			    uint64_t *lo, uint64_t *hi)
{
	uint64_t state = seed;
	unsigned int b;
	size_t i;

	for (b = 0; b < rounds; b++) {
		for (i = 0; i < n; i++)	/* multiply-shift: no modulo bias */
			scratch[i] = v[(size_t)(((hs_stats_rand(&state) >> 32) *
						 (uint64_t)n) >> 32)];
		medians[b] = hs_median_select(scratch, n);
	}
	hs_sort_u64(medians, rounds);
	*lo = hs_quantile(medians, rounds, 25);
	*hi = hs_quantile(medians, rounds, 975);
}

/** hs_gcd() - the greatest common divisor of @a and @b (@a when @b is 0). */
uint64_t hs_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}
