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
 * has or has not learnt the pool, the frequency it settled at), and every
 * copy of a function shares its code placement.  So the unit a run's
 * interval resamples is the cell, one (block, placement): a block is an
 * invocation of `hotscore bench` (or a module's run), a placement one copy
 * of each timed function (HS_PLACEMENT_COPIES).  A cell's value is the
 * median of its rounds' ratios; the estimate is the mean of the cells.
 */

/* A uniform index below @n, by multiply-shift: no modulo bias. */
static size_t rand_below(uint64_t *state, size_t n)
{
	return (size_t)(((hs_stats_rand(state) >> 32) * (uint64_t)n) >> 32);
}

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
 * The estimate of @y over the rows @ri and columns @cj (a resample, or
 * every row and column once): for each placement the median over the
 * blocks, then the mean over the placements.  The median, because a block
 * now and then runs in a state of its own (an invocation whose predictors
 * or frequency settled elsewhere) and would move a mean by a tenth of its
 * difference; the mean over placements, because every placement is as
 * likely as the next in a rebuild.  @buf: room for @nr values.
 */
static uint64_t grid_estimate(const uint64_t *y, const size_t *ri,
			      const size_t *cj, size_t nr, size_t nc,
			      uint64_t *buf)
{
	uint64_t sum = 0;
	size_t i, j, n, cols = 0;

	for (j = 0; j < nc; j++) {
		for (n = 0, i = 0; i < nr; i++)
			if (y[ri[i] * nc + cj[j]])	/* 0: a cell that saw nothing */
				buf[n++] = y[ri[i] * nc + cj[j]];
		if (!n)
			continue;
		hs_sort_u64(buf, n);
		sum += hs_quantile(buf, n, 500);
		cols++;
	}
	return cols ? sum / cols : 0;
}

/* The estimate of the whole grid: grid_estimate() with every row, column. */
static uint64_t grid_all(const uint64_t *y, size_t nr, size_t nc,
			 uint64_t *scratch)
{
	size_t *ri = (size_t *)scratch, *cj = ri + nr, i;

	for (i = 0; i < nr; i++)
		ri[i] = i;
	for (i = 0; i < nc; i++)
		cj[i] = i;
	return grid_estimate(y, ri, cj, nr, nc, scratch + nr + nc);
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
 * How much a bootstrap from @n units understates a 95 % interval, x 1000:
 * its variance is (n - 1) / n of the sample's, and with few units the
 * quantile is Student's t with n - 1 degrees of freedom, not the normal
 * 1.96.  10 invocations: 1.216.
 */
static uint64_t small_sample(size_t n)
{
	if (n < 2)
		return 1000;
	return t975_of(n - 1) * isqrt(1000000 * n / (n - 1)) / 1960;
}

/*
 * A third level of replication that one run cannot sample: runs minutes
 * apart drift by @drift_ppm (a standard deviation, ppm of the ratio) as a
 * whole, whatever their invocations say.  A re-run's difference from this
 * run has that twice over, so each end of the interval moves out to
 * sqrt(d^2 + (1.96 x sqrt(2) x drift x est)^2).
 */
static void add_drift(int64_t *lo, int64_t *hi, uint64_t est,
		      uint64_t drift_ppm)
{
	uint64_t f = est / 1000 * drift_ppm / 1000 * 2772 / 1000;
	uint64_t l = (uint64_t)(*lo < 0 ? -*lo : *lo);
	uint64_t h = (uint64_t)(*hi < 0 ? -*hi : *hi);

	if (!drift_ppm)
		return;
	/* l^2 + f^2 must stay below 2^64: each below 2^31.5 */
	if (l > 0xB504F333ULL || h > 0xB504F333ULL || f > 0xB504F333ULL) {
		*lo = -(int64_t)(l + f);	/* no room to square: add */
		*hi = (int64_t)(h + f);
		return;
	}
	*lo = -(int64_t)isqrt(l * l + f * f);
	*hi = (int64_t)isqrt(h * h + f * f);
}

/*
 * The 95 % interval of a re-run's estimate: a re-run resamples blocks and
 * placements as this one did and has an error of its own, so the interval
 * is the estimate plus the 2.5th to 97.5th percentiles of the difference
 * of two independent resampled estimates (blocks and placements drawn with
 * replacement, crossed), widened by small_sample() of the blocks (of the
 * placements when there is one block).  Two draws, not one: an interval
 * for the true mean would hold only about 83 % of re-runs' estimates.
 */
static void rerun_interval(const uint64_t *y, size_t nr, size_t nc,
			   uint64_t est, uint64_t seed, uint64_t drift_ppm,
			   uint64_t *scratch, struct hs_estimate *out)
{
	size_t *ri = (size_t *)scratch, *cj = ri + nr, i;
	uint64_t *buf = scratch + nr + nc, *diff = buf + nr, state = seed;
	uint64_t a, b, widen;
	int64_t lo, hi;
	unsigned int k;

	/*
	 * a - b, signed, sorted as unsigned: offset by 2^63, which keeps the
	 * order of every difference of two values below 2^63.
	 */

	for (k = 0; k < HS_BOOTSTRAP_ROUNDS; k++) {
		for (i = 0; i < nr; i++)
			ri[i] = rand_below(&state, nr);
		for (i = 0; i < nc; i++)
			cj[i] = rand_below(&state, nc);
		a = grid_estimate(y, ri, cj, nr, nc, buf);
		for (i = 0; i < nr; i++)
			ri[i] = rand_below(&state, nr);
		for (i = 0; i < nc; i++)
			cj[i] = rand_below(&state, nc);
		b = grid_estimate(y, ri, cj, nr, nc, buf);
		diff[k] = (1ULL << 63) + a - b;
	}
	hs_sort_u64(diff, HS_BOOTSTRAP_ROUNDS);
	widen = small_sample(nr > 1 ? nr : nc);
	lo = (int64_t)(hs_quantile(diff, HS_BOOTSTRAP_ROUNDS, 25) -
		       (1ULL << 63));
	hi = (int64_t)(hs_quantile(diff, HS_BOOTSTRAP_ROUNDS, 975) -
		       (1ULL << 63));
	lo = lo * (int64_t)widen / 1000;
	hi = hi * (int64_t)widen / 1000;
	add_drift(&lo, &hi, est, drift_ppm);
	out->value = est;
	out->low = (int64_t)est + lo > 0 ? (uint64_t)((int64_t)est + lo) : 1;
	out->high = (int64_t)est + hi > 0 ? (uint64_t)((int64_t)est + hi) : 1;
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
 * were not in), and outside the printed interval as well.  Needs 4 blocks.
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
		    (row[i] >= e->low && row[i] <= e->high))
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
 * placements: the ratio and the net ratio, each with the 95 % interval a
 * re-run's estimate falls in, the variance components and the blocks
 * unlike the rest.  With one cell (one block, one placement) the
 * interval is hs_paired_ratio()'s, of the rounds, and @out->within_process
 * says so.
 * @c:		the samples.
 * @seed:	the bootstrap's seed.
 * @scratch:	room for HS_CELLS_SCRATCH(blocks, placements, rounds).
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
				*e = (struct hs_estimate){ y[0], 0, 0 };
			else {
				hs_paired_ratio(c->base, c->fn, 2 * c->rounds,
						seed, rest, &p);
				*e = (struct hs_estimate){ p.ratio, p.ci_low,
							   p.ci_high };
			}
			continue;
		}
		rerun_interval(y, nr, nc, grid_all(y, nr, nc, rest),
			       seed + pass, c->drift_ppm, rest, e);
	}
	if (!out->ratio.value)
		return;
	flag_blocks(scratch, nr, nc, &out->ratio, rest, out);
	/*
	 * A verdict needs HS_MIN_ROUNDS of the units the interval resamples:
	 * rounds in one cell, else invocations (placements when there is one
	 * invocation), not cells: 2 invocations of 4 placements are 8 cells
	 * but only 2 draws of what a re-run changes.
	 */
	if (out->within_process ? out->rounds >= HS_MIN_ROUNDS :
				  (nr > 1 ? nr : nc) >= HS_MIN_ROUNDS)
		out->verdict = hs_verdict(out->ratio.value, out->ratio.low,
					  out->ratio.high, HS_NOISE_BAND_PPM);
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
 * @seed:	the user's seed.
 * @drift_ppm:	the drift between runs minutes apart (--drift), ppm.
 *
 * One cell has only its rounds to resample.  The drift is added only
 * where blocks are this program's invocations: a module's runs are one
 * load's, and placements alone are one process's, and neither claims to
 * hold a re-run minutes later.
 */
void hs_interval_choose(struct hs_interval *iv, size_t blocks,
			size_t placements, enum hs_blocks what, uint64_t seed,
			uint64_t drift_ppm)
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
	iv->drift_ppm = iv->kind == HS_IV_BLOCKS || iv->kind == HS_IV_RERUN ?
			drift_ppm : 0;
}

/**
 * hs_interval_name() - what an interval is of, in a few words (the
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
		return "within one process (its placements resampled)";
	case HS_IV_MODULE_RUNS:
		return "95 % of re-runs of the load (its runs resampled)";
	case HS_IV_BLOCKS:
		return "within one process (time blocks and placements"
		       " resampled, drift added)";
	case HS_IV_RERUN:
		break;
	}
	return "95 % of re-runs and rebuilds (invocations and placements"
	       " resampled, drift added)";
}

/* The median of @n values drawn from @v with replacement. */
static uint64_t resampled_median(const uint64_t *v, size_t n,
				 uint64_t *state, uint64_t *buf)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = v[rand_below(state, n)];
	hs_sort_u64(buf, n);
	return hs_quantile(buf, n, 500);
}

/**
 * hs_runs_ratio() - one function's cost in two runs, set against each
 * other (`hotscore bench compare`): before / after, from each run's
 * invocations.
 * @a:		the first run's values, one an invocation (its median cost).
 * @na:		how many.
 * @b:		the second run's.
 * @nb:		how many.
 * @seed:	the bootstrap's seed.
 * @drift_ppm:	the drift between runs minutes apart (--drift), ppm.
 * @scratch:	HS_RUNS_SCRATCH(@na, @nb) values.
 * @out:	receives median(@a) / median(@b), ppm, and its 95 % interval:
 *		each run's invocations resampled on their own (2000 times),
 *		widened as for a small sample of the fewer invocations, with
 *		one drift between the runs added; no interval below
 *		HS_MIN_ROUNDS invocations in either run.
 *
 * Return: the verdict (HS_FASTER: @b is faster), HS_UNDECIDED without an
 * interval.
 */
enum hs_verdict hs_runs_ratio(const uint64_t *a, size_t na, const uint64_t *b,
			      size_t nb, uint64_t seed, uint64_t drift_ppm,
			      uint64_t *scratch, struct hs_estimate *out)
{
	uint64_t *buf = scratch, *ratio = scratch + (na > nb ? na : nb);
	uint64_t state = seed, ma, mb, est, widen;
	int64_t lo, hi;
	unsigned int k;

	out->value = out->low = out->high = 0;
	if (!na || !nb)
		return HS_UNDECIDED;
	copy_u64(buf, a, na);
	hs_sort_u64(buf, na);
	ma = hs_quantile(buf, na, 500);
	copy_u64(buf, b, nb);
	hs_sort_u64(buf, nb);
	mb = hs_quantile(buf, nb, 500);
	if (!ma || !mb)
		return HS_UNDECIDED;
	est = hs_mult_frac(ma, HS_PPM, mb);
	out->value = est;
	if (na < HS_MIN_ROUNDS || nb < HS_MIN_ROUNDS)
		return HS_UNDECIDED;
	for (k = 0; k < HS_BOOTSTRAP_ROUNDS; k++) {
		ma = resampled_median(a, na, &state, buf);
		mb = resampled_median(b, nb, &state, buf);
		ratio[k] = mb ? hs_mult_frac(ma, HS_PPM, mb) : est;
	}
	hs_sort_u64(ratio, HS_BOOTSTRAP_ROUNDS);
	widen = small_sample(na < nb ? na : nb);
	lo = ((int64_t)hs_quantile(ratio, HS_BOOTSTRAP_ROUNDS, 25) -
	      (int64_t)est) * (int64_t)widen / 1000;
	hi = ((int64_t)hs_quantile(ratio, HS_BOOTSTRAP_ROUNDS, 975) -
	      (int64_t)est) * (int64_t)widen / 1000;
	/* one drift between the two runs, not a re-run's two: / sqrt(2) */
	add_drift(&lo, &hi, est, drift_ppm * 707 / 1000);
	out->low = (int64_t)est + lo > 0 ? (uint64_t)((int64_t)est + lo) : 1;
	out->high = (uint64_t)((int64_t)est + hi);
	return hs_verdict(est, out->low, out->high, HS_NOISE_BAND_PPM);
}
