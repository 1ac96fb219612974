// SPDX-License-Identifier: GPL-2.0
/*
 * engine.c - batch timing with the fixed overhead differenced away.
 *
 * One timestamp pair brackets a whole batch; the batch is run with N and
 * with 2N calls and only the difference is kept, so the clock reads, the
 * call into the loop and its set-up cancel exactly (nanoBench 2U - U,
 * uarch-bench 2N - N).  Every result is consumed through an asm sink, so a
 * call cannot be dropped as dead code; a function whose body the compiler
 * emptied still costs a call and is caught by hs_bench_check().
 */
#include <hotscore/bench.h>

/* Independent calls: each result is sunk, none feeds the next call. */
static __attribute__((__noinline__)) void
hs_loop_throughput(hs_bench_fn fn, const struct hs_pool *pool, size_t start,
		   size_t calls)
{
	const char *base = pool->base;
	size_t i, j = start;

	for (i = 0; i < calls; i++) {
		int r = fn(base + j * pool->stride);

		hs_sink(r);
		if (++j == pool->nr)
			j = 0;
	}
}

/*
 * Chained calls: the next input's address depends on this result through
 * "& zero", a zero the compiler cannot see, so the CPU must finish a call
 * before it can load the next call's input.
 */
static __attribute__((__noinline__)) void
hs_loop_latency(hs_bench_fn fn, const struct hs_pool *pool, size_t start,
		size_t calls)
{
	const char *base = pool->base;
	size_t i, j = start, zero = 0;
	const char *p = base + start * pool->stride;

	hs_hide(zero);
	for (i = 0; i < calls; i++) {
		int r = fn(p);

		if (++j == pool->nr)
			j = 0;
		p = base + j * pool->stride + ((size_t)(unsigned int)r & zero);
	}
	hs_sink(p);
}

/**
 * hs_bench_batch() - time @calls calls of @fn with one pair of clock reads.
 * @clk:	the clock.
 * @fn:		the function.
 * @pool:	its inputs, used round-robin.
 * @start:	the index of the first input (taken modulo the pool size).
 * @calls:	how many calls.
 * @mode:	HS_THROUGHPUT or HS_LATENCY.
 *
 * Return: elapsed ticks, overhead included.
 */
uint64_t hs_bench_batch(const struct hs_clock *clk, hs_bench_fn fn,
			const struct hs_pool *pool, size_t start, size_t calls,
			enum hs_bench_mode mode)
{
	uint64_t t0, t1;

	start %= pool->nr;
	t0 = clk->read();
	if (mode == HS_LATENCY)
		hs_loop_latency(fn, pool, start, calls);
	else
		hs_loop_throughput(fn, pool, start, calls);
	t1 = clk->read();
	return t1 - t0;
}

/* One batch with the counters read outside the clock reads. */
static uint64_t hs_batch_counted(const struct hs_clock *clk, hs_bench_fn fn,
				 const struct hs_pool *pool, size_t start,
				 size_t calls, enum hs_bench_mode mode,
				 uint64_t *cyc, uint64_t *ins, bool *ok)
{
	uint64_t c0 = 0, i0 = 0, c1 = 0, i1 = 0, t;

	if (clk->counters && !clk->counters(clk->ctx, &c0, &i0))
		*ok = false;
	t = hs_bench_batch(clk, fn, pool, start, calls, mode);
	if (clk->counters && !clk->counters(clk->ctx, &c1, &i1))
		*ok = false;
	*cyc = c1 - c0;
	*ins = i1 - i0;
	return t;
}

/**
 * hs_bench_empty() - the empty-call baseline: what a call costs when its
 * body has been optimized away.
 * @input: ignored.
 *
 * Return: 0.
 */
__attribute__((__noinline__)) int hs_bench_empty(const void *input)
{
	(void)input;
	return 0;
}

/* The empty call at each placement, so that its cost is placed as theirs. */
HS_PLACEMENT_COPIES(hs_empty, { (void)input; return 0; })
const hs_bench_fn hs_bench_empty_placed[HS_NR_PLACEMENTS] =
	HS_PLACEMENT_TABLE(hs_empty);

static uint64_t hs_min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* (a - b) * 1000 / n, or 0 when b exceeds a: a difference cannot be < 0. */
static uint64_t hs_per_call(uint64_t a, uint64_t b, size_t n)
{
	return a > b ? (a - b) * 1000 / n : 0;
}

/**
 * hs_bench_sample() - one N/2N differenced measurement.
 * @clk:	the clock.
 * @fn:		the function.
 * @pool:	its inputs.
 * @start:	the first input of every batch: the difference of the 2N
 *		and N batches times the inputs from @start + N on, so vary
 *		@start from sample to sample to cover the whole pool.
 * @n:		N, at least 1.
 * @mode:	HS_THROUGHPUT or HS_LATENCY.
 * @long_first:	run 2N, N, N, 2N instead of N, 2N, 2N, N.
 * @out:	receives the sample.
 *
 * Each batch size runs twice and the faster run counts (uarch-bench's
 * min(2N) - min(N)): an interrupt that lands in one batch then spoils
 * neither the sample nor, through a shrunken difference, its minimum.  The
 * mirrored order cancels a steady drift in clock speed.
 */
void hs_bench_sample(const struct hs_clock *clk, hs_bench_fn fn,
		     const struct hs_pool *pool, size_t start, size_t n,
		     enum hs_bench_mode mode, bool long_first,
		     struct hs_sample *out)
{
	uint64_t t[4], c[4], ins[4];
	size_t size[4];
	bool ok = clk->counters != NULL;
	int i, a, b;

	for (i = 0; i < 4; i++) {
		bool twice = (i == 0 || i == 3) == long_first;

		size[i] = twice ? 2 * n : n;
		if (clk->enter)		/* a short window: one batch */
			clk->enter(clk->ctx);
		t[i] = hs_batch_counted(clk, fn, pool, start, size[i], mode,
					&c[i], &ins[i], &ok);
		if (clk->leave)
			clk->leave(clk->ctx);
	}
	a = long_first ? 1 : 0;		/* an N batch */
	b = long_first ? 0 : 1;		/* a 2N batch */
	out->ticks_n = hs_min_u64(t[a], t[3 - a]);
	out->ticks_2n = hs_min_u64(t[b], t[3 - b]);
	out->mt = hs_per_call(out->ticks_2n, out->ticks_n, n);
	out->scale = out->ticks_n ? out->ticks_2n * 1000 / out->ticks_n : 0;
	out->counters = ok;
	out->cycles = ok ? hs_per_call(hs_min_u64(c[b], c[3 - b]),
				       hs_min_u64(c[a], c[3 - a]), n) : 0;
	out->instructions = ok ? hs_per_call(hs_min_u64(ins[b], ins[3 - b]),
					     hs_min_u64(ins[a], ins[3 - a]), n) : 0;
}

/**
 * hs_bench_start() - the start of the @k-th sample over a pool of @nr.
 * @k:		the sample's number.
 * @nr:		the pool's size, at least 1.
 *
 * The golden-ratio Weyl sequence: any stretch of samples starts at points
 * spread evenly over the pool.
 *
 * Return: an index into the pool.
 */
size_t hs_bench_start(unsigned int k, size_t nr)
{
	return (size_t)(((uint64_t)k * 0x9e3779b97f4a7c15ULL) >> 32) % nr;
}

/**
 * hs_pool_calls() - the calls of @pool that do about @n units of work.
 * @pool:	the pool.
 * @n:		N.
 *
 * Return: @n / @pool->units, at least 1.
 */
size_t hs_pool_calls(const struct hs_pool *pool, size_t n)
{
	size_t calls = pool->units > 1 ? n / pool->units : n;

	return calls ? calls : 1;
}

/**
 * hs_bench_rounds() - one round of a paired, interleaved comparison.
 * @clk:	the clock.
 * @fns:	the functions; @fns[0] is usually the baseline.
 * @pools:	each function's inputs.
 * @nr_fns:	how many.
 * @n:		N of each sample (hs_pool_calls() of it for a batch pool).
 * @mode:	HS_THROUGHPUT or HS_LATENCY.
 * @round:	the round's number: it rotates the order.
 * @out:	2 * @nr_fns samples: out[2k] and out[2k + 1] are function k's.
 *
 * The functions run in a rotated order, then in its reverse (A B B A for
 * two), so that each has the same average position in time and a slow
 * drift of the machine cancels out of every paired ratio.  All functions
 * of a pass time the same inputs; the start moves from pass to pass by a
 * Weyl sequence, so that the rounds sweep the whole pool.
 */
void hs_bench_rounds(const struct hs_clock *clk, const hs_bench_fn *fns,
		     const struct hs_pool *const *pools, unsigned int nr_fns,
		     size_t n, enum hs_bench_mode mode, unsigned int round,
		     struct hs_sample *out)
{
	unsigned int i, k, pass;

	for (i = 0; i < 2 * nr_fns; i++) {
		unsigned int pos = i < nr_fns ? i : 2 * nr_fns - 1 - i;

		pass = i >= nr_fns;
		k = (pos + round) % nr_fns;
		hs_bench_sample(clk, fns[k], pools[k],
				hs_bench_start(2 * round + pass, pools[k]->nr),
				hs_pool_calls(pools[k], n), mode, (i + round) & 1,
				&out[2 * k + pass]);
	}
}

/**
 * hs_bench_check() - flag a measurement that cannot be real work.
 * @median_mt:		the function's median cost per call.
 * @baseline_mt:	the median cost of calling an empty function.
 * @median_scale:	the median of ticks_2n * 1000 / ticks_n.
 *
 * @hz:			the clock's ticks per second.
 *
 * A result within half an empty call's cost of it (and at least 0.5 ns)
 * was optimized away: two byte-identical empty functions at different
 * addresses measured 3.4 and 4.5 ticks per call here, so code placement
 * alone moves the baseline by a third.  So was a result whose 2N batch did
 * not take at least 1.5 times its N batch: with batches far longer than a
 * clock read, real work scales by 2.
 *
 * Return: HS_CHECK_OK or the reason it is not.
 */
enum hs_check hs_bench_check(uint64_t median_mt, uint64_t baseline_mt,
			     uint64_t median_scale, uint64_t hz)
{
	uint64_t tol = baseline_mt / 2, floor = hz / 2000000;	/* 0.5 ns */

	if (tol < floor)
		tol = floor;
	if (median_scale < 1500)
		return HS_CHECK_NO_SCALING;
	if (median_mt <= baseline_mt + tol)
		return HS_CHECK_AT_BASELINE;
	return HS_CHECK_OK;
}

const char *hs_check_name(enum hs_check check)
{
	switch (check) {
	case HS_CHECK_OK:
		return "ok";
	case HS_CHECK_AT_BASELINE:
		return "at-baseline (within half an empty call: dead code, or too cheap to tell)";
	default:
		return "optimized-away (does not scale from N to 2N)";
	}
}

const char *hs_mode_name(enum hs_bench_mode mode)
{
	return mode == HS_LATENCY ? "latency" : "throughput";
}

/**
 * hs_mt_to_ps() - milliticks of a @hz clock to picoseconds.
 * @mt:	milliticks.
 * @hz:	ticks per second, at most 10^10.
 *
 * mt / 1000 ticks * 10^12 ps/s / hz, split so that no product exceeds 64
 * bits and no 128-bit division (a libgcc call the kernel lacks) is needed.
 */
uint64_t hs_mt_to_ps(uint64_t mt, uint64_t hz)
{
	return mt / hz * 1000000000ULL + mt % hz * 1000000000ULL / hz;
}

/**
 * hs_verdict() - faster, slower or the same, from a ratio and its CI.
 * @ratio:	baseline time / variant time, in ppm (above 1e6: faster).
 * @ci_low:	lower end of its 95 % confidence interval.
 * @ci_high:	upper end.
 * @band:	the noise band, e.g. HS_NOISE_BAND_PPM.
 *
 * Criterion.rs's rule: a change is called only when it is significant (the
 * CI excludes 1) and the ratio is outside the noise band.
 */
enum hs_verdict hs_verdict(uint64_t ratio, uint64_t ci_low, uint64_t ci_high,
			   uint64_t band)
{
	if (ci_low > HS_PPM && ratio > HS_PPM + band)
		return HS_FASTER;
	if (ci_high < HS_PPM && ratio + band < HS_PPM)
		return HS_SLOWER;
	return HS_SAME;
}

const char *hs_verdict_name(enum hs_verdict v)
{
	switch (v) {
	case HS_FASTER:
		return "faster";
	case HS_SLOWER:
		return "slower";
	case HS_UNDECIDED:
		return "too few rounds";
	default:
		return "no difference";
	}
}
