// SPDX-License-Identifier: GPL-2.0
/*
 * replay.c - what a function costs on inputs someone kept: the simulator's
 * score calls, replayed through the engine.
 *
 * Timing each call where it happens would cost more than the call (the
 * seed's mistake); instead the caller keeps a sample of the inputs and the
 * engine times batches of N and 2N calls over them, the timer and loop
 * overhead cancelled, against the empty function on the same inputs.
 * Kernel-safe: integers only, no library calls.
 */
#include "hotscore/bench.h"
#include "hotscore/bench_stats.h"

#define REPLAY_ROUNDS	11

/* One round: the function and the empty one, in an order that alternates. */
static void replay_round(const struct hs_clock *clk, hs_bench_fn fn,
			 const struct hs_pool *pool, size_t n, unsigned int k,
			 struct hs_sample *a, struct hs_sample *b)
{
	size_t start = hs_bench_start(k, pool->nr);

	/* alternate which goes first, so that drift hits both alike */
	if (k & 1) {
		hs_bench_sample(clk, fn, pool, start, n, HS_THROUGHPUT, k & 2,
				a);
		hs_bench_sample(clk, hs_bench_empty, pool, start, n,
				HS_THROUGHPUT, k & 2, b);
	} else {
		hs_bench_sample(clk, hs_bench_empty, pool, start, n,
				HS_THROUGHPUT, k & 2, b);
		hs_bench_sample(clk, fn, pool, start, n, HS_THROUGHPUT, k & 2,
				a);
	}
}

/**
 * hs_bench_replay() - the median cost of one call of @fn over @pool, and
 * of an empty call on the same inputs, N chosen by the plan's rule.
 * @clk:	the clock.
 * @fn:		the function.
 * @pool:	the inputs it was called on (at least 1).
 * @out:	receives the costs.
 *
 * Return: 0, or -1 without inputs.
 */
int hs_bench_replay(const struct hs_clock *clk, hs_bench_fn fn,
		    const struct hs_pool *pool, struct hs_cost *out)
{
	uint64_t fn_mt[REPLAY_ROUNDS], empty_mt[REPLAY_ROUNDS];
	uint64_t scale[REPLAY_ROUNDS];
	struct hs_sample a, b;
	unsigned int k;
	size_t n;

	if (!pool->nr)
		return -1;
	n = hs_plan_batch(clk, pool, 1024, 1UL << 26);
	for (k = 0; k < REPLAY_ROUNDS; k++) {
		replay_round(clk, fn, pool, n, k, &a, &b);
		fn_mt[k] = a.mt;
		scale[k] = a.scale;
		empty_mt[k] = b.mt;
	}
	hs_sort_u64(fn_mt, REPLAY_ROUNDS);
	hs_sort_u64(empty_mt, REPLAY_ROUNDS);
	hs_sort_u64(scale, REPLAY_ROUNDS);
	out->fn_ps = hs_mt_to_ps(fn_mt[REPLAY_ROUNDS / 2], clk->hz);
	out->empty_ps = hs_mt_to_ps(empty_mt[REPLAY_ROUNDS / 2], clk->hz);
	out->n = n;
	out->rounds = REPLAY_ROUNDS;
	out->check = hs_bench_check(fn_mt[REPLAY_ROUNDS / 2],
				    empty_mt[REPLAY_ROUNDS / 2],
				    scale[REPLAY_ROUNDS / 2], clk->hz);
	return 0;
}
