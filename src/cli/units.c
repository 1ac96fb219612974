// SPDX-License-Identifier: GPL-2.0
/*
 * units.c - times, sizes and percentages as damo writes them: "5ms",
 * "1.5s", "8MiB", "12.5%".  Each parser returns NULL or a static reason, so
 * that the option layer and the file parsers word their errors themselves.
 * The text is read by the kernel-safe parser the module also uses
 * (src/bench/kparam.c); the values are made here, in 128 bits.
 */
#include <stdio.h>
#include <string.h>

#include <hotscore/bench_kparam.h>

#include "opt.h"

/* hs_num_parse()'s reasons, in the CLI's words */
static const char *const num_err[] = {
	[HS_NUM_NEGATIVE] = "negative",
	[HS_NUM_NOT_NUMBER] = "not a number",
	[HS_NUM_DECIMALS] = "more than 9 decimals",
	[HS_NUM_TOO_LARGE] = "too large",
	[HS_NUM_UNIT] = "unknown unit",
};

/*
 * @v (a number times 10^9) in units of @mult / @div of the result's unit,
 * as a whole number of the result's unit, in 128 bits.
 */
static const char *whole_of(const struct hs_fixed *v, uint64_t mult,
			    uint64_t div, uint64_t *out)
{
	unsigned __int128 x = (unsigned __int128)v->hi *
			      1000000000000000000ULL + v->lo, scale;

	scale = (unsigned __int128)1000000000ULL * div;
	if (x > ~(unsigned __int128)0 / mult)
		return "too large";
	x *= mult;
	if (x % scale)
		return "not a whole number of the unit it is kept in";
	x /= scale;
	if (x > UINT64_MAX)
		return "too large";
	*out = (uint64_t)x;
	return NULL;
}

/*
 * @s as a whole number of the result's unit: a fixed-point number, then
 * one of @units (mult / div of the result's unit each).
 */
static const char *parse_unit(const char *s, const struct hs_unit *units,
			      size_t nr, uint64_t div, uint64_t *out)
{
	struct hs_fixed v;
	uint64_t mult;
	enum hs_num_err err = hs_num_parse(s, units, nr, &v, &mult);

	return err ? num_err[err] : whole_of(&v, mult, div, out);
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
	uint64_t div = bare_ms ? 1000000 : 1000, unit_ns;
	struct hs_fixed v;
	enum hs_num_err num = hs_time_parse(s, div, &v, &unit_ns);
	const char *err = num ? num_err[num] :
				whole_of(&v, unit_ns, div, out);

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
	static const struct hs_unit units[] = {
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
	static const struct hs_unit units[] = { { "", 100 }, { "%", 100 } };
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
