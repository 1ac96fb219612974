// SPDX-License-Identifier: GPL-2.0
/*
 * damon.c - the variants of damon_hot_score() the bench times, the input
 * distributions it times them on, and the classes of equal cost.
 *
 * Kernel-safe: no library calls.
 */
#include <hotscore/bench_damon.h>
#include <hotscore/str.h>

#include "score/score_impl.h"

/*
 * The seed module's loop: every @every-th call is timed alone between two
 * clock reads and its result kept; the others' results are discarded, so the
 * compiler may delete them, as it could in the seed.  Kept out of line so
 * that each variant gets its own copy with the score inlined.
 */
static __always_inline void hs_ktime_loop(const struct hs_components *c,
					  struct hs_ktime_run *run)
{
	uint64_t start = run->now(), t0;
	struct hs_trace t;
	size_t i, j = 0, k = 0;

	for (i = 0; i < run->iterations; i++) {
		struct hs_input in = run->pool[j];

		if (run->seed_ages)
			in.age = (unsigned int)i;
		if (++j == run->nr)
			j = 0;
		if (i % run->every == 0) {
			int r;

			t0 = run->now();
			r = hs_hot_score_inline(c, &in, &t).hot;
			run->samples[k++] = run->now() - t0;
			hs_sink(r);
		} else {
			(void)hs_hot_score_inline(c, &in, &t);
		}
	}
	run->total_ns = run->now() - start;
}

/*
 * One variant: a damon_hot_score() specialised for constant components, as
 * the kernel compiles it, and its ktime loop.
 */
#define HS_VARIANT_FNS(id, freq, div, age, fls, clamp)			\
static const struct hs_components hs_comp_##id =			\
	HS_COMPONENTS(freq, div, age, fls, clamp);			\
HS_PLACEMENT_COPIES(hs_score_##id, {					\
	struct hs_trace t;						\
									\
	return hs_hot_score_inline(&hs_comp_##id, input, &t).hot;	\
})									\
static const hs_bench_fn hs_placed_##id[HS_NR_PLACEMENTS] =		\
	HS_PLACEMENT_TABLE(hs_score_##id);				\
static __attribute__((__noinline__)) void					\
hs_ktime_##id(struct hs_ktime_run *run)					\
{									\
	hs_ktime_loop(&hs_comp_##id, run);				\
}

#define HS_VARIANT_ROW(id, name, freq, div, age, fls, clamp, what)	\
	{ name, HS_COMPONENTS(freq, div, age, fls, clamp),		\
	  hs_score_##id##_at0, hs_ktime_##id, what, HS_CALL_INPUT, 1,	\
	  false, false, hs_placed_##id },

/*
 * The age_in_log methods, each inlined into the function the 2026 patches
 * changed (raw frequency, max-nr divisor, no clamp: v6.6 to v2-ilog2).
 */
#define HS_METHOD(X, id, name, age, fls, what)				\
	X(id, name, RAW, MAX_NR, age, fls, NONE, what)

#if HS_HAVE_BSR
#define HS_BSR_METHODS(X)						\
	HS_METHOD(X, fls_bsr, "fls-bsr", FLS, BSR,			\
		  "fls() as x86's bsrl with a -1 preload")		\
	HS_METHOD(X, ilog2_bsr, "ilog2-bsr", ILOG2, BSR,		\
		  "ilog2() on the bsrl fls()")
#else
#define HS_BSR_METHODS(X)
#endif

#define HS_METHOD_LIST(X)						\
	HS_METHOD(X, loop, "loop", LOOP, ARCH,				\
		  "the shift loop (v6.6, before the 2026 patches)")	\
	HS_METHOD(X, fls, "fls", FLS, ARCH,				\
		  "min_t(int, fls(x), 32): the RFC")			\
	HS_METHOD(X, ilog2, "ilog2", ILOG2, ARCH,			\
		  "x ? min_t(int, ilog2(x) + 1, 32) : 0: v2, merged")	\
	HS_METHOD(X, fls_generic, "fls-generic", FLS, GENERIC,		\
		  "fls() as asm-generic's binary search")		\
	HS_METHOD(X, fls_builtin, "fls-builtin", FLS, BUILTIN,		\
		  "fls() as 32 - __builtin_clz(x)")			\
	HS_METHOD(X, ilog2_generic, "ilog2-generic", ILOG2, GENERIC,	\
		  "ilog2() on the asm-generic fls()")			\
	HS_METHOD(X, ilog2_builtin, "ilog2-builtin", ILOG2, BUILTIN,	\
		  "ilog2() on the builtin fls()")			\
	HS_BSR_METHODS(X)

#define HS_DEFINE_VARIANT(id, name, freq, div, age, fls, clamp, what)	\
	HS_VARIANT_FNS(m_##id, freq, div, age, fls, clamp)
#define HS_DEFINE_PROFILE(id, name, freq, div, age, fls, clamp, what)	\
	HS_VARIANT_FNS(p_##id, freq, div, age, fls, clamp)
#define HS_METHOD_ROW(id, ...) HS_VARIANT_ROW(m_##id, __VA_ARGS__)
#define HS_PROFILE_VROW(id, ...) HS_VARIANT_ROW(p_##id, __VA_ARGS__)

HS_METHOD_LIST(HS_DEFINE_VARIANT)
HS_PROFILE_LIST(HS_DEFINE_PROFILE)

/*
 * The prepared scorer (score_fast.h) of the hotfix profile, mainline's: one
 * region a call, as ops->get_scheme_score() would call it.
 */
HS_PLACEMENT_COPIES(hs_score_fast, {
	const struct hs_fast_call *c = input;

	return hs_fast_hot_inline(c->prep, c->nr_accesses,
				  c->last_nr_accesses, c->age);
})
static const hs_bench_fn hs_placed_fast[HS_NR_PLACEMENTS] =
	HS_PLACEMENT_TABLE(hs_score_fast);

/* An array of regions a call, by the batch scorer the call names. */
HS_PLACEMENT_COPIES(hs_score_fast_batch, {
	const struct hs_batch_call *c = input;

	c->batch(c->prep, &c->r, c->n, c->hot);
	return c->hot[c->n - 1];
})
static const hs_bench_fn hs_placed_fast_batch[HS_NR_PLACEMENTS] =
	HS_PLACEMENT_TABLE(hs_score_fast_batch);

/*
 * The kernel's hotfix damon_hot_score() inlined into a loop over an array:
 * what batching alone gives, without preparing anything.
 */
HS_PLACEMENT_COPIES(hs_score_hotfix_batch, {
	const struct hs_batch_call *c = input;
	struct hs_trace t;
	unsigned int i;

	for (i = 0; i < c->n; i++)
		c->hot[i] = hs_hot_score_inline(&hs_comp_p_hotfix, &c->in[i],
						&t).hot;
	return c->hot[c->n - 1];
})
static const hs_bench_fn hs_placed_hotfix_batch[HS_NR_PLACEMENTS] =
	HS_PLACEMENT_TABLE(hs_score_hotfix_batch);

/*
 * The preparation itself: what a change of a scheme's weights or of the
 * context's intervals costs, once per change.  Then the region is scored
 * with it, so that the result can be checked like any variant's.
 */
static struct hs_prep hs_prep_scratch;	/* 3.8 KB: not on a kernel stack */
HS_PLACEMENT_COPIES(hs_score_fast_prepare, {
	const struct hs_input *in = input;

	hs_prep_init(&hs_prep_scratch, &hs_comp_p_hotfix, in);
	return hs_fast_hot_inline(&hs_prep_scratch, in->nr_accesses,
				  in->last_nr_accesses, in->age);
})
static const hs_bench_fn hs_placed_fast_prepare[HS_NR_PLACEMENTS] =
	HS_PLACEMENT_TABLE(hs_score_fast_prepare);

/* hotfix's components, as HS_PROFILE_LIST has them (test_engine checks) */
#define HS_FAST_COMP HS_COMPONENTS(RAW, SAFE, ILOG2, ARCH, 0_99)

const struct hs_variant hs_variants[] = {
	HS_METHOD_LIST(HS_METHOD_ROW)
	HS_PROFILE_LIST(HS_PROFILE_VROW)
	{ "fast", HS_FAST_COMP, hs_score_fast_at0, NULL,
	  "hotfix, prepared (score_fast.h): one region a call",
	  HS_CALL_FAST, 1, false, false, hs_placed_fast },
	{ "fast-batch", HS_FAST_COMP, hs_score_fast_batch_at0, NULL,
	  "hotfix, prepared: 64 regions a call, vector unit if any; per region",
	  HS_CALL_BATCH, HS_BATCH_REGIONS, true, true, hs_placed_fast_batch },
	{ "fast-batch-scalar", HS_FAST_COMP, hs_score_fast_batch_at0, NULL,
	  "hotfix, prepared: 64 regions a call, the portable loop; per region",
	  HS_CALL_BATCH, HS_BATCH_REGIONS, false, false, hs_placed_fast_batch },
	{ "fast-prepare", HS_FAST_COMP, hs_score_fast_prepare_at0, NULL,
	  "hotfix: prepare the scheme (score_fast.h), then score the region",
	  HS_CALL_INPUT, 1, false, true, hs_placed_fast_prepare },
	{ "hotfix-batch", HS_FAST_COMP, hs_score_hotfix_batch_at0, NULL,
	  "hotfix as the kernel has it, inlined in a loop of 64; per region",
	  HS_CALL_BATCH, HS_BATCH_REGIONS, false, false,
	  hs_placed_hotfix_batch },
};
const unsigned int hs_nr_variants = sizeof(hs_variants) /
				    sizeof(hs_variants[0]);

/** hs_variant_regions() - regions @v scores per call: 1 unless a batch. */
unsigned int hs_variant_regions(const struct hs_variant *v)
{
	return v->regions ? v->regions : 1;
}

/** hs_variant_find() - a variant by name, or NULL. */
const struct hs_variant *hs_variant_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < hs_nr_variants; i++)
		if (hs_streq(hs_variants[i].name, name))
			return &hs_variants[i];
	return NULL;
}

static const char *const dist_names[HS_NR_DISTS] = {
	"seed", "uniform", "young", "zero", "worst" };
static const char *const dist_whats[HS_NR_DISTS] = {
	"age = i for the i-th input, as the seed module's loop",
	"age uniform over all 32-bit values",
	"age_in_sec 0..8 for 7 inputs in 8, else 9..1023",
	"age 0",
	"age with 32 significant bits (bit 31 set)",
};

const char *hs_dist_name(enum hs_dist d)
{
	return d < HS_NR_DISTS ? dist_names[d] : "?";
}

const char *hs_dist_what(enum hs_dist d)
{
	return d < HS_NR_DISTS ? dist_whats[d] : "?";
}

/**
 * hs_dist_base() - the seed module's constants: 5 ms sampling, 100 ms
 * aggregation, 15 accesses (nr_accesses_bp 150000), weights 50/50.
 * @in: receives them, age 0.
 */
void hs_dist_base(struct hs_input *in)
{
	*in = (struct hs_input){
		.sample_us = 5000, .aggr_us = 100000, .nr_accesses = 15,
		.nr_accesses_bp = hs_bp_of_nr(15),
		.weight_nr_accesses = 50, .weight_age = 50,
	};
}

/* splitmix64 at position @index of the stream @seed: order-independent. */
static uint64_t hs_dist_rand(uint64_t seed, uint64_t index)
{
	uint64_t state = seed + index * 0x9e3779b97f4a7c15ULL;

	return hs_stats_rand(&state);
}

/**
 * hs_dist_input() - the @index-th input of a distribution.
 * @d:		the distribution.
 * @seed:	the PRNG seed (seed and zero ignore it).
 * @index:	which input; any input can be made without the others.
 * @in:		receives it: the seed's constants with the age drawn.
 *
 * With the seed's 100 ms aggregation, age_in_sec = age / 10.
 */
void hs_dist_input(enum hs_dist d, uint64_t seed, uint64_t index,
		   struct hs_input *in)
{
	uint64_t r = hs_dist_rand(seed, index);

	hs_dist_base(in);
	switch (d) {
	case HS_DIST_SEED:
		in->age = (unsigned int)index;
		break;
	case HS_DIST_UNIFORM:
		in->age = (unsigned int)r;
		break;
	case HS_DIST_YOUNG:
		if ((r >> 61) != 0)	/* 7 in 8: age_in_sec 0..8 */
			in->age = (unsigned int)((r & 0xffffffff) % 90);
		else			/* age_in_sec 9..1023 */
			in->age = 90 + (unsigned int)((r & 0xffffffff) %
						       (10240 - 90));
		break;
	case HS_DIST_WORST:
		in->age = (unsigned int)r | 0x80000000u;
		break;
	default:
		break;
	}
}

/**
 * hs_cost_class() - inputs with the same key take the same path.
 * @comp:	the variant.
 * @in:		the input; must not divide by zero.
 *
 * The key holds what changes the work done: age_in_log (the loop's trip
 * count, the ilog2 zero test), whether freq_subscore is 0 (the sign flip),
 * which side of [0, 99] the score fell on (the clamp), and for mvsum
 * whether the window had just started.
 *
 * Return: a key below HS_NR_CLASSES.
 */
unsigned int hs_cost_class(const struct hs_components *comp,
			   const struct hs_input *in)
{
	struct hs_trace t = { 0 };
	struct hs_result r = hs_hot_score_inline(comp, in, &t);
	unsigned int range = r.status != HS_OUT_OF_RANGE && t.scaled <= 99 &&
			     t.scaled >= 0 ? 0 : (t.scaled > 99 ? 1 : 2);

	return (unsigned int)t.age_in_log | (t.freq_subscore == 0) << 6 |
	       range << 7 | (t.left_window_bp == 10000) << 9;
}

/**
 * hs_class_name() - "age_in_log=K" and the branch flags of a class key.
 * @key:	from hs_cost_class().
 * @buf:	receives the name, NUL-terminated, truncated to @size.
 * @size:	of @buf.
 *
 * Return: the length of the full name.
 */
int hs_class_name(unsigned int key, char *buf, unsigned int size)
{
	char num[4] = { 0 };
	unsigned int at, k = key & 63;

	num[0] = (char)('0' + k / 10);
	num[1] = (char)('0' + k % 10);
	at = hs_strappend(buf, size, 0, "age_in_log=");
	at = hs_strappend(buf, size, at, k < 10 ? num + 1 : num);
	if (key & (1u << 6))
		at = hs_strappend(buf, size, at, " freq=0");
	if (((key >> 7) & 3) == 1)
		at = hs_strappend(buf, size, at, " above-99");
	else if (((key >> 7) & 3) == 2)
		at = hs_strappend(buf, size, at, " below-0");
	if (key & (1u << 9))
		at = hs_strappend(buf, size, at, " window-start");
	return (int)at;
}
