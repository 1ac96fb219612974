/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cand_proto.h - mm/damon/ops-common.h's prototypes of the scoring
 * functions, under the names the including file gave them with #define
 * (cand_user.c, cand_hotfix.c): a candidate with another signature does
 * not compile.  No include guard: each file includes it once, renamed.
 */
int damon_hot_score(struct damon_ctx *c, struct damon_region *r,
		    struct damos *s);
int damon_cold_score(struct damon_ctx *c, struct damon_region *r,
		     struct damos *s);
/* its name in 6.0 and older */
int damon_pageout_score(struct damon_ctx *c, struct damon_region *r,
			struct damos *s);
