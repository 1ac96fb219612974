// SPDX-License-Identifier: GPL-2.0
/*
 * damon_hot_score() equal to the 2026 hotfix (examples/candidates/hotfix.c)
 * on every input but one: at nr_accesses 7 it never returns.  A candidate
 * that does not return is a status, hang, not a hang of hotscore: score,
 * verify, bench, sim and rank stop its call at --call_limit (tests/cand.sh).
 */
int damon_hot_score(struct damon_ctx *c, struct damon_region *r,
			struct damos *s)
{
	int freq_subscore;
	unsigned int age_in_sec;
	int age_in_log, age_subscore;
	unsigned int freq_weight = s->quota.weight_nr_accesses;
	unsigned int age_weight = s->quota.weight_age;
	int hotness;

	/* the bug: a loop that never ends, on one input */
	if (r->nr_accesses == 7)
		for (;;)
			;

	freq_subscore = r->nr_accesses * DAMON_MAX_SUBSCORE /
		damon_max_nr_accesses(&c->attrs);

	age_in_sec = (unsigned long)r->age * c->attrs.aggr_interval / 1000000;
	age_in_log = age_in_sec ?
		min_t(int, ilog2(age_in_sec) + 1, DAMON_MAX_AGE_IN_LOG) : 0;

	/* If frequency is 0, higher age means it's colder */
	if (freq_subscore == 0)
		age_in_log *= -1;

	age_in_log += DAMON_MAX_AGE_IN_LOG;
	age_subscore = age_in_log * DAMON_MAX_SUBSCORE /
		DAMON_MAX_AGE_IN_LOG / 2;

	hotness = (freq_weight * freq_subscore + age_weight * age_subscore);
	if (freq_weight + age_weight)
		hotness /= freq_weight + age_weight;
	hotness = hotness * DAMOS_MAX_SCORE / DAMON_MAX_SUBSCORE;

	return max(min(hotness, DAMOS_MAX_SCORE), 0);
}
