// SPDX-License-Identifier: GPL-2.0
/*
 * dispatch.c - pick a batch scorer the CPU can run.
 *
 * The library never reads the environment: a front end reads its
 * HOTSCORE_SIMD (scalar forces the portable scorer, so that the fallback
 * can be run on a machine that has the vector unit; avx2 and avx512 insist
 * on that vector scorer, so that avx2 can be measured on a CPU that also
 * has AVX-512), hands the value to hs_simd_choose(), a pure function of the
 * value and the CPU's features, and passes the choice on
 * (hs_fast_batch_with(), hs_fast_batch_for()).  So what a run used is an
 * argument its reports can record, not a lookup they repeat.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simd_internal.h"

/**
 * hs_cpu_features() - the HS_CPU_* features this CPU has, and the kernel
 * lets user space use.
 *
 * Return: a mask of HS_CPU_* bits; 0 where no vector scorer is built.
 */
unsigned int hs_cpu_features(void)
{
	unsigned int f = 0;

#if defined(__x86_64__)
	/* __builtin_cpu_supports() also checks that the OS saves ZMM state */
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f"))
		f |= HS_CPU_AVX512F;
	if (__builtin_cpu_supports("avx512cd"))
		f |= HS_CPU_AVX512CD;
	if (__builtin_cpu_supports("avx512bw"))
		f |= HS_CPU_AVX512BW;
	if (__builtin_cpu_supports("avx512vl"))
		f |= HS_CPU_AVX512VL;
	if (__builtin_cpu_supports("avx512vbmi"))
		f |= HS_CPU_AVX512VBMI;
	if (__builtin_cpu_supports("avx2"))
		f |= HS_CPU_AVX2;
	if (__builtin_cpu_supports("bmi"))
		f |= HS_CPU_BMI1;
	if (__builtin_cpu_supports("bmi2"))
		f |= HS_CPU_BMI2;
#endif
	return f;
}

/**
 * hs_cpu_flag_names() - @mask as the names /proc/cpuinfo gives its flags,
 * "avx2 bmi1 bmi2 avx512f", so that a report names the flags of the CPU
 * that was measured the way its owner would look them up.
 * @mask:	HS_CPU_* bits.
 * @buf:	receives the names, space-separated; "none" for no bit.
 * @len:	size of @buf; the names are cut to fit.
 */
void hs_cpu_flag_names(unsigned int mask, char *buf, size_t len)
{
	/* in HS_CPU_* bit order; kmod/output.c writes the same names */
	static const char *const name[] = {
		"avx512f", "avx512cd", "avx512bw", "avx512vl", "avx512vbmi",
		"avx2", "bmi1", "bmi2",
	};
	static const unsigned int order[] = { 5, 6, 7, 0, 1, 2, 3, 4 };
	size_t at = 0, i;

	if (!len)
		return;
	buf[0] = '\0';
	for (i = 0; i < sizeof(order) / sizeof(order[0]) && at < len; i++)
		if (mask & (1u << order[i]))
			at += (size_t)snprintf(buf + at, len - at, "%s%s",
					       at ? " " : "", name[order[i]]);
	if (!buf[0])
		snprintf(buf, len, "none");
}

/* Each scorer's HOTSCORE_SIMD name and the HS_CPU_* features it needs. */
static const struct {
	const char *name;
	unsigned int needs;
} impls[HS_NR_FAST_IMPLS] = {
	[HS_FAST_SCALAR] = { "scalar", 0 },
	[HS_FAST_AVX2] = { "avx2", HS_CPU_AVX2 },
	[HS_FAST_AVX512] = { "avx512", HS_CPU_AVX512_ALL },
};

/* The fastest scorer a CPU with the features @cpu runs: the last in order. */
static enum hs_fast_impl best_for(unsigned int cpu)
{
	enum hs_fast_impl impl = HS_NR_FAST_IMPLS;

	while (--impl > HS_FAST_SCALAR && (impls[impl].needs & ~cpu))
		;
	return impl;
}

/**
 * hs_fast_impl_supported() - can this CPU run @impl?
 * @impl:	a batch scorer.
 *
 * Return: true if it can.
 */
bool hs_fast_impl_supported(enum hs_fast_impl impl)
{
	return impl < HS_NR_FAST_IMPLS &&
	       !(impls[impl].needs & ~hs_cpu_features());
}

/*
 * " F", " F and VBMI", " CD, BW and VBMI": the AVX-512 subsets in @mask,
 * into @buf, which holds all five (HS_AVX512_NAMES_LEN).
 */
#define HS_AVX512_NAMES_LEN	sizeof(" F, CD, BW, VL and VBMI")
static void avx512_names(unsigned int mask, char *buf)
{
	static const char *const name[] = { "F", "CD", "BW", "VL", "VBMI" };
	unsigned int i, n = (unsigned int)__builtin_popcount(mask), k = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(name) / sizeof(name[0]); i++) {
		if (!(mask & (1u << i)))
			continue;
		k++;
		strcat(buf, k == 1 ? " " : k == n ? " and " : ", ");
		strcat(buf, name[i]);
	}
}

/* The refusal of a known @impl that lacks the features @missing. */
static void lacks(enum hs_fast_impl impl, unsigned int missing, char *err,
		  size_t errlen)
{
	char names[HS_AVX512_NAMES_LEN];

	if (impl != HS_FAST_AVX512) {
		snprintf(err, errlen, "HOTSCORE_SIMD=avx2: this CPU lacks AVX2; use auto or scalar");
		return;
	}
	/* name the parts that are missing; with none there, just AVX-512 */
	avx512_names(missing == HS_CPU_AVX512_ALL ? 0 : missing, names);
	snprintf(err, errlen, "HOTSCORE_SIMD=avx512: this CPU lacks AVX-512%s; use auto or scalar",
		 names);
}

/**
 * hs_simd_choose() - the batch scorer that a HOTSCORE_SIMD value asks for,
 * on a CPU with the features @cpu.  A pure function, so that both answers
 * for "avx2" and "avx512" can be tested on any machine.
 * @value:	the value; NULL, empty or "auto" is the best that @cpu runs
 *		(avx512, else avx2, else scalar), "scalar" the portable loop,
 *		"avx2" and "avx512" those vector scorers.
 * @cpu:	HS_CPU_* bits (hs_cpu_features() for this CPU).
 * @impl:	receives the choice; on failure, the best that @cpu runs.
 * @err:	receives one line on failure, "HOTSCORE_SIMD=...: why"; may be
 *		NULL when @errlen is 0.
 * @errlen:	size of @err.
 *
 * An unknown value and a known one that @cpu cannot run get different
 * messages: the first is a typo, the second a fact about the machine.
 *
 * Return: 0, or -1 with @err set.
 */
int hs_simd_choose(const char *value, unsigned int cpu,
		   enum hs_fast_impl *impl, char *err, size_t errlen)
{
	enum hs_fast_impl k;

	*impl = best_for(cpu);
	if (!value || !*value || !strcmp(value, "auto"))
		return 0;
	for (k = 0; k < HS_NR_FAST_IMPLS && strcmp(value, impls[k].name); k++)
		;
	if (k == HS_NR_FAST_IMPLS) {
		/* %.24s: a long value must not push the reason out */
		snprintf(err, errlen, "HOTSCORE_SIMD=%.24s: give auto, scalar, avx2 or avx512",
			 value);
		return -1;
	}
	if (impls[k].needs & ~cpu) {
		lacks(k, impls[k].needs & ~cpu, err, errlen);
		return -1;
	}
	*impl = k;
	return 0;
}

/**
 * hs_fast_impl_name() - "scalar", "avx2" or "avx512", as HOTSCORE_SIMD
 * spells it.
 * @impl:	a batch scorer.
 *
 * Return: the name; "?" for a value that names none.
 */
const char *hs_fast_impl_name(enum hs_fast_impl impl)
{
	return impl < HS_NR_FAST_IMPLS ? impls[impl].name : "?";
}

/**
 * hs_fast_batch_impl() - the scorer hs_fast_batch_with(@impl, @p, ...)
 * runs: @impl where its vector path can score with @p, else the scalar
 * loop.  What a report says a batch scored with.
 * @impl:	from hs_simd_choose(), or one hs_fast_impl_supported().
 * @p:		the prepared scheme.
 *
 * Return: @impl or HS_FAST_SCALAR.
 */
enum hs_fast_impl hs_fast_batch_impl(enum hs_fast_impl impl,
				     const struct hs_prep *p)
{
#if defined(__x86_64__)
	if (impl < HS_NR_FAST_IMPLS && hs_fast_vector_usable(p))
		return impl;
#endif
	(void)impl;
	(void)p;
	return HS_FAST_SCALAR;
}

/**
 * hs_fast_batch_with() - hs_fast_batch() by @impl where @impl can score
 * with @p, else by the scalar loop.
 * @impl:	from hs_simd_choose(), or one hs_fast_impl_supported().
 * @p:		the prepared scheme.
 * @r:		the regions.
 * @n:		how many.
 * @hot:	receives the scores.
 *
 * Return: as hs_fast_batch().
 */
enum hs_status hs_fast_batch_with(enum hs_fast_impl impl,
				  const struct hs_prep *p,
				  const struct hs_fast_regions *r, size_t n,
				  int *hot)
{
	switch (hs_fast_batch_impl(impl, p)) {
#if defined(__x86_64__)
	case HS_FAST_AVX2:
		return hs_fast_batch_avx2(p, r, n, hot);
	case HS_FAST_AVX512:
		return hs_fast_batch_avx512(p, r, n, hot);
#endif
	default:
		return hs_fast_batch(p, r, n, hot);
	}
}

/*
 * hs_fast_batch_with() by one vector scorer, as a function of the shape
 * that struct hs_batch_call and struct hs_sim_config call through.
 */
static enum hs_status batch_avx2(const struct hs_prep *p,
				 const struct hs_fast_regions *r, size_t n,
				 int *hot)
{
	return hs_fast_batch_with(HS_FAST_AVX2, p, r, n, hot);
}

static enum hs_status batch_avx512(const struct hs_prep *p,
				   const struct hs_fast_regions *r, size_t n,
				   int *hot)
{
	return hs_fast_batch_with(HS_FAST_AVX512, p, r, n, hot);
}

/**
 * hs_fast_batch_for() - the batch scorer @impl as a function, for callers
 * that call through a pointer: the choice is made once by the front end
 * (hs_simd_choose()) and carried by the pointer, not looked up per call.
 * @impl:	from hs_simd_choose(), or one hs_fast_impl_supported().
 *
 * Return: hs_fast_batch() for HS_FAST_SCALAR; for a vector scorer, a
 * function that uses it where the scheme allows (as hs_fast_batch_with())
 * and the portable loop elsewhere.
 */
hs_fast_batch_fn hs_fast_batch_for(enum hs_fast_impl impl)
{
	switch (impl) {
	case HS_FAST_AVX2:
		return batch_avx2;
	case HS_FAST_AVX512:
		return batch_avx512;
	default:
		return hs_fast_batch;
	}
}
