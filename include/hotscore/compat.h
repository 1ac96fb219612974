/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - the one place where hotscore's shared code meets its host.
 *
 * Everything under src/score/ (and the measurement core later) is compiled
 * twice: into the user-space CLI and into the kernel module.  This shim gives
 * both the same fixed-width types and attributes, so the shared files never
 * include a libc or a kernel header themselves (the nanoBench pattern).
 */
#ifndef HOTSCORE_COMPAT_H
#define HOTSCORE_COMPAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/limits.h>
#else
/* Freestanding headers only: types and limits, no library calls. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif
#endif

/* The model targets LP64 kernels: unsigned long is 64 bits wide. */
_Static_assert(sizeof(unsigned long) == 8,
	       "hotscore models 64-bit kernels (unsigned long = 64 bits)");
_Static_assert(sizeof(unsigned int) == 4, "unsigned int must be 32 bits");

#endif /* HOTSCORE_COMPAT_H */
