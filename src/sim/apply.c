// SPDX-License-Identifier: GPL-2.0
/*
 * apply.c - kdamond_apply_schemes() on a list of regions, the one DAMOS
 * walk that the simulated kdamond, hotscore replay and rank --damos_trace
 * share: damos_adjust_quota() (the charge window, the effective size, the
 * score histogram and min_score), then damon_do_apply_schemes() region by
 * region with the quota charged and the resume address kept.  Each step
 * names the kernel line it models: mm/damon/core.c of linux-source-6.12
 * (Debian's 6.12.118) for HS_CORE_612, and of the newest core for
 * HS_CORE_NEWEST.  One target, no filters, no watermarks.
 *
 * 6.12 differs from the newest core:
 * - a scheme's first charge window sets charged_from but not esz, so
 *   the first reset_interval of a quota is unlimited (esz == 0: no score
 *   cut-off, no split, never full);
 * - the quota is full only at charged_sz >= esz, where the newest core
 *   also calls less than min_region_sz left full (damos_quota_is_full());
 * - damos_skip_charged_region() forgets the resume address only at the
 *   target's last region;
 * - the regions a walk split stay split until the next merge, where the
 *   newest damos_apply_target() merges each region into an equal left
 *   neighbour after applying to it.
 */
#include <limits.h>
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

static bool newest(const struct hs_apply *a)
{
	return a->core == HS_CORE_NEWEST;
}

/*
 * Whether the quota limits the walk: 6.12 tests 'quota->esz' where the
 * newest core asks damos_quota_is_set() (esz, sz, ms or a goal).
 */
static bool quota_on(const struct hs_apply *a, const struct hs_quota *q)
{
	return newest(a) ? hs_quota_set(q) : q->esz != 0;
}

/* damos_quota_is_full() of the newest core; 6.12's test in each caller. */
static bool quota_full(const struct hs_apply *a, const struct hs_quota *q)
{
	if (!quota_on(a, q))
		return false;
	if (q->charged_sz >= q->esz)
		return true;
	return newest(a) && q->esz - q->charged_sz < a->attrs.min_region_sz;
}

/**
 * hs_apply_init() - kdamond_init_intervals_sis() for the schemes: each
 * first applies after its apply interval (the aggregation interval if 0).
 * @a:		the context; its schemes' quota state is left as given.
 */
void hs_apply_init(struct hs_apply *a)
{
	unsigned int i;

	for (i = 0; i < a->nr_schemes; i++) {
		struct hs_scheme *s = &a->schemes[i];

		s->next_apply_sis = (s->apply_us ? s->apply_us :
				     a->attrs.aggr_us) / sample_interval(a);
	}
}

/**
 * hs_apply_due() - whether any scheme applies at @passed_sis.
 * @a:		the context.
 * @passed_sis:	ctx->passed_sample_intervals.
 *
 * Return: true if kdamond_apply_schemes() would walk the regions.
 */
bool hs_apply_due(const struct hs_apply *a, unsigned long passed_sis)
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
static enum hs_score_kind score_kind(const struct hs_apply *a,
				     enum hs_action act)
{
	if (!newest(a) && a->ops == HS_OPS_VADDR && act != HS_ACT_PAGEOUT)
		return HS_SCORE_MAX;
	return hs_score_kind(a->ops, act);
}

/* get_scheme_score(): damon_hot_score(), or DAMOS_MAX_SCORE - it. */
static int scheme_score(struct hs_apply *a, const struct hs_region *r,
			unsigned int si, unsigned long sis)
{
	const struct hs_scheme *s = &a->schemes[si];
	enum hs_score_kind kind;
	struct hs_input in;
	int hot;

	if (a->cb->score)
		return a->cb->score(a->ctx, r, si);
	kind = score_kind(a, s->action);
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
static bool valid_pattern(struct hs_apply *a, const struct hs_region *r,
			  unsigned int si)
{
	if (a->cb->eligible)
		return a->cb->eligible(a->ctx, r, si);
	return hs_pattern_admits(&a->schemes[si].pattern, sz_region(r),
				 r->nr_accesses_bp / 10000, r->age);
}

/* 6.12's damos_set_effective_quota(), without goals. */
static void set_effective_quota(struct hs_apply *a, unsigned int i)
{
	struct hs_quota *q = &a->schemes[i].quota;
	unsigned long throughput, esz;

	if (a->cb->set_esz) {
		a->cb->set_esz(a->ctx, i);
		return;
	}
	if (!q->ms) {
		q->esz = q->sz;
		return;
	}
	/* measured by ktime_get_coarse_ts64() around each action */
	if (a->cb->charged_ns)
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

/* Fill up the score histogram, region by region. */
static unsigned int histogram(struct hs_apply *a, unsigned int si,
			      unsigned long sis, const struct hs_region *r,
			      size_t nr)
{
	unsigned int max_score = 0;
	size_t k;
	int score;

	if (a->cb->histogram) {
		score = a->cb->histogram(a->ctx, si, a->hist);
		if (score >= 0)
			return (unsigned int)score;
	}
	memset(a->hist, 0, sizeof(a->hist));
	for (k = 0; k < nr; k++) {
		if (!valid_pattern(a, &r[k], si))
			continue;
		a->schemes[si].stat.nr_scored++;
		score = scheme_score(a, &r[k], si, sis);
		if (score < 0)	/* a candidate's trap: no score, not applied */
			continue;
		hs_hist_add(a->hist, &max_score, (unsigned int)score,
			    sz_region(&r[k]));
	}
	return max_score;
}

/**
 * hs_apply_adjust() - damos_adjust_quota() of scheme @si: start a new
 * charge window at @jiffies if the last one has ended, then set min_score
 * from the eligible regions' score histogram.
 * @a:		the context.
 * @si:		the scheme.
 * @sis:	ctx->passed_sample_intervals, for the scores.
 * @jiffies:	now, unless @a->cb->jiffies says otherwise.
 * @r:		the regions.
 * @nr:		how many.
 */
void hs_apply_adjust(struct hs_apply *a, unsigned int si, unsigned long sis,
		     unsigned long jiffies, const struct hs_region *r,
		     size_t nr)
{
	struct hs_scheme *s = &a->schemes[si];
	struct hs_quota *q = &s->quota;
	unsigned int max_score;

	if (!hs_quota_set(q))	/* !ms && !sz && list_empty(goals) */
		return;
	if (a->cb->jiffies)
		jiffies = a->cb->jiffies(a->ctx, si, jiffies);
	/* First charge window: 6.12 sets charged_from, and esz stays 0 */
	if (!q->total_charged_sz && !q->charged_from) {
		q->charged_from = jiffies;
		if (newest(a))
			set_effective_quota(a, si);
	}
	/* New charge window starts */
	if (!in_range_open(jiffies, q->charged_from, q->charged_from +
			   hs_msecs_to_jiffies(a->hz, q->reset_ms))) {
		if (quota_full(a, q))
			s->stat.qt_exceeds++;
		q->total_charged_sz += q->charged_sz;
		q->charged_from = jiffies;
		q->charged_sz = 0;
		set_effective_quota(a, si);
		a->nr_windows++;
	}
	/* damos_fix_stale_charge_pointers(): one target, never empty */
	s->stat.nr_adjust++;
	max_score = histogram(a, si, sis, r, nr);
	/* Set the min score limit */
	q->min_score = hs_quota_min_score(a->hist, max_score, q->esz);
	a->nr_adjust++;
}

/**
 * hs_apply_adjust_due() - kdamond_apply_schemes()'s first loop: adjust
 * the quota of each scheme due at @sis.
 * @a:		the context.
 * @sis:	ctx->passed_sample_intervals.
 * @jiffies:	now.
 * @r:		the regions.
 * @nr:		how many.
 *
 * Return: true if any scheme was due (the walk follows).
 */
bool hs_apply_adjust_due(struct hs_apply *a, unsigned long sis,
			 unsigned long jiffies, const struct hs_region *r,
			 size_t nr)
{
	bool due = false;
	unsigned int si;

	for (si = 0; si < a->nr_schemes; si++) {
		if (sis < a->schemes[si].next_apply_sis)
			continue;
		due = true;
		a->schemes[si].stat.nr_applies++;
		hs_apply_adjust(a, si, sis, jiffies, r, nr);
	}
	return due;
}

/* damon_split_region_at(): the right part after @i; -1 without memory. */
static int split_at(struct hs_apply *a, struct hs_region **r, size_t *nr,
		    size_t *cap, size_t i, unsigned long sz_r)
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
	return 0;
}

/* The part of damos_skip_charged_region() left of charge_addr_from. */
static bool skip_left(struct hs_apply *a, struct hs_region **r, size_t *nr,
		      size_t *cap, size_t i, const struct hs_quota *q)
{
	unsigned long min_sz = a->attrs.min_region_sz, sz_to_skip;
	const struct hs_region *cur = &(*r)[i];

	if (!q->charge_addr_from)
		return false;
	if (cur->end <= q->charge_addr_from)
		return true;
	if (cur->start >= q->charge_addr_from)
		return false;
	sz_to_skip = ALIGN_DOWN(q->charge_addr_from - cur->start, min_sz);
	if (!sz_to_skip) {
		if (sz_region(cur) <= min_sz)
			return true;
		sz_to_skip = min_sz;
	}
	split_at(a, r, nr, cap, i, sz_to_skip);
	return true;
}

static void forget_charged(struct hs_quota *q)
{
	q->charge_from_set = false;	/* charge_target_from = NULL */
	q->charge_addr_from = 0;
}

/*
 * damos_skip_charged_region(), one target: skip what the last window
 * charged.  The newest core forgets the resume address at the last region
 * or once past it; 6.12 only at the last region, after any split.
 */
static bool skip_charged(struct hs_apply *a, struct hs_region **r,
			 size_t *nr, size_t *cap, size_t i, struct hs_quota *q)
{
	bool skip;

	if (newest(a)) {
		if (!q->charge_from_set)
			return false;
		if (i == *nr - 1) {
			forget_charged(q);
			return true;
		}
		if (skip_left(a, r, nr, cap, i, q))
			return true;
		forget_charged(q);
		return false;
	}
	skip = q->charge_from_set && skip_left(a, r, nr, cap, i, q);
	if (i == *nr - 1)	/* r == damon_last_region(t) */
		forget_charged(q);
	return skip;
}

/*
 * How much of a region of @sz bytes damos_apply_scheme() charges: what
 * still fits, page-aligned, or nothing.  6.12 cuts only a region that
 * does not fit (a smaller one than min_region_sz that fits is applied
 * whole); the newest core first calls less than min_region_sz left full.
 */
static unsigned long quota_take(const struct hs_apply *a,
				const struct hs_quota *q, unsigned long sz)
{
	if (newest(a))
		return hs_quota_take(q->esz, q->charged_sz, sz,
				     a->attrs.min_region_sz);
	if (q->charged_sz + sz > q->esz)
		sz = ALIGN_DOWN(q->esz - q->charged_sz,
				a->attrs.min_region_sz);
	return sz;
}

/**
 * hs_apply_one() - damos_apply_scheme(): charge what of region @i still
 * fits the quota (splitting it there), act on it, reset its age.
 * @a:		the context.
 * @r:		the regions; a split inserts the right part after @i.
 * @nr:		how many.
 * @cap:	room in @r.
 * @i:		the region.
 * @si:		the scheme.
 * @score:	the score that let it through, or HS_EVENT_NO_SCORE.
 *
 * Return: 0, or -1 if the split found no memory.
 */
int hs_apply_one(struct hs_apply *a, struct hs_region **r, size_t *nr,
		 size_t *cap, size_t i, unsigned int si, int score)
{
	struct hs_scheme *s = &a->schemes[si];
	struct hs_quota *q = &s->quota;
	unsigned long sz = sz_region(&(*r)[i]), sz_applied = 0;

	if (quota_on(a, q)) {
		sz = quota_take(a, q, sz);
		if (!sz)
			goto update_stat;
		if (sz < sz_region(&(*r)[i]) &&
		    split_at(a, r, nr, cap, i, sz))
			goto update_stat;
	}
	/* damos_filter_out(): no filters */
	/* trace_damos_before_apply(), then c->ops.apply_scheme() */
	if (a->cb->on_apply)
		sz_applied = a->cb->on_apply(a->ctx, &(*r)[i], si, score, q,
					     *nr);
	q->charged_sz += sz;	/* no fail_charge_denom: the full size */
	if (quota_full(a, q)) {
		q->charge_from_set = true;	/* charge_target_from = t */
		q->charge_addr_from = (*r)[i].end;
	}
	if (s->action != HS_ACT_STAT)
		(*r)[i].age = 0;
update_stat:
	s->stat.nr_tried++;
	s->stat.sz_tried += sz;
	if (sz_applied)
		s->stat.nr_applied++;
	s->stat.sz_applied += sz_applied;
	return a->nomem ? -1 : 0;
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
		if (quota_full(a, q))
			continue;
		if (skip_charged(a, r, nr, cap, i, q))
			continue;
		if (!valid_pattern(a, &(*r)[i], si))
			continue;
		/* damos_valid_target(): a score only under a quota */
		if (quota_on(a, q)) {
			score = scheme_score(a, &(*r)[i], si, sis);
			if (score < (int)q->min_score)
				continue;
		}
		hs_apply_one(a, r, nr, cap, i, si, score);
	}
}

/*
 * The newest damos_apply_target()'s tail: a region merges into its left
 * neighbour when that loses nothing and the result is not too large.
 */
static size_t merge_equal(const struct hs_apply *a, struct hs_region *r,
			  size_t nr)
{
	size_t k, n = 0;

	for (k = 0; k < nr; k++) {
		struct hs_region *prev = n ? &r[n - 1] : NULL;

		if (prev && prev->end == r[k].start &&
		    prev->age == r[k].age &&
		    prev->last_nr_accesses == r[k].last_nr_accesses &&
		    prev->nr_accesses == r[k].nr_accesses &&
		    prev->nr_accesses_bp == r[k].nr_accesses_bp &&
		    r[k].end - prev->start <= a->max_region_sz) {
			prev->end = r[k].end;
			continue;
		}
		r[n++] = r[k];
	}
	return n;
}

/**
 * hs_apply_walk() - kdamond_apply_schemes() after the quotas are set:
 * every region walked in address order, each scheme due applied to it in
 * turn, then each scheme due scheduled again.
 * @a:		the context and its schemes' state.
 * @passed_sis:	ctx->passed_sample_intervals.
 * @r:		the target's regions, in address order; a split inserts the
 *		right part after its left, and an applied region's age is 0.
 * @nr:		how many; grows with the splits, and shrinks with the newest
 *		core's merge.
 * @cap:	room in @r; grows with it.
 *
 * Return: 0, or -1 if a split found no memory (the walk stopped there).
 */
int hs_apply_walk(struct hs_apply *a, unsigned long passed_sis,
		  struct hs_region **r, size_t *nr, size_t *cap)
{
	unsigned int si;
	size_t i;

	a->nomem = false;
	for (i = 0; i < *nr && !a->nomem; i++)
		do_apply_schemes(a, passed_sis, r, nr, cap, i);
	if (newest(a))
		*nr = merge_equal(a, *r, *nr);
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

/**
 * hs_apply_run() - kdamond_apply_schemes() at @passed_sis: each scheme due
 * adjusts its quota (a new charge window at @jiffies if the last one has
 * ended), then the regions are walked (hs_apply_walk()).
 * @a:		the context and its schemes' state; @a->next_aggr_sis must
 *		be ctx->next_aggregation_sis (the score's input).
 * @passed_sis:	ctx->passed_sample_intervals.
 * @jiffies:	jiffies when damos_adjust_quota() runs, unless
 *		@a->cb->jiffies says otherwise.
 * @r:		the target's regions, as hs_apply_walk() takes them.
 * @nr:		how many.
 * @cap:	room in @r.
 *
 * Return: 0, or -1 if a split found no memory (the walk stopped there).
 */
int hs_apply_run(struct hs_apply *a, unsigned long passed_sis,
		 unsigned long jiffies, struct hs_region **r, size_t *nr,
		 size_t *cap)
{
	if (!hs_apply_adjust_due(a, passed_sis, jiffies, *r, *nr))
		return 0;
	return hs_apply_walk(a, passed_sis, r, nr, cap);
}

/* hs_damos_walk()'s snapshot and result, for the walk's callbacks. */
struct snapshot {
	const struct hs_damos_region *in;
	const struct hs_pattern *pattern;
	hs_damos_score_fn score_fn;
	void *ctx;
	struct hs_damos_walk *w;
};

#define SCORE_UNSET	INT_MIN

/*
 * A region's score, asked once: the histogram asks first, and the walk
 * again for the part of it at hand (a region is tagged with its index in
 * the snapshot, in @wl, which its split parts keep).
 */
static int snapshot_score(void *ctx, const struct hs_region *r,
			  unsigned int s)
{
	struct snapshot *sn = ctx;
	int *score = &sn->w->score[r->wl];

	(void)s;
	if (*score == SCORE_UNSET) {
		*score = sn->score_fn(sn->ctx, &sn->in[r->wl]);
		if (*score > HS_DAMOS_MAX_SCORE)
			*score = HS_DAMOS_MAX_SCORE;
	}
	return *score;
}

/* A record's nr_accesses, in samples, is the moving sum at its end. */
static bool snapshot_eligible(void *ctx, const struct hs_region *r,
			      unsigned int s)
{
	const struct snapshot *sn = ctx;

	(void)s;
	return hs_pattern_admits(sn->pattern, sz_region(r), r->nr_accesses,
				 r->age);
}

static unsigned long snapshot_apply(void *ctx, const struct hs_region *r,
				    unsigned int s, int score,
				    const struct hs_quota *q, size_t nr)
{
	struct snapshot *sn = ctx;

	(void)s;
	(void)score;
	(void)q;
	(void)nr;
	sn->w->charged[r->wl] += sz_region(r);
	return 0;
}

static const struct hs_apply_ops snapshot_ops = {
	.score = snapshot_score, .eligible = snapshot_eligible,
	.on_apply = snapshot_apply,
};

/**
 * hs_damos_regions() - a snapshot's regions as the walk (hs_apply_run())
 * takes them: nr_accesses at the aggregation's end is also the last one
 * and the moving sum; each region is tagged, in @wl, with its index in
 * @in, which the parts of a split keep.
 * @in:		the snapshot's regions.
 * @nr:		how many; fewer than 2^32.
 * @out:	room for @nr.
 */
void hs_damos_regions(const struct hs_damos_region *in, size_t nr,
		      struct hs_region *out)
{
	size_t i;

	for (i = 0; i < nr; i++)
		out[i] = (struct hs_region){
			.start = in[i].start, .end = in[i].end,
			.nr_accesses = in[i].nr_accesses,
			.last_nr_accesses = in[i].nr_accesses,
			.nr_accesses_bp = in[i].nr_accesses * 10000,
			.age = in[i].age, .wl = (unsigned int)i,
		};
}

/* The snapshot as the walk's regions, with room for its splits. */
static struct hs_region *snapshot_regions(const struct hs_damos_region *in,
					  size_t nr, size_t *cap)
{
	struct hs_region *r;

	*cap = nr + 16;
	r = calloc(*cap, sizeof(*r));
	if (r)
		hs_damos_regions(in, nr, r);
	return r;
}

/* What the walk leaves to be counted: eligibility and the charges. */
static void snapshot_count(const struct snapshot *sn, size_t nr)
{
	struct hs_damos_walk *w = sn->w;
	size_t i;

	for (i = 0; i < nr; i++) {
		unsigned long sz = sn->in[i].end - sn->in[i].start;

		if (w->score[i] == SCORE_UNSET)
			w->score[i] = -1;
		if (!hs_pattern_admits(sn->pattern, sz, sn->in[i].nr_accesses,
				       sn->in[i].age))
			continue;
		w->nr_eligible++;
		w->sz_eligible += sz;
		w->nr_charged += w->charged[i] != 0;
		w->sz_charged += w->charged[i];
	}
}

/**
 * hs_damos_walk() - one scheme on one snapshot through the walk of
 * hs_apply_run() (the newest core's, one target), from a fresh quota: the
 * first charge window, nothing charged, no resume address, a time quota
 * converted at HS_QUOTA_FIRST_THROUGHPUT, and a page the split
 * granularity (docs/rank.md says why a record allows no more).
 * @r:		the regions, in address order (a context's targets one after
 *		another).
 * @nr:		how many; fewer than 2^32.
 * @s:		the scheme: its pattern, and its quota's ms and sz.
 * @score_fn:	the score of an eligible region, called under a quota only,
 *		once a region.
 * @ctx:	passed to @score_fn.
 * @w:		the result; @w->score and @w->charged must hold @nr each.
 *
 * Return: 0, or -1 without memory.
 */
int hs_damos_walk(const struct hs_damos_region *r, size_t nr,
		  const struct hs_scheme *s, hs_damos_score_fn score_fn,
		  void *ctx, struct hs_damos_walk *w)
{
	struct snapshot sn = { r, &s->pattern, score_fn, ctx, w };
	struct hs_scheme fresh = { .action = s->action, .pattern = s->pattern };
	struct hs_apply a = {
		.core = HS_CORE_NEWEST, .ops = HS_OPS_PADDR, .hz = 1000,
		.schemes = &fresh, .nr_schemes = 1, .cb = &snapshot_ops,
		.ctx = &sn, .max_region_sz = ULONG_MAX,
	};
	struct hs_region *walk;
	size_t i, n = nr, cap;
	unsigned int score;

	a.attrs.min_region_sz = HS_PAGE_SIZE;
	fresh.quota.ms = s->quota.ms;
	fresh.quota.sz = s->quota.sz;
	fresh.quota.reset_ms = s->quota.reset_ms;
	w->nr_eligible = w->nr_charged = 0;
	w->sz_eligible = w->sz_charged = 0;
	for (i = 0; i < nr; i++) {
		w->score[i] = SCORE_UNSET;
		w->charged[i] = 0;
	}
	walk = snapshot_regions(r, nr, &cap);
	if (!walk)
		return -1;
	memset(a.hist, 0, sizeof(a.hist));
	/* the first window: jiffies 1, any non-zero start would do */
	if (hs_apply_run(&a, 0, 1, &walk, &n, &cap)) {
		free(walk);
		return -1;
	}
	free(walk);
	memcpy(w->hist, a.hist, sizeof(w->hist));
	for (w->max_score = 0, score = HS_DAMOS_MAX_SCORE; score; score--)
		if (w->hist[score]) {
			w->max_score = score;
			break;
		}
	w->esz = fresh.quota.esz;
	w->min_score = fresh.quota.min_score;
	snapshot_count(&sn, nr);
	return 0;
}
