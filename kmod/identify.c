// SPDX-License-Identifier: GPL-2.0
/*
 * identify.c - mode=identify: which kernel version's arithmetic does the
 * running kernel's damon_hot_score() compute?
 *
 * The function is not exported; a kprobe resolves its address (and
 * damon_cold_score()'s), and the module calls both on a zeroed damon_ctx,
 * damon_region and damos from this kernel's own <linux/damon.h>.  Inputs:
 * boundaries and seeded random values at full field widths, the inputs on
 * which the model's profiles disagree; any input on which some profile
 * would divide by zero is never passed to the kernel.  Every profile is
 * compared on every input; the real function is then timed next to the
 * model's variants.  With a candidate built in (make kmod CANDIDATE=FILE),
 * the candidate is called on the same structures and inputs, and compared
 * with the kernel's function.
 */
#define pr_fmt(fmt) "hotscore: " fmt

#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/damon.h>

#include <hotscore/bench_damon.h>

#include "kmod.h"

static struct kmod_param inputs_param = { "4000000" };
module_param_cb(inputs, &kmod_param_ops, &inputs_param, 0444);
MODULE_PARM_DESC(inputs,
		 "identify: inputs to generate, 1 to 10^9 (default 4000000)");
static unsigned long inputs;	/* checked by kmod_identify_params() */

#if KMOD_HAVE_ATTRS
static kmod_score_fn kernel_hot, kernel_cold;
static struct damon_ctx *ctx;
static struct damon_region *region;
static struct damos *scheme;

/*
 * A symbol's address through a kprobe: kallsyms_lookup_name is private.
 * Return: the address, or an ERR_PTR: -ENOENT for no such symbol (no
 * DAMON), -EOPNOTSUPP when it cannot be called safely.
 */
static void *resolve(const char *name)
{
#ifdef CONFIG_KPROBES
	struct kprobe kp = { .symbol_name = name };
	u8 *addr;
	int err = register_kprobe(&kp);

	if (err)
		return ERR_PTR(err);
	addr = (u8 *)kp.addr;
	unregister_kprobe(&kp);
#ifdef CONFIG_X86_KERNEL_IBT
	/*
	 * An indirect call must land on an ENDBR64.  kprobes sit after it;
	 * a function only ever called directly had it sealed at boot, and
	 * calling it through a pointer would fault: refuse.
	 */
	if (!memcmp(addr - 4, "\xf3\x0f\x1e\xfa", 4))
		addr -= 4;
	else if (memcmp(addr, "\xf3\x0f\x1e\xfa", 4))
		return ERR_PTR(-EOPNOTSUPP);
#endif
	return addr;
#else
	return ERR_PTR(-EOPNOTSUPP);
#endif
}

static void set_input(const struct hs_input *in)
{
	kmod_set_input(in, ctx, region, scheme);
}

struct tally {
	u64 agree, differ;
	struct hs_input first;
	int kernel_hot, model_hot;
};

/*
 * One line for a profile, or for the candidate: @name, and @profile as
 * `hotscore score --profile` takes it (with --base for a candidate: the
 * divisor its kernel's damon_max_nr_accesses() has).
 */
static void report(const char *name, const char *profile, const char *base,
		   const struct tally *t, u64 total)
{
	struct kmod_json j;
	char args[320];

	if (!t->differ) {
		pr_info("identify: %-15s agrees on all %llu inputs%s%s%s\n",
			name, total, base ? " (" : "", base ? profile : "",
			base ? ")" : "");
	} else {
		kmod_input_args(args, sizeof(args), &t->first);
		pr_info("identify: %-15s differs on %llu of %llu; first: hotscore score --profile %s%s%s %s gives %d, this kernel %d\n",
			name, t->differ, total, profile,
			base ? " --base " : "", base ? base : "", args,
			t->model_hot, t->kernel_hot);
	}
	kmod_json_begin(&j);
	kmod_json_str(&j, "identify", name);
	if (base)	/* a candidate: its file too */
		kmod_json_str(&j, "file", profile);
	kmod_json_u64(&j, "agree", t->agree);
	kmod_json_u64(&j, "differ", t->differ);
	kmod_json_end(&j);
}

static void tally_add(struct tally *t, const struct hs_input *in, int hot,
		      int model_hot)
{
	if (model_hot == hot) {
		t->agree++;
		return;
	}
	if (!t->differ++) {
		t->first = *in;
		t->kernel_hot = hot;
		t->model_hot = model_hot;
	}
}

/* What the kernel's functions did on the compared inputs. */
struct counts {
	u64 total, skipped, cold_bad;
	u64 outside;	/* hot outside [0, 99]: the kernel does not clamp */
};

/*
 * Compare every profile, and the candidate if one is built in (@cand), with
 * the kernel on @inputs inputs.
 */
static int compare_profiles(struct tally *tally, struct tally *cand,
			    struct counts *n)
{
	const struct kmod_cand *c = kmod_candidate();
	u64 rnd = 0x68f5c0de, i;
	unsigned int k;

	if (hs_nr_profiles > KMOD_MAX_PROFILES)
		return -EINVAL;
	for (i = 0; i < inputs; i++) {
		struct hs_result res[KMOD_MAX_PROFILES];
		struct hs_input in;
		bool div0 = false;
		int hot, cold;

		kmod_make_input(i, &rnd, &in);
		for (k = 0; k < hs_nr_profiles; k++) {
			res[k] = hs_score(&hs_profiles[k].comp, &in, NULL);
			div0 |= res[k].status == HS_DIV0;
		}
		if (div0) {	/* never divide by zero in the kernel */
			n->skipped++;
			continue;
		}
		set_input(&in);
		hot = kernel_hot(ctx, region, scheme);
		cold = kernel_cold(ctx, region, scheme);
		/* damon_cold_score(): DAMOS_MAX_SCORE - hot, as an int */
		if (cold != (int)(99U - (unsigned int)hot))
			n->cold_bad++;
		if (hot < 0 || hot > 99)
			n->outside++;
		n->total++;
		for (k = 0; k < hs_nr_profiles; k++)
			tally_add(&tally[k], &in, hot, res[k].hot);
		/* the candidate on the structures the kernel was given */
		if (c)
			tally_add(cand, &in, hot, c->hot(ctx, region, scheme));
		if (!(i & 4095)) {
			cond_resched();
			if (fatal_signal_pending(current))
				return -EINTR;
		}
	}
	return 0;
}

static const struct kmod_fn *bench_fns[KMOD_IDENTIFY_VARIANTS];

/* The kernel's function with the model's input, for the bench. */
static int real_hot(const void *p)
{
	set_input(p);
	return kernel_hot(ctx, region, scheme);
}

/*
 * A model variant behind the same field stores, for a fair pairing; a
 * candidate on the same structures as the kernel's function, also called
 * through a pointer.
 */
#define VARIANT_THUNK(i)						\
static int thunk_##i(const void *p)					\
{									\
	set_input(p);							\
	if (bench_fns[i]->cand)						\
		return bench_fns[i]->cand->hot(ctx, region, scheme);	\
	return bench_fns[i]->v->fn(p);					\
}
VARIANT_THUNK(0) VARIANT_THUNK(1) VARIANT_THUNK(2) VARIANT_THUNK(3)
static const hs_bench_fn thunks[KMOD_IDENTIFY_VARIANTS] = {
	thunk_0, thunk_1, thunk_2, thunk_3 };

#define POOL 1000

/* The seed's inputs, as this kernel's structures hold them. */
static struct hs_input *seed_pool(void)
{
	struct hs_input *in = kvmalloc_array(POOL, sizeof(*in), GFP_KERNEL);
	unsigned int i;

	for (i = 0; in && i < POOL; i++) {
		hs_dist_input(HS_DIST_SEED, kmod_seed(), (u64)i * 10000,
			      &in[i]);
		kmod_fit_input(&in[i]);
	}
	return in;
}

static int bench_real(const struct hs_input *in, const struct kmod_fn *v,
		      unsigned int nr_v)
{
	const struct hs_pool pool = { in, sizeof(*in), POOL, 1 };
	const struct hs_pool *pools[2 + ARRAY_SIZE(thunks)];
	hs_bench_fn fns[2 + ARRAY_SIZE(thunks)];
	const char *names[2 + ARRAY_SIZE(thunks)];
	struct hs_clock clk;
	unsigned int i, nf = 0;

	if (kmod_clock(&clk))
		return -ENODEV;
	fns[nf] = hs_bench_empty;
	names[nf++] = "empty";
	fns[nf] = real_hot;
	names[nf++] = "kernel";
	for (i = 0; i < nr_v && i < ARRAY_SIZE(thunks); i++) {
		bench_fns[i] = &v[i];
		fns[nf] = thunks[i];
		names[nf++] = v[i].name;
	}
	for (i = 0; i < nf; i++)
		pools[i] = &pool;
	return kmod_bench_fns(&clk, pools, fns, names, nf, HS_THROUGHPUT,
			      "seed");
}

#endif

/* identify's own parameter, checked at load whatever the mode. */
int kmod_identify_params(void)
{
	return kmod_param_ulong("inputs", &inputs_param, 1, 1000000000UL,
				"1 to 10^9", &inputs);
}

/* The results' one line when identify cannot run: why. */
static void identify_answer(const char *why)
{
	struct kmod_json j;

	kmod_json_begin(&j);
	kmod_json_str(&j, "identify", why);
	kmod_json_end(&j);
}

/**
 * kmod_identify() - mode=identify.
 * @v:		the variants to time next to the kernel's function.
 * @nr_v:	how many.
 *
 * A candidate among @v must first agree with against= (candidates.c).
 *
 * Return: 0 (also without DAMON: that is reported, not an error),
 * -EINVAL for a candidate that disagrees, or -ENOMEM.
 */
#if !KMOD_HAVE_ATTRS
int kmod_identify(const struct kmod_fn *v, unsigned int nr_v)
{
	pr_info("identify: needs Linux 6.1 or later\n");
	identify_answer("unsupported");
	return 0;
}
#else
/* A candidate is timed only if it agrees with against= (candidates.c). */
static int vet_candidates(const struct kmod_fn *v, unsigned int nr_v,
			  const struct hs_input *pool)
{
	unsigned int k;
	int err;

	for (k = 0; k < nr_v; k++) {
		err = v[k].cand ? kmod_cand_vet(v[k].cand, pool, POOL) : 0;
		if (err)
			return err;
	}
	return 0;
}

/*
 * The kernel's damon_hot_score() and damon_cold_score(), into kernel_hot
 * and kernel_cold; false where they cannot be called, which is logged and
 * written to the results as identify's answer rather than as an error.
 */
static bool resolve_kernel(void)
{
	void *hot = resolve("damon_hot_score"), *cold = resolve("damon_cold_score");
	long e;

	if (!IS_ERR(hot) && !IS_ERR(cold)) {
		kernel_hot = hot;
		kernel_cold = cold;
		return true;
	}
	e = IS_ERR(hot) ? PTR_ERR(hot) : PTR_ERR(cold);
	if (e == -ENOENT) {
		pr_info("identify: no DAMON in this kernel (damon_hot_score not found)\n");
		identify_answer("no-damon");
	} else if (e == -EOPNOTSUPP) {
		pr_info("identify: cannot call damon_hot_score here (%s)\n",
			IS_ENABLED(CONFIG_KPROBES) ?
			"IBT sealed its entry" : "no kprobes to find it");
		identify_answer("cannot-call");
	} else {
		pr_info("identify: cannot look damon_hot_score up: kprobe error %ld\n",
			e);
		identify_answer("lookup-failed");
	}
	return false;
}

/* The DAMON context, region and scheme the kernel's functions are given. */
static bool alloc_damon(void)
{
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	region = kzalloc(sizeof(*region), GFP_KERNEL);
	scheme = kzalloc(sizeof(*scheme), GFP_KERNEL);
	if (!ctx || !region || !scheme)
		return false;
	INIT_LIST_HEAD(&ctx->adaptive_targets);
	INIT_LIST_HEAD(&ctx->schemes);
	INIT_LIST_HEAD(&region->list);
	INIT_LIST_HEAD(&scheme->list);
	return true;
}

/*
 * Each profile's tally, and the verdict: the profiles that always agree.
 * The count of scores outside [0, 99] tells a kernel that clamps (0) from
 * one whose quota histogram such a score would overrun: scripts/kernel-check
 * drives a live kdamond to the edge classes only on the first kind.
 */
static void report_verdict(const struct tally *tally, const struct counts *n)
{
	u64 total = n->total;
	struct kmod_json j;
	char agreeing[256] = "";
	unsigned int k;

	for (k = 0; k < hs_nr_profiles; k++) {
		report(hs_profiles[k].name, hs_profiles[k].name, NULL,
		       &tally[k], total);
		if (!tally[k].differ && total)
			snprintf(agreeing + strlen(agreeing),
				 sizeof(agreeing) - strlen(agreeing), "%s%s",
				 agreeing[0] ? ", " : "", hs_profiles[k].name);
	}
	if (n->cold_bad)
		pr_info("identify: damon_cold_score() is not 99 - hot on %llu inputs\n",
			n->cold_bad);
	pr_info("identify: scores outside [0, 99]: %llu\n", n->outside);
	pr_info("identify: verdict: %s\n",
		agreeing[0] ? agreeing : "no profile agrees on every input");
	kmod_json_begin(&j);
	kmod_json_str(&j, "verdict", agreeing);
	kmod_json_u64(&j, "inputs", total);
	kmod_json_u64(&j, "cold_mismatch", n->cold_bad);
	kmod_json_u64(&j, "outside", n->outside);
	kmod_json_end(&j);
}

int kmod_identify(const struct kmod_fn *v, unsigned int nr_v)
{
	const struct kmod_cand *cand = kmod_candidate();
	struct tally *tally = NULL, cand_tally = { 0 };
	struct counts n = { 0 };
	struct hs_input *pool;
	int err;

	pool = seed_pool();
	if (!pool)
		return -ENOMEM;
	err = vet_candidates(v, nr_v, pool);
	if (err || !resolve_kernel())
		goto out;
	err = -ENOMEM;
	tally = kcalloc(hs_nr_profiles, sizeof(*tally), GFP_KERNEL);
	if (!alloc_damon() || !tally)
		goto out;
	pr_info("identify: calling %pS and %pS\n", kernel_hot, kernel_cold);
	if (cand)
		pr_info("identify: and the candidate %s at %pS\n", cand->file,
			cand->hot);
	err = compare_profiles(tally, &cand_tally, &n);
	if (err)
		goto out;
	pr_info("identify: %llu inputs compared, %llu skipped (some profile divides by zero there)\n",
		n.total, n.skipped);
	report_verdict(tally, &n);
	/* the candidate against this kernel's own function */
	if (cand)
		report(cand->name, cand->file, kmod_cand_base(), &cand_tally,
		       n.total);
	err = bench_real(pool, v, nr_v);
out:
	kvfree(pool);
	kfree(tally);
	kfree(ctx);
	kfree(region);
	kfree(scheme);
	return err;
}
#endif
