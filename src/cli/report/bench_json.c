// SPDX-License-Identifier: GPL-2.0
/*
 * bench_json.c - `hotscore bench --json`: every figure of the run, through
 * jansson.  The schema is documented in docs/bench.md.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include <hotscore/json_out.h>

#include "../cmd_bench.h"
#include "../bench_report.h"
#include "../cli.h"
#include "../opt.h"

/* The 0-based index of @r's variant in the run's list. */
static unsigned int variant_index(const struct bench *b,
				  const struct bench_result *r)
{
	unsigned int v;

	for (v = 0; v < b->nr_variants && b->variants[v] != r->variant; v++)
		;
	return v;
}

/*
 * The JSON report is built as a jansson tree and dumped whole: jansson
 * writes every key, comma and escape, so no writer here spells one.
 */

/* ns figures: 4 decimals of a nanosecond. */
static json_t *jns(const struct bench *b, uint64_t mt)
{
	return hs_json_fixed(bench_ns(b, mt), 4);
}

static json_t *json_ns_stats(const struct bench *b, const struct hs_summary *s)
{
	if (!s->n)	/* every sample measured 0 */
		return json_pack("{s:n,s:n,s:n,s:n,s:n,s:n,s:n}", "median",
				 "min", "max", "q1", "q3", "mad", "tmean_20_80");
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
			 "median", jns(b, s->median), "min", jns(b, s->min),
			 "max", jns(b, s->max), "q1", jns(b, s->q1),
			 "q3", jns(b, s->q3), "mad", jns(b, s->mad),
			 "tmean_20_80", jns(b, s->tmean));
}

/* The machine, as measured or as the module's results give it. */
static json_t *json_environment(const struct bench *b)
{
	const struct hs_host *h = &b->host;

	return json_pack("{s:o,s:i,s:b,s:o,s:o,s:o,s:b,s:o,s:o,s:b,s:b,s:b,"
			 "s:o,s:o,s:o,s:o,s:o,s:o}",
			 "cpu_model", hs_json_text(h->cpu_model), "cpu", h->cpu,
			 "hypervisor", h->hypervisor,
			 "governor", hs_json_text(h->governor),
			 "clock", hs_json_text(h->clock.name),
			 "clock_hz", hs_json_u64(h->clock.hz), "tsc", h->clock.tsc,
			 "tsc_hz", h->clock.tsc ? hs_json_u64(h->clock.hz) : json_null(),
			 "clock_step_ticks", hs_json_u64(h->clock.step),
			 "invariant_tsc", h->invariant_tsc,
			 "aslr", b->layout == HS_LAYOUT_RANDOM,
			 "reexecuted", b->layout == HS_LAYOUT_REEXECUTED,
			 "counters", hs_json_text(h->perf), "kernel", hs_json_text(h->kernel),
			 "compiler", hs_json_text(b->compiler),
			 "cflags", hs_json_text(b->cflags),
			 /* what fast-batch scores with, and the flags around it */
			 "vector", hs_json_text(b->vector.impl),
			 "cpu_flags", hs_json_text(b->vector.flags));
}

static json_t *json_config(const struct bench *b)
{
	json_t *v = json_array(), *d = json_array(), *m = json_array();
	unsigned int i;

	for (i = 0; i < b->nr_variants; i++)
		json_array_append_new(v, hs_json_text(b->variants[i]->name));
	for (i = 0; i < b->nr_dists; i++)
		json_array_append_new(d, hs_json_text(b->dists[i].name));
	for (i = 0; i < b->nr_modes; i++)
		json_array_append_new(m, json_string(hs_mode_name(b->modes[i])));
	static const char *const stop[] = { "fixed", "precision", "budget",
					    "limit" };
	json_t *c;

	c = json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:b,s:o,s:o,s:o,s:o,s:s,s:i,s:o,s:o,s:o,s:o}",
			 "iterations", hs_json_u64(b->iterations),
			 "measure_ns", hs_json_u64(b->blocks_ns),
			 "rounds_ns", hs_json_u64(b->stream_ns),
			 "invocations", hs_json_u64(b->invocations),
			 "placements", hs_json_u64(b->placements),
			 "rounds", hs_json_u64(b->rounds),
			 "warmup_us", hs_json_u64(b->warmup_us),
			 "module_blocks", b->module_blocks,
			 "batch_n", hs_json_u64(b->n),
			 "pool", hs_json_u64(b->pool), "seed", hs_json_u64(b->seed),
			 "order_seed", hs_json_u64(b->order_seed),
			 "method", b->ktime ? "ktime" : "batch",
			 "batch_regions", HS_BATCH_REGIONS,
			 "prepared_bytes", hs_json_u64(sizeof(struct hs_prep)),
			 "variants", v, "dists", d, "modes", m);
	if (c)
		json_object_set_new(c, "budget", json_pack(
			"{s:s,s:f,s:f,s:o}", "stop", stop[b->stop],
			"budget_s", (double)b->budget_us / 1e6,
			"precision_percent", (double)b->precision_ppm / 1e4,
			"widest_percent", b->widest ?
			json_real((double)b->widest_ppm / 1e4) : json_null()));
	return c;
}

static json_t *json_classes(const struct bench *b,
			    const struct bench_result *r)
{
	json_t *classes = json_array();
	uint64_t total = 0;
	unsigned int c;
	char name[64];

	for (c = 0; c < r->cls->nr; c++) {
		total += r->cls->c[c].count;
		hs_class_name(r->cls->c[c].key, name, sizeof(name));
		json_array_append_new(classes, json_pack("{s:o,s:o,s:o}",
			"class", hs_json_text(name), "count", hs_json_u64(r->cls->c[c].count),
			"ns_per_call", jns(b, r->cls_mt[c])));
	}
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
			 "iterations", hs_json_u64(total),
			 "average_ns", jns(b, r->cls_mean),
			 "p95_ns", jns(b, r->cls_p95), "p99_ns", jns(b, r->cls_p99),
			 "min_ns", jns(b, r->cls_min), "max_ns", jns(b, r->cls_max),
			 "classes", classes);
}

static json_t *json_ktime(const struct bench_ktime *k)
{
	json_t *buckets = json_array();
	unsigned int i;

	for (i = 0; i < BENCH_KTIME_BUCKETS; i++)
		json_array_append_new(buckets, hs_json_u64(k->buckets[i]));
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
			 "average_ns", hs_json_fixed((double)k->average_ns_x1000 / 1000, 3),
			 "p95_ns", hs_json_u64(k->p95_ns), "p99_ns", hs_json_u64(k->p99_ns),
			 "min_ns", hs_json_u64(k->min_ns), "max_ns", hs_json_u64(k->max_ns),
			 "samples", hs_json_u64(k->samples), "buckets", buckets);
}

/* TSC cycles a call; null where the clock is no TSC or no sample was above 0. */
static json_t *json_cycles(const struct bench *b, const struct bench_result *r)
{
	if (!b->host.clock.tsc)
		return json_pack("{s:n,s:n}", "median", "source");
	if (!r->ns.n)
		return json_pack("{s:n,s:n,s:n,s:s}", "median", "min", "max",
				 "source", "tsc");
	return json_pack("{s:o,s:o,s:o,s:s}",
			 "median", hs_json_fixed(tsc_cycles(r->ns.median), 3),
			 "min", hs_json_fixed(tsc_cycles(r->ns.min), 3),
			 "max", hs_json_fixed(tsc_cycles(r->ns.max), 3), "source", "tsc");
}

/*
 * Each invocation's median ns a call (or region): what `bench compare`
 * resamples when it sets this run against another (an invocation's null:
 * none of its samples above 0; the whole null: no samples kept).
 */
static json_t *json_invocations(const struct bench *b,
				const struct bench_result *r)
{
	size_t per = r->n / (b->invocations ? b->invocations : 1), k, i, m;
	uint64_t *v, *scratch;
	json_t *a;

	if (!r->mt)
		return json_null();
	v = cli_xcalloc(per + 1, sizeof(*v));
	scratch = cli_xcalloc(2 * per + 1, sizeof(*scratch));
	a = json_array();

	for (k = 0; per && k < b->invocations; k++) {
		for (i = m = 0; i < per; i++)	/* a sample of 0: noise */
			if (r->mt[k * per + i])
				v[m++] = r->mt[k * per + i];
		json_array_append_new(a, m ? jns(b, hs_median(v, m, scratch)) :
				      json_null());
	}
	free(scratch);
	free(v);
	return a;
}

static json_t *json_result(const struct bench *b,
			   const struct bench_result *r)
{
	json_t *o = json_pack("{s:o,s:o,s:s,s:s,s:o,s:o,s:i}",
		"variant", hs_json_text(r->name), "dist", hs_json_text(b->dists[r->dist].name),
		"mode", hs_mode_name(r->mode),
		"role", r->door ? "door" : !r->variant ? "empty-call baseline" :
			r->baseline ? "baseline" : "variant",
		"samples", hs_json_u64(r->n), "nonpositive_samples", hs_json_u64(r->nonpositive),
		"regions_per_call", r->variant ? hs_variant_regions(r->variant) : 1);

	if (r->variant && r->variant->vector)	/* what fast-batch used here */
		json_object_set_new(o, "vector", json_string(hs_fast_impl_name(
			b->dists[r->dist].calls[variant_index(b, r)].impl)));
	if (r->variant) {	/* a candidate's door, and what it differs on */
		json_object_set_new(o, "door", json_boolean(
			r->variant->call == HS_CALL_DOOR));
		json_object_set_new(o, "differs", b->differs[variant_index(
			b, r)][0] ? hs_json_text(b->differs[variant_index(b, r)]) :
			json_null());
	}
	json_object_set_new(o, "invocation_ns", json_invocations(b, r));
	json_object_set_new(o, "ns_per_call", json_ns_stats(b, &r->ns));
	json_object_set_new(o, "cycles_per_call", json_cycles(b, r));
	json_object_set_new(o, "counters", !r->counters ? json_null() :
		json_pack("{s:o,s:o}",
			  "cycles", hs_json_fixed((double)r->cycles_median / 1000, 3),
			  "instructions", hs_json_fixed((double)r->ins_median / 1000, 3)));
	json_object_set_new(o, "scale_2n_over_n",
			    hs_json_fixed((double)r->scale_median / 1000, 3));
	json_object_set_new(o, "check", hs_json_text(check_of(r)));
	if (r->variant && r->cls)
		json_object_set_new(o, "seed_report", json_classes(b, r));
	if (r->has_ktime)
		json_object_set_new(o, "ktime", json_ktime(&r->ktime));
	return o;
}

/* Variant @r against the first, paired: the ratio and its interval. */
/* A ratio and its interval, or nulls for what is not there. */
static json_t *json_estimate(const struct hs_estimate *e)
{
	bool interval = e->low || e->high;
	bool rerun = e->rerun_low || e->rerun_high;

	return json_pack("{s:o,s:o,s:o,s:o,s:o}", "value", e->value ?
			 hs_json_fixed(bench_ppm(e->value), 6) : json_null(),
			 "low", interval ? hs_json_fixed(bench_ppm(e->low), 6) :
			 json_null(), "high", interval ?
			 hs_json_fixed(bench_ppm(e->high), 6) : json_null(),
			 "rerun_low", rerun ?
			 hs_json_fixed(bench_ppm(e->rerun_low), 6) : json_null(),
			 "rerun_high", rerun ?
			 hs_json_fixed(bench_ppm(e->rerun_high), 6) :
			 json_null());
}

/* What the units of @cs say beyond the estimate: layout, time, states. */
static void json_units(json_t *o, const struct hs_cell_stats *cs)
{
	json_t *st = json_array();
	unsigned int i;

	for (i = 0; cs->state_n[0] && i < 2; i++)
		json_array_append_new(st, json_pack("{s:o,s:o}", "units",
			hs_json_u64(cs->state_n[i]), "ratio",
			hs_json_fixed(bench_ppm(cs->state[i]), 6)));
	json_object_set_new(o, "units", hs_json_u64(cs->units));
	json_object_set_new(o, "df", hs_json_u64(cs->df));
	json_object_set_new(o, "layout", cs->layout_low ? json_pack(
		"{s:o,s:o,s:f}", "low", hs_json_fixed(bench_ppm(cs->layout_low), 6),
		"high", hs_json_fixed(bench_ppm(cs->layout_high), 6),
		"sd_percent", (double)cs->layout_sd / 1e4) : json_null());
	json_object_set_new(o, "von_neumann", cs->vn ?
			    json_real((double)cs->vn / 1000) : json_null());
	json_object_set_new(o, "drifts_over_run", json_boolean(cs->trend));
	json_object_set_new(o, "states", st);
}

/* The variance components as standard deviations, ppm of the ratio. */
static json_t *json_components(const struct hs_cell_stats *cs)
{
	return json_pack("{s:f,s:f,s:f,s:f,s:f}",
		"placement", sqrt((double)cs->var_placement) / (double)HS_PPM,
		"invocation", sqrt((double)cs->var_block) / (double)HS_PPM,
		"interaction", sqrt((double)cs->var_residual) / (double)HS_PPM,
		"rounds", sqrt((double)cs->var_within) / (double)HS_PPM,
		"round", sqrt((double)cs->var_round) / (double)HS_PPM);
}

/* The blocks unlike the rest, 1-based, of the first 64. */
static json_t *json_outliers(const struct hs_cell_stats *cs)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < 64; i++)
		if (cs->outliers & (1ULL << i))
			json_array_append_new(a, json_integer(i + 1));
	return a;
}

/*
 * A comparison: ratio, ci_low and ci_high are the printed estimate and
 * interval (kept under these names for earlier readers); "interval" says
 * what the interval is of.
 */
static json_t *json_comparison(const struct bench *b,
			       const struct bench_result *r)
{
	const struct hs_cell_stats *cs = &r->cells;
	bool interval = r->ci_low || r->ci_high;
	bool rerun = cs->ratio.rerun_low || cs->ratio.rerun_high;
	json_t *o;

	o = json_pack("{s:o,s:o,s:o,s:s,s:o,s:o,s:o,s:s,s:f,s:o,s:f,s:s,s:o,s:o,s:i,s:o,s:o}",
		"baseline", hs_json_text(b->variants[0]->name), "variant", hs_json_text(r->name),
		"dist", hs_json_text(b->dists[r->dist].name), "mode", hs_mode_name(r->mode),
		/* no round to compare: no ratio */
		"ratio", r->rounds ? hs_json_fixed(bench_ppm(r->ratio), 6) : json_null(),
		"ci_low", interval ? hs_json_fixed(bench_ppm(r->ci_low), 6) : json_null(),
		"ci_high", interval ? hs_json_fixed(bench_ppm(r->ci_high), 6) : json_null(),
		"interval", hs_interval_name(b->interval.kind),
		"confidence", 0.95, "rounds", hs_json_u64(r->rounds),
		"noise_band", 0.01, "verdict", hs_verdict_name(r->verdict),
		"net", json_estimate(&cs->net),
		"empty_ns", jns(b, empty_of(b, r)->ns.median),
		"kj_rounds", (int)kj_rounds(b, r),
		"components", json_components(cs),
		"unlike_the_rest", json_outliers(cs));
	if (!o)
		return NULL;
	json_object_set_new(o, "rerun_low", rerun ?
		hs_json_fixed(bench_ppm(cs->ratio.rerun_low), 6) : json_null());
	json_object_set_new(o, "rerun_high", rerun ?
		hs_json_fixed(bench_ppm(cs->ratio.rerun_high), 6) : json_null());
	json_units(o, cs);
	return o;
}

/* The A/A pairs: the baseline against itself, and each mode's excess. */
static json_t *json_aa(const struct bench *b)
{
	json_t *a = json_array();
	unsigned int di, mi;

	for (mi = 0; b->aa && mi < b->nr_modes; mi++)
		for (di = 0; di < b->nr_dists; di++) {
			const struct bench_result *r = bench_aa_at(b, di, mi);

			json_array_append_new(a, json_pack(
				"{s:o,s:s,s:o,s:f}", "dist",
				hs_json_text(b->dists[di].name), "mode",
				hs_mode_name(b->modes[mi]), "ratio",
				json_estimate(&r->cells.ratio),
				"excess_sd_percent", 100 * M_LN2 *
				sqrt((double)b->aa_var[mi]) / HS_LOG_ONE));
		}
	return a;
}

/* Every (dist, mode, variant) result, and every paired comparison. */
static void json_results(const struct bench *b, json_t *results,
			 json_t *comparisons)
{
	unsigned int di, mi, v;

	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			for (v = 0; v <= b->nr_variants; v++)
				json_array_append_new(results, json_result(b,
					bench_at((struct bench *)b, di, mi, v)));
	for (di = 0; b->doors && di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			json_array_append_new(results, json_result(b,
				bench_door_at(b, di, mi)));
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			for (v = 2; v <= b->nr_variants; v++)
				json_array_append_new(comparisons,
					json_comparison(b, bench_at(
						(struct bench *)b, di, mi, v)));
}

/** bench_write_json() - every figure, the configuration and the machine. */
void bench_write_json(struct bench *b, FILE *f)
{
	json_t *results = json_array(), *comparisons = json_array();
	json_t *root;

	json_results(b, results, comparisons);
	root = json_pack("{s:s,s:i,s:o,s:o,s:o,s:o,s:o}",
			 "tool", "hotscore bench", "schema", 2,
			 "command", hs_json_text(b->command),
			 "environment", json_environment(b),
			 "config", json_config(b),
			 "results", results, "comparisons", comparisons);
	if (!root)
		cli_die("out of memory");
	json_object_set_new(root, "aa", b->aa ? json_aa(b) : json_null());
	if (b->accuracy && b->core_hz)
		json_object_set_new(root, "accuracy", json_pack("{s:i,s:o,s:o}",
			"add_chain", HS_ADD_CHAIN_LEN,
			"core_hz", hs_json_u64(b->core_hz),
			"cycles_per_add", hs_json_fixed(bench_ppm(b->add_ppm), 4)));
	hs_json_write_doc(f, root, JSON_COMPACT);
}
