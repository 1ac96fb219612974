// SPDX-License-Identifier: GPL-2.0
/*
 * dispatch.c - pick a batch scorer the CPU can run.
 *
 * HOTSCORE_SIMD=scalar in the environment forces the portable one, so that
 * the fallback can be run on a machine that has the vector unit;
 * HOTSCORE_SIMD=avx512 insists on the vector one.
 */
#include <stdlib.h>
#include <string.h>

#include <hotscore/simd.h>

/** hs_fast_impl_supported() - can this CPU run @impl? */
bool hs_fast_impl_supported(enum hs_fast_impl impl)
{
	switch (impl) {
	case HS_FAST_SCALAR:
		return true;
#if defined(__x86_64__)
	case HS_FAST_AVX512:
		__builtin_cpu_init();
		return __builtin_cpu_supports("avx512f") &&
		       __builtin_cpu_supports("avx512cd") &&
		       __builtin_cpu_supports("avx512bw") &&
		       __builtin_cpu_supports("avx512vl") &&
		       __builtin_cpu_supports("avx512vbmi");
#endif
	default:
		return false;
	}
}

/**
 * hs_simd_env() - what the environment's HOTSCORE_SIMD asks for.
 * @impl:	receives it: unset, empty or "auto" is the best this CPU runs;
 *		"scalar" the portable loop; "avx512" the AVX-512 one.
 *
 * Return: 0, or -1 for another value or a unit this CPU lacks (@impl is
 * then the best this CPU runs).
 */
int hs_simd_env(enum hs_fast_impl *impl)
{
	const char *env = getenv("HOTSCORE_SIMD");

	*impl = hs_fast_impl_supported(HS_FAST_AVX512) ? HS_FAST_AVX512 :
		HS_FAST_SCALAR;
	if (!env || !*env || !strcmp(env, "auto"))
		return 0;
	if (!strcmp(env, "scalar")) {
		*impl = HS_FAST_SCALAR;
		return 0;
	}
	if (!strcmp(env, "avx512") && hs_fast_impl_supported(HS_FAST_AVX512))
		return 0;
	return -1;
}

/**
 * hs_fast_impl_best() - the fastest batch scorer this CPU runs, unless the
 * environment's HOTSCORE_SIMD asks for another (hs_simd_env()).
 */
enum hs_fast_impl hs_fast_impl_best(void)
{
	enum hs_fast_impl impl;

	hs_simd_env(&impl);
	return impl;
}

const char *hs_fast_impl_name(enum hs_fast_impl impl)
{
	return impl == HS_FAST_AVX512 ? "avx512" : "scalar";
}

/**
 * hs_fast_batch_with() - hs_fast_batch() by @impl where @impl can score
 * with @p, else by the scalar loop.
 * @impl:	from hs_fast_impl_best(), or one hs_fast_impl_supported().
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
#if defined(__x86_64__)
	if (impl == HS_FAST_AVX512 && hs_fast_avx512_usable(p))
		return hs_fast_batch_avx512(p, r, n, hot);
#endif
	(void)impl;
	return hs_fast_batch(p, r, n, hot);
}

/**
 * hs_fast_batch_best() - hs_fast_batch() by hs_fast_impl_best(), which is
 * asked once per process.
 * @p:		the prepared scheme.
 * @r:		the regions.
 * @n:		how many.
 * @hot:	receives the scores.
 *
 * Return: as hs_fast_batch().
 */
enum hs_status hs_fast_batch_best(const struct hs_prep *p,
				  const struct hs_fast_regions *r, size_t n,
				  int *hot)
{
	static int cached = -1;	/* threads may race to fill it: same value */
	int impl = __atomic_load_n(&cached, __ATOMIC_RELAXED);

	if (impl < 0) {
		impl = (int)hs_fast_impl_best();
		__atomic_store_n(&cached, impl, __ATOMIC_RELAXED);
	}
	return hs_fast_batch_with((enum hs_fast_impl)impl, p, r, n, hot);
}
