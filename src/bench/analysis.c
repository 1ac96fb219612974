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

/*
 * Two levels of replication.  Round ratios inside one process are not
 * independent: they share the process's state (a branch predictor that
 * has or has not learnt the pool, the frequency it settled at, where ASLR
 * put the code).  So the unit the intervals are over is the block: an
 * invocation of `hotscore bench` (or a module's run).  A cell, one (block,
 * placement), has the median of its rounds' ratios as its value.
 * Placements are a fixed factor: a re-run of one binary keeps them, so a
 * block's value is the geometric mean over its placements (the mean of
 * their logs, symmetric when baseline and variant swap), and their spread
 * is reported on its own, as the layout sensitivity.
 */

/* The integer square root of @x (Newton from above). */
static uint64_t isqrt(uint64_t x)
{
	uint64_t r, y;

	if (x < 2)
		return x;
	r = x / 2 + 1;		/* above sqrt(x); r + x / r cannot wrap */
	y = (r + x / r) / 2;
	while (y < r) {
		r = y;
		y = (r + x / r) / 2;
	}
	return r;
}

/* @x - @y squared, for values that may be in either order. */
static uint64_t sq_diff(uint64_t x, uint64_t y)
{
	uint64_t d = x > y ? x - y : y - x;

	return d * d;
}

/* (@x - @y)^2 of two logs, saturated at 2^62 (a factor of 2^128 apart). */
static uint64_t sq_log(int64_t x, int64_t y)
{
	uint64_t d = x > y ? (uint64_t)(x - y) : (uint64_t)(y - x);

	return d < (1ULL << 31) ? d * d : 1ULL << 62;
}

/* @a + @b, saturated. */
static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a + b < a ? ~0ULL : a + b;
}

/**
 * hs_log2_fixed() - log2(@x) in HS_LOG_ONE units: the integer part from
 * the top bit, the 24 bits of the fraction by squaring the mantissa (Q30)
 * and reading off each doubling.  Within 2^-22 of the exact value.
 * @x:	above 0 (0 gives 0).
 *
 * Return: the logarithm.
 */
int64_t hs_log2_fixed(uint64_t x)
{
	int k = hs_fls64(x) - 1;
	uint64_t z;
	int64_t r;
	int i;

	if (!x)
		return 0;
	z = k >= 30 ? x >> (k - 30) : x << (30 - k);
	r = (int64_t)k * HS_LOG_ONE;
	for (i = 23; i >= 0; i--) {
		z = z * z >> 30;	/* z < 2^31: no wrap */
		if (z >= 1ULL << 31) {
			z >>= 1;
			r += 1LL << i;
		}
	}
	return r;
}

/**
 * hs_exp2_ppm() - HS_PPM x 2^(@l / HS_LOG_ONE), the inverse of a ratio's
 * logarithm: 2^fraction as the product of 2^(2^-k) for its set bits (each
 * the square root of the one before, Q30).
 * @l:	the logarithm, HS_LOG_ONE units.
 *
 * Return: the ratio, ppm; saturated above 2^40 x HS_PPM, 0 far below.
 */
uint64_t hs_exp2_ppm(int64_t l)
{
	int64_t n = l >= 0 ? l / HS_LOG_ONE :
		    -((-l + HS_LOG_ONE - 1) / HS_LOG_ONE);
	uint64_t f = (uint64_t)(l - n * HS_LOG_ONE);
	uint64_t m = 1ULL << 30, c = isqrt(1ULL << 61);	/* sqrt(2), Q30 */
	int i;

	for (i = 23; i >= 0; i--) {
		if (f & (1ULL << i))
			m = m * c >> 30;	/* both below 2^31 */
		c = isqrt(c << 30);
	}
	m *= HS_PPM;				/* below 2^51 */
	if (n >= 0)
		return n > 40 ? ~0ULL : ((m + (1ULL << 29)) >> 30) << n;
	if (30 - n >= 64)
		return 0;
	return (m + (1ULL << (29 - n))) >> (30 - n);
}

/* A ratio's logarithm: log2(@ppm / HS_PPM). */
static int64_t log_ratio(uint64_t ppm)
{
	return hs_log2_fixed(ppm) - hs_log2_fixed(HS_PPM);
}

/*
 * One round's observations of a cell: the ratio of summed times (as
 * hs_paired_ratio() has it) and the net ratio, each call's empty-call
 * overhead taken out first (each side's own: @eb the baseline's, @ef the
 * function's).  Samples are per unit (a batch's region); the empty call's
 * are per call, so a unit carries 1/@units of it.  0: none.
 */
static uint64_t round_ratio(const uint64_t *b, const uint64_t *f)
{
	if (!b[0] || !b[1] || !f[0] || !f[1])
		return 0;
	return hs_mult_frac(b[0] + b[1], HS_PPM, f[0] + f[1]);
}

static uint64_t round_net(const uint64_t *b, const uint64_t *f,
			  const uint64_t *eb, const uint64_t *ef,
			  uint64_t ub, uint64_t uf)
{
	uint64_t tb = (b[0] + b[1]) * ub, tf = (f[0] + f[1]) * uf;
	uint64_t teb = eb[0] + eb[1], tef = ef[0] + ef[1];

	if (!round_ratio(b, f) || !eb[0] || !eb[1] || !ef[0] || !ef[1] ||
	    tb <= teb || tf <= tef)
		return 0;
	return hs_mult_frac((tb - teb) * uf, HS_PPM, (tf - tef) * ub);
}

/*
 * The median of a cell's round observations (@net: the net ratios) into
 * *@value; their variance, ppm^2, into *@var, robustly: (1.4826 MAD)^2,
 * so that one round an interrupt hit does not pass for the rounds'
 * spread.  Return: how many rounds observed something.
 */
static size_t cell_value(const struct hs_cells *c, size_t cell, bool net,
			 uint64_t *obs, uint64_t *tmp, uint64_t *value,
			 uint64_t *var)
{
	size_t off = cell * c->rounds * 2, k, n = 0;
	uint64_t ub = c->base_units ? c->base_units : 1;
	uint64_t uf = c->fn_units ? c->fn_units : 1, mad;
	uint64_t x;

	for (k = 0; k < c->rounds; k++) {
		const uint64_t *b = c->base + off + 2 * k;
		const uint64_t *f = c->fn + off + 2 * k;

		x = net ? round_net(b, f, (c->base_empty ? c->base_empty :
					   c->empty) + off + 2 * k,
				    c->empty + off + 2 * k, ub, uf) :
			  round_ratio(b, f);
		if (x)
			obs[n++] = x;
	}
	*value = n ? hs_median(obs, n, tmp) : 0;
	for (k = 0; k < n; k++)
		obs[k] = obs[k] > *value ? obs[k] - *value : *value - obs[k];
	mad = n ? hs_median(obs, n, tmp) * 14826 / 10000 : 0;
	*var = mad * mad;
	return n;
}

/*
 * Student's t, 97.5th percentile, x 1000, by degrees of freedom (1-30);
 * beyond, it approaches 1.960.
 */
static const uint16_t t975[31] = {
	0, 12706, 4303, 3182, 2776, 2571, 2447, 2365, 2306, 2262, 2228,
	2201, 2179, 2160, 2145, 2131, 2120, 2110, 2101, 2093, 2086, 2080,
	2074, 2069, 2064, 2060, 2056, 2052, 2048, 2045, 2042,
};

/*
 * Student's t, 97.5th percentile, x 1000, for @df degrees of freedom:
 * the table to 30, then the Cornish-Fisher expansion about the normal
 * 1.95996 to its 1/df^2 term, within 0.1 % of the exact value above 30
 * (2.021 at 40, 2.000 at 60, 1.980 at 120), where fixed bands were up to
 * 2 % narrow.
 */
static uint64_t t975_of(size_t df)
{
	if (df <= 30)
		return df ? t975[df] : 1960;
	return 1960 + (2372300 + 2822400 / df) / df / 1000;
}

/*
 * A trimmed mean of logs and its squared standard error (Tukey and
 * McLaughlin's, as Wilcox gives it): the winsorized variance x n / h^2,
 * with h - 1 degrees of freedom, h the values kept.  10 % trimmed: one
 * value off each end of 10, which is as efficient as the mean on normal
 * noise (about 97 %) and unmoved by a block in a state of its own, where a
 * median keeps only 64 % and is at its worst between two states.
 */
struct trimmed {
	int64_t mean;
	uint64_t var;
	size_t df;
};

/* @v + 2^63: signed logs in the order hs_sort_u64() sorts. */
static uint64_t bias(int64_t v)
{
	return (uint64_t)v + (1ULL << 63);
}

static int64_t unbias(uint64_t v)
{
	return (int64_t)(v - (1ULL << 63));
}

/* @u's (@n > 0) trimmed mean into @out; @sorted: @u biased and sorted. */
static void trimmed_mean(const int64_t *u, size_t n, uint64_t *sorted,
			 struct trimmed *out)
{
	size_t g = n / 10, h = n - 2 * g, i;
	int64_t sum = 0, wsum = 0, w, lo, hi, wmean;
	uint64_t ss = 0;

	for (i = 0; i < n; i++)
		sorted[i] = bias(u[i]);
	hs_sort_u64(sorted, n);
	for (i = g; i < n - g; i++)
		sum += unbias(sorted[i]);
	out->mean = sum / (int64_t)h;
	lo = unbias(sorted[g]);
	hi = unbias(sorted[n - g - 1]);
	for (i = 0; i < n; i++)
		wsum += u[i] < lo ? lo : u[i] > hi ? hi : u[i];
	wmean = wsum / (int64_t)n;
	for (i = 0; i < n; i++) {
		w = u[i] < lo ? lo : u[i] > hi ? hi : u[i];
		ss = add_sat(ss, sq_log(w, wmean));
	}
	out->var = n > 1 ? ss / (n - 1) * n / (h * h) : 0;
	out->df = h > 1 ? h - 1 : 0;
}

/*
 * The von Neumann ratio of @u (@n values in time order), x 1000: the mean
 * squared successive difference over twice the variance.  About 1000 for
 * values that do not depend on when they were measured; well below, for
 * values that drift over the run.
 */
static unsigned int von_neumann(const int64_t *u, size_t n)
{
	uint64_t d2 = 0, s2 = 0;
	int64_t sum = 0, mean;
	size_t i;

	for (i = 0; i < n; i++)
		sum += u[i];
	mean = sum / (int64_t)n;
	for (i = 0; i < n; i++) {
		s2 = add_sat(s2, sq_log(u[i], mean));
		if (i)
			d2 = add_sat(d2, sq_log(u[i], u[i - 1]));
	}
	if (!s2)
		return 1000;
	d2 = hs_mult_frac(d2, 500ULL, s2);
	/* at least 1: 0 says "too few blocks" */
	return (unsigned int)(d2 < 1 ? 1 : d2 < 100000 ? d2 : 100000);
}

/*
 * Below this von Neumann ratio (x 1000) @n values drift, one-sided 5 %:
 * the ratio is about normal with mean 1 and variance (n - 2) / (n^2 - 1).
 */
static unsigned int von_neumann_limit(size_t n)
{
	return 1000 - (unsigned int)(1645 * isqrt(1000000 * (n - 2) /
						   (n * n - 1)) / 1000);
}

/* The states' threshold: 6 pooled SDs apart (squared). */
#define STATES_SD2 36

/*
 * Two states among @n sorted (biased) logs: the split into a lower and an
 * upper group, 2 or more each, whose means lie furthest apart in units of
 * their pooled standard deviation; two states when that is 6 or more and
 * the gap is wider than @half (the confidence interval's half-width).
 * Normal noise rarely splits that far apart (tests/test_cells.c counts
 * how rarely).  O(n^2): only for n up to 256.
 */
static void two_states(const uint64_t *sorted, size_t n, uint64_t half,
		       struct hs_cell_stats *out)
{
	uint64_t best = 0, ss, score, d2;
	size_t k, i, at = 0;
	int64_t m[2], best_m[2] = { 0, 0 }, sum;

	out->state_n[0] = out->state_n[1] = 0;
	if (n < 6 || n > 256)
		return;
	for (k = 2; k + 2 <= n; k++) {
		for (sum = 0, i = 0; i < k; i++)
			sum += unbias(sorted[i]);
		m[0] = sum / (int64_t)k;
		for (sum = 0, i = k; i < n; i++)
			sum += unbias(sorted[i]);
		m[1] = sum / (int64_t)(n - k);
		if ((uint64_t)(m[1] - m[0]) <= half)
			continue;
		for (ss = 0, i = 0; i < n; i++)
			ss = add_sat(ss, sq_log(unbias(sorted[i]),
						m[i >= k]));
		d2 = sq_log(m[1], m[0]);
		/* d^2 / (ss / (n - 2)), x 1000 */
		score = ss ? hs_mult_frac(d2, 1000ULL * (n - 2), ss) : ~0ULL;
		if (score > best) {
			best = score;
			at = k;
			best_m[0] = m[0];
			best_m[1] = m[1];
		}
	}
	if (best < STATES_SD2 * 1000)
		return;
	out->state_n[0] = at;
	out->state_n[1] = n - at;
	out->state[0] = hs_exp2_ppm(best_m[0]);
	out->state[1] = hs_exp2_ppm(best_m[1]);
}

/*
 * The layout sensitivity: each placement's geometric mean over the blocks
 * (the columns of @l, the cells' logs, where @y saw something), their
 * lowest, highest and standard deviation (ppm of the ratio: ln 2 x the
 * logs' SD).  @col: room for @nc values.
 */
static void layout(const int64_t *l, const uint64_t *y, size_t nr,
		   size_t nc, int64_t *col, struct hs_cell_stats *out)
{
	int64_t sum, lo = 0, hi = 0;
	uint64_t ss = 0;
	size_t i, j, n, cols = 0;

	out->layout_low = out->layout_high = out->layout_sd = 0;
	for (j = 0; j < nc; j++) {
		for (sum = 0, n = 0, i = 0; i < nr; i++)
			if (y[i * nc + j]) {
				sum += l[i * nc + j];
				n++;
			}
		if (!n)
			continue;
		col[cols] = sum / (int64_t)n;
		lo = !cols || col[cols] < lo ? col[cols] : lo;
		hi = !cols || col[cols] > hi ? col[cols] : hi;
		cols++;
	}
	if (cols < 2)
		return;
	for (sum = 0, j = 0; j < cols; j++)
		sum += col[j];
	for (j = 0; j < cols; j++)
		ss = add_sat(ss, sq_log(col[j], sum / (int64_t)cols));
	out->layout_low = hs_exp2_ppm(lo);
	out->layout_high = hs_exp2_ppm(hi);
	out->layout_sd = isqrt(ss / (cols - 1)) * 693147 / HS_LOG_ONE;
}

/*
 * The units the intervals are over, as logs, into @u: with several
 * blocks, each block's mean over the placements that saw something in
 * every block (a fixed factor must be the same in every unit; if none
 * did, over those that saw something in it); with one block, its
 * placements.  Return: how many.
 */
static size_t units_of(const int64_t *l, const uint64_t *y, size_t nr,
		       size_t nc, uint64_t *kept, int64_t *u)
{
	size_t i, j, n = 0, nk = 0, m;
	int64_t sum;

	for (j = 0; j < nc; j++) {
		for (kept[j] = 1, i = 0; i < nr; i++)
			kept[j] &= y[i * nc + j] != 0;
		nk += kept[j];
	}
	if (nr == 1) {
		for (j = 0; j < nc; j++)
			if (y[j])
				u[n++] = l[j];
		return n;
	}
	for (i = 0; i < nr; i++) {
		for (sum = 0, m = 0, j = 0; j < nc; j++)
			if (y[i * nc + j] && (kept[j] || !nk)) {
				sum += l[i * nc + j];
				m++;
			}
		if (m)
			u[n++] = sum / (int64_t)m;
	}
	return n;
}

/* @mean -+ t x sqrt(@var) (logs, t x 1000) as the ratios @lo, @hi. */
static void interval_of(int64_t mean, uint64_t var, uint64_t t,
			uint64_t *lo, uint64_t *hi)
{
	int64_t half = (int64_t)(isqrt(var) * t / 1000);

	*lo = hs_exp2_ppm(mean - half);
	*hi = hs_exp2_ppm(mean + half);
}

/*
 * The estimate of the cells @y (ppm; 0: a cell that saw nothing) into
 * @e, and with @stats (the ratio's, not the net ratio's) what the report
 * says about it.  The confidence interval is the trimmed mean's,
 * t(0.975, df) standard errors each way; a re-run's estimate has an error
 * of its own, as large, so the re-run interval is sqrt(2) times as wide.
 * Blocks that drift over the run (their von Neumann ratio below its 5 %
 * limit) widen both, as an AR(1) would; @c->extra_var, a variance no
 * block shows, is added to both, over blocks only.  @scratch: room for
 * nr x nc + 2 x max(nr, nc) + 2 x nc values.
 */
static void estimate(const struct hs_cells *c, const uint64_t *y,
		     uint64_t *scratch, struct hs_estimate *e,
		     struct hs_cell_stats *stats)
{
	size_t nr = c->blocks, nc = c->placements, cells = nr * nc, i, n;
	size_t most = nr > nc ? nr : nc;
	int64_t *l = (int64_t *)scratch, *u = l + cells;
	uint64_t *sorted = (uint64_t *)(u + most), *kept = sorted + most;
	uint64_t var, t;
	unsigned int vn = 0;
	struct trimmed tm;

	for (i = 0; i < cells; i++)
		l[i] = y[i] ? log_ratio(y[i]) : 0;
	n = units_of(l, y, nr, nc, kept, u);
	*e = (struct hs_estimate){ 0 };
	if (!n)
		return;
	trimmed_mean(u, n, sorted, &tm);
	e->value = hs_exp2_ppm(tm.mean);
	var = tm.var;
	if (nr > 1 && n >= 8)
		vn = von_neumann(u, n);
	/*
	 * Blocks that drift: an AR(1) with lag-1 correlation r has the
	 * variance of its mean (1 + r) / (1 - r) times the independent
	 * one's, and the von Neumann ratio is about 1 - r, so the factor is
	 * (2 - vn) / vn (vn at least 0.1: 19 times at most).
	 */
	if (vn && vn < von_neumann_limit(n))
		var = hs_mult_frac(var, 2000ULL - (vn > 100 ? vn : 100),
				   (uint64_t)(vn > 100 ? vn : 100));
	t = t975_of(tm.df);
	if (stats) {
		stats->log_value = tm.mean;
		stats->log_var = var;
		stats->units = n;
		stats->df = tm.df;
		stats->vn = vn;
		stats->trend = vn && vn < von_neumann_limit(n);
		layout(l, y, nr, nc, (int64_t *)kept, stats);
	}
	if (n < 2)
		return;
	if (nr > 1)
		var = add_sat(var, c->extra_var);
	interval_of(tm.mean, var, t, &e->low, &e->high);
	interval_of(tm.mean, add_sat(var, var), t, &e->rerun_low,
		    &e->rerun_high);
	if (stats)
		two_states(sorted, n, isqrt(var) * t / 1000, stats);
}

/* The mean of each of @nr rows of @nc cells of @y (0: none), into @row. */
static void row_means(const uint64_t *y, size_t nr, size_t nc, uint64_t *row)
{
	uint64_t sum;
	size_t i, j, n;

	for (i = 0; i < nr; i++) {
		for (sum = 0, n = 0, j = 0; j < nc; j++) {
			sum += y[i * nc + j];
			n += y[i * nc + j] != 0;
		}
		row[i] = n ? sum / n : 0;
	}
}

/*
 * The variance components of the cells @y (nr x nc), ppm^2, by the method
 * of moments of a two-way layout without replication: rows (blocks) and
 * columns (placements) against the residual; @within is a cell value's
 * own variance from its rounds, taken out of whatever holds it.
 */
static void components(const uint64_t *y, size_t nr, size_t nc,
		       uint64_t mean, uint64_t within, uint64_t *scratch,
		       struct hs_cell_stats *out)
{
	uint64_t *row = scratch, *col = scratch + nr, ms_row = 0, ms_col = 0;
	uint64_t ms_res = 0, sum;
	size_t i, j;

	row_means(y, nr, nc, row);
	for (j = 0; j < nc; j++) {
		for (sum = 0, i = 0; i < nr; i++)
			sum += y[i * nc + j];
		col[j] = sum / nr;
	}
	for (i = 0; nr > 1 && i < nr; i++)
		ms_row += nc * sq_diff(row[i], mean) / (nr - 1);
	for (j = 0; nc > 1 && j < nc; j++)
		ms_col += nr * sq_diff(col[j], mean) / (nc - 1);
	for (i = 0; nr > 1 && nc > 1 && i < nr; i++)
		for (j = 0; j < nc; j++)
			ms_res += sq_diff(y[i * nc + j] + mean,
					  row[i] + col[j]) /
				  ((nr - 1) * (nc - 1));
	if (nr == 1 || nc == 1)
		ms_res = within;	/* no residual apart from the rounds */
	out->var_within = within;
	out->var_residual = ms_res > within ? ms_res - within : 0;
	out->var_block = ms_row > ms_res ? (ms_row - ms_res) / nc : 0;
	out->var_placement = ms_col > ms_res ? (ms_col - ms_res) / nr : 0;
}

/*
 * Blocks unlike the rest: a block whose mean lies more than 3 standard
 * deviations of the other blocks' means from theirs (a state the others
 * were not in), and outside the re-run interval as well.  Needs 4 blocks.
 */
static void flag_blocks(const uint64_t *y, size_t nr, size_t nc,
			const struct hs_estimate *e, uint64_t *scratch,
			struct hs_cell_stats *out)
{
	uint64_t *row = scratch, sum, m, ss;
	size_t i, j;

	out->nr_outliers = 0;
	out->outliers = 0;
	if (nr < 4)
		return;
	row_means(y, nr, nc, row);
	for (i = 0; i < nr; i++) {
		for (sum = 0, j = 0; j < nr; j++)
			sum += j == i ? 0 : row[j];
		m = sum / (nr - 1);
		for (ss = 0, j = 0; j < nr; j++)
			ss += j == i ? 0 : sq_diff(row[j], m);
		if (sq_diff(row[i], m) <= 9 * (ss / (nr - 2)) ||
		    (row[i] >= e->rerun_low && row[i] <= e->rerun_high))
			continue;
		out->nr_outliers++;
		if (i < 64)
			out->outliers |= 1ULL << i;
	}
}

/*
 * Every cell's value into @y, 0 for a cell where no round observed
 * anything (every sample clamped, or no time left above the empty call's
 * for a net ratio); the pooled (robust) variance of a round's
 * observation, ppm^2, into *@round_var.  Return: how many cells saw
 * something.
 */
static size_t cell_values(const struct hs_cells *c, bool net, uint64_t *y,
			  uint64_t *scratch, uint64_t *round_var,
			  size_t *rounds)
{
	size_t cells = c->blocks * c->placements, i, n, df = 0, seen = 0;
	uint64_t var, sum = 0;

	*rounds = 0;
	for (i = 0; i < cells; i++) {
		n = cell_value(c, i, net, scratch, scratch + c->rounds,
			       &y[i], &var);
		if (!n)
			continue;
		seen++;
		*rounds += n;
		sum += var * (n - 1);	/* weighted as degrees of freedom */
		df += n - 1;
	}
	*round_var = df ? sum / df : 0;
	return seen;
}

/**
 * hs_cells_ratio() - a function against the baseline over blocks and
 * placements: the ratio and the net ratio, each with the confidence
 * interval of the true ratio and the interval a re-run's estimate lands
 * in, the layout sensitivity, the time structure and states of the
 * blocks, the variance components and the blocks unlike the rest.  With
 * one cell (one block, one placement) the interval is hs_paired_ratio()'s,
 * of the rounds, there is no re-run interval, and @out->within_process
 * says so.
 * @c:		the samples.
 * @seed:	the bootstrap's seed (one cell's).
 * @scratch:	room for HS_CELLS_SCRATCH(blocks, placements, rounds), and
 *		HS_PAIRED_SCRATCH(2 x rounds) for one cell.
 * @out:	the estimates, ppm (above HS_PPM the function is faster).
 */
void hs_cells_ratio(const struct hs_cells *c, uint64_t seed,
		    uint64_t *scratch, struct hs_cell_stats *out)
{
	size_t nr = c->blocks, nc = c->placements, cells = nr * nc, r, seen;
	uint64_t *rest = scratch + 2 * cells, *y, mean, sum, rv;
	unsigned int pass;
	size_t i;

	*out = (struct hs_cell_stats){ .verdict = HS_UNDECIDED };
	out->within_process = cells == 1;
	for (pass = 0; pass < 2; pass++) {
		bool net = pass == 1;
		struct hs_estimate *e = net ? &out->net : &out->ratio;

		y = scratch + pass * cells;

		seen = cell_values(c, net, y, rest, &rv, &r);
		if (!seen)
			continue;
		for (sum = 0, i = 0; i < cells; i++)
			sum += y[i];
		mean = sum / seen;	/* the components' */
		if (!net) {
			out->rounds = r;
			out->cells = seen;
			out->var_round = rv;
		}
		if (!net && seen == cells)	/* of a whole grid only */
			/* a median of r rounds varies pi/2 times as a mean */
			components(y, nr, nc, mean, rv * 157 / 100 /
				   (r / cells ? r / cells : 1), rest, out);
		if (out->within_process) {
			struct hs_paired p;

			if (net)	/* no interval of the net ratio alone */
				*e = (struct hs_estimate){ .value = y[0] };
			else {
				hs_paired_ratio(c->base, c->fn, 2 * c->rounds,
						seed, rest, &p);
				*e = (struct hs_estimate){ p.ratio, p.ci_low,
							   p.ci_high, 0, 0 };
			}
			continue;
		}
		estimate(c, y, rest, e, net ? NULL : out);
	}
	if (!out->ratio.value)
		return;
	flag_blocks(scratch, nr, nc, &out->ratio, rest, out);
	/*
	 * A verdict needs HS_MIN_ROUNDS of the units the interval is over:
	 * rounds in one cell, else blocks (placements when there is one
	 * block), not cells: 2 invocations of 4 placements are 8 cells but
	 * only 2 draws of what a re-run changes.
	 */
	if (out->within_process ? out->rounds >= HS_MIN_ROUNDS :
				  out->units >= HS_MIN_ROUNDS)
		out->verdict = hs_verdict(out->ratio.value, out->ratio.low,
					  out->ratio.high, HS_NOISE_BAND_PPM);
}

/**
 * hs_excess_var() - the variance that an A/A pair (the baseline against
 * itself, whose true ratio is 1) shows beyond its own standard error: the
 * run-level noise that a model of the blocks misses.  Only a pair whose
 * confidence interval excludes 1 counts (a test at 5 %), so that noise
 * alone rarely widens anything; its excess is its log's square less its
 * variance.
 * @aa:		the A/A pairs of one mode (one per distribution).
 * @n:		how many.
 *
 * Return: their mean excess, HS_LOG_ONE^2 units (for struct hs_cells's
 * extra_var); 0 when none excludes 1.
 */
uint64_t hs_excess_var(const struct hs_cell_stats *aa, size_t n)
{
	uint64_t sum = 0, sq;
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (!aa[i].ratio.value || aa[i].units < 2)
			continue;
		k++;
		if (aa[i].ratio.low <= HS_PPM && aa[i].ratio.high >= HS_PPM)
			continue;
		sq = sq_log(aa[i].log_value, 0);
		if (sq > aa[i].log_var)
			sum = add_sat(sum, sq - aa[i].log_var);
	}
	return k ? sum / k : 0;
}

/**
 * hs_kj_rounds() - rounds per block that make the estimate most precise
 * for its cost (Kalibera and Jones, "Rigorous benchmarking in reasonable
 * time", 2013): sqrt(block cost / round cost x round variance / block
 * variance), at least 1.  A block that costs much (a new process, its
 * warm-up) or varies little against its rounds wants many rounds; one
 * that varies much wants more blocks instead.
 * @block_cost:	what a block costs beyond its rounds (any unit).
 * @round_cost:	what a round costs (the same unit).
 * @var_round:	a round's variance within its cell.
 * @var_block:	the block component of the variance.
 *
 * Return: the rounds; 0 when @var_block is 0 (as many as one can afford).
 */
uint64_t hs_kj_rounds(uint64_t block_cost, uint64_t round_cost,
		      uint64_t var_round, uint64_t var_block)
{
	uint64_t r, costs;

	if (!var_block || !round_cost)
		return 0;
	/* scaled by 10^4 inside the root so that small ratios keep digits */
	costs = hs_mult_frac(block_cost, 10000, round_cost);
	r = isqrt(hs_mult_frac(costs, var_round, var_block));
	return r / 100 + (r % 100 ? 1 : 0);
}

/**
 * hs_bootstrap_seed() - the seed of every bootstrap of a comparison.
 * @seed:	the user's seed (of the inputs).
 *
 * The user's seed, so that a run is reproduced whole by its command
 * line; but not the same stream of numbers as the inputs'.  The CLI,
 * bench --import and the module's log all take it from here, so the same
 * samples give the same interval everywhere.
 *
 * Return: the bootstrap's seed.
 */
uint64_t hs_bootstrap_seed(uint64_t seed)
{
	return seed ^ 0xb007;
}

/**
 * hs_comparison_key() - what tells a run's comparisons apart, as both the
 * module's log and bench --import know it: the function's name and the
 * mode (FNV-1a of the name).
 * @name:	the function's name, as the reports print it.
 * @mode:	latency or throughput.
 *
 * Return: the key, for hs_comparison_seed().
 */
uint64_t hs_comparison_key(const char *name, enum hs_bench_mode mode)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*name)
		h = (h ^ (unsigned char)*name++) * 0x100000001b3ULL;
	return h ^ (uint64_t)mode;
}

/**
 * hs_comparison_seed() - the bootstrap's seed of one comparison of a run:
 * each comparison its own stream (one stream for all made their intervals'
 * errors move together), still reproduced by the run's seed.
 * @seed:	the run's bootstrap seed (hs_bootstrap_seed()).
 * @k:		the comparison's key (hs_comparison_key()).
 *
 * Return: the seed (splitmix64's finaliser of @seed + @k + 1 times its
 * step).
 */
uint64_t hs_comparison_seed(uint64_t seed, uint64_t k)
{
	uint64_t z = seed + (k + 1) * 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/**
 * hs_interval_choose() - which interval a comparison's ratios get.
 * @iv:		receives the choice.
 * @blocks:	blocks of the samples (invocations, or a module's runs).
 * @placements:	code placements.
 * @what:	what the blocks are.
 * @seed:	the bootstrap's seed (one cell's), from the run's.
 */
void hs_interval_choose(struct hs_interval *iv, size_t blocks,
			size_t placements, enum hs_blocks what, uint64_t seed)
{
	if (blocks * placements == 1)
		iv->kind = HS_IV_ROUNDS;
	else if (what == HS_BLOCKS_MODULE_RUNS)
		iv->kind = HS_IV_MODULE_RUNS;
	else if (blocks == 1)
		iv->kind = HS_IV_PLACEMENTS;
	else if (what == HS_BLOCKS_IN_PROCESS)
		iv->kind = HS_IV_BLOCKS;
	else
		iv->kind = HS_IV_RERUN;
	iv->seed = hs_bootstrap_seed(seed);
}

/**
 * hs_interval_name() - what an interval is over, in a few words (the
 * reports' summary line and their JSON).
 * @kind:	the interval.
 *
 * Return: a constant string.
 */
const char *hs_interval_name(enum hs_interval_kind kind)
{
	switch (kind) {
	case HS_IV_ROUNDS:
		return "within one process (its rounds resampled)";
	case HS_IV_PLACEMENTS:
		return "within one process (over its placements)";
	case HS_IV_MODULE_RUNS:
		return "over the module's runs (time blocks of one load)";
	case HS_IV_BLOCKS:
		return "over time blocks of one process, placements fixed";
	case HS_IV_RERUN:
		break;
	}
	return "over invocations, placements a fixed factor";
}

/* The logs of @v's values above 0 into @u.  Return: how many. */
static size_t logs_of(const uint64_t *v, size_t n, int64_t *u)
{
	size_t i, m = 0;

	for (i = 0; i < n; i++)
		if (v[i])
			u[m++] = hs_log2_fixed(v[i]);
	return m;
}

/**
 * hs_runs_ratio() - one function's cost in two runs, set against each
 * other (`hotscore bench compare`): before / after, from each run's
 * invocations.
 * @a:		the first run's values, one an invocation (its median cost).
 * @na:		how many.
 * @b:		the second run's.
 * @nb:		how many.
 * @scratch:	HS_RUNS_SCRATCH(@na, @nb) values.
 * @out:	receives the ratio of the runs' 10 % trimmed geometric means,
 *		ppm, and its 95 % confidence interval: each run's standard
 *		error (Tukey-McLaughlin), added, with Student's t at the
 *		fewer degrees of freedom; no interval below HS_MIN_ROUNDS
 *		invocations in either run.  What drifts between the runs
 *		and not within them is in neither's error: the report says
 *		so.
 *
 * Return: the verdict (HS_FASTER: @b is faster), HS_UNDECIDED without an
 * interval.
 */
enum hs_verdict hs_runs_ratio(const uint64_t *a, size_t na, const uint64_t *b,
			      size_t nb, uint64_t *scratch,
			      struct hs_estimate *out)
{
	size_t most = na > nb ? na : nb;
	int64_t *u = (int64_t *)scratch;
	uint64_t *sorted = scratch + most;
	struct trimmed ta, tb;
	int64_t d;

	*out = (struct hs_estimate){ 0 };
	na = logs_of(a, na, u);
	if (!na)
		return HS_UNDECIDED;
	trimmed_mean(u, na, sorted, &ta);
	nb = logs_of(b, nb, u);
	if (!nb)
		return HS_UNDECIDED;
	trimmed_mean(u, nb, sorted, &tb);
	d = ta.mean - tb.mean;
	out->value = hs_exp2_ppm(d);
	if (na < HS_MIN_ROUNDS || nb < HS_MIN_ROUNDS)
		return HS_UNDECIDED;
	interval_of(d, add_sat(ta.var, tb.var),
		    t975_of(ta.df < tb.df ? ta.df : tb.df), &out->low,
		    &out->high);
	return hs_verdict(out->value, out->low, out->high, HS_NOISE_BAND_PPM);
}
