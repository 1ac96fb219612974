// SPDX-License-Identifier: GPL-2.0
/*
 * prepared.c - the prepared scorer in the kernel: the calls of fast (one
 * region a call) and of the portable batches (fast-batch-scalar,
 * hotfix-batch: HS_BATCH_REGIONS regions a call), built from the bench's
 * pool by the builder `hotscore bench` uses (src/bench/calls.c), with
 * kvmalloc() for memory, and vetted: every call must return the model's
 * score for every region it covers before anything is timed.
 */
#define pr_fmt(fmt) "hotscore: " fmt

#include <linux/slab.h>
#include <linux/string.h>

#include "kmod.h"

static void *kv_zalloc(void *ctx, size_t nr, size_t size)
{
	return kvcalloc(nr, size, GFP_KERNEL);
}

static void kv_free(void *ctx, void *p)
{
	kvfree(p);
}

static const struct hs_alloc kv_alloc = { kv_zalloc, kv_free, NULL };

/* The profile whose components @v computes, for the log; else its parts. */
static const char *model_name(const struct hs_variant *v, char *buf,
			      size_t len)
{
	unsigned int i;

	for (i = 0; i < hs_nr_profiles; i++)
		if (!memcmp(&hs_profiles[i].comp, &v->comp, sizeof(v->comp)))
			return hs_profiles[i].name;
	hs_components_format(&v->comp, buf, len);
	return buf;
}

/* Every call's scores against the model's; one line either way. */
static int vet(const struct hs_calls *c, const struct hs_variant *v,
	       const struct hs_input *in, size_t nr, const char *dist)
{
	unsigned int per = hs_variant_regions(v);
	struct hs_calls_diff diff;
	char buf[64];

	if (!hs_calls_vet(c, v, in, nr, &diff)) {
		pr_err("variants: %s returns %d where the model gives %d on input %zu of dist %s: an internal error\n",
		       v->name, diff.got, diff.want, diff.row, dist);
		return -EINVAL;
	}
	if (per == 1)
		pr_info("%s: its %zu calls, one region each, return %s's score on all %zu inputs, checked before the timing\n",
			v->name, c->pool.nr, model_name(v, buf, sizeof(buf)),
			nr);
	else
		pr_info("%s: its %zu calls of %u regions return %s's score for all %zu regions (each of the %zu inputs %zu times), checked before the timing\n",
			v->name, c->pool.nr, per,
			model_name(v, buf, sizeof(buf)), c->pool.nr * per, nr,
			c->pool.nr * per / nr);
	return 0;
}

/**
 * kmod_calls_build() - what a prepared or batch variant is timed on.
 * @c:		receives the calls; give them back with kmod_calls_free().
 * @v:		the variant: its call is HS_CALL_FAST or HS_CALL_BATCH.
 * @in:		the bench's pool, which no profile divides by zero on.
 * @nr:		its size.
 * @dist:	its distribution's name, for the messages.
 *
 * Return: 0; -EINVAL, with one line, if the pool's rows do not share one
 * scheme or a call's score is not the model's; -ENOMEM.
 */
int kmod_calls_build(struct hs_calls *c, const struct hs_variant *v,
		     const struct hs_input *in, size_t nr, const char *dist)
{
	size_t row = 0;
	int err;

	switch (hs_calls_build(c, v, hs_fast_batch, in, nr, &kv_alloc, &row)) {
	case HS_CALLS_OK:
		break;
	case HS_CALLS_SCHEMES:
		pr_err("dist=%s: row %zu has other intervals, weights or window than row 1; %s prepares one scheme\n",
		       dist, row + 1, v->name);
		return -EINVAL;
	default:
		pr_err("variants: %s: no memory for its calls\n", v->name);
		return -ENOMEM;
	}
	err = vet(c, v, in, nr, dist);
	if (err)
		kmod_calls_free(c);
	return err;
}

/**
 * kmod_calls_free() - give back what kmod_calls_build() took.
 * @c:	the calls; zeroed.
 */
void kmod_calls_free(struct hs_calls *c)
{
	hs_calls_free(c, &kv_alloc);
}
