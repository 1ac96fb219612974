/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel.h - user-space equivalents of the kernel helpers damon_hot_score()
 * relies on, with the kernel's semantics (include/linux/log2.h,
 * include/asm-generic/bitops/, arch/x86/include/asm/bitops.h,
 * include/linux/math.h, include/linux/minmax.h).
 *
 * The kernel is built with -fno-strict-overflow (= -fwrapv since GCC 8), so a
 * signed result that overflows wraps.  C gives no such promise, so the model
 * computes in unsigned types and converts back with hs_s32(), which is free
 * of undefined and implementation-defined behaviour alike.
 */
#ifndef HOTSCORE_KERNEL_H
#define HOTSCORE_KERNEL_H

#include "compat.h"
#ifdef __KERNEL__
#include <linux/bitops.h>
#endif

/**
 * hs_s32() - reinterpret 32 bits as a two's complement int.
 * @x: the bits.
 *
 * What the kernel gets when an unsigned int value is stored into an int, or a
 * signed int computation wraps under -fwrapv.
 *
 * Return: the int whose bit pattern is @x.
 */
static __always_inline int hs_s32(uint32_t x)
{
	if (x <= (uint32_t)INT_MAX)
		return (int)x;
	return -(int)(~x) - 1;
}

/**
 * hs_fls_generic() - find last (most significant) set bit, portable C.
 * @x: the word to search.
 *
 * The binary search of asm-generic/bitops/fls.h: narrow the top set bit by
 * halves (16, 8, 4, 2, 1 bits).
 *
 * Return: 0 for 0, else the 1-based position of the top set bit (1..32).
 */
static __always_inline int hs_fls_generic(uint32_t x)
{
	int r = 32;

	if (!x)
		return 0;
	if (!(x & 0xffff0000u)) {
		x <<= 16;
		r -= 16;
	}
	if (!(x & 0xff000000u)) {
		x <<= 8;
		r -= 8;
	}
	if (!(x & 0xf0000000u)) {
		x <<= 4;
		r -= 4;
	}
	if (!(x & 0xc0000000u)) {
		x <<= 2;
		r -= 2;
	}
	if (!(x & 0x80000000u))
		r -= 1;
	return r;
}

/**
 * hs_fls_builtin() - fls() through the compiler's count-leading-zeros.
 * @x: the word to search.
 *
 * __builtin_clz(0) is undefined, hence the explicit zero test.
 *
 * Return: as hs_fls_generic().
 */
static __always_inline int hs_fls_builtin(uint32_t x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

#if defined(__x86_64__)
#define HS_HAVE_BSR 1
/**
 * hs_fls_bsr() - fls() as x86-64 kernels compute it: BSRL with a -1 preload.
 * @x: the word to search.
 *
 * BSR leaves its destination untouched when the source is 0 (documented by
 * AMD, relied on by arch/x86/include/asm/bitops.h on 64-bit), so preloading
 * -1 makes fls(0) == 0 without a branch.
 *
 * Return: as hs_fls_generic().
 */
static __always_inline int hs_fls_bsr(uint32_t x)
{
	int r;

	__asm__("bsrl %1,%0" : "=r"(r) : "rm"(x), "0"(-1));
	return r + 1;
}
#else
#define HS_HAVE_BSR 0
static __always_inline int hs_fls_bsr(uint32_t x)
{
	return hs_fls_generic(x);	/* never selected: see hs_fls_impl_ok() */
}
#endif

/**
 * hs_fls() - the architecture's fls(), as the kernel's own fls() would be.
 * @x: the word to search.
 *
 * Return: 0 for 0, else 1..32.
 */
static __always_inline int hs_fls(uint32_t x)
{
#ifdef __KERNEL__
	return fls(x);		/* in the module: the kernel's own */
#elif HS_HAVE_BSR
	return hs_fls_bsr(x);
#else
	return hs_fls_generic(x);
#endif
}

/**
 * hs_fls64() - find last set bit in a 64-bit word.
 * @x: the word to search.
 *
 * Return: 0 for 0, else 1..64.
 */
static __always_inline int hs_fls64(uint64_t x)
{
	uint32_t h = (uint32_t)(x >> 32);

	if (h)
		return hs_fls(h) + 32;
	return hs_fls((uint32_t)x);
}

/**
 * hs___fls() - 0-based index of the top set bit of an unsigned long.
 * @word: the word to search; the kernel leaves the result undefined for 0.
 *
 * Return: 0..63; 0 for 0, as asm-generic's __fls() happens to return.
 */
static __always_inline unsigned long hs___fls(unsigned long word)
{
	return word ? (unsigned long)hs_fls64(word) - 1 : 0;
}

/**
 * hs_ilog2_u32() - the kernel's run-time ilog2() of a 32-bit value.
 * @n: the value.
 *
 * __ilog2_u32(n) is fls(n) - 1, so the run-time ilog2(0) is -1.  (The
 * compile-time ilog2() of a constant 0 is 0; the model never needs it.)
 *
 * Return: floor(log2(@n)) for @n > 0, -1 for 0.
 */
static __always_inline int hs_ilog2_u32(uint32_t n)
{
	return hs_fls(n) - 1;
}

/**
 * hs_ilog2_u64() - the kernel's run-time ilog2() of a 64-bit value.
 * @n: the value.
 *
 * Return: floor(log2(@n)) for @n > 0, -1 for 0.
 */
static __always_inline int hs_ilog2_u64(uint64_t n)
{
	return hs_fls64(n) - 1;
}

/* ilog2() picks the 32- or 64-bit form by the argument's size, as log2.h. */
#define hs_ilog2(n) \
	(sizeof(n) <= 4 ? hs_ilog2_u32((uint32_t)(n)) : hs_ilog2_u64((uint64_t)(n)))

/*
 * min_t()/max_t(): both operands are converted to @type first.  For a
 * narrowing conversion to a signed type that is GCC's modulo conversion,
 * which is also what the kernel gets.
 */
#define hs_min_t(type, x, y) ({		\
	type hs_x_ = (type)(x);		\
	type hs_y_ = (type)(y);		\
	hs_x_ < hs_y_ ? hs_x_ : hs_y_; })
#define hs_max_t(type, x, y) ({		\
	type hs_x_ = (type)(x);		\
	type hs_y_ = (type)(y);		\
	hs_x_ > hs_y_ ? hs_x_ : hs_y_; })

/*
 * mult_frac(x, n, d): x * n / d without overflowing for the quotient part,
 * as include/linux/math.h: quot = x / d and rem = x % d in typeof(x), then
 * quot * n + rem * n / d in the usual arithmetic conversions.  Equals
 * floor(x * n / d) unless quot * n or rem * n overflows, where it wraps.
 * Like the kernel it divides by @d unguarded: callers check d != 0 first.
 * Use it with unsigned operands only (the model does), so wrapping is defined.
 */
#define hs_mult_frac(x, n, d) ({		\
	__typeof__(x) hs_x_ = (x);		\
	__typeof__(n) hs_n_ = (n);		\
	__typeof__(d) hs_d_ = (d);		\
	__typeof__(x) hs_q_ = hs_x_ / hs_d_;	\
	__typeof__(x) hs_r_ = hs_x_ % hs_d_;	\
	hs_q_ * hs_n_ + hs_r_ * hs_n_ / hs_d_; })

#endif /* HOTSCORE_KERNEL_H */
