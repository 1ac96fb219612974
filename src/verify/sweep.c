// SPDX-License-Identifier: GPL-2.0
/*
 * sweep.c - the age_in_log proof: every 32-bit age_in_sec through every way
 * the model computes age_in_log, each compared with the shift loop.
 */
#include "score/score_impl.h"
#include "internal.h"

#define WAY(a, f) hs_age_in_log_with(HS_AGELOG_##a, HS_FLS_##f, x)

/* Every way but the loop, as one expression the compiler can schedule. */
#if HS_HAVE_BSR
#define HS_BSR_WAYS(ref) | (WAY(FLS, BSR) ^ (ref)) | (WAY(ILOG2, BSR) ^ (ref))
#else
#define HS_BSR_WAYS(ref)
#endif

static const struct { enum hs_agelog a; enum hs_fls_impl f; } ways[] = {
	{ HS_AGELOG_FLS, HS_FLS_ARCH }, { HS_AGELOG_FLS, HS_FLS_GENERIC },
	{ HS_AGELOG_FLS, HS_FLS_BUILTIN }, { HS_AGELOG_ILOG2, HS_FLS_ARCH },
	{ HS_AGELOG_ILOG2, HS_FLS_GENERIC }, { HS_AGELOG_ILOG2, HS_FLS_BUILTIN },
#if HS_HAVE_BSR
	{ HS_AGELOG_FLS, HS_FLS_BSR }, { HS_AGELOG_ILOG2, HS_FLS_BSR },
#endif
};
#define NR_WAYS (sizeof(ways) / sizeof(ways[0]))

/* Slow path: which ways differ at @x, and by what. */
static void hs_agelog_record(uint32_t x, int ref, struct hs_agelog_stats *st)
{
	unsigned int i, w;

	for (i = 0; i < NR_WAYS; i++) {
		w = ways[i].a * HS_NR_FLS_IMPL + ways[i].f;
		if (hs_age_in_log_with(ways[i].a, ways[i].f, x) == ref)
			continue;
		if (!st->mismatches[w] || x < st->first[w])
			st->first[w] = x;
		st->mismatches[w]++;
	}
}

/**
 * hs_agelog_sweep() - every age_in_log way against the shift loop.
 * @lo:	the first age_in_sec.
 * @n:	how many; lo + n <= 2^32.
 * @st:	accumulates values, mismatches and first mismatches.
 *
 * Each way is the model's own code, inlined with constant arguments as in
 * the kernel; the common case is one OR of XORs and a predicted branch.
 */
void hs_agelog_sweep(uint64_t lo, uint64_t n, struct hs_agelog_stats *st)
{
	uint64_t i;

	st->ways = NR_WAYS + 1;
	for (i = 0; i < n; i++) {
		uint32_t x = (uint32_t)(lo + i);
		int ref = WAY(LOOP, ARCH);
		int d = (WAY(FLS, ARCH) ^ ref) | (WAY(FLS, GENERIC) ^ ref) |
			(WAY(FLS, BUILTIN) ^ ref) | (WAY(ILOG2, ARCH) ^ ref) |
			(WAY(ILOG2, GENERIC) ^ ref) |
			(WAY(ILOG2, BUILTIN) ^ ref) HS_BSR_WAYS(ref);

		if (__builtin_expect(d != 0, 0))
			hs_agelog_record(x, ref, st);
	}
	st->values += n;
}
