// SPDX-License-Identifier: GPL-2.0
/*
 * rank_json.c - hotscore rank --json: the input and profiles, each
 * snapshot's picks with their regions as they are ranked (a document
 * streamed through jansson), and what the ranking assumed.
 */
#include <stdio.h>

#include <jansson.h>

#include <hotscore/json_out.h>
#include <hotscore/record.h>

#include "../cmd_rank.h"

/* One pick of a snapshot: its counts, then each region, as it goes. */
static void json_pick(struct rank_run *run, unsigned int k)
{
	const struct rank_pick *pk = &run->picks[k];
	struct hs_json_stream *js = &run->js;
	size_t i;

	hs_json_open(js, NULL, true, false);
	hs_json_members(js, json_pack(
		"{s:o, s:I, s:o, s:I, s:o, s:o, s:o, s:o, s:o, s:o}",
		"profile", hs_json_text(rank_pick_prof(run, k)->name),
		"scheme", (json_int_t)rank_pick_scheme(run, k),
		"esz", hs_json_u64(pk->esz),
		"min_score", (json_int_t)pk->min_score,
		"eligible_regions", hs_json_u64(pk->nr_eligible),
		"eligible_bytes", hs_json_u64(pk->sz_eligible),
		"picked_regions", hs_json_u64(pk->nr_picked),
		"picked_bytes", hs_json_u64(pk->sz_picked),
		"traps", hs_json_u64(pk->nr_traps),
		"out_of_range", hs_json_u64(pk->nr_out)));
	/* a region: target, start, end, nr_accesses, age, score, picked */
	hs_json_open(js, "regions", false, false);
	for (i = 0; i < run->nr; i++) {
		const struct hs_damos_region *r = &run->r[i];

		hs_json_put(js, NULL, json_pack("[I, o, o, I, I, i, o]",
			(json_int_t)run->from[i].target, hs_json_u64(r->start),
			hs_json_u64(r->end), (json_int_t)r->nr_accesses,
			(json_int_t)r->age, pk->score[i],
			hs_json_u64(pk->picked[i])));
	}
	hs_json_close(js);
	hs_json_close(js);
}

/**
 * rank_json_snapshot() - a snapshot: its record, index and times, then
 * each pick with its regions, written as it goes.
 * @run:	the ranking, after the snapshot's; --json is begun.
 * @s:		the snapshot (its first target's).
 */
void rank_json_snapshot(struct rank_run *run,
			const struct hs_rec_snapshot *s)
{
	unsigned int k;

	hs_json_open(&run->js, NULL, true, false);
	hs_json_members(&run->js, json_pack("{s:o, s:o, s:o, s:o}",
		"record", hs_json_u64(s->record),
		"index", hs_json_u64(s->index),
		"start_ns", hs_json_u64(s->start_ns),
		"end_ns", hs_json_u64(s->end_ns)));
	hs_json_open(&run->js, "picks", false, true);
	for (k = 0; k < run->nr_picks; k++)
		json_pick(run, k);
	hs_json_close(&run->js);
	hs_json_close(&run->js);
}

/**
 * rank_json_begin() - --json: the input and profiles; the snapshots
 * follow as they are ranked.
 * @run:	the ranking; run->c->json_f is open.
 * @compressed:	whether the input is json_compressed.
 */
void rank_json_begin(struct rank_run *run, bool compressed)
{
	json_t *profiles = json_array();
	unsigned int i;

	for (i = 0; i < run->c->nr_prof; i++)
		json_array_append_new(profiles,
				      hs_json_text(run->c->prof[i].name));
	hs_json_stream_init(&run->js, run->c->json_f, 0);
	hs_json_open(&run->js, NULL, true, false);
	hs_json_members(&run->js, json_pack("{s:o, s:s, s:o, s:s}",
		"input", hs_json_text(run->c->input),
		"format", compressed ? "json_compressed" : "json",
		"profiles", profiles,
		"quota", run->c->carry ? "carried" : "fresh"));
	hs_json_open(&run->js, "snapshots", false, true);
}

/* --sweep_weights: the grid, rows the nr_accesses weight, columns age. */
static json_t *json_sweep(const struct rank_run *run)
{
	const struct rank_sweep *sw = &run->sweep;
	json_t *weights = json_array(), *picked = json_array();
	json_t *differ = json_array();
	unsigned int i, j;

	for (i = 0; i < RANK_SWEEP_N; i++) {
		json_t *p = json_array(), *d = json_array();

		json_array_append_new(weights,
				      json_integer(rank_sweep_weights[i]));
		for (j = 0; j < RANK_SWEEP_N; j++) {
			json_array_append_new(p, hs_json_u64(sw->picked[i][j]));
			json_array_append_new(d, hs_json_u64(sw->differ[i][j]));
		}
		json_array_append_new(picked, p);
		json_array_append_new(differ, d);
	}
	return json_pack("{s:o, s:I, s:{s:I, s:I}, s:o, s:o, s:o, s:o, s:o}",
		"profile", hs_json_text(run->c->prof[0].name),
		"scheme", (json_int_t)0, "yours",
		"nr_accesses", (json_int_t)run->schemes[0].quota.weight_nr,
		"age", (json_int_t)run->schemes[0].quota.weight_age,
		"weights", weights, "snapshots", hs_json_u64(sw->snapshots),
		"picked_bytes", picked, "differ_bytes", differ,
		"traps", hs_json_u64(sw->traps));
}

/**
 * rank_json_end() - --json's end: --sweep_weights' grid, and what the
 * ranking assumed.
 * @run:	the ranking, after every context.
 */
void rank_json_end(struct rank_run *run)
{
	json_t *assumed = json_array();
	unsigned int a;

	for (a = 0; a < RANK_NR_ASSUMPTIONS; a++)
		if (run->assumed[a])
			json_array_append_new(assumed, hs_json_text(
				rank_assumption_text[a]));
	hs_json_close(&run->js);
	if (run->c->sweep)
		hs_json_put(&run->js, "sweep", json_sweep(run));
	hs_json_put(&run->js, "assumed", assumed);
	hs_json_close(&run->js);
}

/**
 * rank_trace_json_begin() - --json with --damos_trace: the trace and the
 * kdamond; each profile follows as it is walked.
 * @rt:		the ranking; rt->c->json_f is open.
 */
void rank_trace_json_begin(struct rank_trace *rt)
{
	const struct rank_cmd *c = rt->c;

	hs_json_stream_init(&rt->js, c->json_f, 0);
	hs_json_open(&rt->js, NULL, true, false);
	hs_json_members(&rt->js, json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		"damos_trace", hs_json_text(c->trace),
		"samples", hs_json_u64(rt->t.nr_iters),
		"applications", hs_json_u64(rt->t.nr_applies),
		"sample_us", hs_json_u64(c->kd.sample_us),
		"aggr_us", hs_json_u64(c->kd.aggr_us),
		"hz", hs_json_u64(c->kd.hz),
		"min_region_sz", hs_json_u64(c->kd.min_region)));
	hs_json_open(&rt->js, "profiles", false, true);
}

/**
 * rank_trace_json_profile() - a profile's start: its name, then its
 * applications as they come.
 * @rt:		the ranking, at profile rt->k.
 */
void rank_trace_json_profile(struct rank_trace *rt)
{
	hs_json_open(&rt->js, NULL, true, false);
	hs_json_put(&rt->js, "profile",
		    hs_json_text(rt->c->prof[rt->k].name));
	/* sample, scheme, window, start, end, nr_accesses, age, score,
	 * min_score, picked, kernel */
	hs_json_open(&rt->js, "applications", false, false);
}

/** rank_trace_json_row() - one application of either side (as --csv). */
void rank_trace_json_row(struct rank_trace *rt,
			 const struct hs_replay_pick *p)
{
	unsigned long sz = p->end - p->start;

	hs_json_put(&rt->js, NULL, json_pack("[o, I, o, o, o, I, I, o, o, o, o]",
		hs_json_u64(p->sis), (json_int_t)p->scheme,
		hs_json_u64(p->window), hs_json_u64(p->start),
		hs_json_u64(p->end), (json_int_t)p->nr_accesses,
		(json_int_t)p->age,
		p->score >= 0 ? json_integer(p->score) : json_null(),
		p->min_score >= 0 ? json_integer(p->min_score) : json_null(),
		hs_json_u64(p->picked ? sz : 0),
		hs_json_u64(p->kernel ? sz : 0)));
}

/**
 * rank_trace_json_counts() - a profile's end: per scheme, its picks
 * against the kernel's.
 * @rt:		the ranking, profile rt->k walked.
 */
void rank_trace_json_counts(struct rank_trace *rt)
{
	json_t *schemes = json_array();
	unsigned int s;

	hs_json_close(&rt->js);
	for (s = 0; schemes && s < rt->c->nr_schemes; s++) {
		const struct rank_trace_count *n = &rt->count[rt->k][s];

		json_array_append_new(schemes, json_pack(
			"{s:I, s:o, s:o, s:o, s:o, s:o, s:o}",
			"scheme", (json_int_t)s, "picks", hs_json_u64(n->picks),
			"picked_bytes", hs_json_u64(n->sz_picks),
			"kernel", hs_json_u64(n->kernel),
			"kernel_bytes", hs_json_u64(n->sz_kernel),
			"marked", hs_json_u64(n->marked),
			"marked_bytes", hs_json_u64(n->sz_marked)));
	}
	hs_json_put(&rt->js, "schemes", schemes);
	hs_json_put(&rt->js, "windows", hs_json_u64(rt->windows[rt->k]));
	hs_json_put(&rt->js, "traps", hs_json_u64(rt->traps[rt->k]));
	hs_json_close(&rt->js);
}

/** rank_trace_json_end() - --json's end, after every profile. */
void rank_trace_json_end(struct rank_trace *rt)
{
	hs_json_close(&rt->js);
	hs_json_close(&rt->js);
}
