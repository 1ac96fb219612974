// SPDX-License-Identifier: GPL-2.0
/*
 * test_replay.c - 6.12's kdamond_apply_schemes() (src/sim/apply.c) on
 * regions worked by hand, and hotscore replay's round trip: a trace that a
 * 6.12-like kdamond writes (the same core, random regions and jiffies)
 * read back (src/record/damos_trace.c) and replayed (src/replay/replay.c)
 * with every application matched; then the controls that must miss: a
 * different score, a different HZ, one application a page longer.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotscore/record_damos.h>
#include <hotscore/replay.h>
#include <hotscore/sim_apply.h>

#include "check.h"

#define PAGE	4096UL

/* nr_accesses as the score's only input: hot = 5 * nr, at most 99 */
static int hot_nr(void *ctx, const struct hs_input *in)
{
	int h = (int)(in->nr_accesses_bp / 10000) * 5;

	(void)ctx;
	return h > 99 ? 99 : h;
}

/* --- the core on a hand-worked list ---------------------------------- */

struct seen {
	unsigned int n;
	unsigned long start[16], end[16];
	unsigned int age[16];
};

static unsigned long seen_apply(void *ctx, const struct hs_region *r,
				unsigned int s, int score,
				const struct hs_quota *q, size_t nr)
{
	struct seen *v = ctx;

	(void)s;
	(void)nr;
	(void)score;
	(void)q;
	if (v->n < 16) {
		v->start[v->n] = r->start;
		v->end[v->n] = r->end;
		v->age[v->n] = r->age;
	}
	v->n++;
	return 0;
}

static unsigned long no_ns(void *ctx, unsigned int s)
{
	(void)ctx;
	(void)s;
	return 0;
}

static const struct hs_apply_ops seen_ops = {
	.hot = hot_nr, .charged_ns = no_ns, .on_apply = seen_apply,
};

static void region(struct hs_region *r, unsigned long a, unsigned long b,
		   unsigned int nr, unsigned int age)
{
	memset(r, 0, sizeof(*r));
	r->start = a * PAGE;
	r->end = b * PAGE;
	r->nr_accesses = nr;
	r->nr_accesses_bp = nr * 10000;
	r->age = age;
}

/* Four regions of 4 pages, age 3, nr_accesses 0, 1, 3 and @last. */
static void four_regions(struct hs_region *r, unsigned int last)
{
	region(&r[0], 0, 4, 0, 3);
	region(&r[1], 4, 8, 1, 3);
	region(&r[2], 8, 12, 3, 3);
	region(&r[3], 12, 16, last, 3);
}

/*
 * One pageout scheme on cold regions (nr_accesses 0..20), scored by
 * nr_accesses alone, under a size quota of @sz a second; a 5 ms / 100 ms
 * vaddr context at HZ 250 whose applications @v sees.
 */
static void setup(struct hs_apply *a, struct hs_scheme *s, struct seen *v,
		  enum hs_core core, unsigned long sz)
{
	memset(a, 0, sizeof(*a));
	memset(s, 0, sizeof(*s));
	s->action = HS_ACT_PAGEOUT;
	s->pattern.max_sz = ~0UL;
	s->pattern.max_nr = 20;
	s->pattern.max_age = ~0U;
	s->quota.sz = sz;
	s->quota.reset_ms = 1000;
	s->quota.weight_nr = 1;
	a->core = core;
	a->attrs.sample_us = 5000;
	a->attrs.aggr_us = 100000;
	a->attrs.min_region_sz = PAGE;
	a->ops = HS_OPS_VADDR;
	a->hz = 250;
	a->max_region_sz = ~0UL;
	a->schemes = s;
	a->nr_schemes = 1;
	a->cb = &seen_ops;
	a->ctx = v;
}

/*
 * Four cold regions of 4 pages, a size quota of 6 pages a second.  6.12's
 * first window has esz 0: all four applied whole.  A second later the
 * window resets: esz 6 pages, the two coldest (scores 99, then 94) fit 4 + 2
 * pages, the second split there, and the window ends part-way at page 6.
 */
static void test_first_window_unlimited(void)
{
	struct hs_scheme s;
	struct seen v = { 0 };
	struct hs_apply a;
	struct hs_region *r = calloc(8, sizeof(*r));
	size_t nr = 4, cap = 8;
	unsigned long j = 1000;

	setup(&a, &s, &v, HS_CORE_612, 6 * PAGE);
	hs_apply_init(&a);
	CHECK_EQ(s.next_apply_sis, 20);
	four_regions(r, 2);
	CHECK(!hs_apply_due(&a, 19), "due at 19");
	CHECK_EQ(hs_apply_run(&a, 20, j, &r, &nr, &cap), 0);
	CHECK_EQ(v.n, 4);
	CHECK_EQ(s.quota.esz, 0);
	CHECK_EQ(nr, 4);
	CHECK_EQ(r[2].age, 0);
	CHECK_EQ(s.next_apply_sis, 40);
	/* the next aggregation, same window: still unlimited */
	v.n = 0;
	CHECK_EQ(hs_apply_run(&a, 40, j + 25, &r, &nr, &cap), 0);
	CHECK_EQ(v.n, 4);
	/* a second later: esz is the size quota */
	v.n = 0;
	four_regions(r, 2);
	CHECK_EQ(hs_apply_run(&a, 240, j + 250, &r, &nr, &cap), 0);
	CHECK_EQ(s.quota.esz, 6 * PAGE);
	CHECK_EQ(s.quota.min_score, 94);	/* 99 + 94 reach 6 pages */
	CHECK_EQ(v.n, 2);
	CHECK_EQ(v.start[0], 0);
	CHECK_EQ(v.end[0], 4 * PAGE);
	CHECK_EQ(v.start[1], 4 * PAGE);
	CHECK_EQ(v.end[1], 6 * PAGE);		/* split at the quota's end */
	CHECK_EQ(nr, 5);
	CHECK_EQ(r[2].start, 6 * PAGE);
	CHECK_EQ(r[2].age, 3);
	CHECK(s.quota.charge_from_set, "a window that ended part-way");
	CHECK_EQ(s.quota.charge_addr_from, 6 * PAGE);
	CHECK_EQ(s.stat.qt_exceeds, 0);		/* the first window had esz 0 */
	free(r);
}

/*
 * The same walk as the newest core runs it (the simulator's), on four
 * regions of 4 pages under a quota of 6.5 pages: its first window has an
 * effective size, so only the two coldest are applied, the second split
 * at page 6; the half page left counts as full (6.12's does not); the two
 * equal regions the quota skipped merge; and the next window resumes at
 * page 6 and forgets the address once past it.
 */
static void test_newest_core(void)
{
	struct hs_scheme s;
	struct seen v = { 0 };
	struct hs_apply a;
	struct hs_region *r = calloc(8, sizeof(*r));
	size_t nr = 4, cap = 8;
	unsigned long j = 1000;

	setup(&a, &s, &v, HS_CORE_NEWEST, 6 * PAGE + PAGE / 2);
	hs_apply_init(&a);
	four_regions(r, 3);
	CHECK_EQ(hs_apply_run(&a, 20, j, &r, &nr, &cap), 0);
	CHECK_EQ(s.quota.esz, 6 * PAGE + PAGE / 2);
	CHECK_EQ(s.quota.min_score, 94);
	CHECK_EQ(v.n, 2);
	CHECK_EQ(v.end[1], 6 * PAGE);
	CHECK(s.quota.charge_from_set, "half a page left is full");
	CHECK_EQ(s.quota.charge_addr_from, 6 * PAGE);
	CHECK_EQ(nr, 4);			/* 0-4 4-6 6-8 8-16 */
	CHECK_EQ(r[3].start, 8 * PAGE);
	CHECK_EQ(r[3].end, 16 * PAGE);
	/* same window: full, nothing applied */
	v.n = 0;
	CHECK_EQ(hs_apply_run(&a, 40, j + 25, &r, &nr, &cap), 0);
	CHECK_EQ(v.n, 0);
	/* the next window resumes at page 6; 8-16 scores 84 < 94 */
	CHECK_EQ(hs_apply_run(&a, 240, j + 250, &r, &nr, &cap), 0);
	CHECK_EQ(s.stat.qt_exceeds, 1);
	CHECK_EQ(v.n, 1);
	CHECK_EQ(v.start[0], 6 * PAGE);
	CHECK(!s.quota.charge_from_set, "forgotten once past");

	/* 6.12's second window on the same regions: 0.5 page left is not full */
	setup(&a, &s, &v, HS_CORE_612, 6 * PAGE + PAGE / 2);
	hs_apply_init(&a);
	nr = 4;
	four_regions(r, 3);
	v.n = 0;
	CHECK_EQ(hs_apply_run(&a, 20, j, &r, &nr, &cap), 0);
	CHECK_EQ(v.n, 4);			/* esz 0: unlimited */
	CHECK_EQ(hs_apply_run(&a, 240, j + 250, &r, &nr, &cap), 0);
	CHECK(!s.quota.charge_from_set, "6.12: full only at esz");
	CHECK_EQ(nr, 5);			/* 8-12 12-16 stay apart */
	free(r);
}

/* --- the round trip --------------------------------------------------- */

#define NR_SCHEMES	3

struct gen {
	FILE *f;
	uint64_t rnd;
	unsigned long ns[NR_SCHEMES];	/* total_charged_ns, as measured */
	unsigned long sis;
	bool late;
	unsigned long room;	/* jiffies until the next sample's check */
};

#define TICK_FMT " kdamond.0-77 [000] d.... 1.000000: hs_tick: (damon_va_check_accesses+0x0/0x2a0) sis=%lu j=%lu\n"
#define APPLY_FMT " kdamond.0-77 [000] ..... 1.000000: damos_before_apply: ctx_idx=0 scheme_idx=0 target_idx=0 nr_regions=%d %lu-%lu: %u %u"
#define QUOTA_FMT " kdamond.0-77 [000] d.... 1.000000: hs_quota: (damon_va_apply_scheme+0x0/0x1c0) sis=%lu start=%lu esz=%lu charged=%lu from=%lu min=%u tsz=%lu tns=0"
#define AGGR_FMT " kdamond.0-77 [000] ..... 1.000000: damon_aggregated: target_id=0 nr_regions=%d %lu-%lu: %u %u\n"

static unsigned long gen_ns(void *ctx, unsigned int s)
{
	struct gen *g = ctx;

	return g->ns[s];
}

static unsigned long gen_apply(void *ctx, const struct hs_region *r,
			       unsigned int s, int score,
			       const struct hs_quota *q, size_t nr)
{
	struct gen *g = ctx;

	(void)score;
	fprintf(g->f, " kdamond.0-77 [000] ..... 1.000000: damos_before_apply: ctx_idx=0 scheme_idx=%u target_idx=0 nr_regions=%zu %lu-%lu: %u %u\n",
		s, nr, r->start, r->end, r->nr_accesses_bp / 10000, r->age);
	fprintf(g->f, " kdamond.0-77 [000] d.... 1.000000: hs_quota: (damon_va_apply_scheme+0x0/0x1c0) sis=%lu start=%lu esz=%lu charged=%lu from=%lu min=%u tsz=%lu tns=%lu\n",
		g->sis, r->start, q->esz, q->charged_sz, q->charged_from,
		q->min_score, q->total_charged_sz, g->ns[s]);
	g->ns[s] += 1000 + check_rand(&g->rnd) % 200000;
	return 0;
}

/*
 * The adjustment's jiffies: with gen.late, anywhere from the sample's
 * check to the next sample's, as under TCG (hs_tick shows the check's).
 */
static unsigned long gen_jiffies(void *ctx, unsigned int s, unsigned long dflt)
{
	struct gen *g = ctx;

	(void)s;
	return g->late ? dflt + check_rand(&g->rnd) % (g->room + 1) : dflt;
}

static const struct hs_apply_ops gen_ops = {
	.hot = hot_nr, .charged_ns = gen_ns, .jiffies = gen_jiffies,
	.on_apply = gen_apply,
};

static void schemes(struct hs_scheme *s)
{
	memset(s, 0, NR_SCHEMES * sizeof(*s));
	s[0].action = HS_ACT_PAGEOUT;
	s[0].pattern.max_sz = ~0UL;
	s[0].pattern.max_nr = 0;
	s[0].pattern.min_age = 2;
	s[0].pattern.max_age = ~0U;
	s[0].quota.sz = 6 * PAGE;
	s[0].quota.reset_ms = 300;
	s[0].quota.weight_age = 1;
	s[1].action = HS_ACT_PAGEOUT;
	s[1].pattern.max_sz = ~0UL;
	s[1].pattern.max_nr = 20;
	s[1].pattern.max_age = ~0U;
	s[1].quota.ms = 2;
	s[1].quota.sz = 10 * PAGE;
	s[1].quota.reset_ms = 500;
	s[1].quota.weight_nr = 7;
	s[1].quota.weight_age = 3;
	s[1].apply_us = 300000;
	/* a scheme that often finds nothing: windows that show no start */
	s[2].action = HS_ACT_PAGEOUT;
	s[2].pattern.max_sz = ~0UL;
	s[2].pattern.min_nr = 20;
	s[2].pattern.max_nr = 20;
	s[2].pattern.max_age = ~0U;
	s[2].quota.sz = 8 * PAGE;
	s[2].quota.reset_ms = 200;
	s[2].quota.weight_nr = 1;
}

/* The next aggregation's regions: ages on, counts anew, neighbours apart. */
static void next_regions(struct gen *g, struct hs_region *r, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		unsigned int n;

		do {
			n = check_rand(&g->rnd) % 3 ? 0 : 1 + check_rand(&g->rnd) % 20;
		} while (i && n == r[i - 1].nr_accesses);
		r[i].age = n && check_rand(&g->rnd) % 4 == 0 ? 0 : r[i].age + 1;
		r[i].nr_accesses = n;
		r[i].nr_accesses_bp = n * 10000;
	}
}

/* Join the walk's pieces again, as the next merge would. */
static size_t merge(struct hs_region *r, size_t nr)
{
	size_t i, n = 0;

	for (i = 0; i < nr; i++) {
		if (n && r[n - 1].nr_accesses == r[i].nr_accesses &&
		    check_rand(&(uint64_t){ i }) % 2) {
			r[n - 1].end = r[i].end;
			continue;
		}
		r[n++] = r[i];
	}
	return n;
}

static unsigned long nr_splits, nr_resumes;	/* what generate() made */

/* A trace of @nr_aggr aggregations, in memory; its length in *@len. */
static char *generate(unsigned int nr_aggr, bool late, size_t *len)
{
	struct hs_scheme s[NR_SCHEMES];
	struct gen g = { .rnd = 42, .late = late };
	struct hs_apply a = { 0 };
	size_t nr = 9, cap = 64, i;
	struct hs_region *r = calloc(cap, sizeof(*r));
	unsigned long j = 4294892296UL, j_next = j + 1, sis;
	char *text = NULL;

	g.f = open_memstream(&text, len);
	schemes(s);
	a.attrs.sample_us = 5000;
	a.attrs.aggr_us = 100000;
	a.attrs.min_region_sz = PAGE;
	a.ops = HS_OPS_VADDR;
	a.hz = 250;
	a.schemes = s;
	a.nr_schemes = NR_SCHEMES;
	a.cb = &gen_ops;
	a.ctx = &g;
	hs_apply_init(&a);
	for (i = 0; i < nr; i++)
		region(&r[i], i * 7, i * 7 + 7, 0, 0);
	for (sis = 1; sis <= nr_aggr * 20UL; sis++) {
		j = j_next;
		j_next += 1 + check_rand(&g.rnd) % 2;
		g.room = j_next - j;
		fprintf(g.f, " kdamond.0-77 [000] d.... 1.000000: hs_tick: (damon_va_check_accesses+0x0/0x2a0) sis=%lu j=%lu\n",
			sis, j);
		if (sis % 20)
			continue;
		nr = merge(r, nr);
		next_regions(&g, r, nr);
		g.sis = sis;
		a.next_aggr_sis = sis;
		for (i = 0; i < NR_SCHEMES; i++)
			nr_resumes += s[i].quota.charge_from_set &&
				hs_apply_due(&a, sis);
		i = nr;
		hs_apply_run(&a, sis, j, &r, &nr, &cap);
		nr_splits += nr - i;
		for (i = 0; i < nr; i++)
			fprintf(g.f, " kdamond.0-77 [000] ..... 1.000000: damon_aggregated: target_id=0 nr_regions=%zu %lu-%lu: %u %u\n",
				nr, r[i].start, r[i].end, r[i].nr_accesses,
				r[i].age);
	}
	fclose(g.f);
	free(r);
	return text;
}

/* Read @text into @t; 0, or -1 with t->err. */
static int read_text(struct hs_dtrace *t, const char *text)
{
	const char *p = text, *nl;

	hs_dtrace_init(t);
	while (*p) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		if (hs_dtrace_line(t, p, (size_t)(nl - p)))
			return -1;
		p = *nl ? nl + 1 : nl;
	}
	return hs_dtrace_end(t);
}

static int hot_plus1(void *ctx, const struct hs_input *in)
{
	int h = hot_nr(ctx, in);

	return h < 99 ? h + 1 : h;
}

static int replay(const char *text, int (*hot)(void *, const struct hs_input *),
		  unsigned long hz, struct hs_replay_result *res)
{
	struct hs_scheme s[NR_SCHEMES];
	struct hs_replay_cfg cfg = { 0 };
	struct hs_dtrace t;
	char err[256];
	int ret;

	schemes(s);
	cfg.attrs.sample_us = 5000;
	cfg.attrs.aggr_us = 100000;
	cfg.attrs.min_region_sz = PAGE;
	cfg.ops = HS_OPS_VADDR;
	cfg.hz = hz;
	cfg.schemes = s;
	cfg.nr_schemes = NR_SCHEMES;
	cfg.hot = hot;
	cfg.max_misses = 10;
	if (read_text(&t, text)) {
		printf("  trace: %s\n", t.err);
		hs_dtrace_free(&t);
		return -1;
	}
	ret = hs_replay(&cfg, &t, res, err, sizeof(err));
	if (ret)
		printf("  replay: %s\n", err);
	hs_dtrace_free(&t);
	return ret;
}

static void test_round_trip(void)
{
	struct hs_replay_result res;
	size_t len;
	char *text = generate(200, false, &len);

	CHECK_EQ(replay(text, hot_nr, 250, &res), 0);
	CHECK(res.nr_kernel >= 200, "%lu applications", res.nr_kernel);
	/* the rebuild joined the walk's pieces: quota ends, resume addresses */
	CHECK(nr_splits >= 20 && nr_resumes >= 20, "%lu splits, %lu resumes",
	      nr_splits, nr_resumes);
	CHECK_EQ(res.nr_matched, res.nr_kernel);
	CHECK_EQ(res.nr_misses, 0);
	if (res.nr_misses)
		printf("  first miss: %s at sample %lu: %s\n",
		       hs_miss_kind_name(res.misses[0].kind), res.misses[0].sis,
		       res.misses[0].what);
	CHECK_EQ(res.nr_quota, res.nr_kernel);
	CHECK_EQ(res.nr_quota_equal, res.nr_quota);
	CHECK_EQ(res.nr_aggr, res.nr_aggr_equal);
	CHECK(res.per_scheme[0] > 0 && res.per_scheme[1] > 0,
	      "per scheme %lu %lu", res.per_scheme[0], res.per_scheme[1]);
	CHECK(res.nr_windows > 20, "%lu windows", res.nr_windows);
	CHECK(res.nr_ns_taken > 0, "time quota windows %lu", res.nr_ns_taken);
	hs_replay_free(&res);
	free(text);
}

/*
 * The kernel adjusts its quotas up to two jiffies after the sample's check
 * (TCG): the windows it starts there show their charged_from, and one in
 * which nothing is applied shows nothing; every application still matches.
 */
static void test_late_adjustment(void)
{
	struct hs_replay_result res;
	size_t len;
	char *text = generate(400, true, &len);

	CHECK_EQ(replay(text, hot_nr, 250, &res), 0);
	CHECK(res.nr_kernel >= 400, "%lu applications", res.nr_kernel);
	CHECK_EQ(res.nr_misses, 0);
	if (res.nr_misses)
		printf("  first miss: %s at sample %lu, scheme %u: %s\n",
		       hs_miss_kind_name(res.misses[0].kind), res.misses[0].sis,
		       res.misses[0].scheme, res.misses[0].what);
	CHECK(res.nr_from_kernel > 10, "%lu starts from charged_from",
	      res.nr_from_kernel);
	printf("  %lu applications, %lu windows, %lu starts from charged_from, %lu moved\n",
	       res.nr_kernel, res.nr_windows, res.nr_from_kernel,
	       res.nr_reanchored);
	hs_replay_free(&res);
	free(text);
}

/*
 * A window nothing showed the start of: the kernel adjusts at sample 60 a
 * jiffy after its check (1070, the window's end, against the check's
 * 1069) and starts a window in which nothing is eligible; the replay,
 * from the check's jiffies, starts it only at sample 80.  At sample 120
 * the kernel's next window shows charged_from 1130, 50 jiffies after the
 * unseen start but not after the replay's: the replay moves its unseen
 * start back and matches (one window moved).
 */
static void test_unseen_window_start(void)
{
	struct hs_scheme sc = { .action = HS_ACT_PAGEOUT };
	struct hs_replay_cfg cfg = { 0 };
	struct hs_replay_result res;
	struct hs_dtrace t;
	char *text = NULL, err[256];
	size_t len;
	FILE *f = open_memstream(&text, &len);
	unsigned long sis, j;

	for (sis = 1; sis <= 120; sis++) {
		j = 1000 + sis + (sis >= 60) * 9 + (sis >= 61);
		fprintf(f, TICK_FMT, sis, j);
		if (sis == 20) {
			fprintf(f, APPLY_FMT "\n", 1, 0UL, 65536UL, 20u, 0u);
			fprintf(f, QUOTA_FMT "\n", sis, 0UL, 0UL, 0UL, 1020UL,
				0u, 0UL);
		}
		if (sis == 120) {
			/* after the quota's split: two regions */
			fprintf(f, APPLY_FMT "\n", 2, 0UL, 32768UL, 20u, 0u);
			fprintf(f, QUOTA_FMT "\n", sis, 0UL, 32768UL, 0UL,
				1130UL, 0u, 65536UL);
			fprintf(f, AGGR_FMT, 2, 0UL, 32768UL, 20u, 0u);
			fprintf(f, AGGR_FMT, 2, 32768UL, 65536UL, 20u, 0u);
		} else if (sis % 20 == 0) {
			fprintf(f, AGGR_FMT, 1, 0UL, 65536UL,
				sis == 20 ? 20u : 0u, (unsigned int)(sis / 20 - 1));
		}
	}
	fclose(f);
	sc.pattern.max_sz = ~0UL;
	sc.pattern.min_nr = 20;
	sc.pattern.max_nr = 20;
	sc.pattern.max_age = ~0U;
	sc.quota.sz = 32768;
	sc.quota.reset_ms = 200;
	sc.quota.weight_nr = 1;
	cfg.attrs.sample_us = 5000;
	cfg.attrs.aggr_us = 100000;
	cfg.attrs.min_region_sz = PAGE;
	cfg.ops = HS_OPS_VADDR;
	cfg.hz = 250;
	cfg.schemes = &sc;
	cfg.nr_schemes = 1;
	cfg.hot = hot_nr;
	cfg.max_misses = 4;
	CHECK_EQ(read_text(&t, text), 0);
	CHECK_EQ(hs_replay(&cfg, &t, &res, err, sizeof(err)), 0);
	CHECK_EQ(res.nr_kernel, 2);
	CHECK_EQ(res.nr_matched, 2);
	CHECK_EQ(res.nr_misses, 0);
	if (res.nr_misses)
		printf("  first miss: %s at sample %lu: %s\n",
		       hs_miss_kind_name(res.misses[0].kind), res.misses[0].sis,
		       res.misses[0].what);
	CHECK_EQ(res.nr_reanchored, 1);
	hs_replay_free(&res);
	hs_dtrace_free(&t);
	free(text);
}

/* The controls: each must miss. */
static void test_controls_miss(void)
{
	struct hs_replay_result res;
	size_t len;
	char *text = generate(200, false, &len), *p;

	CHECK_EQ(replay(text, hot_plus1, 250, &res), 0);
	CHECK(res.nr_misses > 0, "a score one higher: %lu misses",
	      res.nr_misses);
	hs_replay_free(&res);
	CHECK_EQ(replay(text, hot_nr, 100, &res), 0);
	CHECK(res.nr_misses > 0, "HZ 100: %lu misses", res.nr_misses);
	hs_replay_free(&res);
	/* one application a page longer than the region the kernel had */
	p = strstr(text, "damos_before_apply:");
	p = p ? strchr(strstr(p, " nr_regions="), '-') : NULL;
	CHECK(p != NULL, "an application to change");
	if (p) {
		char *end, *edited;
		unsigned long e = strtoul(p + 1, &end, 10);

		CHECK(asprintf(&edited, "%.*s%lu%s", (int)(p + 1 - text), text,
			       e + PAGE, end) > 0, "asprintf");
		CHECK_EQ(replay(edited, hot_nr, 250, &res), 0);
		CHECK(res.nr_misses > 0 && res.nr_matched < res.nr_kernel,
		      "an application a page longer: %lu misses",
		      res.nr_misses);
		hs_replay_free(&res);
		free(edited);
	}
	free(text);
}

static int parse(const char *text, char *err, size_t errlen)
{
	struct hs_dtrace t;
	int ret = read_text(&t, text);

	snprintf(err, errlen, "%s", t.err);
	hs_dtrace_free(&t);
	return ret;
}

#define TICK(s)	" k-1 [000] d.... 1.0: hs_tick: (damon_va_check_accesses+0x0/0x10) sis=" s " j=5\n"
#define APPLY	" k-1 [000] ..... 1.0: damos_before_apply: ctx_idx=0 scheme_idx=0 target_idx=0 nr_regions=1 4096-8192: 0 1\n"
#define QUOTA(s, a) " k-1 [000] d.... 1.0: hs_quota: (damon_va_apply_scheme+0x0/0x10) sis=" s " start=" a " esz=0 charged=0 from=1 min=0 tsz=0 tns=0\n"
#define AGGR	" k-1 [000] ..... 1.0: damon_aggregated: target_id=0 nr_regions=1 4096-8192: 0 1\n"

static void test_bad_traces(void)
{
	char err[160];

	CHECK_EQ(parse(TICK("1") APPLY QUOTA("1", "4096") AGGR, err,
		       sizeof(err)), 0);
	CHECK_EQ(parse(TICK("1") QUOTA("1", "4096"), err, sizeof(err)), -1);
	CHECK(strstr(err, "without its damos_before_apply"), "%s", err);
	CHECK_EQ(parse(TICK("1") APPLY QUOTA("1", "8192"), err, sizeof(err)), -1);
	CHECK(strstr(err, "is not the damos_before_apply"), "%s", err);
	CHECK_EQ(parse(TICK("2") TICK("1"), err, sizeof(err)), -1);
	CHECK(strstr(err, "lost or reordered"), "%s", err);
	CHECK_EQ(parse(TICK("1") "CPU:0 [LOST 3 EVENTS]\n", err, sizeof(err)), -1);
	CHECK(strstr(err, "lost events"), "%s", err);
	CHECK_EQ(parse(TICK("1") " k-1 [000] ..... 1.0: damon_aggregated: target_id=0 nr_regions=2 4096-8192: 0 1\n",
		       err, sizeof(err)), -1);
	CHECK(strstr(err, "ends inside an aggregation"), "%s", err);
	CHECK_EQ(parse(APPLY, err, sizeof(err)), -1);
	CHECK(strstr(err, "before the first hs_tick"), "%s", err);
	CHECK_EQ(parse(TICK("1") " k-1 [000] ..... 1.0: damos_before_apply: ctx_idx=0 scheme_idx=0 target_idx=0 nr_regions=1 4096-8192: 0\n",
		       err, sizeof(err)), -1);
	CHECK(strstr(err, "the region is not"), "%s", err);
	CHECK_EQ(parse(TICK("1") " k-1 [000] d.... 1.0: hs_tick: (x) sis=2 j=99999999999999999999999\n",
		       err, sizeof(err)), -1);
	CHECK(strstr(err, "hs_tick: not"), "%s", err);
	CHECK_EQ(parse("# tracer: nop\n\n", err, sizeof(err)), -1);
	CHECK(strstr(err, "no hs_tick"), "%s", err);
}

int main(void)
{
	RUN(test_first_window_unlimited);
	RUN(test_newest_core);
	RUN(test_round_trip);
	RUN(test_late_adjustment);
	RUN(test_unseen_window_start);
	RUN(test_controls_miss);
	RUN(test_bad_traces);
	return CHECK_DONE();
}
