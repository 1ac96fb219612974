// SPDX-License-Identifier: GPL-2.0
/*
 * test_sim_events.c - what DAMOS acted on, as the simulator reports it:
 * every action reaches cfg.on_event, also past max_events; each carries
 * the region's score and the cut-off it passed (none without a quota);
 * the actions add up to the schemes' stats; and the decisions' hash is
 * still FNV-1a over the 40 bytes an event was before it kept scores.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_fixture.h"

struct seen {
	struct hs_event *e;
	size_t nr, cap;
};

static void on_event(const struct hs_sim *sim, const struct hs_event *e,
		     void *ctx)
{
	struct seen *s = ctx;

	(void)sim;
	if (s->nr == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->e = realloc(s->e, s->cap * sizeof(*s->e));
		if (!s->e)
			abort();
	}
	s->e[s->nr++] = *e;
}

/* FNV-1a over @n bytes of @v, least significant first (x86-64's order). */
static uint64_t fnv(uint64_t h, uint64_t v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		h = (h ^ ((v >> (8 * i)) & 0xff)) * 0x100000001b3ULL;
	return h;
}

/* The old struct hs_event: sis, start, end, scheme, 4 bytes of padding. */
static uint64_t old_hash(const struct seen *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < s->nr; i++) {
		const struct hs_event *e = &s->e[i];

		h = fnv(h, e->sis, 8);
		h = fnv(h, e->start, 8);
		h = fnv(h, e->end, 8);
		h = fnv(h, e->scheme, 4);
		h = fnv(h, 0, 4);
		h = fnv(h, e->sz_applied, 8);
	}
	return h;
}

/*
 * stairs for 30 s: the default pageout scheme (a quota, oldest first) and
 * a stat scheme with no quota on every accessed region; 8 events kept.
 */
static void run(struct hs_sim *sim, struct hs_workload *wl, struct seen *s)
{
	struct hs_sim_config cfg = sim_config(5000, 100000, 10);
	struct hs_scheme sc[2] = { scheme(HS_ACT_PAGEOUT),
				   scheme(HS_ACT_STAT) };
	char err[256];

	load(wl, hs_workload_builtin("stairs"), HS_WL_VADDR, 5000);
	sc[0].pattern.max_nr = 0;
	sc[0].pattern.min_age = 20;
	sc[0].quota = (struct hs_quota){ .ms = 10, .sz = 8 << 20,
					 .reset_ms = 1000, .weight_age = 1 };
	sc[1].pattern.min_nr = 1;
	sc[1].quota.reset_ms = ULONG_MAX;
	cfg.ops = HS_OPS_VADDR;
	cfg.schemes = sc;
	cfg.nr_schemes = 2;
	cfg.duration_us = 30000000;
	cfg.max_events = 8;
	cfg.on_event = on_event;
	cfg.ctx = s;
	CHECK(!hs_sim_init(sim, &cfg, wl, err, sizeof(err)), "%s", err);
	while (hs_sim_step(sim))
		;
}

static void test_every_event(void)
{
	struct seen s = { 0 };
	struct hs_workload wl;
	struct hs_sim sim;
	size_t i;

	run(&sim, &wl, &s);
	CHECK(s.nr > 100, "only %zu actions", s.nr);
	CHECK_EQ(s.nr, sim.nr_events);
	for (i = 0; i < 8 && i < s.nr; i++)
		CHECK(!memcmp(&s.e[i], &sim.events[i], sizeof(s.e[i])),
		      "event %zu differs from the one kept", i);
	if (sizeof(unsigned long) == 8)
		CHECK(old_hash(&s) == sim.hash, "hash %016llx, old layout %016llx",
		      (unsigned long long)sim.hash,
		      (unsigned long long)old_hash(&s));
	hs_sim_free(&sim);
	hs_workload_free(&wl);
	free(s.e);
}

/* Scores only under a quota, at or above its cut-off; times in order. */
static void test_scores(void)
{
	struct seen s = { 0 };
	struct hs_workload wl;
	struct hs_sim sim;
	size_t i, nr[2] = { 0 };

	run(&sim, &wl, &s);
	for (i = 0; i < s.nr; i++) {
		const struct hs_event *e = &s.e[i];

		CHECK(e->scheme < 2, "scheme %u", e->scheme);
		nr[e->scheme]++;
		CHECK(e->t_us >= (uint64_t)e->sis * 5000, "t %llu at sis %lu",
		      (unsigned long long)e->t_us, e->sis);
		CHECK(!i || e->t_us >= s.e[i - 1].t_us, "time went back");
		if (e->scheme == 1) {
			CHECK_EQ(e->score, HS_EVENT_NO_SCORE);
			CHECK_EQ(e->min_score, 0);
			continue;
		}
		CHECK(e->score >= (int)e->min_score && e->score <= 99,
		      "score %d, min_score %u", e->score, e->min_score);
	}
	CHECK(nr[0] > 10 && nr[1] > 10, "%zu and %zu actions", nr[0], nr[1]);
	hs_sim_free(&sim);
	hs_workload_free(&wl);
	free(s.e);
}

/* The actions add up to each scheme's stats; applications counted. */
static void test_stats_add_up(void)
{
	struct seen s = { 0 };
	struct hs_workload wl;
	struct hs_sim sim;
	unsigned long nr[2] = { 0 }, sz[2] = { 0 }, applied[2] = { 0 };
	unsigned int k;
	size_t i;

	run(&sim, &wl, &s);
	for (i = 0; i < s.nr; i++) {
		nr[s.e[i].scheme]++;
		sz[s.e[i].scheme] += s.e[i].end - s.e[i].start;
		applied[s.e[i].scheme] += s.e[i].sz_applied;
	}
	for (k = 0; k < 2; k++) {
		const struct hs_damos_stat *st = &sim.schemes[k].stat;

		CHECK_EQ(nr[k], st->nr_tried);
		CHECK_EQ(sz[k], st->sz_tried);
		CHECK_EQ(applied[k], st->sz_applied);
		/* due once per aggregation, from the first boundary on */
		CHECK(st->nr_applies + 1 >= sim.nr_aggr &&
		      st->nr_applies <= sim.nr_aggr + 1,
		      "scheme %u: %lu applications, %lu aggregations", k,
		      st->nr_applies, sim.nr_aggr);
	}
	hs_sim_free(&sim);
	hs_workload_free(&wl);
	free(s.e);
}

int main(void)
{
	RUN(test_every_event);
	RUN(test_scores);
	RUN(test_stats_add_up);
	return CHECK_DONE();
}
