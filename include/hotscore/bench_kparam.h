/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_kparam.h - the one parser of times, in kernel-safe code
 * (src/bench/kparam.c): the module's duration= and every time the CLI
 * takes (cli_parse_time()), which also reads sizes and rates with it.
 */
#ifndef HOTSCORE_BENCH_KPARAM_H
#define HOTSCORE_BENCH_KPARAM_H

#include "compat.h"

#define HS_KPARAM_TIME_MAX_NS 10000000000000ULL	/* 10^13 ns: 2 h 46 min */

/**
 * enum hs_num_err - why a text is not a number with a unit.
 * @HS_NUM_OK:		it is.
 * @HS_NUM_NEGATIVE:	it starts with '-'.
 * @HS_NUM_NOT_NUMBER:	no digit.
 * @HS_NUM_DECIMALS:	more than 9 decimals.
 * @HS_NUM_TOO_LARGE:	its digits, read as one number, reach 2^90.
 * @HS_NUM_UNIT:	what follows the number is none of the units.
 */
enum hs_num_err {
	HS_NUM_OK,
	HS_NUM_NEGATIVE,
	HS_NUM_NOT_NUMBER,
	HS_NUM_DECIMALS,
	HS_NUM_TOO_LARGE,
	HS_NUM_UNIT,
};

/**
 * struct hs_unit - a unit a number may be followed by.
 * @name:	as written ("" for a bare number).
 * @mult:	its length, in whatever the caller keeps values in.
 */
struct hs_unit {
	const char *name;
	uint64_t mult;
};

/**
 * struct hs_fixed - a number with at most 9 decimals, times 10^9, as
 * @hi * 10^18 + @lo: exact, below 2^90 * 10^9, in 64-bit integers.
 * @hi:		the high part.
 * @lo:		the low part, below 10^18.
 */
struct hs_fixed {
	uint64_t hi, lo;
};

enum hs_num_err hs_num_parse(const char *s, const struct hs_unit *units,
			     size_t nr, struct hs_fixed *v, uint64_t *mult);
enum hs_num_err hs_time_parse(const char *s, uint64_t bare_ns,
			      struct hs_fixed *v, uint64_t *unit_ns);
bool hs_kparam_time_ns(const char *s, uint64_t *ns);

#endif /* HOTSCORE_BENCH_KPARAM_H */
