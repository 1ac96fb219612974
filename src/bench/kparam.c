// SPDX-License-Identifier: GPL-2.0
/*
 * kparam.c - a time as hotscore.ko's duration= takes it, which is how the
 * CLI takes one (cli_parse_time() in src/cli/units.c, microseconds for a
 * bare number).  Kernel-safe: 64-bit integers only, no library calls; the
 * CLI's own parser works in 128 bits, which a module cannot divide.
 */
#include "hotscore/kparam.h"

struct unit {
	const char *name;
	uint64_t ns;
};

static bool same(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* The number's whole part, and its decimals in 10^-9 of the unit. */
static const char *number(const char *s, uint64_t *whole, uint64_t *frac,
			  bool *digits)
{
	uint64_t scale = 1000000000ULL;
	bool dot = false;

	*whole = *frac = 0;
	*digits = false;
	for (; *s == '.' || (*s >= '0' && *s <= '9'); s++) {
		if (*s == '.') {
			if (dot)
				return NULL;
			dot = true;
			continue;
		}
		*digits = true;
		if (dot) {
			if (scale == 1)
				return NULL;	/* more than 9 decimals */
			scale /= 10;
			*frac += (uint64_t)(*s - '0') * scale;
		} else {
			*whole = *whole * 10 + (uint64_t)(*s - '0');
			if (*whole > HS_KPARAM_TIME_MAX_NS)
				return NULL;
		}
	}
	return s;
}

/**
 * hs_kparam_time_ns() - a time: "5000", "5ms", "1.5 s"; ns us ms s m h, a
 * bare number in us, at most 9 decimals.
 * @s:		the text.
 * @ns:		receives the value in ns.
 *
 * Return: true, or false if @s is no time, not a whole number of ns, or
 * past HS_KPARAM_TIME_MAX_NS.
 */
bool hs_kparam_time_ns(const char *s, uint64_t *ns)
{
	static const struct unit units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000ULL }, { "m", 60000000000ULL },
		{ "h", 3600000000000ULL },
	};
	uint64_t whole, frac, mult, part;
	bool digits;
	size_t i;

	s = number(s, &whole, &frac, &digits);
	if (!s || !digits)
		return false;
	while (*s == ' ')
		s++;
	for (i = 0; i < sizeof(units) / sizeof(*units); i++)
		if (same(s, units[i].name))
			break;
	if (i == sizeof(units) / sizeof(*units))
		return false;
	mult = units[i].ns;
	/* frac < 10^9 and mult < 10^9, or mult a multiple of 10^9: exact */
	if (mult < 1000000000ULL) {
		if (frac * mult % 1000000000ULL)
			return false;
		part = frac * mult / 1000000000ULL;
	} else {
		part = frac * (mult / 1000000000ULL);
	}
	if (whole > (HS_KPARAM_TIME_MAX_NS - part) / mult)
		return false;
	*ns = whole * mult + part;
	return true;
}
