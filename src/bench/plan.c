// SPDX-License-Identifier: GPL-2.0
/*
 * plan.c - how many calls a batch makes (N) and how many paired rounds a
 * run holds: one rule for the CLI, the kernel module and the simulator's
 * cost replay.  Kernel-safe: integers only, no library calls.
 */
#include "hotscore/bench.h"

/* One batch of empty calls, in the clock's short window (interrupts off). */
static uint64_t empty_batch(const struct hs_clock *clk,
			    const struct hs_pool *pool, size_t n)
{
	uint64_t t;

	if (clk->enter)
		clk->enter(clk->ctx);
	t = hs_bench_batch(clk, hs_bench_empty, pool, 0, n, HS_THROUGHPUT);
	if (clk->leave)
		clk->leave(clk->ctx);
	return t;
}

/**
 * hs_plan_batch() - N: doubled from @n until a batch of N empty calls
 * spans 1000 steps of the clock, or until @max_n.  Below that, per-call
 * figures come in quanta of the clock's step (ankerl::nanobench's rule: a
 * VM's TSC steps by 26 ticks here, so 16 calls of a 2 ns function give
 * 0.6 ns steps).  The faster of two batches counts, so that an interrupt
 * cannot stop the doubling early.
 * @clk:	the clock.
 * @pool:	inputs for the empty function.
 * @n:		where to start, at least 1.
 * @max_n:	where to stop.
 *
 * Return: N.
 */
size_t hs_plan_batch(const struct hs_clock *clk, const struct hs_pool *pool,
		     size_t n, size_t max_n)
{
	uint64_t want = 1000 * clk->step, t, t2;

	for (;;) {
		t = empty_batch(clk, pool, n);
		t2 = empty_batch(clk, pool, n);
		if (t2 < t)
			t = t2;
		if (t >= want || n >= max_n)
			return n;
		n *= 2;
	}
}

/**
 * hs_plan_rounds() - fit @iterations calls per function and run into
 * paired rounds.  A round times each function in two samples of N and 2N
 * calls, each batch run twice: 12 N calls.  N grows by an eighth until a
 * run holds at most @max_rounds rounds, and shrinks where one round would
 * be more than @iterations calls.
 * @p:		the plan; @p->n is N on entry (hs_plan_batch()), adjusted.
 * @iterations:	calls per function and run, as asked.
 * @max_rounds:	rounds per run at most.
 */
void hs_plan_rounds(struct hs_plan *p, uint64_t iterations, size_t max_rounds)
{
	size_t n = p->n ? p->n : 1;

	while ((iterations + 6 * n) / (12 * n) > max_rounds)
		n += n / 8 + 1;
	if (n * 12 > iterations)
		n = iterations / 12 ? iterations / 12 : 1;
	p->n = n;
	p->rounds_per_run = (iterations + 6 * n) / (12 * n);
	if (!p->rounds_per_run)
		p->rounds_per_run = 1;
}
