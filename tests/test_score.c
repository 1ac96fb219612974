// SPDX-License-Identifier: GPL-2.0
/*
 * test_score.c - the scoring model against the facts of damon-scoring.md:
 * its worked examples, DAMON's own KUnit vectors, the age_in_sec boundaries,
 * zero intervals under each divisor helper, weight wrap-around and the
 * out-of-range scores the 2026 hotfix clamps.
 */
#include <limits.h>
#include <string.h>

#include "check.h"
#include <hotscore/score.h>

static struct hs_input defaults(void)
{
	struct hs_input in = {
		.sample_us = 5000, .aggr_us = 100000,
		.weight_nr_accesses = 1, .weight_age = 1,
	};
	return in;
}

static struct hs_components profile(const char *name)
{
	struct hs_components c = { 0 };

	if (hs_components_parse(name, &c))
		CHECK(0, "profile %s does not parse", name);
	return c;
}

static struct hs_result score(const char *name, const struct hs_input *in)
{
	struct hs_components c = profile(name);

	return hs_score(&c, in, NULL);
}

static void test_worked_example_hot(void)
{
	struct hs_input in = defaults();
	unsigned int i;

	in.nr_accesses = 10;
	in.nr_accesses_bp = 100000;	/* as after a merge: bp / 10000 = 10 */
	in.age = 50;
	/* fs 50, age 5 s -> L 3 -> 35 -> as 54; (50+54)/2 = 52; 52*99/100 */
	for (i = 0; i < hs_nr_profiles; i++) {
		struct hs_result r = hs_score(&hs_profiles[i].comp, &in, NULL);

		CHECK(r.hot == 51 && r.cold == 48 && r.status == HS_OK,
		      "%s: hot %d cold %d", hs_profiles[i].name, r.hot, r.cold);
	}
}

/*
 * debian-6.12.117 (mm/damon/ops-common.c, damon_hot_score()):
 *	freq_subscore = mult_frac(r->nr_accesses_bp / 10000,
 *			DAMON_MAX_SUBSCORE, damon_max_nr_accesses(&c->attrs));
 * worked by hand with 5 ms / 100 ms (max 20) and weights 1/1.
 */
static void test_debian_6_12_bp(void)
{
	struct hs_components c = profile("debian-6.12.117");
	struct hs_input in = defaults();
	struct hs_trace t;
	struct hs_result r;

	CHECK(c.freq == HS_FREQ_BP && c.divisor == HS_DIV_SAFE &&
	      c.agelog == HS_AGELOG_LOOP && c.clamp == HS_CLAMP_0_99,
	      "components");
	/* bp 129999: count 12; mult_frac(12, 100, 20) = 0 * 100 + 1200 / 20
	 * = 60; age 0: as 50; (60 + 50) / 2 = 55; 55 * 99 / 100 = 54 */
	in.nr_accesses = 5;	/* not read: 6.1 gives 36 */
	in.nr_accesses_bp = 129999;
	r = hs_score(&c, &in, &t);
	CHECK(t.freq_subscore == 60 && r.hot == 54 && r.cold == 45,
	      "bp above nr: fs %d hot %d", t.freq_subscore, r.hot);
	CHECK_EQ(score("debian-6.1.192", &in).hot, 36);
	/* bp 99999 under nr 10: count 9, fs 45; age 5 s: L 3, as 54;
	 * (45 + 54) / 2 = 49; 49 * 99 / 100 = 48 (6.1: 51) */
	in.nr_accesses = 10;
	in.nr_accesses_bp = 99999;
	in.age = 50;
	r = hs_score(&c, &in, &t);
	CHECK(t.freq_subscore == 45 && r.hot == 48, "bp below nr: fs %d hot %d",
	      t.freq_subscore, r.hot);
	CHECK_EQ(score("debian-6.1.192", &in).hot, 51);
	/* nr 429497: the kernel's nr * 10000 wraps to 2704, count 0: fs 0
	 * flips L 3 to 29, as 45; 45 / 2 = 22; 22 * 99 / 100 = 21 */
	in.nr_accesses = 429497;
	in.nr_accesses_bp = hs_bp_of_nr(429497);
	CHECK_EQ(in.nr_accesses_bp, 2704);
	r = hs_score(&c, &in, &t);
	CHECK(t.freq_subscore == 0 && t.age_subscore == 45 && r.hot == 21,
	      "wrapped bp: fs %d as %d hot %d", t.freq_subscore,
	      t.age_subscore, r.hot);
	/* bp UINT_MAX, 1 ms / 1 ms (max 1): count 429496, fs 42949600;
	 * (42949600 + 50) / 2 = 21474825; * 99 = 2126007675 (no wrap);
	 * / 100 = 21260076, clamped to 99 */
	in.sample_us = in.aggr_us = 1000;
	in.age = 0;
	in.nr_accesses_bp = UINT_MAX;
	r = hs_score(&c, &in, &t);
	CHECK(t.freq_subscore == 42949600 && t.scaled == 21260076 &&
	      r.hot == 99 && r.status == HS_OK, "bp at UINT_MAX: fs %d hot %d",
	      t.freq_subscore, r.hot);
}

static void test_worked_example_reclaim(void)
{
	struct hs_input in = defaults();
	struct hs_trace t;
	struct hs_components c = profile("v6.6");
	struct hs_result r;

	/* DAMON_RECLAIM weights: age only; nr 0, 120 s old */
	in.weight_nr_accesses = 0;
	in.weight_age = 1;
	in.age = 1200;
	r = hs_score(&c, &in, &t);
	CHECK_EQ(t.age_in_sec, 120);
	CHECK_EQ(t.age_in_log, 7);
	CHECK_EQ(t.age_log_scaled, 25);
	CHECK_EQ(t.age_subscore, 39);
	CHECK_EQ(r.hot, 38);
	CHECK_EQ(r.cold, 61);
	CHECK_EQ(r.status, HS_OK);
}

/* damon_test_nr_samples_per_aggr: the safe divisor helper */
static void test_kunit_nr_samples_per_aggr(void)
{
	static const struct { unsigned long sample, aggr; unsigned int want; }
	v[] = {
		{ 0, 5000, 5000 },
		{ 0, 0, 1 },
		{ 1, (unsigned long)UINT_MAX + 1, UINT_MAX },
	};
	struct hs_components c = profile("hotfix");
	unsigned int i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct hs_input in = defaults();
		struct hs_trace t;
		struct hs_result r;

		in.sample_us = v[i].sample;
		in.aggr_us = v[i].aggr;
		r = hs_score(&c, &in, &t);
		CHECK_EQ(r.status, HS_OK);
		CHECK_EQ(t.max_nr, v[i].want);
	}
}

/* damon_test_nr_accesses_mvsum and damon_test_mvsum (sample 1, aggr 10) */
static void test_kunit_mvsum(void)
{
	static const struct {
		unsigned long passed, next;
		unsigned int nr, last, want;
	} v[] = {
		{ 0, 10, 5, 3, 3 }, { 0, 10, 0, 7, 7 }, { 5, 10, 3, 10, 8 },
		{ 8, 10, 3, 10, 5 }, { 10, 10, 42, 49, 42 },
		/* damon_test_mvsum (nr, last, bp): 7000 bp = 7 of 10 left */
		{ 3, 10, 3, 10, 10 }, { 5, 10, 3, 10, 8 },
	};
	struct hs_components c = profile("mm-new");
	unsigned int i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct hs_input in = defaults();
		struct hs_trace t;

		in.sample_us = 1;
		in.aggr_us = 10;
		in.passed_sis = v[i].passed;
		in.next_aggr_sis = v[i].next;
		in.nr_accesses = v[i].nr;
		in.last_nr_accesses = v[i].last;
		hs_score(&c, &in, &t);
		CHECK(t.mvsum == v[i].want, "row %u: mvsum %u, want %u", i,
		      t.mvsum, v[i].want);
	}
	{	/* (32, 100, 1000 bp): 1 of 10 left */
		struct hs_input in = defaults();
		struct hs_trace t;

		in.sample_us = 1;
		in.aggr_us = 10;
		in.passed_sis = 9;
		in.next_aggr_sis = 10;
		in.nr_accesses = 32;
		in.last_nr_accesses = 100;
		hs_score(&c, &in, &t);
		CHECK_EQ(t.left_window_bp, 1000);
		CHECK_EQ(t.mvsum, 42);
	}
}

/* time_after_eq(): a passed counter that wrapped is still "after" */
static void test_mvsum_time_after_eq(void)
{
	struct hs_components c = profile("mm-new");
	struct hs_input in = defaults();
	struct hs_trace t;

	in.sample_us = 1;
	in.aggr_us = 10;
	in.nr_accesses = 4;
	in.last_nr_accesses = 10;
	in.next_aggr_sis = ULONG_MAX - 1;
	in.passed_sis = 3;	/* wrapped past next: 5 samples after it */
	hs_score(&c, &in, &t);
	/* plain >= would see 3 < next and a window of 2^64 - 4 samples */
	CHECK(t.left_window_bp == 0 && t.mvsum == 4, "bp %lu mvsum %u",
	      t.left_window_bp, t.mvsum);

	in.next_aggr_sis = 2;	/* next wrapped, passed not yet */
	in.passed_sis = ULONG_MAX;
	hs_score(&c, &in, &t);
	CHECK(t.left_window_bp == 3000 && t.mvsum == 7, "bp %lu mvsum %u",
	      t.left_window_bp, t.mvsum);

	in.next_aggr_sis = ULONG_MAX - 1;
	in.passed_sis = ULONG_MAX - 4;		/* 3 samples before next */
	hs_score(&c, &in, &t);
	CHECK_EQ(t.left_window_bp, 3000);
	CHECK_EQ(t.mvsum, 7);
}

/* Every boundary of age_in_sec gives the bit length under every method. */
static void test_age_in_sec_boundaries(void)
{
	static const char *const methods[] = {
		"raw+max-nr+loop+none", "raw+max-nr+fls+none",
		"raw+max-nr+ilog2+none", "raw+max-nr+fls-generic+none",
		"raw+max-nr+ilog2-builtin+none", "raw+max-nr+ilog2-bsr+none",
	};
	unsigned int m;
	int k;

	for (m = 0; m < sizeof(methods) / sizeof(methods[0]); m++) {
		struct hs_components c = profile(methods[m]);

		CHECK_EQ(hs_age_in_log(&c, 0), 0);
		CHECK_EQ(hs_age_in_log(&c, 1), 1);
		CHECK_EQ(hs_age_in_log(&c, UINT32_MAX), 32);
		for (k = 1; k < 32; k++) {
			uint32_t p = 1u << k;

			CHECK(hs_age_in_log(&c, p - 1) == k &&
			      hs_age_in_log(&c, p) == k + 1,
			      "%s at 2^%d", methods[m], k);
		}
	}
}

/* age * aggr is unsigned long; the quotient is truncated to 32 bits. */
static void test_age_in_sec_truncation(void)
{
	struct hs_components c = profile("v6.6");
	struct hs_input in = defaults();
	struct hs_trace t;

	in.aggr_us = 1000000ul << 32;	/* 2^32 s per aggregation */
	in.sample_us = in.aggr_us;
	in.age = 1;
	hs_score(&c, &in, &t);
	CHECK_EQ(t.age_in_sec, 0);	/* 2^32 truncates to 0 */
	in.age = 3;
	hs_score(&c, &in, &t);
	CHECK_EQ(t.age_in_sec, 0);	/* 3 * 2^32 truncates to 0 */
	in.sample_us = 1;
	in.aggr_us = 1000000ul * 0x80000001ul;
	in.age = 2;
	hs_score(&c, &in, &t);
	CHECK_EQ(t.age_in_sec, 2);	/* 2^32 + 2 truncates to 2 */
	/* the 64-bit product itself wraps: (2^31 + 1) * 2^33 = 2^64 + 2^33 */
	in.aggr_us = 1ul << 33;
	in.age = 0x80000001u;
	hs_score(&c, &in, &t);
	CHECK_EQ(t.age_in_sec, 8589);	/* 2^33 / 10^6 */
}

static void check_div0(const char *p, unsigned long sample,
		       unsigned long aggr, enum hs_div0_site want)
{
	struct hs_input in = defaults();
	struct hs_result r;

	in.sample_us = sample;
	in.aggr_us = aggr;
	r = score(p, &in);
	if (want == HS_DIV0_NONE)
		CHECK(r.status == HS_OK, "%s %lu/%lu: status %s", p, sample,
		      aggr, hs_status_name(&r));
	else
		CHECK(r.status == HS_DIV0 && r.div0 == want,
		      "%s %lu/%lu: status %s", p, sample, aggr,
		      hs_status_name(&r));
}

static void test_zero_intervals(void)
{
	const char *const unsafe[] = { "v5.16", "v6.6", "rfc-fls", "v2-ilog2" };
	const char *const safe[] = { "hotfix", "debian-6.1.192" };
	unsigned int i;

	for (i = 0; i < 4; i++) {
		check_div0(unsafe[i], 0, 0, HS_DIV0_SAMPLE);
		check_div0(unsafe[i], 0, 100000, HS_DIV0_SAMPLE);
		check_div0(unsafe[i], 5000, 0, HS_DIV0_MAX_NR);
		check_div0(unsafe[i], 5000, 4999, HS_DIV0_MAX_NR);
	}
	for (i = 0; i < 2; i++) {
		check_div0(safe[i], 0, 0, HS_DIV0_NONE);
		check_div0(safe[i], 0, 100000, HS_DIV0_NONE);
		check_div0(safe[i], 5000, 0, HS_DIV0_NONE);
	}
	/* mvsum's window_len has no guard of its own: aggr < sample traps */
	check_div0("mm-new", 0, 0, HS_DIV0_NONE);
	check_div0("mm-new", 5000, 0, HS_DIV0_WINDOW);
	check_div0("mm-new", 5000, 4999, HS_DIV0_WINDOW);
	check_div0("mm-new", 1, 0, HS_DIV0_NONE);
}

/* Only the unsigned int divisor of 5.16 truncates 2^32 samples to 0. */
static void test_u32_trunc_divisor(void)
{
	unsigned long aggr = 1ul << 32;

	check_div0("v5.16", 1, aggr, HS_DIV0_MAX_NR);
	check_div0("v6.6", 1, aggr, HS_DIV0_NONE);
	check_div0("hotfix", 1, aggr, HS_DIV0_NONE);
	{
		struct hs_input in = defaults();
		struct hs_trace t;
		struct hs_components c = profile("v5.16");

		in.sample_us = 1;
		in.aggr_us = (1ul << 32) + 20;
		in.nr_accesses = 10;
		hs_score(&c, &in, &t);
		CHECK_EQ(t.max_nr, 20);		/* truncated, not capped */
		CHECK_EQ(t.freq_subscore, 50);
	}
}

static void test_weights_wrap_to_zero(void)
{
	struct hs_input in = defaults();
	struct hs_trace t;
	struct hs_components c = profile("v6.6");
	struct hs_result r;

	in.nr_accesses = 10;
	in.age = 50;
	in.weight_nr_accesses = 1;
	in.weight_age = UINT_MAX;	/* fw + aw wraps to 0: no division */
	r = hs_score(&c, &in, &t);
	CHECK_EQ(t.weighted, 50 - 54);	/* 50 + (2^32 - 1) * 54 mod 2^32 */
	CHECK_EQ(t.averaged, -4);
	CHECK_EQ(r.hot, -3);		/* -396 / 100 truncates toward 0 */
	CHECK_EQ(r.cold, 102);
	CHECK_EQ(r.status, HS_OUT_OF_RANGE);

	r = score("hotfix", &in);
	CHECK(r.hot == 0 && r.cold == 99 && r.status == HS_OK, "hot %d",
	      r.hot);

	in.weight_age = 0;
	in.weight_nr_accesses = 0;	/* no prioritization: hot 0 */
	r = score("v6.6", &in);
	CHECK(r.hot == 0 && r.cold == 99 && r.status == HS_OK, "hot %d",
	      r.hot);
}

/* hot * 99 overflows int: wraps under -fno-strict-overflow */
static void test_scale_overflow_wraps(void)
{
	struct hs_input in = defaults();
	struct hs_trace t;
	struct hs_components c = profile("v6.6");
	struct hs_result r;

	in.sample_us = 1;
	in.aggr_us = 1;		/* fs = nr * 100 */
	in.nr_accesses = 1000000;	/* fs = 100,000,000 */
	in.weight_nr_accesses = 1;
	in.weight_age = 0;
	r = hs_score(&c, &in, &t);
	CHECK_EQ(t.averaged, 100000000);
	CHECK_EQ(t.scaled, (int32_t)(uint32_t)(100000000u * 99u) / 100);
	CHECK_EQ(r.status, HS_OUT_OF_RANGE);
	/* nr * 100 wraps in unsigned int above 42,949,672 accesses */
	in.nr_accesses = 42949673;
	hs_score(&c, &in, &t);
	CHECK_EQ(t.freq_subscore, 4);	/* 4,294,967,300 mod 2^32 */
}

static void test_out_of_range_then_clamped(void)
{
	struct hs_input in = defaults();
	struct hs_result r;

	/* nr_accesses above aggr/sample (the Sashiko report) */
	in.nr_accesses = 40;
	in.age = 50;
	r = score("v6.6", &in);
	CHECK(r.hot == 125 && r.cold == -26 && r.status == HS_OUT_OF_RANGE,
	      "v6.6: hot %d cold %d", r.hot, r.cold);
	r = score("v2-ilog2", &in);
	CHECK_EQ(r.hot, 125);
	r = score("hotfix", &in);
	CHECK(r.hot == 99 && r.cold == 0 && r.status == HS_OK,
	      "hotfix: hot %d", r.hot);
	r = score("debian-6.1.192", &in);
	CHECK_EQ(r.hot, 99);
}

/* freq_subscore is floored: 1 access in 200 samples is "never accessed" */
static void test_zero_freq_flips_age(void)
{
	struct hs_input in = defaults();
	struct hs_trace t;
	struct hs_components c = profile("hotfix");

	in.aggr_us = 1000000;	/* 200 samples */
	in.nr_accesses = 1;
	in.age = 100;		/* 100 s: L = 7 */
	hs_score(&c, &in, &t);
	CHECK_EQ(t.freq_subscore, 0);
	CHECK_EQ(t.age_log_scaled, 25);
	in.nr_accesses = 2;
	hs_score(&c, &in, &t);
	CHECK_EQ(t.freq_subscore, 1);
	CHECK_EQ(t.age_log_scaled, 39);
}

static void test_profile_names(void)
{
	struct hs_components c;
	char buf[64];
	unsigned int i;

	for (i = 0; i < hs_nr_profiles; i++) {
		struct hs_components back;

		CHECK_EQ(hs_components_parse(hs_profiles[i].name, &c), 0);
		hs_components_format(&c, buf, sizeof(buf));
		CHECK(hs_components_parse(buf, &back) == 0 &&
		      !memcmp(&back, &c, sizeof(c)), "%s", buf);
	}
	CHECK_EQ(hs_components_parse("raw+max-nr+fls-bsr+none", &c), 0);
	CHECK(c.agelog == HS_AGELOG_FLS && c.fls == HS_FLS_BSR, "fls-bsr");
	CHECK_EQ(hs_components_parse("v6.7", &c), -1);
	CHECK_EQ(hs_components_parse("raw+max-nr+loop", &c), -1);
	CHECK_EQ(hs_components_parse("raw+max-nr+loop+none+none", &c), -1);
	CHECK_EQ(hs_components_parse("raw++loop+none", &c), -1);
	CHECK_EQ(hs_components_parse("", &c), -1);
	CHECK_EQ(hs_components_parse("raw+max-nr+loop+none+", &c), -1);
	/* the formatter never overruns and always terminates */
	CHECK(hs_components_format(&c, buf, 5) > 5 && strlen(buf) == 4,
	      "%s", buf);
}

int main(void)
{
	RUN(test_worked_example_hot);
	RUN(test_debian_6_12_bp);
	RUN(test_worked_example_reclaim);
	RUN(test_kunit_nr_samples_per_aggr);
	RUN(test_kunit_mvsum);
	RUN(test_mvsum_time_after_eq);
	RUN(test_age_in_sec_boundaries);
	RUN(test_age_in_sec_truncation);
	RUN(test_zero_intervals);
	RUN(test_u32_trunc_divisor);
	RUN(test_weights_wrap_to_zero);
	RUN(test_scale_overflow_wraps);
	RUN(test_out_of_range_then_clamped);
	RUN(test_zero_freq_flips_age);
	RUN(test_profile_names);
	return CHECK_DONE();
}
