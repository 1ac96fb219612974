// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_sim.c - `hotscore sim`: kdamond and DAMOS over a masim workload, with the
 * cost of each stage and of the score function in context.
 *
 * Options follow damo's names (src/_damon_args.py); each --damos_* option
 * may be repeated, its n-th use going to the n-th --damos_action.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <unistd.h>

#include <hotscore/simd.h>

#include <hotscore/cand.h>
#include <hotscore/spec.h>

#include "cli.h"
#include "damos_opt.h"
#include "opt.h"
#include "outfile.h"
#include "cmd_sim.h"
#include "sim_report.h"
#include "report/layout.h"

/* 4x the 1,000,000 regions benchmarked; about 0.5 GB of region arrays */
#define SIM_MAX_REGIONS	(1UL << 22)
#define SIM_MAX_SAMPLES	1000000000ULL		/* per run */
#define SIM_MAX_RECORD	20000000ULL	/* --record: snapshots x regions */
#define SIM_COLS	100	/* text fits this many columns */

enum { O_WORKLOAD, O_OPS, O_RATE, O_DURATION, O_SEED, O_SAMPLE, O_AGGR,
       O_UPDR, O_MINR, O_MAXR, O_PROFILE, O_SCORER, O_CAPTURE, O_NO_TIMING,
       O_RECORD, O_RECORD_FORMAT, O_ACTIONS, O_HEATMAP, O_JSON, O_LIST,
       O_BASE, O_CALL_LIMIT };

static const struct opt sim_opts[] = {
	{ .id = O_WORKLOAD, .name = "workload", .type = OPT_STR,
	  .arg = "NAME|FILE", .dflt = "stairs", .flags = OPT_INPUT,
	  .words = "stairs zigzag @file",
	  .help = "stairs, zigzag, or a masim config file",
	  .example = "zigzag" },
	{ .id = O_OPS, .name = "ops", .type = OPT_STR, .arg = "OPS",
	  .dflt = "vaddr", .words = "vaddr paddr",
	  .help = "monitoring operations: vaddr or paddr", .example = "paddr" },
	{ .id = O_RATE, .name = "rate", .type = OPT_LIST, .arg = "N[,N...]",
	  .dflt = "100000",
	  .help = "workload memory accesses per ms; a list: one per phase, in"
		  " the config's order", .example = "3000" },
	{ .id = O_DURATION, .name = "duration", .type = OPT_TIME, .arg = "T",
	  .dflt = "one pass of the workload", .min = 1, .max = CLI_DAMOS_MAX_US,
	  .help = "simulated time", .example = "5s" },
	{ .id = O_SEED, .name = "seed", .type = OPT_COUNT, .arg = "N",
	  .dflt = "1", .help = "seed of damon_rand() and the workload",
	  .example = "2" },
	{ .id = O_SAMPLE, .name = "sample", .type = OPT_TIME, .arg = "T",
	  .dflt = "5ms", .min = 1, .max = CLI_DAMOS_MAX_US,
	  .help = "the sampling interval", .example = "4ms" },
	{ .id = O_AGGR, .name = "aggr", .type = OPT_TIME, .arg = "T",
	  .dflt = "100ms", .min = 1, .max = CLI_DAMOS_MAX_US,
	  .help = "the aggregation interval", .example = "40ms" },
	{ .id = O_UPDR, .name = "updr", .type = OPT_TIME, .arg = "T",
	  .dflt = "60s", .min = 1, .max = CLI_DAMOS_MAX_US,
	  .help = "the operations update interval", .example = "1s" },
	{ .id = O_MINR, .name = "minr", .type = OPT_COUNT, .arg = "N",
	  .dflt = "10", .min = 3, .max = SIM_MAX_REGIONS,
	  .help = "the minimum number of regions", .example = "20" },
	{ .id = O_MAXR, .name = "maxr", .type = OPT_COUNT, .arg = "N",
	  .dflt = "1000", .min = 3, .max = SIM_MAX_REGIONS,
	  .help = "the maximum number of regions", .example = "40" },
	CLI_DAMOS_OPTS,
	CLI_DAMOS_GOAL_OPT,
	{ .id = O_PROFILE, .name = "profile", .old = "compare-profiles",
	  .type = OPT_LIST, .arg = "P[,P2]", .dflt = CLI_DEFAULT_PROFILE,
	  .flags = OPT_CANDS, .words = "@profiles",
	  .help = "the damon_hot_score() profile; two: how many score calls"
		  " and decisions differ", .example = "v6.6,v2-ilog2" },
	CLI_BASE_OPT(O_BASE, "the other profile of --profile, else hotfix", 0,
		     NULL),
	CLI_CALL_LIMIT_OPT(O_CALL_LIMIT, 0, NULL),
	{ .id = O_SCORER, .name = "scorer", .old = "compare-scorers",
	  .type = OPT_LIST, .arg = "S[,S2]", .dflt = "kernel",
	  .words = "kernel fast fast-batch",
	  .help = "kernel (the profile's function, a region a call), fast"
		  " (prepared, score_fast.h) or fast-batch (all regions a call); two"
		  " run twice and compare the score stage",
	  .example = "kernel,fast-batch" },
	{ .id = O_CAPTURE, .name = "capture", .type = OPT_COUNT, .arg = "N",
	  .dflt = "4096", .max = 1UL << 24,
	  .help = "score inputs kept for the cost replay (0: no replay)",
	  .example = "100" },
	{ .id = O_NO_TIMING, .name = "no-timing", .type = OPT_FLAG,
	  .help = "no stage clock, no replay: the decisions only" },
	{ .id = O_RECORD, .name = "record", .type = OPT_STR, .arg = "FILE",
	  .flags = OPT_OUTPUT | OPT_WRITE, .words = "@file",
	  .help = "the snapshots, in damo's record format",
	  .example = "damon.data" },
	{ .id = O_RECORD_FORMAT, .name = "record_format", .type = OPT_STR,
	  .arg = "FORMAT", .dflt = "json_compressed", .flags = OPT_OUTPUT,
	  .words = "json json_compressed",
	  .help = "--record's format, as damo names it: json_compressed"
		  " (zlib; damo reads it everywhere) or json",
	  .example = "json", .with = "--record damon.data" },
	{ .id = O_ACTIONS, .name = "actions", .type = OPT_STR, .arg = "FILE",
	  .flags = OPT_OUTPUT | OPT_WRITE, .words = "@file",
	  .help = "every action the schemes took, a row each: CSV or JSON, by"
		  " the extension (.csv, .json)", .example = "actions.csv" },
	{ .id = O_HEATMAP, .name = "heatmap", .type = OPT_STR, .arg = "FILE",
	  .flags = OPT_OUTPUT | OPT_WRITE, .words = "@file",
	  .help = "an SVG: time x address, colour = access frequency",
	  .example = "heat.svg" },
	{ .id = O_JSON, .name = "json", .type = OPT_STR, .arg = "FILE",
	  .flags = OPT_OUTPUT | OPT_WRITE, .words = "@file",
	  .help = "stats and costs (docs/sim.md)", .example = "sim.json" },
	{ .id = O_LIST, .name = "list-profiles", .type = OPT_FLAG,
	  .flags = OPT_EXIT,
	  .help = "the built-in profiles (as hotscore score --list-profiles)" },
};

static unsigned long clamp_ul(uint64_t v)
{
	return v > ULONG_MAX ? ULONG_MAX : (unsigned long)v;
}

struct sim_args {
	struct sim_cmd *c;
	struct cli_schemes ss;
	const char *profiles, *scorers;
};

static enum hs_scorer scorer_arg(const char *name)
{
	int s = hs_scorer_parse(name);

	if (s < 0)
		cli_usage_die("--scorer: '%s' is not kernel, fast or fast-batch",
			      name);
	return (enum hs_scorer)s;
}

/*
 * "A" or "A,B" into @out; return how many.  Two items mean a comparison
 * of two runs that differ in this one thing.
 */
static unsigned int split_two(const char *opt, const char *list,
			      char out[2][HS_SPEC_GIVEN])
{
	const char *comma = strchr(list, ',');
	size_t len = comma ? (size_t)(comma - list) : strlen(list);

	if (comma && strchr(comma + 1, ','))
		cli_usage_die("--%s: '%s': at most two, to compare", opt, list);
	if (!len || (comma && !comma[1]))
		cli_usage_die("--%s: '%s' has an empty item", opt, list);
	if (len >= HS_SPEC_GIVEN ||
	    (comma && strlen(comma + 1) >= HS_SPEC_GIVEN))
		cli_usage_die("--%s: '%.40s...' is too long", opt, list);
	snprintf(out[0], HS_SPEC_GIVEN, "%.*s", (int)len, list);
	if (!comma)
		return 1;
	snprintf(out[1], HS_SPEC_GIVEN, "%s", comma + 1);
	if (!strcmp(out[0], out[1]))
		cli_usage_die("--%s: '%s' names one twice", opt, list);
	return 2;
}

static void parse_profiles(struct sim_cmd *c, const char *list)
{
	static char names[2][HS_SPEC_GIVEN];

	if (split_two("profile", list, names) == 2) {
		c->nr_runs = 2;
		c->compare = true;
	}
	c->profiles[0] = names[0];
	c->profiles[1] = c->compare ? names[1] : names[0];
}

static void parse_scorers(struct sim_cmd *c, const char *list)
{
	char names[2][HS_SPEC_GIVEN];
	unsigned int n = split_two("scorer", list, names);

	c->scorers[0] = scorer_arg(names[0]);
	c->scorers[1] = n == 2 ? scorer_arg(names[1]) : c->scorers[0];
	if (n == 2 && c->scorers[0] == c->scorers[1])
		cli_usage_die("--scorer: '%s' names one scorer twice", list);
	if (n == 2) {
		c->nr_runs = 2;
		c->compare = c->compare_scorers = true;
	}
}

/*
 * A candidate in a run: the model's checks use its base profile (the other
 * profile of a comparison, else hotfix); its score goes through a thunk
 * that keeps the input, so that a trap or a hang can be reported with it:
 * in the run, the guarded one; in the cost replay, the plain call.
 */
static struct {
	struct hs_spec sp, base;
	const struct hs_cand *cand;
	struct hs_variant var;
	const char *spec;
} cand_runs[2];
static const struct hs_cand *cand_now;
static const struct hs_profile *cand_base;	/* --base */
static struct hs_input cand_in;

static int cand_thunk(const void *in)
{
	cand_in = *(const struct hs_input *)in;
	return cand_now->hot(in);
}

/* Inside hs_trap_guard(), which a trap or a hang leaves through. */
static int cand_thunk_guarded(const void *in)
{
	cand_in = *(const struct hs_input *)in;
	return hs_cand_call_hot(cand_now, in);
}

/* The candidate a variant calls, or NULL for a built-in's. */
static const struct hs_cand *cand_of(const struct hs_variant *v)
{
	if (v->fn != cand_thunk)
		return NULL;
	return cand_runs[v == &cand_runs[1].var].cand;
}

static const struct hs_variant *cand_variant(const struct sim_cmd *c,
					     const struct hs_spec *sp)
{
	unsigned int k = !strcmp(sp->given, c->profiles[0]) ? 0 : 1, i;
	struct hs_spec specs[2], base;

	if (cand_runs[k].cand)
		return &cand_runs[k].var;
	for (i = 0; i < 2; i++)
		cli_spec_parse("--profile", c->profiles[i], &specs[i]);
	hs_spec_base(specs, 2, cand_base, &base);
	cand_runs[k].base = base;
	cand_runs[k].sp = *sp;
	cli_spec_load("--profile", &cand_runs[k].sp, &base);
	cand_runs[k].cand = cand_runs[k].sp.cand;
	cand_runs[k].spec = cand_runs[k].sp.given;
	cand_runs[k].var.name = cand_runs[k].sp.name;
	cand_runs[k].var.comp = base.comp;
	cand_runs[k].var.fn = cand_thunk;
	cand_runs[k].var.what = "a candidate file";
	cand_runs[k].var.call = HS_CALL_INPUT;
	return &cand_runs[k].var;
}

static const struct hs_variant *profile_variant(const struct sim_cmd *c,
						const char *name)
{
	const struct hs_variant *v;
	struct hs_spec sp;

	cli_spec_parse("--profile", name, &sp);
	if (!hs_spec_is_model(&sp)) {
		if (c->scorers[0] || c->scorers[1])
			cli_usage_die("--scorer: a candidate has no prepared form; give it the kernel scorer");
		return cand_variant(c, &sp);
	}
	v = hs_spec_variant(&sp);
	if (!v)
		cli_die("--profile: '%s' has no compiled variant", name);
	return v;
}

static char *read_file(const char *path, size_t *lenp)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	if (!f)
		cli_die("--workload: %s: %s (built-in: stairs, zigzag)", path,
		       strerror(errno));
	buf = cli_read_stream(f, 16 << 20, lenp);
	if (!buf && errno == EFBIG)
		cli_die("--workload: %s: larger than 16 MiB", path);
	if (!buf && errno == ENOMEM)
		cli_die("out of memory");
	if (!buf)
		cli_die("--workload: %s: %s", path, strerror(errno));
	fclose(f);
	return buf;
}

static void record_format(struct sim_cmd *c, const char *name)
{
	int fmt = hs_damo_format_parse(name);

	if (fmt < 0)
		cli_usage_die("--record_format: '%s' is not json or json_compressed",
			      name);
	c->record_format = (enum hs_damo_format)fmt;
}

/* --actions: the file's extension says the format; true for JSON. */
static bool actions_json(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *ext = strrchr(base ? base : path, '.');

	if (ext && !strcasecmp(ext, ".csv"))
		return false;
	if (ext && !strcasecmp(ext, ".json"))
		return true;
	cli_usage_die("--actions: '%s': the name ends in neither .csv nor .json",
		      path);
}

/*
 * The @k-th rate of the list @s (from 0), each from 1 to HS_WL_MAX_RATE
 * accesses per ms; 0 when the list has fewer.  Bad values exit 2.
 */
static uint64_t rate_of(const char *s, unsigned int k)
{
	char word[32];
	unsigned long n;
	const char *err;
	size_t len;

	for (; k; k--) {
		s = strchr(s, ',');
		if (!s)
			return 0;
		s++;
	}
	len = strcspn(s, ",");
	if (!len || len >= sizeof(word))
		cli_usage_die("--rate: '%.*s' is not a count of accesses per ms",
			      (int)(len > 20 ? 20 : len), s);
	memcpy(word, s, len);
	word[len] = '\0';
	err = cli_parse_number(word, HS_WL_MAX_RATE, &n);
	if (err && strcmp(err, "out of range"))
		cli_usage_die("--rate: '%s': %s", word, err);
	if (err || !n)
		cli_usage_die("--rate: '%s' is out of range (1..%lu)", word,
			      HS_WL_MAX_RATE);
	return n;
}

static void set(void *ctx, const struct opt *o, const struct opt_val *v,
		unsigned int nr)
{
	struct sim_args *sa = ctx;
	struct sim_cmd *c = sa->c;
	struct hs_attrs *a = &c->cfg.attrs;
	unsigned int k;

	if (cli_damos_take(&sa->ss, o, v, nr))
		return;
	switch (o->id) {
	case O_WORKLOAD: c->workload = v->s; break;
	case O_OPS:
		c->ops = cli_ops_parse(v->s);
		break;
	case O_RATE:
		c->rates = v->s;
		c->rate = rate_of(v->s, 0);
		for (k = 1; rate_of(v->s, k); k++)	/* each checked now */
			;
		break;
	case O_DURATION: c->cfg.duration_us = v->u; break;
	case O_SEED: c->cfg.seed = v->u; break;
	case O_SAMPLE: a->sample_us = clamp_ul(v->u); break;
	case O_AGGR: a->aggr_us = clamp_ul(v->u); break;
	case O_UPDR: a->ops_update_us = clamp_ul(v->u); break;
	case O_MINR: a->min_nr_regions = v->u; break;
	case O_MAXR: a->max_nr_regions = v->u; break;
	case O_PROFILE: sa->profiles = v->s; break;
	case O_BASE:
		cand_base = cli_profile_named("--base", v->s);
		break;
	case O_CALL_LIMIT: cli_call_limit_set(v->u); break;
	case O_SCORER: sa->scorers = v->s; break;
	case O_CAPTURE: c->cfg.capture = v->u; break;
	case O_NO_TIMING: c->timing = false; break;
	case O_RECORD: c->record = v->s; break;
	case O_RECORD_FORMAT: record_format(c, v->s); break;
	case O_ACTIONS:
		c->actions = v->s;
		c->actions_json = actions_json(v->s);
		break;
	case O_HEATMAP: c->heatmap = v->s; break;
	case O_JSON: c->json = v->s; break;
	case O_LIST:
		cli_list_profiles();
		cli_exit(0);
	}
}

static void sim_defaults(struct sim_cmd *c)
{
	memset(c, 0, sizeof(*c));
	c->workload = "stairs";
	c->profiles[0] = c->profiles[1] = CLI_DEFAULT_PROFILE;
	c->nr_runs = 1;
	c->rate = HS_WL_DEFAULT_RATE;
	c->timing = true;
	c->record_format = HS_DAMO_JSON_COMPRESSED;	/* damo's default */
	c->cfg.seed = CLI_DEFAULT_SEED;
	c->cfg.hz = 250;
	c->cfg.capture = 4096;
	c->cfg.max_events = 1 << 20;
	c->cfg.attrs = (struct hs_attrs){ 5000, 100000, 60000000, 10, 1000,
					  HS_PAGE_SIZE };
}

/* Two profiles or two scorers: one comparison at a time. */
static void check_comparison(struct sim_cmd *c, const struct sim_args *sa)
{
	if (sa->profiles)
		parse_profiles(c, sa->profiles);
	if (sa->scorers) {
		if (c->compare && strchr(sa->scorers, ','))
			cli_usage_die("compare two profiles or two scorers, not both");
		parse_scorers(c, sa->scorers);
	}
	profile_variant(c, c->profiles[0]);
	profile_variant(c, c->profiles[1]);
	if (opt_given(O_CAPTURE) && (c->compare_scorers || c->scorers[0]))
		cli_usage_die("--capture: prepared scorers capture nothing");
	if (c->compare_scorers) {
		/* one profile, both scorers; nothing captured to replay, so
		 * that the score stage holds the same work in both runs */
		c->profiles[1] = c->profiles[0];
		c->cfg.capture = 0;
	}
}

static void parse_args(struct sim_cmd *c, int argc, char **argv)
{
	static struct sim_args sa;
	struct hs_attrs *a = &c->cfg.attrs;
	unsigned int k;

	sim_defaults(c);
	memset(&sa, 0, sizeof(sa));
	sa.c = c;
	opt_parse(&cmd_sim, argc, argv, set, &sa);
	check_comparison(c, &sa);
	if (a->sample_us > a->aggr_us)
		cli_usage_die("--sample %luus is longer than --aggr %luus",
			      a->sample_us, a->aggr_us);
	if (a->min_nr_regions > a->max_nr_regions)
		cli_usage_die("--minr %lu is larger than --maxr %lu",
			      a->min_nr_regions, a->max_nr_regions);
	c->cfg.nr_schemes = cli_damos_specs(&sa.ss, c->specs);
	for (k = 0; k < c->cfg.nr_schemes; k++)
		cli_damos_scheme(&c->specs[k], a->sample_us, a->aggr_us,
				 &c->schemes[k]);
	c->cfg.schemes = c->schemes;
	c->cfg.ops = c->ops;
	if (!c->timing)
		c->cfg.capture = 0;
	if (opt_given(O_RECORD_FORMAT) && !c->record)
		cli_usage_die("--record_format: there is no --record to write");
	opt_parsed(&cmd_sim);
	opt_reproduce(&cmd_sim, c->command, sizeof(c->command));
}

static const char *load_workload(struct sim_cmd *c, const char **file,
				 size_t *len)
{
	const char *text = hs_workload_builtin(c->workload);

	*file = c->workload;
	if (text) {
		*len = strlen(text);
		return text;
	}
	if (!c->text)
		c->text = read_file(c->workload, &c->text_len);
	*len = c->text_len;
	return c->text;
}

/*
 * A list of rates is one per phase: a real run's phases go at their own
 * speeds (hotscore workload prints each).  The report's rate is then the
 * mean over the phases' durations, as the workload's "all" line.
 */
static void phase_rates(struct sim_cmd *c, struct hs_workload *wl)
{
	unsigned int j, n = 1;
	unsigned __int128 ms = 0, acc = 0;	/* 2^30 x 2^52 ms: no wrap */
	const char *p;

	for (p = c->rates; (p = strchr(p, ',')); p++)
		n++;
	if (n == 1)
		return;
	if (n != wl->nr_phases)
		cli_usage_die("--rate: %u rates for the %u phase%s of %s", n,
			      wl->nr_phases, cli_s(wl->nr_phases), wl->name);
	for (j = 0; j < n; j++) {
		wl->phases[j].rate = rate_of(c->rates, j);
		ms += wl->phases[j].duration_ms;
		acc += (unsigned __int128)wl->phases[j].rate *
		       wl->phases[j].duration_ms;
	}
	c->rate = ms ? (uint64_t)((acc + ms / 2) / ms) : wl->phases[0].rate;
	wl->rate = c->rate;
}

static void setup_workload(struct sim_cmd *c, struct hs_workload *wl)
{
	const char *file, *text;
	char err[256];
	size_t len;

	text = load_workload(c, &file, &len);
	if (hs_workload_parse(text, len, file, wl, err, sizeof(err)))
		cli_die("--workload: %s", err);
	wl->rate = c->rate;
	if (c->rates)
		phase_rates(c, wl);
	wl->seed = c->cfg.seed;
	if (hs_workload_layout(wl, c->ops == HS_OPS_PADDR ? HS_WL_PADDR :
			       HS_WL_VADDR, err, sizeof(err)))
		cli_die("--workload: %s: %s", file, err);
	hs_workload_prepare(wl, c->cfg.attrs.sample_us);
}

/*
 * Keep the state after every aggregation, up to SIM_MAX_POINTS; then keep
 * every second one, every fourth..., so memory stays bounded.
 */
static void add_point(struct sim_run *run, const struct hs_sim *sim)
{
	const struct hs_workload *wl = sim->wl;
	struct sim_point *p;
	uint64_t wss = 0;
	size_t i;

	if (sim->nr_aggr % run->point_every)
		return;
	if (run->nr_points == SIM_MAX_POINTS) {
		for (i = 0; i < SIM_MAX_POINTS / 2; i++)
			run->points[i] = run->points[2 * i + 1];
		run->nr_points = SIM_MAX_POINTS / 2;
		run->point_every *= 2;
		if (sim->nr_aggr % run->point_every)
			return;
	}
	if (run->nr_points == run->cap_points) {
		run->cap_points = run->cap_points ? 2 * run->cap_points : 256;
		run->points = realloc(run->points, run->cap_points *
				      sizeof(*run->points));
		if (!run->points)
			cli_die("out of memory");
	}
	for (i = 0; i < sim->nr; i++)
		if (sim->r[i].nr_accesses)
			wss += sim->r[i].end - sim->r[i].start;
	p = &run->points[run->nr_points++];
	p->t_us = hs_sim_now_us(sim);
	p->resident = (wl->nr_pages - wl->nr_out) << HS_PAGE_SHIFT;
	p->faults = wl->faults;
	p->wss = wss;
	p->nr_regions = sim->nr;
}

/* Called by DAMOS at every action: the summary and --actions. */
static void on_event(const struct hs_sim *sim, const struct hs_event *e,
		     void *ctx)
{
	struct sim_run *run = ctx;

	(void)sim;
	sim_picks_add(run, e);
	if (run->actions)
		sim_actions_row(run, e);
}

/* Called by DAMOS when a charge window sets a scheme's effective size. */
static void on_quota(const struct hs_sim *sim, unsigned int scheme,
		     const struct hs_quota *q, void *ctx)
{
	struct sim_run *run = ctx;
	struct sim_qwin *w;

	if (q->goal.metric == HS_GOAL_NONE)
		return;
	if (run->nr_qwin == run->cap_qwin) {
		run->cap_qwin = run->cap_qwin ? run->cap_qwin * 2 : 64;
		run->qwin = realloc(run->qwin, run->cap_qwin *
				    sizeof(*run->qwin));
		if (!run->qwin)
			cli_die("out of memory");
	}
	w = &run->qwin[run->nr_qwin++];
	w->t_us = hs_sim_now_us(sim);
	w->scheme = scheme;
	w->current = q->goal_current;
	w->esz = q->esz;
}

/* Called by kdamond at each aggregation, before the reset. */
static void on_aggregate(const struct hs_sim *sim, void *ctx)
{
	struct sim_run *run = ctx;

	add_point(run, sim);
	if (run->record)
		sim_record_snapshot(run, sim);
	if (run->heat)
		sim_heat_add(run->heat, sim);
}

static void show_progress(struct sim_run *run, const struct hs_sim *sim)
{
	uint64_t now = hs_host_now_ns();

	if (now - run->last_progress_ns < 200000000ULL)
		return;
	run->last_progress_ns = now;
	cli_progress_at((double)hs_sim_now_us(sim) / sim->cfg.duration_us,
			"sim: %s: %.1f of %.1f s simulated, %zu region%s",
			run->profile, hs_sim_now_us(sim) / 1e6,
			sim->cfg.duration_us / 1e6, sim->nr, cli_s(sim->nr));
}

/* The simulation's steps, with progress. */
static void steps_of_run(void *ctx)
{
	struct sim_run *run = ctx;

	while (hs_sim_step(&run->sim))
		if (!(++run->steps & 1023))
			show_progress(run, &run->sim);
}

/* The process' peak resident set, for --json's memory per region. */
static long peak_rss_kb(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? -1 : ru.ru_maxrss;
}

static void run_one(struct sim_cmd *c, struct sim_run *run, bool first)
{
	struct hs_sim_config cfg = c->cfg;
	char err[256];
	uint64_t t0;

	run->variant = profile_variant(c, run->profile);
	run->point_every = 1;
	setup_workload(c, &run->wl);
	cand_now = cand_of(run->variant);
	run->cand = cand_now;
	cfg.comp = run->variant->comp;
	cfg.score_fn = cand_now ? cand_thunk_guarded : run->variant->fn;
	cfg.scorer = run->scorer;
	if (run->scorer != HS_SCORER_KERNEL)
		cfg.capture = 0;	/* the replay times the kernel's form */
	cfg.clock = c->timing ? &c->host.clock : NULL;
	cfg.on_aggregate = on_aggregate;
	cfg.on_event = on_event;
	cfg.on_quota = on_quota;
	cfg.ctx = run;
	if (first && c->record)
		sim_record_begin(run, c);	/* run->record is open */
	if (first && c->actions)
		sim_actions_begin(run);		/* run->actions is open */
	if (first && c->heatmap) {
		run->heat = calloc(1, sizeof(*run->heat));
		if (!run->heat)
			cli_die("out of memory");
	}
	if (hs_sim_init(&run->sim, &cfg, &run->wl, err, sizeof(err)))
		cli_die("%s", err);
	t0 = hs_host_now_ns();
	if (cand_now)	/* a trap or a hang stops the run: report_trap() */
		run->trap = hs_trap_guard(steps_of_run, run);
	else
		steps_of_run(run);
	run->wall_ns = hs_host_now_ns() - t0;
	cli_progress_done();
	/* not after a trap: the inputs kept hold the one that trapped */
	if (c->timing && run->sim.nr_inputs && !run->trap) {
		cli_progress("sim: %s: timing the score function on %zu captured input%s",
			    run->profile, run->sim.nr_inputs,
			    cli_s(run->sim.nr_inputs));
		struct hs_pool pool = { run->sim.inputs,
					sizeof(*run->sim.inputs),
					run->sim.nr_inputs, 1 };

		run->have_cost = !hs_bench_replay(&c->host.clock,
						  run->variant->fn, &pool,
						  &run->cost);
		cli_progress_done();
	}
	run->max_rss_kb = peak_rss_kb();	/* the writer prints it */
}

/*
 * A candidate that trapped or hung: where, and the command that shows it.
 */
static void report_trap(const struct sim_cmd *c, const struct sim_run *run)
{
	unsigned int k = run->variant == &cand_runs[1].var;
	const struct hs_spec *base = &cand_runs[k].base;
	char args[512], what[96], profile[416], cmd[1024];
	struct hs_spec other;

	cli_score_args(&cand_in, args, sizeof(args));
	if (run->trap == HS_CAND_HANG)
		snprintf(what, sizeof(what), "did not return (hang: a call ran past --call_limit %s)",
			 cli_call_limit_text());
	else
		snprintf(what, sizeof(what), "trapped (%s)",
			 hs_cand_trap_name(run->trap));
	/* beside it: the other profile if --base is not it, else its base */
	cli_spec_parse("--profile", c->profiles[!k], &other);
	cli_spec_profiles(&cand_runs[k].sp, cand_base &&
			  hs_spec_is_model(&other) ? other.given : base->name,
			  base, profile, sizeof(profile));
	fflush(stdout);
	layout_printf(stderr, SIM_COLS, "hotscore sim: profile %s: damon_hot_score() %s at %.3f s; stopped\n",
		      run->variant->name, what, hs_sim_now_us(&run->sim) / 1e6);
	snprintf(cmd, sizeof(cmd), "hotscore score %s%s%s%s", profile,
		 *args ? " " : "", args, cli_call_limit_arg());
	layout_command(stderr, "  reproduce: ", 4, cmd, NULL, SIM_COLS);
}

/* A score outside [0, 99] indexes past the kernel's histogram. */
static void report_overrun(const struct sim_run *run)
{
	const struct hs_input *in = &run->sim.overrun_in;
	char args[512], cmd[1024];

	cli_score_args(in, args, sizeof(args));
	fflush(stdout);
	layout_printf(stderr, SIM_COLS, "hotscore sim: profile %s: damon_hot_score() returned %d at %.3f s: the kernel would write past regions_score_histogram[99]; stopped\n",
		      run->profile, run->sim.overrun_hot,
		      hs_sim_now_us(&run->sim) / 1e6);
	snprintf(cmd, sizeof(cmd), "hotscore score --profile %s%s%s",
		 run->profile, *args ? " " : "", args);
	layout_command(stderr, "  reproduce: ", 4, cmd, NULL, SIM_COLS);
}

/*
 * The duration (one pass of the workload unless given) and what it
 * implies, checked before anything runs or is written.
 */
static void check_duration(struct sim_cmd *c)
{
	const struct hs_attrs *a = &c->cfg.attrs;
	struct hs_sim_config cfg = c->cfg;
	struct hs_workload wl;
	unsigned int k;
	char err[256];

	/* the workload file and every profile, before any output opens */
	setup_workload(c, &wl);
	if (!c->cfg.duration_us) {
		c->cfg.duration_us = wl.total_ms * 1000;
		if (c->cfg.duration_us > CLI_DAMOS_MAX_US)
			cli_die("--workload: %s: one pass is %.1f days; give --duration (at most 30 days)",
			       c->workload, c->cfg.duration_us / 86400e6);
	}
	hs_workload_free(&wl);
	for (k = 0; k < c->nr_runs; k++) {
		cfg.comp = profile_variant(c, c->profiles[k])->comp;
		if (hs_sim_validate(&cfg, err, sizeof(err)))
			cli_die("%s: %s", c->profiles[k], err);
	}
	if (c->cfg.duration_us / a->sample_us > SIM_MAX_SAMPLES)
		cli_die("--duration: %.1f s at --sample %lu us is more than 10^9 samples",
		       c->cfg.duration_us / 1e6, a->sample_us);
	/* about 150 bytes a region: keep a record under about 3 GB */
	if (c->record && (c->cfg.duration_us / a->aggr_us + 1) *
	    a->max_nr_regions > SIM_MAX_RECORD)
		cli_die("--record: %llu snapshots x %lu regions: too large; lower --duration or --maxr",
		       (unsigned long long)(c->cfg.duration_us / a->aggr_us + 1),
		       a->max_nr_regions);
}

/* The output files, open on their temporary files before anything runs. */
static void open_outputs(struct sim_cmd *c)
{
	c->json_f = cli_out_open("--json", c->json);
	c->heat_f = cli_out_open("--heatmap", c->heatmap);
	c->runs[0].record = cli_out_open("--record", c->record);
	c->runs[0].actions = cli_out_open("--actions", c->actions);
	c->runs[0].actions_path = c->actions;
	c->runs[0].actions_json = c->actions_json;
}

/* Each run (two for a comparison); 1 when one trapped, hung or overran. */
static int run_all(struct sim_cmd *c)
{
	int status = 0;
	unsigned int k;

	for (k = 0; k < c->nr_runs; k++) {
		c->runs[k].profile = c->profiles[k];
		c->runs[k].scorer = c->scorers[k];
		snprintf(c->runs[k].label, sizeof(c->runs[k].label), "%s%s%s",
			 c->profiles[k], c->scorers[k] ? "/" : "",
			 c->scorers[k] ? hs_scorer_name(c->scorers[k]) : "");
		run_one(c, &c->runs[k], k == 0);
		if (c->runs[k].trap) {
			report_trap(c, &c->runs[k]);
			status = 1;
		} else if (c->runs[k].sim.overrun) {
			report_overrun(&c->runs[k]);
			status = 1;
		}
	}
	return status;
}

/*
 * The scores of two profiles, call by call: the first profile's run again,
 * untimed, whose every score call asks both profiles and goes on with the
 * first's score, so that the run repeats the first run's decisions.
 */
static struct {
	const struct hs_variant *v[2];
	const struct hs_cand *cand[2];
	struct sim_diff *d;
	struct sim_run *run;
	struct hs_input in;		/* the call at hand */
	struct hs_input first;		/* the first that differs */
} shadow;

static int shadow_score(unsigned int k, const struct hs_input *in)
{
	if (shadow.cand[k])	/* inside hs_trap_guard(): a trap leaves it */
		return hs_cand_call_hot(shadow.cand[k], in);
	return shadow.v[k]->fn(in);
}

static int shadow_thunk(const void *p)
{
	struct sim_diff *d = shadow.d;
	int a, b;

	shadow.in = *(const struct hs_input *)p;
	a = shadow_score(0, &shadow.in);
	b = shadow_score(1, &shadow.in);
	d->nr_calls++;
	if (a != b && !d->nr_differ++) {
		shadow.first = shadow.in;
		d->first_a = a;
		d->first_b = b;
		d->first_us = hs_sim_now_us(&shadow.run->sim);
	}
	return a;
}

/* @c's profile @k as `hotscore score` takes it, its base in @base. */
static void spec_of(const struct sim_cmd *c, unsigned int k,
		    struct hs_spec *sp, struct hs_spec *base)
{
	const struct hs_cand *cand = cand_of(c->runs[k].variant);
	unsigned int j = c->runs[k].variant == &cand_runs[1].var;

	if (cand) {
		*sp = cand_runs[j].sp;
		*base = cand_runs[j].base;
	} else {
		cli_spec_parse("--profile", c->profiles[k], sp);
	}
}

/* The `hotscore score` command that shows both profiles on @in. */
static void diff_command(const struct sim_cmd *c, const struct hs_input *in,
			 char *buf, size_t size)
{
	struct hs_spec a, b, base = { 0 };

	spec_of(c, 0, &a, &base);
	spec_of(c, 1, &b, &base);
	cli_pair_command(&a, &b, &base, in, buf, size);
}

static const char *shadow_setup(struct sim_cmd *c, struct hs_sim_config *cfg)
{
	unsigned int k;

	if (!c->compare || c->compare_scorers)
		return "one profile";
	for (k = 0; k < 2; k++)
		if (c->runs[k].trap || c->runs[k].sim.overrun)
			return "a run stopped";
	memset(&shadow, 0, sizeof(shadow));
	for (k = 0; k < 2; k++) {
		shadow.v[k] = c->runs[k].variant;
		shadow.cand[k] = cand_of(shadow.v[k]);
	}
	shadow.d = &c->diff;
	*cfg = c->cfg;
	cfg->comp = shadow.v[0]->comp;
	cfg->score_fn = shadow_thunk;
	cfg->scorer = HS_SCORER_KERNEL;
	cfg->capture = 0;
	cfg->clock = NULL;
	cfg->max_events = 0;	/* the hash covers every action */
	cfg->on_aggregate = NULL;
	cfg->on_event = NULL;
	cfg->on_quota = NULL;
	cfg->ctx = NULL;
	return NULL;
}

/*
 * Two profiles: how many of the first run's score calls the second
 * profile scores differently, and the first of them as a command; 1 when
 * the second traps or hangs on one.
 */
static int compare_scores(struct sim_cmd *c)
{
	struct sim_diff *d = &c->diff;
	struct hs_sim_config cfg;
	struct sim_run *run;
	char err[256];

	d->why_not = shadow_setup(c, &cfg);
	if (d->why_not)
		return 0;
	run = cli_xcalloc(1, sizeof(*run));
	run->profile = "scores of both profiles";
	shadow.run = run;
	setup_workload(c, &run->wl);
	if (hs_sim_init(&run->sim, &cfg, &run->wl, err, sizeof(err)))
		cli_die("%s", err);
	d->trap = hs_trap_guard(steps_of_run, run);
	cli_progress_done();
	if (d->trap)
		diff_command(c, &shadow.in, d->command, sizeof(d->command));
	else if (d->nr_differ)
		diff_command(c, &shadow.first, d->command, sizeof(d->command));
	/* the same scores for the first profile: the same decisions */
	d->scored = !d->trap && run->sim.hash == c->runs[0].sim.hash &&
		run->sim.nr_events == c->runs[0].sim.nr_events;
	if (!d->scored && !d->trap)
		d->why_not = "the first run did not repeat";
	hs_sim_free(&run->sim);
	hs_workload_free(&run->wl);
	free(run);
	return d->trap ? 1 : 0;
}

/* Every output finished, then all renamed into place at once. */
static void finish_outputs(struct sim_cmd *c)
{
	if (c->record) {	/* the zlib stream ends before the file does */
		sim_record_end(&c->runs[0]);
		cli_out_done(c->runs[0].record);
	}
	if (c->actions) {
		sim_actions_end(&c->runs[0]);
		cli_out_done(c->runs[0].actions);
	}
	if (c->heatmap) {
		sim_heat_write(c->runs[0].heat, c, c->heat_f);
		cli_out_done(c->heat_f);
	}
	if (c->json && sim_write_json(c, c->json_f))
		cli_die("--json: %s: %s", c->json, strerror(errno));
	cli_out_done(c->json_f);
	cli_out_commit();	/* all of them, or none */
}

static void sim_free(struct sim_cmd *c)
{
	unsigned int k;

	if (c->timing)
		hs_host_fini(&c->host);
	for (k = 0; k < c->nr_runs; k++) {
		hs_sim_free(&c->runs[k].sim);
		hs_workload_free(&c->runs[k].wl);
		free(c->runs[k].points);
		free(c->runs[k].qwin);
		free(c->runs[k].heat);
	}
	free(c->text);
	free(c);
}

static int sim_run(int argc, char **argv)
{
	struct sim_cmd *c = calloc(1, sizeof(*c));
	char err[256];
	int status;

	if (!c)
		cli_die("out of memory");
	parse_args(c, argc, argv);
	c->cfg.batch = hs_fast_batch_for(cli_simd_choice());
	check_duration(c);	/* the workload and every profile, too */
	if (c->timing)	/* it may re-execute: before any output exists */
		hs_host_fixed_layout(hs_argv);
	open_outputs(c);
	if (c->timing && hs_host_init(&c->host, -1, HS_CLOCK_AUTO, err,
				      sizeof(err)))
		cli_die("%s", err);
	status = run_all(c);
	if (c->compare) {
		sim_decisions_diff(c);
		status |= compare_scores(c);
	}
	finish_outputs(c);
	sim_report(stdout, c);
	if (c->compare && sim_compare(stdout, c))
		status = status ? status : 1;
	sim_free(c);
	return status;
}

const struct cli_cmd cmd_sim = {
	.name = "sim",
	.summary = "kdamond and DAMOS in user space: what the quota picks, what scoring costs",
	.usage = "hotscore sim [--workload NAME|FILE] [--duration T]"
		 " [--profile P[,P2]] [--damos_* ...] ...",
	.about = "Simulate kdamond (linux-mm 2026) and DAMOS over a masim"
		 " workload, far faster than real\ntime; report what the quota"
		 " picked and what each stage, and the score function,\ncost in"
		 " context.  Options follow damo's names.",
	.notes = CLI_DAMOS_NOTES
		 "T is a time: 5000 (us), 5ms, 1.5s; ns, us, ms, s, m, h.  Sizes"
		 " take B, K/KiB, M/MiB,\nG/GiB, T/TiB (1024) or KB, MB, GB, TB"
		 " (1000); min and max are sizes too.",
	.opts = sim_opts,
	.nr_opts = sizeof(sim_opts) / sizeof(sim_opts[0]),
	.run = sim_run,
};
