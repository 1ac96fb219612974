// SPDX-License-Identifier: GPL-2.0
/*
 * test_stats.c - the bench's statistics on data whose answers are known.
 */
#include <string.h>

#include <hotscore/bench.h>
#include <hotscore/bench_stats.h>

#include "check.h"

static void test_sort(void)
{
	uint64_t v[200], state = 7;
	size_t i;

	for (i = 0; i < 200; i++)
		v[i] = check_rand(&state) % 50;	/* many duplicates */
	hs_sort_u64(v, 200);
	for (i = 1; i < 200; i++)
		CHECK(v[i - 1] <= v[i], "v[%zu] > v[%zu]", i - 1, i);
	hs_sort_u64(v, 0);	/* empty is fine */
}

static void test_quantile_type7(void)
{
	/* numpy.percentile([10, 20, 30, 40], q) with the default method */
	uint64_t v[] = { 10, 20, 30, 40 };

	CHECK_EQ(hs_quantile(v, 4, 0), 10);
	CHECK_EQ(hs_quantile(v, 4, 250), 17);	/* 17.5, rounded down */
	CHECK_EQ(hs_quantile(v, 4, 500), 25);
	CHECK_EQ(hs_quantile(v, 4, 750), 32);	/* 32.5 */
	CHECK_EQ(hs_quantile(v, 4, 1000), 40);
	CHECK_EQ(hs_quantile(v, 4, 2000), 40);	/* clamped */
	CHECK_EQ(hs_quantile(v, 1, 500), 10);
	CHECK_EQ(hs_quantile(v, 0, 500), 0);
}

/* A gap near 2^64 must not wrap while it is interpolated. */
static void test_quantile_large(void)
{
	uint64_t v[] = { 1000000, UINT64_MAX / 2 };
	uint64_t want = 1000000 + (UINT64_MAX / 2 - 1000000) / 2;

	CHECK(hs_quantile(v, 2, 500) / 1000 == want / 1000,
	      "median %llu, want about %llu",
	      (unsigned long long)hs_quantile(v, 2, 500),
	      (unsigned long long)want);
	CHECK_EQ(hs_quantile(v, 2, 1000), UINT64_MAX / 2);
}

static void test_trimmed_mean(void)
{
	/* 20-80 %: of 10 values, the middle 6; the outliers do not count */
	uint64_t v[] = { 1, 2, 10, 11, 12, 13, 14, 15, 1000, 5000 };
	uint64_t small[] = { 3, 4, 8 };

	CHECK_EQ(hs_trimmed_mean(v, 10), (10 + 11 + 12 + 13 + 14 + 15) / 6);
	CHECK_EQ(hs_trimmed_mean(small, 3), 5);	/* < 5 values: all */
	CHECK_EQ(hs_trimmed_mean(v, 0), 0);
}

static void test_summary(void)
{
	uint64_t v[] = { 9, 1, 5, 3, 7, 100 }, scratch[6];
	struct hs_summary s;

	hs_summarize(v, 6, scratch, &s);
	CHECK_EQ(s.n, 6);
	CHECK_EQ(s.min, 1);
	CHECK_EQ(s.max, 100);
	CHECK_EQ(s.median, 6);		/* (5 + 7) / 2 */
	CHECK_EQ(s.q1, 3);		/* 3.5 */
	CHECK_EQ(s.q3, 8);		/* 8.5 */
	/* |x - 6| = 5 5 3 1 1 3 ... 94: sorted 1 1 3 3 5 94 -> 3 */
	CHECK_EQ(s.mad, 3);
	CHECK_EQ(s.tmean, (3 + 5 + 7 + 9) / 4);
	CHECK(v[0] == 1 && v[5] == 100, "sorted in place");
}

static void test_weighted(void)
{
	struct hs_wvalue w[] = { { 30, 5 }, { 10, 90 }, { 20, 4 }, { 99, 1 },
				 { 50, 0 } };

	hs_sort_wvalues(w, 5);
	CHECK_EQ(w[0].value, 10);
	CHECK_EQ(w[4].value, 99);
	/* 100 items: 90 x 10, 4 x 20, 5 x 30, 1 x 99 (50 weighs nothing) */
	CHECK_EQ(hs_wquantile(w, 5, 500), 10);
	CHECK_EQ(hs_wquantile(w, 5, 900), 10);
	CHECK_EQ(hs_wquantile(w, 5, 901), 20);
	CHECK_EQ(hs_wquantile(w, 5, 950), 30);
	CHECK_EQ(hs_wquantile(w, 5, 990), 30);
	CHECK_EQ(hs_wquantile(w, 5, 1000), 99);
	CHECK_EQ(hs_wmean(w, 5), (900 + 80 + 150 + 99) / 100);
	CHECK_EQ(hs_wquantile(w, 0, 500), 0);
}

/* The mean always lies within min..max, whatever the weights. */
static void test_weighted_mean_within(void)
{
	struct hs_wvalue w[16];
	uint64_t state = 42, mean;
	int round, i;

	for (round = 0; round < 1000; round++) {
		for (i = 0; i < 16; i++) {
			w[i].value = check_rand(&state) % 100000;
			w[i].weight = check_rand(&state) % 10000000;
		}
		hs_sort_wvalues(w, 16);
		mean = hs_wmean(w, 16);
		CHECK(mean >= w[0].value && mean <= w[15].value,
		      "mean %llu outside [%llu, %llu]",
		      (unsigned long long)mean,
		      (unsigned long long)w[0].value,
		      (unsigned long long)w[15].value);
	}
}

static void test_bootstrap(void)
{
	uint64_t v[101], scratch[101], meds[2000], lo, hi, lo2, hi2;
	uint64_t state = 1;
	int i;

	for (i = 0; i < 101; i++)
		v[i] = 1000000 + check_rand(&state) % 20000;	/* ~1.01 */
	hs_bootstrap_median_ci(v, 101, 2000, 99, scratch, meds, &lo, &hi);
	hs_bootstrap_median_ci(v, 101, 2000, 99, scratch, meds, &lo2, &hi2);
	CHECK(lo == lo2 && hi == hi2, "same seed, different CI");
	memcpy(scratch, v, sizeof(v));
	hs_sort_u64(scratch, 101);
	CHECK(lo <= scratch[50] && scratch[50] <= hi,
	      "CI [%llu, %llu] misses the median %llu",
	      (unsigned long long)lo, (unsigned long long)hi,
	      (unsigned long long)scratch[50]);
	/* uniform on 20000: the median's 95 % CI is about +-2000 wide */
	CHECK(hi - lo > 500 && hi - lo < 6000, "CI width %llu",
	      (unsigned long long)(hi - lo));
	hs_bootstrap_median_ci(v, 101, 2000, 100, scratch, meds, &lo2, &hi2);
	CHECK(lo != lo2 || hi != hi2, "another seed, the same CI");

	/* the selection-based resampling equals a sort-based one */
	for (i = 0; i < 101; i++)
		v[i] = check_rand(&state) % 1000;	/* many ties */
	hs_bootstrap_median_ci(v, 101, 300, 5, scratch, meds, &lo, &hi);
	{
		uint64_t st = 5, ref[300], tmp[101];
		int b, k;

		for (b = 0; b < 300; b++) {
			for (k = 0; k < 101; k++)
				tmp[k] = v[((hs_stats_rand(&st) >> 32) * 101) >> 32];
			hs_sort_u64(tmp, 101);
			ref[b] = tmp[50];
		}
		hs_sort_u64(ref, 300);
		CHECK(lo == hs_quantile(ref, 300, 25) &&
		      hi == hs_quantile(ref, 300, 975),
		      "select [%llu, %llu] vs sort [%llu, %llu]",
		      (unsigned long long)lo, (unsigned long long)hi,
		      (unsigned long long)hs_quantile(ref, 300, 25),
		      (unsigned long long)hs_quantile(ref, 300, 975));
	}
	/* an even count takes the mean of the middle two */
	{
		uint64_t two[2] = { 10, 20 }, sc[2], md[50], l, h;

		hs_bootstrap_median_ci(two, 2, 50, 1, sc, md, &l, &h);
		CHECK(l >= 10 && h <= 20 && l <= 15 && h >= 15,
		      "[%llu, %llu]", (unsigned long long)l,
		      (unsigned long long)h);
	}

	/* identical samples: the CI collapses onto them */
	for (i = 0; i < 101; i++)
		v[i] = 777;
	hs_bootstrap_median_ci(v, 101, 500, 1, scratch, meds, &lo, &hi);
	CHECK(lo == 777 && hi == 777, "constant data");
}

static void test_verdict(void)
{
	const uint64_t one = HS_PPM, band = HS_NOISE_BAND_PPM;

	CHECK_EQ(hs_verdict(1750000, 1740000, 1760000, band), HS_FASTER);
	CHECK_EQ(hs_verdict(500000, 490000, 510000, band), HS_SLOWER);
	/* significant but inside the 1 % band */
	CHECK_EQ(hs_verdict(one + 5000, one + 1000, one + 9000, band),
		 HS_SAME);
	/* outside the band but not significant */
	CHECK_EQ(hs_verdict(one + 50000, one - 1000, one + 90000, band),
		 HS_SAME);
	CHECK_EQ(hs_verdict(one - 50000, one - 90000, one + 1, band), HS_SAME);
	CHECK_EQ(hs_verdict(one + band + 1, one + 1, one + 2 * band, band),
		 HS_FASTER);
}

int main(void)
{
	RUN(test_sort);
	RUN(test_quantile_type7);
	RUN(test_quantile_large);
	RUN(test_trimmed_mean);
	RUN(test_summary);
	RUN(test_weighted);
	RUN(test_weighted_mean_within);
	RUN(test_bootstrap);
	RUN(test_verdict);
	return CHECK_DONE();
}
