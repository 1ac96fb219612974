// SPDX-License-Identifier: GPL-2.0
/*
 * stream.c - the run: block after block, each stream (a distribution in
 * one mode) warmed up untimed, then its cells, one per code placement, in
 * a random order; a cell is every function of the stream timed in the
 * same paired rounds, in a random order too.  The CLI calls it once per
 * invocation, the kernel module once per mode; they differ only in the
 * hook they give it (progress on a terminal; cond_resched() and a fatal
 * signal in the kernel).  Kernel-safe: integers only, no library calls.
 */
#include "hotscore/bench.h"

/* The work areas of a cell, carved from the run's scratch. */
struct cell {
	struct hs_sample *s;		/* 2 per function */
	hs_bench_fn *fns;		/* in the cell's order */
	const struct hs_pool **pools;
	unsigned int *order;		/* the functions, in that order */
};

static void carve(const struct hs_run *run, struct cell *c)
{
	unsigned int nf = run->nr_fns;

	c->s = run->scratch;
	c->fns = (hs_bench_fn *)(c->s + 2 * nf);
	c->pools = (const struct hs_pool **)(c->fns + nf);
	c->order = (unsigned int *)(c->pools + nf);
}

/* A permutation of 0..@n-1 into @p: from @state, or in order. */
static void order_of(unsigned int *p, unsigned int n, uint64_t *state)
{
	unsigned int i, j, t;

	for (i = 0; i < n; i++)
		p[i] = i;
	for (i = n; state && i > 1; i--) {
		j = (unsigned int)(hs_stats_rand(state) % i);
		t = p[i - 1];
		p[i - 1] = p[j];
		p[j] = t;
	}
}

/* Function @k's copy at placement @pl. */
static hs_bench_fn placed(const struct hs_run *run,
			  const struct hs_bench_stream *st, unsigned int k,
			  unsigned int pl)
{
	return st->fns[pl * run->nr_fns + k];
}

/*
 * Untimed calls of every function at every placement, until @run->warmup
 * ticks have passed, one pass at least: a process's first second is not
 * its steady state (the predictors, the caches and the clock settle),
 * docs/bench.md.
 */
static void warm_up(const struct hs_run *run,
		    const struct hs_bench_stream *st)
{
	const struct hs_clock *clk = run->clk;
	uint64_t start = clk->read();
	unsigned int k, pl;

	do {
		for (pl = 0; pl < run->placements; pl++)
			for (k = 0; k < run->nr_fns; k++)
				hs_bench_batch(clk, placed(run, st, k, pl),
					       st->pools[k], 0,
					       hs_pool_calls(st->pools[k],
							     run->plan.n),
					       st->mode);
	} while (clk->read() - start < run->warmup);
}

/* Function @f's two samples of round @at of the cell at @off, per unit. */
static void keep(const struct hs_bench_stream *st, unsigned int f,
		 size_t at, const struct hs_sample *x)
{
	uint64_t per = st->units && st->units[f] ? st->units[f] : 1;
	unsigned int h;

	for (h = 0; h < 2; h++, x++) {
		size_t i = 2 * at + h;

		/* a batch function's cost per region, rounded */
		st->mt[f][i] = (x->mt + per / 2) / per;
		if (st->scale)
			st->scale[f][i] = x->scale;
		if (st->cycles)
			st->cycles[f][i] = x->cycles / per;
		if (st->ins)
			st->ins[f][i] = x->instructions / per;
		if (!x->counters && st->counters)
			st->counters[f] = false;
	}
}

/*
 * The cell @at: every function of @st at @at->placement, in the order
 * @c->order, in the plan's paired rounds, numbered from @first.
 */
static int cell(const struct hs_run *run, const struct hs_bench_stream *st,
		struct hs_run_at *at, size_t first, const struct cell *c)
{
	const struct hs_plan *p = &run->plan;
	size_t off = (at->block * run->placements + at->placement) *
		     p->rounds_per_run;
	unsigned int nf = run->nr_fns, k;
	int stop;

	for (k = 0; k < nf; k++) {
		c->fns[k] = placed(run, st, c->order[k], at->placement);
		c->pools[k] = st->pools[c->order[k]];
	}
	for (at->round = 0; at->round < p->rounds_per_run; at->round++) {
		hs_bench_rounds(run->clk, c->fns, c->pools, nf, p->n,
				st->mode, (unsigned int)(first + at->round),
				c->s);
		for (k = 0; k < nf; k++)
			keep(st, c->order[k], off + at->round, &c->s[2 * k]);
		stop = run->round ? run->round(run->ctx, at) : 0;
		if (stop)
			return stop;
	}
	return 0;
}

/*
 * Stream @at->stream of block @at->block: its warm-up, then its cells,
 * the placements in a random order from @state, and the functions of each
 * cell too, so that neither position favours a function.
 */
static int stream(const struct hs_run *run, struct hs_run_at *at,
		  uint64_t *state, const struct cell *c,
		  struct hs_run_result *out)
{
	const struct hs_bench_stream *st = &run->streams[at->stream];
	/* rounds are numbered on through a call's blocks (a module's runs) */
	size_t first = (at->block - run->first_block) *
		       run->plan.rounds_per_run;
	unsigned int pls[HS_NR_PLACEMENTS], i;
	uint64_t t0 = run->clk->read();
	int stop = 0;

	warm_up(run, st);
	out->warmup_ticks += run->clk->read() - t0;
	t0 = run->clk->read();
	order_of(pls, run->placements, state);
	for (i = 0; i < run->placements && !stop; i++) {
		at->placement = pls[i];
		order_of(c->order, run->nr_fns, state);
		stop = cell(run, st, at, first, c);
	}
	out->round_ticks += run->clk->read() - t0;
	return stop;
}

/**
 * hs_bench_run() - measure the blocks @run->first_block to
 * @run->first_block + @run->plan.runs - 1 of every stream of @run: per
 * block and stream a warm-up, then one cell per placement, each of
 * @run->plan.rounds_per_run paired rounds of hs_bench_rounds(); each
 * function's two samples a round go to its stream's arrays.
 * @run:	the run; its scratch holds HS_RUN_SCRATCH(@run->nr_fns) bytes.
 * @out:	receives the ticks spent in warm-ups and in rounds.
 *
 * With @run->shuffle, block b's orders come from the generator seeded
 * with @run->seed * 2^64/phi + b + 1, so that a block measured in another
 * process is ordered as it would be here; without, everything runs in its
 * index order.
 *
 * Return: 0, or what @run->round returned to stop it.
 */
int hs_bench_run(const struct hs_run *run, struct hs_run_result *out)
{
	struct hs_run_at at = { 0 };
	uint64_t state, *shuffled = run->shuffle ? &state : NULL;
	size_t last = run->first_block + run->plan.runs;
	struct cell c;
	int stop = 0;

	carve(run, &c);
	out->warmup_ticks = 0;
	out->round_ticks = 0;
	for (at.block = run->first_block; at.block < last && !stop;
	     at.block++) {
		state = run->seed * 0x9e3779b97f4a7c15ULL + at.block + 1;
		for (at.stream = 0; at.stream < run->nr_streams && !stop;
		     at.stream++)
			stop = stream(run, &at, shuffled, &c, out);
	}
	return stop;
}
