/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmod.h - what the module's two files share.
 */
#ifndef HOTSCORE_KMOD_H
#define HOTSCORE_KMOD_H

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

#endif /* HOTSCORE_KMOD_H */
