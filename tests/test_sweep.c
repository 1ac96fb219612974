// SPDX-License-Identifier: GPL-2.0
/*
 * test_sweep.c - the age_in_log sweep's paths, as the library compiles
 * them: every compilation of the fast path counts what the value-by-value
 * path counts, and clears a block only when every way gives its fls.
 * tests/test_sweep_fault.c plants differences.
 */
#include <string.h>

#include "check.h"
#include "verify/verify_internal.h"

/* The fast path's compilations that this CPU runs. */
static bool runs(enum hs_sweep_isa isa)
{
	return isa != HS_SWEEP_V3 || hs_sweep_isa_best() == HS_SWEEP_V3;
}

static const enum hs_sweep_isa fast_isas[] = { HS_SWEEP_BASE, HS_SWEEP_V3 };
#define NR_FAST (sizeof(fast_isas) / sizeof(fast_isas[0]))

/* Ranges with heads, tails, powers of two and both ends of the domain. */
static const struct { uint64_t lo, n; } ranges[] = {
	{ 0, 1 << 16 },				/* below a block, then blocks */
	{ 4095, 2 * HS_SWEEP_CHUNK + 2 },	/* a head, two blocks, a tail */
	{ (1ull << 31) - 5000, 20000 },		/* across 2^31, unaligned */
	{ (1ull << 20) - HS_SWEEP_CHUNK, 2 * HS_SWEEP_CHUNK },
	{ 12345, 100 },				/* no whole block */
	{ (1ull << 32) - (1 << 16) - 7, (1 << 16) + 7 },	/* to the end */
};

static void test_paths_agree(void)
{
	struct hs_agelog_stats want, got;
	unsigned int r, i;

	for (r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++) {
		memset(&want, 0, sizeof(want));
		hs_agelog_sweep_with(ranges[r].lo, ranges[r].n, &want,
				     HS_SWEEP_VALUES);
		CHECK_EQ(want.values, ranges[r].n);
		for (i = 0; i < NR_FAST; i++) {
			if (!runs(fast_isas[i]))
				continue;
			memset(&got, 0, sizeof(got));
			hs_agelog_sweep_with(ranges[r].lo, ranges[r].n, &got,
					     fast_isas[i]);
			CHECK(!memcmp(&got, &want, sizeof(got)),
			      "isa %d differs on [%llu, +%llu)", fast_isas[i],
			      (unsigned long long)ranges[r].lo,
			      (unsigned long long)ranges[r].n);
		}
	}
}

/*
 * A block is cleared with its fls, and with nothing else; and not when its
 * values reach two states after the shared rounds (a start half a block
 * off, which the sweep never asks for: the loop's state is compared whole).
 */
static void test_chunk_clears_only_fls(void)
{
	unsigned int i, k, e;

	for (i = 0; i < NR_FAST; i++) {
		enum hs_sweep_isa isa = fast_isas[i];

		if (!runs(isa))
			continue;
		for (k = 13; k <= 32; k++) {
			uint64_t top = 1ull << k;
			uint32_t first = (uint32_t)(top / 2);
			uint32_t last = (uint32_t)(top - HS_SWEEP_CHUNK);

			for (e = k - 1; e <= k + 1; e++) {
				CHECK((hs_sweep_chunk(isa, first, e) == 0) ==
				      (e == k), "isa %d, 2^%u, expect %u", isa,
				      k - 1, e);
				CHECK((hs_sweep_chunk(isa, last, e) == 0) ==
				      (e == k), "isa %d, 2^%u - block, %u", isa,
				      k, e);
			}
			CHECK(hs_sweep_chunk(isa, first + HS_SWEEP_CHUNK / 2,
					     k) != 0,
			      "isa %d, 2^%u + half a block: cleared", isa,
			      k - 1);
		}
	}
}

static void test_isa_best(void)
{
	enum hs_sweep_isa best = hs_sweep_isa_best();

	CHECK(best == HS_SWEEP_BASE || best == HS_SWEEP_V3, "isa %d", best);
#if defined(__x86_64__)
	__builtin_cpu_init();
	CHECK((best == HS_SWEEP_V3) ==
	      !!__builtin_cpu_supports("x86-64-v3"), "isa %d", best);
#endif
}

int main(void)
{
	RUN(test_paths_agree);
	RUN(test_chunk_clears_only_fls);
	RUN(test_isa_best);
	return CHECK_DONE();
}
