// SPDX-License-Identifier: GPL-2.0
/*
 * damon_hot_score() equal to the 2026 hotfix on every input, written
 * differently: the frequency and age subscores in helpers, age_in_log from
 * fls() (equal to ilog2() + 1 for every 32-bit value), clamp() at the end.
 * hotscore verify --candidate examples/candidates/hotfix-rewritten.c
 */
static int freq_subscore_of(struct damon_ctx *c, struct damon_region *r)
{
	return r->nr_accesses * DAMON_MAX_SUBSCORE /
		damon_max_nr_accesses(&c->attrs);
}

/* 0..100: older is hotter when accessed, colder when not */
static int age_subscore_of(struct damon_ctx *c, struct damon_region *r,
			   int freq_subscore)
{
	unsigned int age_in_sec = (unsigned long)r->age *
		c->attrs.aggr_interval / 1000000;
	int age_in_log = fls(age_in_sec);

	if (!freq_subscore)
		age_in_log = -age_in_log;
	return (age_in_log + DAMON_MAX_AGE_IN_LOG) * DAMON_MAX_SUBSCORE /
		DAMON_MAX_AGE_IN_LOG / 2;
}

int damon_hot_score(struct damon_ctx *c, struct damon_region *r,
			struct damos *s)
{
	unsigned int fw = s->quota.weight_nr_accesses;
	unsigned int aw = s->quota.weight_age;
	int freq = freq_subscore_of(c, r);
	int hotness = fw * freq + aw * age_subscore_of(c, r, freq);

	if (fw + aw)
		hotness /= fw + aw;
	hotness = hotness * DAMOS_MAX_SCORE / DAMON_MAX_SUBSCORE;
	return clamp(hotness, 0, DAMOS_MAX_SCORE);
}
