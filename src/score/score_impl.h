/* SPDX-License-Identifier: GPL-2.0 */
/*
 * score_impl.h - the body of damon_hot_score(), one component at a time.
 *
 * Everything here is always inlined, so that a caller passing constant
 * components (the benchmark's variants, the kernel module) gets the code the
 * kernel would have compiled for that combination, while hs_score() passes
 * them at run time for the model.  Kernel-safe: no library calls.
 *
 * Each step names the kernel line it models.  Integer types follow the
 * kernel's: the int locals are produced by hs_s32() from the unsigned
 * computation, which is what -fno-strict-overflow makes of them.
 */
#ifndef HOTSCORE_SCORE_IMPL_H
#define HOTSCORE_SCORE_IMPL_H

#include <hotscore/kernel.h>
#include <hotscore/score.h>

static __always_inline int hs_fls_with(enum hs_fls_impl impl, uint32_t x)
{
	switch (impl) {
	case HS_FLS_GENERIC:
		return hs_fls_generic(x);
	case HS_FLS_BSR:
		return hs_fls_bsr(x);
	case HS_FLS_BUILTIN:
		return hs_fls_builtin(x);
	default:
		return hs_fls(x);
	}
}

/* the run-time ilog2() of a 32-bit value: __ilog2_u32() is fls(n) - 1 */
static __always_inline int hs_ilog2_with(enum hs_fls_impl impl, uint32_t n)
{
	return hs_fls_with(impl, n) - 1;
}

/*
 * The shift loop's condition and step, apart so that verify's sweep can run
 * them on many ages at once (src/verify/sweep.c).  The kernel's loop:
 *	for (age_in_log = 0;
 *	     age_in_log < DAMON_MAX_AGE_IN_LOG && age_in_sec;
 *	     age_in_log++, age_in_sec >>= 1)
 *		;
 */
#define HS_AGELOG_LOOP_COND(log, sec)	\
	((log) < HS_DAMON_MAX_AGE_IN_LOG && (sec))
#define HS_AGELOG_LOOP_STEP(log, sec)	((log)++, (sec) >>= 1)

/*
 * age_in_log from age_in_sec.  All three kernel forms give fls(x) for a
 * 32-bit x, so the cap at DAMON_MAX_AGE_IN_LOG never binds.
 */
static __always_inline int hs_age_in_log_with(enum hs_agelog method,
					      enum hs_fls_impl impl,
					      uint32_t age_in_sec)
{
	int age_in_log;

	switch (method) {
	case HS_AGELOG_FLS:
		/* age_in_log = min_t(int, fls(age_in_sec), 32); */
		return hs_min_t(int, hs_fls_with(impl, age_in_sec),
				HS_DAMON_MAX_AGE_IN_LOG);
	case HS_AGELOG_ILOG2:
		if (age_in_sec)
			return hs_min_t(int, hs_ilog2_with(impl, age_in_sec) + 1,
					HS_DAMON_MAX_AGE_IN_LOG);
		return 0;
	default:
		for (age_in_log = 0;
		     HS_AGELOG_LOOP_COND(age_in_log, age_in_sec);
		     HS_AGELOG_LOOP_STEP(age_in_log, age_in_sec))
			;
		return age_in_log;
	}
}

/*
 * The frequency line's divisor.  Returns false, with @site set, where the
 * kernel's helper itself would divide by zero.
 */
static __always_inline bool hs_divisor_with(enum hs_divisor d,
					    const struct hs_input *in,
					    unsigned int *max_nr,
					    enum hs_div0_site *site)
{
	unsigned long sample = in->sample_us;
	unsigned long q;

	if (d == HS_DIV_SAFE) {
		/* sample ?: 1; min(aggr / sample, UINT_MAX) ?: 1 */
		q = in->aggr_us / (sample ? sample : 1);
		q = q < UINT_MAX ? q : UINT_MAX;
		*max_nr = q ? (unsigned int)q : 1;
		return true;
	}
	if (!sample) {
		*site = HS_DIV0_SAMPLE;
		return false;
	}
	q = in->aggr_us / sample;
	if (d == HS_DIV_MAX_NR)
		q = q < UINT_MAX ? q : UINT_MAX;
	/* u32-trunc: 'unsigned int max_nr_accesses = aggr / sample;' */
	*max_nr = (unsigned int)q;
	return true;
}

/*
 * damon_nr_accesses_mvsum(): nr_accesses so far plus the share of the last
 * window's count that the rest of this window is expected to add.
 */
static __always_inline bool hs_mvsum(const struct hs_input *in,
				     struct hs_trace *t,
				     enum hs_div0_site *site)
{
	unsigned long aggr = in->aggr_us ? in->aggr_us : 1;
	unsigned long sample = in->sample_us ? in->sample_us : 1;
	unsigned long left_window;

	t->window_len = aggr / sample;
	if (!t->window_len) {
		*site = HS_DIV0_WINDOW;
		return false;
	}
	/* time_after_eq(passed, next): (long)(passed - next) >= 0 */
	if (!((in->passed_sis - in->next_aggr_sis) >> 63))
		left_window = 0;
	else
		left_window = in->next_aggr_sis - in->passed_sis;
	t->left_window_bp = hs_mult_frac(left_window, 10000UL, t->window_len);
	if (t->left_window_bp == 10000)
		t->mvsum = in->last_nr_accesses;
	else	/* damon_mvsum(): unsigned long, returned as unsigned int */
		t->mvsum = (unsigned int)((unsigned long)in->nr_accesses +
			hs_mult_frac((unsigned long)in->last_nr_accesses,
				     t->left_window_bp, 10000UL));
	return true;
}

/*
 * The count the bp frequency line divides (6.7+, mm/damon/ops-common.c,
 * damon_hot_score()): 'r->nr_accesses_bp / 10000', an unsigned int.
 */
static __always_inline uint32_t hs_bp_count(uint32_t nr_accesses_bp)
{
	return nr_accesses_bp / 10000u;
}

/*
 * The frequency line on the count it divides (nr_accesses, the moving sum,
 * or nr_accesses_bp / 10000) once the divisor is known and non-zero.
 */
static __always_inline uint32_t hs_freq_of_count(enum hs_freq freq,
						 uint32_t count,
						 uint32_t max_nr)
{
	/*
	 * mvsum: mult_frac(damon_nr_accesses_mvsum(r), ...); bp (6.12):
	 * freq_subscore = mult_frac(r->nr_accesses_bp / 10000,
	 *		DAMON_MAX_SUBSCORE, damon_max_nr_accesses(&c->attrs));
	 * typeof(x) is unsigned int in both: no product can wrap.
	 */
	if (freq != HS_FREQ_RAW)
		return hs_mult_frac(count, 100u, max_nr);
	/* unsigned int product, wraps above 42,949,672 accesses */
	return count * 100u / max_nr;
}

/* The count the profile's frequency line divides. */
static __always_inline uint32_t hs_count_of(const struct hs_components *c,
					    const struct hs_input *in,
					    const struct hs_trace *t)
{
	if (c->freq == HS_FREQ_MVSUM)
		return t->mvsum;
	if (c->freq == HS_FREQ_BP)
		return hs_bp_count(in->nr_accesses_bp);
	return in->nr_accesses;
}

static __always_inline bool hs_freq_subscore(const struct hs_components *c,
					     const struct hs_input *in,
					     struct hs_trace *t,
					     enum hs_div0_site *site)
{
	uint32_t fs;

	/* mult_frac() evaluates its first argument first: mvsum traps first */
	if (c->freq == HS_FREQ_MVSUM && !hs_mvsum(in, t, site))
		return false;
	if (!hs_divisor_with(c->divisor, in, &t->max_nr, site))
		return false;
	if (!t->max_nr) {
		*site = HS_DIV0_MAX_NR;
		return false;
	}
	fs = hs_freq_of_count(c->freq, hs_count_of(c, in, t), t->max_nr);
	t->freq_subscore = hs_s32(fs);
	return true;
}

/*
 * age_in_sec and age_in_log of @age aggregation intervals: the unsigned long
 * product wraps mod 2^64 and is stored in an unsigned int.
 */
static __always_inline int hs_age_log_of(const struct hs_components *c,
					 uint32_t age, unsigned long aggr_us,
					 struct hs_trace *t)
{
	t->age_in_sec = (unsigned int)((unsigned long)age * aggr_us /
				       1000000UL);
	return hs_age_in_log_with(c->agelog, c->fls, t->age_in_sec);
}

/**
 * hs_hot_tail() - damon_hot_score() from freq_subscore and age_in_log on:
 * the part that depends on nothing else once the weights are fixed.
 * @c:		the components (only @c->clamp is read).
 * @fw:		weight_nr_accesses.
 * @aw:		weight_age.
 * @freq_subscore: as the kernel's int local.
 * @age_in_log:	0..32.
 * @t:		receives the intermediates from age_log_scaled on.
 *
 * Shared by the model and the prepared scorer's table (fast.c), so that
 * the two cannot compute the rest of the score differently.
 *
 * Return: the score, before any status is derived from it.
 */
static __always_inline int hs_hot_tail(const struct hs_components *c,
				       uint32_t fw, uint32_t aw,
				       int freq_subscore, int age_in_log,
				       struct hs_trace *t)
{
	int hot;

	/* never accessed: older means colder */
	t->age_log_scaled = freq_subscore == 0 ? -age_in_log : age_in_log;
	t->age_log_scaled += HS_DAMON_MAX_AGE_IN_LOG;
	t->age_subscore = t->age_log_scaled * HS_DAMON_MAX_SUBSCORE /
		HS_DAMON_MAX_AGE_IN_LOG / 2;

	/* unsigned weights make the weighted sum an unsigned int */
	t->weighted = hs_s32(fw * (uint32_t)freq_subscore +
			     aw * (uint32_t)t->age_subscore);
	hot = t->weighted;
	if (fw + aw)	/* int /= unsigned: an unsigned division */
		hot = hs_s32((uint32_t)hot / (fw + aw));
	t->averaged = hot;
	/* int * 99 wraps under -fno-strict-overflow; / 100 truncates to 0 */
	hot = hs_s32((uint32_t)hot * (uint32_t)HS_DAMOS_MAX_SCORE) /
		HS_DAMON_MAX_SUBSCORE;
	t->scaled = hot;
	if (c->clamp == HS_CLAMP_0_99)
		hot = hot > HS_DAMOS_MAX_SCORE ? HS_DAMOS_MAX_SCORE :
			(hot < 0 ? 0 : hot);
	return hot;
}

/* hot, damon_cold_score() and the status of a score. */
static __always_inline struct hs_result hs_result_of(int hot)
{
	struct hs_result res = { hot, 0, HS_OK, HS_DIV0_NONE };

	res.cold = hs_s32((uint32_t)HS_DAMOS_MAX_SCORE - (uint32_t)hot);
	if (hot < 0 || hot > HS_DAMOS_MAX_SCORE)
		res.status = HS_OUT_OF_RANGE;
	return res;
}

/**
 * hs_hot_score_inline() - damon_hot_score() for one combination.
 * @c:		the components; pass constants to get a specialised copy.
 * @in:		the region, scheme and context values.
 * @t:		receives the intermediates.
 *
 * Return: hot, cold and status.  On HS_DIV0, hot and cold are 0 and mean
 * nothing: the kernel would have trapped.
 */
static __always_inline struct hs_result
hs_hot_score_inline(const struct hs_components *c, const struct hs_input *in,
		    struct hs_trace *t)
{
	struct hs_result res = { 0, 0, HS_OK, HS_DIV0_NONE };

	if (!hs_freq_subscore(c, in, t, &res.div0)) {
		res.status = HS_DIV0;
		return res;
	}

	t->age_in_log = hs_age_log_of(c, in->age, in->aggr_us, t);
	return hs_result_of(hs_hot_tail(c, in->weight_nr_accesses,
					in->weight_age, t->freq_subscore,
					t->age_in_log, t));
}

#endif /* HOTSCORE_SCORE_IMPL_H */
