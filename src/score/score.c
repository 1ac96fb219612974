// SPDX-License-Identifier: GPL-2.0
/*
 * score.c - the run-time entry points of the scoring model.
 */
#include "score_impl.h"

/**
 * hs_score() - damon_hot_score() and damon_cold_score() for one input.
 * @comp:	the components to compute with.
 * @in:		the input.
 * @trace:	receives the intermediates; may be NULL.
 *
 * Return: hot, cold and status as the kernel of @comp would produce them.
 */
struct hs_result hs_score(const struct hs_components *comp,
			  const struct hs_input *in, struct hs_trace *trace)
{
	struct hs_trace local = { 0 };

	if (trace) {
		*trace = local;
		return hs_hot_score_inline(comp, in, trace);
	}
	return hs_hot_score_inline(comp, in, &local);
}

/**
 * hs_age_in_log() - the age_in_log step alone.
 * @comp:	supplies the method and the fls implementation.
 * @age_in_sec:	the region's age in seconds, as the kernel truncates it.
 *
 * Return: 0..32.
 */
int hs_age_in_log(const struct hs_components *comp, unsigned int age_in_sec)
{
	return hs_age_in_log_with(comp->agelog, comp->fls, age_in_sec);
}

/**
 * hs_nr_accesses_mvsum() - damon_nr_accesses_mvsum(): the moving-sum
 * estimate of a region's nr_accesses that the newest core matches access
 * patterns with.
 * @in:		sample_us, aggr_us, passed_sis, next_aggr_sis, nr_accesses
 *		and last_nr_accesses are read.
 *
 * Return: the estimate; 0 when the window length (aggr / sample) is 0,
 * where the kernel would divide by zero.
 */
unsigned int hs_nr_accesses_mvsum(const struct hs_input *in)
{
	struct hs_trace t = { 0 };
	enum hs_div0_site site = HS_DIV0_NONE;

	if (!hs_mvsum(in, &t, &site))
		return 0;
	return t.mvsum;
}
