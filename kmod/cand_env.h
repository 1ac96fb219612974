/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cand_env.h - what a candidate damon_hot_score() finds in the module:
 * what mm/damon/ops-common.c finds in this kernel.
 *
 * Everything comes from this kernel's own headers: the headers
 * ops-common.c includes (6.1), <linux/damon.h> with the real struct
 * damon_ctx, damon_region and damos, and the kernel's fls(), ilog2(),
 * min()/max()/min_t()/clamp() and mult_frac().  The module adds only:
 *
 *  - DAMON_MAX_SUBSCORE and DAMON_MAX_AGE_IN_LOG, which ops-common.c
 *    defines for itself (as it does, unless this kernel's headers have
 *    them);
 *  - damon_max_nr_accesses(), only if this kernel's <linux/damon.h> lacks
 *    it (Kbuild looks; it came with the Oct 2023 fix, v6.6 and stable) or
 *    hides it (without CONFIG_DAMON, damon.h declares only the structs):
 *    then the 2026 hotfix's, which never returns 0.
 *
 * No hotscore header is included: no stand-in for anything the kernel has.
 */
#ifndef HOTSCORE_KMOD_CAND_ENV_H
#define HOTSCORE_KMOD_CAND_ENV_H

#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "a candidate needs Linux 6.1 or later: struct damon_ctx has attrs from 6.1"
#endif

/* what mm/damon/ops-common.c (6.1) and ops-common.h include */
#include <linux/mmu_notifier.h>
#include <linux/page_idle.h>
#include <linux/pagemap.h>
#include <linux/rmap.h>
#include <linux/damon.h>
/* and, by name, what the scoring functions use */
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/math.h>
#include <linux/minmax.h>

/* mm/damon/ops-common.c's own */
#ifndef DAMON_MAX_SUBSCORE
#define DAMON_MAX_SUBSCORE	(100)
#endif
#ifndef DAMON_MAX_AGE_IN_LOG
#define DAMON_MAX_AGE_IN_LOG	(32)
#endif

#if !defined(HS_KERNEL_HAS_MAX_NR) || !IS_ENABLED(CONFIG_DAMON)
/* include/linux/damon.h after the 2026 hotfix: never zero */
static inline unsigned int damon_max_nr_accesses(const struct damon_attrs *attrs)
{
	unsigned long sample_interval;
	unsigned long max_nr_accesses;

	sample_interval = attrs->sample_interval ? : 1;
	max_nr_accesses = min(attrs->aggr_interval / sample_interval,
			(unsigned long)UINT_MAX);
	return max_nr_accesses ? : 1;
}
#endif

#endif /* HOTSCORE_KMOD_CAND_ENV_H */
