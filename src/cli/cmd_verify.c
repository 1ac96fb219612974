// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_verify.c - `hotscore verify`: the age_in_log methods proven equal over
 * every 32-bit age_in_sec, every pair of profiles compared over the grid
 * and random domains, every profile's invariants checked, and each finding
 * shrunk to a small `hotscore score` command line.
 *
 * Exit status 1 when profiles that differ only in their age_in_log method
 * (the 2026 patches' claim) disagree anywhere, or the methods do: verify can
 * gate a change in CI.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hotscore/cand.h>
#include <hotscore/record_write.h>
#include <hotscore/score_fast.h>
#include <hotscore/json_out.h>
#include <hotscore/kernel.h>
#include <hotscore/verify.h>

#include "cli.h"
#include "opt.h"
#include "outfile.h"
#include "cmd_verify.h"
#include "verify_cand.h"
#include "verify_captured.h"

#define FULL_RANDOM 10000000UL
#define QUICK_RANDOM 100000UL

enum { O_PROFILE, O_QUICK, O_THREADS, O_SEED, O_RANDOM, O_JSON, O_LIST,
       O_CANDIDATE, O_AGAINST, O_BASE, O_CAPTURED, O_CALL_LIMIT };

static const struct opt verify_opts[] = {
	{ .id = O_PROFILE, .name = "profile", .old = "profiles",
	  .type = OPT_LIST, .arg = "LIST", .dflt = "all", .flags = OPT_CANDS,
	  .help = "profiles or FREQ+DIVISOR+AGE+CLAMP combinations",
	  .words = "@profiles+all", .example = "v6.6,hotfix" },
	{ .id = O_CANDIDATE, .name = "candidate", .type = OPT_STR,
	  .arg = "FILE", .flags = OPT_INPUT | OPT_CANDS | OPT_REPEAT,
	  .words = "@file",
	  .help = "a damon_hot_score() of your own (a C file, as"
		  " mm/damon/ops-common.c has it; NAME=FILE names it): compare"
		  " it with --against instead; given again, each is compared"
		  " with --against and with the others", .example = "./mine.c" },
	{ .id = O_AGAINST, .name = "against", .type = OPT_STR,
	  .arg = "P|FILE", .dflt = CLI_DEFAULT_PROFILE,
	  .flags = OPT_CANDS, .words = "@profiles @file",
	  .help = "what a --candidate is compared with: a profile, a"
		  " combination or another candidate file (patch v1)",
	  .example = "v2-ilog2", .with = "--candidate ./mine.c" },
	{ .id = O_CAPTURED, .name = "captured", .type = OPT_STR,
	  .arg = "FILE", .flags = OPT_INPUT | OPT_STDIN, .words = "@file",
	  .help = "a live kdamond's calls, as hotscore.ko mode=capture recorded"
		  " them: check each against every --profile (profiles,"
		  " combinations or candidate files) and name those that agree"
		  " with all (docs/kernel.md)",
	  .example = "tests/data/capture-6.1.192.csv" },
	CLI_BASE_OPT(O_BASE, "--against (a file: hotfix); --captured: the"
		     " first profile of --profile, else hotfix", 0,
		     "--candidate ./mine.c"),
	CLI_CALL_LIMIT_OPT(O_CALL_LIMIT, 0, "--candidate ./mine.c"),
	{ .id = O_QUICK, .name = "quick", .type = OPT_FLAG,
	  .help = "boundaries and a stride of each domain (make test)" },
	{ .id = O_THREADS, .name = "threads", .type = OPT_COUNT, .arg = "N",
	  .dflt = "one per online CPU", .help = "worker threads", .min = 1,
	  .max = 256, .example = "2" },
	{ .id = O_SEED, .name = "seed", .type = OPT_COUNT, .arg = "N",
	  .dflt = "1", .help = "seed of the random domain", .example = "7" },
	{ .id = O_RANDOM, .name = "random", .type = OPT_COUNT, .arg = "N",
	  .dflt = "10000000; --quick 100000",
	  .help = "inputs in the random domain", .max = 1000000000,
	  .example = "1000" },
	{ .id = O_JSON, .name = "json", .type = OPT_STR, .arg = "FILE",
	  .flags = OPT_OUTPUT | OPT_WRITE, .words = "@file",
	  .help = "every count and example (docs/verify.md)",
	  .example = "v.json" },
	{ .id = O_LIST, .name = "list-profiles", .type = OPT_FLAG,
	  .flags = OPT_EXIT,
	  .help = "the built-in profiles (as hotscore score --list-profiles)" },
};

static void add_profile(void *ctx, const char *name)
{
	struct verify *v = ctx;
	unsigned int nr = v->cfg.nr;

	cli_spec_add("--profile", name, v->specs, &nr, HS_VERIFY_MAX_PROFILES,
		     true);
	if (!hs_spec_is_model(&v->specs[nr - 1]))
		cli_usage_die("--profile: '%s' is a file: give it as --candidate",
			      name);
	v->cfg.comp[v->cfg.nr++] = v->specs[nr - 1].comp;
}


static void set(void *ctx, const struct opt *o, const struct opt_val *val,
		unsigned int nr)
{
	struct verify *v = ctx;

	(void)nr;
	switch (o->id) {
	case O_PROFILE:
		v->profile_list = val->s;	/* read once --captured is known */
		break;
	case O_CAPTURED:
		v->captured = val->s;
		break;
	case O_QUICK:
		v->cfg.quick = true;
		break;
	case O_THREADS:
		v->cfg.threads = (unsigned int)val->u;
		break;
	case O_SEED:
		v->cfg.seed = val->u;
		break;
	case O_RANDOM:
		v->cfg.random = val->u;
		v->random_set = true;
		break;
	case O_JSON:
		v->json = val->s;
		break;
	case O_LIST:
		cli_list_profiles();
		cli_exit(0);
	case O_CANDIDATE:
		if (v->nr_cands == VERIFY_MAX_CANDS)
			cli_usage_die("--candidate: more than %d candidates",
				      VERIFY_MAX_CANDS);
		v->cands[v->nr_cands++] = val->s;
		break;
	case O_AGAINST:
		v->against = val->s;
		break;
	case O_BASE:
		v->base = val->s;
		break;
	case O_CALL_LIMIT:
		cli_call_limit_set(val->u);
		break;
	}
}

static void parse(struct verify *v, int argc, char **argv)
{
	static struct hs_spec against;	/* checked here, loaded later */
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int i;

	v->cfg.threads = cpus > 0 ? (unsigned int)cpus : 1;
	v->cfg.fast = true;
	/* every batch scorer this CPU runs, whatever HOTSCORE_SIMD says */
	for (i = 0; i < HS_NR_FAST_IMPLS; i++)
		if (hs_fast_impl_supported(i))
			v->cfg.batch_impls |= 1u << i;
	v->cfg.seed = CLI_DEFAULT_SEED;
	opt_parse(&cmd_verify, argc, argv, set, v);
	if (v->captured && v->nr_cands)
		cli_usage_die("--captured takes candidates in --profile (--profile hotfix,./mine.c)");
	if (v->captured && (opt_given(O_AGAINST) || opt_given(O_QUICK) ||
			    opt_given(O_RANDOM) || opt_given(O_SEED) ||
			    opt_given(O_THREADS)))
		cli_usage_die("--captured takes --profile, --base, --call_limit and --json only");
	if (v->captured && v->base)
		cli_profile_named("--base", v->base);
	if (v->captured)
		return;
	if (v->profile_list)
		cli_each_profile("--profile", v->profile_list, add_profile, v);
	if (v->nr_cands && opt_given(O_PROFILE))
		cli_usage_die("--candidate is compared with --against PROFILE, not --profile");
	if (!v->nr_cands && (opt_given(O_AGAINST) || opt_given(O_BASE)))
		cli_usage_die("--against and --base go with --candidate FILE or --captured FILE");
	if (!v->nr_cands && opt_given(O_CALL_LIMIT))
		cli_usage_die("--call_limit goes with --candidate FILE or --captured FILE");
	if (v->against)
		cli_spec_parse("--against", v->against, &against);
	if (v->base)
		cli_profile_named("--base", v->base);
	if (!opt_given(O_PROFILE))
		for (i = 0; i < hs_nr_profiles; i++)
			add_profile(v, hs_profiles[i].name);
	if (!v->random_set)
		v->cfg.random = v->cfg.quick ? QUICK_RANDOM : FULL_RANDOM;
	opt_parsed(&cmd_verify);
	opt_reproduce(&cmd_verify, v->command, sizeof(v->command));
}

/* A bar on stderr, only when it is a terminal, and the ETA (progress.c). */
static void progress(void *ctx, const struct hs_verify_progress *p)
{
	double frac = p->total ? (double)p->done / (double)p->total : 0;
	char bar[31];
	int i, fill = (int)(frac * 30);

	(void)ctx;
	for (i = 0; i < 30; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[30] = '\0';
	cli_progress_at(frac, "verify [%s] %s %.0f%% of %.3g M", bar,
			hs_domain_name(p->domain), p->domain_total ?
			100.0 * (double)p->domain_done /
			(double)p->domain_total : 0,
			(double)p->domain_total / 1e6);
}

struct pair_ctx {
	const struct hs_components *a, *b;
	unsigned int cls;
};

static bool pair_pred(const struct hs_input *in, const void *ctx)
{
	const struct pair_ctx *c = ctx;
	unsigned int cls;

	return hs_pair_class(c->a, c->b, in, &cls) && cls == c->cls;
}

struct inv_ctx {
	const struct hs_components *c;
	enum hs_invariant inv;
};

static bool inv_pred(const struct hs_input *in, const void *ctx)
{
	const struct inv_ctx *c = ctx;
	bool checked;

	return hs_violates(c->c, c->inv, in, &checked);
}

static bool fast_pred(const struct hs_input *in, const void *ctx)
{
	const struct hs_components *c = ctx;
	struct hs_result model = hs_score(c, in, NULL), fast;
	static struct hs_prep p;	/* 3.5 KB: not on the stack */

	hs_prep_init(&p, c, in);
	fast = hs_fast_score(&p, hs_fast_nr_of(c, in), in->last_nr_accesses,
			     in->age);
	return !hs_fast_same(&model, &fast);
}

/* A batch scorer of a profile, for batch_pred(). */
struct batch_ctx {
	const struct hs_components *c;
	enum hs_fast_impl impl;
};

static bool batch_pred(const struct hs_input *in, const void *ctx)
{
	const struct batch_ctx *b = ctx;
	static struct hs_prep p;	/* 3.9 KB: not on the stack */
	struct hs_result model = hs_score(b->c, in, NULL);
	struct hs_result got = hs_batch_result(&p, b->c, b->impl, in);

	return !hs_fast_same(&model, &got);
}

/* Every example, made small. */
static void shrink_all(struct verify *v)
{
	unsigned int a, b, k, nr = v->cfg.nr;
	struct hs_input dflt;

	cli_score_defaults(&dflt);
	for (a = 0; a < nr; a++) {
		for (b = a + 1; b < nr; b++)
			for (k = 0; k < HS_NR_PAIR_CLASSES; k++) {
				struct pair_ctx ctx = { &v->cfg.comp[a],
							&v->cfg.comp[b], k };

				if (v->res.pair[a][b].ex[k].found)
					hs_shrink(&v->res.pair[a][b].ex[k].in,
						  &dflt, pair_pred, &ctx);
			}
		if (v->res.fast[a].ex.found)
			hs_shrink(&v->res.fast[a].ex.in, &dflt, fast_pred,
				  &v->cfg.comp[a]);
		if (v->res.fast[a].batch_ex.found) {
			struct batch_ctx ctx = { &v->cfg.comp[a],
						 v->res.fast[a].batch_impl };

			hs_shrink(&v->res.fast[a].batch_ex.in, &dflt,
				  batch_pred, &ctx);
		}
		for (k = 0; k < HS_NR_INVARIANTS; k++) {
			struct inv_ctx ctx = { &v->cfg.comp[a], k };

			if (v->res.inv[a][k].ex.found)
				hs_shrink(&v->res.inv[a][k].ex.in, &dflt,
					  inv_pred, &ctx);
		}
	}
}

/**
 * find_classes() - the classes of @v's profiles that agree on every input
 * checked (struct classes says why agreement is an equivalence).
 * @v:		the run.
 * @c:		the classes.
 */
void find_classes(const struct verify *v, struct classes *c)
{
	unsigned int a, b;

	memset(c, 0, sizeof(*c));
	for (a = 0; a < v->cfg.nr; a++) {
		for (b = 0; b < a && !pair_equal(&v->res.pair[b][a]); b++)
			;
		c->of[a] = b < a ? c->of[b] : c->nr++;
		c->members[c->of[a]] |= 1U << a;
	}
}

/*
 * --candidate FILE... [--against P|FILE] [--base P]: see verify_cand.c.
 * The base is --base, else --against where it is a model, else hotfix;
 * every file, --against's too, is compiled for it.
 */
static int run_candidates(struct verify *v)
{
	static struct verify_cand vc;
	unsigned int i;

	cli_spec_parse("--against", v->against ? v->against :
		       CLI_DEFAULT_PROFILE, &vc.against);
	hs_spec_base(&vc.against, 1, v->base ?
		     cli_profile_named("--base", v->base) : NULL, &vc.base);
	cli_spec_load("--against", &vc.against, &vc.base);
	for (i = 0; i < v->nr_cands; i++) {
		if (hs_spec_parse_file(v->cands[i], &vc.cands[i]))
			cli_die("--candidate: '%.40s...' is too long",
				v->cands[i]);
		cli_spec_load("--candidate", &vc.cands[i], &vc.base);
	}
	vc.nr_cands = v->nr_cands;
	vc.json = v->json;
	vc.command = v->command;
	vc.cfg.quick = v->cfg.quick;
	vc.cfg.threads = v->cfg.threads;
	vc.cfg.seed = v->cfg.seed;
	vc.cfg.random = v->cfg.random;
	return verify_candidates(&vc);
}

/* --captured FILE [--profile LIST] [--base P]: see verify_captured.c. */
static int run_captured(struct verify *v)
{
	static struct verify_captured vc;

	opt_parsed(&cmd_verify);
	opt_reproduce(&cmd_verify, v->command, sizeof(v->command));
	vc.path = v->captured;
	vc.profiles = v->profile_list;
	vc.base = v->base ? cli_profile_named("--base", v->base) : NULL;
	vc.json = v->json;
	vc.command = v->command;
	return verify_captured(&vc);
}

/*
 * `hotscore verify`.
 * @argc: argument count, argv[0] being "verify".
 * @argv: the arguments.
 *
 * Return: 0, or 1 if variants claimed equal differ.
 */
static int verify_run(int argc, char **argv)
{
	static struct verify v;
	FILE *json = NULL;

	parse(&v, argc, argv);
	if (v.captured)
		return run_captured(&v);
	if (v.nr_cands)
		return run_candidates(&v);
	json = cli_out_open("--json", v.json);
	if (isatty(STDERR_FILENO))
		v.cfg.progress = progress;
	if (hs_verify_run(&v.cfg, &v.res))
		cli_die("cannot start %u threads or allocate their memory",
		       v.cfg.threads);
	cli_progress_done();
	shrink_all(&v);
	verify_print_report(&v);
	if (json) {
		if (verify_write_json(&v, json))
			cli_die("--json: %s: %s", v.json, strerror(errno));
		cli_out_done(json);
		cli_out_commit();
	}
	return verdict(&v);
}

const struct cli_cmd cmd_verify = {
	.name = "verify",
	.summary = "variants proven equal over whole domains; where versions differ",
	.usage = "hotscore verify [--profile LIST] [--quick] [--threads N]"
		 " [--seed N] [--json FILE] ...\n"
		 "hotscore verify --candidate FILE [--candidate FILE2 ...]"
		 " [--against P|FILE] [--quick]\n"
		 "hotscore verify --captured FILE [--profile LIST]"
		 " [--base PROFILE] [--json FILE]",
	.about = "Prove the age_in_log methods equal over all 2^32 values of"
		 " age_in_sec, compare every\npair of profiles over a grid and a"
		 " random domain, check each profile's invariants\nand its"
		 " prepared scorer, and shrink every finding to a small `hotscore"
		 " score`\ncommand.  Exit 1 if profiles that differ only in their"
		 " age_in_log method disagree\nanywhere, so that verify can gate"
		 " a change in CI.\nWith --candidate FILE, prove your own"
		 " damon_hot_score() equal to --against (a profile\nor your"
		 " earlier version), or show where it differs; with --captured"
		 " FILE, check a\nlive kdamond's calls instead.",
	.opts = verify_opts,
	.nr_opts = sizeof(verify_opts) / sizeof(verify_opts[0]),
	.run = verify_run,
};
