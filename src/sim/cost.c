// SPDX-License-Identifier: GPL-2.0
/*
 * cost.c - what the score function costs in context: the inputs a run
 * actually scored, replayed through the bench engine.
 *
 * Timing each call inside the run would cost more than the call (the seed's
 * mistake); instead the run keeps a uniform sample of its score inputs and
 * the engine times batches of N and 2N calls over them, the timer and loop
 * overhead cancelled, against an empty function on the same inputs.
 */
#include "hotscore/damon_bench.h"
#include "hotscore/sim.h"
#include "hotscore/stats.h"

#define COST_ROUNDS	11

/**
 * hs_sim_score_cost() - the median cost of one score call on the inputs a
 * run captured, and of an empty call on the same inputs.
 * @clk:	the bench engine's clock.
 * @fn:		the score function.
 * @inputs:	the captured inputs.
 * @nr:		how many (at least 1).
 * @out:	receives the costs.
 *
 * Return: 0, or -1 without inputs.
 */
int hs_sim_score_cost(const struct hs_clock *clk, hs_bench_fn fn,
		      const struct hs_input *inputs, size_t nr,
		      struct hs_score_cost *out)
{
	struct hs_pool pool = { inputs, sizeof(*inputs), nr, 1 };
	uint64_t fn_mt[COST_ROUNDS], empty_mt[COST_ROUNDS], scale[COST_ROUNDS];
	size_t n = 1024;
	unsigned int k;

	if (!nr)
		return -1;
	/* a batch must span 1000 clock steps (bench-methodology.md) */
	while (n < (1UL << 26) &&
	       hs_bench_batch(clk, hs_bench_empty, &pool, 0, n,
			      HS_THROUGHPUT) < 1000 * clk->step)
		n *= 2;
	for (k = 0; k < COST_ROUNDS; k++) {
		struct hs_sample a, b;
		size_t start = hs_bench_start(k, nr);

		/* alternate which goes first, so drift hits both alike */
		if (k & 1) {
			hs_bench_sample(clk, fn, &pool, start, n, HS_THROUGHPUT,
					k & 2, &a);
			hs_bench_sample(clk, hs_bench_empty, &pool, start, n,
					HS_THROUGHPUT, k & 2, &b);
		} else {
			hs_bench_sample(clk, hs_bench_empty, &pool, start, n,
					HS_THROUGHPUT, k & 2, &b);
			hs_bench_sample(clk, fn, &pool, start, n, HS_THROUGHPUT,
					k & 2, &a);
		}
		fn_mt[k] = a.mt;
		scale[k] = a.scale;
		empty_mt[k] = b.mt;
	}
	hs_sort_u64(fn_mt, COST_ROUNDS);
	hs_sort_u64(empty_mt, COST_ROUNDS);
	hs_sort_u64(scale, COST_ROUNDS);
	out->fn_ps = hs_mt_to_ps(fn_mt[COST_ROUNDS / 2], clk->hz);
	out->empty_ps = hs_mt_to_ps(empty_mt[COST_ROUNDS / 2], clk->hz);
	out->n = n;
	out->rounds = COST_ROUNDS;
	out->check = hs_bench_check(fn_mt[COST_ROUNDS / 2],
				    empty_mt[COST_ROUNDS / 2],
				    scale[COST_ROUNDS / 2], clk->hz);
	return 0;
}
