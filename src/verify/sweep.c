// SPDX-License-Identifier: GPL-2.0
/*
 * sweep.c - the age_in_log proof: every 32-bit age_in_sec through every way
 * the model computes age_in_log, each compared with the shift loop.
 *
 * The counts are those of comparing every way with the loop, value by
 * value (sweep_values()).  A fast path only decides sooner that a block of
 * HS_SWEEP_CHUNK values holds no difference: the values of an aligned
 * block from HS_SWEEP_CHUNK up share their top set bit, so every way must
 * give the same k on all of them.  The fast path checks that every way,
 * the loop among them, gives k on every value of the block; then no way
 * differs from the loop there.  Any other outcome sends the block value by
 * value, so a wrong k costs time, never a count.  docs/verify.md gives the
 * argument in full.
 *
 * The shift loop exits early, which GCC 12 does not vectorise, and it
 * took most of the sweep's time.  The fast path runs it in rounds on many
 * values at once instead (chunk_loop()), with the model's own condition
 * and step; the other ways are the model's code as before.
 */
#include "score/score_impl.h"
#include "verify_internal.h"

/* tests/test_sweep_fault.c defines it first, to plant a way that differs */
#ifndef HS_SWEEP_FAULT
#define HS_SWEEP_FAULT(way, x, value) (value)
#endif

#define IDX(a, f) (HS_AGELOG_##a * HS_NR_FLS_IMPL + HS_FLS_##f)
#define WAY_AT(a, f, v) HS_SWEEP_FAULT(IDX(a, f), v,			\
	hs_age_in_log_with(HS_AGELOG_##a, HS_FLS_##f, v))
#define WAY(a, f) WAY_AT(a, f, x)

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
	int v;

	for (i = 0; i < NR_WAYS; i++) {
		w = ways[i].a * HS_NR_FLS_IMPL + ways[i].f;
		v = hs_age_in_log_with(ways[i].a, ways[i].f, x);
		if (HS_SWEEP_FAULT(w, x, v) == ref)
			continue;
		if (!st->mismatches[w] || x < st->first[w])
			st->first[w] = x;
		st->mismatches[w]++;
	}
}

/*
 * Value by value: every way against the loop, the common case one OR of
 * XORs and a predicted branch.  Where no whole block fits, and on every
 * value of a block that the fast path did not clear.
 */
static void sweep_values(uint64_t lo, uint64_t n, struct hs_agelog_stats *st)
{
	uint64_t i;

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
}

/*
 * One round of the shift loop on one run of it: the model's step, if the
 * model's condition holds.  A run whose condition fails is left as it is,
 * so it keeps failing: after r rounds a run holds what the loop holds
 * after r iterations, or its result if it ended sooner.
 */
static __always_inline void loop_round(int *log, uint32_t *sec)
{
	int l = *log;
	uint32_t s = *sec;
	bool go = HS_AGELOG_LOOP_COND(l, s);

	HS_AGELOG_LOOP_STEP(l, s);
	*log = go ? l : *log;
	*sec = go ? s : *sec;
}

/* the loop's start at @x: for (age_in_log = 0; ...), age_in_sec = x */
#define LOOP_START(x) HS_SWEEP_FAULT(IDX(LOOP, ARCH), x, 0)

/*
 * HS_SWEEP_SHARED / 2 rounds of the loop on the HS_SWEEP_LANES runs in
 * @log and @sec, side by side so that the compiler vectorises them.
 * Return: non-zero if a run is then not in the state of the first.
 */
static __always_inline int rounds_alike(int *log, uint32_t *sec)
{
	unsigned int i, r;
	int d = 0;

	for (r = 0; r < HS_SWEEP_SHARED / 2; r++)
		for (i = 0; i < HS_SWEEP_LANES; i++)
			loop_round(&log[i], &sec[i]);
	for (i = 0; i < HS_SWEEP_LANES; i++)
		d |= (log[i] ^ log[0]) | (sec[i] != sec[0]);
	return d;
}

/*
 * The loop on every value of the block at @x0.  Its condition and step
 * read nothing but (age_in_log, age_in_sec), so two runs in the same state
 * go on alike.  Every value runs HS_SWEEP_SHARED / 2 rounds and must then
 * be in the state of the first value of its group of HS_SWEEP_LANES; the
 * groups' states run as many rounds more and must then all be the first
 * group's; the other rounds run once, from that state.  The model's loop
 * itself also runs on the block's first value.  Return: non-zero if a
 * value is elsewhere, or the loop has not ended, with @k, after
 * HS_DAMON_MAX_AGE_IN_LOG rounds in all.
 */
static __always_inline int chunk_loop(uint32_t x0, int k)
{
	int log[HS_SWEEP_LANES], glog[HS_SWEEP_LANES];
	uint32_t sec[HS_SWEEP_LANES], gsec[HS_SWEEP_LANES], g, i, r;
	int d = WAY_AT(LOOP, ARCH, x0) ^ k;

	for (g = 0; g < HS_SWEEP_LANES; g++) {
		for (i = 0; i < HS_SWEEP_LANES; i++) {
			log[i] = LOOP_START(x0 + g * HS_SWEEP_LANES + i);
			sec[i] = x0 + g * HS_SWEEP_LANES + i;
		}
		d |= rounds_alike(log, sec);
		glog[g] = log[0];
		gsec[g] = sec[0];
	}
	d |= rounds_alike(glog, gsec);
	for (r = HS_SWEEP_SHARED; r < HS_DAMON_MAX_AGE_IN_LOG; r++)
		loop_round(&glog[0], &gsec[0]);
	return d | (glog[0] ^ k) | HS_AGELOG_LOOP_COND(glog[0], gsec[0]);
}

/*
 * The fast path on the block at @x0: each way XOR @k, ORed together.  bsr
 * and the builtin run value by value, the generic binary search in a pass
 * of its own that the compiler vectorises.
 */
static __always_inline int chunk_body(uint32_t x0, int k)
{
	uint32_t i, x;
	int d = 0, g = 0;

	for (i = 0; i < HS_SWEEP_CHUNK; i++) {
		x = x0 + i;
		d |= (WAY(FLS, ARCH) ^ k) | (WAY(FLS, BUILTIN) ^ k) |
		     (WAY(ILOG2, ARCH) ^ k) |
		     (WAY(ILOG2, BUILTIN) ^ k) HS_BSR_WAYS(k);
	}
	for (i = 0; i < HS_SWEEP_CHUNK; i++) {
		x = x0 + i;
		g |= (WAY(FLS, GENERIC) ^ k) | (WAY(ILOG2, GENERIC) ^ k);
	}
	return d | g | chunk_loop(x0, k);
}

static int chunk_base(uint32_t x0, int k)
{
	return chunk_body(x0, k);
}

#if defined(__x86_64__)
/* x86-64-v3: AVX2 for the vector passes, LZCNT for the builtin */
__attribute__((target("arch=x86-64-v3")))
static int chunk_v3(uint32_t x0, int k)
{
	return chunk_body(x0, k);
}
#endif

/**
 * hs_sweep_chunk() - the fast path on one block.
 * @isa:	which compilation of it: HS_SWEEP_BASE or HS_SWEEP_V3.
 * @x0:		the block's first value; the sweep passes multiples of
 *		HS_SWEEP_CHUNK only, but any start is checked soundly.
 * @k:		what every way should give on the block.
 *
 * Return: 0 if every way, the loop among them, gives @k on every value of
 * the block; non-zero otherwise.
 */
int hs_sweep_chunk(enum hs_sweep_isa isa, uint32_t x0, int k)
{
#if defined(__x86_64__)
	if (isa == HS_SWEEP_V3)
		return chunk_v3(x0, k);
#endif
	return chunk_base(x0, k);
}

/**
 * hs_sweep_isa_best() - the fastest compilation of the fast path that this
 * CPU runs.
 *
 * Return: HS_SWEEP_V3 where the CPU has x86-64-v3 (AVX2, BMI2, LZCNT),
 * HS_SWEEP_BASE otherwise.
 */
enum hs_sweep_isa hs_sweep_isa_best(void)
{
#if defined(__x86_64__)
	__builtin_cpu_init();
#if defined(__clang__)
	/*
	 * clang 14 (make fuzz) knows no "x86-64-v3", nor F16C or MOVBE: ask
	 * for the level's other parts; no CPU has those without LZCNT, F16C
	 * and MOVBE.
	 */
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
	    __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("fma"))
		return HS_SWEEP_V3;
#else
	if (__builtin_cpu_supports("x86-64-v3"))
		return HS_SWEEP_V3;
#endif
#endif
	return HS_SWEEP_BASE;
}

/* fls of a block's values, to expect: a wrong one only costs time */
static int chunk_class(uint32_t x0)
{
	int k = 0;

	while (k < 32 && (x0 >> k))
		k++;
	return k;
}

/**
 * hs_agelog_sweep_with() - hs_agelog_sweep() through a chosen path.
 * @lo:		the first age_in_sec.
 * @n:		how many; lo + n <= 2^32.
 * @st:		accumulates values, mismatches and first mismatches.
 * @isa:	the fast path's compilation, or HS_SWEEP_VALUES for none.
 *
 * Every path gives the same counts; only the time differs.
 */
void hs_agelog_sweep_with(uint64_t lo, uint64_t n, struct hs_agelog_stats *st,
			  enum hs_sweep_isa isa)
{
	uint64_t end = lo + n, c;

	st->ways = NR_WAYS + 1;
	st->values += n;
	/* aligned blocks from HS_SWEEP_CHUNK up never straddle 2^k */
	c = lo < HS_SWEEP_CHUNK ? HS_SWEEP_CHUNK :
	    (lo + HS_SWEEP_CHUNK - 1) & ~(uint64_t)(HS_SWEEP_CHUNK - 1);
	if (isa == HS_SWEEP_VALUES || c + HS_SWEEP_CHUNK > end) {
		sweep_values(lo, n, st);
		return;
	}
	sweep_values(lo, c - lo, st);
	for (; c + HS_SWEEP_CHUNK <= end; c += HS_SWEEP_CHUNK)
		if (hs_sweep_chunk(isa, (uint32_t)c, chunk_class((uint32_t)c)))
			sweep_values(c, HS_SWEEP_CHUNK, st);
	sweep_values(c, end - c, st);
}

/**
 * hs_agelog_sweep() - every age_in_log way against the shift loop.
 * @lo:	the first age_in_sec.
 * @n:	how many; lo + n <= 2^32.
 * @st:	accumulates values, mismatches and first mismatches.
 *
 * Each way is the model's own code, inlined with constant arguments as in
 * the kernel.  Whole blocks go through the fastest compilation of the fast
 * path that this CPU runs.
 */
void hs_agelog_sweep(uint64_t lo, uint64_t n, struct hs_agelog_stats *st)
{
	hs_agelog_sweep_with(lo, n, st, hs_sweep_isa_best());
}
