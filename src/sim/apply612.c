// SPDX-License-Identifier: GPL-2.0
/*
 * apply612.c - Linux 6.12's kdamond_apply_schemes() (mm/damon/core.c of
 * linux-source-6.12, Debian's 6.12.118) on a list of regions: each step
 * names the kernel line it models.  One target, no filters, no
 * watermarks, no quota goals: what hotscore replay's guest run sets up.
 *
 * 6.12 differs from the newest core that src/sim/damos.c models:
 * - a scheme's first charge window sets charged_from but not esz, so
 *   the first reset_interval of a quota is unlimited (esz == 0: no score
 *   cut-off, no split, never full);
 * - the quota is full only at charged_sz >= esz;
 * - damos_skip_charged_region() forgets the resume address only at the
 *   target's last region;
 * - the regions a walk split stay split until the next merge.
 */
#include <stdlib.h>
#include <string.h>

#include "hotscore/sim_apply.h"
#include "hotscore/sim_damos.h"

#include "sim_internal.h"

#define ALIGN_DOWN(x, a)	((x) / (a) * (a))

static unsigned long sz_region(const struct hs_region *r)
{
	return r->end - r->start;
}

/* time_in_range_open(a, b, c): b <= a < c, in wrapping jiffies. */
static bool in_range_open(unsigned long a, unsigned long b, unsigned long c)
{
	return (long)(a - b) >= 0 && (long)(a - c) < 0;
}

static unsigned long sample_interval(const struct hs_apply *a)
{
	return a->attrs.sample_us ? a->attrs.sample_us : 1;
}

/**
 * hs_apply612_init() - kdamond_init_intervals_sis() for the schemes: each
 * first applies after its apply interval (the aggregation interval if 0).
 * @a:		the context; its schemes' quota state is left as given.
 */
void hs_apply612_init(struct hs_apply *a)
{
	unsigned int i;

	for (i = 0; i < a->nr_schemes; i++) {
		struct hs_scheme *s = &a->schemes[i];

		s->next_apply_sis = (s->apply_us ? s->apply_us :
				     a->attrs.aggr_us) / sample_interval(a);
	}
}

/**
 * hs_apply612_due() - whether any scheme applies at @passed_sis.
 * @a:		the context.
 * @passed_sis:	ctx->passed_sample_intervals.
 *
 * Return: true if kdamond_apply_schemes() would walk the regions.
 */
bool hs_apply612_due(const struct hs_apply *a, unsigned long passed_sis)
{
	unsigned int i;

	for (i = 0; i < a->nr_schemes; i++)
		if (passed_sis >= a->schemes[i].next_apply_sis)
			return true;
	return false;
}

/*
 * 6.12's get_scheme_score(): damon_va_scheme_score() scores pageout only
 * (cold); damon_pa_scheme_score() every action but stat.  The newest
 * core's vaddr also scores the migrations (hs_score_kind()).
 */
static enum hs_score_kind score_kind(enum hs_ops ops, enum hs_action act)
{
	if (ops == HS_OPS_VADDR && act != HS_ACT_PAGEOUT)
		return HS_SCORE_MAX;
	return hs_score_kind(ops, act);
}

/* get_scheme_score(): damon_hot_score(), or DAMOS_MAX_SCORE - it. */
static int scheme_score(struct hs_apply *a, const struct hs_region *r,
			const struct hs_scheme *s, unsigned long sis)
{
	enum hs_score_kind kind = score_kind(a->ops, s->action);
	struct hs_input in;
	int hot;

	if (kind == HS_SCORE_MAX)
		return HS_DAMOS_MAX_SCORE;
	memset(&in, 0, sizeof(in));
	in.sample_us = a->attrs.sample_us;
	in.aggr_us = a->attrs.aggr_us;
	in.passed_sis = sis;
	in.next_aggr_sis = a->next_aggr_sis;
	in.nr_accesses = r->nr_accesses;
	in.nr_accesses_bp = r->nr_accesses_bp;
	in.last_nr_accesses = r->last_nr_accesses;
	in.age = r->age;
	in.weight_nr_accesses = s->quota.weight_nr;
	in.weight_age = s->quota.weight_age;
	hot = a->cb->hot(a->ctx, &in);
	/* 6.12 clamps to [0, DAMOS_MAX_SCORE]; a model that does not
	 * would index past the histogram: keep the replay safe */
	if (hot < 0)
		hot = 0;
	if (hot > HS_DAMOS_MAX_SCORE)
		hot = HS_DAMOS_MAX_SCORE;
	return kind == HS_SCORE_HOT ? hot : HS_DAMOS_MAX_SCORE - hot;
}

/* __damos_valid_target(): 'nr_accesses = r->nr_accesses_bp / 10000'. */
static bool valid_pattern(const struct hs_region *r, const struct hs_scheme *s)
{
	return hs_pattern_admits(&s->pattern, sz_region(r),
				 r->nr_accesses_bp / 10000, r->age);
}

/* damos_set_effective_quota() without goals. */
static void set_effective_quota(struct hs_apply *a, unsigned int i)
{
	struct hs_quota *q = &a->schemes[i].quota;
	unsigned long throughput, esz;

	if (!q->ms) {
		q->esz = q->sz;
		return;
	}
	/* measured by ktime_get_coarse_ts64() around each action */
	q->total_charged_ns = a->cb->charged_ns(a->ctx, i);
	if (q->total_charged_ns)
		throughput = q->total_charged_sz * 1000000 /
			q->total_charged_ns;
	else
		throughput = HS_QUOTA_FIRST_THROUGHPUT;
	esz = throughput * q->ms;
	if (esz < a->attrs.min_region_sz)	/* max(DAMON_MIN_REGION, esz) */
		esz = a->attrs.min_region_sz;
	if (q->sz && q->sz < esz)
		esz = q->sz;
	q->esz = esz;
}

/* damos_adjust_quota() */
static void adjust_quota(struct hs_apply *a, unsigned int i,
			 unsigned long sis, unsigned long jiffies,
			 const struct hs_region *r, size_t nr)
{
	struct hs_scheme *s = &a->schemes[i];
	struct hs_quota *q = &s->quota;
	unsigned long cumulated;
	unsigned int score, max_score = 0;
	size_t k;

	if (!q->esz && !q->ms && !q->sz)	/* && list_empty(goals) */
		return;
	if (a->cb->jiffies)
		jiffies = a->cb->jiffies(a->ctx, i, jiffies);
	/* First charge window: charged_from, and esz still 0 */
	if (!q->total_charged_sz && !q->charged_from)
		q->charged_from = jiffies;
	/* New charge window starts */
	if (!in_range_open(jiffies, q->charged_from, q->charged_from +
			   hs_msecs_to_jiffies(a->hz, q->reset_ms))) {
		if (q->esz && q->charged_sz >= q->esz)
			s->stat.qt_exceeds++;
		q->total_charged_sz += q->charged_sz;
		q->charged_from = jiffies;
		q->charged_sz = 0;
		set_effective_quota(a, i);
		a->nr_windows++;
	}
	/* damos_fix_stale_charge_pointers(): one target, never empty */

	/* Fill up the score histogram */
	memset(a->hist, 0, sizeof(a->hist));
	for (k = 0; k < nr; k++) {
		if (!valid_pattern(&r[k], s))
			continue;
		score = (unsigned int)scheme_score(a, &r[k], s, sis);
		a->hist[score] += sz_region(&r[k]);
		if (score > max_score)
			max_score = score;
	}
	/* Set the min score limit */
	for (cumulated = 0, score = max_score;; score--) {
		cumulated += a->hist[score];
		if (cumulated >= q->esz || !score)
			break;
	}
	q->min_score = score;
	a->nr_adjust++;
}

/* damon_split_region_at(): the right part after @i; -1 without memory. */
static int split_at(struct hs_apply *a, struct hs_region **r, size_t *nr, size_t *cap, size_t i,
		    unsigned long sz_r)
{
	struct hs_region *n;

	if (*nr == *cap) {
		n = realloc(*r, (*cap * 2 + 16) * sizeof(**r));
		if (!n) {
			a->nomem = true;
			return -1;
		}
		*r = n;
		*cap = *cap * 2 + 16;
	}
	memmove(&(*r)[i + 2], &(*r)[i + 1], (*nr - i - 1) * sizeof(**r));
	(*r)[i + 1] = (*r)[i];
	(*r)[i + 1].start = (*r)[i].start + sz_r;
	(*r)[i].end = (*r)[i + 1].start;
	(*nr)++;
	return a->nomem ? -1 : 0;
}

/* damos_skip_charged_region() */
static bool skip_charged(struct hs_apply *a, struct hs_region **r,
			 size_t *nr, size_t *cap, size_t i, struct hs_quota *q)
{
	unsigned long min_sz = a->attrs.min_region_sz, sz_to_skip;
	const struct hs_region *cur = &(*r)[i];
	bool skip = false;

	/* Skip previously charged regions (one target: it is this one) */
	if (q->charge_from_set) {
		if (q->charge_addr_from && cur->end <= q->charge_addr_from) {
			skip = true;
			goto out;
		}
		if (q->charge_addr_from && cur->start < q->charge_addr_from) {
			sz_to_skip = ALIGN_DOWN(q->charge_addr_from -
						cur->start, min_sz);
			if (!sz_to_skip) {
				if (sz_region(cur) <= min_sz) {
					skip = true;
					goto out;
				}
				sz_to_skip = min_sz;
			}
			split_at(a, r, nr, cap, i, sz_to_skip);
			skip = true;
		}
	}
out:
	/* r == damon_last_region(t), after any split */
	if (i == *nr - 1) {
		q->charge_from_set = false;
		q->charge_addr_from = 0;
	}
	return skip;
}

/* damos_apply_scheme() */
static void apply_scheme(struct hs_apply *a, struct hs_region **r,
			 size_t *nr, size_t *cap, size_t i, unsigned int si,
			 int score)
{
	struct hs_scheme *s = &a->schemes[si];
	struct hs_quota *q = &s->quota;
	unsigned long sz = sz_region(&(*r)[i]);

	if (q->esz && q->charged_sz + sz > q->esz) {
		sz = ALIGN_DOWN(q->esz - q->charged_sz, a->attrs.min_region_sz);
		if (!sz)
			goto update_stat;
		if (split_at(a, r, nr, cap, i, sz))
			goto update_stat;
	}
	/* damos_filter_out(): no filters */
	sz = sz_region(&(*r)[i]);
	/* trace_damos_before_apply(), then c->ops.apply_scheme() */
	if (a->cb->on_apply)
		a->cb->on_apply(a->ctx, &(*r)[i], si, score, q, *nr);
	q->charged_sz += sz;
	if (q->esz && q->charged_sz >= q->esz) {
		q->charge_from_set = true;	/* charge_target_from = t */
		q->charge_addr_from = (*r)[i].end;
	}
	if (s->action != HS_ACT_STAT)
		(*r)[i].age = 0;
update_stat:
	s->stat.nr_tried++;
	s->stat.sz_tried += sz;
}

/* damon_do_apply_schemes() for region @i */
static void do_apply_schemes(struct hs_apply *a, unsigned long sis,
			     struct hs_region **r, size_t *nr, size_t *cap,
			     size_t i)
{
	unsigned int si;

	for (si = 0; si < a->nr_schemes; si++) {
		struct hs_scheme *s = &a->schemes[si];
		struct hs_quota *q = &s->quota;
		int score = HS_EVENT_NO_SCORE;

		if (sis < s->next_apply_sis)
			continue;
		/* !s->wmarks.activated: no watermarks */
		/* Check the quota */
		if (q->esz && q->charged_sz >= q->esz)
			continue;
		if (skip_charged(a, r, nr, cap, i, q))
			continue;
		/* damos_valid_target(): a score only where esz is set */
		if (!valid_pattern(&(*r)[i], s))
			continue;
		if (q->esz) {
			score = scheme_score(a, &(*r)[i], s, sis);
			if (score < (int)q->min_score)
				continue;
		}
		apply_scheme(a, r, nr, cap, i, si, score);
	}
}

/**
 * hs_apply612() - kdamond_apply_schemes() at @passed_sis: each scheme due
 * adjusts its quota (a new charge window at @jiffies if the last one has
 * ended), then every region is walked in address order, each scheme
 * applied to it in turn, and each scheme due is scheduled again.
 * @a:		the context and its schemes' state; @a->next_aggr_sis must
 *		be ctx->next_aggregation_sis (the score's input).
 * @passed_sis:	ctx->passed_sample_intervals.
 * @jiffies:	jiffies when damos_adjust_quota() runs, unless
 *		@a->cb->jiffies says otherwise.
 * @r:		the target's regions, in address order; a split inserts the
 *		right part after its left, and an applied region's age is 0.
 * @nr:		how many; grows with the splits.
 * @cap:	room in @r; grows with it.
 *
 * Return: 0, or -1 if a split found no memory (the walk stopped there).
 */
int hs_apply612(struct hs_apply *a, unsigned long passed_sis,
		unsigned long jiffies, struct hs_region **r, size_t *nr,
		size_t *cap)
{
	unsigned int si;
	size_t i;

	if (!hs_apply612_due(a, passed_sis))
		return 0;
	for (si = 0; si < a->nr_schemes; si++)
		if (passed_sis >= a->schemes[si].next_apply_sis)
			adjust_quota(a, si, passed_sis, jiffies, *r, *nr);
	a->nomem = false;
	for (i = 0; i < *nr && !a->nomem; i++)
		do_apply_schemes(a, passed_sis, r, nr, cap, i);
	for (si = 0; si < a->nr_schemes; si++) {
		struct hs_scheme *s = &a->schemes[si];

		if (passed_sis < s->next_apply_sis)
			continue;
		s->next_apply_sis = passed_sis + (s->apply_us ? s->apply_us :
						  a->attrs.aggr_us) /
			sample_interval(a);
	}
	return a->nomem ? -1 : 0;
}
