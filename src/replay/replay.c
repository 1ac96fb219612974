// SPDX-License-Identifier: GPL-2.0
/*
 * replay.c - a 6.12 kdamond's DAMOS trace replayed through hs_apply_run()
 * and compared with what the kernel did (include/hotscore/replay.h).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotscore/replay.h"
#include "hotscore/sim_apply.h"
#include "hotscore/sim_damos.h"

/* One application the replay made, with its quota state just then. */
struct pred {
	unsigned int scheme;
	unsigned long window;
	int score;
	struct hs_region r;
	struct hs_quota q;
	size_t nr_regions;
};

struct replay {
	const struct hs_replay_cfg *cfg;
	const struct hs_dtrace *t;
	struct hs_replay_result *res;
	size_t iter;			/* the sample being replayed */
	struct pred *pred;
	size_t nr_pred, cap_pred;
	bool nomem;
	unsigned long last_tns[HS_MAX_SCHEMES];
	size_t *nextq[HS_MAX_SCHEMES];	/* from application i, the scheme's
					 * first with an hs_quota (or none) */
	unsigned long window[HS_MAX_SCHEMES];
	unsigned long from[HS_MAX_SCHEMES];
	bool from_seen[HS_MAX_SCHEMES];	/* the window's start, confirmed */
	unsigned long late;		/* a trial's adjustment jiffies */
	bool is_late;			/* whether this walk is a trial */
	struct hs_apply a;
};

/* Sample @it's applications and regions (an empty array has no address). */
static const struct hs_dtrace_apply *applies_of(const struct hs_dtrace *t,
						const struct hs_dtrace_iter *it)
{
	return t->applies ? t->applies + it->first_apply : NULL;
}

static const struct hs_dtrace_region *regions_of(const struct hs_dtrace *t,
						 const struct hs_dtrace_iter *it)
{
	return t->regions ? t->regions + it->first_region : NULL;
}

const char *hs_miss_kind_name(enum hs_miss_kind k)
{
	static const char *const names[] = {
		[HS_MISS_KERNEL_ONLY] = "kernel only",
		[HS_MISS_REPLAY_ONLY] = "replay only",
		[HS_MISS_QUOTA] = "quota state",
		[HS_MISS_REGIONS] = "regions",
		[HS_MISS_OFF_AGGR] = "off an aggregation",
	};

	return k <= HS_MISS_OFF_AGGR ? names[k] : "?";
}

static struct hs_replay_miss *miss(struct replay *rp, enum hs_miss_kind kind,
				   unsigned long sis, unsigned int scheme)
{
	struct hs_replay_result *res = rp->res;
	static struct hs_replay_miss spare;
	struct hs_replay_miss *m;

	res->nr_misses++;
	if (res->nr_misses > rp->cfg->max_misses) {
		m = &spare;	/* counted, not kept */
	} else {
		m = &res->misses[res->nr_misses - 1];
	}
	memset(m, 0, sizeof(*m));
	m->kind = kind;
	m->sis = sis;
	m->scheme = scheme;
	m->window = scheme < HS_MAX_SCHEMES ? rp->window[scheme] : 0;
	m->replay_min = scheme < rp->a.nr_schemes ?
		rp->a.schemes[scheme].quota.min_score : 0;
	return m;
}

static void miss_kernel(struct replay *rp, const struct hs_dtrace_iter *it,
			const struct hs_dtrace_apply *k, enum hs_miss_kind kind)
{
	struct hs_replay_miss *m = miss(rp, kind, it->sis, k->scheme);

	m->start = k->start;
	m->end = k->end;
	m->nr_accesses = k->nr_accesses;
	m->age = k->age;
	m->kernel_min = k->min_score;
	m->kernel_min_known = k->quota;
	m->lineno = k->lineno;
}

/* An application the replay made and the kernel did not. */
static void miss_replay(struct replay *rp, const struct hs_dtrace_iter *it,
			const struct pred *p, unsigned long lineno)
{
	struct hs_replay_miss *m = miss(rp, HS_MISS_REPLAY_ONLY, it->sis,
					p->scheme);

	m->start = p->r.start;
	m->end = p->r.end;
	m->nr_accesses = p->r.nr_accesses;
	m->age = p->r.age;
	m->replay_min = p->q.min_score;
	m->lineno = lineno;
	rp->res->nr_replay_only++;
}

/* An application the replay made (@p), with the kernel's or alone. */
static void pick_replay(const struct replay *rp,
			const struct hs_dtrace_iter *it, const struct pred *p,
			bool kernel)
{
	struct hs_replay_pick pk = {
		.sis = it->sis, .scheme = p->scheme, .window = p->window,
		.start = p->r.start, .end = p->r.end,
		.nr_accesses = p->r.nr_accesses_bp / 10000, .age = p->r.age,
		.score = p->score,
		/* no score, no cut-off: a window without esz */
		.min_score = p->score >= 0 ? (int)p->q.min_score : -1,
		.picked = true, .kernel = kernel,
	};

	if (rp->cfg->on_pick)
		rp->cfg->on_pick(rp->cfg->ctx, &pk);
}

/* An application the kernel made (@k) and the replay did not. */
static void pick_kernel(const struct replay *rp,
			const struct hs_dtrace_iter *it,
			const struct hs_dtrace_apply *k)
{
	struct hs_replay_pick pk = {
		.sis = it->sis, .scheme = k->scheme,
		.window = k->scheme < HS_MAX_SCHEMES ? rp->window[k->scheme] : 0,
		.start = k->start, .end = k->end,
		.nr_accesses = k->nr_accesses, .age = k->age,
		.score = HS_EVENT_NO_SCORE,
		.min_score = k->quota ? (int)k->min_score : -1,
		.kernel = true,
	};

	if (rp->cfg->on_pick)
		rp->cfg->on_pick(rp->cfg->ctx, &pk);
}

static int hot(void *ctx, const struct hs_input *in)
{
	const struct replay *rp = ctx;

	return rp->cfg->hot(rp->cfg->ctx, in);
}

/* Scheme @s's reset_interval in jiffies, as apply.c computes it. */
static unsigned long reset_jiffies(const struct replay *rp, unsigned int s)
{
	return hs_msecs_to_jiffies(rp->a.hz, rp->a.schemes[s].quota.reset_ms);
}

/* From application @i on, scheme @s's first with an hs_quota line. */
static size_t next_quota(const struct replay *rp, unsigned int s, size_t i)
{
	return rp->nextq[s] ? rp->nextq[s][i] : rp->t->nr_applies;
}

/* next_quota()'s tables, in one pass from the end: linear, not a scan. */
static int index_quotas(struct replay *rp)
{
	const struct hs_dtrace *t = rp->t;
	unsigned int s;
	size_t i;

	for (s = 0; s < rp->a.nr_schemes; s++) {
		rp->nextq[s] = malloc((t->nr_applies + 1) * sizeof(size_t));
		if (!rp->nextq[s])
			return -1;
		rp->nextq[s][t->nr_applies] = t->nr_applies;
		for (i = t->nr_applies; i-- > 0;)
			rp->nextq[s][i] = t->applies[i].scheme == s &&
				t->applies[i].quota ? i : rp->nextq[s][i + 1];
	}
	return 0;
}

/*
 * A time quota's total_charged_ns when window after window starts: only
 * an action adds to it, so the scheme's next hs_quota shows the value.
 */
static unsigned long charged_ns(void *ctx, unsigned int s)
{
	struct replay *rp = ctx;
	const struct hs_dtrace *t = rp->t;
	size_t i = next_quota(rp, s, t->iters[rp->iter].first_apply);

	if (i < t->nr_applies) {
		rp->res->nr_ns_taken++;
		rp->last_tns[s] = t->applies[i].tns;
		return t->applies[i].tns;
	}
	rp->res->nr_ns_unseen++;
	return rp->last_tns[s];
}

/*
 * The jiffies when scheme @s's quota is adjusted: a few microseconds, or
 * under TCG a jiffy or two, after the sample's check.  Where the kernel
 * started a window in this sample, the scheme's next hs_quota shows the
 * jiffies it started it at: a charged_from from this sample's check up to
 * the next sample's.  The replay's own rule then decides whether that
 * starts a window.
 */
static unsigned long adjust_jiffies(void *ctx, unsigned int s,
				    unsigned long dflt)
{
	struct replay *rp = ctx;
	const struct hs_dtrace *t = rp->t;
	const struct hs_dtrace_iter *it = &t->iters[rp->iter];
	struct hs_quota *q = &rp->a.schemes[s].quota;
	const struct hs_dtrace_apply *k;
	size_t i = next_quota(rp, s, it->first_apply);

	/* a trial's later adjustment, where nothing pins the kernel's */
	unsigned long late = rp->is_late ? rp->late : dflt;

	if (i == t->nr_applies)
		return late;
	k = &t->applies[i];
	/* the same window still at the scheme's next hs_quota: no start */
	if (k->from == rp->a.schemes[s].quota.charged_from ||
	    (long)(k->from - it->jiffies) < 0)
		return dflt;
	/* the next sample's check comes after this adjustment */
	if (rp->iter + 1 < t->nr_iters &&
	    (long)(t->iters[rp->iter + 1].jiffies - k->from) < 0)
		return late;
	rp->res->nr_from_kernel++;
	/*
	 * The kernel starts a window here that the replay's rule would not:
	 * the replay's own last window began later than the kernel's, at a
	 * sample whose adjustment fell a jiffy past its check, in a window
	 * where nothing was applied and so nothing showed its start.  That
	 * start is moved to the latest jiffy the kernel's rule allows.
	 */
	if (!rp->from_seen[s] &&
	    (long)(k->from - (q->charged_from + reset_jiffies(rp, s))) < 0) {
		q->charged_from = k->from - reset_jiffies(rp, s);
		rp->res->nr_reanchored++;
	}
	return k->from;
}

static unsigned long on_apply(void *ctx, const struct hs_region *r,
			      unsigned int s, int score,
			      const struct hs_quota *q, size_t nr_regions)
{
	struct replay *rp = ctx;
	struct pred *p;

	if (rp->nr_pred == rp->cap_pred) {
		size_t c = rp->cap_pred ? rp->cap_pred * 2 : 64;

		p = realloc(rp->pred, c * sizeof(*p));
		if (!p) {
			rp->nomem = true;
			return 0;
		}
		rp->pred = p;
		rp->cap_pred = c;
	}
	if (q->charged_from != rp->from[s]) {
		rp->from[s] = q->charged_from;
		rp->window[s]++;
	}
	p = &rp->pred[rp->nr_pred++];
	p->scheme = s;
	p->window = rp->window[s];
	p->score = score;
	p->r = *r;
	p->q = *q;
	p->nr_regions = nr_regions;
	return 0;
}

static const struct hs_apply_ops replay_ops = {
	.hot = hot, .charged_ns = charged_ns, .jiffies = adjust_jiffies,
	.on_apply = on_apply,
};

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/*
 * The boundaries the walk of sample @it may have made, sorted, in @pts
 * (room for it->nr_apply + the schemes): where an application filled its
 * quota (damos_apply_scheme() split the region at ALIGN_DOWN(esz -
 * charged_sz), so the charge came within a minimum region of esz; with
 * esz 0, never), and the resume address of each scheme due.  A region that
 * filled a quota exactly, or a resume address already at a boundary, is
 * no split, and two equal neighbours there would be joined wrongly: the
 * regions after the walk then differ from the kernel's, a printed miss.
 */
static size_t walk_splits(const struct replay *rp,
			  const struct hs_dtrace_iter *it, unsigned long *pts)
{
	const struct hs_dtrace_apply *k = applies_of(rp->t, it);
	unsigned long min_sz = rp->a.attrs.min_region_sz;
	unsigned int s;
	size_t i, n = 0;

	for (i = 0; i < it->nr_apply; i++) {
		unsigned long sz = k[i].end - k[i].start;

		if (k[i].quota && k[i].esz && k[i].charged + sz <= k[i].esz &&
		    k[i].charged + sz + min_sz > k[i].esz)
			pts[n++] = k[i].end;
	}
	/* damos_skip_charged_region() runs for the schemes due only */
	for (s = 0; s < rp->a.nr_schemes; s++) {
		const struct hs_scheme *sc = &rp->a.schemes[s];

		if (sc->quota.charge_from_set && it->sis >= sc->next_apply_sis)
			pts[n++] = sc->quota.charge_addr_from;
	}
	qsort(pts, n, sizeof(*pts), cmp_ulong);
	return n;
}

/* The first region of @r[0..@nr) that starts at or after @a. */
static size_t first_at(const struct hs_region *r, size_t nr, unsigned long a)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r[mid].start < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* @next[i]: the first region from i whose age is not yet restored. */
static size_t undone(size_t *next, size_t i)
{
	size_t root = i, j;

	while (next[root] != root)
		root = next[root];
	while (next[i] != root) {	/* path compression */
		j = next[i];
		next[i] = root;
		i = j;
	}
	return root;
}

/*
 * The regions the walk started from, out of damon_aggregated's after it:
 * the age an action reset, back from the first application to cover the
 * region; the walk's splits joined.  @next and @pts are scratch of
 * it->nr_regions + 1 and it->nr_apply + HS_MAX_SCHEMES.
 */
static size_t rebuild(const struct replay *rp, const struct hs_dtrace_iter *it,
		      struct hs_region *out, size_t *next, unsigned long *pts)
{
	const struct hs_dtrace_region *post = regions_of(rp->t, it);
	const struct hs_dtrace_apply *k = applies_of(rp->t, it);
	size_t i, j, n = 0, nr = it->nr_regions, nr_pts;

	for (i = 0; i < nr; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].start = post[i].start;
		out[i].end = post[i].end;
		out[i].nr_accesses = post[i].nr_accesses;
		/* at an aggregation's end the moving sum is the count */
		out[i].nr_accesses_bp = post[i].nr_accesses * 10000u;
		out[i].age = post[i].age;
		next[i] = i;
	}
	next[nr] = nr;
	for (j = 0; j < it->nr_apply; j++) {
		for (i = undone(next, first_at(out, nr, k[j].start));
		     i < nr && out[i].end <= k[j].end;
		     i = undone(next, i + 1)) {
			out[i].age = k[j].age;
			next[i] = i + 1;
		}
	}
	nr_pts = walk_splits(rp, it, pts);
	for (i = 0; i < nr; i++) {
		struct hs_region *l = n ? &out[n - 1] : NULL;

		if (l && l->end == out[i].start &&
		    l->nr_accesses == out[i].nr_accesses &&
		    l->age == out[i].age &&
		    bsearch(&out[i].start, pts, nr_pts, sizeof(*pts),
			    cmp_ulong)) {
			l->end = out[i].end;
			continue;
		}
		out[n++] = out[i];
	}
	return n;
}

static bool same_region(const struct hs_region *r,
			const struct hs_dtrace_apply *k)
{
	return r->start == k->start && r->end == k->end &&
		r->nr_accesses_bp / 10000 == k->nr_accesses &&
		r->age == k->age;
}

/*
 * The kernel's state at @k against the replay's at @p: the target's region
 * count (the splits so far), then the quota's.  Equal?
 */
static bool check_quota(struct replay *rp, const struct hs_dtrace_iter *it,
			const struct hs_dtrace_apply *k, const struct pred *p)
{
	const struct hs_quota *q = &p->q;
	struct hs_replay_miss *m;
	char what[128];

	if (!k->quota)
		return true;
	rp->res->nr_quota++;
	what[0] = '\0';
	if (k->nr_regions != p->nr_regions)
		snprintf(what, sizeof(what), "nr_regions %u, replay %zu (the walk's splits)",
			 k->nr_regions, p->nr_regions);
	else if (k->esz != q->esz)
		snprintf(what, sizeof(what), "esz %lu, replay %lu", k->esz,
			 q->esz);
	else if (k->charged != q->charged_sz)
		snprintf(what, sizeof(what), "charged_sz %lu, replay %lu",
			 k->charged, q->charged_sz);
	else if (k->from != q->charged_from)
		snprintf(what, sizeof(what), "charged_from %lu, replay %lu (jiffies)",
			 k->from, q->charged_from);
	else if (k->min_score != q->min_score)
		snprintf(what, sizeof(what), "min_score %u, replay %u",
			 k->min_score, q->min_score);
	else if (k->tsz != q->total_charged_sz)
		snprintf(what, sizeof(what), "total_charged_sz %lu, replay %lu",
			 k->tsz, q->total_charged_sz);
	if (!what[0]) {
		rp->res->nr_quota_equal++;
		return true;
	}
	miss_kernel(rp, it, k, HS_MISS_QUOTA);
	m = rp->res->nr_misses <= rp->cfg->max_misses ?
		&rp->res->misses[rp->res->nr_misses - 1] : NULL;
	if (m) {
		m->replay_min = q->min_score;
		snprintf(m->what, sizeof(m->what), "%s", what);
	}
	return false;
}

/*
 * The kernel's applications of sample @it against the replay's, both in
 * walk order: each kernel one is matched to the next equal one the replay
 * made; what the replay made in between, and after the last, it made
 * alone.
 */
static void compare(struct replay *rp, const struct hs_dtrace_iter *it)
{
	const struct hs_dtrace_apply *k = applies_of(rp->t, it);
	struct hs_replay_result *res = rp->res;
	size_t i, j, p = 0;

	for (i = 0; i < it->nr_apply; i++) {
		res->nr_kernel++;
		if (k[i].scheme < HS_MAX_SCHEMES)
			res->per_scheme[k[i].scheme]++;
		res->schemes_applied |= 1UL << (k[i].scheme % 64);
		/* both walks go in address order: none past its start */
		for (j = p; j < rp->nr_pred; j++)
			if (rp->pred[j].r.start > k[i].start ||
			    (rp->pred[j].scheme == k[i].scheme &&
			     same_region(&rp->pred[j].r, &k[i])))
				break;
		if (j == rp->nr_pred || rp->pred[j].r.start > k[i].start) {
			miss_kernel(rp, it, &k[i], HS_MISS_KERNEL_ONLY);
			pick_kernel(rp, it, &k[i]);
			continue;
		}
		for (; p < j; p++) {
			miss_replay(rp, it, &rp->pred[p], k[i].lineno);
			pick_replay(rp, it, &rp->pred[p], false);
		}
		pick_replay(rp, it, &rp->pred[j], true);
		p = j + 1;
		if (check_quota(rp, it, &k[i], &rp->pred[j]))
			res->nr_matched++;
		if (k[i].quota && k[i].scheme < HS_MAX_SCHEMES &&
		    k[i].from == rp->pred[j].q.charged_from)
			rp->from_seen[k[i].scheme] = true;
	}
	for (; p < rp->nr_pred; p++) {
		miss_replay(rp, it, &rp->pred[p], it->lineno);
		pick_replay(rp, it, &rp->pred[p], false);
	}
}

/* The regions after the walk against damon_aggregated's. */
static void compare_regions(struct replay *rp, const struct hs_dtrace_iter *it,
			    const struct hs_region *r, size_t nr)
{
	const struct hs_dtrace_region *post = regions_of(rp->t, it);
	struct hs_replay_miss *m;
	size_t i;

	rp->res->nr_aggr++;
	for (i = 0; i < nr && i < it->nr_regions; i++)
		if (r[i].start != post[i].start || r[i].end != post[i].end ||
		    r[i].nr_accesses != post[i].nr_accesses ||
		    r[i].age != post[i].age)
			break;
	if (i == nr && nr == it->nr_regions) {
		rp->res->nr_aggr_equal++;
		return;
	}
	m = miss(rp, HS_MISS_REGIONS, it->sis, 0);
	m->lineno = it->lineno;
	if (i < it->nr_regions) {
		m->start = post[i].start;
		m->end = post[i].end;
		m->nr_accesses = post[i].nr_accesses;
		m->age = post[i].age;
	}
	if (i < nr)
		snprintf(m->what, sizeof(m->what),
			 "region %zu of %zu; replay %lu-%lu: %u %u", i + 1,
			 it->nr_regions, r[i].start, r[i].end,
			 r[i].nr_accesses, r[i].age);
	else
		snprintf(m->what, sizeof(m->what),
			 "region %zu of %zu; the replay has %zu", i + 1,
			 it->nr_regions, nr);
}

/* What a trial walk changes, to be put back. */
struct replay_snap {
	struct hs_apply a;
	struct hs_scheme schemes[HS_MAX_SCHEMES];
	unsigned long window[HS_MAX_SCHEMES], from[HS_MAX_SCHEMES];
	unsigned long last_tns[HS_MAX_SCHEMES];
	bool from_seen[HS_MAX_SCHEMES];
	struct hs_replay_result res;
};

static void snap_save(const struct replay *rp, struct replay_snap *sn)
{
	sn->a = rp->a;
	memcpy(sn->schemes, rp->a.schemes,
	       rp->a.nr_schemes * sizeof(*sn->schemes));
	memcpy(sn->window, rp->window, sizeof(sn->window));
	memcpy(sn->from, rp->from, sizeof(sn->from));
	memcpy(sn->last_tns, rp->last_tns, sizeof(sn->last_tns));
	memcpy(sn->from_seen, rp->from_seen, sizeof(sn->from_seen));
	sn->res = *rp->res;
}

static void snap_restore(struct replay *rp, const struct replay_snap *sn)
{
	struct hs_scheme *sch = rp->a.schemes;

	rp->a = sn->a;
	rp->a.schemes = sch;
	memcpy(sch, sn->schemes, rp->a.nr_schemes * sizeof(*sch));
	memcpy(rp->window, sn->window, sizeof(sn->window));
	memcpy(rp->from, sn->from, sizeof(sn->from));
	memcpy(rp->last_tns, sn->last_tns, sizeof(sn->last_tns));
	memcpy(rp->from_seen, sn->from_seen, sizeof(sn->from_seen));
	*rp->res = sn->res;
}

/* hs_apply_run() on the regions @r (the walk's start) of sample @it. */
static int walk(struct replay *rp, const struct hs_dtrace_iter *it,
		struct hs_region **r, size_t *nr, size_t *cap)
{
	unsigned long before[HS_MAX_SCHEMES];
	unsigned int s;

	rp->nr_pred = 0;
	rp->a.next_aggr_sis = it->sis;
	for (s = 0; s < rp->a.nr_schemes; s++)
		before[s] = rp->a.schemes[s].quota.charged_from;
	if (hs_apply_run(&rp->a, it->sis, it->jiffies, r, nr, cap) ||
	    rp->nomem)
		return -1;
	for (s = 0; s < rp->a.nr_schemes; s++)
		if (rp->a.schemes[s].quota.charged_from != before[s])
			rp->from_seen[s] = false;	/* a new window */
	return 0;
}

/* The walk just made is the kernel's: its applications and regions. */
static bool walk_matches(const struct replay *rp,
			 const struct hs_dtrace_iter *it,
			 const struct hs_region *r, size_t nr)
{
	const struct hs_dtrace_apply *k = applies_of(rp->t, it);
	const struct hs_dtrace_region *post = regions_of(rp->t, it);
	size_t i;

	if (rp->nr_pred != it->nr_apply || nr != it->nr_regions)
		return false;
	for (i = 0; i < it->nr_apply; i++)
		if (rp->pred[i].scheme != k[i].scheme ||
		    !same_region(&rp->pred[i].r, &k[i]) ||
		    (k[i].quota && rp->pred[i].nr_regions != k[i].nr_regions))
			return false;
	for (i = 0; i < nr; i++)
		if (r[i].start != post[i].start || r[i].end != post[i].end ||
		    r[i].nr_accesses != post[i].nr_accesses ||
		    r[i].age != post[i].age)
			return false;
	return true;
}

/*
 * The jiffies where a scheme due at @it would start a window if its
 * quota were adjusted that late: past the sample's check (hs_tick's j,
 * the replay's default) and no later than the next sample's, sorted in
 * @c.  On a loaded host the check, the merge and the score histograms
 * of the schemes before it can take a jiffy or two, and a window the
 * kernel started then shows nowhere if nothing was applied in it: only
 * the walk's regions (damos_skip_charged_region()'s split) tell.
 */
static size_t late_candidates(const struct replay *rp,
			      const struct hs_dtrace_iter *it,
			      unsigned long *c)
{
	const struct hs_dtrace *t = rp->t;
	unsigned long next_j;
	unsigned int s;
	size_t n = 0, i, j;

	if (rp->iter + 1 >= t->nr_iters)
		return 0;
	next_j = t->iters[rp->iter + 1].jiffies;
	for (s = 0; s < rp->a.nr_schemes; s++) {
		const struct hs_scheme *sc = &rp->a.schemes[s];
		const struct hs_quota *q = &sc->quota;
		unsigned long b;

		if (it->sis < sc->next_apply_sis ||
		    (!q->esz && !q->ms && !q->sz) ||
		    (!q->total_charged_sz && !q->charged_from))
			continue;
		b = q->charged_from + reset_jiffies(rp, s);
		if ((long)(b - it->jiffies) <= 0 || (long)(next_j - b) < 0)
			continue;
		for (i = 0; i < n && (long)(c[i] - b) < 0; i++)
			;
		if (i < n && c[i] == b)
			continue;
		for (j = n++; j > i; j--)
			c[j] = c[j - 1];
		c[i] = b;
	}
	return n;
}

/* Sample @it, where a scheme is due and an aggregation shows regions. */
static int replay_sample(struct replay *rp, const struct hs_dtrace_iter *it,
			 struct hs_region **r, size_t *cap)
{
	unsigned long *pts, late[HS_MAX_SCHEMES];
	struct hs_region *r0 = NULL;
	struct replay_snap *sn = NULL;
	size_t *next, nr, nr0 = 0, nr_late, i;
	int ret = -1;

	if (it->nr_regions + 16 > *cap) {
		size_t c = it->nr_regions * 2 + 16;
		struct hs_region *n = realloc(*r, c * sizeof(**r));

		if (!n)
			return -1;
		*r = n;
		*cap = c;
	}
	next = calloc(it->nr_regions + 1, sizeof(*next));
	pts = calloc(it->nr_apply + HS_MAX_SCHEMES, sizeof(*pts));
	if (!next || !pts) {
		free(next);
		free(pts);
		return -1;
	}
	nr = rebuild(rp, it, *r, next, pts);
	free(next);
	free(pts);
	nr_late = late_candidates(rp, it, late);
	if (nr_late) {
		/* the walk's start and state, for a trial adjusted later */
		nr0 = nr;
		r0 = malloc((nr0 ? nr0 : 1) * sizeof(*r0));
		sn = malloc(sizeof(*sn));
		if (!r0 || !sn)
			goto out;
		memcpy(r0, *r, nr0 * sizeof(*r0));
		snap_save(rp, sn);
	}
	if (walk(rp, it, r, &nr, cap))
		goto out;
	if (nr_late && !walk_matches(rp, it, *r, nr)) {
		/* each later adjustment, earliest first; else the check's */
		for (i = 0; i <= nr_late; i++) {
			snap_restore(rp, sn);
			memcpy(*r, r0, nr0 * sizeof(*r0));
			nr = nr0;
			rp->is_late = i < nr_late;
			rp->late = rp->is_late ? late[i] : 0;
			if (walk(rp, it, r, &nr, cap))
				goto out;
			if (!rp->is_late)
				break;
			if (walk_matches(rp, it, *r, nr)) {
				rp->res->nr_late++;
				break;
			}
		}
	}
	compare(rp, it);
	compare_regions(rp, it, *r, nr);
	ret = 0;
out:
	rp->is_late = false;
	free(r0);
	free(sn);
	return ret;
}

/* A scheme due where no aggregation ended: the regions are not known. */
static void off_aggregation(struct replay *rp, const struct hs_dtrace_iter *it)
{
	const struct hs_dtrace_apply *k = applies_of(rp->t, it);
	unsigned int s;
	size_t i;

	for (i = 0; i < it->nr_apply; i++) {
		rp->res->nr_kernel++;
		miss_kernel(rp, it, &k[i], HS_MISS_OFF_AGGR);
		pick_kernel(rp, it, &k[i]);
	}
	for (s = 0; s < rp->a.nr_schemes; s++) {
		struct hs_scheme *sc = &rp->a.schemes[s];
		unsigned long iv = rp->a.attrs.sample_us ?
			rp->a.attrs.sample_us : 1;
		struct hs_replay_miss *m;

		if (it->sis < sc->next_apply_sis)
			continue;
		/* the quota was adjusted here too: its state is lost */
		m = miss(rp, HS_MISS_OFF_AGGR, it->sis, s);
		m->lineno = it->lineno;
		snprintf(m->what, sizeof(m->what),
			 "scheme due where no aggregation shows the regions: not replayed (an apply interval that is no multiple of the aggregation)");
		sc->next_apply_sis = it->sis + (sc->apply_us ?
			sc->apply_us : rp->a.attrs.aggr_us) / iv;
	}
}

static int check_start(const struct hs_dtrace *t, char *err, size_t errlen)
{
	size_t i;

	if (!t->nr_iters || t->iters[0].sis != 1) {
		snprintf(err, errlen, "the trace starts at sample %lu, not 1: start tracing before the kdamond",
			 t->nr_iters ? t->iters[0].sis : 0);
		return -1;
	}
	for (i = 1; i < t->nr_iters; i++)
		if (t->iters[i].sis != t->iters[i - 1].sis + 1) {
			snprintf(err, errlen, "line %lu: hs_tick sis=%lu after sis=%lu: a sample is missing",
				 t->iters[i].lineno, t->iters[i].sis,
				 t->iters[i - 1].sis);
			return -1;
		}
	return 0;
}

/**
 * hs_replay() - replay trace @t's DAMOS decisions and compare them.
 * @cfg:	the kdamond's setup.
 * @t:		the trace, read whole (its first sample must be sis 1).
 * @res:	the comparison (hs_replay_free() it).
 * @err:	why there is none.
 * @errlen:	its size.
 *
 * Return: 0, or -1 with @err set.
 */
int hs_replay(const struct hs_replay_cfg *cfg, const struct hs_dtrace *t,
	      struct hs_replay_result *res, char *err, size_t errlen)
{
	struct replay *rp;
	struct hs_region *r = NULL;
	size_t cap = 0, i;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	if (check_start(t, err, errlen))
		return -1;
	if (!cfg->nr_schemes || cfg->nr_schemes > HS_MAX_SCHEMES) {
		snprintf(err, errlen, "1 to %d schemes", HS_MAX_SCHEMES);
		return -1;
	}
	rp = calloc(1, sizeof(*rp));
	res->misses = calloc(cfg->max_misses ? cfg->max_misses : 1,
			     sizeof(*res->misses));
	if (rp)
		rp->a.schemes = calloc(cfg->nr_schemes, sizeof(*rp->a.schemes));
	if (!rp || !res->misses || !rp->a.schemes) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	rp->cfg = cfg;
	rp->t = t;
	rp->res = res;
	rp->a.core = HS_CORE_612;
	rp->a.attrs = cfg->attrs;
	rp->a.ops = cfg->ops;
	rp->a.hz = cfg->hz;
	rp->a.nr_schemes = cfg->nr_schemes;
	rp->a.cb = &replay_ops;
	rp->a.ctx = rp;
	for (i = 0; i < cfg->nr_schemes; i++) {
		rp->a.schemes[i] = cfg->schemes[i];
		memset(&rp->a.schemes[i].quota.esz, 0,
		       sizeof(rp->a.schemes[i].quota) -
		       offsetof(struct hs_quota, esz));
		memset(&rp->a.schemes[i].stat, 0,
		       sizeof(rp->a.schemes[i].stat));
	}
	hs_apply_init(&rp->a);
	if (index_quotas(rp)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	res->nr_samples = t->nr_iters;
	for (i = 0; i < t->nr_iters; i++) {
		const struct hs_dtrace_iter *it = &t->iters[i];

		rp->iter = i;
		if (!hs_apply_due(&rp->a, it->sis)) {
			const struct hs_dtrace_apply *k = applies_of(t, it);
			size_t j;

			for (j = 0; j < it->nr_apply; j++) {
				res->nr_kernel++;
				miss_kernel(rp, it, &k[j], HS_MISS_KERNEL_ONLY);
				pick_kernel(rp, it, &k[j]);
			}
			continue;
		}
		if (!it->nr_regions) {
			off_aggregation(rp, it);
			continue;
		}
		if (replay_sample(rp, it, &r, &cap)) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
	}
	res->nr_windows = rp->a.nr_windows;
	ret = 0;
out:
	if (rp) {
		for (i = 0; i < HS_MAX_SCHEMES; i++)
			free(rp->nextq[i]);
		free(rp->a.schemes);
		free(rp->pred);
	}
	free(rp);
	free(r);
	if (ret)
		hs_replay_free(res);
	return ret;
}

/** hs_replay_free() - the kept misses, freed. */
void hs_replay_free(struct hs_replay_result *res)
{
	free(res->misses);
	res->misses = NULL;
}
