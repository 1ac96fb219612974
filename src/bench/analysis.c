// SPDX-License-Identifier: GPL-2.0
/*
 * analysis.c - what a stream's samples say: each function's summary and
 * each variant's paired ratio to the baseline, with its interval and
 * verdict.  The CLI, an --import of the module's results and the module's
 * own log compute them here, so the same samples give the same figures
 * everywhere.  Kernel-safe: integers only, no allocation (the caller
 * gives the scratch), no 128-bit division.
 */
#include "hotscore/bench.h"
#include "hotscore/kernel.h"

/* Copy @n values to @to: no memcpy() in freestanding code. */
static void copy_u64(uint64_t *to, const uint64_t *from, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		to[i] = from[i];
}

/**
 * hs_median() - the median of @v, which is left as it is.
 * @v:		the values.
 * @n:		how many.
 * @scratch:	room for 2 * @n values.
 *
 * Return: the median; 0 without values.
 */
uint64_t hs_median(const uint64_t *v, size_t n, uint64_t *scratch)
{
	struct hs_summary s;

	copy_u64(scratch, v, n);
	hs_summarize(scratch, n, scratch + n, &s);
	return s.median;
}

/**
 * hs_summary_nonzero() - the summary of a function's per-call samples,
 * leaving out samples of 0.  The engine clamps a 2N - N difference of 0
 * or less to 0: such a sample says that noise outweighed N calls, not what
 * a call costs (no call costs nothing).  It is left out of the median, the
 * minimum and every other statistic, as hs_paired_ratio() leaves a round
 * of 0 out of the ratios.
 * @v:		the samples.
 * @n:		how many.
 * @scratch:	room for 2 * @n values.
 * @out:	the summary of the samples above 0.
 *
 * Return: how many samples were 0.
 */
size_t hs_summary_nonzero(const uint64_t *v, size_t n, uint64_t *scratch,
			  struct hs_summary *out)
{
	size_t i, m = 0;

	for (i = 0; i < n; i++)
		if (v[i])
			scratch[m++] = v[i];
	hs_summarize(scratch, m, scratch + n, out);
	return n - m;
}

/**
 * hs_paired_ratio() - a function against the baseline, round by round.
 * In each round both ran the same number of times, interleaved (A B B A);
 * the ratio of their summed times is one observation, the median of the
 * rounds' ratios the estimate, and a bootstrap of the rounds its 95 %
 * interval.  A round where any of the four samples measured nothing (0) is
 * no observation.
 * @base:	the baseline's samples, two a round.
 * @fn:		the function's, in the same rounds.
 * @nr:		samples of each (2 x rounds).
 * @seed:	the bootstrap's seed.
 * @scratch:	room for HS_PAIRED_SCRATCH(@nr) values.
 * @out:	the ratio (baseline time / function time, in ppm: above
 *		HS_PPM the function is faster), interval, rounds and verdict.
 */
void hs_paired_ratio(const uint64_t *base, const uint64_t *fn, size_t nr,
		     uint64_t seed, uint64_t *scratch, struct hs_paired *out)
{
	size_t rounds = nr / 2, k, n = 0;
	uint64_t *ratio = scratch, *tmp = scratch + rounds;
	uint64_t *meds = tmp + 2 * rounds;

	for (k = 0; k < rounds; k++) {
		uint64_t tb = base[2 * k] + base[2 * k + 1];
		uint64_t tv = fn[2 * k] + fn[2 * k + 1];

		if (base[2 * k] && base[2 * k + 1] && fn[2 * k] &&
		    fn[2 * k + 1])
			ratio[n++] = hs_mult_frac(tb, HS_PPM, tv);
	}
	out->rounds = n;
	out->ratio = n ? hs_median(ratio, n, tmp) : 0;
	out->ci_low = out->ci_high = 0;
	out->verdict = HS_UNDECIDED;
	if (n < HS_MIN_ROUNDS)
		return;
	hs_bootstrap_median_ci(ratio, n, HS_BOOTSTRAP_ROUNDS, seed, tmp, meds,
			       &out->ci_low, &out->ci_high);
	out->verdict = hs_verdict(out->ratio, out->ci_low, out->ci_high,
				  HS_NOISE_BAND_PPM);
}
