// SPDX-License-Identifier: GPL-2.0
/*
 * fast.c - the prepared scorer: tables built once per scheme, a few loads
 * per region, the model for whatever the tables leave out.
 *
 * Kernel-safe: no library calls.  Every table entry is computed by the
 * model's own steps (score_impl.h), so the tables cannot drift from it.
 */
#include <hotscore/score_fast.h>

#include "score_impl.h"

/**
 * hs_recip_init() - a reciprocal of @d exact for every 32-bit dividend.
 * @r:	receives it.
 * @d:	the divisor, at least 1.
 *
 * A power of two is a shift.  Otherwise m = ceil(2^64 / d), and for any
 * x < 2^32, floor(x * m / 2^64) = floor(x / d): with m * d = 2^64 + e,
 * 0 < e < d, and x = q * d + r, 0 <= r < d,
 *
 *	x * m / 2^64 = q + (r + x * e / 2^64) / d,
 *
 * where 0 <= x * e / 2^64 < 2^32 * 2^32 / 2^64 = 1, so the fraction lies in
 * [0, (r + 1) / d) and (r + 1) / d <= 1.  (Lemire, Kaser and Kurz, "Faster
 * remainder by direct computation", 2019, Theorem 1 with N = 32, F = 64.)
 */
void hs_recip_init(struct hs_recip *r, uint32_t d)
{
	if (!(d & (d - 1))) {
		r->mul = 0;
		r->shift = (unsigned int)hs_fls(d) - 1;
		return;
	}
	/* d does not divide 2^64: ceil(2^64 / d) = floor((2^64 - 1) / d) + 1 */
	r->mul = ~0ULL / d + 1;
	r->shift = 0;
}

/*
 * The age -> age_in_log map, one octave of ages at a time.  Without wrap or
 * truncation (aggr_us <= 1 s: age * aggr < 2^52 and age_in_sec < 2^32),
 * age_in_sec = floor(age * aggr / 10^6) never falls as age grows.  Over one
 * octave [2^j, 2^(j+1)), the exact quotient age * aggr / 10^6 spans less
 * than a factor of two, [s, 2s); since fls(floor(x)) = k means x lies in
 * [2^(k-1), 2^k), at most two bit lengths occur there: the octave's last
 * age's, hi, and hi - 1 below some threshold age.  Octave 0 holds ages 0
 * and 1, whose age_in_sec are 0 and at most 1.  The values and the
 * threshold come from the model's own age step (a binary search).
 */
static void prep_age_map(struct hs_prep *p)
{
	unsigned long aggr = p->attrs.aggr_us;
	struct hs_trace t;
	unsigned int j;

	p->age_direct = aggr > HS_FAST_AGE_DIRECT_MAX;
	for (j = 0; j < HS_FAST_OCTAVES; j++) {
		uint32_t lo = j ? 1u << j : 0;
		uint32_t hi = (uint32_t)((2ULL << j) - 1);
		int top;

		p->age_row[j] = 0;
		p->age_thr[j] = 0;
		if (p->age_direct)
			continue;
		top = hs_age_log_of(&p->comp, hi, aggr, &t);
		/* the first age of the octave whose age_in_log is top */
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (hs_age_log_of(&p->comp, mid, aggr, &t) < top)
				lo = mid + 1;
			else
				hi = mid;
		}
		p->age_row[j] = (uint32_t)top * HS_FAST_COLS;
		p->age_thr[j] = lo;
	}
}

/* freq_subscore of every small count, by the model's frequency line. */
static void prep_fs_small(struct hs_prep *p)
{
	uint32_t v, fs;

	for (v = 0; v < HS_FAST_SMALL; v++) {
		fs = hs_freq_of_count(p->comp.freq, v, p->max_nr);
		p->fs_small[v] = (uint8_t)(fs < HS_FAST_OVER ? fs :
					   HS_FAST_OVER);
	}
	p->fs_small[HS_FAST_SMALL] = HS_FAST_OVER;
}

/*
 * The score of every (age_in_log, freq_subscore), by the model's tail; the
 * column HS_FAST_OVER sends a freq_subscore above 100 to the model.
 */
static void prep_table(struct hs_prep *p)
{
	uint32_t fw = p->attrs.weight_nr_accesses, aw = p->attrs.weight_age;
	int8_t *row = p->table + HS_FAST_PAD;
	struct hs_trace t;
	int fs, log, hot;

	for (fs = 0; fs < HS_FAST_PAD; fs++)
		p->table[fs] = 0;
	for (log = 0; log < HS_FAST_ROWS; log++, row += HS_FAST_COLS) {
		for (fs = 0; fs < HS_FAST_OVER; fs++) {
			hot = hs_hot_tail(&p->comp, fw, aw, fs, log, &t);
			row[fs] = hot > HS_FAST_SLOW && hot <= 127 ?
				  (int8_t)hot : HS_FAST_SLOW;
		}
		row[HS_FAST_OVER] = HS_FAST_SLOW;
	}
}

/**
 * hs_prep_init() - prepare a scheme: what the kernel would do when a
 * scheme's quota weights or the context's attributes are committed.
 * @p:		receives the prepared scorer.
 * @comp:	the profile.
 * @attrs:	sample_us, aggr_us, the weights and the moving-sum window
 *		(passed_sis, next_aggr_sis); the region fields are ignored.
 *
 * When the intervals make every region divide by zero, @p->status is
 * HS_DIV0 and only hs_fast_score() and hs_fast_batch() may be used; they
 * report it.
 */
void hs_prep_init(struct hs_prep *p, const struct hs_components *comp,
		  const struct hs_input *attrs)
{
	struct hs_trace t = { 0 };
	struct hs_result r;

	p->comp = *comp;
	p->attrs = *attrs;
	p->attrs.nr_accesses = 0;
	p->attrs.last_nr_accesses = 0;
	p->attrs.age = 0;
	r = hs_score(comp, &p->attrs, &t);
	p->status = r.status == HS_DIV0 ? HS_DIV0 : HS_OK;
	p->div0 = r.div0;
	/* a trapping scheme still gets defined tables, built for divisor 1 */
	p->max_nr = p->status == HS_OK ? t.max_nr : 1;
	p->left_window_bp = t.left_window_bp;
	hs_recip_init(&p->div, p->max_nr);
	prep_age_map(p);
	prep_fs_small(p);
	prep_table(p);
}

/**
 * hs_prep_window() - move a moving-sum profile's window: what kdamond
 * would do once per sampling interval, not per region.
 * @p:			the prepared scheme.
 * @passed_sis:		c->passed_sample_intervals.
 * @next_aggr_sis:	c->next_aggregation_sis.
 */
void hs_prep_window(struct hs_prep *p, unsigned long passed_sis,
		    unsigned long next_aggr_sis)
{
	struct hs_trace t = { 0 };

	p->attrs.passed_sis = passed_sis;
	p->attrs.next_aggr_sis = next_aggr_sis;
	if (p->comp.freq != HS_FREQ_MVSUM || p->status != HS_OK)
		return;
	(void)hs_score(&p->comp, &p->attrs, &t);
	p->left_window_bp = t.left_window_bp;
}

/**
 * hs_prep_matches() - was @p prepared for the non-region fields of @in?
 * @p:	the prepared scheme.
 * @in:	an input.
 *
 * Return: true when hs_fast_score(@p, region of @in) is @in's score.
 */
bool hs_prep_matches(const struct hs_prep *p, const struct hs_input *in)
{
	const struct hs_input *a = &p->attrs;

	if (a->sample_us != in->sample_us || a->aggr_us != in->aggr_us ||
	    a->weight_nr_accesses != in->weight_nr_accesses ||
	    a->weight_age != in->weight_age)
		return false;
	return p->comp.freq != HS_FREQ_MVSUM ||
	       (a->passed_sis == in->passed_sis &&
		a->next_aggr_sis == in->next_aggr_sis);
}

/**
 * hs_fast_slow() - the model, for a region the tables do not cover.
 * @p:		the prepared scheme.
 * @nr:		r->nr_accesses (r->nr_accesses_bp for a bp profile).
 * @last:	r->last_nr_accesses.
 * @age:	r->age.
 *
 * Out of line: the fast path only branches to it.
 *
 * Return: damon_hot_score().
 */
__attribute__((__noinline__)) int hs_fast_slow(const struct hs_prep *p,
					       unsigned int nr,
					       unsigned int last,
					       unsigned int age)
{
	struct hs_input in = p->attrs;

	in.nr_accesses = nr;
	in.nr_accesses_bp = nr;	/* what @nr is for a bp profile */
	in.last_nr_accesses = last;
	in.age = age;
	return hs_score(&p->comp, &in, NULL).hot;
}

/**
 * hs_fast_score() - hot, cold and status of one region, as hs_score().
 * @p:		the prepared scheme.
 * @nr:		r->nr_accesses (r->nr_accesses_bp for a bp profile).
 * @last:	r->last_nr_accesses.
 * @age:	r->age.
 *
 * Return: what hs_score() returns for the same input.
 */
struct hs_result hs_fast_score(const struct hs_prep *p, unsigned int nr,
			       unsigned int last, unsigned int age)
{
	struct hs_result r = { 0, 0, HS_DIV0, p->div0 };

	if (p->status != HS_OK)
		return r;
	return hs_result_of(hs_fast_hot_inline(p, nr, last, age));
}

/**
 * hs_fast_hot() - damon_hot_score() of one region, prepared.
 * @p:		the prepared scheme; its status must be HS_OK.
 * @nr:		r->nr_accesses (r->nr_accesses_bp for a bp profile).
 * @last:	r->last_nr_accesses.
 * @age:	r->age.
 *
 * Return: the score.
 */
int hs_fast_hot(const struct hs_prep *p, unsigned int nr, unsigned int last,
		unsigned int age)
{
	return hs_fast_hot_inline(p, nr, last, age);
}

/*
 * The batch loop where the tables apply: the count the frequency line
 * divides is an array (@count: nr_accesses, or last_nr_accesses when a
 * moving-sum window just started) and the age map covers every age.  The
 * tables sit in locals so that storing a score does not reload them.
 */
static uint32_t batch_mapped(const struct hs_prep *p,
			     const unsigned int *restrict count,
			     const struct hs_fast_regions *r, size_t n,
			     int *restrict hot)
{
	const unsigned int *restrict age = r->age;
	const uint32_t *row = p->age_row, *thr = p->age_thr;
	const uint8_t *fs_small = p->fs_small;
	const int8_t *table = p->table + HS_FAST_PAD;
	bool mvsum = p->comp.freq == HS_FREQ_MVSUM;
	uint32_t out = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t a = age[i], v = count[i];
		uint32_t j = hs_fast_octave(a);
		/*
		 * No branch on the threshold: ages fall on both sides of it
		 * at random, and a mispredicted branch there doubled the cost
		 * of a region with --pool 262144 (docs/bench.md, "Limits").
		 * The borrow of a - thr[j] in 64 bits is the mask.
		 */
		uint32_t at = row[j] - (HS_FAST_COLS &
			(uint32_t)(((uint64_t)a - thr[j]) >> 32));
		int h = table[at + (v < HS_FAST_SMALL ? fs_small[v] :
				    hs_fast_fs(p, v))];

		if (__builtin_expect(h == HS_FAST_SLOW, 0))
			h = hs_fast_slow(p, r->nr_accesses[i],
					 mvsum ? r->last_nr_accesses[i] : 0, a);
		hot[i] = h;
	}
	/* apart, so that the compiler can vectorize it */
	for (i = 0; i < n; i++)
		out |= (uint32_t)hot[i] > HS_DAMOS_MAX_SCORE;
	return out;
}

/* The general loop: a moving-sum window in progress, or ages computed. */
static uint32_t batch_general(const struct hs_prep *p,
			      const struct hs_fast_regions *r, size_t n,
			      int *restrict hot)
{
	bool mvsum = p->comp.freq == HS_FREQ_MVSUM;
	uint32_t out = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		hot[i] = hs_fast_hot_inline(p, r->nr_accesses[i],
					    mvsum ? r->last_nr_accesses[i] : 0,
					    r->age[i]);
		out |= (uint32_t)hot[i] > HS_DAMOS_MAX_SCORE;
	}
	return out;
}

/**
 * hs_fast_batch() - damon_hot_score() of @n regions, scalar.
 * @p:		the prepared scheme.
 * @r:		the regions (@r->last_nr_accesses only for mvsum profiles).
 * @n:		how many.
 * @hot:	receives the @n scores, unless the status is HS_DIV0; it must
 *		not overlap the arrays of @r (a score is not written over an
 *		input that a later region, or the model's fallback, reads).
 *
 * Return: HS_DIV0 (nothing scored), HS_OUT_OF_RANGE when some score is
 * outside [0, 99], else HS_OK.
 */
enum hs_status hs_fast_batch(const struct hs_prep *p,
			     const struct hs_fast_regions *r, size_t n,
			     int *hot)
{
	const unsigned int *count = r->nr_accesses;
	uint32_t out;

	if (p->status != HS_OK)
		return HS_DIV0;
	if (p->comp.freq == HS_FREQ_MVSUM && p->left_window_bp == 10000)
		count = r->last_nr_accesses;
	else if ((p->comp.freq == HS_FREQ_MVSUM && p->left_window_bp) ||
		 p->comp.freq == HS_FREQ_BP)
		count = NULL;	/* nr + a share of last, or bp / 10000 */
	if (count && !p->age_direct)
		out = batch_mapped(p, count, r, n, hot);
	else
		out = batch_general(p, r, n, hot);
	return out ? HS_OUT_OF_RANGE : HS_OK;
}
