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
 * model's variants.
 */
#define pr_fmt(fmt) "hotscore: " fmt

#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/version.h>
#include <linux/damon.h>

#include <hotscore/damon_bench.h>
#include <hotscore/stats.h>

#include "kmod.h"

/* this file drives struct damon_ctx's attrs, which appeared in 6.1 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 1, 0)
#define KMOD_CAN_IDENTIFY 1
#else
#define KMOD_CAN_IDENTIFY 0
#endif

static struct kmod_param inputs_param = { "4000000" };
module_param_cb(inputs, &kmod_param_ops, &inputs_param, 0444);
MODULE_PARM_DESC(inputs,
		 "identify: inputs to generate, 1 to 10^9 (default 4000000)");
static unsigned long inputs;	/* checked by kmod_identify_params() */

#if KMOD_CAN_IDENTIFY
typedef int (*damon_score_fn)(struct damon_ctx *c, struct damon_region *r,
			      struct damos *s);

static damon_score_fn kernel_hot, kernel_cold;
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

/* The kernel's structures from a model input. */
static void set_input(const struct hs_input *in)
{
	ctx->attrs.sample_interval = in->sample_us;
	ctx->attrs.aggr_interval = in->aggr_us;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
	ctx->passed_sample_intervals = in->passed_sis;
	ctx->next_aggregation_sis = in->next_aggr_sis;
#endif
	region->nr_accesses = in->nr_accesses;
	region->last_nr_accesses = in->last_nr_accesses;
	region->age = in->age;
	scheme->quota.weight_nr_accesses = in->weight_nr_accesses;
	scheme->quota.weight_age = in->weight_age;
}

/* What this kernel's structures can hold of an input. */
static void fit_input(struct hs_input *in)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
	/* no moving-sum fields: the window is always complete */
	in->passed_sis = 0;
	in->next_aggr_sis = 0;
#endif
}

/* Boundaries first, then seeded random values at full field widths. */
static void make_input(u64 i, u64 *rnd, struct hs_input *in)
{
	static const unsigned long samples[] = { 1, 3, 1000, 5000, 100000,
						 4294967295UL };
	static const unsigned long aggrs[] = { 1, 10, 100000, 1000000,
					       4294967296UL, 4294967301UL,
					       429496729600000UL };
	static const unsigned int weights[] = { 0, 1, 3, 1000, 33554432,
						2147483648U, 4294967295U };
	u64 r = hs_stats_rand(rnd);

	memset(in, 0, sizeof(*in));
	if (i & 1) {		/* a grid point, jittered */
		in->sample_us = samples[r % ARRAY_SIZE(samples)];
		in->aggr_us = aggrs[(r >> 8) % ARRAY_SIZE(aggrs)];
		in->nr_accesses = (unsigned int)((r >> 16) % 202);
		in->age = (1U << ((r >> 24) % 32)) - ((r >> 29) & 1);
		in->weight_nr_accesses = weights[(r >> 32) % ARRAY_SIZE(weights)];
		in->weight_age = weights[(r >> 40) % ARRAY_SIZE(weights)];
	} else {		/* anything at all */
		in->sample_us = hs_stats_rand(rnd) >> (r % 64);
		in->aggr_us = hs_stats_rand(rnd) >> ((r >> 6) % 64);
		in->nr_accesses = (u32)hs_stats_rand(rnd) >> ((r >> 12) % 32);
		in->age = (u32)hs_stats_rand(rnd) >> ((r >> 17) % 32);
		in->weight_nr_accesses = (u32)hs_stats_rand(rnd) >>
			((r >> 22) % 32);
		in->weight_age = (u32)hs_stats_rand(rnd) >> ((r >> 27) % 32);
	}
	in->last_nr_accesses = (u32)(r >> 48);
	in->next_aggr_sis = hs_stats_rand(rnd) % 1000;
	in->passed_sis = in->next_aggr_sis - (r >> 60);
	fit_input(in);
}

struct tally {
	u64 agree, differ;
	struct hs_input first;
	int kernel_hot, model_hot;
};

static void report_profile(const struct hs_profile *p, const struct tally *t,
			   u64 total)
{
	const struct hs_input *in = &t->first;

	if (!t->differ) {
		pr_info("identify: %-15s agrees on all %llu inputs\n", p->name,
			total);
		kmod_out("{\"schema\":\"hotscore-kmod-1\",\"identify\":\"%s\",\"agree\":%llu,\"differ\":0}\n",
			 p->name, t->agree);
		return;
	}
	pr_info("identify: %-15s differs on %llu of %llu; first: hotscore score --profile %s --sample %luus --aggr %luus --nr_accesses %u --last_nr_accesses %u --age %u --passed_sis %lu --next_aggr_sis %lu --weight_nr_accesses %u --weight_age %u gives %d, this kernel %d\n",
		p->name, t->differ, total, p->name, in->sample_us,
		in->aggr_us, in->nr_accesses, in->last_nr_accesses, in->age,
		in->passed_sis, in->next_aggr_sis, in->weight_nr_accesses,
		in->weight_age, t->model_hot, t->kernel_hot);
	kmod_out("{\"schema\":\"hotscore-kmod-1\",\"identify\":\"%s\",\"agree\":%llu,\"differ\":%llu}\n",
		 p->name, t->agree, t->differ);
}

/* Compare every profile with the kernel on @inputs inputs. */
static int compare_profiles(struct tally *tally, u64 *total, u64 *skipped,
			    u64 *cold_bad)
{
	u64 rnd = 0x68f5c0de, i;
	unsigned int k;

	if (hs_nr_profiles > KMOD_MAX_PROFILES)
		return -EINVAL;
	for (i = 0; i < inputs; i++) {
		struct hs_result res[KMOD_MAX_PROFILES];
		struct hs_input in;
		bool div0 = false;
		int hot, cold;

		make_input(i, &rnd, &in);
		for (k = 0; k < hs_nr_profiles; k++) {
			res[k] = hs_score(&hs_profiles[k].comp, &in, NULL);
			div0 |= res[k].status == HS_DIV0;
		}
		if (div0) {	/* never divide by zero in the kernel */
			(*skipped)++;
			continue;
		}
		set_input(&in);
		hot = kernel_hot(ctx, region, scheme);
		cold = kernel_cold(ctx, region, scheme);
		/* damon_cold_score(): DAMOS_MAX_SCORE - hot, as an int */
		if (cold != (int)(99U - (unsigned int)hot))
			(*cold_bad)++;
		(*total)++;
		for (k = 0; k < hs_nr_profiles; k++) {
			struct tally *t = &tally[k];

			if (res[k].hot == hot) {
				t->agree++;
				continue;
			}
			if (!t->differ++) {
				t->first = in;
				t->kernel_hot = hot;
				t->model_hot = res[k].hot;
			}
		}
		if (!(i & 4095)) {
			cond_resched();
			if (fatal_signal_pending(current))
				return -EINTR;
		}
	}
	return 0;
}

static const struct hs_variant *bench_variants[KMOD_MAX_VARIANTS];

/* The kernel's function with the model's input, for the bench. */
static int real_hot(const void *p)
{
	set_input(p);
	return kernel_hot(ctx, region, scheme);
}

/* A model variant behind the same field stores, for a fair pairing. */
#define VARIANT_THUNK(i)						\
static int thunk_##i(const void *p)					\
{									\
	set_input(p);							\
	return bench_variants[i]->fn(p);				\
}
VARIANT_THUNK(0) VARIANT_THUNK(1) VARIANT_THUNK(2) VARIANT_THUNK(3)
static const hs_bench_fn thunks[KMOD_IDENTIFY_VARIANTS] = {
	thunk_0, thunk_1, thunk_2, thunk_3 };

static int bench_real(const struct hs_variant *const *v, unsigned int nr_v)
{
	struct hs_input *in = kvmalloc_array(1000, sizeof(*in), GFP_KERNEL);
	struct hs_pool pool = { in, sizeof(*in), 1000, 1 };
	hs_bench_fn fns[2 + ARRAY_SIZE(thunks)];
	const char *names[2 + ARRAY_SIZE(thunks)];
	struct hs_clock clk;
	unsigned int i, nf = 0;
	int err;

	if (!in)
		return -ENOMEM;
	for (i = 0; i < 1000; i++) {	/* the seed's inputs */
		hs_dist_input(HS_DIST_SEED, kmod_seed(), (u64)i * 10000,
			      &in[i]);
		fit_input(&in[i]);
	}
	if (kmod_clock(&clk)) {
		kvfree(in);
		return -ENODEV;
	}
	fns[nf] = hs_bench_empty;
	names[nf++] = "empty";
	fns[nf] = real_hot;
	names[nf++] = "kernel";
	for (i = 0; i < nr_v && i < ARRAY_SIZE(thunks); i++) {
		bench_variants[i] = v[i];
		fns[nf] = thunks[i];
		names[nf++] = v[i]->name;
	}
	err = kmod_bench_fns(&clk, &pool, fns, names, nf, HS_THROUGHPUT,
			     "seed");
	kvfree(in);
	return err;
}

#endif

/* identify's own parameter, checked at load whatever the mode. */
int kmod_identify_params(void)
{
	return kmod_param_ulong("inputs", &inputs_param, 1, 1000000000UL,
				"1 to 10^9", &inputs);
}

/**
 * kmod_identify() - mode=identify.
 * @v:		the variants to time next to the kernel's function.
 * @nr_v:	how many.
 *
 * Return: 0 (also without DAMON: that is reported, not an error), or
 * -ENOMEM.
 */
#if !KMOD_CAN_IDENTIFY
int kmod_identify(const struct hs_variant *const *v, unsigned int nr_v)
{
	pr_info("identify: needs Linux 6.1 or later\n");
	kmod_out("{\"schema\":\"hotscore-kmod-1\",\"identify\":\"unsupported\"}\n");
	return 0;
}
#else
int kmod_identify(const struct hs_variant *const *v, unsigned int nr_v)
{
	struct tally *tally = NULL;
	u64 total = 0, skipped = 0, cold_bad = 0;
	char agreeing[256] = "";
	unsigned int k;
	int err = -ENOMEM;


	void *hot = resolve("damon_hot_score");
	void *cold = resolve("damon_cold_score");

	if (IS_ERR(hot) || IS_ERR(cold)) {
		long e = IS_ERR(hot) ? PTR_ERR(hot) : PTR_ERR(cold);

		if (e == -ENOENT) {
			pr_info("identify: no DAMON in this kernel (damon_hot_score not found)\n");
			kmod_out("{\"schema\":\"hotscore-kmod-1\",\"identify\":\"no-damon\"}\n");
		} else if (e == -EOPNOTSUPP) {
			pr_info("identify: cannot call damon_hot_score here (%s)\n",
				IS_ENABLED(CONFIG_KPROBES) ?
				"IBT sealed its entry" : "no kprobes to find it");
			kmod_out("{\"schema\":\"hotscore-kmod-1\",\"identify\":\"cannot-call\"}\n");
		} else {
			pr_info("identify: cannot look damon_hot_score up: kprobe error %ld\n",
				e);
			kmod_out("{\"schema\":\"hotscore-kmod-1\",\"identify\":\"lookup-failed\"}\n");
		}
		return 0;
	}
	kernel_hot = hot;
	kernel_cold = cold;
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	region = kzalloc(sizeof(*region), GFP_KERNEL);
	scheme = kzalloc(sizeof(*scheme), GFP_KERNEL);
	tally = kcalloc(hs_nr_profiles, sizeof(*tally), GFP_KERNEL);
	if (!ctx || !region || !scheme || !tally)
		goto out;
	pr_info("identify: calling %pS and %pS\n", kernel_hot, kernel_cold);
	err = compare_profiles(tally, &total, &skipped, &cold_bad);
	if (err)
		goto out;
	pr_info("identify: %llu inputs compared, %llu skipped (some profile divides by zero there)\n",
		total, skipped);
	for (k = 0; k < hs_nr_profiles; k++) {
		report_profile(&hs_profiles[k], &tally[k], total);
		if (!tally[k].differ && total)
			snprintf(agreeing + strlen(agreeing),
				 sizeof(agreeing) - strlen(agreeing), "%s%s",
				 agreeing[0] ? ", " : "", hs_profiles[k].name);
	}
	if (cold_bad)
		pr_info("identify: damon_cold_score() is not 99 - hot on %llu inputs\n",
			cold_bad);
	pr_info("identify: verdict: %s\n",
		agreeing[0] ? agreeing : "no profile agrees on every input");
	kmod_out("{\"schema\":\"hotscore-kmod-1\",\"verdict\":\"%s\",\"inputs\":%llu,\"cold_mismatch\":%llu}\n",
		 agreeing, total, cold_bad);
	err = bench_real(v, nr_v);
out:
	kfree(tally);
	kfree(ctx);
	kfree(region);
	kfree(scheme);
	return err;
}
#endif
