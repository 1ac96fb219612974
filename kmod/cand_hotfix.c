// SPDX-License-Identifier: GPL-2.0
/*
 * cand_hotfix.c - examples/candidates/hotfix.c (HS_CAND_FILE, from Kbuild)
 * compiled and called exactly as the candidate is (cand_user.c): the
 * variant "hotfix-cand", the like-with-like baseline for timing a
 * candidate.  Its damon_hot_score() is hotfix_cand_damon_hot_score().
 */
#include "cand_env.h"

#define damon_hot_score		hotfix_cand_damon_hot_score
#define damon_cold_score	hotfix_cand_damon_cold_score
#define damon_pageout_score	hotfix_cand_damon_pageout_score
#include "cand_proto.h"

#include HS_CAND_FILE

int kmod_cand_hotfix_hot(struct damon_ctx *c, struct damon_region *r,
			 struct damos *s)
	__alias(hotfix_cand_damon_hot_score);
