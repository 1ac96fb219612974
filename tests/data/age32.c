// SPDX-License-Identifier: GPL-2.0
/*
 * The hotfix, wrong at one corner: a region accessed too rarely for a
 * freq_subscore (nr_accesses > 0, freq_subscore 0) and older than 2^31 s
 * takes age_in_log 16 instead of 32.  tests/cand.sh: verify finds it, and
 * its reproducer must read round (--aggr 5000s --age 500000, not the
 * bisected --aggr 4018141459us --age 534447).
 */
int damon_hot_score(struct damon_ctx *c, struct damon_region *r,
		    struct damos *s)
{
	unsigned int fw = s->quota.weight_nr_accesses, aw = s->quota.weight_age;
	int fs = r->nr_accesses * DAMON_MAX_SUBSCORE /
		damon_max_nr_accesses(&c->attrs);
	unsigned int sec = (unsigned long)r->age * c->attrs.aggr_interval /
		1000000;
	int lg = fls(sec), hot;

	if (!fs && r->nr_accesses && lg == 32)
		lg = 16;	/* the corner */
	lg = DAMON_MAX_AGE_IN_LOG + (fs ? lg : -lg);
	hot = fw * fs + aw * (lg * DAMON_MAX_SUBSCORE / DAMON_MAX_AGE_IN_LOG / 2);
	if (fw + aw)
		hot /= fw + aw;
	hot = hot * DAMOS_MAX_SCORE / DAMON_MAX_SUBSCORE;
	return clamp(hot, 0, DAMOS_MAX_SCORE);
}
