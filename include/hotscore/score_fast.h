/* SPDX-License-Identifier: GPL-2.0 */
/*
 * score_fast.h - a prepared scheme: damon_hot_score() bit for bit, at a few
 * instructions a region.
 *
 * Once the profile, the intervals and the weights are fixed, the score of a
 * region depends only on its freq_subscore (0..100) and its age_in_log
 * (0..32).  hs_prep_init() computes, once per (context attributes, scheme
 * quota): the frequency divisor as a reciprocal that is exact for every
 * 32-bit dividend, the freq_subscore of every small access count, the
 * age -> age_in_log map as 32 octave thresholds, and the 33 x 102 table of
 * scores.  A region then costs a table load or two.  Anything the tables do
 * not cover (a freq_subscore above 100, a score outside int8) goes through
 * the model (hs_score()), so the result is exact for every input, status
 * included.  docs/proposal-prepared-score.md has the proofs and the numbers.
 *
 * Kernel-safe: no library calls, no floating point.
 */
#ifndef HOTSCORE_SCORE_FAST_H
#define HOTSCORE_SCORE_FAST_H

#include "kernel.h"
#include "score.h"

#define HS_FAST_COLS	(HS_DAMON_MAX_SUBSCORE + 2)	/* 0..100, over */
#define HS_FAST_OVER	(HS_DAMON_MAX_SUBSCORE + 1)	/* fs above 100 */
#define HS_FAST_ROWS	(HS_DAMON_MAX_AGE_IN_LOG + 1)	/* age_in_log */
#define HS_FAST_OCTAVES	32	/* of 32-bit ages: 0..1, 2..3, ..., 2^31.. */
#define HS_FAST_SMALL	127	/* counts with a tabulated freq_subscore */
#define HS_FAST_SLOW	(-128)	/* hot: not in the table, ask the model */
#define HS_FAST_PAD	3	/* bytes before the table, for a gather */
#define HS_FAST_AGE_DIRECT_MAX 1000000UL	/* aggr_us of the age map */

/**
 * struct hs_recip - division of any 32-bit value by a fixed divisor.
 * @mul:	ceil(2^64 / d) for d not a power of two, else 0.
 * @shift:	log2(d) for a power of two.
 */
struct hs_recip {
	uint64_t mul;
	unsigned int shift;
};

/**
 * struct hs_prep - one scheme's prepared scorer.
 * @comp:	the profile's components.
 * @attrs:	what it was prepared for: intervals, weights and the moving-sum
 *		window; the region fields are 0.
 * @status:	HS_DIV0 when every region would trap (it depends on the
 *		intervals only), else HS_OK.
 * @div0:	the trapping division, for HS_DIV0.
 * @max_nr:	the frequency divisor.
 * @div:	@max_nr as a reciprocal.
 * @left_window_bp: mvsum: the window's remaining part, in bp.
 * @age_direct:	@attrs.aggr_us is above 1 s: age_in_log is computed per
 *		region, as the kernel does, instead of by @age_row/@age_thr.
 * @age_row:	per octave of ages (hs_fast_octave()): HS_FAST_COLS times
 *		the age_in_log of the octave's largest age.
 * @age_thr:	the smallest age of the octave that reaches it; below it,
 *		age_in_log is one less (the row before).
 * @fs_small:	freq_subscore of each count below HS_FAST_SMALL (the raw
 *		nr_accesses, or the moving sum), HS_FAST_OVER above 100;
 *		entry HS_FAST_SMALL is HS_FAST_OVER, for the vector path.
 * @table:	HS_FAST_PAD zero bytes (a vector gather reads the 4 bytes
 *		that end at an entry), then the score of
 *		[age_in_log * HS_FAST_COLS + freq_subscore], or HS_FAST_SLOW
 *		where it does not fit an int8 and in the column HS_FAST_OVER.
 */
struct hs_prep {
	struct hs_components comp;
	struct hs_input attrs;
	enum hs_status status;
	enum hs_div0_site div0;
	unsigned int max_nr;
	struct hs_recip div;
	unsigned long left_window_bp;
	bool age_direct;
	uint32_t age_row[HS_FAST_OCTAVES];
	uint32_t age_thr[HS_FAST_OCTAVES];
	uint8_t fs_small[HS_FAST_SMALL + 1];
	int8_t table[HS_FAST_PAD + HS_FAST_ROWS * HS_FAST_COLS];
};

/**
 * struct hs_fast_regions - regions to score, one array per field.
 * @nr_accesses:	r->nr_accesses; r->nr_accesses_bp for a bp profile
 *			(hs_fast_nr_of()).
 * @last_nr_accesses:	r->last_nr_accesses (read by mvsum profiles only).
 * @age:		r->age.
 */
struct hs_fast_regions {
	const unsigned int *nr_accesses;
	const unsigned int *last_nr_accesses;
	const unsigned int *age;
};

void hs_recip_init(struct hs_recip *r, uint32_t d);

/* floor(@x / d) for the d of hs_recip_init(). */
static __always_inline uint32_t hs_recip_div(const struct hs_recip *r,
					     uint32_t x)
{
	if (!r->mul)
		return x >> r->shift;
	return (uint32_t)(((unsigned __int128)r->mul * x) >> 64);
}

void hs_prep_init(struct hs_prep *p, const struct hs_components *comp,
		  const struct hs_input *attrs);
void hs_prep_window(struct hs_prep *p, unsigned long passed_sis,
		    unsigned long next_aggr_sis);
bool hs_prep_matches(const struct hs_prep *p, const struct hs_input *in);
struct hs_result hs_fast_score(const struct hs_prep *p, unsigned int nr,
			       unsigned int last, unsigned int age);
int hs_fast_hot(const struct hs_prep *p, unsigned int nr, unsigned int last,
		unsigned int age);
int hs_fast_slow(const struct hs_prep *p, unsigned int nr, unsigned int last,
		 unsigned int age);
enum hs_status hs_fast_batch(const struct hs_prep *p,
			     const struct hs_fast_regions *r, size_t n,
			     int *hot);

/*
 * The octave of @age: its highest set bit, age 0 sharing octave 0 with
 * age 1 (a bsr of age | 1, defined for every age, no zero test).
 */
static __always_inline unsigned int hs_fast_octave(uint32_t age)
{
	return (unsigned int)hs_fls(age | 1u) - 1;
}

/* HS_FAST_COLS * age_in_log of @age, by the prepared map. */
static __always_inline uint32_t hs_fast_age_row(const struct hs_prep *p,
						uint32_t age)
{
	unsigned int j = hs_fast_octave(age);

	/* the borrow of age - age_thr[j]: no branch on a random outcome */
	return p->age_row[j] - (HS_FAST_COLS &
		(uint32_t)(((uint64_t)age - p->age_thr[j]) >> 32));
}

/**
 * hs_fast_nr_of() - the region field a prepared scorer takes as its @nr:
 * r->nr_accesses_bp for a bp profile, whose frequency line reads only
 * that, else r->nr_accesses.
 * @c:	the profile's components.
 * @in:	the input.
 *
 * Return: the field.
 */
static __always_inline uint32_t hs_fast_nr_of(const struct hs_components *c,
					      const struct hs_input *in)
{
	return c->freq == HS_FREQ_BP ? in->nr_accesses_bp : in->nr_accesses;
}

/*
 * The count the frequency line divides: nr_accesses, the moving sum, or
 * (bp, where @nr is r->nr_accesses_bp) 'r->nr_accesses_bp / 10000'.
 */
static __always_inline uint32_t hs_fast_count(const struct hs_prep *p,
					      uint32_t nr, uint32_t last)
{
	if (p->comp.freq == HS_FREQ_BP)
		return nr / 10000u;
	if (p->comp.freq != HS_FREQ_MVSUM)
		return nr;
	if (p->left_window_bp == 10000)
		return last;
	return (uint32_t)((unsigned long)nr +
			  hs_mult_frac((unsigned long)last, p->left_window_bp,
				       10000UL));
}

/* freq_subscore of a count, HS_FAST_OVER if above 100. */
static __always_inline uint32_t hs_fast_fs(const struct hs_prep *p,
					   uint32_t v)
{
	uint32_t q, r, fs;

	if (v < HS_FAST_SMALL)
		return p->fs_small[v];
	if (p->comp.freq == HS_FREQ_RAW) {	/* v * 100 wraps as u32 */
		fs = hs_recip_div(&p->div, v * 100u);
	} else {	/* mvsum, bp: mult_frac(v, 100, max_nr), unsigned int */
		q = hs_recip_div(&p->div, v);
		r = v - q * p->max_nr;
		fs = q * 100u + hs_recip_div(&p->div, r * 100u);
	}
	return fs < HS_FAST_OVER ? fs : HS_FAST_OVER;
}

/**
 * hs_fast_hot_inline() - damon_hot_score() of one region, prepared.
 * @p:		the prepared scheme; its status must be HS_OK.
 * @nr:		r->nr_accesses (r->nr_accesses_bp for a bp profile, as
 *		hs_fast_nr_of()).
 * @last:	r->last_nr_accesses.
 * @age:	r->age.
 *
 * Return: what damon_hot_score() returns.
 */
static __always_inline int hs_fast_hot_inline(const struct hs_prep *p,
					      uint32_t nr, uint32_t last,
					      uint32_t age)
{
	uint32_t row;
	int hot;

	if (__builtin_expect(p->age_direct, 0))
		row = HS_FAST_COLS * (uint32_t)hs_age_in_log(&p->comp,
			(uint32_t)((unsigned long)age * p->attrs.aggr_us /
				   1000000UL));
	else
		row = hs_fast_age_row(p, age);
	hot = p->table[HS_FAST_PAD + row + hs_fast_fs(p, hs_fast_count(p, nr,
								       last))];
	if (__builtin_expect(hot == HS_FAST_SLOW, 0))
		return hs_fast_slow(p, nr, last, age);
	return hot;
}

#endif /* HOTSCORE_SCORE_FAST_H */
