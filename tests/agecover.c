// SPDX-License-Identifier: GPL-2.0
/*
 * agecover - check verify's grid against a brute force: for each interval
 * pair of the grid, every age_in_log that some 32-bit age reaches must be
 * on the grid's age axis.  All 2^32 ages per pair: about half a minute, so
 * it is a tool (docs/verify.md), not part of make test.  Prints one line
 * per pair; exits 1 if any age_in_log is missing.
 */
#include <stdio.h>

#include <hotscore/verify.h>

#include "verify/domain.h"

static unsigned int bit_length(uint32_t x)
{
	return x ? 32 - (unsigned int)__builtin_clz(x) : 0;
}

static struct hs_input buf[HS_GRID_UNIT_MAX];

int main(void)
{
	uint64_t sample = 1, aggr = 1, a;
	unsigned int u, k, missing = 0;
	size_t n, i;

	for (u = 0; u < hs_grid_units(false); u++) {
		bool grid[33] = { false }, brute[33] = { false };
		unsigned int here = 0;

		n = hs_grid_unit(u, false, false, buf);
		if (u && buf[0].sample_us == sample && buf[0].aggr_us == aggr)
			continue;	/* same intervals, other weights */
		sample = buf[0].sample_us;
		aggr = buf[0].aggr_us;
		for (i = 0; i < n; i++)
			grid[bit_length((uint32_t)((uint64_t)buf[i].age * aggr /
						   1000000))] = true;
		for (a = 0; a <= UINT32_MAX; a++)
			brute[bit_length((uint32_t)(a * aggr / 1000000))] = true;
		printf("sample %llu aggr %llu: missing", (unsigned long long)sample,
		       (unsigned long long)aggr);
		for (k = 0; k <= 32; k++)
			if (brute[k] && !grid[k]) {
				printf(" %u", k);
				here++;
			}
		printf("%s\n", here ? "" : " none");
		missing += here;
	}
	return missing ? 1 : 0;
}
