// SPDX-License-Identifier: GPL-2.0
/*
 * test_damos_walk.c - hs_damos_walk() (src/sim/apply.c), the DAMOS walk of
 * one snapshot that rank runs: worked by hand on seven regions, under a
 * size quota that cuts a region, a time quota that takes them all, and no
 * quota.
 */
#include <limits.h>
#include <string.h>

#include <hotscore/sim_damos.h>

#include "check.h"

#define PAGE	4096UL
#define NR	7

/*
 * In pages: A, B, D tie at 30 and the quota cuts D; C is too young and G
 * too big for the pattern; F's score traps.  nr_accesses is the score.
 */
static const struct hs_damos_region regions[NR] = {
	{  0 * PAGE,  4 * PAGE, 50, 5 },	/* A */
	{  4 * PAGE, 10 * PAGE, 30, 5 },	/* B */
	{ 10 * PAGE, 14 * PAGE, 80, 2 },	/* C: age 2 < 3 */
	{ 14 * PAGE, 20 * PAGE, 30, 9 },	/* D */
	{ 20 * PAGE, 22 * PAGE, 10, 4 },	/* E */
	{ 22 * PAGE, 23 * PAGE, 99, 5 },	/* F: traps */
	{ 23 * PAGE, 32 * PAGE, 90, 5 },	/* G: 9 pages > 8 */
};

/* One walk: its score calls and its results. */
struct walked {
	unsigned int calls;
	bool seen[NR];
	int score[NR];
	unsigned long charged[NR];
	struct hs_damos_walk w;
};

static int score_fn(void *ctx, const struct hs_damos_region *r)
{
	struct walked *t = ctx;

	t->calls++;
	t->seen[r - regions] = true;
	return r->start == 22 * PAGE ? -1 : (int)r->nr_accesses;
}

/* Garbage in every result: the walk must set each one. */
static void fresh(struct walked *t)
{
	memset(t, 0x5a, sizeof(*t));
}

/* Walk the regions under a pageout scheme with quota @ms, @sz. */
static void walk(struct walked *t, unsigned long ms, unsigned long sz)
{
	struct hs_scheme s;

	memset(&s, 0, sizeof(s));
	s.action = HS_ACT_PAGEOUT;
	s.pattern = (struct hs_pattern){ .min_sz = PAGE, .max_sz = 8 * PAGE,
					 .max_nr = UINT_MAX, .min_age = 3,
					 .max_age = UINT_MAX };
	s.quota.ms = ms;
	s.quota.sz = sz;
	t->calls = 0;
	memset(t->seen, 0, sizeof(t->seen));
	t->w.score = t->score;
	t->w.charged = t->charged;
	hs_damos_walk(regions, NR, &s, score_fn, t, &t->w);
}

static void check_hist(const struct hs_damos_walk *w)
{
	unsigned int i;

	for (i = 0; i <= HS_DAMOS_MAX_SCORE; i++)
		if (i != 50 && i != 30 && i != 10)
			CHECK_EQ(w->hist[i], 0);
	CHECK_EQ(w->hist[50], 4 * PAGE);
	CHECK_EQ(w->hist[30], 12 * PAGE);	/* B and D */
	CHECK_EQ(w->hist[10], 2 * PAGE);
	CHECK_EQ(w->max_score, 50);
}

/*
 * A size quota of 12.5 pages: 4 at 50 do not reach it, 16 at 30 do, so
 * min_score is 30.  A (4) and B (6) are charged whole; D ties at 30 and
 * gets the 2 whole pages left of 2.5; E is below the cut-off.
 */
static void test_size_quota(void)
{
	static const int score[NR] = { 50, 30, -1, 30, 10, -1, -1 };
	static const unsigned long charged[NR] = { 4 * PAGE, 6 * PAGE, 0,
						   2 * PAGE, 0, 0, 0 };
	struct walked t;
	unsigned int i;

	fresh(&t);
	walk(&t, 0, 12 * PAGE + PAGE / 2);
	CHECK_EQ(t.calls, 5);		/* the eligible ones, once each */
	CHECK(!t.seen[2] && !t.seen[6], "an ineligible region was scored");
	for (i = 0; i < NR; i++) {
		CHECK(t.score[i] == score[i], "region %u: score %d, want %d",
		      i, t.score[i], score[i]);
		CHECK(t.charged[i] == charged[i],
		      "region %u: charged %lu, want %lu", i, t.charged[i],
		      charged[i]);
	}
	check_hist(&t.w);
	CHECK_EQ(t.w.esz, 12 * PAGE + PAGE / 2);
	CHECK_EQ(t.w.min_score, 30);
	CHECK_EQ(t.w.nr_eligible, 5);
	CHECK_EQ(t.w.sz_eligible, 19 * PAGE);
	CHECK_EQ(t.w.nr_charged, 3);
	CHECK_EQ(t.w.sz_charged, 12 * PAGE);
}

/*
 * A time quota of 1 ms at the first window's throughput is 4 MiB: every
 * scored region fits, min_score is 0, and only the trap is left out.
 */
static void test_time_quota(void)
{
	struct walked t;

	fresh(&t);
	walk(&t, 1, 0);
	check_hist(&t.w);
	CHECK_EQ(t.w.esz, 4UL << 20);
	CHECK_EQ(t.w.min_score, 0);
	CHECK_EQ(t.charged[3], 6 * PAGE);
	CHECK_EQ(t.charged[4], 2 * PAGE);	/* E, now above the cut-off */
	CHECK_EQ(t.charged[5], 0);		/* F trapped */
	CHECK_EQ(t.w.nr_charged, 4);
	CHECK_EQ(t.w.sz_charged, 18 * PAGE);
	/* capped by the size quota: 5 pages, A whole and one page of B */
	walk(&t, 1, 5 * PAGE);
	CHECK_EQ(t.w.esz, 5 * PAGE);
	CHECK_EQ(t.w.min_score, 30);
	CHECK_EQ(t.charged[0], 4 * PAGE);
	CHECK_EQ(t.charged[1], PAGE);
	CHECK_EQ(t.charged[3], 0);		/* the quota is full */
	CHECK_EQ(t.w.sz_charged, 5 * PAGE);
}

/*
 * No quota: the kernel scores nothing and applies every eligible region
 * whole, the one that would trap too.  The walk struct is reused: nothing
 * of the last walk may stay.
 */
static void test_no_quota(void)
{
	struct walked t;
	unsigned int i;

	fresh(&t);
	walk(&t, 0, 4 * PAGE);
	walk(&t, 0, 0);
	CHECK_EQ(t.calls, 0);
	for (i = 0; i < NR; i++) {
		bool in = i != 2 && i != 6;

		CHECK(t.score[i] == -1, "region %u scored %d", i, t.score[i]);
		CHECK(t.charged[i] == (in ? regions[i].end - regions[i].start :
				       0), "region %u: charged %lu", i,
		      t.charged[i]);
	}
	for (i = 0; i <= HS_DAMOS_MAX_SCORE; i++)
		CHECK_EQ(t.w.hist[i], 0);
	CHECK_EQ(t.w.max_score, 0);
	CHECK_EQ(t.w.esz, 0);
	CHECK_EQ(t.w.min_score, 0);
	CHECK_EQ(t.w.nr_eligible, 5);
	CHECK_EQ(t.w.nr_charged, 5);
	CHECK_EQ(t.w.sz_charged, 19 * PAGE);
}

int main(void)
{
	RUN(test_size_quota);
	RUN(test_time_quota);
	RUN(test_no_quota);
	return CHECK_DONE();
}
