// SPDX-License-Identifier: GPL-2.0
/*
 * fast_avx512.c - the prepared scorer over 16 regions at a time (AVX-512:
 * F, CD for the bit length, BW and VBMI for a 128-entry byte lookup).
 *
 * User space only: the kernel does not use vector registers in mm code, and
 * the scalar hs_fast_batch() is what a kernel patch would carry.  The same
 * tables are read; a lane the tables do not cover (a count of 128 or more,
 * a freq_subscore above 100, an HS_FAST_SLOW entry) is redone by the scalar
 * path, so the result is the scalar result.
 */
#if defined(__x86_64__)
#include <immintrin.h>

#include "simd_internal.h"

#define HS_AVX512 __attribute__((__target__( \
	"avx512f,avx512cd,avx512bw,avx512vl,avx512vbmi")))

/* The tables a batch keeps in registers. */
struct hs_avx512_tables {
	__m512i row_a, row_b;	/* age_row[0..15], age_row[16..31] */
	__m512i thr_a, thr_b;	/* age_thr[0..15], age_thr[16..31] */
	__m512i fs_a, fs_b;	/* fs_small[0..127] */
};

/*
 * 16 scores into @out; returns the lanes whose table entry is
 * HS_FAST_SLOW (hs_simd_redo()'s), and ORs into @bad the lanes above 99.
 */
static HS_AVX512 __mmask16 hs_avx512_16(const struct hs_prep *p,
					const struct hs_avx512_tables *t,
					__m512i v, __m512i age, int *out,
					__mmask16 *bad)
{
	const __m512i cols = _mm512_set1_epi32(HS_FAST_COLS);
	__m512i idx, row, thr, fs, e;
	__mmask16 lt, redo;

	/* the row: age_row[j] - (age < age_thr[j]) rows, j the octave */
	idx = _mm512_sub_epi32(_mm512_set1_epi32(31), _mm512_lzcnt_epi32(
		_mm512_or_si512(age, _mm512_set1_epi32(1))));
	row = _mm512_permutex2var_epi32(t->row_a, idx, t->row_b);
	thr = _mm512_permutex2var_epi32(t->thr_a, idx, t->thr_b);
	lt = _mm512_cmplt_epu32_mask(age, thr);
	row = _mm512_mask_sub_epi32(row, lt, row, cols);
	/*
	 * The column: a byte lookup of min(v, 127) in fs_small[], whose last
	 * entry is HS_FAST_OVER; a lane's upper bytes are 0 and look up
	 * fs_small[0] = 0.
	 */
	fs = _mm512_min_epu32(v, _mm512_set1_epi32(HS_FAST_SMALL));
	fs = _mm512_permutex2var_epi8(t->fs_a, fs, t->fs_b);
	/* the 4 bytes ending at the entry: the entry is the top byte */
	e = _mm512_i32gather_epi32(_mm512_add_epi32(row, fs), p->table, 1);
	e = _mm512_srai_epi32(e, 24);
	_mm512_storeu_si512(out, e);
	redo = _mm512_cmpeq_epi32_mask(e, _mm512_set1_epi32(HS_FAST_SLOW));
	/* unsigned: a negative score is above 99 too */
	*bad |= _mm512_mask_cmpgt_epu32_mask((__mmask16)~redo, e,
					     _mm512_set1_epi32(99));
	return redo;
}

/**
 * hs_fast_batch_avx512() - hs_fast_batch(), 16 regions at a time.
 * @p:		the prepared scheme; hs_fast_vector_usable(@p) must hold.
 * @r:		the regions.
 * @n:		how many.
 * @hot:	receives the scores; not overlapping @r's arrays.
 *
 * Return: as hs_fast_batch().
 */
HS_AVX512 enum hs_status hs_fast_batch_avx512(const struct hs_prep *p,
					      const struct hs_fast_regions *r,
					      size_t n, int *hot)
{
	const unsigned int *count = hs_simd_count(p, r);
	struct hs_avx512_tables t;
	__mmask16 bad = 0;
	bool over = false;
	size_t i;

	t.row_a = _mm512_loadu_si512(p->age_row);
	t.row_b = _mm512_loadu_si512(p->age_row + 16);
	t.thr_a = _mm512_loadu_si512(p->age_thr);
	t.thr_b = _mm512_loadu_si512(p->age_thr + 16);
	t.fs_a = _mm512_loadu_si512(p->fs_small);
	t.fs_b = _mm512_loadu_si512(p->fs_small + 64);
	for (i = 0; i + 16 <= n; i += 16) {
		__mmask16 redo = hs_avx512_16(p, &t,
					      _mm512_loadu_si512(count + i),
					      _mm512_loadu_si512(r->age + i),
					      hot + i, &bad);

		if (redo)	/* rare: the lanes the tables leave out */
			over |= hs_simd_redo(p, r, i, redo, hot);
	}
	over |= hs_simd_tail(p, r, i, n, hot);
	return over || bad ? HS_OUT_OF_RANGE : HS_OK;
}
#endif /* __x86_64__ */
