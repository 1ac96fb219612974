// SPDX-License-Identifier: GPL-2.0
/*
 * test_kernel.c - the kernel helper equivalents in include/hotscore/kernel.h.
 *
 * The reference for fls() is its definition: the 1-based position of the top
 * set bit, found by testing every bit.  The fls and age_in_log forms are
 * compared on every value below 2^24, on every 2^k - 2 .. 2^k + 1, and on a
 * stride of 65,537 over the whole 32-bit range (65,536 values from 0 to
 * 2^32 - 1); the full 2^32 sweep is `hotscore verify`'s job.
 */
#include <limits.h>

#include "check.h"
#include "score/score_impl.h"

static int ref_fls(uint64_t x)
{
	int i;

	for (i = 64; i > 0; i--)
		if ((x >> (i - 1)) & 1)
			return i;
	return 0;
}

/* Every form of age_in_log and fls must agree with ref_fls(x) on @x. */
static int check_all_forms(uint32_t x)
{
	static const struct { enum hs_agelog a; enum hs_fls_impl f; } forms[] = {
		{ HS_AGELOG_LOOP, HS_FLS_ARCH },
		{ HS_AGELOG_FLS, HS_FLS_ARCH },
		{ HS_AGELOG_FLS, HS_FLS_GENERIC },
		{ HS_AGELOG_FLS, HS_FLS_BSR },
		{ HS_AGELOG_FLS, HS_FLS_BUILTIN },
		{ HS_AGELOG_ILOG2, HS_FLS_ARCH },
		{ HS_AGELOG_ILOG2, HS_FLS_GENERIC },
		{ HS_AGELOG_ILOG2, HS_FLS_BSR },
		{ HS_AGELOG_ILOG2, HS_FLS_BUILTIN },
	};
	int want = ref_fls(x), bad = 0;
	unsigned int i;

	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		int got = hs_age_in_log_with(forms[i].a, forms[i].f, x);

		if (got != want) {
			CHECK(got == want, "x=%u form %s: %d, want %d", x,
			      hs_agelog_name(forms[i].a, forms[i].f), got, want);
			bad++;
		}
	}
	if (hs_fls_generic(x) != want || hs_fls_builtin(x) != want ||
	    hs_fls_bsr(x) != want || hs_fls(x) != want) {
		CHECK(0, "x=%u: an fls implementation differs", x);
		bad++;
	}
	return bad;
}

static void test_fls_definition(void)
{
	CHECK_EQ(hs_fls(0), 0);
	CHECK_EQ(hs_fls(1), 1);
	CHECK_EQ(hs_fls(0x80000000u), 32);
	CHECK_EQ(hs_fls(UINT32_MAX), 32);
	CHECK_EQ(hs_fls_generic(0x00010000u), 17);
	CHECK_EQ(hs_fls_builtin(0x0000ffffu), 16);
	CHECK_EQ(hs_fls_bsr(0), 0);
	CHECK_EQ(hs_fls64(0), 0);
	CHECK_EQ(hs_fls64(1), 1);
	CHECK_EQ(hs_fls64(1ull << 32), 33);
	CHECK_EQ(hs_fls64(UINT64_MAX), 64);
	CHECK_EQ(hs___fls(1), 0);
	CHECK_EQ(hs___fls(1ul << 63), 63);
	CHECK_EQ(hs___fls(0x1234), 12);
}

static void test_fls64_boundaries(void)
{
	int k;

	for (k = 0; k < 64; k++) {
		uint64_t p = 1ull << k;

		CHECK_EQ(hs_fls64(p), k + 1);
		CHECK_EQ(hs_fls64(p - 1), ref_fls(p - 1));
		CHECK_EQ(hs_fls64(p + 1), ref_fls(p + 1));
		CHECK_EQ(hs_fls64(p | (p >> 1)), k + 1);
		CHECK_EQ(hs___fls(p), (unsigned long)k);
	}
}

static void test_ilog2(void)
{
	uint32_t zero32 = 0;
	uint64_t zero64 = 0;
	int k;

	/* run-time ilog2(0) is fls(0) - 1 = -1; damon_hot_score avoids it */
	CHECK_EQ(hs_ilog2_u32(0), -1);
	CHECK_EQ(hs_ilog2_u64(0), -1);
	CHECK_EQ(hs_ilog2(zero32), -1);
	CHECK_EQ(hs_ilog2(zero64), -1);
	for (k = 0; k < 32; k++) {
		CHECK_EQ(hs_ilog2_u32(1u << k), k);
		CHECK_EQ(hs_ilog2_u32((1u << k) | ((1u << k) - 1)), k);
	}
	for (k = 0; k < 64; k++)
		CHECK_EQ(hs_ilog2_u64(1ull << k), k);
	/* the 64-bit form is chosen by the argument's size */
	CHECK_EQ(hs_ilog2((uint64_t)1 << 40), 40);
}

static void test_min_max_t(void)
{
	/* both operands are converted to the type first */
	CHECK_EQ(hs_min_t(int, 4294967295u, 5), -1);
	CHECK_EQ(hs_max_t(unsigned int, -1, 5), UINT_MAX);
	CHECK_EQ(hs_min_t(int, 33, 32), 32);
	CHECK_EQ(hs_min_t(int, 0, 32), 0);
	CHECK_EQ(hs_max_t(int, -3, 0), 0);
}

static void test_mult_frac(void)
{
	uint64_t st = 42;
	int i;

	CHECK_EQ(hs_mult_frac(10u, 100u, 20u), 50);
	CHECK_EQ(hs_mult_frac(7ul, 10000ul, 10ul), 7000);
	/* exact floor(x * n / d) while nothing overflows */
	for (i = 0; i < 100000; i++) {
		uint32_t x = (uint32_t)check_rand(&st);
		uint32_t n = (uint32_t)(check_rand(&st) % 100001);
		uint32_t d = (uint32_t)(check_rand(&st) % 1000000) + 1;
		uint64_t want = (uint64_t)x * n / d;
		unsigned long got = hs_mult_frac((unsigned long)x,
						 (unsigned long)n,
						 (unsigned long)d);

		CHECK(got == want, "%u*%u/%u: %lu, want %llu", x, n, d, got,
		      (unsigned long long)want);
	}
	/* in unsigned int, rem * n wraps once d > 42,949,672 */
	{
		unsigned int x = 100000000u, d = 100000001u;
		unsigned int got = hs_mult_frac(x, 100u, d);
		unsigned int wrapped = (unsigned int)(x * 100u) / d;

		CHECK_EQ(got, wrapped);
		CHECK(got != 99, "mult_frac should have wrapped");
	}
}

static void test_s32(void)
{
	CHECK_EQ(hs_s32(0), 0);
	CHECK_EQ(hs_s32(0x7fffffffu), INT_MAX);
	CHECK_EQ(hs_s32(0x80000000u), INT_MIN);
	CHECK_EQ(hs_s32(0xffffffffu), -1);
	CHECK_EQ(hs_s32(0xfffffffcu), -4);
}

static void test_age_in_log_forms_agree(void)
{
	uint64_t x;
	int k, bad = 0;

	for (x = 0; x < (1u << 24) && bad < 5; x++)
		bad += check_all_forms((uint32_t)x);
	for (k = 1; k <= 32 && !bad; k++) {
		uint64_t p = 1ull << k;

		bad += check_all_forms((uint32_t)(p - 2));
		bad += check_all_forms((uint32_t)(p - 1));
		bad += check_all_forms((uint32_t)p);
		bad += check_all_forms((uint32_t)(p + 1));
	}
	for (x = 0; x <= UINT32_MAX && bad < 5; x += 65537)
		bad += check_all_forms((uint32_t)x);
	CHECK_EQ(bad, 0);
}

int main(void)
{
	RUN(test_s32);
	RUN(test_fls_definition);
	RUN(test_fls64_boundaries);
	RUN(test_ilog2);
	RUN(test_min_max_t);
	RUN(test_mult_frac);
	RUN(test_age_in_log_forms_agree);
	return CHECK_DONE();
}
