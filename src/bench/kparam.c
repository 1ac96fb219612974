// SPDX-License-Identifier: GPL-2.0
/*
 * kparam.c - the one parser of times: "5000", "5ms", "1.5 s"; ns us ms s m
 * h, at most 9 decimals.  hotscore.ko's duration= takes one in ns
 * (hs_kparam_time_ns()); the CLI's cli_parse_time() (src/cli/units.c)
 * reads the same text with hs_time_parse() and turns it into us or ms,
 * and its sizes and rates with hs_num_parse().  Kernel-safe: 64-bit
 * integers only, no library calls; the number is kept exact in two
 * 64-bit parts, so that each side does its own arithmetic on it.
 */
#include "hotscore/bench_kparam.h"

#define E9	1000000000ULL
#define E18	1000000000000000000ULL

/* 2^90 as hi * 10^18 + lo: the bound of the digits read */
#define DIGITS_MAX_HI	1237940039ULL
#define DIGITS_MAX_LO	285380274899124224ULL

static bool same(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* @d times 10, plus @add; @d below 2^90 * 10^9, so hi cannot overflow */
static void times10(struct hs_fixed *d, unsigned int add)
{
	uint64_t lo = d->lo * 10 + add;

	d->hi = d->hi * 10 + lo / E18;
	d->lo = lo % E18;
}

/*
 * The digits of *@sp, whole and decimal, as one number in @d, and how
 * many decimals; *@sp is left after them.
 */
static enum hs_num_err digits(const char **sp, struct hs_fixed *d,
			      unsigned int *frac)
{
	const char *s = *sp;
	bool any = false, dot = false;

	d->hi = d->lo = 0;
	*frac = 0;
	for (; *s; s++) {
		if (*s == '.' && !dot) {
			dot = true;
			continue;
		}
		if (*s < '0' || *s > '9')
			break;
		if (dot && ++*frac > 9)
			return HS_NUM_DECIMALS;
		any = true;
		times10(d, (unsigned int)(*s - '0'));
		if (d->hi > DIGITS_MAX_HI ||
		    (d->hi == DIGITS_MAX_HI && d->lo >= DIGITS_MAX_LO))
			return HS_NUM_TOO_LARGE;
	}
	if (!any)
		return HS_NUM_NOT_NUMBER;
	*sp = s;
	return HS_NUM_OK;
}

/**
 * hs_num_parse() - a number with at most 9 decimals, then, after any
 * spaces, one of @units.
 * @s:		the text.
 * @units:	the units it may end in.
 * @nr:		how many.
 * @v:		receives the number, times 10^9.
 * @mult:	receives the unit's @mult.
 *
 * Return: HS_NUM_OK, or why @s is no such number.
 */
enum hs_num_err hs_num_parse(const char *s, const struct hs_unit *units,
			     size_t nr, struct hs_fixed *v, uint64_t *mult)
{
	enum hs_num_err err;
	unsigned int frac;
	size_t i;

	if (*s == '-')
		return HS_NUM_NEGATIVE;
	err = digits(&s, v, &frac);
	if (err)
		return err;
	for (; frac < 9; frac++)
		times10(v, 0);
	while (*s == ' ')
		s++;
	for (i = 0; i < nr; i++)
		if (same(s, units[i].name)) {
			*mult = units[i].mult;
			return HS_NUM_OK;
		}
	return HS_NUM_UNIT;
}

/**
 * hs_time_parse() - a time: "5000", "5ms", "1.5 s"; ns us ms s m h.
 * @s:		the text.
 * @bare_ns:	what a bare number counts, in ns.
 * @v:		receives the number, times 10^9.
 * @unit_ns:	receives its unit, in ns.
 *
 * Return: HS_NUM_OK, or why @s is no time.
 */
enum hs_num_err hs_time_parse(const char *s, uint64_t bare_ns,
			      struct hs_fixed *v, uint64_t *unit_ns)
{
	static const struct hs_unit units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "", 0 }, { "ms", 1000000 },
		{ "s", E9 }, { "m", 60 * E9 }, { "h", 3600 * E9 },
	};
	enum hs_num_err err = hs_num_parse(s, units,
					   sizeof(units) / sizeof(*units), v,
					   unit_ns);

	if (!err && !*unit_ns)
		*unit_ns = bare_ns;
	return err;
}

/**
 * hs_kparam_time_ns() - a time as the module takes it: a bare number in
 * us, the value a whole number of ns, at most HS_KPARAM_TIME_MAX_NS.
 * @s:		the text.
 * @ns:		receives the value in ns.
 *
 * Return: true, or false if @s is no time, not a whole number of ns, or
 * past HS_KPARAM_TIME_MAX_NS.
 */
bool hs_kparam_time_ns(const char *s, uint64_t *ns)
{
	struct hs_fixed v;
	uint64_t whole, frac, mult, part;

	/* a whole part past 10^13 is past the bound in any unit */
	if (hs_time_parse(s, 1000, &v, &mult) ||
	    v.hi > HS_KPARAM_TIME_MAX_NS / E9)
		return false;
	whole = v.hi * E9 + v.lo / E9;
	frac = v.lo % E9;
	/* frac < 10^9 and mult < 10^9, or mult a multiple of 10^9: exact */
	if (mult < E9) {
		if (frac * mult % E9)
			return false;
		part = frac * mult / E9;
	} else {
		part = frac * (mult / E9);
	}
	if (whole > (HS_KPARAM_TIME_MAX_NS - part) / mult)
		return false;
	*ns = whole * mult + part;
	return true;
}
