// SPDX-License-Identifier: GPL-2.0
/*
 * scalar.c - what every vector batch scorer does the same way: when the
 * tables let it score at all, and the scalar work around its vector loop
 * (the lanes the tables leave to the model, the regions after the last
 * whole vector).  Plain C, no vector instructions: one copy for all of
 * them, so the fallback rules cannot drift apart.
 */
#include "simd_internal.h"

/**
 * hs_fast_vector_usable() - can a vector scorer score with @p?
 * @p:	the prepared scheme.
 *
 * The vector paths need the age map, a count they look up as it is (not
 * bp's nr_accesses_bp / 10000) and, for a moving sum, a window at an end
 * (left_window_bp 0 or 10000: the count is nr_accesses or
 * last_nr_accesses, which is where kdamond scores).
 *
 * Return: true if they can.
 */
bool hs_fast_vector_usable(const struct hs_prep *p)
{
	if (p->status != HS_OK || p->age_direct ||
	    p->comp.freq == HS_FREQ_BP)
		return false;
	return p->comp.freq != HS_FREQ_MVSUM || p->left_window_bp == 0 ||
	       p->left_window_bp == 10000;
}

/**
 * hs_simd_count() - the array of counts the frequency line divides, for a
 * scheme hs_fast_vector_usable() accepts.
 * @p:	the prepared scheme.
 * @r:	the regions.
 *
 * Return: @r->last_nr_accesses when a moving-sum window has just started,
 * else @r->nr_accesses.
 */
const unsigned int *hs_simd_count(const struct hs_prep *p,
				  const struct hs_fast_regions *r)
{
	if (p->comp.freq == HS_FREQ_MVSUM && p->left_window_bp == 10000)
		return r->last_nr_accesses;
	return r->nr_accesses;
}

/**
 * hs_simd_redo() - the scalar prepared scorer's results for the lanes of a
 * vector whose table entry was HS_FAST_SLOW: a count past the byte lookup
 * (its reciprocal division), or an entry the table leaves to the model.
 * Rare in kdamond's batches, whose counts are at most aggr / sample, so
 * one at a time.
 * @p:		the prepared scheme.
 * @r:		the regions.
 * @at:		the vector's first region.
 * @lanes:	bit k: region @at + k is redone.
 * @hot:	the batch's scores; the redone ones are written over.
 *
 * Return: true when some redone score is outside [0, 99].
 */
bool hs_simd_redo(const struct hs_prep *p, const struct hs_fast_regions *r,
		  size_t at, unsigned int lanes, int *hot)
{
	bool mvsum = p->comp.freq == HS_FREQ_MVSUM;
	bool over = false;

	while (lanes) {
		size_t k = at + (unsigned int)__builtin_ctz(lanes);

		hot[k] = hs_fast_hot(p, r->nr_accesses[k],
				     mvsum ? r->last_nr_accesses[k] : 0,
				     r->age[k]);
		over |= (unsigned int)hot[k] > HS_DAMOS_MAX_SCORE;
		lanes &= lanes - 1;
	}
	return over;
}

/**
 * hs_simd_tail() - the regions after the last whole vector, by the
 * portable loop.
 * @p:		the prepared scheme.
 * @r:		the regions.
 * @at:		the first region left.
 * @n:		the batch's length; nothing is done when @at is @n.
 * @hot:	the batch's scores.
 *
 * Return: true when some of their scores is outside [0, 99].
 */
bool hs_simd_tail(const struct hs_prep *p, const struct hs_fast_regions *r,
		  size_t at, size_t n, int *hot)
{
	struct hs_fast_regions rest = {
		r->nr_accesses + at,
		p->comp.freq == HS_FREQ_MVSUM ? r->last_nr_accesses + at : NULL,
		r->age + at,
	};

	if (at >= n)
		return false;
	return hs_fast_batch(p, &rest, n - at, hot + at) == HS_OUT_OF_RANGE;
}
