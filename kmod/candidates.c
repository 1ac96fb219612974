// SPDX-License-Identifier: GPL-2.0
/*
 * candidates.c - candidates: your damon_hot_score(), compiled into the module
 * from a C file against this kernel's headers (make kmod CANDIDATE=FILE:
 * cand_user.c), and examples/candidates/hotfix.c compiled the same way
 * beside it (cand_hotfix.c), the like-with-like baseline.  variants= names
 * them "candidate" and "hotfix-cand".  Without CANDIDATE= there are none.
 *
 * Before a candidate is timed it must equal against= on the inputs it is
 * about to be timed on and on KMOD_VET_INPUTS of identify's discriminating
 * inputs; one that differs is refused, with one line and -EINVAL.  No input
 * on which some profile divides by zero is ever passed to a candidate: in
 * the kernel a trap is an oops, not a status (hotscore verify catches traps
 * in user space).  For the timing, each input becomes a real struct
 * damon_region, with a struct damon_ctx and a struct damos shared while the
 * inputs' intervals and weights are (a kdamond's one context and scheme,
 * many regions), all built before the first batch.
 */
#define pr_fmt(fmt) "hotscore: " fmt

#include <linux/list.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kmod.h"

#if KMOD_HAVE_ATTRS
#include "cand_env.h"

#define KMOD_VET_INPUTS 100000	/* identify's inputs, before the timing */

/**
 * struct kmod_cand_call - one input of a candidate's pool, as a kdamond
 * hands it to the scoring function.
 * @c:	the context: its intervals.
 * @s:	the scheme: its weights.
 * @r:	the region.
 */
struct kmod_cand_call {
	struct damon_ctx *c;
	struct damos *s;
	struct damon_region r;
};

#ifdef HS_KMOD_CANDIDATE
/*
 * What the engine calls, through a pointer, for each input: the function
 * itself is in another object, as damon_hot_score() is to its callers in
 * paddr.c, so it is called, not inlined.
 */
static int user_bench(const void *p)
{
	const struct kmod_cand_call *k = p;

	return kmod_cand_user_hot(k->c, (struct damon_region *)&k->r, k->s);
}

static int hotfix_bench(const void *p)
{
	const struct kmod_cand_call *k = p;

	return kmod_cand_hotfix_hot(k->c, (struct damon_region *)&k->r, k->s);
}
#endif

static const struct kmod_cand cands[] = {
#ifdef HS_KMOD_CANDIDATE
	{ "candidate", HS_CAND_NAME, kmod_cand_user_hot, user_bench },
	{ "hotfix-cand", "examples/candidates/hotfix.c", kmod_cand_hotfix_hot,
	  hotfix_bench },
#endif
};

/* what a candidate must equal before it is timed (against=) */
static struct hs_components against;
static char against_name[64];

/**
 * kmod_cand_base() - the profile whose divisor damon_max_nr_accesses() has
 * in the candidates' kernel, for `hotscore score --base`: the 2026
 * hotfix's never returns 0, v6.6's returns 0 when aggr < sample.
 */
const char *kmod_cand_base(void)
{
	struct damon_attrs a = { .sample_interval = 10, .aggr_interval = 5 };

	return damon_max_nr_accesses(&a) ? "hotfix" : "v6.6";
}

/**
 * kmod_cand_against() - resolve against=, as hotscore bench's --against:
 * the profile given, else the first model variant of variants=, else
 * hotfix.
 * @given:	against=, or "" when not given.
 * @fns:	variants=.
 * @nr:		how many.
 *
 * Return: 0, or -EINVAL (logged) for no such profile.
 */
int kmod_cand_against(const char *given, const struct kmod_fn *fns,
		      unsigned int nr)
{
	const struct hs_profile *p = NULL;
	unsigned int k;

	if (*given) {
		p = hs_profile_find(given);
		if (!p) {
			pr_err("against=" KMOD_SHOW_FMT ": no profile (hotscore score --list-profiles)\n",
			       KMOD_SHOW(given));
			return -EINVAL;
		}
	}
	for (k = 0; k < nr && !fns[k].v; k++)
		;
	hs_base_pick(p, k < nr ? &fns[k].v->comp : NULL,
		     k < nr ? fns[k].v->name : NULL, &against, against_name,
		     sizeof(against_name));
	return 0;
}

/* The candidate's structures, zeroed, their lists empty: NULL on -ENOMEM. */
static struct damon_ctx *new_ctx(void)
{
	struct damon_ctx *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (c) {
		INIT_LIST_HEAD(&c->adaptive_targets);
		INIT_LIST_HEAD(&c->schemes);
	}
	return c;
}

static struct damos *new_scheme(void)
{
	struct damos *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (s)
		INIT_LIST_HEAD(&s->list);
	return s;
}

/* What kmod_cand_vet() calls the candidate on, and what it found. */
struct vet {
	struct damon_ctx *ctx;
	struct damon_region *region;
	struct damos *scheme;
	u64 checked, skipped, differ;
	struct hs_input first;		/* the first input it differs on */
	int first_got, first_want;
};

/* The candidate on @in, on real structures, against against='s score. */
static void vet_one(const struct kmod_cand *c, struct vet *v,
		    struct hs_input *in)
{
	int want = hs_score(&against, in, NULL).hot, got;

	kmod_set_input(in, v->ctx, v->region, v->scheme);
	got = c->hot(v->ctx, v->region, v->scheme);
	v->checked++;
	if (got != want && !v->differ++) {
		v->first = *in;
		v->first_got = got;
		v->first_want = want;
	}
}

/* One line for a candidate that differs: where first, and how to see it. */
static void vet_report_differ(const struct kmod_cand *c, const struct vet *v)
{
	char args[320];

	kmod_input_args(args, sizeof(args), &v->first);
	pr_err("variants: %s (%s) differs from %s on %llu of %llu inputs, so it is not timed; first: hotscore score --profile %s,%s --base %s %s gives %s %d, %s %d\n",
	       c->name, c->file, against_name, v->differ, v->checked,
	       against_name, c->file, kmod_cand_base(), args,
	       against_name, v->first_want, c->name, v->first_got);
}

/**
 * kmod_cand_vet() - a candidate must equal against= before it is timed.
 * @c:		the candidate.
 * @pool:	the inputs it is to be timed on.
 * @nr:		how many.
 *
 * It is called on @pool, then on KMOD_VET_INPUTS of identify's inputs
 * (boundaries, the grid and full-width random values), on real structures,
 * except where some profile divides by zero.
 *
 * Return: 0; -EINVAL with one line if it differs anywhere (or if the pool
 * holds an input that would divide by zero); -ENOMEM; -EINTR.
 */
int kmod_cand_vet(const struct kmod_cand *c, const struct hs_input *pool,
		  size_t nr)
{
	struct vet v = { .ctx = new_ctx(), .scheme = new_scheme() };
	u64 rnd = 0x68f5c0de, i;
	struct hs_input in;
	int err = -ENOMEM;

	v.region = kzalloc(sizeof(*v.region), GFP_KERNEL);
	if (!v.ctx || !v.region || !v.scheme)
		goto out;
	INIT_LIST_HEAD(&v.region->list);
	err = 0;
	for (i = 0; i < nr + KMOD_VET_INPUTS; i++) {
		if (i < nr)
			in = pool[i];
		else
			kmod_make_input(i - nr, &rnd, &in);
		if (kmod_any_div0(&in)) {
			if (i < nr) {	/* the distributions never do */
				pr_err("variants: %s: input %llu of the pool divides by zero in some profile\n",
				       c->name, i);
				err = -EINVAL;
				goto out;
			}
			v.skipped++;
			continue;
		}
		vet_one(c, &v, &in);
		if (!(i & 4095)) {
			cond_resched();
			if (fatal_signal_pending(current)) {
				pr_err("interrupted\n");
				err = -EINTR;
				goto out;
			}
		}
	}
	if (v.differ) {
		vet_report_differ(c, &v);
		err = -EINVAL;
		goto out;
	}
	pr_info("%s: %s equals %s on all %llu inputs checked (the %zu to be timed and %llu of identify's; %llu skipped: some profile divides by zero there)\n",
		c->name, c->file, against_name, v.checked, nr, v.checked - nr,
		v.skipped);
out:
	kfree(v.ctx);
	kfree(v.region);
	kfree(v.scheme);
	return err;
}

/**
 * kmod_cand_pool() - a candidate's inputs as a kdamond has them: a region
 * each, a context and a scheme shared while the intervals and weights are.
 * @c:		the candidate (unused: every candidate takes the same).
 * @in:		the inputs.
 * @nr:		how many.
 * @pool:	receives the pool; kmod_cand_pool_free() frees it.
 *
 * Return: 0 or -ENOMEM.
 */
int kmod_cand_pool(const struct kmod_cand *c, const struct hs_input *in,
		   size_t nr, struct hs_pool *pool)
{
	struct kmod_cand_call *calls = kvcalloc(nr, sizeof(*calls),
						GFP_KERNEL);
	size_t i;

	*pool = (struct hs_pool){ calls, sizeof(*calls), nr, 1 };
	if (!calls)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		const struct hs_input *a = &in[i], *b = &in[i ? i - 1 : 0];
		struct kmod_cand_call *k = &calls[i];

		k->c = i ? calls[i - 1].c : NULL;
		k->s = i ? calls[i - 1].s : NULL;
		if (!k->c || a->sample_us != b->sample_us ||
		    a->aggr_us != b->aggr_us ||
		    a->passed_sis != b->passed_sis ||
		    a->next_aggr_sis != b->next_aggr_sis)
			k->c = new_ctx();
		if (!k->s || a->weight_nr_accesses != b->weight_nr_accesses ||
		    a->weight_age != b->weight_age)
			k->s = new_scheme();
		INIT_LIST_HEAD(&k->r.list);
		if (!k->c || !k->s) {
			pool->nr = i + 1;
			kmod_cand_pool_free(pool);
			return -ENOMEM;
		}
		kmod_set_input(a, k->c, &k->r, k->s);
	}
	return 0;
}

/**
 * kmod_cand_pool_free() - free what kmod_cand_pool() built.
 * @pool:	the pool; its base may be NULL.
 */
void kmod_cand_pool_free(struct hs_pool *pool)
{
	struct kmod_cand_call *calls = (struct kmod_cand_call *)pool->base;
	size_t i;

	/* shared structures are next to each other: free each run once */
	for (i = 0; calls && i < pool->nr; i++) {
		if (!i || calls[i].c != calls[i - 1].c)
			kfree(calls[i].c);
		if (!i || calls[i].s != calls[i - 1].s)
			kfree(calls[i].s);
	}
	kvfree(calls);
	pool->base = NULL;
}

#else	/* before 6.1: no candidates (cand_env.h refuses to build one) */
static const struct kmod_cand cands[] = { };

int kmod_cand_against(const char *given, const struct kmod_fn *fns,
		      unsigned int nr)
{
	const struct hs_profile *p = *given ? hs_profile_find(given) : NULL;

	if (*given && !p) {
		pr_err("against=" KMOD_SHOW_FMT ": no profile (hotscore score --list-profiles)\n",
		       KMOD_SHOW(given));
		return -EINVAL;
	}
	return 0;
}

const char *kmod_cand_base(void)
{
	return "hotfix";
}

int kmod_cand_vet(const struct kmod_cand *c, const struct hs_input *pool,
		  size_t nr)
{
	return -EINVAL;
}

int kmod_cand_pool(const struct kmod_cand *c, const struct hs_input *in,
		   size_t nr, struct hs_pool *pool)
{
	return -EINVAL;
}

void kmod_cand_pool_free(struct hs_pool *pool)
{
}
#endif

/**
 * kmod_cand_find() - a candidate built in, by its name in variants=.
 * @name:	"candidate" or "hotfix-cand".
 *
 * Return: the candidate, or NULL.
 */
const struct kmod_cand *kmod_cand_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cands); i++)
		if (!strcmp(cands[i].name, name))
			return &cands[i];
	return NULL;
}

/* Whether @name is a candidate's, built in or not: for the message. */
bool kmod_cand_known(const char *name)
{
	return !strcmp(name, "candidate") || !strcmp(name, "hotfix-cand");
}

/* The candidate of CANDIDATE=, or NULL. */
const struct kmod_cand *kmod_candidate(void)
{
	return kmod_cand_find("candidate");
}
