/* SPDX-License-Identifier: GPL-2.0 */
/*
 * env.h - the kernel a candidate damon_hot_score() compiles in.
 *
 * A candidate is the function as it stands in a patched
 * mm/damon/ops-common.c.  hotscore compiles it with this header forced in
 * front (cc -include), so that it finds what ops-common.c finds: DAMON's
 * structs with every field damon_hot_score(), damon_cold_score() and
 * damon_pageout_score() read in any modelled kernel version, and the
 * helpers they call, defined as the kernel defines them (fls() as x86-64's
 * bsrl, ilog2() in its constant and run-time forms, min()/max()/min_t()/
 * clamp()/mult_frac() with the kernel's evaluation).  damon_max_nr_accesses()
 * and damon_nr_accesses_mvsum() follow the base profile (--base), chosen
 * by HS_BASE_DIVISOR: 0 u32-trunc (v5.16), 1 max-nr (v6.6), 2 safe
 * (the 2026 hotfix, mm-new).
 *
 * Kernel-safe C only: no libc.  Embedded in the hotscore binary and
 * written beside the cached objects (src/cand/cand.c).
 */
#ifndef HOTSCORE_CAND_ENV_H
#define HOTSCORE_CAND_ENV_H

#ifndef HS_BASE_DIVISOR
#define HS_BASE_DIVISOR 2
#endif

typedef _Bool bool;
#define true 1
#define false 0
#define NULL ((void *)0)
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef short s16;
typedef int s32;
typedef long long s64;
typedef unsigned long size_t;

#define UINT_MAX	(~0U)
#define INT_MAX		((int)(~0U >> 1))
#define INT_MIN		(-INT_MAX - 1)
#define ULONG_MAX	(~0UL)
#define LONG_MAX	((long)(~0UL >> 1))

#define __always_inline	inline __attribute__((__always_inline__))
#define noinline	__attribute__((__noinline__))
#define __maybe_unused	__attribute__((__unused__))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#define WARN_ON_ONCE(c)	(!!(c))
#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)

/* include/linux/minmax.h: type-checked; the pointer test warns */
#define __hs_cmp(op, x, y) ({ __typeof__(x) __x = (x);			\
	__typeof__(y) __y = (y); (void)(&__x == &__y);			\
	__x op __y ? __x : __y; })
#define min(x, y)		__hs_cmp(<, x, y)
#define max(x, y)		__hs_cmp(>, x, y)
#define min_t(type, x, y)	({ type __a = (x); type __b = (y);	\
				   __a < __b ? __a : __b; })
#define max_t(type, x, y)	({ type __a = (x); type __b = (y);	\
				   __a > __b ? __a : __b; })
#define clamp(val, lo, hi)	min((__typeof__(val))max(val, lo), hi)
#define clamp_t(type, val, lo, hi) min_t(type, max_t(type, val, lo), hi)

/* include/linux/math.h: x evaluated once, split to avoid overflow */
#define mult_frac(x, numer, denom) ({					\
	__typeof__(x) __q = (x) / (denom);				\
	__typeof__(x) __r = (x) % (denom);				\
	(__q * (numer)) + ((__r * (numer)) / (denom)); })

/* arch/x86/include/asm/bitops.h; asm-generic elsewhere */
static __always_inline int fls(unsigned int x)
{
#if defined(__x86_64__)
	int r;

	/* BSR leaves its destination unchanged for 0: preload -1 */
	__asm__("bsrl %1,%0" : "=r" (r) : "rm" (x), "0" (-1));
	return r + 1;
#else
	return x ? 32 - __builtin_clz(x) : 0;
#endif
}

static __always_inline int fls64(u64 x)
{
#if defined(__x86_64__)
	long r = -1;

	__asm__("bsrq %1,%q0" : "+r" (r) : "rm" (x));
	return (int)r + 1;
#else
	return x ? 64 - __builtin_clzll(x) : 0;
#endif
}

/* undefined for 0, as the kernel's */
static __always_inline unsigned long __fls(unsigned long word)
{
	return 63 - (unsigned long)__builtin_clzl(word);
}

/* include/linux/log2.h */
static __always_inline int __ilog2_u32(u32 n)
{
	return fls(n) - 1;
}

static __always_inline int __ilog2_u64(u64 n)
{
	return fls64(n) - 1;
}

#define ilog2(n)							\
	(__builtin_constant_p(n) ?					\
	 ((n) < 2 ? 0 : 63 - __builtin_clzll(n)) :			\
	 (sizeof(n) <= 4) ? __ilog2_u32(n) : __ilog2_u64(n))

/* include/linux/damon.h */
#define DAMOS_MAX_SCORE		(99)
#define DAMON_MAX_SUBSCORE	(100)
#define DAMON_MAX_AGE_IN_LOG	(32)

struct list_head {
	struct list_head *next, *prev;
};

struct damon_addr_range {
	unsigned long start;
	unsigned long end;
};

struct damon_region {
	struct damon_addr_range ar;
	unsigned long sampling_addr;
	unsigned int nr_accesses;
	unsigned int nr_accesses_bp;
	struct list_head list;
	unsigned int age;
	unsigned int last_nr_accesses;
};

struct damon_attrs {
	unsigned long sample_interval;
	unsigned long aggr_interval;
	unsigned long ops_update_interval;
	unsigned long min_nr_regions;
	unsigned long max_nr_regions;
};

/* 6.1 and older kept the intervals in the context itself */
struct damon_ctx {
	union {
		struct damon_attrs attrs;
		struct {
			unsigned long sample_interval;
			unsigned long aggr_interval;
			unsigned long ops_update_interval;
			unsigned long min_nr_regions;
			unsigned long max_nr_regions;
		};
	};
	unsigned long passed_sample_intervals;
	unsigned long next_aggregation_sis;
	unsigned long next_ops_update_sis;
};

struct damos_access_pattern {
	unsigned long min_sz_region, max_sz_region;
	unsigned int min_nr_accesses, max_nr_accesses;
	unsigned int min_age_region, max_age_region;
};

struct damos_quota {
	unsigned long ms;
	unsigned long sz;
	unsigned long reset_interval;
	unsigned int weight_sz;
	unsigned int weight_nr_accesses;
	unsigned int weight_age;
};

struct damos {
	struct damos_access_pattern pattern;
	int action;
	unsigned long apply_interval_us;
	struct damos_quota quota;
};

/* the base kernel's divisor: mm/damon/core.c, include/linux/damon.h */
static inline unsigned int damon_max_nr_accesses(const struct damon_attrs *attrs)
{
#if HS_BASE_DIVISOR == 0
	/* v5.16..v6.5 had no helper: 'unsigned int = aggr / sample' */
	return attrs->aggr_interval / attrs->sample_interval;
#elif HS_BASE_DIVISOR == 1
	/* v6.6: divides by zero for a zero sample interval */
	return min(attrs->aggr_interval / attrs->sample_interval,
		   (unsigned long)UINT_MAX);
#else
	/* the 2026 hotfix: never zero */
	unsigned long sample = attrs->sample_interval ?: 1;
	unsigned int max_nr = min(attrs->aggr_interval / sample,
				  (unsigned long)UINT_MAX);

	return max_nr ?: 1;
#endif
}

/* mm-new's name for the hotfix's divisor */
static inline unsigned int damon_nr_samples_per_aggr(const struct damon_attrs *attrs)
{
	unsigned long sample = attrs->sample_interval ?: 1;
	unsigned int nr = min(attrs->aggr_interval / sample,
			      (unsigned long)UINT_MAX);

	return nr ?: 1;
}

/* mm-new: a full window's expected count, from the last and this one */
static inline unsigned int damon_nr_accesses_mvsum(struct damon_region *r,
						   struct damon_ctx *ctx)
{
	unsigned long aggr = ctx->attrs.aggr_interval ?: 1;
	unsigned long sample = ctx->attrs.sample_interval ?: 1;
	unsigned long window_len = aggr / sample, left_window, left_bp;

	if ((long)(ctx->passed_sample_intervals -
		   ctx->next_aggregation_sis) >= 0)
		left_window = 0;
	else
		left_window = ctx->next_aggregation_sis -
			ctx->passed_sample_intervals;
	left_bp = mult_frac(left_window, 10000UL, window_len);
	if (left_bp == 10000)
		return r->last_nr_accesses;
	return (unsigned long)r->nr_accesses +
		mult_frac((unsigned long)r->last_nr_accesses, left_bp, 10000UL);
}

/* protected: called directly inside the object, not through its PLT */
#define __hs_direct __attribute__((__visibility__("protected")))
__hs_direct int damon_hot_score(struct damon_ctx *c, struct damon_region *r,
				struct damos *s);
__hs_direct int damon_cold_score(struct damon_ctx *c,
				 struct damon_region *r, struct damos *s);
__hs_direct int damon_pageout_score(struct damon_ctx *c,
				    struct damon_region *r, struct damos *s);

#endif /* HOTSCORE_CAND_ENV_H */
