/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kparam.h - the module's parameter values that user space also parses,
 * in kernel-safe code (src/bench/kparam.c): the module takes a time as
 * the CLI does, and the units fuzz holds the two to the same answers.
 */
#ifndef HOTSCORE_KPARAM_H
#define HOTSCORE_KPARAM_H

#include "compat.h"

#define HS_KPARAM_TIME_MAX_NS 10000000000000ULL	/* 10^13 ns: 2 h 46 min */

bool hs_kparam_time_ns(const char *s, uint64_t *ns);

#endif /* HOTSCORE_KPARAM_H */
