// SPDX-License-Identifier: GPL-2.0
/*
 * fast_avx2.c - the prepared scorer over 8 regions at a time (AVX2), for
 * the x86-64 CPUs without AVX-512 (AMD before Zen 4, Intel client cores).
 *
 * The same tables as the scalar hs_fast_batch() and the AVX-512 scorer,
 * and the same fallback (scalar.c): a lane the tables do not cover (a
 * count of 127 or more, a freq_subscore above 100, an HS_FAST_SLOW entry)
 * is redone by the scalar path, so the result is the scalar result.  AVX2 has no bit-length
 * instruction and no byte permute across 128 entries; what stands in for
 * them is said where it is done.
 */
#if defined(__x86_64__)
#include <immintrin.h>

#include "simd_internal.h"

#define HS_AVX2 __attribute__((__target__("avx2")))

/*
 * The tables a batch keeps in registers: each 32-entry one in 4 registers
 * of 8 entries, fs_small[] in parts of 16 bytes (each in both halves of a
 * register, as a byte shuffle reads within a half).  Register k holds the
 * XOR of part k and part k - 1, so that a lookup needs no blend: the XOR
 * of the parts 0..k at an index is part k's entry (hs_avx2_lookup32(),
 * hs_avx2_fs()).  The thresholds have their sign bit flipped, so that a
 * signed compare orders them as unsigned.
 */
struct hs_avx2_tables {
	__m256i row[4];		/* age_row[] */
	__m256i thr[4];		/* age_thr[] ^ 2^31 */
	__m256i fs[8];		/* fs_small[], the first @nr_fs parts */
	unsigned int nr_fs;
};

/*
 * The largest of the counts the vector loop reads, @count[0..n & ~7): it
 * says how many parts of fs_small[] the batch needs.  kdamond's counts are
 * at most aggr / sample (20 by default): one or two parts, where all eight
 * would cost 22 instructions a vector.
 */
static HS_AVX2 uint32_t hs_avx2_max(const unsigned int *count, size_t n)
{
	__m256i m = _mm256_setzero_si256();
	size_t i;

	for (i = 0; i + 8 <= n; i += 8)
		m = _mm256_max_epu32(m, _mm256_loadu_si256(
			(const __m256i *)(count + i)));
	m = _mm256_max_epu32(m, _mm256_permute2x128_si256(m, m, 1));
	m = _mm256_max_epu32(m, _mm256_shuffle_epi32(m, 0x4e));
	m = _mm256_max_epu32(m, _mm256_shuffle_epi32(m, 0xb1));
	return (uint32_t)_mm256_cvtsi256_si32(m);
}

static HS_AVX2 void hs_avx2_load(const struct hs_prep *p,
				 const unsigned int *count, size_t n,
				 struct hs_avx2_tables *t)
{
	const __m256i sign = _mm256_set1_epi32(INT32_MIN);
	__m256i row = _mm256_setzero_si256(), thr = row, fs = row, x;
	uint32_t most = hs_avx2_max(count, n);
	unsigned int k;

	for (k = 0; k < 4; k++) {
		x = _mm256_loadu_si256((const __m256i *)p->age_row + k);
		t->row[k] = _mm256_xor_si256(x, row);
		row = x;
		x = _mm256_xor_si256(sign, _mm256_loadu_si256(
			(const __m256i *)p->age_thr + k));
		t->thr[k] = _mm256_xor_si256(x, thr);
		thr = x;
	}
	t->nr_fs = (most < HS_FAST_SMALL ? most : HS_FAST_SMALL) / 16 + 1;
	for (k = 0; k < t->nr_fs; k++) {
		x = _mm256_broadcastsi128_si256(_mm_loadu_si128(
			(const __m128i *)p->fs_small + k));
		t->fs[k] = _mm256_xor_si256(x, fs);
		fs = x;
	}
}

/*
 * hs_fast_octave() of 8 ages.  Octave j of age >= 2 is fls(age >> 1), and
 * ages 0 and 1 have octave 0 = fls(0); so y = age >> 1, which is also
 * positive as the signed int the conversion to float takes.  The float's
 * exponent is floor(log2(y)) + 127, unless rounding to 24 bits carries into
 * the next power of two: y & ~(y >> 1) clears the bit below the top one,
 * which stops the carry and keeps the top bit.  y = 0 converts to 0.0,
 * exponent 0, and the max() makes its octave 0.
 */
static HS_AVX2 __m256i hs_avx2_octave(__m256i age)
{
	__m256i y = _mm256_srli_epi32(age, 1), e;

	y = _mm256_andnot_si256(_mm256_srli_epi32(y, 1), y);
	e = _mm256_srli_epi32(_mm256_castps_si256(_mm256_cvtepi32_ps(y)), 23);
	return _mm256_max_epi32(_mm256_sub_epi32(e, _mm256_set1_epi32(126)),
				_mm256_setzero_si256());
}

/*
 * Entry j of a 32-entry table of differences (struct hs_avx2_tables): the
 * permute of the first register, XORed with the permutes of the next ones
 * up to register j / 8, whose lanes @m[k - 1] selects (j >= 8 * k).
 * Permutes and logic, not a gather: a gather of 8 is 39 uops on Zen 3.
 */
static HS_AVX2 __m256i hs_avx2_lookup32(const __m256i t[4], __m256i j,
					const __m256i m[3])
{
	__m256i e = _mm256_permutevar8x32_epi32(t[0], j);
	unsigned int k;

	for (k = 1; k < 4; k++)
		e = _mm256_xor_si256(e, _mm256_and_si256(m[k - 1],
				_mm256_permutevar8x32_epi32(t[k], j)));
	return e;
}

/*
 * hs_fast_age_row() of 8 ages: the octave's row, one less below its
 * threshold.
 */
static HS_AVX2 __m256i hs_avx2_row(const struct hs_avx2_tables *t,
				   __m256i age)
{
	__m256i j = hs_avx2_octave(age), m[3], row, thr, lt;
	unsigned int k;

	for (k = 0; k < 3; k++)
		m[k] = _mm256_cmpgt_epi32(j, _mm256_set1_epi32(8 * k + 7));
	row = hs_avx2_lookup32(t->row, j, m);
	thr = hs_avx2_lookup32(t->thr, j, m);
	lt = _mm256_cmpgt_epi32(thr, _mm256_xor_si256(age,
				_mm256_set1_epi32(INT32_MIN)));
	return _mm256_sub_epi32(row, _mm256_and_si256(lt,
					_mm256_set1_epi32(HS_FAST_COLS)));
}

/*
 * fs_small[min(v, 127)] of 8 counts (entry 127 is HS_FAST_OVER), by byte
 * shuffles of 16 entries: the shuffle of part k reads entry v - 16 * k,
 * and gives 0 where that is negative (its top bit is set), so XORing the
 * differences of parts 0..v / 16 leaves part v / 16's entry.  The upper
 * bytes of each lane index with the top bit set: 0.
 */
static HS_AVX2 __m256i hs_avx2_fs(const struct hs_avx2_tables *t, __m256i v)
{
	__m256i i = _mm256_min_epu32(v, _mm256_set1_epi32(HS_FAST_SMALL));
	__m256i fs = _mm256_shuffle_epi8(t->fs[0], _mm256_or_si256(i,
					 _mm256_set1_epi32((int)0x80808000u)));
	unsigned int k;

	for (k = 1; k < t->nr_fs; k++) {
		i = _mm256_sub_epi8(i, _mm256_set1_epi8(16));
		fs = _mm256_xor_si256(fs, _mm256_shuffle_epi8(t->fs[k], i));
	}
	return fs;
}

/*
 * 8 scores into @out; returns the lanes whose table entry is HS_FAST_SLOW
 * (hs_simd_redo()'s) as bits, and keeps in @top the largest of the others as
 * unsigned, so that a negative score counts as above 99 too.
 */
static HS_AVX2 unsigned int hs_avx2_8(const struct hs_prep *p,
				      const struct hs_avx2_tables *t,
				      __m256i v, __m256i age, int *out,
				      __m256i *top)
{
	__m256i e, redo;

	/* the 4 bytes ending at the entry: the entry is the top byte */
	e = _mm256_i32gather_epi32((const int *)p->table, _mm256_add_epi32(
				   hs_avx2_row(t, age), hs_avx2_fs(t, v)), 1);
	e = _mm256_srai_epi32(e, 24);
	_mm256_storeu_si256((__m256i *)out, e);
	redo = _mm256_cmpeq_epi32(e, _mm256_set1_epi32(HS_FAST_SLOW));
	*top = _mm256_max_epu32(*top, _mm256_andnot_si256(redo, e));
	return (unsigned int)_mm256_movemask_ps(_mm256_castsi256_ps(redo));
}

/* Is some lane of @top, unsigned, above 99? */
static HS_AVX2 bool hs_avx2_over(__m256i top)
{
	__m256i max = _mm256_set1_epi32(HS_DAMOS_MAX_SCORE);

	return _mm256_movemask_epi8(_mm256_cmpeq_epi32(
		_mm256_min_epu32(top, max), top)) != -1;
}

/**
 * hs_fast_batch_avx2() - hs_fast_batch(), 8 regions at a time.
 * @p:		the prepared scheme; hs_fast_vector_usable(@p) must hold.
 * @r:		the regions.
 * @n:		how many.
 * @hot:	receives the scores; not overlapping @r's arrays.
 *
 * Return: as hs_fast_batch().
 */
HS_AVX2 enum hs_status hs_fast_batch_avx2(const struct hs_prep *p,
					  const struct hs_fast_regions *r,
					  size_t n, int *hot)
{
	const unsigned int *count = hs_simd_count(p, r);
	__m256i top = _mm256_setzero_si256();
	struct hs_avx2_tables t;
	bool over = false;
	size_t i;

	hs_avx2_load(p, count, n, &t);
	for (i = 0; i + 8 <= n; i += 8) {
		unsigned int redo = hs_avx2_8(p, &t,
			_mm256_loadu_si256((const __m256i *)(count + i)),
			_mm256_loadu_si256((const __m256i *)(r->age + i)),
			hot + i, &top);

		if (redo)	/* rare: the lanes the tables leave out */
			over |= hs_simd_redo(p, r, i, redo, hot);
	}
	over |= hs_simd_tail(p, r, i, n, hot);
	return over || hs_avx2_over(top) ? HS_OUT_OF_RANGE : HS_OK;
}
#endif /* __x86_64__ */
