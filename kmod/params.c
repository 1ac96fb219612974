// SPDX-License-Identifier: GPL-2.0
/*
 * params.c - the module's parameters: each kept as the text it was given,
 * then parsed and checked at load (kmod_parse_params()), the first bad one
 * logged.  identify.c and capture.c add their own through kmod_param_ops.
 */
#define pr_fmt(fmt) "hotscore: " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include <hotscore/bench_damon.h>

#include "kmod.h"


/*
 * The parameters.  The kernel's own types cannot refuse a bad value with
 * -EINVAL and one line: a number past its type gives -ERANGE, a charp over
 * 1024 bytes -ENOSPC, and each failure is logged twice (by the type and by
 * parse_args()).  So every parameter is kept as the text it was given (a
 * copy, at most KMOD_PARAM_MAX characters), its .set never fails, and
 * kmod_parse_params() parses and checks them all at load, logging the
 * first bad one.  Only a parameter given without '=' is refused by the
 * kernel itself: -EINVAL, with its one line "`' invalid for parameter
 * `runs'".
 */
static int param_set(const char *val, const struct kernel_param *kp)
{
	struct kmod_param *p = kp->arg;

	p->too_long = strscpy(p->text, val, sizeof(p->text)) < 0;
	p->given = true;
	return 0;
}

static int param_get(char *buf, const struct kernel_param *kp)
{
	const struct kmod_param *p = kp->arg;

	return scnprintf(buf, PAGE_SIZE, "%s\n", p->text);
}

const struct kernel_param_ops kmod_param_ops = {
	.set = param_set,
	.get = param_get,
};

/**
 * kmod_param_text() - a string parameter's text, if it is not too long.
 * @name:	the parameter, for the message.
 * @p:		the parameter.
 *
 * Return: the text, or NULL (logged) if the value did not fit.
 */
const char *kmod_param_text(const char *name, const struct kmod_param *p)
{
	if (p->too_long) {
		pr_err("%s=" KMOD_SHOW_FMT ": longer than %zu characters\n",
		       name, KMOD_SHOW(p->text), sizeof(p->text) - 1);
		return NULL;
	}
	return p->text;
}

/**
 * kmod_param_ulong() - a number parameter, parsed and checked.
 * @name:	the parameter, for the message.
 * @p:		the parameter: decimal, 0x hex or 0 octal, as the kernel's
 *		own ulong parameters.
 * @min:	its smallest value.
 * @max:	its largest.
 * @range:	the range as the message gives it ("1 to 100").
 * @val:	receives the value.
 *
 * Return: 0, or -EINVAL with one line logged.
 */
int kmod_param_ulong(const char *name, const struct kmod_param *p,
		     unsigned long min, unsigned long max, const char *range,
		     unsigned long *val)
{
	if (p->too_long || kstrtoul(p->text, 0, val) || *val < min ||
	    *val > max) {
		pr_err("%s=" KMOD_SHOW_FMT ": give %s\n", name,
		       KMOD_SHOW(p->text), range);
		return -EINVAL;
	}
	return 0;
}

static struct kmod_param mode_param = { "bench" };
module_param_cb(mode, &kmod_param_ops, &mode_param, 0444);
MODULE_PARM_DESC(mode, "bench (default), identify or capture");
static struct kmod_param variants_param = { "loop,fls,ilog2" };
module_param_cb(variants, &kmod_param_ops, &variants_param, 0444);
MODULE_PARM_DESC(variants, "variants to time, the first is the baseline");
static struct kmod_param dist_param = { "seed" };
module_param_cb(dist, &kmod_param_ops, &dist_param, 0444);
MODULE_PARM_DESC(dist, "input distribution: seed uniform young zero worst");
static struct kmod_param modes_param = { "throughput,latency" };
module_param_cb(modes, &kmod_param_ops, &modes_param, 0444);
MODULE_PARM_DESC(modes, "throughput, latency or both");
static struct kmod_param iterations_param = { "10000000" };
module_param_cb(iterations, &kmod_param_ops, &iterations_param, 0444);
MODULE_PARM_DESC(iterations,
		 "calls per variant per run, 12000 to 10^8 (the seed: 10^7)");
/* the interval resamples the runs: a verdict needs 6 (HS_MIN_ROUNDS) */
static struct kmod_param runs_param = { "10" };
module_param_cb(runs, &kmod_param_ops, &runs_param, 0444);
MODULE_PARM_DESC(runs, "runs, each after its own warm-up, 1 to 100 (default 10; the seed: 5)");
static struct kmod_param seed_param = { "1" };
module_param_cb(seed, &kmod_param_ops, &seed_param, 0444);
MODULE_PARM_DESC(seed, "seeds the input pool");
static struct kmod_param against_param = { "" };
module_param_cb(against, &kmod_param_ops, &against_param, 0444);
MODULE_PARM_DESC(against,
		 "the profile a candidate must equal before it is timed (default: the first model variant of variants, else hotfix)");


/* the parameters' values, once kmod_parse_params() has checked them */
static unsigned long iterations;
static unsigned int runs;
static unsigned long seed;

/**
 * kmod_seed() - seed=, once checked: it seeds the input pool.
 *
 * Return: the seed.
 */
unsigned long kmod_seed(void)
{
	return seed;
}

/**
 * kmod_iterations() - iterations=, once checked.
 *
 * Return: calls per function per run.
 */
unsigned long kmod_iterations(void)
{
	return iterations;
}

/**
 * kmod_runs() - runs=, once checked.
 *
 * Return: the runs, each after its own warm-up.
 */
unsigned int kmod_runs(void)
{
	return runs;
}

/* Split @s at commas into @names; -EINVAL on an empty or long field. */
static int split(const char *param, const char *s, char names[][32],
		 unsigned int max, unsigned int *nr)
{
	const char *all = s;
	unsigned int i;

	*nr = 0;
	while (*s) {
		size_t len = strcspn(s, ",");

		if (!len || len >= 32 || *nr == max ||
		    (s[len] == ',' && !s[len + 1])) {
			pr_err("%s=" KMOD_SHOW_FMT ": give up to %u comma-separated names\n",
			       param, KMOD_SHOW(all), max);
			return -EINVAL;
		}
		memcpy(names[*nr], s, len);
		names[*nr][len] = '\0';
		for (i = 0; i < *nr; i++)
			if (!strcmp(names[i], names[*nr])) {
				pr_err("%s=" KMOD_SHOW_FMT ": '" KMOD_SHOW_FMT "' twice\n",
				       param, KMOD_SHOW(all),
				       KMOD_SHOW(names[i]));
				return -EINVAL;
			}
		(*nr)++;
		s += len + (s[len] == ',');
	}
	if (!*nr) {
		pr_err("%s: empty\n", param);
		return -EINVAL;
	}
	return 0;
}

/* mode=: bench, identify or capture. */
static int parse_mode(struct kmod_config *c)
{
	const char *mode = kmod_param_text("mode", &mode_param);

	if (!mode)
		return -EINVAL;
	c->identify = !strcmp(mode, "identify");
	c->capture = !strcmp(mode, "capture");
	if (strcmp(mode, "bench") && !c->identify && !c->capture) {
		pr_err("mode=" KMOD_SHOW_FMT ": give bench, identify or capture\n",
		       KMOD_SHOW(mode));
		return -EINVAL;
	}
	return 0;
}

/* One name of variants=: a model variant or a built-in candidate. */
static int find_variant(struct kmod_fn *f, const char *name, bool identify)
{
	f->v = hs_variant_find(name);
	f->cand = f->v ? NULL : kmod_cand_find(name);
	if (!f->v && !f->cand && kmod_cand_known(name)) {
		pr_err("variants: '%s': no candidate built in (make kmod CANDIDATE=FILE)\n",
		       name);
		return -EINVAL;
	}
	if (!f->v && !f->cand) {
		pr_err("variants: no variant '" KMOD_SHOW_FMT "'\n",
		       KMOD_SHOW(name));
		return -EINVAL;
	}
	if (f->v && f->v->user_only && f->v->vector) {
		pr_err("variants: '%s' is timed in user space only (hotscore bench): it takes a vector unit, which kernel code does not; the kernel's batch is fast-batch-scalar\n",
		       name);
		return -EINVAL;
	}
	if (f->v && f->v->user_only) {
		pr_err("variants: '%s' is timed in user space only (hotscore bench)\n",
		       name);
		return -EINVAL;
	}
	/* identify stores each input into the kernel's own structures */
	if (f->v && identify && f->v->call != HS_CALL_INPUT) {
		pr_err("variants: identify times damon_hot_score()'s own form only; time '%s' with mode=bench\n",
		       name);
		return -EINVAL;
	}
	f->name = f->v ? f->v->name : f->cand->name;
	return 0;
}

/* variants=: at most KMOD_IDENTIFY_VARIANTS of them for identify. */
static int parse_variants(struct kmod_config *c)
{
	char names[KMOD_MAX_VARIANTS][32];
	const char *variants = kmod_param_text("variants", &variants_param);
	unsigned int i, nr;

	if (!variants ||
	    split("variants", variants, names, KMOD_MAX_VARIANTS, &nr))
		return -EINVAL;
	for (i = 0; i < nr; i++)
		if (find_variant(&c->v[i], names[i], c->identify))
			return -EINVAL;
	c->nr_v = nr;
	if (c->identify && c->nr_v > KMOD_IDENTIFY_VARIANTS) {
		pr_err("variants: identify times at most %d next to the kernel's\n",
		       KMOD_IDENTIFY_VARIANTS);
		return -EINVAL;
	}
	return 0;
}

/* dist= and modes=, by user space's names. */
static int parse_inputs(struct kmod_config *c)
{
	char names[HS_NR_MODES][32];
	const char *dist = kmod_param_text("dist", &dist_param), *modes;
	unsigned int i, nr, k;

	if (!dist)
		return -EINVAL;
	for (k = 0; k < HS_NR_DISTS; k++)
		if (!strcmp(dist, hs_dist_name(k)))
			break;
	if (k == HS_NR_DISTS) {
		pr_err("dist: no distribution '" KMOD_SHOW_FMT "' (seed uniform young zero worst)\n",
		       KMOD_SHOW(dist));
		return -EINVAL;
	}
	c->dist = k;
	modes = kmod_param_text("modes", &modes_param);
	if (!modes || split("modes", modes, names, HS_NR_MODES, &nr))
		return -EINVAL;
	for (i = 0; i < nr; i++) {
		for (k = 0; k < HS_NR_MODES; k++)
			if (!strcmp(names[i], hs_mode_name(k)))
				break;
		if (k == HS_NR_MODES) {
			pr_err("modes: no mode '" KMOD_SHOW_FMT "' (throughput latency)\n",
			       KMOD_SHOW(names[i]));
			return -EINVAL;
		}
		c->modes[i] = k;
	}
	c->nr_modes = nr;
	return 0;
}

/* iterations=, runs= and seed=. */
static int parse_numbers(void)
{
	unsigned long v;

	/* at most 10^8: a timed batch then stays under about a millisecond */
	if (kmod_param_ulong("iterations", &iterations_param, 12000,
			     100000000UL, "12000 to 10^8", &iterations))
		return -EINVAL;
	if (kmod_param_ulong("runs", &runs_param, 1, 100, "1 to 100", &v))
		return -EINVAL;
	runs = v;
	if (kmod_param_ulong("seed", &seed_param, 0, ULONG_MAX,
			     BITS_PER_LONG == 64 ? "0 to 2^64-1" : "0 to 2^32-1",
			     &seed))
		return -EINVAL;
	return 0;
}

/**
 * kmod_parse_params() - every parameter, checked whatever the mode (one the
 * mode does not use is ignored).
 * @c:		receives the mode, the functions, the inputs and the modes.
 *
 * Return: 0, or -EINVAL with the first bad one logged.
 */
int kmod_parse_params(struct kmod_config *c)
{
	const char *against;

	if (parse_mode(c) || parse_variants(c) || parse_inputs(c) ||
	    parse_numbers() || kmod_identify_params() ||
	    kmod_capture_params())
		return -EINVAL;
	against = kmod_param_text("against", &against_param);
	if (!against || (against_param.given && !*against)) {
		if (against)
			pr_err("against=: give a profile (hotscore score --list-profiles)\n");
		return -EINVAL;
	}
	return kmod_cand_against(against, c->v, c->nr_v);
}
