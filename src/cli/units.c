// SPDX-License-Identifier: GPL-2.0
/*
 * units.c - times, sizes and percentages as damo writes them: "5ms",
 * "1.5s", "8MiB", "12.5%".  Each parser returns NULL or a static reason, so
 * that the option layer and the file parsers word their errors themselves.
 */
#include <stdio.h>
#include <string.h>

#include "opt.h"

/*
 * "12.5" as 12500000000 (the value times 10^9); *@rest is what follows the
 * number.  Return NULL or why @s does not start with a number we keep.
 */
static const char *parse_fixed(const char *s, unsigned __int128 *out,
			       const char **rest)
{
	unsigned __int128 v = 0;
	unsigned int frac = 0;
	bool digits = false, dot = false;

	for (; *s; s++) {
		if (*s == '.' && !dot) {
			dot = true;
			continue;
		}
		if (*s < '0' || *s > '9')
			break;
		if (dot && ++frac > 9)
			return "more than 9 decimals";
		digits = true;
		v = v * 10 + (unsigned)(*s - '0');
		/* 2^90 x 10^9 still fits; no result needs more than 2^84 */
		if (v >> 90)
			return "too large";
	}
	if (!digits)
		return "not a number";
	for (; frac < 9; frac++)
		v *= 10;
	*out = v;
	*rest = s;
	return NULL;
}

struct unit {
	const char *name;
	uint64_t mult;		/* of the result's unit, times @div */
};

/*
 * @s as a whole number of the result's unit: a fixed-point number, then
 * one of @units (mult / div of the result's unit each).
 */
static const char *parse_unit(const char *s, const struct unit *units,
			      size_t nr, uint64_t div, uint64_t *out)
{
	unsigned __int128 v, scale;
	const char *rest, *err;
	size_t i;

	if (*s == '-')
		return "negative";
	err = parse_fixed(s, &v, &rest);
	if (err)
		return err;
	while (*rest == ' ')
		rest++;
	for (i = 0; i < nr; i++)
		if (!strcmp(rest, units[i].name))
			break;
	if (i == nr)
		return "unknown unit";
	scale = (unsigned __int128)1000000000ULL * div;
	if (v > ~(unsigned __int128)0 / units[i].mult)
		return "too large";
	v *= units[i].mult;
	if (v % scale)
		return "not a whole number of the unit it is kept in";
	v /= scale;
	if (v > UINT64_MAX)
		return "too large";
	*out = (uint64_t)v;
	return NULL;
}

/**
 * cli_parse_time() - a time: "5000", "5ms", "1.5s"; ns us ms s m h.
 * @s:		the text.
 * @bare_ms:	a bare number is milliseconds (damo's quotas), and the
 *		result is in ms; else microseconds (damo's intervals).
 * @out:	the value, in ms or us.
 *
 * Return: NULL, or why @s is not a time.
 */
const char *cli_parse_time(const char *s, bool bare_ms, uint64_t *out)
{
	static const struct unit us[] = {
		{ "ns", 1 }, { "us", 1000 }, { "", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000ULL }, { "m", 60000000000ULL },
		{ "h", 3600000000000ULL },
	};
	static const struct unit ms[] = {
		{ "ns", 1 }, { "us", 1000 }, { "", 1000000 },
		{ "ms", 1000000 }, { "s", 1000000000ULL },
		{ "m", 60000000000ULL }, { "h", 3600000000000ULL },
	};
	const char *err = parse_unit(s, bare_ms ? ms : us, 7,
				     bare_ms ? 1000000 : 1000, out);

	if (err && !strcmp(err, "unknown unit"))
		return "unknown unit (ns, us, ms, s, m, h)";
	if (err && !strcmp(err, "not a whole number of the unit it is kept in"))
		return bare_ms ? "finer than 1 ms" : "finer than 1 us";
	return err;
}

/**
 * cli_parse_size() - a size in bytes: "4096", "4KiB", "8M", "1.5GB".
 * @s:		the text.
 * @out:	the value, in bytes.
 *
 * Return: NULL, or why @s is not a size.
 */
const char *cli_parse_size(const char *s, uint64_t *out)
{
	static const struct unit units[] = {
		{ "", 1 }, { "B", 1 },
		{ "K", 1ULL << 10 }, { "KiB", 1ULL << 10 }, { "KB", 1000 },
		{ "M", 1ULL << 20 }, { "MiB", 1ULL << 20 }, { "MB", 1000000 },
		{ "G", 1ULL << 30 }, { "GiB", 1ULL << 30 },
		{ "GB", 1000000000ULL }, { "T", 1ULL << 40 },
		{ "TiB", 1ULL << 40 }, { "TB", 1000000000000ULL },
	};
	const char *err = parse_unit(s, units, sizeof(units) / sizeof(*units),
				     1, out);

	if (err && !strcmp(err, "unknown unit"))
		return "unknown unit (B, K, KiB, KB, M, MiB, MB, G, GiB, GB, T, TiB, TB)";
	if (err && !strcmp(err, "not a whole number of the unit it is kept in"))
		return "not a whole number of bytes";
	return err;
}

/**
 * cli_parse_rate() - a percentage: "0", "12.5%", at most 100%.
 * @s:		the text.
 * @out:	the value, in 1/100 of a percent (basis points).
 *
 * Return: NULL, or why @s is not a percentage.
 */
const char *cli_parse_rate(const char *s, uint64_t *out)
{
	static const struct unit units[] = { { "", 100 }, { "%", 100 } };
	const char *err = parse_unit(s, units, 2, 1, out);

	if (err && !strcmp(err, "unknown unit"))
		return "not a percentage (e.g. 0%, 12.5%)";
	if (err && !strcmp(err, "not a whole number of the unit it is kept in"))
		return "finer than 0.01%";
	if (!err && *out > 10000)
		return "above 100%";
	return err;
}

/**
 * cli_format_time_us() - @us in the largest unit that keeps it whole:
 * 5000 as "5ms", 60000000 as "1m", 7 as "7us".
 * @us:		microseconds.
 * @buf:	receives the text.
 * @size:	of @buf.
 */
void cli_format_time_us(uint64_t us, char *buf, size_t size)
{
	static const struct { const char *u; uint64_t n; } units[] = {
		{ "h", 3600000000ULL }, { "m", 60000000ULL }, { "s", 1000000 },
		{ "ms", 1000 },
	};
	size_t i;

	for (i = 0; us && i < sizeof(units) / sizeof(units[0]); i++)
		if (!(us % units[i].n)) {
			snprintf(buf, size, "%llu%s",
				 (unsigned long long)(us / units[i].n),
				 units[i].u);
			return;
		}
	snprintf(buf, size, "%lluus", (unsigned long long)us);
}
