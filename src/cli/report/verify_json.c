// SPDX-License-Identifier: GPL-2.0
/*
 * verify_json.c - `hotscore verify --json`: every count and example, through
 * jansson (docs/verify.md).
 */
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include <hotscore/json_out.h>
#include <hotscore/verify.h>

#include "../cli.h"
#include "../cmd_verify.h"

/* The example's fields, and a `hotscore score` command per profile. */
static void json_example(json_t *o, const char *const *profiles,
			 unsigned int nr, const struct hs_input *in)
{
	char args[512], cmd[700];
	json_t *cmds = json_array();
	unsigned int i;

	cli_score_args(in, args, sizeof(args));
	json_object_set_new(o, "example", json_pack(
		"{s:o, s:o, s:I, s:I, s:I, s:o, s:o, s:I, s:I}",
		"sample_us", hs_json_u64(in->sample_us),
		"aggr_us", hs_json_u64(in->aggr_us),
		"nr_accesses", (json_int_t)in->nr_accesses,
		"last_nr_accesses", (json_int_t)in->last_nr_accesses,
		"age", (json_int_t)in->age,
		"passed_sis", hs_json_u64(in->passed_sis),
		"next_aggr_sis", hs_json_u64(in->next_aggr_sis),
		"weight_nr_accesses", (json_int_t)in->weight_nr_accesses,
		"weight_age", (json_int_t)in->weight_age));
	for (i = 0; i < nr; i++) {
		snprintf(cmd, sizeof(cmd), "%s score --profile %s%s%s",
			 cli_prog(), profiles[i], *args ? " " : "", args);
		json_array_append_new(cmds, hs_json_text(cmd));
	}
	json_object_set_new(o, "commands", cmds);
}

static json_t *json_profiles(const struct verify *v)
{
	json_t *list = json_array();
	unsigned int a;

	for (a = 0; a < v->cfg.nr; a++) {
		char spec[96];

		hs_components_format(&v->cfg.comp[a], spec, sizeof(spec));
		json_array_append_new(list, json_pack("{s:o, s:s}",
			"name", hs_json_text(v->specs[a].given), "components", spec));
	}
	return list;
}

static json_t *json_domains(const struct verify *v)
{
	const struct hs_verify_result *res = &v->res;
	json_t *o = json_object();
	unsigned int d;

	for (d = 0; d < HS_NR_DOMAINS; d++)
		json_object_set_new(o, hs_domain_name(d), json_pack(
			"{s:o, s:o, s:o}",
			"inputs", hs_json_u64(res->inputs[d]),
			"seconds", hs_json_fixed(res->seconds[d], 3),
			"per_second_per_thread", hs_json_fixed(
				res->seconds[d] > 0 ? (double)res->inputs[d] /
				res->seconds[d] / v->cfg.threads : 0, 0)));
	return o;
}

static json_t *json_agelog(const struct verify *v)
{
	const struct hs_verify_result *res = &v->res;
	json_t *list = json_array();
	unsigned int k;

	for (k = 0; k < HS_NR_AGELOG_WAYS; k++) {
		if (!res->agelog.mismatches[k])
			continue;
		json_array_append_new(list, json_pack("{s:s, s:o, s:I}",
			"way", hs_agelog_name(k / HS_NR_FLS_IMPL,
					      k % HS_NR_FLS_IMPL),
			"count", hs_json_u64(res->agelog.mismatches[k]),
			"first", (json_int_t)res->agelog.first[k]));
	}
	return json_pack("{s:o, s:I, s:b, s:o}",
			 "values", hs_json_u64(res->agelog.values),
			 "ways", (json_int_t)res->agelog.ways,
			 "equal", agelog_equal(res), "mismatches", list);
}

static json_t *json_pair(const struct verify *v, unsigned int a,
			 unsigned int b)
{
	const struct hs_pair_stats *ps = &v->res.pair[a][b];
	const char *two[2] = { v->specs[a].given, v->specs[b].given };
	json_t *classes = json_array(), *cl;
	unsigned int k;

	for (k = 0; k < HS_NR_PAIR_CLASSES; k++) {
		if (!ps->count[k])
			continue;
		cl = json_pack("{s:s, s:s, s:o}",
			"a_status", hs_status_code_name(k / HS_NR_STATUS_CODES),
			"b_status", hs_status_code_name(k % HS_NR_STATUS_CODES),
			"count", hs_json_u64(ps->count[k]));
		json_example(cl, two, 2, &ps->ex[k].in);
		json_array_append_new(classes, cl);
	}
	return json_pack("{s:o, s:o, s:b, s:o, s:o, s:b, s:o}",
			 "a", hs_json_text(v->specs[a].given), "b", hs_json_text(v->specs[b].given),
			 "claimed_equal", claimed(v, a, b),
			 "inputs", hs_json_u64(ps->inputs),
			 "agree", hs_json_u64(ps->agree),
			 "equal", pair_equal(ps), "classes", classes);
}

static json_t *json_pairs(const struct verify *v)
{
	json_t *list = json_array();
	unsigned int a, b;

	for (a = 0; a < v->cfg.nr; a++)
		for (b = a + 1; b < v->cfg.nr; b++)
			json_array_append_new(list, json_pair(v, a, b));
	return list;
}

static json_t *json_invariants(const struct verify *v)
{
	json_t *list = json_array(), *o;
	unsigned int a, k;

	for (a = 0; a < v->cfg.nr; a++)
		for (k = 0; k < HS_NR_INVARIANTS; k++) {
			const struct hs_inv_stats *is = &v->res.inv[a][k];
			const char *one[1] = { v->specs[a].given };

			o = json_pack("{s:o, s:s, s:o, s:o}",
				      "profile", hs_json_text(v->specs[a].given),
				      "invariant", hs_invariant_name(k),
				      "checked", hs_json_u64(is->checked),
				      "violations", hs_json_u64(is->violations));
			if (is->violations)
				json_example(o, one, 1, &is->ex.in);
			json_array_append_new(list, o);
		}
	return list;
}

/*
 * Profile @a's batch scorers: the grid inputs each scored, the inputs
 * where one differed, and the first of them with the scorer.
 */
static json_t *json_batches(const struct verify *v, unsigned int a)
{
	const struct hs_fast_stats *fs = &v->res.fast[a];
	const char *one[1] = { v->specs[a].given };
	json_t *o, *grid = json_object(), *differ = json_object();
	unsigned int k;

	for (k = 0; k < HS_NR_FAST_IMPLS; k++) {
		if (!(v->cfg.batch_impls & (1u << k)))
			continue;
		json_object_set_new(grid, hs_fast_impl_name(k),
				    hs_json_u64(fs->batch[k]));
		json_object_set_new(differ, hs_fast_impl_name(k),
				    hs_json_u64(fs->batch_mismatches[k]));
	}
	o = json_pack("{s:o, s:o}", "grid", grid, "mismatches", differ);
	if (fs->batch_ex.found) {
		json_object_set_new(o, "scorer", json_string(
			hs_fast_impl_name(fs->batch_impl)));
		json_example(o, one, 1, &fs->batch_ex.in);
	}
	return o;
}

static json_t *json_fast(const struct verify *v)
{
	json_t *list = json_array(), *o;
	unsigned int a;

	for (a = 0; v->cfg.fast && a < v->cfg.nr; a++) {
		const struct hs_fast_stats *fs = &v->res.fast[a];
		const char *one[1] = { v->specs[a].given };

		o = json_pack("{s:o, s:o, s:o, s:{s:o, s:o}, s:o}",
			      "profile", hs_json_text(v->specs[a].given),
			      "grid", hs_json_u64(fs->inputs[HS_DOM_GRID]),
			      "random", hs_json_u64(fs->inputs[HS_DOM_RANDOM]),
			      "schemes",
			      "grid", hs_json_u64(fs->schemes[HS_DOM_GRID]),
			      "random", hs_json_u64(fs->schemes[HS_DOM_RANDOM]),
			      "mismatches", hs_json_u64(fs->mismatches));
		if (fs->mismatches)
			json_example(o, one, 1, &fs->ex.in);
		json_object_set_new(o, "batches", json_batches(v, a));
		json_array_append_new(list, o);
	}
	return list;
}

/* The names of the profiles of @mask, as a JSON array. */
static json_t *json_names(const struct verify *v, unsigned int mask)
{
	json_t *list = json_array();
	unsigned int a;

	for (a = 0; a < v->cfg.nr; a++)
		if (has(mask, a))
			json_array_append_new(list, hs_json_text(v->specs[a].given));
	return list;
}

/* The summary table's row for @a, as an object. */
static json_t *json_summary_row(const struct verify *v,
				const struct classes *c, unsigned int a)
{
	json_t *differs = json_array(), *broken = json_array();
	unsigned int b, k;

	for (b = 0; b < v->cfg.nr; b++)
		if (c->of[b] != c->of[a])
			json_array_append_new(differs, json_pack(
				"{s:o, s:o, s:o}",
				"profile", hs_json_text(v->specs[b].given),
				"inputs", hs_json_u64(differ(v, a, b)),
				"compared", hs_json_u64(pair_of(v, a, b)->inputs)));
	for (k = 0; k < HS_NR_INVARIANTS; k++)
		if (v->res.inv[a][k].violations)
			json_array_append_new(broken, json_pack(
				"{s:s, s:o}", "invariant", hs_invariant_name(k),
				"violations",
				hs_json_u64(v->res.inv[a][k].violations)));
	return json_pack("{s:o, s:o, s:o, s:o, s:o}",
			 "name", hs_json_text(v->specs[a].given),
			 "equal_to", json_names(v, c->members[c->of[a]] &
						~(1U << a)),
			 "differs_from", differs,
			 "invariants_violated", broken,
			 "prepared_mismatches", v->cfg.fast ?
			 hs_json_u64(v->res.fast[a].mismatches) : json_null());
}

/* "summary", one row per profile, and "groups", the classes, into @doc. */
static void json_summary(const struct verify *v, json_t *doc)
{
	json_t *rows = json_array(), *groups = json_array();
	struct classes c;
	unsigned int a, x;

	find_classes(v, &c);
	for (a = 0; a < v->cfg.nr; a++)
		json_array_append_new(rows, json_summary_row(v, &c, a));
	for (x = 0; x < c.nr; x++)
		json_array_append_new(groups, json_names(v, c.members[x]));
	json_object_set_new(doc, "summary", rows);
	json_object_set_new(doc, "groups", groups);
}

/**
 * verify_write_json() - --json: every count and example (docs/verify.md).
 * @v:		the run, its result in.
 * @f:		where.
 *
 * Return: 0, or -1 (out of memory, or a write error).
 */
int verify_write_json(const struct verify *v, FILE *f)
{
	json_t *doc;

	doc = json_pack("{s:s, s:i, s:o, s:o, s:b, s:I, s:o, s:o, s:o, s:o,"
			" s:o, s:o}", "tool", "hotscore verify", "schema", 1,
			"command", hs_json_text(v->command),
			"seed", hs_json_u64(v->cfg.seed), "quick", v->cfg.quick,
			"threads", (json_int_t)v->cfg.threads,
			"profiles", json_profiles(v),
			"domains", json_domains(v), "agelog", json_agelog(v),
			"pairs", json_pairs(v),
			"invariants", json_invariants(v), "fast", json_fast(v));
	if (doc) {
		json_summary(v, doc);
		json_object_set_new(doc, "ok", json_boolean(!verdict(v)));
	}
	return hs_json_write_doc(f, doc, JSON_COMPACT);
}
