// SPDX-License-Identifier: GPL-2.0
/*
 * stream.c - the run: every function of a comparison timed in the same
 * rounds, run after run, each run after an untimed warm-up.  The CLI and
 * the kernel module call it; they differ only in the hook they give it
 * (progress on a terminal; cond_resched() and a fatal signal in the
 * kernel).  Kernel-safe: integers only, no library calls.
 */
#include "hotscore/bench.h"

/* One function's two samples of round @at, per unit of work. */
static void keep(struct hs_stream *st, unsigned int k, size_t at,
		 const struct hs_sample *s)
{
	uint64_t per = st->units && st->units[k] ? st->units[k] : 1;
	unsigned int h;

	for (h = 0; h < 2; h++) {
		const struct hs_sample *x = &s[2 * k + h];
		size_t i = 2 * at + h;

		/* a batch function's cost per region, rounded */
		st->mt[k][i] = (x->mt + per / 2) / per;
		if (st->scale)
			st->scale[k][i] = x->scale;
		if (st->cycles)
			st->cycles[k][i] = x->cycles / per;
		if (st->ins)
			st->ins[k][i] = x->instructions / per;
		if (!x->counters && st->counters)
			st->counters[k] = false;
	}
}

/**
 * hs_stream_run() - time every function of @st in paired rounds: per run an
 * untimed batch of each (the warm-up), then @st->plan.rounds_per_run rounds
 * of hs_bench_rounds(), each function's two samples kept in its arrays.
 * @st:		the stream; its arrays hold 2 * runs * rounds_per_run.
 * @s:		scratch for 2 * @st->nr_fns samples.
 *
 * Return: 0, or what @st->round returned to stop it.
 */
int hs_stream_run(struct hs_stream *st, struct hs_sample *s)
{
	const struct hs_plan *p = &st->plan;
	unsigned int k, run;
	size_t round, at = 0;
	int stop;

	for (k = 0; st->counters && k < st->nr_fns; k++)
		st->counters[k] = true;
	for (run = 0; run < p->runs; run++) {
		for (k = 0; k < st->nr_fns; k++)
			hs_bench_batch(st->clk, st->fns[k], st->pools[k], 0,
				       hs_pool_calls(st->pools[k], p->n),
				       st->mode);
		for (round = 0; round < p->rounds_per_run; round++, at++) {
			hs_bench_rounds(st->clk, st->fns, st->pools,
					st->nr_fns, p->n, st->mode,
					(unsigned int)at, s);
			for (k = 0; k < st->nr_fns; k++)
				keep(st, k, at, s);
			stop = st->round ? st->round(st->ctx, run, round) : 0;
			if (stop)
				return stop;
		}
	}
	return 0;
}
