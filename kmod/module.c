// SPDX-License-Identifier: GPL-2.0
/*
 * hotscore.ko - the DAMON Perf Test inside a kernel, done as hotscore's
 * user-space bench does it: the same engine (src/bench/engine.c), the same
 * variants (src/bench/damon.c) and the same model (src/score/), compiled as
 * they are.  Each timed batch runs with preemption and interrupts off (the
 * clock's enter/leave hooks), well under a millisecond on real hardware;
 * the module yields between rounds.  Results: a seed-format table in the
 * kernel log, and one JSON object per (distribution, mode, function) in
 * debugfs hotscore/results, which `hotscore bench --import` turns into the
 * user-space report.
 *
 * The prepared scorer's variants (fast, fast-batch-scalar, hotfix-batch)
 * are given calls built and vetted by the builder user space uses
 * (prepared.c); fast-batch's vector unit and fast-prepare stay in user
 * space.
 *
 * mode=identify instead calls the running kernel's own damon_hot_score()
 * (identify.c).  make kmod CANDIDATE=FILE compiles a candidate
 * damon_hot_score() in, against this kernel's headers (candidates.c): the
 * variant "candidate".  mode=capture records a live kdamond's calls of the
 * kernel's scoring functions (capture.c).
 *
 * This file is the bench; its parameters are params.c's, its results
 * file and log output.c's.
 */
#define pr_fmt(fmt) "hotscore: " fmt

#include <linux/irqflags.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <asm/processor.h>
#include <asm/tsc.h>

#include <hotscore/bench_damon.h>

#include "kmod.h"

/*
 * Inputs: user space's --pool 1000, not its default 16384 (a pool a
 * predictor cannot learn, docs/bench.md "Pools"), to keep a TCG guest's
 * load short; compare a module's figures with bench --pool 1000.
 */
#define POOL		1000
#define MAX_ROUNDS	256	/* per run, as the user-space bench */
#define MAX_FNS		(KMOD_MAX_VARIANTS + 1)

static u64 hs_tsc(void)
{
	return hs_arch_counter();
}

/* Each timed batch runs with preemption and interrupts off. */
static unsigned long irq_flags;

static void batch_enter(void *ctx)
{
	preempt_disable();
	local_irq_save(irq_flags);
}

static void batch_leave(void *ctx)
{
	local_irq_restore(irq_flags);
	preempt_enable();
}

/**
 * kmod_clock() - the engine's clock in the kernel: the serialised TSC at
 * the kernel's own calibration (tsc_khz); its step measured here.
 * @clk:	receives the clock.
 *
 * Return: 0, or -ENODEV without a TSC frequency.
 */
int kmod_clock(struct hs_clock *clk)
{
	u64 step = U64_MAX, a, b;
	int i;

	memset(clk, 0, sizeof(*clk));
	clk->name = HS_ARCH_COUNTER_NAME;
	clk->read = hs_tsc;
	clk->hz = (u64)tsc_khz * 1000;
	clk->tsc = true;
	clk->enter = batch_enter;
	clk->leave = batch_leave;
	for (i = 0; i < 100; i++) {
		a = hs_tsc();
		do {
			b = hs_tsc();
		} while (b == a);
		step = min(step, b - a);
	}
	clk->step = step;
	if (!clk->hz) {
		pr_err("no TSC frequency (tsc_khz is 0)\n");
		return -ENODEV;
	}
	return 0;
}

/*
 * N and the rounds, by the engine's plan as user space has them; but a
 * batch never grows past 2^18 calls, to keep interrupts off briefly.
 */
static void plan(const struct hs_clock *clk, const struct hs_pool *pool,
		 struct hs_plan *p)
{
	p->runs = kmod_runs();
	p->n = hs_plan_batch(clk, pool, 8192, 1UL << 18);
	hs_plan_rounds(p, kmod_iterations(), MAX_ROUNDS);
}

/* After each round: let others run; a fatal signal stops the bench. */
static int between_rounds(void *ctx, const struct hs_run_at *at)
{
	cond_resched();
	if (fatal_signal_pending(current)) {
		pr_err("interrupted\n");
		return -EINTR;
	}
	return 0;
}

/**
 * kmod_bench_fns() - the mixed stream of one mode: every function, paired
 * per round, as the user-space bench runs it; logged and written out.
 * @clk:	the clock.
 * @pools:	each function's inputs: the same inputs, in its form.
 * @fns:	the functions, fns[0] the empty baseline.
 * @names:	their names.
 * @nf:		how many.
 * @m:		the mode.
 * @dist:	the inputs' name, for the output.
 *
 * Return: 0 or -ENOMEM.
 */
int kmod_bench_fns(const struct hs_clock *clk,
		   const struct hs_pool *const *pools, const hs_bench_fn *fns,
		   const char *const *names, unsigned int nf,
		   enum hs_bench_mode m, const char *dist)
{
	u64 *mt[MAX_FNS] = { NULL }, *scale[MAX_FNS] = { NULL };
	unsigned int units[MAX_FNS];
	struct hs_bench_stream st = {
		.fns = fns, .pools = pools, .units = units, .mode = m,
		.mt = mt, .scale = scale,
	};
	struct hs_run run = {
		.clk = clk, .streams = &st, .nr_streams = 1, .nr_fns = nf,
		.placements = 1, .round = between_rounds,
	};
	struct hs_run_result res;
	void *s;	/* HS_RUN_SCRATCH(nf): too big for a stack */
	unsigned int k;
	size_t nr;
	int err = -ENOMEM;

	plan(clk, pools[0], &run.plan);
	nr = 2 * run.plan.rounds_per_run * kmod_runs();
	s = run.scratch = kzalloc(HS_RUN_SCRATCH(nf), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	for (k = 0; k < nf; k++) {
		/* a batch's samples are per region, as user space's */
		units[k] = pools[k]->units > 1 ? pools[k]->units : 1;
		mt[k] = kvmalloc_array(nr, sizeof(u64), GFP_KERNEL);
		scale[k] = kvmalloc_array(nr, sizeof(u64), GFP_KERNEL);
		if (!mt[k] || !scale[k])
			goto out;
	}
	/* each batch: preemption and interrupts off (the clock's hooks) */
	err = hs_bench_run(&run, &res);
	if (err)
		goto out;
	kmod_log_table(clk, dist, m, names, units, nf, mt, nr);
	kmod_log_units(names, units, nf);
	for (k = 0; k < nf; k++)
		kmod_emit_json(clk, dist, m, names[k], run.plan.n,
			       run.plan.rounds_per_run, mt[k], scale[k], nr);
out:
	for (k = 0; k < nf; k++) {
		kvfree(mt[k]);
		kvfree(scale[k]);
	}
	kfree(s);
	return err;
}

/*
 * Each model variant must return the model's score on every input of the
 * pool, which no profile may divide by zero on (user space's rule); a
 * candidate must first agree with against= (candidates.c).
 */
static int check_variants(const struct kmod_config *c,
			  const struct hs_input *in)
{
	unsigned int i, k;
	int err;

	for (k = 0; k < c->nr_v; k++) {
		const struct hs_variant *v = c->v[k].v;

		if (c->v[k].cand) {
			err = kmod_cand_vet(c->v[k].cand, in, POOL);
			if (err)
				return err;
			continue;
		}
		for (i = 0; i < POOL; i++) {
			struct hs_result r = hs_score(&v->comp, &in[i], NULL);
			/* a prepared or batch variant: prepared.c vets it */
			int got = r.status == HS_DIV0 ||
				  v->call != HS_CALL_INPUT ? r.hot :
				  v->fn(&in[i]);

			if (r.status == HS_DIV0 || got != r.hot) {
				pr_err("variants: %s returns %d where the model gives %d (%s) on input %u of dist %s: an internal error\n",
				       v->name, got, r.hot, hs_status_name(&r),
				       i, hs_dist_name(c->dist));
				return -EINVAL;
			}
		}
	}
	return 0;
}

/*
 * What each function is given, built before the timing: a candidate's
 * real structures (candidates.c), a prepared or batch variant's calls
 * (prepared.c); the model's other variants take the pool as it is.
 */
struct fn_inputs {
	struct hs_pool cand[KMOD_MAX_VARIANTS];
	struct hs_calls calls[KMOD_MAX_VARIANTS];
};

static int build_inputs(const struct kmod_config *c, const struct hs_input *in,
			const struct hs_pool *pool, struct fn_inputs *fi,
			const struct hs_pool **pools)
{
	const char *dist = hs_dist_name(c->dist);
	unsigned int i;
	int err = 0;

	for (i = 0; i < c->nr_v && !err; i++) {
		const struct hs_variant *v = c->v[i].v;

		pools[i] = pool;
		if (c->v[i].cand) {
			err = kmod_cand_pool(c->v[i].cand, in, POOL,
					     &fi->cand[i]);
			pools[i] = &fi->cand[i];
		} else if (v->call != HS_CALL_INPUT) {
			err = kmod_calls_build(&fi->calls[i], v, in, POOL,
					       dist);
			pools[i] = &fi->calls[i].pool;
		}
	}
	return err;
}

static void free_inputs(struct fn_inputs *fi)
{
	unsigned int i;

	for (i = 0; i < KMOD_MAX_VARIANTS; i++) {
		kmod_cand_pool_free(&fi->cand[i]);
		kmod_calls_free(&fi->calls[i]);
	}
	kfree(fi);
}

static int run_bench(const struct kmod_config *c)
{
	struct hs_input *in = kvmalloc_array(POOL, sizeof(*in), GFP_KERNEL);
	struct fn_inputs *fi = kzalloc(sizeof(*fi), GFP_KERNEL);
	struct hs_pool pool = { in, sizeof(*in), POOL, 1 };
	const struct hs_pool *pools[MAX_FNS] = { &pool };
	hs_bench_fn fns[MAX_FNS] = { hs_bench_empty };
	const char *names[MAX_FNS] = { "empty" };
	struct hs_clock clk;
	unsigned int i;
	int err = -ENOMEM;

	if (!in || !fi)
		goto out;
	for (i = 0; i < POOL; i++)
		hs_dist_input(c->dist, kmod_seed(),
			      (u64)i * kmod_iterations() / POOL, &in[i]);
	err = check_variants(c, in);
	if (!err)
		err = build_inputs(c, in, &pool, fi, pools + 1);
	if (!err && kmod_clock(&clk))
		err = -ENODEV;
	for (i = 0; i < c->nr_v; i++) {
		names[i + 1] = c->v[i].name;
		fns[i + 1] = c->v[i].v ? c->v[i].v->fn : c->v[i].cand->bench;
	}
	for (i = 0; i < c->nr_modes && !err; i++)
		err = kmod_bench_fns(&clk, pools, fns, names, c->nr_v + 1,
				     c->modes[i], hs_dist_name(c->dist));
out:
	if (fi)
		free_inputs(fi);
	kvfree(in);
	return err;
}

static int __init hs_init(void)
{
	const char *mode;
	struct kmod_config c = { 0 };
	int err;

	err = kmod_parse_params(&c);
	if (err)
		return err;
	if (c.capture)
		return kmod_output_capture();
	mode = c.identify ? "identify" : "bench";
	if (c.identify)
		err = kmod_identify(c.v, c.nr_v);
	else
		err = run_bench(&c);
	return kmod_output_done(mode, err);
}

static void __exit hs_exit(void)
{
	kmod_capture_exit();
	kmod_output_exit();
}

module_init(hs_init);
module_exit(hs_exit);
MODULE_LICENSE("GPL");
MODULE_AUTHOR("hotscore");
MODULE_DESCRIPTION("DAMON hot score: the honest bench and a live check");
