// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_replay.c - hotscore replay TRACE: a 6.12 kdamond's DAMOS decisions,
 * replayed from its trace and held against what it did, region by region
 * (include/hotscore/replay.h, docs/replay.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <hotscore/json_out.h>
#include <hotscore/record_damos.h>
#include <hotscore/replay.h>
#include <hotscore/spec.h>

#include "cli.h"
#include "damos_opt.h"
#include "dtrace_opt.h"
#include "opt.h"
#include "outfile.h"
#include "report/layout.h"

enum { O_INPUT, O_PROFILE, O_OPS, O_MISSES, O_JSON };

static const struct opt replay_opts[] = {
	{ .id = O_INPUT, .name = "input", .type = OPT_STR, .arg = "TRACE",
	  .flags = OPT_INPUT | OPT_STDIN, .words = "@file",
	  .help = "the kdamond's trace: hs_tick, damos_before_apply, hs_quota"
		  " and damon_aggregated (tracefs' trace file); - is stdin;"
		  " also the bare argument",
	  .example = "tests/data/replay/damos-6.12.txt" },
	{ .id = O_PROFILE, .name = "profile", .type = OPT_STR, .arg = "P",
	  .dflt = CLI_TRACE_PROFILE, .flags = OPT_CANDS, .words = "@profiles",
	  .help = "the kernel's damon_hot_score(): a profile, a combination"
		  " or a candidate file", .example = "hotfix" },
	{ .id = O_OPS, .name = "ops", .type = OPT_STR, .arg = "OPS",
	  .dflt = "vaddr", .words = "vaddr paddr",
	  .help = "its operations: which score each action takes",
	  .example = "paddr" },
	CLI_KDAMOND_OPTS(NULL),
	{ .id = O_MISSES, .name = "misses", .type = OPT_COUNT, .arg = "N",
	  .dflt = "10", .max = 1000000,
	  .help = "print the first N misses", .example = "50" },
	CLI_DAMOS_OPTS,
	{ .id = O_JSON, .name = "json", .type = OPT_STR, .arg = "FILE",
	  .flags = OPT_OUTPUT | OPT_WRITE, .words = "@file",
	  .help = "the counts and every kept miss", .example = "r.json" },
};

struct replay_cmd {
	const char *input, *profile, *json;
	struct cli_kdamond kd;
	size_t max_misses;
	enum hs_ops ops;
	struct cli_schemes ss;
	struct cli_scheme_spec specs[HS_MAX_SCHEMES];
	unsigned int nr_schemes;
	struct hs_scheme schemes[HS_MAX_SCHEMES];
	struct hs_spec spec, base;
};

static void set(void *ctx, const struct opt *o, const struct opt_val *v,
		unsigned int nr)
{
	struct replay_cmd *c = ctx;

	if (cli_damos_take(&c->ss, o, v, nr) || cli_kdamond_take(&c->kd, o, v))
		return;
	switch (o->id) {
	case O_INPUT:
		if (c->input)
			cli_usage_die("one trace at a time ('%s' and '%s')",
				      c->input, v->s);
		c->input = v->s;
		break;
	case O_PROFILE: c->profile = v->s; break;
	case O_OPS: c->ops = cli_ops_parse(v->s); break;
	case O_MISSES: c->max_misses = (size_t)v->u; break;
	case O_JSON: c->json = v->s; break;
	}
}

static void parse_args(struct replay_cmd *c, int argc, char **argv)
{
	unsigned int i;

	cli_kdamond_init(&c->kd);
	c->max_misses = 10;
	c->ops = HS_OPS_VADDR;
	c->profile = CLI_TRACE_PROFILE;
	opt_parse(&cmd_replay, argc, argv, set, c);
	cli_kdamond_check(&c->kd);
	c->nr_schemes = cli_damos_specs(&c->ss, c->specs);
	for (i = 0; i < c->nr_schemes; i++)
		cli_damos_scheme(&c->specs[i], c->kd.sample_us, c->kd.aggr_us,
				 &c->schemes[i]);
	cli_spec_parse("--profile", c->profile, &c->spec);
	opt_parsed(&cmd_replay);	/* HOTSCORE_CHECK_ARGS: the options alone */
	if (!c->input)
		cli_usage_die("which trace? (hotscore replay TRACE)");
	hs_spec_base(&c->spec, 1, NULL, &c->base);
	cli_spec_load("--profile", &c->spec, &c->base);
}

static int hot(void *ctx, const struct hs_input *in)
{
	const struct replay_cmd *c = ctx;

	return hs_spec_score(&c->spec, in).hot;
}

static unsigned int nr_bits(unsigned long x)
{
	return (unsigned int)__builtin_popcountl(x);
}

static void print_miss(const struct hs_replay_miss *m)
{
	char text[512], min[64] = "";

	if (m->kind == HS_MISS_REGIONS) {
		snprintf(text, sizeof(text), "miss, regions after the walk, sample %lu (line %lu): kernel %lu-%lu: %u %u; %s",
			 m->sis, m->lineno, m->start, m->end, m->nr_accesses,
			 m->age, m->what);
		fputs("  ", stdout);
		layout_wrap(stdout, text, 2, 6, CLI_COLS, 0);
		return;
	}
	if (m->kernel_min_known)
		snprintf(min, sizeof(min), "min_score kernel %u, replay %u",
			 m->kernel_min, m->replay_min);
	else
		snprintf(min, sizeof(min), "min_score replay %u",
			 m->replay_min);
	snprintf(text, sizeof(text), "miss, %s: sample %lu, scheme %u, window %lu (line %lu): %lu-%lu (%lu B), nr_accesses %u, age %u; %s%s%s",
		 hs_miss_kind_name(m->kind), m->sis, m->scheme, m->window,
		 m->lineno, m->start, m->end, m->end - m->start,
		 m->nr_accesses, m->age, min, m->what[0] ? "; " : "",
		 m->what);
	fputs("  ", stdout);
	layout_wrap(stdout, text, 2, 6, CLI_COLS, 0);
}

static void print_result(const struct replay_cmd *c, const struct hs_dtrace *t,
			 const struct hs_replay_result *r)
{
	unsigned long total = r->nr_kernel + r->nr_replay_only;
	char text[512];
	size_t i, n;
	unsigned int s;
	int len = 0;

	printf("hotscore replay: %s: %zu samples, %zu applications; profile %s, HZ %lu,\n"
	       "  DAMON_MIN_REGION %lu\n", c->input, t->nr_iters, t->nr_applies,
	       c->spec.name, c->kd.hz, c->kd.min_region);
	printf("damos exact: %lu of %lu applications matched (%u schemes, %lu windows)\n",
	       r->nr_matched, total, nr_bits(r->schemes_applied),
	       r->nr_windows);
	for (s = 0; s < c->nr_schemes && len < (int)sizeof(text) - 40; s++)
		len += snprintf(text + len, sizeof(text) - (size_t)len,
				"%s%u: %lu", s ? ", " : "", s,
				r->per_scheme[s]);
	printf("  the kernel's applications per scheme: %s\n", text);
	printf("  state equal at %lu of %lu applications (nr_regions, esz, charged_sz, charged_from,\n"
	       "  min_score, total_charged_sz)\n", r->nr_quota_equal, r->nr_quota);
	printf("  regions after the walk equal in %lu of %lu aggregations where a scheme was due\n",
	       r->nr_aggr_equal, r->nr_aggr);
	snprintf(text, sizeof(text), "from the kernel, which no trace shows: the jiffies of each quota adjustment (the sample's hs_tick; at %lu a window's start, its charged_from; %lu window%s with nothing applied moved to where the next start says it began; %lu adjustment%s a jiffy or more past the check, where only the walk's regions show a window started); a time quota's action time at %lu window start%s (%lu with no later application: the last known used)",
		 r->nr_from_kernel, r->nr_reanchored,
		 r->nr_reanchored == 1 ? "" : "s", r->nr_late,
		 cli_s(r->nr_late), r->nr_ns_taken,
		 cli_s(r->nr_ns_taken), r->nr_ns_unseen);
	fputs("  ", stdout);
	layout_wrap(stdout, text, 2, 4, CLI_COLS, 0);
	/* the moving sum is nr_accesses * 10000 at a window's end only when
	 * the window's nomvsum / len_window truncates nothing */
	if (10000 % (c->kd.aggr_us / (c->kd.sample_us ? c->kd.sample_us : 1) ?: 1))
		printf("  note: aggregation / sample = %lu samples, which does not divide 10000: the kernel's\n"
		       "  moving sum drifts from nr_accesses * 10000, which the replay assumes\n",
		       c->kd.aggr_us / (c->kd.sample_us ? c->kd.sample_us : 1));
	n = r->nr_misses < c->max_misses ? r->nr_misses : c->max_misses;
	for (i = 0; i < n; i++)
		print_miss(&r->misses[i]);
	if (r->nr_misses > n)
		printf("  (%lu more misses; --misses N prints more)\n",
		       r->nr_misses - n);
}

static json_t *json_miss(const struct hs_replay_miss *m)
{
	return json_pack("{s:s, s:I, s:i, s:I, s:I, s:I, s:i, s:i, s:o, s:i, s:I, s:s}",
			 "kind", hs_miss_kind_name(m->kind),
			 "sis", (json_int_t)m->sis, "scheme", (int)m->scheme,
			 "window", (json_int_t)m->window,
			 "start", (json_int_t)m->start,
			 "end", (json_int_t)m->end,
			 "nr_accesses", (int)m->nr_accesses, "age", (int)m->age,
			 "kernel_min_score", m->kernel_min_known ?
			 json_integer(m->kernel_min) : json_null(),
			 "replay_min_score", (int)m->replay_min,
			 "line", (json_int_t)m->lineno, "what", m->what);
}

static void write_json(const struct replay_cmd *c, FILE *f,
		       const struct hs_replay_result *r)
{
	json_t *doc, *misses = json_array();
	size_t i, n = r->nr_misses < c->max_misses ? r->nr_misses :
		c->max_misses;

	for (i = 0; misses && i < n; i++)
		json_array_append_new(misses, json_miss(&r->misses[i]));
	doc = json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o}",
			"trace", c->input, "profile", c->spec.name,
			"applications", (json_int_t)(r->nr_kernel + r->nr_replay_only),
			"matched", (json_int_t)r->nr_matched,
			"kernel", (json_int_t)r->nr_kernel,
			"replay_only", (json_int_t)r->nr_replay_only,
			"quota", (json_int_t)r->nr_quota,
			"quota_equal", (json_int_t)r->nr_quota_equal,
			"aggregations", (json_int_t)r->nr_aggr,
			"aggregations_equal", (json_int_t)r->nr_aggr_equal,
			"schemes", (json_int_t)nr_bits(r->schemes_applied),
			"windows", (json_int_t)r->nr_windows,
			"misses", (json_int_t)r->nr_misses,
			"kept_misses", misses);
	if (hs_json_write_doc(f, doc, 0))
		cli_die("--json: %s: %s", c->json, doc ? strerror(errno) :
			"out of memory");
}

static int replay_run(int argc, char **argv)
{
	struct replay_cmd *c = cli_xcalloc(1, sizeof(*c));
	struct hs_replay_result r;
	struct hs_replay_cfg cfg;
	struct hs_dtrace t;
	char err[256];
	FILE *json;
	int status;

	parse_args(c, argc, argv);
	json = cli_out_open("--json", c->json);
	hs_dtrace_init(&t);
	cli_dtrace_read(c->input, &t);
	cli_replay_cfg(&c->kd, c->ops, c->schemes, c->nr_schemes, &cfg);
	cfg.hot = hot;
	cfg.ctx = c;
	cfg.max_misses = c->max_misses > 1000 ? c->max_misses : 1000;
	if (hs_replay(&cfg, &t, &r, err, sizeof(err)))
		cli_die("%s: %s", c->input, err);
	print_result(c, &t, &r);
	if (json)
		write_json(c, json, &r);
	cli_out_done(json);
	cli_out_commit();
	status = r.nr_misses ? 1 : 0;
	hs_replay_free(&r);
	hs_dtrace_free(&t);
	free(c);
	return status;
}

const struct cli_cmd cmd_replay = {
	.name = "replay",
	.summary = "a 6.12 kdamond's DAMOS decisions replayed from its trace, region by region",
	.usage = "hotscore replay TRACE [--profile P] [--sample T] [--aggr T]"
		 " [--damos_* ...] [--json FILE] ...",
	.about = "Read a 6.12 kdamond's trace (hs_tick and hs_quota kprobe"
		 " events, whose arguments\nhotscore.ko's debugfs file"
		 " damos_kprobes gives, with damos_before_apply and\n"
		 "damon_aggregated), replay kdamond_apply_schemes() at every"
		 " aggregation where a\nscheme is due, with the quotas' state"
		 " carried from the first sample, and compare\nevery application"
		 " and the regions after each walk with the kernel's.",
	.notes = CLI_DAMOS_NOTES
		 "The schemes, intervals and HZ must be the kdamond's.  Exit 0"
		 " when every application\nmatches, 1 on a miss (each printed"
		 " with its sample, window, region and both\nmin_scores), 2 on"
		 " bad input (docs/replay.md).",
	.opts = replay_opts,
	.nr_opts = sizeof(replay_opts) / sizeof(replay_opts[0]),
	.operand = "input",
	.run = replay_run,
};
