/* SPDX-License-Identifier: GPL-2.0 */
/*
 * simd.h - vectorized batch scorers for user space, chosen at run time.
 *
 * hs_fast_batch() (src/score/fast.c) is the portable one, and the one the
 * kernel would use; these compute the same scores from the same prepared
 * tables with vector instructions where the CPU has them.
 */
#ifndef HOTSCORE_SIMD_H
#define HOTSCORE_SIMD_H

#include "score_fast.h"

enum hs_fast_impl {
	HS_FAST_SCALAR,		/* hs_fast_batch(): any CPU, the kernel */
	HS_FAST_AVX2,		/* AVX2 */
	HS_FAST_AVX512,		/* AVX-512 F, CD, BW, VL and VBMI */
	HS_NR_FAST_IMPLS
};

/*
 * The CPU features the vector scorers need, as bits (hs_cpu_features()),
 * so that the choice can be tested with the features of another CPU.
 * HS_CPU_AVX2 is the AVX2 scorer's; the AVX-512 one needs all five of
 * HS_CPU_AVX512_ALL.
 */
#define HS_CPU_AVX512F		(1u << 0)
#define HS_CPU_AVX512CD		(1u << 1)
#define HS_CPU_AVX512BW		(1u << 2)
#define HS_CPU_AVX512VL		(1u << 3)
#define HS_CPU_AVX512VBMI	(1u << 4)
#define HS_CPU_AVX2		(1u << 5)
/* not needed by a scorer, but reported with the machine (hs_cpu_flag_names) */
#define HS_CPU_BMI1		(1u << 6)
#define HS_CPU_BMI2		(1u << 7)
#define HS_CPU_AVX512_ALL	(HS_CPU_AVX512F | HS_CPU_AVX512CD | \
				 HS_CPU_AVX512BW | HS_CPU_AVX512VL | \
				 HS_CPU_AVX512VBMI)

/* A batch scorer's shape, as hs_fast_batch() has it. */
typedef enum hs_status (*hs_fast_batch_fn)(const struct hs_prep *p,
					   const struct hs_fast_regions *r,
					   size_t n, int *hot);

unsigned int hs_cpu_features(void);
void hs_cpu_flag_names(unsigned int mask, char *buf, size_t len);
bool hs_fast_impl_supported(enum hs_fast_impl impl);
int hs_simd_choose(const char *value, unsigned int cpu,
		   enum hs_fast_impl *impl, char *err, size_t errlen);
const char *hs_fast_impl_name(enum hs_fast_impl impl);
enum hs_status hs_fast_batch_with(enum hs_fast_impl impl,
				  const struct hs_prep *p,
				  const struct hs_fast_regions *r, size_t n,
				  int *hot);
hs_fast_batch_fn hs_fast_batch_for(enum hs_fast_impl impl);
enum hs_fast_impl hs_fast_batch_impl(enum hs_fast_impl impl,
				     const struct hs_prep *p);

#endif /* HOTSCORE_SIMD_H */
