/* SPDX-License-Identifier: GPL-2.0 */
/*
 * domain.h - the inputs of verify's grid and random domains.
 */
#ifndef HOTSCORE_VERIFY_DOMAIN_H
#define HOTSCORE_VERIFY_DOMAIN_H

#include <stddef.h>

#include <hotscore/verify.h>

/* The most inputs one grid unit can hold. */
#define HS_GRID_UNIT_MAX (1024 * 256)

void hs_domain_init(void);
unsigned int hs_grid_units(bool mvsum);
unsigned int hs_grid_unit_mv(unsigned int u, bool mvsum);
size_t hs_grid_unit(unsigned int u, bool quick, bool mvsum,
		    struct hs_input *out);
void hs_random_input(uint64_t seed, uint64_t i, struct hs_input *in);
size_t hs_agelog_quick_values(uint32_t *out);

#define HS_AGELOG_QUICK_MAX (65536 + 256)

#endif /* HOTSCORE_VERIFY_DOMAIN_H */
