/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmod.h - what the module's two files share.
 */
#ifndef HOTSCORE_KMOD_H
#define HOTSCORE_KMOD_H

#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include <hotscore/bench.h>
#include <hotscore/damon_bench.h>

#define KMOD_MAX_VARIANTS 8
#define KMOD_IDENTIFY_VARIANTS 4	/* timed next to the kernel's */

void kmod_out(const char *fmt, ...) __printf(1, 2);
int kmod_clock(struct hs_clock *clk);
int kmod_bench_fns(const struct hs_clock *clk, const struct hs_pool *pool,
		   const hs_bench_fn *fns, const char *const *names,
		   unsigned int nf, enum hs_bench_mode m, const char *dist);
int kmod_identify(const struct hs_variant *const *v, unsigned int nr_v);
int kmod_identify_params(void);
unsigned long kmod_seed(void);

#define KMOD_MAX_PROFILES 16	/* the model's profiles, at most */

/*
 * A parameter as given at load, checked by hs_init() (main.c): its .set
 * only copies the text, so that every bad value is refused the same way.
 */
#define KMOD_PARAM_MAX 255	/* characters: 8 variant names fit */
struct kmod_param {
	char text[KMOD_PARAM_MAX + 1];
	bool too_long;		/* given longer: refused */
};
extern const struct kernel_param_ops kmod_param_ops;
const char *kmod_param_text(const char *name, const struct kmod_param *p);
int kmod_param_ulong(const char *name, const struct kmod_param *p,
		     unsigned long min, unsigned long max, const char *range,
		     unsigned long *val);

/* A given value in a message: escaped, one line, at most 40 characters. */
#define KMOD_SHOW_MAX 40
#define KMOD_SHOW_FMT "%*pE%s"
#define KMOD_SHOW(s)							\
	(int)min_t(size_t, strlen(s), KMOD_SHOW_MAX), (s),		\
	strlen(s) > KMOD_SHOW_MAX ? "..." : ""

#endif /* HOTSCORE_KMOD_H */
