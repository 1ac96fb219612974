// SPDX-License-Identifier: GPL-2.0
/*
 * damon_hot_score() as v5.16 computed its divisor, inline: it divides by
 * zero when the sampling interval is 0, where the 2026 hotfix reads it as
 * 1.  Against hotfix, verify reports trap(SIGFPE) with a reproducer, and
 * goes on.
 * hotscore verify --candidate examples/candidates/div0-sample.c --against hotfix
 */
int damon_hot_score(struct damon_ctx *c, struct damon_region *r,
			struct damos *s)
{
	unsigned int max_nr_accesses = c->attrs.aggr_interval /
		c->attrs.sample_interval;
	int freq_subscore = r->nr_accesses * DAMON_MAX_SUBSCORE /
		max(max_nr_accesses, 1U);
	unsigned int age_in_sec = (unsigned long)r->age *
		c->attrs.aggr_interval / 1000000;
	int age_in_log = age_in_sec ?
		min_t(int, ilog2(age_in_sec) + 1, DAMON_MAX_AGE_IN_LOG) : 0;
	unsigned int fw = s->quota.weight_nr_accesses;
	unsigned int aw = s->quota.weight_age;
	int hotness;

	if (freq_subscore == 0)
		age_in_log *= -1;
	age_in_log += DAMON_MAX_AGE_IN_LOG;
	hotness = fw * freq_subscore + aw * (age_in_log * DAMON_MAX_SUBSCORE /
					     DAMON_MAX_AGE_IN_LOG / 2);
	if (fw + aw)
		hotness /= fw + aw;
	hotness = hotness * DAMOS_MAX_SCORE / DAMON_MAX_SUBSCORE;
	return clamp(hotness, 0, DAMOS_MAX_SCORE);
}
