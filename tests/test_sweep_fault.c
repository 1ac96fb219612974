// SPDX-License-Identifier: GPL-2.0
/*
 * test_sweep_fault.c - a difference planted in one way of the age_in_log
 * sweep, at one value, is found by every path: counted against that way
 * alone, at that value, or against every other way when it is the loop
 * that is off.  The sweep is compiled here with the plant (HS_SWEEP_FAULT:
 * the way gives one more at plant_x), in the fast path's lanes as well.
 */
#include <string.h>

#include "check.h"

static int plant_way = -1;
static uint32_t plant_x;
#define HS_SWEEP_FAULT(way, x, value)					\
	((int)(way) == plant_way && (uint32_t)(x) == plant_x ?		\
	 (value) + 1 : (value))
#include "verify/sweep.c"

static const enum hs_sweep_isa isas[] = {
	HS_SWEEP_VALUES, HS_SWEEP_BASE, HS_SWEEP_V3 };

/* inside a block, a block's first value, below the blocks, the last */
static const uint32_t at[] = { 0x9abc1234u, 0x9abc1000u, 1000, 0xffffffffu };

/* What a sweep of the 2^16 values around @x must count, planted in @w. */
static void check_found(const struct hs_agelog_stats *st, int w, uint32_t x,
			enum hs_sweep_isa isa)
{
	unsigned int i, v;
	uint64_t want;

	for (i = 0; i < NR_WAYS; i++) {
		v = ways[i].a * HS_NR_FLS_IMPL + ways[i].f;
		want = w == IDX(LOOP, ARCH) || (int)v == w;
		CHECK(st->mismatches[v] == want,
		      "isa %d, plant %d at %#x: way %u counted %llu", isa, w,
		      x, v, (unsigned long long)st->mismatches[v]);
		CHECK(!want || st->first[v] == x, "isa %d, plant %d: first %#x",
		      isa, w, st->first[v]);
	}
	CHECK_EQ(st->mismatches[IDX(LOOP, ARCH)], 0);	/* the reference */
	CHECK_EQ(st->values, 1 << 16);
}

static void test_plants_found(void)
{
	enum hs_sweep_isa best = hs_sweep_isa_best();
	struct hs_agelog_stats st;
	unsigned int i, j, p;

	for (i = 0; i < sizeof(isas) / sizeof(isas[0]); i++) {
		if (isas[i] == HS_SWEEP_V3 && best != HS_SWEEP_V3)
			continue;
		for (j = 0; j < sizeof(at) / sizeof(at[0]); j++) {
			plant_x = at[j];
			/* the loop, then every other way */
			for (p = 0; p <= NR_WAYS; p++) {
				plant_way = p ? (int)(ways[p - 1].a *
					HS_NR_FLS_IMPL + ways[p - 1].f) :
					IDX(LOOP, ARCH);
				memset(&st, 0, sizeof(st));
				hs_agelog_sweep_with(at[j] & ~0xffffu, 1 << 16,
						     &st, isas[i]);
				check_found(&st, plant_way, at[j], isas[i]);
			}
		}
	}
	plant_way = -1;
}

/* Without a plant, the same build finds nothing. */
static void test_no_plant(void)
{
	struct hs_agelog_stats st;
	unsigned int k;

	memset(&st, 0, sizeof(st));
	hs_agelog_sweep(0x9abc0000u, 1 << 16, &st);
	for (k = 0; k < HS_NR_AGELOG_WAYS; k++)
		CHECK_EQ(st.mismatches[k], 0);
}

int main(void)
{
	RUN(test_plants_found);
	RUN(test_no_plant);
	return CHECK_DONE();
}
