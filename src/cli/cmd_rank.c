// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_rank.c - hotscore rank RECORD: what the DAMOS quota would pick on a damo
 * record.  For each snapshot it scores every region under a profile (or a
 * candidate), builds the scheme's score histogram, finds the min_score the
 * quota's size budget allows, as damos_adjust_quota() does, and walks the
 * regions as damos_apply_target() would, charging the quota.
 *
 * A record holds what damon_aggregated shows: regions at the end of an
 * aggregation, after that aggregation's schemes acted.  Each snapshot is
 * ranked as the first window of a fresh quota, and each scheme as if it
 * were alone; docs/rank.md says what that leaves out.  --carry walks the
 * snapshots in time order instead, as the kdamond would (rank_run.c).  A 6.12 kdamond's
 * DAMOS trace (--damos_trace, rank_trace.c) leaves none of it out: its
 * regions are walked as the kernel walked them, and each pick is marked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotscore/cand.h>
#include <hotscore/sim_damos.h>
#include <hotscore/record.h>
#include <hotscore/score.h>
#include <hotscore/spec.h>

#include "cli.h"
#include "damos_opt.h"
#include "opt.h"
#include "outfile.h"
#include "cmd_rank.h"

enum { O_INPUT, O_PROFILE, O_BASE, O_OPS, O_SNAPSHOT, O_TIME, O_CSV,
       O_JSON, O_LIST, O_CALL_LIMIT, O_SWEEP, O_SVG, O_TRACE, O_CARRY };

#define WITH_TRACE	"--damos_trace tests/data/replay/damos-6.12.txt"


static const struct opt rank_opts[] = {
	{ .id = O_INPUT, .name = "input", .type = OPT_STR, .arg = "RECORD",
	  .flags = OPT_INPUT, .words = "@file",
	  .help = "the damo record (json or json_compressed); also the bare"
		  " argument", .example = "tests/data/rank/damo-written.json" },
	{ .id = O_PROFILE, .name = "profile", .type = OPT_LIST,
	  .arg = "P[,P2]", .dflt = CLI_DEFAULT_PROFILE "; with --damos_trace, "
	  CLI_TRACE_PROFILE, .flags = OPT_CANDS,
	  .words = "@profiles",
	  .help = "the damon_hot_score() profile, a combination or a"
		  " candidate file; two: where their picks differ",
	  .example = "v6.6,hotfix" },
	CLI_BASE_OPT(O_BASE, "the first profile of --profile, else hotfix", 0,
		     NULL),
	CLI_CALL_LIMIT_OPT(O_CALL_LIMIT, 0, NULL),
	{ .id = O_OPS, .name = "ops", .type = OPT_STR, .arg = "OPS",
	  .dflt = "vaddr", .words = "vaddr paddr",
	  .help = "the operations the record came from: which score each"
		  " action takes", .example = "paddr" },
	{ .id = O_SNAPSHOT, .name = "snapshot", .type = OPT_COUNT, .arg = "N",
	  .dflt = "every snapshot", .max = UINT32_MAX,
	  .help = "only the N-th snapshot of each record (from 0)",
	  .example = "3" },
	{ .id = O_TIME, .name = "time", .type = OPT_TIME, .arg = "T",
	  .dflt = "every snapshot", .max = CLI_DAMOS_MAX_US,
	  .help = "only the snapshot whose aggregation holds T, from the"
		  " record's start", .example = "1.5s" },
	CLI_DAMOS_OPTS,
	{ .id = O_CARRY, .name = "carry", .type = OPT_FLAG,
	  .help = "walk the snapshots as the kdamond would, in time order:"
		  " every scheme in order, each quota's charge, effective"
		  " size and resume address carried from one to the next"
		  " (--hz: the kernel's)" },
	{ .id = O_TRACE, .name = "damos_trace", .type = OPT_STR,
	  .arg = "TRACE", .flags = OPT_INPUT, .words = "@file",
	  .help = "instead of a record, a 6.12 kdamond's DAMOS trace (as"
		  " hotscore replay reads it): its regions ranked with every"
		  " scheme in order and the quotas carried, each pick marked"
		  " with whether the kernel made it",
	  .example = "tests/data/replay/damos-6.12.txt" },
	CLI_KDAMOND_OPTS(WITH_TRACE),
	{ .id = O_CSV, .name = "csv", .type = OPT_STR, .arg = "FILE",
	  .flags = OPT_OUTPUT | OPT_WRITE, .words = "@file",
	  .help = "one row per region, profile and scheme; with"
		  " --damos_trace, per application of either side",
	  .example = "r.csv" },
	{ .id = O_JSON, .name = "json", .type = OPT_STR, .arg = "FILE",
	  .flags = OPT_OUTPUT | OPT_WRITE, .words = "@file",
	  .help = "the same, with each snapshot's histogram cut-off; with"
		  " --damos_trace, the counts per scheme too",
	  .example = "r.json" },
	{ .id = O_SWEEP, .name = "sweep_weights", .type = OPT_FLAG,
	  .help = "the bytes picked under each pair of nr_accesses and age"
		  " weights (0..10), against the scheme's own" },
	{ .id = O_SVG, .name = "svg", .type = OPT_STR, .arg = "FILE",
	  .flags = OPT_OUTPUT | OPT_WRITE, .words = "@file",
	  .help = "the --sweep_weights grid as an SVG image",
	  .example = "sweep.svg",
	  .with = "--sweep_weights" },
	{ .id = O_LIST, .name = "list-profiles", .type = OPT_FLAG,
	  .flags = OPT_EXIT,
	  .help = "the built-in profiles (as hotscore score --list-profiles)" },
};

static void add_profile(void *ctx, const char *name)
{
	struct rank_cmd *c = ctx;

	cli_spec_add("--profile", name, c->prof, &c->nr_prof,
		     RANK_MAX_PROFILES, false);
}

static void set(void *ctx, const struct opt *o, const struct opt_val *v,
		unsigned int nr)
{
	struct rank_cmd *c = ctx;

	if (cli_damos_take(&c->ss, o, v, nr) || cli_kdamond_take(&c->kd, o, v))
		return;
	switch (o->id) {
	case O_TRACE: c->trace = v->s; break;
	case O_INPUT:
		if (c->input)
			cli_usage_die("one record at a time ('%s' and '%s')",
				      c->input, v->s);
		c->input = v->s;
		break;
	case O_PROFILE: c->profiles = v->s; break;
	case O_BASE:
		c->base = cli_profile_named("--base", v->s);
		break;
	case O_OPS:
		c->ops = cli_ops_parse(v->s);
		break;
	case O_SNAPSHOT:
		c->snapshot = (long)v->u;
		break;
	case O_TIME:
		c->time_us = v->u;
		c->has_time = true;
		break;
	case O_CALL_LIMIT: cli_call_limit_set(v->u); break;
	case O_CSV: c->csv = v->s; break;
	case O_JSON: c->json = v->s; break;
	case O_SWEEP: c->sweep = true; break;
	case O_CARRY: c->carry = true; break;
	case O_SVG: c->svg = v->s; break;
	case O_LIST:
		cli_list_profiles();
		cli_exit(0);
	}
}

static void load_candidates(struct rank_cmd *c)
{
	unsigned int i;

	hs_spec_base(c->prof, c->nr_prof, c->base, &c->base_spec);
	for (i = 0; i < c->nr_prof; i++)
		cli_spec_load("--profile", &c->prof[i], &c->base_spec);
}

/* --sweep_weights varies one scheme's weights, which only a quota reads. */
static void check_sweep(const struct rank_cmd *c)
{
	if (c->svg && !c->sweep)
		cli_usage_die("--svg draws the grid of --sweep_weights: give it");
	if (!c->sweep)
		return;
	if (c->nr_prof > 1 || c->nr_schemes > 1)
		cli_usage_die("--sweep_weights: one profile and one scheme at a time");
	if (!c->specs[0].quota[0] && !c->specs[0].quota[1])
		cli_die("--sweep_weights: the scheme has no quota (--damos_quotas): its weights pick nothing");
}

/*
 * --damos_trace is the input, with the kdamond's setup; a record's
 * snapshots, --sweep_weights' grid and the kdamond options are not.
 */
static void check_trace(const struct rank_cmd *c)
{
	if (!c->trace) {
		if (c->carry ? c->kd.other != NULL : c->kd.given != NULL)
			cli_usage_die("--%s is the kdamond's, for --damos_trace%s: a record has its intervals",
				      c->carry ? c->kd.other : c->kd.given,
				      c->carry ? "" : " (--hz: also --carry)");
		if (c->carry && c->sweep)
			cli_usage_die("--sweep_weights ranks each snapshot from a fresh quota: not with --carry");
		return;
	}
	if (c->carry)
		cli_usage_die("--damos_trace carries the quotas always: no --carry with it");
	if (c->input)
		cli_usage_die("--damos_trace is the input: no record with it ('%s')",
			      c->input);
	if (c->snapshot >= 0 || c->has_time)
		cli_usage_die("--damos_trace: every window is walked, in order (no --snapshot or --time)");
	if (c->sweep)
		cli_usage_die("--damos_trace: --sweep_weights ranks a record");
	cli_kdamond_check(&c->kd);
}

static void parse_args(struct rank_cmd *c, int argc, char **argv)
{
	c->snapshot = -1;
	c->ops = HS_OPS_VADDR;
	cli_kdamond_init(&c->kd);
	opt_parse(&cmd_rank, argc, argv, set, c);
	if (c->snapshot >= 0 && c->has_time)
		cli_usage_die("--snapshot and --time both choose the snapshot: give one");
	cli_each_profile("--profile", c->profiles ? c->profiles :
			 c->trace ? CLI_TRACE_PROFILE : CLI_DEFAULT_PROFILE,
			 add_profile, c);
	c->nr_schemes = cli_damos_specs(&c->ss, c->specs);
	if (!c->trace && c->nr_prof > 1 && c->nr_schemes > 1)
		cli_usage_die("compare two profiles or two schemes, not both");
	check_trace(c);
	check_sweep(c);
	opt_parsed(&cmd_rank);	/* HOTSCORE_CHECK_ARGS: the options alone */
	if (!c->input && !c->trace)
		cli_usage_die("which record? (hotscore rank RECORD)");
	load_candidates(c);
}

static int rank_run(int argc, char **argv)
{
	struct rank_cmd *c = calloc(1, sizeof(*c));
	int status;

	if (!c)
		cli_die("out of memory");
	parse_args(c, argc, argv);
	c->csv_f = cli_out_open("--csv", c->csv);
	c->json_f = cli_out_open("--json", c->json);
	c->svg_f = cli_out_open("--svg", c->svg);
	status = c->trace ? rank_trace(c) : rank_file(c);
	cli_out_done(c->csv_f);
	cli_out_done(c->json_f);
	cli_out_done(c->svg_f);
	cli_out_commit();
	free(c);
	return status;
}

const struct cli_cmd cmd_rank = {
	.name = "rank",
	.summary = "what the DAMOS quota would pick on a damo record or a kdamond's trace",
	.usage = "hotscore rank RECORD [--profile P[,P2]] [--damos_* ...]"
		 " [--snapshot N|--time T] ...\n"
		 "hotscore rank RECORD --sweep_weights [--svg FILE] [--damos_* ...] ...\n"
		 "hotscore rank --damos_trace TRACE [--profile P[,P2]] [--damos_* ...]"
		 " [--hz N] ...",
	.about = "Read a damo record (json or json_compressed; damo's own or"
		 " hotscore sim --record's),\nscore every region of each"
		 " snapshot under a profile, and find what the scheme's\nquota"
		 " would pick: the score histogram's min_score, as"
		 " damos_adjust_quota() sets it,\nand the regions the walk"
		 " charges.  Options follow damo's names.",
	.notes = CLI_DAMOS_NOTES
		 "Each snapshot is ranked as the first window of a fresh"
		 " quota, each scheme alone; a\ntime quota assumes the kernel's"
		 " first-window throughput (docs/rank.md).  --carry walks\nthe"
		 " snapshots in time order as the kdamond would: every scheme"
		 " in order, each\nquota carried from one snapshot to the next,"
		 " the schemes applied when due.  A\ncontext of more"
		 " than 20 snapshots prints the first 10 rows, or with two picks"
		 " the rows where they\ndiffer; its summary totals every one."
		 "  --sweep_weights ranks the scheme under\neach pair of"
		 " weights 0, 1, 2, 3, 5, 7, 10 and prints the bytes each picks"
		 " that the\nscheme's own weights do not.\n\n"
		 "With --damos_trace, rank walks a 6.12 kdamond's own regions"
		 " as 6.12 does: every\nscheme in order, each quota's charge,"
		 " resume address and effective size carried\nfrom window to"
		 " window (hotscore replay's walk; the default profile is"
		 " the\nkernel's, " CLI_TRACE_PROFILE "), and marks each pick"
		 " the kernel made; the schemes,\nintervals and HZ must be the"
		 " kdamond's (docs/rank.md).",
	.opts = rank_opts,
	.nr_opts = sizeof(rank_opts) / sizeof(rank_opts[0]),
	.operand = "input",
	.run = rank_run,
};
