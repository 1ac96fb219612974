// SPDX-License-Identifier: GPL-2.0
/*
 * test_sim.c - the simulator against DAMON's own tests: the KUnit cases of
 * mm/damon/tests/core-kunit.h that damon-scoring.md lists, the properties
 * the kernel selftests check, masim parsing, the access oracle, and
 * determinism.
 */
#include <stdlib.h>
#include <string.h>

#include <hotscore/bench_damon.h>
#include <hotscore/sim.h>

#include "sim/sim_internal.h"	/* the steps inside hs_sim_step() */
#include "sim_fixture.h"

/* damon_test_merge_two: sizes 100 and 200, nr 10 and 20, ages 9 and 21. */
static void test_merge_two(void)
{
	struct hs_region l = { .start = 0, .end = 100, .nr_accesses = 10,
			       .last_nr_accesses = 3, .age = 9 };
	struct hs_region r = { .start = 100, .end = 300, .nr_accesses = 20,
			       .last_nr_accesses = 7, .age = 21 };

	hs_merge_two(&l, &r, false);
	CHECK_EQ(l.end, 300);
	CHECK_EQ(l.nr_accesses, 16);
	CHECK_EQ(l.age, 17);
	CHECK_EQ(l.last_nr_accesses, 3);	/* l keeps its own */
}

/*
 * 6.12's running nr_accesses_bp: damon_test_moving_sum's vector through
 * damon_update_region_access_rate() (last 5: nomvsum 50000, len_window
 * 10), then damon_merge_two_regions() and a split, then a wrapped
 * nomvsum.
 */
static void test_bp_running(void)
{
	static const bool acc[] = { 1, 0, 1, 0, 0, 0, 1, 0, 0, 0 };
	static const unsigned int want[] = { 55000, 50000, 55000, 50000,
		45000, 40000, 45000, 40000, 35000, 30000 };
	struct hs_region l = { .start = 0, .end = 100, .last_nr_accesses = 5,
			       .nr_accesses_bp = 50000 };
	struct hs_region r = { .start = 100, .end = 400, .nr_accesses = 7,
			       .nr_accesses_bp = 123456 };
	struct hs_sim sim;
	size_t i;

	for (i = 0; i < sizeof(acc) / sizeof(acc[0]); i++) {
		hs_region_sampled(&l, acc[i], 10);
		CHECK(l.nr_accesses_bp == want[i], "sample %zu: %u", i,
		      l.nr_accesses_bp);
	}
	CHECK_EQ(l.nr_accesses, 3);
	/* (3 * 100 + 7 * 300) / 400 = 6; l->nr_accesses_bp = 6 * 10000 */
	hs_merge_two(&l, &r, true);
	CHECK_EQ(l.nr_accesses, 6);
	CHECK_EQ(l.nr_accesses_bp, 60000);
	/* the right part of a split copies it (damon_split_region_at()) */
	memset(&sim, 0, sizeof(sim));
	sim.r = calloc(1, sizeof(*sim.r));
	sim.nr = sim.cap = 1;
	sim.r[0] = (struct hs_region){ 0, 100 * PAGE, 6, 2, 1, 0, 60000 };
	CHECK_EQ(hs_split_region_at(&sim, 0, 25 * PAGE), 0);
	CHECK_EQ(sim.r[1].nr_accesses_bp, 60000);
	free(sim.r);
	/* 429497 * 10000 wraps to 2704; 2704 / 20 = 135; 0 - 135 + 10000 */
	l = (struct hs_region){ .last_nr_accesses = 429497 };
	hs_region_sampled(&l, true, 20);
	CHECK_EQ(l.nr_accesses_bp, 9865);
	/* an unaccessed sample drops the same share: 9865 - 135 */
	hs_region_sampled(&l, false, 20);
	CHECK_EQ(l.nr_accesses_bp, 9730);
}

/* damon_test_split_at: the right part copies nr, last and age. */
static void test_split_at(void)
{
	struct hs_sim sim;

	memset(&sim, 0, sizeof(sim));
	sim.nr = 1;
	sim.cap = 1;
	sim.r = calloc(1, sizeof(*sim.r));
	sim.r[0] = (struct hs_region){ 0, 100 * PAGE, 7, 5, 42, 0, 0 };
	CHECK_EQ(hs_split_region_at(&sim, 0, 25 * PAGE), 0);
	CHECK_EQ(sim.nr, 2);
	CHECK_EQ(sim.r[0].end, 25 * PAGE);
	CHECK_EQ(sim.r[1].start, 25 * PAGE);
	CHECK_EQ(sim.r[1].end, 100 * PAGE);
	CHECK_EQ(sim.r[1].nr_accesses, 7);
	CHECK_EQ(sim.r[1].last_nr_accesses, 5);
	CHECK_EQ(sim.r[1].age, 42);
	free(sim.r);
}

/* damon_test_nr_accesses_mvsum with sample 1, aggr 10. */
static void test_mvsum_rows(void)
{
	static const unsigned int rows[][5] = {	/* passed next nr last -> */
		{ 0, 10, 5, 3, 3 }, { 0, 10, 0, 7, 7 }, { 5, 10, 3, 10, 8 },
		{ 8, 10, 3, 10, 5 }, { 10, 10, 42, 49, 42 },
	};
	struct hs_sim sim;
	size_t i;

	memset(&sim, 0, sizeof(sim));
	sim.cfg.attrs.sample_us = 1;
	sim.cfg.attrs.aggr_us = 10;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct hs_region r = { .nr_accesses = rows[i][2],
				       .last_nr_accesses = rows[i][3] };

		sim.passed_sis = rows[i][0];
		sim.next_aggr_sis = rows[i][1];
		CHECK(hs_region_mvsum(&sim, &r) == rows[i][4],
		      "row %zu: %u", i, hs_region_mvsum(&sim, &r));
	}
}

/* The boundary fast path of hs_region_mvsum() is the model's answer. */
static void test_mvsum_fast_path(void)
{
	uint64_t seed = 7;
	struct hs_sim sim;
	int i;

	memset(&sim, 0, sizeof(sim));
	for (i = 0; i < 100000; i++) {
		struct hs_region r;
		struct hs_input in = { 0 };

		sim.cfg.attrs.sample_us = 1 + check_rand(&seed) % 10000;
		sim.cfg.attrs.aggr_us = sim.cfg.attrs.sample_us *
			(1 + check_rand(&seed) % 100);
		sim.next_aggr_sis = check_rand(&seed) % 1000;
		sim.passed_sis = sim.next_aggr_sis + check_rand(&seed) % 3;
		r.nr_accesses = (unsigned int)(check_rand(&seed) % 101);
		r.last_nr_accesses = (unsigned int)(check_rand(&seed) % 101);
		in.sample_us = sim.cfg.attrs.sample_us;
		in.aggr_us = sim.cfg.attrs.aggr_us;
		in.passed_sis = sim.passed_sis;
		in.next_aggr_sis = sim.next_aggr_sis;
		in.nr_accesses = r.nr_accesses;
		in.last_nr_accesses = r.last_nr_accesses;
		CHECK_EQ(hs_region_mvsum(&sim, &r), hs_nr_accesses_mvsum(&in));
	}
}

/* Merge ages once per aggregation and resets on the zero switch. */
static void test_merge_ages(void)
{
	struct hs_sim sim;

	memset(&sim, 0, sizeof(sim));
	sim.cfg.attrs = (struct hs_attrs){ 5000, 100000, 0, 3, 3, PAGE };
	sim.r = calloc(4, sizeof(*sim.r));
	sim.cap = 4;
	sim.nr = 4;
	/* far apart: no merges, so each keeps its own age */
	sim.r[0] = (struct hs_region){ 0, PAGE, 5, 5, 3, 0, 0 }; /* same: +1 */
	sim.r[1] = (struct hs_region){ 2 * PAGE, 3 * PAGE, 0, 1, 3, 0, 0 };
	sim.r[2] = (struct hs_region){ 4 * PAGE, 5 * PAGE, 20, 5, 3, 0, 0 };
	sim.r[3] = (struct hs_region){ 6 * PAGE, 7 * PAGE, 0, 0, 3, 0, 0 };
	/* more regions than max_nr_regions: merge passes repeat */
	hs_merge_regions(&sim, 2, ULONG_MAX);
	CHECK_EQ(sim.nr, 4);
	CHECK_EQ(sim.r[0].age, 4);	/* aged once, not once per pass */
	CHECK_EQ(sim.r[1].age, 0);	/* 1 -> 0: the zero switch */
	CHECK_EQ(sim.r[2].age, 0);	/* |20 - 5| > 2 */
	CHECK_EQ(sim.r[3].age, 4);
	free(sim.r);
}

/* Split pieces are 10-90 %, page aligned, cover the region, in order. */
static void test_split_regions(void)
{
	struct hs_sim sim;
	size_t i;
	int round;

	memset(&sim, 0, sizeof(sim));
	sim.cfg.attrs = (struct hs_attrs){ 5000, 100000, 0, 3, 1000, PAGE };
	sim.rnd = 3;
	sim.r = calloc(10, sizeof(*sim.r));
	sim.cap = 10;
	sim.nr = 10;
	for (i = 0; i < 10; i++)
		sim.r[i] = (struct hs_region){ i * 1000 * PAGE,
					       (i + 1) * 1000 * PAGE, 3, 2, 9,
					       0, 0 };
	for (round = 0; round < 3; round++) {
		size_t before = sim.nr;

		hs_split_regions(&sim);
		/* 2 pieces first; 3 once the count stayed and is < max/3 */
		CHECK(sim.nr <= (round == 1 ? 3 : 2) * before,
		      "round %d: %zu from %zu", round, sim.nr, before);
		CHECK(sim.nr > before, "round %d: no split", round);
		for (i = 0; i < sim.nr; i++) {
			CHECK(sim.r[i].start % PAGE == 0 &&
			      sim.r[i].end > sim.r[i].start, "piece %zu", i);
			CHECK(i == 0 || sim.r[i].start == sim.r[i - 1].end,
			      "gap at %zu", i);
			CHECK(sim.r[i].age == 9 && sim.r[i].nr_accesses == 3,
			      "piece %zu lost its counts", i);
		}
		CHECK_EQ(sim.r[sim.nr - 1].end, 10000 * PAGE);
		if (round == 0)	/* same count again next time: 3 pieces */
			sim.last_nr_regions = sim.nr;
	}
	/* above half of max: at most max - nr more, never above max */
	sim.cfg.attrs.max_nr_regions = sim.nr + sim.nr / 2;
	for (round = 0; round < 20; round++) {
		size_t before = sim.nr;

		hs_split_regions(&sim);
		CHECK(sim.nr <= sim.cfg.attrs.max_nr_regions,
		      "%zu regions above max %lu", sim.nr,
		      sim.cfg.attrs.max_nr_regions);
		CHECK(sim.nr >= before, "lost regions");
	}
	free(sim.r);
	free(sim.tmp);
}

/* damon_apply_min_nr_regions: every region at most total / min. */
static void test_apply_min_nr_regions(void)
{
	struct hs_sim sim;
	unsigned long limit;
	size_t i;

	memset(&sim, 0, sizeof(sim));
	sim.cfg.attrs = (struct hs_attrs){ 5000, 100000, 0, 10, 1000, PAGE };
	sim.r = calloc(1, sizeof(*sim.r));
	sim.cap = sim.nr = 1;
	sim.r[0] = (struct hs_region){ 0, 95 * PAGE, 1, 2, 3, 0, 0 };
	limit = hs_apply_min_nr_regions(&sim);
	CHECK_EQ(limit, 10 * PAGE);	/* 9.5 pages, aligned up */
	CHECK_EQ(sim.nr, 10);
	for (i = 0; i < sim.nr; i++)
		CHECK(sim.r[i].end - sim.r[i].start <= limit, "region %zu", i);
	CHECK_EQ(sim.r[9].end, 95 * PAGE);
	free(sim.r);
	free(sim.tmp);
}

/* Apply one scheme to one region under a size quota of @esz bytes. */
static void apply_one(unsigned long quota_sz, struct hs_sim *sim,
		      struct hs_workload *wl)
{
	struct hs_sim_config cfg = sim_config(5000, 100000, 10);
	struct hs_scheme s = scheme(HS_ACT_PAGEOUT);
	char err[256];

	load(wl, tiny_cfg, HS_WL_PADDR, 5000);
	s.quota.sz = quota_sz;
	cfg.schemes = &s;
	cfg.nr_schemes = 1;
	cfg.attrs.min_nr_regions = 3;
	CHECK(!hs_sim_init(sim, &cfg, wl, err, sizeof(err)), "%s", err);
	/* one 40-page region with an age, as damos_test_apply_scheme_quota */
	sim->r[0] = (struct hs_region){ HS_WL_PADDR_START,
					HS_WL_PADDR_START + 40 * PAGE, 0, 0, 5,
					0, 0 };
	sim->nr = 1;
	/* the window's effective quota, as damos_adjust_quota() sets it */
	sim->schemes[0].quota.esz = quota_sz;
	hs_apply_scheme_at(sim, 0, 0);
}

/* damos_test_apply_scheme_quota_sz: the region is trimmed to the quota. */
static void test_apply_scheme_quota(void)
{
	struct hs_workload wl;
	struct hs_sim sim;

	apply_one(2 * PAGE, &sim, &wl);
	CHECK_EQ(sim.schemes[0].stat.nr_tried, 1);
	CHECK_EQ(sim.schemes[0].stat.sz_tried, 2 * PAGE);
	CHECK_EQ(sim.schemes[0].stat.sz_applied, 2 * PAGE);
	CHECK_EQ(sim.nr, 2);
	CHECK_EQ(sim.r[0].end - sim.r[0].start, 2 * PAGE);
	CHECK_EQ(sim.r[0].age, 0);	/* a non-stat action resets age */
	CHECK_EQ(sim.r[1].age, 5);
	CHECK(sim.schemes[0].quota.charge_from_set, "resume pointer unset");
	CHECK_EQ(sim.schemes[0].quota.charge_addr_from, sim.r[0].end);
	CHECK_EQ(wl.nr_out, 2);
	hs_sim_free(&sim);
	hs_workload_free(&wl);

	/* esz of one byte: nothing fits; tried once, zero bytes (the
	 * walk would not even try: less than a page left is a full quota) */
	apply_one(1, &sim, &wl);
	CHECK_EQ(sim.schemes[0].stat.nr_tried, 1);
	CHECK_EQ(sim.schemes[0].stat.sz_tried, 0);
	CHECK_EQ(sim.schemes[0].stat.nr_applied, 0);
	CHECK_EQ(sim.nr, 1);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
}

/* What a whole run is checked against, at each aggregation. */
struct watch {
	unsigned long min_nr, max_nr;
	size_t below_min, above_max, most, aggrs, over_limit;
	unsigned long window_from, window_start_sz;
	unsigned long over_quota;
	unsigned long qt_half;
	uint64_t wss[1000];
	size_t nr_wss;
	unsigned int stray;	/* accessed regions outside the hot one */
};

/*
 * Does @r lie in masim's memory but wholly outside config region @k?  They lie
 * in the mmap area in reverse config order (hs_workload_layout()); the
 * process' own memory is not masim's.
 */
static bool in_other_masim(const struct hs_workload *wl,
			   const struct hs_region *r, uint64_t k)
{
	const struct hs_wl_region *hot = NULL;
	bool masim = false;
	unsigned int i, m = 0;

	for (i = 0; i < wl->nr_regions; i++) {
		const struct hs_wl_region *x = &wl->regions[i];

		if (x->own != HS_WL_MASIM)
			continue;
		if (wl->nr_masim - 1 - m++ == k)
			hot = x;
		masim |= r->start < x->end && x->start < r->end;
	}
	return masim && hot && (r->end <= hot->start || r->start >= hot->end);
}

static void watch_aggregate(const struct hs_sim *sim, void *ctx)
{
	struct watch *w = ctx;
	const struct hs_scheme *s = &sim->schemes[0];
	uint64_t wss = 0, now = hs_sim_now_us(sim);
	size_t i;

	w->aggrs++;
	for (i = 0; i < sim->nr; i++)
		if (sim->r[i].end - sim->r[i].start > sim->sz_limit)
			w->over_limit++;
	if (sim->nr < w->min_nr)
		w->below_min++;
	if (sim->nr > w->max_nr)
		w->above_max++;
	if (sim->nr > w->most)
		w->most = sim->nr;
	if (sim->cfg.nr_schemes && s->quota.sz) {
		/* sz_tried within one charge window never above the quota */
		if (s->quota.charged_from != w->window_from) {
			w->window_from = s->quota.charged_from;
			w->window_start_sz = s->stat.sz_tried;
		}
		if (s->stat.sz_tried - w->window_start_sz > s->quota.sz)
			w->over_quota++;
		if (now <= sim->cfg.duration_us / 2)
			w->qt_half = s->stat.qt_exceeds;
	}
	for (i = 0; i < sim->nr; i++) {
		const struct hs_region *r = &sim->r[i];
		/* stairs: phase k (from 10 s, 5 s each) touches region k */
		uint64_t k = (now / 1000 - 10000) / 5000;

		if (!r->nr_accesses)
			continue;
		wss += r->end - r->start;
		/* away from a phase change, only the hot region is seen */
		if (now > 11000000 && (now / 1000 - 10000) % 5000 > 1000 &&
		    in_other_masim(sim->wl, r, k))
			w->stray++;
	}
	if (w->nr_wss < 1000 && now > 10000000)
		w->wss[w->nr_wss++] = wss;
}

static void run_stairs(struct hs_sim_config *cfg, struct watch *w,
		       struct hs_sim *sim, struct hs_workload *wl)
{
	char err[256];

	load(wl, hs_workload_builtin("stairs"), HS_WL_VADDR,
	     cfg->attrs.sample_us);
	cfg->ops = HS_OPS_VADDR;
	cfg->on_aggregate = watch_aggregate;
	cfg->ctx = w;
	w->min_nr = cfg->attrs.min_nr_regions;
	w->max_nr = cfg->attrs.max_nr_regions;
	CHECK(!hs_sim_init(sim, cfg, wl, err, sizeof(err)), "%s", err);
	while (hs_sim_step(sim))
		;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* damon-tests' stairs check (median WSS 9e6..11e6) and one hot region. */
static void test_stairs_working_set(void)
{
	struct hs_sim_config cfg = sim_config(5000, 100000, 10);
	struct watch w = { 0 };
	struct hs_workload wl;
	struct hs_sim sim;
	uint64_t median;

	cfg.duration_us = 60000000;
	run_stairs(&cfg, &w, &sim, &wl);
	CHECK(w.nr_wss > 400, "%zu aggregations", w.nr_wss);
	qsort(w.wss, w.nr_wss, sizeof(w.wss[0]), cmp_u64);
	median = w.wss[w.nr_wss / 2];
	CHECK(median >= 9000000 && median <= 11000000, "median WSS %llu",
	      (unsigned long long)median);
	CHECK_EQ(w.stray, 0);
	CHECK_EQ(w.below_min, 0);
	CHECK_EQ(w.above_max, 0);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
}

/*
 * damon_nr_regions.py: min and max nr_regions are kept.  The minimum holds
 * through the size limit, total / min aligned up to a page, so with three
 * ranges it can fall a few regions short (500..500 here): there only the
 * limit itself is checked.  The same setup goes a few above the maximum:
 * each range's initial split leaves a last piece above the limit, which
 * damon_apply_min_nr_regions() splits, and which no merge may join again;
 * at most two more regions per range.
 */
static void test_nr_regions_bounds(void)
{
	static const unsigned long bounds[][2] = {
		{ 3, 7 }, { 10, 20 }, { 10, 1000 }, { 100, 150 }, { 500, 500 },
	};
	size_t i;

	for (i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++) {
		struct hs_sim_config cfg = sim_config(5000, 100000, 10);
		struct watch w = { 0 };
		struct hs_workload wl;
		struct hs_sim sim;

		cfg.attrs.min_nr_regions = bounds[i][0];
		cfg.attrs.max_nr_regions = bounds[i][1];
		cfg.duration_us = 20000000;
		run_stairs(&cfg, &w, &sim, &wl);
		CHECK((!w.below_min || bounds[i][0] == 500) &&
		      (!w.above_max || (bounds[i][0] == 500 &&
					w.most <= 500 + 2 * 3)) &&
		      !w.over_limit,
		      "%lu..%lu: %zu below, %zu above (at most %zu) of %zu, %zu over the limit",
		      bounds[i][0], bounds[i][1], w.below_min, w.above_max,
		      w.most, w.aggrs, w.over_limit);
		hs_sim_free(&sim);
		hs_workload_free(&wl);
	}
}

/* damos_quota.py: tried bytes per window within the quota; qt_exceeds. */
static void test_quota_selftest(void)
{
	struct hs_sim_config cfg = sim_config(5000, 100000, 10);
	struct hs_scheme s = scheme(HS_ACT_STAT);
	struct watch w = { 0 };
	struct hs_workload wl;
	struct hs_sim sim;

	s.quota.sz = 1 << 20;		/* 1 MiB per 100 ms */
	s.quota.reset_ms = 100;
	cfg.schemes = &s;
	cfg.nr_schemes = 1;
	cfg.duration_us = 20000000;
	run_stairs(&cfg, &w, &sim, &wl);
	CHECK_EQ(w.over_quota, 0);
	CHECK(sim.schemes[0].stat.sz_tried > 0, "nothing tried");
	CHECK(w.qt_half > 0, "no qt_exceeds by half time");
	CHECK(sim.schemes[0].stat.qt_exceeds > w.qt_half,
	      "qt_exceeds stopped growing at %lu", w.qt_half);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
}

/*
 * msecs_to_jiffies() takes an unsigned int: damo's "max" reset interval
 * never ends the first window; 2^32 ms truncates to 0 and ends it on
 * every apply.
 */
static void test_reset_interval_truncation(void)
{
	static const unsigned long resets[] = { ULONG_MAX, 1UL << 32 };
	unsigned int k;

	for (k = 0; k < 2; k++) {
		struct hs_sim_config cfg = sim_config(5000, 100000, 10);
		struct hs_scheme s = scheme(HS_ACT_STAT);
		struct watch w = { 0 };
		struct hs_workload wl;
		struct hs_sim sim;

		s.quota.sz = 1 << 20;
		s.quota.reset_ms = resets[k];
		cfg.schemes = &s;
		cfg.nr_schemes = 1;
		cfg.duration_us = 5000000;
		run_stairs(&cfg, &w, &sim, &wl);
		if (!k) {
			CHECK_EQ(sim.schemes[0].stat.qt_exceeds, 0);
			CHECK_EQ(sim.schemes[0].stat.sz_tried, 1 << 20);
		} else {
			/* a new window, full again, at every apply */
			CHECK(sim.schemes[0].stat.qt_exceeds >= 45,
			      "qt_exceeds %lu", sim.schemes[0].stat.qt_exceeds);
		}
		hs_sim_free(&sim);
		hs_workload_free(&wl);
	}
}

/* damos_apply_interval.py: 10 ms tried at least 9x as often as 100 ms. */
static void test_apply_interval(void)
{
	struct hs_sim_config cfg = sim_config(5000, 100000, 10);
	struct hs_scheme s[2] = { scheme(HS_ACT_STAT), scheme(HS_ACT_STAT) };
	struct watch w = { 0 };
	struct hs_workload wl;
	struct hs_sim sim;
	unsigned long fast, slow;

	s[0].apply_us = 10000;
	s[1].apply_us = 100000;
	cfg.schemes = s;
	cfg.nr_schemes = 2;
	cfg.duration_us = 5000000;
	run_stairs(&cfg, &w, &sim, &wl);
	fast = sim.schemes[0].stat.nr_tried;
	slow = sim.schemes[1].stat.nr_tried;
	CHECK(slow > 0 && fast >= 9 * slow, "10 ms: %lu, 100 ms: %lu", fast,
	      slow);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
}

/* Same seed, same decisions and region history; another seed differs. */
static void test_determinism(void)
{
	uint64_t hash[3];
	size_t nr[3];
	int k;

	for (k = 0; k < 3; k++) {
		struct hs_sim_config cfg = sim_config(5000, 100000, 10);
		struct hs_scheme s = scheme(HS_ACT_PAGEOUT);
		struct watch w = { 0 };
		struct hs_workload wl;
		struct hs_sim sim;

		s.pattern.max_nr = 0;
		s.pattern.min_age = 10;
		s.quota.sz = 4 << 20;
		s.quota.weight_age = 1;
		cfg.schemes = &s;
		cfg.nr_schemes = 1;
		cfg.duration_us = 30000000;
		cfg.seed = k == 2 ? 2 : 1;
		run_stairs(&cfg, &w, &sim, &wl);
		hash[k] = sim.hash;
		nr[k] = sim.nr_events;
		hs_sim_free(&sim);
		hs_workload_free(&wl);
	}
	CHECK(nr[0] > 0, "no actions");
	CHECK(hash[0] == hash[1] && nr[0] == nr[1], "same seed differs");
	CHECK(hash[0] != hash[2], "the seed changes nothing");
}

/* Pageout makes pages non-resident; a later touch faults them back. */
static void test_pageout_and_faults(void)
{
	struct hs_workload wl;
	uint64_t bytes;

	load(&wl, tiny_cfg, HS_WL_PADDR, 5000);
	bytes = hs_workload_pageout(&wl, HS_WL_PADDR_START,
				    HS_WL_PADDR_START + 10 * PAGE + 100, false);
	CHECK_EQ(bytes, 10 * PAGE);	/* whole pages only */
	CHECK_EQ(hs_workload_pageout(&wl, HS_WL_PADDR_START,
				     HS_WL_PADDR_START + 10 * PAGE, false), 0);
	CHECK_EQ(hs_workload_resident(&wl, HS_WL_PADDR_START,
				      HS_WL_PADDR_START + 40 * PAGE),
		 30 * PAGE);
	/* the sweep covers the whole region in one sample: all come back */
	hs_workload_begin(&wl, 0, 0);
	hs_workload_fault_in(&wl);
	CHECK_EQ(wl.faults, 10);
	CHECK_EQ(wl.nr_out, 0);
	/* paddr's young filter: pages this sample touched stay */
	CHECK_EQ(hs_workload_pageout(&wl, HS_WL_PADDR_START,
				     HS_WL_PADDR_START + 40 * PAGE, true), 0);
	wl.rate = 1;			/* 5 pages swept per sample now */
	hs_workload_prepare(&wl, 5000);
	hs_workload_begin(&wl, 1, 5000);	/* pages 5..9 touched */
	bytes = hs_workload_pageout(&wl, HS_WL_PADDR_START,
				    HS_WL_PADDR_START + 40 * PAGE, true);
	CHECK_EQ(bytes, 35 * PAGE);
	CHECK(!hs_workload_touched(&wl, 0, HS_WL_PADDR_START + 4 * PAGE) &&
	      hs_workload_touched(&wl, 0, HS_WL_PADDR_START + 5 * PAGE) &&
	      hs_workload_touched(&wl, 0, HS_WL_PADDR_START + 9 * PAGE) &&
	      !hs_workload_touched(&wl, 0, HS_WL_PADDR_START + 10 * PAGE),
	      "the sweep's window");
	hs_workload_free(&wl);
}

/* A slow sweep touches a window; a random line about its probability. */
static void test_oracle(void)
{
	static const char cfg[] =
		"s, 4096000\nr, 4096000\n\nphase\n1000\n"
		"s, 0, 4096, 1\nr, 1, 4096, 1\n";
	struct hs_workload wl;
	unsigned int touched = 0, p;
	uint64_t sample;

	load(&wl, cfg, HS_WL_PADDR, 5000);
	wl.rate = 100;			/* 250 accesses per line per sample */
	hs_workload_prepare(&wl, 5000);
	hs_workload_begin(&wl, 0, 0);
	for (p = 0; p < 1000; p++)
		touched += hs_workload_touched(&wl, 0, wl.regions[0].start +
					       p * PAGE);
	CHECK(touched >= 250 && touched <= 251, "sweep touched %u", touched);
	CHECK(hs_workload_touched(&wl, 0, wl.regions[0].start + 100 * PAGE),
	      "the sweep starts at the region's start");
	touched = 0;
	for (sample = 0; sample < 20; sample++) {
		hs_workload_begin(&wl, sample, sample * 5000);
		for (p = 0; p < 1000; p++)
			touched += hs_workload_touched(&wl, 1,
						       wl.regions[1].start +
						       p * PAGE);
	}
	/* 1 - exp(-0.25) = 22.1 % of 20000 */
	CHECK(touched > 4000 && touched < 4850, "random touched %u", touched);
	hs_workload_free(&wl);
}

static void expect_parse_error(const char *text, const char *want)
{
	struct hs_workload wl;
	char err[256] = "";
	int rc = hs_workload_parse(text, strlen(text), "w.cfg", &wl, err,
				   sizeof(err));

	CHECK(rc == -1 && strstr(err, want), "'%s' wanted '%s'", err, want);
	hs_workload_free(&wl);
}

static void test_parse_errors(void)
{
	expect_parse_error("a, 10\n\np\n100\nb, 0, 4096, 1\n",
			   "w.cfg:5: no region named 'b'");
	expect_parse_error("a, ten\n", "w.cfg:1: region size 'ten'");
	expect_parse_error("a, 10\na, 20\n", "w.cfg:2: region 'a' is defined twice");
	expect_parse_error("a, 10\n\np\nsoon\n", "w.cfg:4: phase duration 'soon'");
	expect_parse_error("a, 10\n\np\n100\na, 2, 4096, 1\n",
			   "w.cfg:5: random must be 1 or 0");
	expect_parse_error("a, 10\n\np\n100\na, 0, 0, 1\n", "w.cfg:5: stride '0'");
	expect_parse_error("a, 10\n\np\n100\na, 0, 4096\n", "w.cfg:5: an access is");
	expect_parse_error("a, 10\n\np\n", "phase 'p' has no duration line");
	expect_parse_error("a, 10\n", "no phases defined");
	expect_parse_error("# only\n", "no regions defined");
	expect_parse_error("a, 80000000000\n", "w.cfg:1: region size '80000000000' is too large: at most 64 GiB");
	expect_parse_error("a, 10\n\np\n100\na, 0, 4096, 0\n",
			   "w.cfg:5: phase 'p': every probability is 0");
	expect_parse_error("a, 10\n\np\n2592000001\n", "at most 30 days");
	expect_parse_error("", "w.cfg:1: no regions defined");
}

/* CR, CRLF and a UTF-8 BOM read as masim would; a NUL names its line. */
static void test_parse_text_forms(void)
{
	static const char crlf[] = "\xef\xbb\xbf" "a, 4096\r\n\r\np\r100\ra, 0, 4096, 1\r\n";
	static const char nul[] = "a, 4096\n\np\n100\na, 0, 4096, 1\0\n";
	struct hs_workload wl;
	char err[256] = "";

	CHECK(!hs_workload_parse(crlf, sizeof(crlf) - 1, "w.cfg", &wl, err,
				 sizeof(err)), "%s", err);
	CHECK_EQ(wl.nr_regions, 1);
	CHECK_EQ(wl.nr_phases, 1);
	CHECK(!strcmp(wl.regions[0].name, "a"), "name '%s'", wl.regions[0].name);
	hs_workload_free(&wl);
	CHECK(hs_workload_parse(nul, sizeof(nul) - 1, "w.cfg", &wl, err,
				sizeof(err)) && strstr(err, "w.cfg:5: a NUL byte"),
	      "%s", err);
	hs_workload_free(&wl);
	/* an idle phase (no access lines) is fine */
	CHECK(!hs_workload_parse("a, 4096\n\nidle\n100\n", 18, "w.cfg", &wl,
				 err, sizeof(err)), "%s", err);
	CHECK(!hs_workload_layout(&wl, HS_WL_VADDR, err, sizeof(err)), "%s",
	      err);
	hs_workload_free(&wl);
}

static void test_builtins_parse(void)
{
	static const char *const names[] = { "stairs", "zigzag" };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		struct hs_workload wl;
		char err[256];

		const char *text = hs_workload_builtin(names[i]);

		CHECK(!hs_workload_parse(text, strlen(text), names[i], &wl, err,
					 sizeof(err)), "%s", err);
		CHECK_EQ(wl.total_ms, i ? 70000 : 60000);
		CHECK_EQ(wl.nr_regions, i ? 2 : 10);
		hs_workload_free(&wl);
	}
	CHECK(!hs_workload_builtin("nosuch"), "unknown built-in");
}

int main(void)
{
	RUN(test_merge_two);
	RUN(test_split_at);
	RUN(test_bp_running);
	RUN(test_mvsum_rows);
	RUN(test_mvsum_fast_path);
	RUN(test_merge_ages);
	RUN(test_split_regions);
	RUN(test_apply_min_nr_regions);
	RUN(test_apply_scheme_quota);
	RUN(test_stairs_working_set);
	RUN(test_nr_regions_bounds);
	RUN(test_quota_selftest);
	RUN(test_apply_interval);
	RUN(test_reset_interval_truncation);
	RUN(test_determinism);
	RUN(test_pageout_and_faults);
	RUN(test_oracle);
	RUN(test_parse_errors);
	RUN(test_parse_text_forms);
	RUN(test_builtins_parse);
	return CHECK_DONE();
}
