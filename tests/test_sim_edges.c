// SPDX-License-Identifier: GPL-2.0
/*
 * test_sim_edges.c - the simulator's rules at their edges: each check pins
 * one boundary (a <= that must not become <, an offset, a rounding) that
 * a mutation of src/sim/ was seen to get past tests/test_sim.c.  The tags
 * in the comments (R: regions.c, D: damos.c, W: masim.c, K: kdamond.c)
 * name those mutations.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <hotscore/bench_damon.h>
#include <hotscore/kernel.h>
#include <hotscore/sim.h>
#include <hotscore/sim_damos.h>

#include "sim/sim_internal.h"	/* the steps inside hs_sim_step() */
#include "sim_fixture.h"

#define BASE HS_WL_PADDR_START

/* 40 pages nobody touches (an idle phase) */
static const char quiet_cfg[] = "a, 163840\n\nrun\n1000\n";

/* Replace the regions with @n adjacent ones from @base. */
static void set_regions(struct hs_sim *sim, unsigned long base, size_t n,
			const unsigned long *pages, const unsigned int *nr,
			unsigned int age)
{
	size_t i;
	unsigned long at = base;

	free(sim->r);
	sim->r = calloc(64, sizeof(*sim->r));
	sim->cap = 64;
	sim->nr = n;
	for (i = 0; i < n; i++) {
		sim->r[i] = (struct hs_region){ at, at + pages[i] * PAGE,
						nr[i], nr[i], age, 0, 0 };
		at += pages[i] * PAGE;
	}
}

/* A sim over @text (paddr, 4 ms samples: one jiffy each) with @s. */
static void make_sim(struct hs_sim *sim, struct hs_workload *wl,
		     const char *text, struct hs_scheme *s, unsigned int nr_s)
{
	struct hs_sim_config cfg = sim_config(4000, 40000, 3);
	char err[256];

	load(wl, text, HS_WL_PADDR, 4000);
	cfg.schemes = s;
	cfg.nr_schemes = nr_s;
	CHECK(!hs_sim_init(sim, &cfg, wl, err, sizeof(err)), "%s", err);
}

/* One apply of every scheme at sample @sis (kdamond at a boundary). */
static void apply_at(struct hs_sim *sim, unsigned long sis)
{
	uint64_t t = 0;

	sim->passed_sis = sis;
	sim->next_aggr_sis = sis;
	hs_apply_schemes(sim, &t);
}

/* R3 R5 R6 R9: the merge's exact bounds. */
static void test_merge_bounds(void)
{
	struct hs_sim sim;

	memset(&sim, 0, sizeof(sim));
	sim.cfg.attrs = (struct hs_attrs){ 5000, 100000, 0, 3, 1000, PAGE };
	sim.r = calloc(8, sizeof(*sim.r));
	sim.cap = 8;
	/* |nr - last| == thres still ages (R3); far apart: no merge */
	sim.nr = 1;
	sim.r[0] = (struct hs_region){ 0, PAGE, 7, 5, 3, 0, 0 };
	hs_merge_regions(&sim, 2, ULONG_MAX);
	CHECK_EQ(sim.r[0].age, 4);
	/* a difference of exactly thres merges (R5) */
	sim.nr = 2;
	sim.r[0] = (struct hs_region){ 0, PAGE, 5, 5, 3, 0, 0 };
	sim.r[1] = (struct hs_region){ PAGE, 2 * PAGE, 7, 7, 3, 0, 0 };
	hs_merge_regions(&sim, 2, ULONG_MAX);
	CHECK_EQ(sim.nr, 1);
	/* a merged size of exactly sz_limit merges (R6) */
	sim.nr = 2;
	sim.r[0] = (struct hs_region){ 0, PAGE, 5, 5, 3, 0, 0 };
	sim.r[1] = (struct hs_region){ PAGE, 2 * PAGE, 5, 5, 3, 0, 0 };
	hs_merge_regions(&sim, 2, 2 * PAGE);
	CHECK_EQ(sim.nr, 1);
	/* above max_nr_regions the threshold doubles until a pass with
	 * threshold >= aggr/sample (20): 0,20,0,20 all merge (R9) */
	sim.cfg.attrs.max_nr_regions = 3;
	sim.nr = 4;
	sim.r[0] = (struct hs_region){ 0, PAGE, 0, 0, 3, 0, 0 };
	sim.r[1] = (struct hs_region){ PAGE, 2 * PAGE, 20, 20, 3, 0, 0 };
	sim.r[2] = (struct hs_region){ 2 * PAGE, 3 * PAGE, 0, 0, 3, 0, 0 };
	sim.r[3] = (struct hs_region){ 3 * PAGE, 4 * PAGE, 20, 20, 3, 0, 0 };
	hs_merge_regions(&sim, 1, ULONG_MAX);
	CHECK_EQ(sim.nr, 1);
	free(sim.r);
}

static void split_setup(struct hs_sim *sim, size_t n, unsigned long pages,
			unsigned long max)
{
	size_t i;

	free(sim->r);
	free(sim->tmp);
	memset(sim, 0, sizeof(*sim));
	sim->cfg.attrs = (struct hs_attrs){ 5000, 100000, 0, 3, max, PAGE };
	sim->rnd = 11;
	sim->r = calloc(n, sizeof(*sim->r));
	sim->cap = n;
	sim->nr = n;
	for (i = 0; i < n; i++)
		sim->r[i] = (struct hs_region){ i * pages * PAGE,
						(i + 1) * pages * PAGE, 3, 3,
						9, 0, 0 };
}

/* R10 R11 R12 R13 R14 R15: kdamond_split_regions()'s exact rules. */
static void test_split_rules(void)
{
	struct hs_sim sim;
	bool saw10 = false, saw90 = false;
	unsigned long offset;
	int k, split2;

	memset(&sim, 0, sizeof(sim));
	/* the left piece takes 10 %..90 %: both ends occur (R10) */
	for (k = 0; k < 500; k++) {
		unsigned long left;

		split_setup(&sim, 1, 100, 1000);
		sim.rnd = (uint64_t)k * 7919;
		hs_split_regions(&sim);
		CHECK_EQ(sim.nr, 2);
		left = (sim.r[0].end - sim.r[0].start) / PAGE;
		saw10 |= left == 10;
		saw90 |= left == 90;
	}
	CHECK(saw10 && saw90, "10%%: %d, 90%%: %d", saw10, saw90);
	/* below half, a region of two pages is not split, whatever
	 * damon_rand() says (R11) */
	for (k = 0; k < 20; k++) {
		split_setup(&sim, 1, 2, 1000);
		sim.rnd = (uint64_t)k * 7919;
		hs_split_regions(&sim);
		CHECK_EQ(sim.nr, 1);
	}
	/* at exactly max / 2, every region splits in two (R12) */
	split_setup(&sim, 10, 100, 20);
	hs_split_regions(&sim);
	CHECK_EQ(sim.nr, 20);
	/* above half: one in every max / (max - nr) = 5, from offset 0,
	 * i.e. regions 0, 5, 10 and 15 of 16 (R13) */
	split_setup(&sim, 16, 100, 20);
	hs_split_regions(&sim);
	CHECK_EQ(sim.nr, 20);
	CHECK_EQ(sim.r[0].end - sim.r[0].start < 100 * PAGE, 1);
	CHECK_EQ(sim.r[2].end - sim.r[2].start, 100 * PAGE);	/* region 1 */
	CHECK_EQ(sim.last_nr_regions, 16);
	/* the offset rotates: next time regions 4, 9 and 14 (R14) */
	offset = sim.split_offset;
	split_setup(&sim, 16, 100, 20);
	sim.split_offset = offset;
	hs_split_regions(&sim);
	CHECK_EQ(offset, 1);
	CHECK_EQ(sim.nr, 19);
	CHECK_EQ(sim.r[0].end, 100 * PAGE);		/* region 0 whole */
	CHECK_EQ(sim.r[4].end - sim.r[4].start < 100 * PAGE, 1);
	/* at max_nr_regions, no split, but the count is recorded */
	split_setup(&sim, 20, 100, 20);
	hs_split_regions(&sim);
	CHECK_EQ(sim.nr, 20);
	CHECK_EQ(sim.last_nr_regions, 20);
	/*
	 * above half, a two-page region may split (only < 2 pages stay):
	 * 6 of 11 regions are picked, and a cut at 50..90 % is one page,
	 * so 5 in 9 of them split: about 167 in 50 runs
	 */
	for (k = 0, split2 = 0; k < 50; k++) {
		split_setup(&sim, 11, 2, 20);
		sim.rnd = (uint64_t)k * 7919;
		hs_split_regions(&sim);
		split2 += (int)sim.nr - 11;
	}
	CHECK(split2 > 120 && split2 < 215, "%d splits in 50 runs", split2);
	/* three pieces only below max / 3 (R15): 12 of 30, count unchanged */
	split_setup(&sim, 12, 100, 30);
	sim.last_nr_regions = 12;
	hs_split_regions(&sim);
	CHECK_EQ(sim.nr, 24);
	free(sim.r);
	free(sim.tmp);
}

/* R19: damon_set_regions() aligns a range's end up. */
static void test_set_regions_align(void)
{
	struct hs_sim sim;

	memset(&sim, 0, sizeof(sim));
	sim.cfg.attrs.min_region_sz = PAGE;
	sim.ranges[0][0] = PAGE + 5;
	sim.ranges[0][1] = 10 * PAGE + 1;
	sim.nr_ranges = 1;
	CHECK_EQ(hs_set_regions(&sim), 0);
	CHECK_EQ(sim.nr, 1);
	CHECK_EQ(sim.r[0].start, PAGE);
	CHECK_EQ(sim.r[0].end, 11 * PAGE);
	free(sim.r);
	free(sim.tmp);
}

/* D1 D2 D3: min_score is the highest score whose cumulated size reaches
 * the effective quota; stat scores every region DAMOS_MAX_SCORE. */
static void test_min_score(void)
{
	static const unsigned long pages[] = { 10, 10, 10, 10 };
	static const unsigned int nr[] = { 1, 2, 3, 4 };
	struct hs_scheme s = scheme(HS_ACT_STAT);
	struct hs_workload wl;
	struct hs_sim sim;

	s.quota.sz = 40 * PAGE;			/* exactly the total */
	make_sim(&sim, &wl, tiny_cfg, &s, 1);
	set_regions(&sim, BASE, 4, pages, nr, 5);
	sim.passed_sis = sim.next_aggr_sis = 10;
	hs_adjust_quota(&sim, &sim.schemes[0]);
	CHECK_EQ(sim.schemes[0].quota.min_score, HS_DAMOS_MAX_SCORE);
	hs_sim_free(&sim);
	hs_workload_free(&wl);

	s.quota.sz = 41 * PAGE;			/* never reached: down to 0 */
	make_sim(&sim, &wl, tiny_cfg, &s, 1);
	set_regions(&sim, BASE, 4, pages, nr, 5);
	sim.passed_sis = sim.next_aggr_sis = 10;
	hs_adjust_quota(&sim, &sim.schemes[0]);
	CHECK_EQ(sim.schemes[0].quota.min_score, 0);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
}

/* damos_apply_scheme() alone on a 40-page region of age 5. */
static void apply_one(enum hs_action action, unsigned long quota_sz,
		      struct hs_sim *sim, struct hs_workload *wl)
{
	static const unsigned long pages[] = { 40 };
	static const unsigned int nr[] = { 0 };
	struct hs_scheme s = scheme(action);

	s.quota.sz = quota_sz;
	make_sim(sim, wl, tiny_cfg, &s, 1);
	set_regions(sim, BASE, 1, pages, nr, 5);
	sim->schemes[0].quota.esz = quota_sz;
	hs_apply_scheme_at(sim, 0, 0);
}

/* D5 D10 D12 D32 K5: one application's edges. */
static void test_apply_edges(void)
{
	struct hs_workload wl;
	struct hs_sim sim;

	/* 1.5 pages of quota: one page applied, the rest (< a page) makes
	 * the quota full and sets the resume address (D5) */
	apply_one(HS_ACT_PAGEOUT, 6144, &sim, &wl);
	CHECK_EQ(sim.schemes[0].stat.sz_tried, PAGE);
	CHECK(sim.schemes[0].quota.charge_from_set, "quota not full");
	hs_sim_free(&sim);
	hs_workload_free(&wl);
	/* a quota of exactly the region: no split (D10) */
	apply_one(HS_ACT_PAGEOUT, 40 * PAGE, &sim, &wl);
	CHECK_EQ(sim.nr, 1);
	CHECK_EQ(sim.schemes[0].stat.sz_tried, 40 * PAGE);
	/* pageout keeps kdamond busy 2000 ns a page (D32, K5) */
	CHECK_EQ(sim.busy_ns, 40 * 2000);
	CHECK_EQ(hs_sim_now_ns(&sim), 40 * 2000);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
	/* stat does not reset the age (D12) */
	apply_one(HS_ACT_STAT, 2 * PAGE, &sim, &wl);
	CHECK_EQ(sim.r[0].age, 5);
	CHECK_EQ(sim.r[1].age, 5);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
}

/* Four 10-page regions (distinct counts: the walk merges none). */
static void four_regions(struct hs_sim *sim)
{
	static const unsigned long pages[] = { 10, 10, 10, 10 };
	static const unsigned int nr[] = { 1, 2, 3, 4 };

	set_regions(sim, BASE, 4, pages, nr, 5);
}

/* D6 D7 D13 D22: a full window resumes the next one where it stopped. */
static void test_quota_resume(void)
{
	struct hs_scheme s = scheme(HS_ACT_STAT);
	struct hs_workload wl;
	struct hs_sim sim;
	size_t i;

	s.quota.sz = 15 * PAGE;
	s.quota.reset_ms = 4;			/* one jiffy: one sample */
	s.apply_us = 4000;
	make_sim(&sim, &wl, tiny_cfg, &s, 1);
	four_regions(&sim);
	apply_at(&sim, 1);	/* [0, 10) and [10, 15) pages */
	apply_at(&sim, 2);	/* a new window: [15, 20) and [20, 30) */
	CHECK_EQ(sim.nr_events, 4);
	CHECK_EQ(sim.events[2].start, BASE + 15 * PAGE);
	CHECK_EQ(sim.events[3].end, BASE + 30 * PAGE);
	CHECK_EQ(sim.schemes[0].stat.nr_tried, sim.nr_events);
	for (i = 0; i < sim.nr_events && i < 4; i++)
		CHECK(sim.events[i].end > sim.events[i].start,
		      "event %zu is empty", i);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
}

/* D8: a window that ended at the target's end starts over after one. */
static void test_quota_resume_wraps(void)
{
	struct hs_scheme s = scheme(HS_ACT_STAT);
	struct hs_workload wl;
	struct hs_sim sim;

	s.quota.sz = 40 * PAGE;
	s.quota.reset_ms = 4;
	s.apply_us = 4000;
	make_sim(&sim, &wl, tiny_cfg, &s, 1);
	four_regions(&sim);
	apply_at(&sim, 1);	/* all four; full at the last one */
	apply_at(&sim, 2);	/* skips to the last region, resets */
	apply_at(&sim, 3);	/* all four again */
	CHECK_EQ(sim.nr_events, 8);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
}

/* D14 D15: msecs_to_jiffies() rounds up; only full windows count. */
static void test_quota_windows(void)
{
	struct hs_scheme s = scheme(HS_ACT_STAT);
	struct hs_workload wl;
	struct hs_sim sim;
	size_t i, at2 = 0;

	s.quota.sz = 15 * PAGE;
	s.quota.reset_ms = 6;			/* 1.5 jiffies: 2 */
	s.apply_us = 4000;
	make_sim(&sim, &wl, tiny_cfg, &s, 1);
	four_regions(&sim);
	apply_at(&sim, 1);
	apply_at(&sim, 2);	/* same window, full: nothing */
	apply_at(&sim, 3);
	for (i = 0; i < sim.nr_events; i++)
		at2 += sim.events[i].sis == 2;
	CHECK_EQ(at2, 0);
	CHECK_EQ(sim.nr_events, 4);
	hs_sim_free(&sim);
	hs_workload_free(&wl);

	s.quota.sz = 1000 * PAGE;		/* never full */
	s.quota.reset_ms = 4;
	make_sim(&sim, &wl, tiny_cfg, &s, 1);
	four_regions(&sim);
	for (i = 1; i <= 4; i++)
		apply_at(&sim, i);
	CHECK_EQ(sim.schemes[0].stat.qt_exceeds, 0);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
}

/* D16 D17 D18 D19: damos_set_effective_quota() without goals. */
static void test_effective_quota(void)
{
	static const unsigned long pages[] = { 2560, 2560, 2560, 2560 };
	static const unsigned int nr[] = { 0, 0, 0, 0 };
	static const char big_cfg[] =
		"a, 41943040\n\nrun\n1000\n";
	struct hs_scheme s = scheme(HS_ACT_STAT);
	struct hs_workload wl;
	struct hs_sim sim;
	struct hs_quota *q;
	unsigned long want;

	/* the first window: PAGE_SIZE * 1024 bytes per ms (D17) */
	s.quota.ms = 1;
	make_sim(&sim, &wl, tiny_cfg, &s, 1);
	four_regions(&sim);
	apply_at(&sim, 10);
	CHECK_EQ(sim.schemes[0].quota.esz, 4 << 20);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
	/* ... capped by the size quota (D18) */
	s.quota.sz = 1 << 20;
	make_sim(&sim, &wl, tiny_cfg, &s, 1);
	four_regions(&sim);
	apply_at(&sim, 10);
	CHECK_EQ(sim.schemes[0].quota.esz, 1 << 20);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
	/* then the throughput of what was charged (D16, D19) */
	s = scheme(HS_ACT_PAGEOUT);
	s.quota.weight_age = 1;
	s.quota.ms = 10;
	s.quota.reset_ms = 4;
	s.apply_us = 4000;
	make_sim(&sim, &wl, big_cfg, &s, 1);
	set_regions(&sim, BASE, 4, pages, nr, 50);
	apply_at(&sim, 1);	/* 40 MiB fit the first 40 MiB window */
	apply_at(&sim, 2);
	q = &sim.schemes[0].quota;
	CHECK_EQ(q->total_charged_sz, 40 << 20);
	CHECK(q->total_charged_ns > 0, "no time charged");
	want = q->total_charged_ns ?
		hs_mult_frac(q->total_charged_sz, 1000000UL,
			     q->total_charged_ns) * 10 : 0;
	CHECK_EQ(q->esz, want);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
}

/* D23: lru_prio on paddr prefers hot regions, pageout cold ones. */
static void test_score_kinds(void)
{
	struct hs_scheme s[2] = { scheme(HS_ACT_LRU_PRIO),
				  scheme(HS_ACT_PAGEOUT) };
	struct hs_region hot = { BASE, BASE + PAGE, 10, 10, 10, 0, 0 };
	struct hs_region cold = { BASE, BASE + PAGE, 0, 0, 10, 0, 0 };
	struct hs_workload wl;
	struct hs_sim sim;
	int k;

	for (k = 0; k < 2; k++) {
		s[k].quota.weight_nr = 1;
		s[k].quota.weight_age = 1;
	}
	make_sim(&sim, &wl, tiny_cfg, s, 2);
	sim.passed_sis = sim.next_aggr_sis = 10;
	CHECK(hs_scheme_score(&sim, &hot, &sim.schemes[0]) >
	      hs_scheme_score(&sim, &cold, &sim.schemes[0]),
	      "lru_prio: hot %d, cold %d",
	      hs_scheme_score(&sim, &hot, &sim.schemes[0]),
	      hs_scheme_score(&sim, &cold, &sim.schemes[0]));
	CHECK(hs_scheme_score(&sim, &hot, &sim.schemes[1]) <
	      hs_scheme_score(&sim, &cold, &sim.schemes[1]),
	      "pageout: hot %d, cold %d",
	      hs_scheme_score(&sim, &hot, &sim.schemes[1]),
	      hs_scheme_score(&sim, &cold, &sim.schemes[1]));
	hs_sim_free(&sim);
	hs_workload_free(&wl);
}

/* D24 D25 D26: the walk's merge-back and the pattern's bounds. */
static void test_walk_emit(void)
{
	static const unsigned long one[] = { 40 }, two[] = { 20, 20 };
	static const unsigned int nr1[] = { 0 }, nr2[] = { 3, 3 };
	struct hs_scheme s = scheme(HS_ACT_PAGEOUT);
	struct hs_workload wl;
	struct hs_sim sim;

	/* the acted-on part (age 0) stays apart from the rest (age 5) */
	s.quota.sz = 2 * PAGE;
	s.quota.weight_age = 1;
	make_sim(&sim, &wl, tiny_cfg, &s, 1);
	sim.cfg.attrs.min_nr_regions = 1;	/* limit: the whole target */
	set_regions(&sim, BASE, 1, one, nr1, 5);
	apply_at(&sim, 10);
	CHECK_EQ(sim.nr, 2);
	CHECK_EQ(sim.r[0].end - sim.r[0].start, 2 * PAGE);
	CHECK_EQ(sim.r[0].age, 0);
	CHECK_EQ(sim.r[1].age, 5);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
	/* equal neighbours merge up to exactly the size limit */
	s = scheme(HS_ACT_STAT);
	s.pattern.min_sz = 100 * PAGE;		/* matches nothing */
	make_sim(&sim, &wl, tiny_cfg, &s, 1);
	sim.cfg.attrs.min_nr_regions = 1;
	set_regions(&sim, BASE, 2, two, nr2, 5);
	apply_at(&sim, 10);
	CHECK_EQ(sim.nr, 1);
	/* an age equal to max_age matches */
	s.pattern.min_sz = 0;
	s.pattern.max_age = 5;
	CHECK(hs_pattern_match(&sim, &sim.r[0], &s.pattern), "age == max");
	hs_sim_free(&sim);
	hs_workload_free(&wl);
}

/* D33: vaddr's pageout reports the whole range, resident or not. */
static void test_vaddr_pageout(void)
{
	struct hs_sim_config cfg = sim_config(5000, 50000, 3);
	struct hs_scheme s = scheme(HS_ACT_PAGEOUT);
	struct hs_workload wl;
	struct hs_sim sim;
	unsigned int m = 0;
	char err[256];

	load(&wl, tiny_cfg, HS_WL_VADDR, 5000);
	cfg.ops = HS_OPS_VADDR;
	cfg.schemes = &s;
	cfg.nr_schemes = 1;
	CHECK(!hs_sim_init(&sim, &cfg, &wl, err, sizeof(err)), "%s", err);
	while (wl.regions[m].own != HS_WL_MASIM)	/* past the process' own */
		m++;
	sim.r[0] = (struct hs_region){ wl.regions[m].start,
				       wl.regions[m].end, 0, 0, 5, 0, 0 };
	sim.nr = 1;
	hs_apply_scheme_at(&sim, 0, 0);
	hs_apply_scheme_at(&sim, 0, 0);
	CHECK_EQ(sim.schemes[0].stat.sz_applied, 2 * 40 * PAGE);
	CHECK_EQ(wl.nr_out, 40);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
}

/* The index of the region named @name, or nr_regions. */
static unsigned int region_named(const struct hs_workload *wl, const char *name)
{
	unsigned int i;

	for (i = 0; i < wl->nr_regions; i++)
		if (!strcmp(wl->regions[i].name, name))
			break;
	return i;
}

/*
 * The process' own memory in vaddr: the guest's layout, masim's regions
 * going down from the mmap area's top in config order, masim's table of
 * random numbers below them only when a line is random; the hot pieces
 * touched every sample, the cold ones never; paddr has none of it.
 */
static void test_own_layout(void)
{
	static const char two[] = "a, 8192\nb, 4096\n\np\n1000\na, 0, 4096, 1\n";
	static const char rnd[] = "a, 8192\n\np\n1000\na, 1, 64, 1\n";
	struct hs_workload wl;
	unsigned int a, b, i, hot = 0;

	load(&wl, two, HS_WL_VADDR, 5000);
	a = region_named(&wl, "a");
	b = region_named(&wl, "b");
	CHECK(a < wl.nr_regions && b == a - 1, "a %u, b %u", a, b);
	CHECK_EQ(wl.regions[a].end, HS_WL_MMAP_TOP);
	CHECK_EQ(wl.regions[b].end, wl.regions[a].start);
	CHECK_EQ(wl.regions[b].end - wl.regions[b].start, PAGE);
	CHECK_EQ(region_named(&wl, "[rnd]"), wl.nr_regions);
	CHECK_EQ(wl.regions[0].start, HS_WL_TEXT_START);
	CHECK_EQ(wl.regions[wl.nr_regions - 1].end, HS_WL_STACK_END);
	for (i = 1; i < wl.nr_regions; i++)
		CHECK(wl.regions[i].start >= wl.regions[i - 1].end,
		      "region %u overlaps", i);
	hs_workload_begin(&wl, 3, 0);
	for (i = 0; i < wl.nr_regions; i++) {
		const struct hs_wl_region *r = &wl.regions[i];
		bool t = hs_workload_touched(&wl, i, r->start) &&
			hs_workload_touched(&wl, i, r->end - 1);

		if (r->own == HS_WL_OWN_HOT)
			hot += t;
		else if (r->own == HS_WL_OWN_COLD)
			CHECK(!hs_workload_touched(&wl, i, r->start),
			      "%s touched", r->name);
	}
	CHECK_EQ(hot, 3);	/* two heap pieces and the stack's top */
	CHECK(hs_workload_touched(&wl, hs_workload_find(&wl, HS_WL_STACK_END - 1,
							0), HS_WL_STACK_END - 1),
	      "the stack's top byte");
	hs_workload_free(&wl);

	load(&wl, rnd, HS_WL_VADDR, 5000);
	i = region_named(&wl, "[rnd]");
	a = region_named(&wl, "a");
	CHECK(i + 1 == a, "[rnd] %u, a %u", i, a);
	CHECK_EQ(wl.regions[i].end, wl.regions[a].start);
	CHECK_EQ(wl.regions[i].end - wl.regions[i].start, 8003584);
	hs_workload_free(&wl);

	load(&wl, rnd, HS_WL_PADDR, 5000);
	CHECK_EQ(wl.nr_regions, 1);
	CHECK_EQ(wl.regions[0].start, HS_WL_PADDR_START);
	hs_workload_free(&wl);
}

/*
 * In an idle phase the process sleeps in 10 ms naps: with 5 ms samples its
 * hot pieces are touched in every other sample (those holding a wake-up),
 * and in every sample of a phase with lines.
 */
static void test_own_idle(void)
{
	static const char cfg[] = "a, 8192\n\np\n1000\na, 0, 4096, 1\n\n"
		"idle\n1000\n";
	struct hs_workload wl;
	unsigned int smp, stack, busy = 0, idle = 0;

	load(&wl, cfg, HS_WL_VADDR, 5000);
	stack = hs_workload_find(&wl, HS_WL_STACK_END - 1, 0);
	for (smp = 0; smp < 100; smp++) {
		hs_workload_begin(&wl, smp, smp * 5000);
		busy += hs_workload_touched(&wl, stack, HS_WL_STACK_END - 1);
		hs_workload_begin(&wl, smp, 1000000 + smp * 5000);
		idle += hs_workload_touched(&wl, stack, HS_WL_STACK_END - 1);
	}
	CHECK_EQ(busy, 100);
	CHECK_EQ(idle, 50);
	hs_workload_free(&wl);
}

/*
 * masim's table: with n random accesses a sample, a page in one array is
 * read with probability 1 - exp(-n / 10^6), one across two arrays with
 * 1 - exp(-2n / 10^6); n = 10^6 here (0.632 and 0.865), each share over
 * 100 samples of ~1950 pages within 5 standard deviations; a phase without
 * random lines reads none of it.
 */
static void test_own_table(void)
{
	static const char cfg[] = "a, 4096000\nb, 4096\n\nr\n1000\na, 1, 64, 1\n\n"
		"s\n1000\nb, 0, 4096, 1\n";
	struct hs_workload wl;
	unsigned int t, smp;
	uint64_t p, n[2] = { 0 }, hit[2] = { 0 }, quiet = 0;

	load(&wl, cfg, HS_WL_VADDR, 5000);
	wl.rate = 200000;	/* 10^6 accesses in a 5 ms sample */
	hs_workload_prepare(&wl, 5000);
	t = region_named(&wl, "[rnd]");
	CHECK(t < wl.nr_regions, "no table");
	for (smp = 0; smp < 100; smp++) {
		hs_workload_begin(&wl, smp, smp * 5000);	/* phase r */
		for (p = 0; p * PAGE < HS_WL_RND_BYTES; p++) {
			uint64_t o = p * PAGE, last = o + PAGE - 1;
			int two = last / 8000 != o / 8000 &&
				last < HS_WL_RND_BYTES;

			n[two]++;
			hit[two] += hs_workload_touched(&wl, t,
							wl.regions[t].start + o);
		}
		hs_workload_begin(&wl, smp, 1000000 + smp * 5000);	/* s */
		quiet += hs_workload_touched(&wl, t, wl.regions[t].start);
	}
	CHECK(fabs((double)hit[0] / n[0] - (1 - exp(-1))) <
	      5 * sqrt(0.25 / n[0]), "one array: %.4f", (double)hit[0] / n[0]);
	CHECK(fabs((double)hit[1] / n[1] - (1 - exp(-2))) <
	      5 * sqrt(0.25 / n[1]), "two arrays: %.4f", (double)hit[1] / n[1]);
	CHECK_EQ(quiet, 0);
	hs_workload_free(&wl);
}

/* W1 W2 W4 W5 W6 W7 W8: the access oracle's exact pages. */
static void test_oracle_exact(void)
{
	static const char seq_cfg[] = "s, 4096000\n\np\n1000\ns, 0, 4096, 1\n";
	static const char odd_cfg[] = "s, 4096000\n\np\n1000\ns, 0, 1000, 1\n";
	static const char wide_cfg[] = "s, 409600\n\np\n1000\ns, 0, 8192, 1\n";
	struct hs_workload wl;
	unsigned int p, touched = 0;
	uint64_t bytes;

	/* 250 accesses of 4 KiB a sample: pages 0..249, then 250..499 */
	load(&wl, seq_cfg, HS_WL_PADDR, 5000);
	wl.rate = 50;
	hs_workload_prepare(&wl, 5000);
	hs_workload_begin(&wl, 0, 0);
	for (p = 0; p < 1000; p++)
		touched += hs_workload_touched(&wl, 0, wl.regions[0].start +
					       p * PAGE);
	CHECK_EQ(touched, 250);					/* W1 */
	hs_workload_begin(&wl, 1, 5000);
	CHECK(!hs_workload_touched(&wl, 0, wl.regions[0].start), "W7");
	CHECK(hs_workload_touched(&wl, 0, wl.regions[0].start + 250 * PAGE),
	      "the second sample's sweep starts at page 250");
	/* pageout of a range that starts mid-page: whole pages only (W8) */
	bytes = hs_workload_pageout(&wl, wl.regions[0].start + 100,
				    wl.regions[0].start + 10 * PAGE, false);
	CHECK_EQ(bytes, 9 * PAGE);
	hs_workload_free(&wl);

	/* stride 1000: the second sample starts at byte 500000, in page 122
	 * (W2) */
	load(&wl, odd_cfg, HS_WL_PADDR, 5000);
	wl.rate = 100;
	hs_workload_prepare(&wl, 5000);
	hs_workload_begin(&wl, 1, 5000);
	CHECK(hs_workload_touched(&wl, 0, wl.regions[0].start + 122 * PAGE),
	      "the page holding the sweep's start");
	CHECK(!hs_workload_touched(&wl, 0, wl.regions[0].start + 121 * PAGE),
	      "the page before it");
	hs_workload_free(&wl);

	/* stride 8 KiB swept many times over: every other page (W4-W6) */
	load(&wl, wide_cfg, HS_WL_PADDR, 5000);
	hs_workload_begin(&wl, 0, 0);
	for (touched = 0, p = 0; p < 100; p++)
		touched += hs_workload_touched(&wl, 0, wl.regions[0].start +
					       p * PAGE);
	CHECK_EQ(touched, 50);
	hs_workload_free(&wl);
}

/*
 * W9: a stride near 2^64 (the parser takes any u64) touches one point per
 * sweep; the page before that point is not touched, as it would be if
 * "pos + stride" wrapped around 2^64 in the page test.
 */
static void test_oracle_huge_stride(void)
{
	static const char huge_cfg[] =
		"s, 40960\n\np\n10000\ns, 0, 18446744073709551615, 1\n";
	struct hs_workload wl;
	unsigned int p;

	load(&wl, huge_cfg, HS_WL_PADDR, 5000);
	wl.rate = 1000;			/* one access per microsecond */
	hs_workload_prepare(&wl, 5000);
	/* 4096 accesses in: 4096 * (2^64 - 1) mod 40960 = 20480, page 5 */
	hs_workload_begin(&wl, 1, 4096);
	CHECK_EQ(wl.phases[0].access[0].pos, 5 * PAGE);
	for (p = 0; p < 10; p++)
		CHECK(hs_workload_touched(&wl, 0, wl.regions[0].start +
					  p * PAGE) == (p == 5),
		      "page %u %s", p, p == 5 ? "not touched" : "touched");
	hs_workload_free(&wl);
}

/*
 * W10: the config parser's number fields at their limits, and a reason
 * for each way to miss them: a value past the limit is "too large", not
 * "not a number"; zero, negative and non-numbers each say so.
 */
static void expect_cfg(const char *text, const char *want)
{
	struct hs_workload wl;
	char err[256] = "";
	int rc = hs_workload_parse(text, strlen(text), "w.cfg", &wl, err,
				   sizeof(err));

	if (!want)
		CHECK(rc == 0, "'%s' refused: %s", text, err);
	else
		CHECK(rc == -1 && !strcmp(err, want), "'%s':\n    '%s'\n want '%s'",
		      text, err, want);
	hs_workload_free(&wl);
}

#define REGION(size)	"a, " size "\n\np\n100\n"
#define PHASE(ms)	"a, 4096\n\np\n" ms "\n"
#define ACCESS(line)	"a, 4096\n\np\n100\n" line "\n"

static void test_parse_limits(void)
{
	/* region size: 1 byte to 64 GiB, alone and in all */
	expect_cfg(REGION("1"), NULL);
	expect_cfg(REGION("68719476736"), NULL);
	expect_cfg(REGION("68719476737"),
		   "w.cfg:1: region size '68719476737' is too large: at most 64 GiB (68719476736 bytes)");
	expect_cfg(REGION("80000000000"),
		   "w.cfg:1: region size '80000000000' is too large: at most 64 GiB (68719476736 bytes)");
	expect_cfg(REGION("18446744073709551616"),	/* 2^64 */
		   "w.cfg:1: region size '18446744073709551616' is too large: at most 64 GiB (68719476736 bytes)");
	expect_cfg(REGION("0"), "w.cfg:1: region size '0' is zero: at least 1 byte");
	expect_cfg(REGION("-4096"), "w.cfg:1: region size '-4096' is negative");
	expect_cfg(REGION("-0"),
		   "w.cfg:1: region size '-0' is not a decimal number of bytes");
	expect_cfg(REGION("4KiB"),
		   "w.cfg:1: region size '4KiB' is not a decimal number of bytes");
	expect_cfg(REGION("+4096"),
		   "w.cfg:1: region size '+4096' is not a decimal number of bytes");
	expect_cfg(REGION(""), "w.cfg:1: region size is missing");
	expect_cfg("a\n\np\n100\n",
		   "w.cfg:1: a region is 'name, size_bytes[, init_data_file]', got 1 field");
	expect_cfg("a, 1, f, g\n\np\n100\n",
		   "w.cfg:1: a region is 'name, size_bytes[, init_data_file]', got 4 fields");
	expect_cfg("a, 68719476735\nb, 1\n\np\n100\n", NULL);
	expect_cfg("a, 68719476735\nb, 2\n\np\n100\n",
		   "w.cfg:2: region size '2' is too large: at most 1 byte more (64 GiB in all)");
	expect_cfg("a, 34359738368\nb, 34359738369\n\np\n100\n",
		   "w.cfg:2: region size '34359738369' is too large: at most 34359738368 bytes more (64 GiB in all)");

	/* phase duration: 1 ms to 30 days */
	expect_cfg(PHASE("1"), NULL);
	expect_cfg(PHASE("2592000000"), NULL);
	expect_cfg(PHASE("2592000001"),
		   "w.cfg:4: phase duration '2592000001' is too large: at most 30 days (2592000000 ms)");
	expect_cfg(PHASE("99999999999999999999"),
		   "w.cfg:4: phase duration '99999999999999999999' is too large: at most 30 days (2592000000 ms)");
	expect_cfg(PHASE("0"), "w.cfg:4: phase duration '0' is zero: at least 1 ms");
	expect_cfg(PHASE("-100"), "w.cfg:4: phase duration '-100' is negative");
	expect_cfg(PHASE("1s"),
		   "w.cfg:4: phase duration '1s' is not a decimal number of ms");
	{
		/* 1216 phases of 30 days, then the 100 years in all are near */
		size_t size = 16 + 1217 * 16, at;
		char *text = malloc(size);
		unsigned int k;

		at = (size_t)snprintf(text, size, "a, 4096\n");
		for (k = 0; k < 1217; k++)
			at += (size_t)snprintf(text + at, size - at,
					       "\np\n2592000000\n");
		expect_cfg(text, "w.cfg:3652: phase duration '2592000000' is too large: at most 1728000000 ms after the phases before it (100 years in all)");
		free(text);
	}

	/* access lines: random, stride, probability */
	expect_cfg(ACCESS("a, 01, 4096, 1"), NULL);
	expect_cfg(ACCESS("a, 2, 4096, 1"), "w.cfg:5: random must be 1 or 0, got '2'");
	expect_cfg(ACCESS("a, 0, 18446744073709551615, 4294967295"), NULL);
	expect_cfg(ACCESS("a, 0, 18446744073709551616, 1"),
		   "w.cfg:5: stride '18446744073709551616' is too large: at most 18446744073709551615 bytes");
	expect_cfg(ACCESS("a, 0, 0, 1"), "w.cfg:5: stride '0' is zero: at least 1 byte");
	expect_cfg(ACCESS("a, 0, -1, 1"), "w.cfg:5: stride '-1' is negative");
	expect_cfg(ACCESS("a, 0, 4k, 1"),
		   "w.cfg:5: stride '4k' is not a decimal number of bytes");
	expect_cfg(ACCESS("a, 0, 4096, 4294967296"),
		   "w.cfg:5: probability '4294967296' is too large: at most 4294967295");
	expect_cfg(ACCESS("a, 0, 4096, -1"), "w.cfg:5: probability '-1' is negative");
	expect_cfg(ACCESS("a, 0, 4096, 0.5"),
		   "w.cfg:5: probability '0.5' is not a decimal number");
	expect_cfg(ACCESS("a, 0, 4096,"), "w.cfg:5: probability is missing");
	expect_cfg(ACCESS("a"),
		   "w.cfg:5: an access is 'region, random, stride, prob[, rw]', got 1 field");
}

/* K1: schemes apply at a boundary before the reset (each on_aggregate
 * sees this aggregation's apply done; scored inputs carry the counts). */
struct k1 {
	unsigned long bad;
	unsigned long aggrs;
};

static void k1_aggregate(const struct hs_sim *sim, void *ctx)
{
	struct k1 *k = ctx;

	k->aggrs++;
	if (sim->schemes[0].stat.nr_adjust != k->aggrs)
		k->bad++;
}

static void test_apply_before_reset(void)
{
	struct hs_sim_config cfg = sim_config(5000, 50000, 3);
	struct hs_scheme s = scheme(HS_ACT_MIGRATE_HOT);
	struct k1 k = { 0, 0 };
	struct hs_workload wl;
	struct hs_sim sim;
	char err[256];
	size_t i, with_counts = 0, off_boundary = 0;

	load(&wl, hs_workload_builtin("stairs"), HS_WL_VADDR, 5000);
	s.quota.sz = 1 << 20;
	s.quota.weight_nr = 1;
	cfg.ops = HS_OPS_VADDR;
	cfg.schemes = &s;
	cfg.nr_schemes = 1;
	cfg.capture = 4096;
	cfg.duration_us = 12000000;
	cfg.on_aggregate = k1_aggregate;
	cfg.ctx = &k;
	CHECK(!hs_sim_init(&sim, &cfg, &wl, err, sizeof(err)), "%s", err);
	while (hs_sim_step(&sim))
		;
	CHECK(k.aggrs > 100, "%lu aggregations", k.aggrs);
	CHECK_EQ(k.bad, 0);
	for (i = 0; i < sim.nr_inputs; i++) {
		with_counts += sim.inputs[i].nr_accesses > 0;
		off_boundary += sim.inputs[i].passed_sis !=
			sim.inputs[i].next_aggr_sis;
	}
	CHECK(with_counts > 0, "every scored input has nr_accesses 0");
	CHECK_EQ(off_boundary, 0);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
}

/* K2 K8: the merge threshold is this aggregation's max nr_accesses / 10. */
static void thres_aggregate(const struct hs_sim *sim, void *ctx)
{
	size_t *nr = ctx;

	if (!*nr)
		*nr = sim->nr;
}

static void test_merge_threshold(void)
{
	static const unsigned long pages[] = { 10, 10, 10, 10 };
	static const unsigned int nr[] = { 30, 36, 34, 0 };
	struct hs_sim_config cfg = sim_config(5000, 50000, 3);
	struct hs_workload wl;
	struct hs_sim sim;
	size_t seen = 0;
	char err[256];

	load(&wl, quiet_cfg, HS_WL_PADDR, 5000);
	cfg.attrs.aggr_us = 40 * 5000;		/* up to 40 samples */
	cfg.on_aggregate = thres_aggregate;
	cfg.ctx = &seen;
	CHECK(!hs_sim_init(&sim, &cfg, &wl, err, sizeof(err)), "%s", err);
	sim.cfg.attrs.min_nr_regions = 1;
	sim.sz_limit = ULONG_MAX;
	set_regions(&sim, BASE, 4, pages, nr, 5);
	sim.passed_sis = sim.next_aggr_sis - 1;
	hs_sim_step(&sim);
	/* threshold 3: 30 | 36 + 34 | 0 */
	CHECK_EQ(seen, 3);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
}

/* K7: the sampling address is random within the region. */
static void straddle_aggregate(const struct hs_sim *sim, void *ctx)
{
	unsigned int *got = ctx;
	size_t i;

	for (i = 0; i < sim->nr; i++)
		if (sim->r[i].start == BASE + 40 * PAGE && !*got)
			*got = sim->r[i].nr_accesses + 1;
}

static void test_sample_address(void)
{
	/* stride 8 KiB over and over: exactly the even pages of 'hot' */
	static const char cfgtext[] =
		"cold, 163840\nhot, 163840\n\nrun\n1000\nhot, 0, 8192, 1\n";
	static const unsigned long pages[] = { 40, 10, 30 };
	static const unsigned int nr[] = { 0, 0, 0 };
	struct hs_sim_config cfg = sim_config(5000, 50000, 3);
	struct hs_workload wl;
	struct hs_sim sim;
	unsigned int got = 0;
	char err[256];

	load(&wl, cfgtext, HS_WL_PADDR, 5000);
	cfg.on_aggregate = straddle_aggregate;
	cfg.ctx = &got;
	CHECK(!hs_sim_init(&sim, &cfg, &wl, err, sizeof(err)), "%s", err);
	sim.cfg.attrs.min_nr_regions = 1;
	sim.sz_limit = ULONG_MAX;
	set_regions(&sim, BASE, 3, pages, nr, 0);
	while (!got && hs_sim_step(&sim))
		;
	/* half the pages touched: about half of the 10 samples, not all */
	CHECK(got >= 1 + 2 && got <= 1 + 8, "nr_accesses %u of 10",
	      got - 1);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
}

/* D6: resuming exactly at a region's end skips that region whole. */
static void test_quota_resume_at_boundary(void)
{
	struct hs_scheme s = scheme(HS_ACT_STAT);
	struct hs_workload wl;
	struct hs_sim sim;
	size_t i;

	s.quota.sz = 15 * PAGE;
	s.quota.reset_ms = 4;
	s.apply_us = 4000;
	make_sim(&sim, &wl, tiny_cfg, &s, 1);
	four_regions(&sim);
	sim.schemes[0].quota.charge_from_set = true;
	sim.schemes[0].quota.charge_addr_from = BASE + 10 * PAGE;
	apply_at(&sim, 1);	/* [10, 20) and [20, 25) pages */
	CHECK_EQ(sim.nr_events, 2);
	CHECK_EQ(sim.events[0].start, BASE + 10 * PAGE);
	for (i = 0; i < sim.nr_events && i < 4; i++)
		CHECK(sim.events[i].end > sim.events[i].start,
		      "event %zu is empty", i);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
}

/* D20: jiffies do not start at 0, so the first window is a whole one
 * (1 ms samples, a window of one jiffy = 4 samples). */
static void test_first_window(void)
{
	struct hs_sim_config cfg = sim_config(1000, 10000, 3);
	struct hs_scheme s = scheme(HS_ACT_STAT);
	struct hs_workload wl;
	struct hs_sim sim;
	unsigned long sis;
	char err[256];

	load(&wl, tiny_cfg, HS_WL_PADDR, 1000);
	s.quota.sz = PAGE;
	s.quota.reset_ms = 4;
	s.apply_us = 1000;
	cfg.schemes = &s;
	cfg.nr_schemes = 1;
	CHECK(!hs_sim_init(&sim, &cfg, &wl, err, sizeof(err)), "%s", err);
	four_regions(&sim);
	for (sis = 1; sis <= 8; sis++)
		apply_at(&sim, sis);
	CHECK_EQ(sim.nr_events, 3);	/* at samples 1, 4 and 8 */
	CHECK_EQ(sim.events[1].sis, 4);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
}

/*
 * damon_feed_loop_next_input() at each of its edges, in both eras: the
 * goal met (the last input), twice over (the least input), the share of
 * the distance (down, floored at 10000; up), saturation, and where 6.12's
 * overflow guard rounds otherwise than the newest core's mult_frac().
 */
static void test_feed_loop(void)
{
	unsigned long big = ULONG_MAX / 3;

	CHECK_EQ(hs_feed_loop_next_input(123456, 10000), 123456);
	CHECK_EQ(hs_feed_loop_next_input(123456, 20000), 10000);
	CHECK_EQ(hs_feed_loop_next_input(123456, 19999), 10000); /* 13 */
	CHECK_EQ(hs_feed_loop_next_input(1000000000, 19999), 100000);
	CHECK_EQ(hs_feed_loop_next_input(100000, 15000), 50000);
	CHECK_EQ(hs_feed_loop_next_input(10000, 15000), 10000);	/* floor */
	CHECK_EQ(hs_feed_loop_next_input(10000, 0), 20000);	/* doubles */
	CHECK_EQ(hs_feed_loop_next_input(100000, 5000), 150000);
	CHECK_EQ(hs_feed_loop_next_input(ULONG_MAX - 5, 0), ULONG_MAX);
	CHECK_EQ(hs_feed_loop_next_input_612(ULONG_MAX - 5, 0), ULONG_MAX);
	/* past ULONG_MAX / diff, 6.12 divides first: last / goal * diff */
	CHECK_EQ(hs_feed_loop_next_input_612(big, 5000),
		 big + big / 10000 * 5000);
	CHECK_EQ(hs_feed_loop_next_input(big, 5000),
		 big + (big / 10000 * 5000 + big % 10000 * 5000 / 10000));
	CHECK(hs_feed_loop_next_input(big, 5000) !=
	      hs_feed_loop_next_input_612(big, 5000),
	      "the two eras round apart past the guard");
	/* below it they agree */
	CHECK_EQ(hs_feed_loop_next_input_612(987654321, 2500),
		 hs_feed_loop_next_input(987654321, 2500));
	/* the goal's score: mult_frac(current, 10000, target) */
	CHECK_EQ(hs_goal_score(5, 10), 5000);
	CHECK_EQ(hs_goal_score(1, 3), 3333);
	CHECK_EQ(hs_goal_score(ULONG_MAX, 10000), ULONG_MAX);
}

/*
 * A user_input goal in the running kdamond: each charge window (the first
 * too, in the newest core) feeds esz_bp with the script's next value; the
 * last value holds; a size quota caps the goal's size; some_mem_psi_us's
 * first window is the target (no effect), then the stall since.
 */
static void test_quota_goal(void)
{
	static const unsigned long script[] = { 0, 0, 15000, 5000 };
	static const unsigned long want[] = { 2, 4, 2, 3, 4 };
	struct hs_scheme s = scheme(HS_ACT_STAT);
	struct hs_workload wl;
	struct hs_sim sim;
	unsigned long sis;
	unsigned int k = 0;

	s.quota.reset_ms = 4;		/* a window every 4 samples */
	s.apply_us = 1000;
	s.quota.goal = (struct hs_quota_goal){ HS_GOAL_USER_INPUT, 10000,
					       script, 4 };
	make_sim(&sim, &wl, tiny_cfg, &s, 1);
	four_regions(&sim);
	for (sis = 1; sis <= 20 && k < 5; sis++) {
		unsigned long before = sim.schemes[0].quota.goal_step;

		apply_at(&sim, sis);
		if (sim.schemes[0].quota.goal_step != before) {
			CHECK_EQ(sim.schemes[0].quota.esz, want[k]);
			k++;
		}
	}
	CHECK_EQ(k, 5);
	CHECK_EQ(sim.schemes[0].quota.goal_current, 5000);	/* held */
	hs_sim_free(&sim);
	hs_workload_free(&wl);
	/* a size quota caps it */
	s.quota.sz = 3;
	make_sim(&sim, &wl, tiny_cfg, &s, 1);
	four_regions(&sim);
	for (sis = 1; sis <= 20; sis++)
		apply_at(&sim, sis);
	CHECK_EQ(sim.schemes[0].quota.esz, 3);
	CHECK(sim.schemes[0].quota.esz_bp > 30000, "esz_bp %lu",
	      sim.schemes[0].quota.esz_bp);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
	/* with a time quota: its bytes if smaller, then at least a page:
	 * the goal's 2 bytes become a page (min before max) */
	s.quota.sz = 0;
	s.quota.ms = 1;
	make_sim(&sim, &wl, tiny_cfg, &s, 1);
	four_regions(&sim);
	apply_at(&sim, 1);
	CHECK_EQ(sim.schemes[0].quota.esz_bp, 20000);
	CHECK_EQ(sim.schemes[0].quota.esz, PAGE);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
	s.quota.ms = 0;
	/* pressure: the first window takes the target, so esz_bp holds */
	s.quota.sz = 0;
	s.quota.goal = (struct hs_quota_goal){ HS_GOAL_SOME_MEM_PSI_US, 1000,
					       NULL, 0 };
	make_sim(&sim, &wl, tiny_cfg, &s, 1);
	four_regions(&sim);
	apply_at(&sim, 1);
	CHECK_EQ(sim.schemes[0].quota.goal_current, 1000);
	CHECK_EQ(sim.schemes[0].quota.esz_bp, 10000);
	CHECK_EQ(sim.schemes[0].quota.goal_last_psi, hs_sim_psi_us(&sim));
	hs_sim_free(&sim);
	hs_workload_free(&wl);
}

int main(void)
{
	RUN(test_feed_loop);
	RUN(test_quota_goal);
	RUN(test_merge_bounds);
	RUN(test_split_rules);
	RUN(test_set_regions_align);
	RUN(test_min_score);
	RUN(test_apply_edges);
	RUN(test_quota_resume);
	RUN(test_quota_resume_wraps);
	RUN(test_quota_windows);
	RUN(test_effective_quota);
	RUN(test_score_kinds);
	RUN(test_walk_emit);
	RUN(test_vaddr_pageout);
	RUN(test_own_layout);
	RUN(test_own_table);
	RUN(test_own_idle);
	RUN(test_oracle_exact);
	RUN(test_oracle_huge_stride);
	RUN(test_parse_limits);
	RUN(test_apply_before_reset);
	RUN(test_merge_threshold);
	RUN(test_sample_address);
	RUN(test_quota_resume_at_boundary);
	RUN(test_first_window);
	return CHECK_DONE();
}
