// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_compare_records.c - hotscore compare-records REAL SIM: a real kdamond's record
 * (hotscore convert) against a simulated one of the same workload config
 * (hotscore sim --record), metric by metric, each against the bound of
 * src/record/compare.c's table.  Exit 1 when a row is outside its bound.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotscore/record_compare.h>
#include <hotscore/json_out.h>
#include <hotscore/spec.h>

#include "cli.h"
#include "damos_opt.h"
#include "input.h"
#include "opt.h"
#include "outfile.h"
#include "report/layout.h"

enum { O_INPUT, O_PROFILE, O_OPS, O_JSON };

static const struct opt compare_opts[] = {
	{ .id = O_INPUT, .name = "input", .type = OPT_STR, .arg = "RECORD",
	  .flags = OPT_REPEAT | OPT_INPUT, .words = "@file",
	  .help = "a damo record: given twice, REAL then SIM; also the bare"
		  " arguments", .example = "tests/data/records/sim-a.json" },
	{ .id = O_PROFILE, .name = "profile", .type = OPT_STR, .arg = "P",
	  .dflt = CLI_DEFAULT_PROFILE, .words = "@profiles",
	  .help = "the profile the scores are computed with", .example = "v6.6" },
	{ .id = O_OPS, .name = "ops", .type = OPT_STR, .arg = "OPS",
	  .dflt = "vaddr", .words = "vaddr paddr",
	  .help = "the operations of both runs: which score the action takes",
	  .example = "paddr" },
	CLI_DAMOS_OPTS,
	{ .id = O_JSON, .name = "json", .type = OPT_STR, .arg = "FILE",
	  .flags = OPT_OUTPUT | OPT_WRITE, .words = "@file",
	  .help = "every row, with its bound", .example = "cmp.json" },
};

struct compare_cmd {
	const char *path[2];		/* REAL, SIM */
	unsigned int nr_paths;
	const char *profile, *json;
	enum hs_ops ops;
	struct cli_schemes ss;
	struct hs_cmp_score sc;
	struct hs_cmp_side side[2];
	uint64_t window_ns;
	struct hs_cmp_row rows[HS_CMP_MAX_ROWS];
	size_t nr_rows;
};

static const char *const side_name[2] = { "REAL", "SIM" };

static void set(void *ctx, const struct opt *o, const struct opt_val *v,
		unsigned int nr)
{
	struct compare_cmd *c = ctx;

	if (cli_damos_take(&c->ss, o, v, nr))
		return;
	switch (o->id) {
	case O_INPUT:
		if (c->nr_paths == 2)
			cli_usage_die("two records, REAL and SIM; '%s' is a third",
				      v->s);
		c->path[c->nr_paths++] = v->s;
		break;
	case O_PROFILE: c->profile = v->s; break;
	case O_OPS:
		c->ops = cli_ops_parse(v->s);
		break;
	case O_JSON: c->json = v->s; break;
	}
}

/* The profile, the one scheme's action and weights: the score. */
static void score_args(struct compare_cmd *c)
{
	struct cli_scheme_spec specs[HS_MAX_SCHEMES];
	struct hs_scheme s;
	struct hs_spec sp;

	cli_spec_parse("--profile", c->profile, &sp);
	if (!hs_spec_is_model(&sp))
		cli_usage_die("--profile: '%s' is a file, not a profile",
			      c->profile);
	c->sc.comp = sp.comp;
	if (cli_damos_specs(&c->ss, specs) > 1)
		cli_usage_die("--damos_action: one scheme, whose stats the records carry");
	/* the weights and the action only: the intervals do not matter */
	cli_damos_scheme(&specs[0], 1, 1, &s);
	c->sc.kind = hs_score_kind(c->ops, s.action);
	c->sc.weight_nr = s.quota.weight_nr;
	c->sc.weight_age = s.quota.weight_age;
}

static void parse_args(struct compare_cmd *c, int argc, char **argv)
{
	c->profile = CLI_DEFAULT_PROFILE;
	c->ops = HS_OPS_VADDR;
	opt_parse(&cmd_compare_records, argc, argv, set, c);
	score_args(c);
	opt_parsed(&cmd_compare_records);
	if (c->nr_paths != 2)
		cli_usage_die("two records: hotscore compare-records REAL SIM");
}

static void read_sides(struct compare_cmd *c)
{
	char err[400];
	int k;

	for (k = 0; k < 2; k++)
		if (hs_cmp_span(c->path[k], &c->side[k], err, sizeof(err)))
			cli_die("%s: %s", c->path[k], err);
	c->window_ns = c->side[0].span_ns < c->side[1].span_ns ?
		c->side[0].span_ns : c->side[1].span_ns;
	for (k = 0; k < 2; k++)
		if (hs_cmp_read(c->path[k], c->window_ns, &c->sc, &c->side[k],
				err, sizeof(err)))
			cli_die("%s: %s", c->path[k], err);
	c->nr_rows = hs_cmp_rows(&c->side[0], &c->side[1], c->window_ns,
				 c->rows);
}

/* A value in the bound's unit: bytes as KiB/MiB/GiB, counts whole. */
static void fmt_value(char *buf, size_t size, double v, const char *unit)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned int i = 0;

	if (strcmp(unit, "B")) {
		snprintf(buf, size, "%.0f", v);
		return;
	}
	for (; fabs(v) >= 1024 && i < 4; i++)
		v /= 1024;
	snprintf(buf, size, i ? "%.2f %s" : "%.0f %s", v, units[i]);
}

static void fmt_bound(char *buf, size_t size, const struct hs_cmp_bound *b)
{
	char abs[32];

	fmt_value(abs, sizeof(abs), b->abs, b->unit);
	if (b->rel > 0 && b->abs > 0)
		snprintf(buf, size, "+-%.0f%% + %s", b->rel * 100, abs);
	else if (b->rel > 0)
		snprintf(buf, size, "+-%.0f%%", b->rel * 100);
	else
		snprintf(buf, size, "+-%s", abs);
}

static const char *status(const struct hs_cmp_row *r)
{
	return !r->have ? "n/a" : r->bound->info ? "info" :
	       r->within ? "within" : "OUTSIDE";
}

static void print_head(const struct compare_cmd *c)
{
	int k;

	for (k = 0; k < 2; k++)
		printf("%-4s %s: %zu snapshots over %.1f s, sample %lu us, aggr %lu us%s\n",
		       side_name[k], c->path[k], c->side[k].nr_snapshots,
		       c->side[k].span_ns * 1e-9, c->side[k].sample_us,
		       c->side[k].aggr_us, c->side[k].has_intervals ? "" :
		       " (not in the record: damo's)");
	printf("compared over the first %.1f s of each (%zu and %zu snapshots); scores: %s\n",
	       c->window_ns * 1e-9, c->side[0].n, c->side[1].n,
	       c->sc.kind == HS_SCORE_HOT ? "hot" :
	       c->sc.kind == HS_SCORE_COLD ? "cold" : "the action's 99");
	printf("  under %s, weights nr_accesses %u age %u, byte-weighted over every region\n\n",
	       c->profile, c->sc.weight_nr, c->sc.weight_age);
}

static size_t nr_info(const struct compare_cmd *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->nr_rows; i++)
		n += c->rows[i].bound->info;
	return n;
}

/* The table, and a last line naming the rows outside; their count. */
static size_t print_table(const struct compare_cmd *c)
{
	size_t i, at, outside = 0;
	char real[32], sim[32], bnd[40], line[2048];
	const char *sep;

	printf("%-28s %16s %16s %-20s %s\n", "metric", "REAL", "SIM", "bound",
	       "result");
	for (i = 0; i < c->nr_rows; i++) {
		const struct hs_cmp_row *r = &c->rows[i];

		fmt_value(real, sizeof(real), r->real, r->bound->unit);
		fmt_value(sim, sizeof(sim), r->sim, r->bound->unit);
		if (r->bound->info)
			snprintf(bnd, sizeof(bnd), "-");
		else
			fmt_bound(bnd, sizeof(bnd), r->bound);
		printf("%-28s %16s %16s %-20s %s\n", r->name,
		       r->real >= 0 ? real : "-", r->sim >= 0 ? sim : "-", bnd,
		       status(r));
		outside += hs_cmp_outside(r);
	}
	/* the names of the rows outside, wrapped at 100 columns */
	at = (size_t)snprintf(line, sizeof(line),
			      "%zu rows (%zu for information): %zu outside the bounds",
			      c->nr_rows, nr_info(c), outside);
	for (i = 0, sep = ": "; i < c->nr_rows && at < sizeof(line); i++)
		if (hs_cmp_outside(&c->rows[i])) {
			size_t from = at + strlen(sep);

			at += (size_t)snprintf(line + at, sizeof(line) - at,
					       "%s%s", sep, c->rows[i].name);
			for (; from < at && from < sizeof(line); from++)
				if (line[from] == ' ')	/* one name, one line */
					line[from] = LAYOUT_NBSP_CHAR;
			sep = ", ";
		}
	putchar('\n');
	layout_wrap(stdout, line, 0, 2, CLI_COLS, LAYOUT_NBSP);
	return outside;
}

static json_t *json_row(const struct hs_cmp_row *r)
{
	return json_pack("{s:s, s:o, s:o, s:s, s:f, s:f, s:s, s:b, s:s}",
			 "metric", r->name,
			 "real", r->real >= 0 ? json_real(r->real) : json_null(),
			 "sim", r->sim >= 0 ? json_real(r->sim) : json_null(),
			 "bound", r->bound->name, "rel", r->bound->rel,
			 "abs", r->bound->abs, "unit", r->bound->unit,
			 "info", r->bound->info, "result", status(r));
}

static void write_json(const struct compare_cmd *c, FILE *f, size_t outside)
{
	json_t *doc, *rows = json_array();
	size_t i;

	for (i = 0; rows && i < c->nr_rows; i++)
		json_array_append_new(rows, json_row(&c->rows[i]));
	doc = json_pack("{s:s, s:s, s:f, s:s, s:I, s:o}", "real", c->path[0],
			"sim", c->path[1], "window_s", c->window_ns * 1e-9,
			"profile", c->profile, "outside", (json_int_t)outside,
			"rows", rows);
	/* the document is stolen, written or not */
	if (hs_json_write_doc(f, doc, 0))
		cli_die("--json: %s: %s", c->json, doc ? strerror(errno) :
			"out of memory");
}

static int compare_run(int argc, char **argv)
{
	struct compare_cmd *c = cli_xcalloc(1, sizeof(*c));
	FILE *json;
	size_t outside;

	parse_args(c, argc, argv);
	json = cli_out_open("--json", c->json);
	read_sides(c);
	print_head(c);
	outside = print_table(c);
	if (json)
		write_json(c, json, outside);
	cli_out_done(json);
	cli_out_commit();
	hs_cmp_free(&c->side[0]);
	hs_cmp_free(&c->side[1]);
	free(c);
	return outside ? CLI_EXIT_FINDING : 0;
}

const struct cli_cmd cmd_compare_records = {
	.name = "compare-records",
	.summary = "a real kdamond's record against a simulated one, metric by metric",
	.usage = "hotscore compare-records REAL SIM [--profile P] [--damos_* ...]"
		 " [--json FILE]",
	.about = "Compare two damo records of one workload config, the real one"
		 " (hotscore convert)\nand the simulated one (hotscore sim"
		 " --record), each timed from its first snapshot,\nover the time"
		 " both cover: nr_regions, the working set's percentiles, the"
		 " byte-weighted\nages, nr_accesses and scores, the last"
		 " DAMOS stats, and the schedule each kept; a row\nper metric,"
		 " REAL, SIM, the bound and whether they are within it.  Exit"
		 " 1 when a\ncounted row is outside.",
	.notes = CLI_DAMOS_NOTES
		 "The scheme gives the score (pageout: the cold score) and its"
		 " weights; the records give\nthe intervals.  A row is within"
		 " when |REAL - SIM| <= rel * min(|REAL|, |SIM|) + abs, the\n"
		 "same either way round; rows marked info are shown, not"
		 " counted.  The table of bounds\nis src/record/compare.c's"
		 " (docs/sim.md, \"Sim against a real kdamond\").",
	.opts = compare_opts,
	.nr_opts = sizeof(compare_opts) / sizeof(compare_opts[0]),
	.operand = "input",
	.run = compare_run,
};
