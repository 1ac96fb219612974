// SPDX-License-Identifier: GPL-2.0
/*
 * cand_user.c - the candidate of make kmod CANDIDATE=FILE: FILE as it is
 * (HS_CAND_FILE, from Kbuild), compiled with this kernel's flags against
 * its headers (cand_env.h).  Its functions are renamed, so that they do not
 * clash with the kernel's own: damon_hot_score() is
 * candidate_damon_hot_score() here, in the module's symbols and in any
 * oops.  The prototypes are the kernel's (cand_proto.h): another signature
 * does not compile.
 */
#include "cand_env.h"

#define damon_hot_score		candidate_damon_hot_score
#define damon_cold_score	candidate_damon_cold_score
#define damon_pageout_score	candidate_damon_pageout_score
#include "cand_proto.h"

#include HS_CAND_FILE

/* FILE must define damon_hot_score(): "aliased to undefined symbol" if not */
int kmod_cand_user_hot(struct damon_ctx *c, /* no damon_hot_score() in it? */
		       struct damon_region *r, struct damos *s)
	__alias(candidate_damon_hot_score);
