/* SPDX-License-Identifier: GPL-2.0 */
/*
 * damos.h - DAMOS's quota arithmetic on one snapshot of regions, for
 * callers that have regions but no running kdamond (hotscore rank):
 * which score an action takes, the effective size quota with no charge
 * history, the score histogram's cut-off, and the regions the walk picks.
 * src/sim/damos.c runs the same arithmetic inside the simulated kdamond.
 */
#ifndef HOTSCORE_DAMOS_H
#define HOTSCORE_DAMOS_H

#include "sim.h"

/* ops->get_scheme_score(): which score an action gets (docs/scoring.md). */
enum hs_score_kind { HS_SCORE_MAX, HS_SCORE_HOT, HS_SCORE_COLD };

enum hs_score_kind hs_score_kind(enum hs_ops ops, enum hs_action a);
/* The kernel's throughput before anything is charged: PAGE_SIZE * 1024 B/ms. */
#define HS_QUOTA_FIRST_THROUGHPUT	(HS_PAGE_SIZE * 1024)

unsigned long hs_quota_esz(const struct hs_quota *q, unsigned long throughput,
			   unsigned long min_region_sz);
unsigned int hs_quota_min_score(const unsigned long *hist,
				unsigned int max_score, unsigned long esz);
unsigned long hs_quota_take(unsigned long esz, unsigned long charged,
			    unsigned long sz, unsigned long min_region_sz);

#endif /* HOTSCORE_DAMOS_H */
