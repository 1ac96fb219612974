/* SPDX-License-Identifier: GPL-2.0 */
/*
 * simd_internal.h - what the vector batch scorers share, and what only
 * dispatch.c calls: the scorers themselves and the scalar work around
 * their vector loops (scalar.c).  Users of libhotscore go through simd.h:
 * hs_fast_batch_with() and hs_fast_batch_for().  Only src/simd/ and
 * tests/ include it.
 */
#ifndef HOTSCORE_SIMD_INTERNAL_H
#define HOTSCORE_SIMD_INTERNAL_H

#include "hotscore/simd.h"

bool hs_fast_vector_usable(const struct hs_prep *p);
const unsigned int *hs_simd_count(const struct hs_prep *p,
				  const struct hs_fast_regions *r);
bool hs_simd_redo(const struct hs_prep *p, const struct hs_fast_regions *r,
		  size_t at, unsigned int lanes, int *hot);
bool hs_simd_tail(const struct hs_prep *p, const struct hs_fast_regions *r,
		  size_t at, size_t n, int *hot);

enum hs_status hs_fast_batch_avx2(const struct hs_prep *p,
				  const struct hs_fast_regions *r, size_t n,
				  int *hot);
enum hs_status hs_fast_batch_avx512(const struct hs_prep *p,
				    const struct hs_fast_regions *r, size_t n,
				    int *hot);

#endif /* HOTSCORE_SIMD_INTERNAL_H */
