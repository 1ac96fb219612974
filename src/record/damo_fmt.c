// SPDX-License-Identifier: GPL-2.0
/*
 * damo_fmt.c - the values damo writes, raw or for people: numbers with
 * thousands separators ("93,824,992,231,424"), times ("100 ms",
 * "1 s 500 ms", or a bare number in the field's unit) and sizes
 * ("143.027 MiB", "0 B").  As damo's _damo_fmt_str.py text_to_nr(),
 * text_to_ns() and text_to_bytes() read them, but exactly: decimals are
 * scaled in integers, and anything beyond 64 bits is refused, not wrapped.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "hotscore/record.h"

struct decimal {
	uint64_t whole;		/* the part before the point */
	uint64_t frac;		/* the digits after it, as an integer */
	uint64_t frac_div;	/* 10^(their count), at most 10^18 */
};

static const char *skip_space(const char *s)
{
	while (*s == ' ')
		s++;
	return s;
}

/* "1,234.5": digits, damo's commas between them, an optional fraction. */
static const char *parse_decimal(const char **sp, struct decimal *d)
{
	const char *s = *sp;
	bool digit = false;

	d->whole = 0;
	d->frac = 0;
	d->frac_div = 1;
	for (; isdigit((unsigned char)*s) || (*s == ',' && digit); s++) {
		if (*s == ',') {
			if (!isdigit((unsigned char)s[1]))
				return "a stray ','";
			continue;
		}
		if (__builtin_mul_overflow(d->whole, 10, &d->whole) ||
		    __builtin_add_overflow(d->whole, (uint64_t)(*s - '0'),
					   &d->whole))
			return "out of range";
		digit = true;
	}
	if (*s == '.') {
		for (s++; isdigit((unsigned char)*s); s++) {
			digit = true;
			if (d->frac_div >= 1000000000000000000ULL)
				continue;	/* below any unit we scale to */
			d->frac = d->frac * 10 + (uint64_t)(*s - '0');
			d->frac_div *= 10;
		}
	}
	if (!digit)
		return "not a number";
	*sp = s;
	return NULL;
}

/* @d times @scale, the fraction truncated as damo's int() does. */
static const char *scale_decimal(const struct decimal *d, uint64_t scale,
				 uint64_t *out)
{
	unsigned __int128 f = (unsigned __int128)d->frac * scale / d->frac_div;
	uint64_t w;

	if (__builtin_mul_overflow(d->whole, scale, &w) ||
	    f > UINT64_MAX - w)
		return "out of range";
	*out = w + (uint64_t)f;
	return NULL;
}

/* damo's try_common_input(): "min" and "max" stand for the limits. */
static bool common_input(const char *s, uint64_t *out)
{
	if (!strcmp(s, "max")) {
		*out = UINT64_MAX;
		return true;
	}
	if (!strcmp(s, "min")) {
		*out = 0;
		return true;
	}
	return false;
}

/**
 * hs_damo_number() - a count or an address as damo writes it: "1234",
 * "93,824,992,231,424", "max".  A fraction is refused: these are integers.
 * @s:		the text.
 * @out:	the number.
 *
 * Return: NULL, or why @s is not one.
 */
const char *hs_damo_number(const char *s, uint64_t *out)
{
	struct decimal d;
	const char *err;

	if (common_input(s, out))
		return NULL;
	err = parse_decimal(&s, &d);
	if (err)
		return err;
	if (*s)
		return "not a whole number";
	if (d.frac)
		return "not a whole number";
	*out = d.whole;
	return NULL;
}

static const struct { const char *name; uint64_t ns; } time_units[] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
	{ "s", 1000000000ULL }, { "m", 60000000000ULL },
	{ "h", 3600000000000ULL }, { "d", 86400000000000ULL },
};

/* The time unit that @s starts with (longest first), and its length. */
static uint64_t time_unit(const char *s, size_t *len)
{
	size_t i, n;

	for (i = 0; i < sizeof(time_units) / sizeof(time_units[0]); i++) {
		n = strlen(time_units[i].name);
		if (!strncmp(s, time_units[i].name, n) &&
		    (s[n] == '\0' || s[n] == ' ' || isdigit((unsigned char)s[n]))) {
			*len = n;
			return time_units[i].ns;
		}
	}
	return 0;
}

/**
 * hs_damo_time() - a time as damo writes it: "100 ms", "1 m 3 s 200 ms"
 * (format_time_ns_exact()), "1.500 s", or a bare number in the field's
 * own unit; "max" is UINT64_MAX.
 * @s:		the text.
 * @bare_ns:	nanoseconds in a bare number's unit (1000 for "*_us").
 * @ns:		the time in nanoseconds.
 *
 * Return: NULL, or why @s is not one.
 */
const char *hs_damo_time(const char *s, uint64_t bare_ns, uint64_t *ns)
{
	uint64_t sum = 0, part, unit;
	bool units = false;
	struct decimal d;
	const char *err;
	size_t len;

	if (common_input(s, ns))
		return NULL;
	s = skip_space(s);
	do {
		err = parse_decimal(&s, &d);
		if (err)
			return err;
		s = skip_space(s);
		unit = time_unit(s, &len);
		if (!unit && units)
			return "a number without a unit";
		if (!unit) {
			if (*s)
				return "an unknown time unit";
			return scale_decimal(&d, bare_ns, ns);
		}
		err = scale_decimal(&d, unit, &part);
		if (err)
			return err;
		if (part > UINT64_MAX - sum)
			return "out of range";
		sum += part;
		units = true;
		s = skip_space(s + len);
	} while (*s);
	*ns = sum;
	return NULL;
}

static const struct { const char *name; unsigned int shift; } size_units[] = {
	{ "KiB", 10 }, { "MiB", 20 }, { "GiB", 30 }, { "TiB", 40 },
	{ "PiB", 50 }, { "EiB", 60 },
	{ "KB", 10 }, { "MB", 20 }, { "GB", 30 }, { "TB", 40 },
	{ "PB", 50 }, { "EB", 60 },
	{ "K", 10 }, { "M", 20 }, { "G", 30 }, { "T", 40 },
	{ "P", 50 }, { "E", 60 }, { "B", 0 },
};

/**
 * hs_damo_bytes() - a size as damo writes it: "64282951680", "0 B",
 * "143.027 MiB" (format_sz(): rounded to 3 decimals, so not exact),
 * "max".  damo's units are all binary, KB included.
 * @s:		the text.
 * @out:	bytes.
 *
 * Return: NULL, or why @s is not one.
 */
const char *hs_damo_bytes(const char *s, uint64_t *out)
{
	struct decimal d;
	const char *err;
	size_t i;

	if (common_input(s, out))
		return NULL;
	err = parse_decimal(&s, &d);
	if (err)
		return err;
	s = skip_space(s);
	if (!*s)
		return scale_decimal(&d, 1, out);
	for (i = 0; i < sizeof(size_units) / sizeof(size_units[0]); i++)
		if (!strcmp(s, size_units[i].name))
			return scale_decimal(&d, 1ULL << size_units[i].shift,
					     out);
	return "an unknown size unit";
}

/**
 * hs_damo_percent() - a percentage as damo writes it: "30 %", "30", "0.5".
 * @s:		the text.
 * @out:	the percentage.
 *
 * Return: NULL, or why @s is not one.
 */
const char *hs_damo_percent(const char *s, double *out)
{
	struct decimal d;
	const char *err;

	err = parse_decimal(&s, &d);
	if (err)
		return err;
	s = skip_space(s);
	if (*s == '%')
		s = skip_space(s + 1);
	if (*s)
		return "not a percentage";
	*out = (double)d.whole + (double)d.frac / (double)d.frac_div;
	return NULL;
}
