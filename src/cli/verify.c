// SPDX-License-Identifier: GPL-2.0
/*
 * verify.c - `hotscore verify`: the age_in_log methods proven equal over
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
#include <hotscore/damo_write.h>
#include <hotscore/fast.h>
#include <hotscore/json_out.h>
#include <hotscore/kernel.h>
#include <hotscore/verify.h>

#include "cli.h"
#include "opt.h"
#include "out.h"
#include "verify_cand.h"
#include "verify_captured.h"

#define FULL_RANDOM 10000000UL
#define QUICK_RANDOM 100000UL

struct verify {
	struct hs_verify_config cfg;
	char names[HS_VERIFY_MAX_PROFILES][64];
	const char *json;
	const char *candidate, *against, *base;	/* --candidate mode */
	const char *captured;			/* --captured mode */
	const char *profile_list;		/* --profile, as given */
	char command[4096];
	bool random_set;
	struct hs_verify_result res;
};

enum { O_PROFILE, O_QUICK, O_THREADS, O_SEED, O_RANDOM, O_JSON, O_LIST,
       O_CANDIDATE, O_AGAINST, O_BASE, O_CAPTURED, O_CALL_LIMIT };

static const struct opt verify_opts[] = {
	{ .id = O_PROFILE, .name = "profile", .old = "profiles",
	  .type = OPT_LIST, .arg = "LIST", .dflt = "all", .flags = OPT_CANDS,
	  .help = "profiles or FREQ+DIVISOR+AGE+CLAMP combinations",
	  .words = "@profiles+all", .example = "v6.6,hotfix" },
	{ .id = O_CANDIDATE, .name = "candidate", .type = OPT_STR,
	  .arg = "FILE", .flags = OPT_INPUT | OPT_CANDS, .words = "@file",
	  .help = "a damon_hot_score() of your own (a C file, as"
		  " mm/damon/ops-common.c has it; NAME=FILE names it): compare"
		  " it with --against instead", .example = "./mine.c" },
	{ .id = O_AGAINST, .name = "against", .type = OPT_STR,
	  .arg = "PROFILE", .dflt = CLI_DEFAULT_PROFILE, .words = "@profiles",
	  .help = "the profile a --candidate is compared with",
	  .example = "v2-ilog2", .with = "--candidate ./mine.c" },
	{ .id = O_CAPTURED, .name = "captured", .type = OPT_STR,
	  .arg = "FILE", .flags = OPT_INPUT, .words = "@file",
	  .help = "a live kdamond's calls, as hotscore.ko mode=capture recorded"
		  " them: check each against every --profile (profiles,"
		  " combinations or candidate files) and name those that agree"
		  " with all (docs/kernel.md)",
	  .example = "tests/data/capture-6.1.192.csv" },
	{ .id = O_BASE, .name = "base", .type = OPT_STR, .arg = "PROFILE",
	  .dflt = "--against; --captured: the first profile of --profile,"
		  " else hotfix", .words = "@profiles",
	  .help = "whose damon_max_nr_accesses() a candidate's kernel has",
	  .example = "v6.6", .with = "--candidate ./mine.c" },
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
	struct hs_spec sp;
	unsigned int i;

	cli_spec_parse("--profile", name, &sp);
	if (!hs_spec_is_model(&sp))
		cli_usage_die("--profile: '%s' is a file: compare a candidate with --candidate %s --against PROFILE",
			      name, name);
	for (i = 0; i < v->cfg.nr; i++)
		if (!strcmp(v->names[i], name))
			cli_die("--profile: '%s' is listed twice", name);
	if (v->cfg.nr == HS_VERIFY_MAX_PROFILES)
		cli_die("--profile: more than %d profiles",
		       HS_VERIFY_MAX_PROFILES);
	if (strlen(name) >= sizeof(v->names[0]))
		cli_die("--profile: '%.40s...' is too long", name);
	snprintf(v->names[v->cfg.nr], sizeof(v->names[0]), "%s", name);
	v->cfg.comp[v->cfg.nr++] = sp.comp;
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
		v->candidate = val->s;
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
	if (v->captured && v->candidate)
		cli_usage_die("--captured checks --profile's list: give a candidate there (--profile hotfix,./mine.c)");
	if (v->captured && (opt_given(O_AGAINST) || opt_given(O_QUICK) ||
			    opt_given(O_RANDOM) || opt_given(O_SEED) ||
			    opt_given(O_THREADS)))
		cli_usage_die("--captured takes --profile, --base, --call_limit and --json only");
	if (v->captured && v->base && !hs_profile_find(v->base))
		cli_usage_die("--base: no profile '%s' (see 'hotscore verify --list-profiles')",
			      v->base);
	if (v->captured)
		return;
	if (v->profile_list)
		cli_each_profile("--profile", v->profile_list, add_profile, v);
	if (v->candidate && opt_given(O_PROFILE))
		cli_usage_die("--candidate is compared with --against PROFILE, not --profile");
	if (!v->candidate && (opt_given(O_AGAINST) || opt_given(O_BASE)))
		cli_usage_die("--against and --base go with --candidate FILE or --captured FILE");
	if (!v->candidate && opt_given(O_CALL_LIMIT))
		cli_usage_die("--call_limit limits a candidate's calls: it goes with --candidate FILE or --captured FILE");
	if (v->against && !hs_profile_find(v->against))
		cli_usage_die("--against: no profile '%s' (see 'hotscore verify --list-profiles')",
			      v->against);
	if (v->base && !hs_profile_find(v->base))
		cli_usage_die("--base: no profile '%s' (see 'hotscore verify --list-profiles')",
			      v->base);
	if (!opt_given(O_PROFILE))
		for (i = 0; i < hs_nr_profiles; i++)
			add_profile(v, hs_profiles[i].name);
	if (!v->random_set)
		v->cfg.random = v->cfg.quick ? QUICK_RANDOM : FULL_RANDOM;
	opt_parsed(&cmd_verify);
	opt_reproduce(&cmd_verify, v->command, sizeof(v->command));
}

/* A bar on stderr, only when it is a terminal. */
static void progress(void *ctx, const struct hs_verify_progress *p)
{
	double frac = p->total ? (double)p->done / (double)p->total : 0;
	double rate = p->seconds > 0 ? (double)p->done / p->seconds : 0;
	char bar[31];
	int i, fill = (int)(frac * 30);

	(void)ctx;
	for (i = 0; i < 30; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[30] = '\0';
	fprintf(stderr, "\r\033[Kverify [%s] %5.1f%%  %s %.0f%% of %.3g M"
		"  ETA %.0f s", bar, 100 * frac, hs_domain_name(p->domain),
		p->domain_total ? 100.0 * (double)p->domain_done /
		(double)p->domain_total : 0, (double)p->domain_total / 1e6,
		rate > 0 ? (double)(p->total - p->done) / rate : 0);
	fflush(stderr);
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
	fast = hs_fast_score(&p, in->nr_accesses, in->last_nr_accesses,
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

/* "hot 125 out-of-range", or the div0 status alone. */
static void result_text(const struct hs_result *r, char *buf, size_t size)
{
	if (r->status == HS_DIV0)
		snprintf(buf, size, "%s", hs_status_name(r));
	else
		snprintf(buf, size, "hot %d %s", r->hot, hs_status_name(r));
}

/* The model's result on @in, as result_text() words it. */
static void outcome(const struct hs_components *c, const struct hs_input *in,
		    char *buf, size_t size)
{
	struct hs_result r = hs_score(c, in, NULL);

	result_text(&r, buf, size);
}

static bool agelog_equal(const struct hs_verify_result *res)
{
	unsigned int k;

	for (k = 0; k < HS_NR_AGELOG_WAYS; k++)
		if (res->agelog.mismatches[k])
			return false;
	return true;
}

static bool pair_equal(const struct hs_pair_stats *ps)
{
	return ps->agree == ps->inputs;
}

/* The exit status: 1 if a claimed equality failed. */
static int verdict(const struct verify *v)
{
	return hs_verify_ok(&v->cfg, &v->res) ? 0 : 1;
}

static void print_agelog(const struct verify *v)
{
	const struct hs_agelog_stats *st = &v->res.agelog;
	unsigned int k;

	printf("\nage_in_log, every method and fls implementation against the"
	       " shift loop\n(%u ways: fls and ilog2 on the arch, generic,"
	       " builtin%s fls):\n", st->ways, HS_HAVE_BSR ? " and bsr" : "");
	if (agelog_equal(&v->res)) {
		printf("  loop = fls = ilog2 on all %llu values of age_in_sec%s\n",
		       (unsigned long long)st->values, v->cfg.quick ?
		       " tried (--quick: boundaries and a stride)" : "");
		return;
	}
	for (k = 0; k < HS_NR_AGELOG_WAYS; k++)
		if (st->mismatches[k])
			printf("  %s differs from loop on %llu values, first"
			       " age_in_sec %u   FAIL\n",
			       hs_agelog_name(k / HS_NR_FLS_IMPL,
					      k % HS_NR_FLS_IMPL),
			       (unsigned long long)st->mismatches[k],
			       st->first[k]);
}

/* What the input is compared with, for a monotonicity invariant. */
static const char *neighbour(const struct hs_components *c,
			     enum hs_invariant inv, const struct hs_input *in)
{
	static char buf[96];
	struct hs_input next = *in;
	struct hs_result r;

	if (inv == HS_INV_RANGE || inv == HS_INV_SUM)
		return "";
	if (inv == HS_INV_ACCESSES)
		next.nr_accesses++;
	else
		next.age++;
	r = hs_score(c, &next, NULL);
	snprintf(buf, sizeof(buf), "; with %s: hot %d",
		 inv == HS_INV_ACCESSES ? "one more access" :
		 "one interval older", r.hot);
	return buf;
}

/* The prepared scorer's result on @in, as outcome() gives the model's. */
static void fast_outcome(const struct hs_components *c,
			 const struct hs_input *in, char *buf, size_t size)
{
	static struct hs_prep p;
	struct hs_result r;

	hs_prep_init(&p, c, in);
	r = hs_fast_score(&p, in->nr_accesses, in->last_nr_accesses, in->age);
	result_text(&r, buf, size);
}

/* Text output fits this many columns (the CLI conventions). */
#define COLS 100
/* Room for the names of every profile, " = " between them. */
#define NAMES_MAX (HS_VERIFY_MAX_PROFILES * 67)

/*
 * Print @text, the cursor being at column @col, breaking at spaces so that
 * no line passes COLS; continuation lines start at column @cont.  A word
 * longer than a line is cut, so the limit holds for any profile name.
 */
static void put_wrapped(int col, int cont, const char *text)
{
	while ((int)strlen(text) > COLS - col) {
		int room = COLS - col, i = room;

		while (i > 0 && text[i] != ' ')
			i--;
		if (!i)
			i = room;
		printf("%.*s\n%*s", i, text, cont, "");
		text += i;
		while (*text == ' ')
			text++;
		col = cont;
	}
	printf("%s\n", text);
}

/*
 * A `hotscore score` command, ready to paste: @lead ("      e.g. "), then
 * @cmd, broken with a backslash before a --flag where it would pass COLS
 * (continuation lines start at column @cont), then "  # @comment" at the
 * end of the last line, or on a line of its own where it does not fit.
 */
static void put_command(const char *lead, int cont, const char *cmd,
			const char *comment)
{
	int col = printf("%s", lead);
	const char *t = cmd;

	while (*t) {
		const char *end = strstr(t + 1, " --");
		int len = end ? (int)(end - t) : (int)strlen(t);

		/* a line that goes on keeps room for its " \" */
		if (t != cmd && col + 1 + len + (end ? 2 : 0) > COLS) {
			fputs(" \\\n", stdout);
			col = printf("%*s", cont, "");
		} else if (t != cmd) {
			col += printf(" ");
		}
		col += printf("%.*s", len, t);
		t += end ? len + 1 : len;
	}
	if (col + 4 + (int)strlen(comment) <= COLS)
		printf("  # %s\n", comment);
	else
		printf("\n%*s# %s\n", (int)strlen(lead), "", comment);
}

/*
 * Profiles that agree on every input checked, as classes.  Agreement (the
 * same status, and the same score unless both divide by zero at the same
 * site) is an equivalence, and a pair of raw profiles is checked on a
 * subset of the inputs of a pair with a moving-sum one, which a raw
 * profile scores as it does that subset: so equality is transitive, and a
 * profile joins the class of the first earlier profile it equals.
 */
struct classes {
	unsigned int nr;
	unsigned int of[HS_VERIFY_MAX_PROFILES];	/* profile -> class */
	unsigned int members[HS_VERIFY_MAX_PROFILES];	/* class -> mask */
};

static void find_classes(const struct verify *v, struct classes *c)
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

/* The first profile of @mask: the class's representative in examples. */
static unsigned int first_of(unsigned int mask)
{
	return (unsigned int)__builtin_ctz(mask);
}

static bool has(unsigned int mask, unsigned int a)
{
	return mask >> a & 1;
}

/* "v6.6 = rfc-fls = v2-ilog2": the profiles of @mask. */
static const char *names_of(const struct verify *v, unsigned int mask,
			    char *buf, size_t size)
{
	size_t at = 0;
	unsigned int a;

	buf[0] = '\0';
	for (a = 0; a < v->cfg.nr; a++)
		if (has(mask, a) && at < size)
			at += (size_t)snprintf(buf + at, size - at, "%s%s",
					       at ? " = " : "", v->names[a]);
	return buf;
}

static const struct hs_pair_stats *pair_of(const struct verify *v,
					   unsigned int x, unsigned int y)
{
	return x < y ? &v->res.pair[x][y] : &v->res.pair[y][x];
}

/* The count of class @k with @x as profile "a", whichever is stored first. */
static uint64_t pair_count(const struct verify *v, unsigned int x,
			   unsigned int y, unsigned int k)
{
	if (x > y)
		k = k % HS_NR_STATUS_CODES * HS_NR_STATUS_CODES +
		    k / HS_NR_STATUS_CODES;
	return pair_of(v, x, y)->count[k];
}

static bool claimed(const struct verify *v, unsigned int x, unsigned int y)
{
	return hs_claimed_equal(&v->cfg.comp[x], &v->cfg.comp[y]);
}

/* @x, @y and @x0, @y0 compare alike: the same inputs, counts and claim. */
static bool pair_alike(const struct verify *v, unsigned int x, unsigned int y,
		       unsigned int x0, unsigned int y0)
{
	const struct hs_pair_stats *p = pair_of(v, x, y);
	const struct hs_pair_stats *p0 = pair_of(v, x0, y0);
	unsigned int k;

	if (p->inputs != p0->inputs || p->agree != p0->agree ||
	    claimed(v, x, y) != claimed(v, x0, y0))
		return false;
	for (k = 0; k < HS_NR_PAIR_CLASSES; k++)
		if (pair_count(v, x, y, k) != pair_count(v, x0, y0, k))
			return false;
	return true;
}

/*
 * Does every pair of a profile of @mx and another of @my compare as their
 * first ones do?  Then one block, naming them all, stands for every pair.
 */
static bool pairs_uniform(const struct verify *v, unsigned int mx,
			  unsigned int my)
{
	unsigned int x0 = first_of(mx), y0 = first_of(my & ~(1U << x0));
	unsigned int x, y;

	for (x = 0; x < v->cfg.nr; x++)
		for (y = 0; y < v->cfg.nr; y++)
			if (x != y && has(mx, x) && has(my, y) &&
			    !pair_alike(v, x, y, x0, y0))
				return false;
	return true;
}

/*
 * An example on which @a and @b differ: a command for each, with its
 * result as a comment; side by side, aligned, when both lines fit.
 */
static void put_pair_example(const struct verify *v, unsigned int a,
			     unsigned int b, const struct hs_input *in)
{
	static const char fmt[] = "%s hotscore score %s%s--profile %-*s  # %s";
	static const char lead[] = "      e.g.";
	char args[512], ca[700], cb[700], ra[64], rb[64];
	int w = (int)(strlen(v->names[a]) > strlen(v->names[b]) ?
		      strlen(v->names[a]) : strlen(v->names[b]));
	const char *sp;

	cli_score_args(in, args, sizeof(args));
	sp = *args ? " " : "";
	outcome(&v->cfg.comp[a], in, ra, sizeof(ra));
	outcome(&v->cfg.comp[b], in, rb, sizeof(rb));
	if (snprintf(NULL, 0, fmt, lead, args, sp, w, "", ra) <= COLS &&
	    snprintf(NULL, 0, fmt, lead, args, sp, w, "", rb) <= COLS) {
		printf(fmt, lead, args, sp, w, v->names[a], ra);
		printf("\n");
		printf(fmt, "          ", args, sp, w, v->names[b], rb);
		printf("\n");
		return;
	}
	snprintf(ca, sizeof(ca), "hotscore score %s%s--profile %s", args, sp,
		 v->names[a]);
	snprintf(cb, sizeof(cb), "hotscore score %s%s--profile %s", args, sp,
		 v->names[b]);
	put_command("      e.g. ", 13, ca, ra);
	put_command("           ", 13, cb, rb);
}

/*
 * @a and @b (a < b), which differ somewhere, under the titles @ta and @tb
 * (their names, or their classes'): a count and an example per pair class.
 */
static void print_pair_block(const struct verify *v, unsigned int a,
			     unsigned int b, const char *ta, const char *tb)
{
	const struct hs_pair_stats *ps = &v->res.pair[a][b];
	static char line[2 * NAMES_MAX + 128];
	unsigned int k;

	snprintf(line, sizeof(line),
		 "%s vs %s: differ on %llu of %llu inputs%s", ta, tb,
		 (unsigned long long)(ps->inputs - ps->agree),
		 (unsigned long long)ps->inputs,
		 claimed(v, a, b) ? " (claimed equal: FAIL)" : "");
	printf("  ");
	put_wrapped(2, 6, line);
	for (k = 0; k < HS_NR_PAIR_CLASSES; k++) {
		unsigned int ca = k / HS_NR_STATUS_CODES;
		unsigned int cb = k % HS_NR_STATUS_CODES;

		if (!ps->count[k])
			continue;
		snprintf(line, sizeof(line), "%s %s, %s %s%s: %llu inputs",
			 v->names[a], hs_status_code_name(ca), v->names[b],
			 hs_status_code_name(cb),
			 ca == cb ? ", hot differs" : "",
			 (unsigned long long)ps->count[k]);
		printf("    ");
		put_wrapped(4, 8, line);
		put_pair_example(v, a, b, &ps->ex[k].in);
	}
}

/* @a and @b agree on every input: "@titles: agree on all N inputs". */
static void print_equal(const struct verify *v, unsigned int a, unsigned int b,
			const char *titles)
{
	static char line[NAMES_MAX + 96];

	snprintf(line, sizeof(line), "%s: agree on all %llu inputs%s", titles,
		 (unsigned long long)pair_of(v, a, b)->inputs,
		 claimed(v, a, b) ? " (claimed equal: ok)" : "");
	printf("  ");
	put_wrapped(2, 6, line);
}

/*
 * The class @mx against the class @my (or against itself: its equality),
 * once for all their members when every pair of them compares alike, else
 * pair by pair.
 */
static void print_class_pair(const struct verify *v, unsigned int mx,
			     unsigned int my)
{
	static char tx[NAMES_MAX], ty[NAMES_MAX];
	unsigned int x, y, x0 = first_of(mx), y0 = first_of(my & ~(1U << x0));

	if (pairs_uniform(v, mx, my)) {
		names_of(v, mx, tx, sizeof(tx));
		names_of(v, my, ty, sizeof(ty));
		if (mx == my)
			print_equal(v, x0, y0, tx);
		else
			print_pair_block(v, x0, y0, tx, ty);
		return;
	}
	for (x = 0; x < v->cfg.nr; x++)
		for (y = x + 1; y < v->cfg.nr; y++) {
			if (!(has(mx, x) && has(my, y)) &&
			    !(has(mx, y) && has(my, x)))
				continue;
			names_of(v, 1U << x | 1U << y, tx, sizeof(tx));
			if (mx == my)
				print_equal(v, x, y, tx);
			else
				print_pair_block(v, x, y, v->names[x],
						 v->names[y]);
		}
}

/* Each class's equality, then each pair of classes, once. */
static void print_pairs(const struct verify *v, const struct classes *c)
{
	unsigned int x, y;

	printf("\nprofile pairs, over the grid and random inputs:\n");
	if (v->cfg.nr < 2)
		printf("  none: one profile\n");
	for (x = 0; x < c->nr; x++)
		if (c->members[x] & (c->members[x] - 1))
			print_class_pair(v, c->members[x], c->members[x]);
	for (x = 0; x < c->nr; x++)
		for (y = x + 1; y < c->nr; y++)
			print_class_pair(v, c->members[x], c->members[y]);
}

typedef bool (*same_fn)(const struct verify *v, unsigned int a,
			unsigned int b);
typedef void (*part_fn)(const struct verify *v, unsigned int mask,
			void *ctx);

/*
 * Split each class into parts whose members @same calls identical, and
 * call @fn on each part, in profile order: a table prints a part once.
 */
static void for_each_part(const struct verify *v, const struct classes *c,
			  same_fn same, part_fn fn, void *ctx)
{
	unsigned int x, a, b, done, part;

	for (x = 0; x < c->nr; x++) {
		done = 0;
		for (a = 0; a < v->cfg.nr; a++) {
			if (!has(c->members[x], a) || has(done, a))
				continue;
			part = 0;
			for (b = a; b < v->cfg.nr; b++)
				if (has(c->members[x], b) && !has(done, b) &&
				    same(v, a, b))
					part |= 1U << b;
			done |= part;
			fn(v, part, ctx);
		}
	}
}

static bool inv_same(const struct verify *v, unsigned int a, unsigned int b)
{
	unsigned int k;

	for (k = 0; k < HS_NR_INVARIANTS; k++)
		if (v->res.inv[a][k].checked != v->res.inv[b][k].checked ||
		    v->res.inv[a][k].violations != v->res.inv[b][k].violations)
			return false;
	return true;
}

/* The invariants of the profiles of @mask, which have the same counts. */
static void print_inv_part(const struct verify *v, unsigned int mask,
			   void *ctx)
{
	static char names[NAMES_MAX];
	char args[512], cmd[700], r[200];
	unsigned int a = first_of(mask), k;
	int w = *(int *)ctx;

	printf("  ");
	put_wrapped(2, 4, names_of(v, mask, names, sizeof(names)));
	for (k = 0; k < HS_NR_INVARIANTS; k++) {
		const struct hs_inv_stats *is = &v->res.inv[a][k];

		printf("    %-*s  %llu of %llu inputs\n", w,
		       hs_invariant_name(k), (unsigned long long)is->violations,
		       (unsigned long long)is->checked);
		if (!is->violations)
			continue;
		cli_score_args(&is->ex.in, args, sizeof(args));
		snprintf(cmd, sizeof(cmd), "hotscore score --profile %s%s%s",
			 v->names[a], *args ? " " : "", args);
		outcome(&v->cfg.comp[a], &is->ex.in, r, sizeof(r));
		strncat(r, neighbour(&v->cfg.comp[a], k, &is->ex.in),
			sizeof(r) - strlen(r) - 1);
		put_command("      e.g. ", 13, cmd, r);
	}
}

static void print_invariants(const struct verify *v, const struct classes *c)
{
	int w = 0;
	unsigned int k;

	for (k = 0; k < HS_NR_INVARIANTS; k++)
		if ((int)strlen(hs_invariant_name(k)) > w)
			w = (int)strlen(hs_invariant_name(k));
	printf("\ninvariants (violations of checked inputs):\n");
	for_each_part(v, c, inv_same, print_inv_part, &w);
}

static bool fast_same(const struct verify *v, unsigned int a, unsigned int b)
{
	const struct hs_fast_stats *x = &v->res.fast[a], *y = &v->res.fast[b];

	return !memcmp(x->inputs, y->inputs, sizeof(x->inputs)) &&
	       !memcmp(x->schemes, y->schemes, sizeof(x->schemes)) &&
	       x->mismatches == y->mismatches &&
	       !memcmp(x->batch, y->batch, sizeof(x->batch)) &&
	       !memcmp(x->batch_mismatches, y->batch_mismatches,
		       sizeof(x->batch_mismatches));
}

/* The prepared scorer's row: its counts, after the names. */
static void fast_row(const struct hs_fast_stats *fs, char *buf, size_t size)
{
	snprintf(buf, size, "%llu of %llu grid + %llu random inputs;"
		 " %llu + %llu schemes prepared",
		 (unsigned long long)fs->mismatches,
		 (unsigned long long)fs->inputs[HS_DOM_GRID],
		 (unsigned long long)fs->inputs[HS_DOM_RANDOM],
		 (unsigned long long)fs->schemes[HS_DOM_GRID],
		 (unsigned long long)fs->schemes[HS_DOM_RANDOM]);
}

/* The names column's width: the longest names, if the rows still fit. */
struct fast_width {
	int names, row;
};

static void measure_fast_part(const struct verify *v, unsigned int mask,
			      void *ctx)
{
	static char names[NAMES_MAX];
	struct fast_width *fw = ctx;
	char row[256];

	fast_row(&v->res.fast[first_of(mask)], row, sizeof(row));
	if ((int)strlen(names_of(v, mask, names, sizeof(names))) > fw->names)
		fw->names = (int)strlen(names);
	if ((int)strlen(row) > fw->row)
		fw->row = (int)strlen(row);
}

/* A part's row; names too long for the column get a line of their own. */
static void print_fast_part(const struct verify *v, unsigned int mask,
			    void *ctx)
{
	static char names[NAMES_MAX];
	const struct hs_fast_stats *fs = &v->res.fast[first_of(mask)];
	unsigned int a = first_of(mask);
	char row[256], args[512], cmd[700], model[64], fast[64], r[140];
	int w = *(int *)ctx;

	names_of(v, mask, names, sizeof(names));
	if ((int)strlen(names) > w) {
		printf("  ");
		put_wrapped(2, 4, names);
		names[0] = '\0';
	}
	fast_row(fs, row, sizeof(row));
	printf("  %-*s  ", w, names);
	put_wrapped(4 + w, 4 + w, row);
	if (!fs->mismatches)
		return;
	cli_score_args(&fs->ex.in, args, sizeof(args));
	snprintf(cmd, sizeof(cmd), "hotscore score --profile %s%s%s",
		 v->names[a], *args ? " " : "", args);
	outcome(&v->cfg.comp[a], &fs->ex.in, model, sizeof(model));
	fast_outcome(&v->cfg.comp[a], &fs->ex.in, fast, sizeof(fast));
	snprintf(r, sizeof(r), "%s; prepared: %s", model, fast);
	put_command("      e.g. ", 13, cmd, r);
}

/* "scalar, avx2 and avx512": the batch scorers of @mask. */
static void impl_names(unsigned int mask, char *buf, size_t size)
{
	unsigned int k, n = (unsigned int)__builtin_popcount(mask), i = 0;
	size_t at = 0;

	buf[0] = '\0';
	for (k = 0; k < HS_NR_FAST_IMPLS && at < size; k++)
		if (mask & (1u << k))
			at += (size_t)snprintf(buf + at, size - at, "%s%s",
					       !i++ ? "" : i == n ? " and " : ", ",
					       hs_fast_impl_name(k));
}

/* "scalar 3, avx2 0": profile @a's differences, per batch scorer. */
static void batch_counts(const struct verify *v, unsigned int a, char *buf,
			 size_t size)
{
	const struct hs_fast_stats *fs = &v->res.fast[a];
	unsigned int k;
	size_t at = 0;

	buf[0] = '\0';
	for (k = 0; k < HS_NR_FAST_IMPLS && at < size; k++)
		if (v->cfg.batch_impls & (1u << k))
			at += (size_t)snprintf(buf + at, size - at, "%s%s %llu",
					       at ? ", " : "",
					       hs_fast_impl_name(k),
					       (unsigned long long)
					       fs->batch_mismatches[k]);
}

/*
 * The batch scorers, under the prepared scorer's rows: one line if none
 * differs, else each profile's counts and its first difference, shrunk.
 */
static void print_batches(const struct verify *v)
{
	static struct hs_prep p;
	char names[64], counts[96], line[NAMES_MAX + 160], args[512], cmd[700];
	char model[64], got[64], r[160];
	bool differ = false;
	unsigned int a;

	if (!v->cfg.batch_impls)
		return;
	impl_names(v->cfg.batch_impls, names, sizeof(names));
	for (a = 0; a < v->cfg.nr; a++)
		differ |= v->res.fast[a].batch_ex.found;
	printf("  in batches by %s, on every grid input: %s\n", names,
	       differ ? "some differ" : "none differs");
	for (a = 0; a < v->cfg.nr; a++) {
		const struct hs_fast_stats *fs = &v->res.fast[a];
		struct hs_result b;

		if (!fs->batch_ex.found)
			continue;
		batch_counts(v, a, counts, sizeof(counts));
		snprintf(line, sizeof(line),
			 "%s: grid inputs that differ in a batch: %s",
			 v->names[a], counts);
		printf("  ");
		put_wrapped(2, 4, line);
		cli_score_args(&fs->batch_ex.in, args, sizeof(args));
		snprintf(cmd, sizeof(cmd), "hotscore score --profile %s%s%s",
			 v->names[a], *args ? " " : "", args);
		outcome(&v->cfg.comp[a], &fs->batch_ex.in, model,
			sizeof(model));
		b = hs_batch_result(&p, &v->cfg.comp[a], fs->batch_impl,
				    &fs->batch_ex.in);
		result_text(&b, got, sizeof(got));
		snprintf(r, sizeof(r), "%s; %s batch: %s", model,
			 hs_fast_impl_name(fs->batch_impl), got);
		put_command("      e.g. ", 13, cmd, r);
	}
}

static void print_fast(const struct verify *v, const struct classes *c)
{
	struct fast_width fw = { 0, 0 };
	int w;

	if (!v->cfg.fast)
		return;
	printf("\nprepared scorer (fast.h), each against its profile"
	       " (differ of compared):\n");
	for_each_part(v, c, fast_same, measure_fast_part, &fw);
	w = fw.names < COLS - 4 - fw.row ? fw.names : COLS - 4 - fw.row;
	if (w < 1)
		w = 1;
	for_each_part(v, c, fast_same, print_fast_part, &w);
	print_batches(v);
}

/*
 * The summary: a table of one row per profile, its columns as wide as
 * their content, narrowed (cells wrapped) until a row fits COLS.
 */
enum { T_LETTER, T_NAME, T_EQUAL, T_DIFFERS, T_INV, T_FAST, T_COLS };
#define CELL 512

struct table {
	unsigned int rows;
	char cell[HS_VERIFY_MAX_PROFILES + 1][T_COLS][CELL];
	int width[T_COLS];
};

/* Short names for the summary; the legend under it spells them out. */
static const char *const inv_tag[HS_NR_INVARIANTS] = {
	"range", "sum", "accesses", "age(hot)", "age(idle)"
};

/*
 * The longest piece of @s that no break splits: breaks are after ", "
 * (between items) and, with @words, at a space and after a '+' too.
 */
static int longest_piece(const char *s, bool words)
{
	int i, run = 0, best = 0;

	for (i = 0; s[i]; i++) {
		if (s[i] == ' ' && (words || (i && s[i - 1] == ',')))
			run = 0;
		else
			run++;
		if (run > best)
			best = run;
		if (words && s[i] == '+')
			run = 0;
	}
	return best;
}

/*
 * The next line of @s in @w columns: break after the last ", " that fits,
 * else at a space, else after a '+', else anywhere.  Return its length;
 * *@skip is where the rest starts.
 */
static int next_piece(const char *s, int w, int *skip)
{
	int n = (int)strlen(s), i, comma = 0, space = 0, plus = 0, len;

	if (n <= w) {
		*skip = n;
		return n;
	}
	for (i = 1; i <= w; i++) {
		if (s[i] == ' ' && s[i - 1] == ',')
			comma = i;
		else if (s[i] == ' ')
			space = i;
		if (s[i - 1] == '+')
			plus = i;
	}
	len = comma ? comma : space ? space : plus ? plus : w;
	for (*skip = len; s[*skip] == ' '; (*skip)++)
		;
	return len;
}

static int table_total(const struct table *t)
{
	int i, sum = 2 + 2 * (T_COLS - 1);

	for (i = 0; i < T_COLS; i++)
		sum += t->width[i];
	return sum;
}

/* How many lines @s takes in @w columns. */
static int cell_lines(const char *s, int w)
{
	int n = 0, skip;

	do {
		next_piece(s, w, &skip);
		s += skip;
		n++;
	} while (*s);
	return n;
}

/* The table's lines at its widths; *@cells: the lines of all its cells. */
static int table_lines(const struct table *t, int *cells)
{
	int i, n, height, lines = 0;
	unsigned int r;

	*cells = 0;
	for (r = 0; r < t->rows; r++) {
		height = 1;
		for (i = 0; i < T_COLS; i++) {
			n = cell_lines(t->cell[r][i], t->width[i]);
			height = n > height ? n : height;
			*cells += n;
		}
		lines += height;
	}
	return lines;
}

/*
 * Narrow by one the column, from @from on and wider than its @floor, that
 * adds the fewest lines to the table (then to its cells; then the widest):
 * columns wrap together, and a row already two lines high wraps its other
 * cells for free.  Return false if no column can give way.
 */
static bool narrow(struct table *t, const int *floor, int from)
{
	int i, best = -1, lines, cells, best_lines = 0, best_cells = 0;

	for (i = from; i < T_COLS; i++) {
		if (t->width[i] <= floor[i])
			continue;
		t->width[i]--;
		lines = table_lines(t, &cells);
		t->width[i]++;
		if (best < 0 || lines < best_lines ||
		    (lines == best_lines && (cells < best_cells ||
		     (cells == best_cells && t->width[i] > t->width[best])))) {
			best = i;
			best_lines = lines;
			best_cells = cells;
		}
	}
	if (best < 0)
		return false;
	t->width[best]--;
	return true;
}

/* Widths from the content; the lists give way first, whole items first. */
static void table_fit(struct table *t)
{
	int item[T_COLS], word[T_COLS], one[T_COLS], i, n;
	unsigned int r;

	for (i = 0; i < T_COLS; i++) {
		t->width[i] = item[i] = word[i] = 0;
		one[i] = 1;
		for (r = 0; r < t->rows; r++) {
			n = (int)strlen(t->cell[r][i]);
			t->width[i] = n > t->width[i] ? n : t->width[i];
			n = longest_piece(t->cell[r][i], false);
			item[i] = n > item[i] ? n : item[i];
			n = longest_piece(t->cell[r][i], true);
			word[i] = n > word[i] ? n : word[i];
		}
	}
	while (table_total(t) > COLS && narrow(t, item, T_EQUAL))
		;
	while (table_total(t) > COLS && narrow(t, word, T_LETTER))
		;
	while (table_total(t) > COLS && narrow(t, one, T_LETTER))
		;
}

/* Row @r, on as many lines as its tallest cell needs. */
static void table_print_row(const struct table *t, unsigned int r)
{
	const char *rest[T_COLS];
	char line[4 * COLS];
	bool more = true;
	int i, at, len, skip;

	for (i = 0; i < T_COLS; i++)
		rest[i] = t->cell[r][i];
	while (more) {
		more = false;
		at = sprintf(line, "  ");
		for (i = 0; i < T_COLS; i++) {
			len = next_piece(rest[i], t->width[i], &skip);
			at += sprintf(line + at, "%s%-*.*s", i ? "  " : "",
				      t->width[i], len, rest[i]);
			rest[i] += skip;
			more |= *rest[i] != '\0';
		}
		while (at > 0 && line[at - 1] == ' ')
			at--;
		printf("%.*s\n", at, line);
	}
}

/* Append @item to a cell, after ", " unless it is the first. */
static void cell_add(char *cell, const char *item)
{
	size_t at = strlen(cell);

	snprintf(cell + at, CELL - at, "%s%s", at ? ", " : "", item);
}

static uint64_t differ(const struct verify *v, unsigned int a, unsigned int b)
{
	const struct hs_pair_stats *ps = pair_of(v, a, b);

	return ps->inputs - ps->agree;
}

/* "B C D: 14472, G: 189450": the profiles @a differs from, by letter. */
static void differs_cell(const struct verify *v, const struct classes *c,
			 unsigned int a, char *cell)
{
	unsigned int b, b2, done = 0;
	char item[2 * HS_VERIFY_MAX_PROFILES + 32];
	int at;

	for (b = 0; b < v->cfg.nr; b++) {
		if (c->of[b] == c->of[a] || has(done, b))
			continue;
		at = 0;
		for (b2 = b; b2 < v->cfg.nr; b2++)
			if (c->of[b2] != c->of[a] && !has(done, b2) &&
			    differ(v, a, b2) == differ(v, a, b)) {
				at += sprintf(item + at, "%s%c", at ? " " : "",
					      'A' + b2);
				done |= 1U << b2;
			}
		sprintf(item + at, ": %llu",
			(unsigned long long)differ(v, a, b));
		cell_add(cell, item);
	}
	if (!*cell)
		strcpy(cell, "-");
}

static void summary_row(const struct verify *v, const struct classes *c,
			unsigned int a, char (*row)[CELL])
{
	const struct hs_fast_stats *fs = &v->res.fast[a];
	unsigned int b, k;
	char item[40];

	snprintf(row[T_LETTER], CELL, "%c", 'A' + a);
	snprintf(row[T_NAME], CELL, "%s", v->names[a]);
	for (b = 0; b < v->cfg.nr; b++)
		if (b != a && c->of[b] == c->of[a])
			snprintf(row[T_EQUAL] + strlen(row[T_EQUAL]),
				 CELL - strlen(row[T_EQUAL]), "%s%c",
				 *row[T_EQUAL] ? " " : "", 'A' + b);
	if (!*row[T_EQUAL])
		strcpy(row[T_EQUAL], "-");
	differs_cell(v, c, a, row[T_DIFFERS]);
	for (k = 0; k < HS_NR_INVARIANTS; k++) {
		uint64_t n = v->res.inv[a][k].violations;

		if (!n)
			continue;
		snprintf(item, sizeof(item), "%s %llu", inv_tag[k],
			 (unsigned long long)n);
		cell_add(row[T_INV], item);
	}
	if (!*row[T_INV])
		strcpy(row[T_INV], "ok");
	if (v->cfg.fast)
		snprintf(row[T_FAST], CELL, "%llu of %llu%s",
			 (unsigned long long)fs->mismatches,
			 (unsigned long long)(fs->inputs[HS_DOM_GRID] +
					      fs->inputs[HS_DOM_RANDOM]),
			 fs->batch_ex.found ? ", batch differs" : "");
	else
		strcpy(row[T_FAST], "-");
}

/*
 * First, one row per profile: whom it equals and differs from (by letter),
 * which invariants it breaks, and whether its prepared scorer is exact.
 */
static void print_summary(const struct verify *v, const struct classes *c)
{
	static const char *const head[T_COLS] = {
		"", "profile", "equal to", "differs from", "invariants",
		"prepared" };
	static struct table t;
	unsigned int a, k;

	memset(&t, 0, sizeof(t));
	for (k = 0; k < T_COLS; k++)
		snprintf(t.cell[0][k], CELL, "%s", head[k]);
	for (a = 0; a < v->cfg.nr; a++)
		summary_row(v, c, a, t.cell[a + 1]);
	t.rows = v->cfg.nr + 1;
	table_fit(&t);
	printf("\n");
	put_wrapped(0, 0, "summary, one row per profile. Equal to: agree on"
		    " every input checked. The counts are inputs: those on"
		    " which the two differ, those that violate the invariant,"
		    " and those on which the prepared scorer differs, of those"
		    " compared.");
	for (a = 0; a < t.rows; a++)
		table_print_row(&t, a);
	printf("  ");
	put_wrapped(2, 4, "invariants: range: hot in [0, 99]; sum: hot + cold"
		    " = 99; accesses: more accesses never colder; age(hot):"
		    " freq > 0, older never colder; age(idle): freq = 0, older"
		    " never hotter");
}

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
		snprintf(cmd, sizeof(cmd), "hotscore score --profile %s%s%s",
			 profiles[i], *args ? " " : "", args);
		json_array_append_new(cmds, hs_json_text(cmd));
	}
	json_object_set_new(o, "commands", cmds);
}

static void print_report(const struct verify *v)
{
	const struct hs_verify_result *res = &v->res;
	struct classes c;
	unsigned int d;

	find_classes(v, &c);
	printf("hotscore verify: %u profiles, %u threads, --seed %llu%s\n",
	       v->cfg.nr, v->cfg.threads, (unsigned long long)v->cfg.seed,
	       v->cfg.quick ? ", --quick" : "");
	for (d = 0; d < HS_NR_DOMAINS; d++)
		printf("  %-7s %12llu %s in %.2f s\n", hs_domain_name(d),
		       (unsigned long long)res->inputs[d],
		       d == HS_DOM_AGELOG ? "age_in_sec values" : "inputs",
		       res->seconds[d]);
	print_summary(v, &c);
	print_agelog(v);
	print_pairs(v, &c);
	print_invariants(v, &c);
	print_fast(v, &c);
	printf("\n%s\n", verdict(v) ? "FAIL: variants claimed equal differ" :
	       "ok: every variant claimed equal is equal on every input checked");
}

static json_t *json_profiles(const struct verify *v)
{
	json_t *list = json_array();
	unsigned int a;

	for (a = 0; a < v->cfg.nr; a++) {
		char spec[96];

		hs_components_format(&v->cfg.comp[a], spec, sizeof(spec));
		json_array_append_new(list, json_pack("{s:o, s:s}",
			"name", hs_json_text(v->names[a]), "components", spec));
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
	const char *two[2] = { v->names[a], v->names[b] };
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
			 "a", hs_json_text(v->names[a]), "b", hs_json_text(v->names[b]),
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
			const char *one[1] = { v->names[a] };

			o = json_pack("{s:o, s:s, s:o, s:o}",
				      "profile", hs_json_text(v->names[a]),
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
	const char *one[1] = { v->names[a] };
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
		const char *one[1] = { v->names[a] };

		o = json_pack("{s:o, s:o, s:o, s:{s:o, s:o}, s:o}",
			      "profile", hs_json_text(v->names[a]),
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
			json_array_append_new(list, hs_json_text(v->names[a]));
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
				"profile", hs_json_text(v->names[b]),
				"inputs", hs_json_u64(differ(v, a, b)),
				"compared", hs_json_u64(pair_of(v, a, b)->inputs)));
	for (k = 0; k < HS_NR_INVARIANTS; k++)
		if (v->res.inv[a][k].violations)
			json_array_append_new(broken, json_pack(
				"{s:s, s:o}", "invariant", hs_invariant_name(k),
				"violations",
				hs_json_u64(v->res.inv[a][k].violations)));
	return json_pack("{s:o, s:o, s:o, s:o, s:o}",
			 "name", hs_json_text(v->names[a]),
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

/* --json: every count and example (docs/verify.md). */
static int write_json(const struct verify *v, FILE *f)
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

/*
 * `hotscore verify`.
 * @argc: argument count, argv[0] being "verify".
 * @argv: the arguments.
 *
 * Return: 0, or 1 if variants claimed equal differ.
 */
/* A profile by name, for --against and --base. */
static const struct hs_profile *named_profile(const char *opt,
					      const char *name)
{
	const struct hs_profile *p = hs_profile_find(name);

	if (!p)
		cli_usage_die("%s: no profile '%s' (see 'hotscore verify --list-profiles')",
			      opt, name);
	return p;
}

/* --candidate FILE [--against P] [--base P]: see verify_cand.c. */
static int run_candidate(struct verify *v)
{
	static struct verify_cand vc;
	const struct hs_profile *against;
	struct hs_spec base;

	against = named_profile("--against", v->against ? v->against :
				CLI_DEFAULT_PROFILE);
	hs_spec_base(NULL, 0, v->base ? named_profile("--base", v->base) :
		     against, &base);
	if (hs_spec_parse_file(v->candidate, &vc.spec))
		cli_die("--candidate: '%.40s...' is too long", v->candidate);
	cli_spec_load("--candidate", &vc.spec, &base);
	vc.against = against->name;
	vc.comp = against->comp;
	vc.json = v->json;
	vc.command = v->command;
	vc.cfg.quick = v->cfg.quick;
	vc.cfg.threads = v->cfg.threads;
	vc.cfg.seed = v->cfg.seed;
	vc.cfg.random = v->cfg.random;
	return verify_candidate(&vc);
}

/* --captured FILE [--profile LIST] [--base P]: see verify_captured.c. */
static int run_captured(struct verify *v)
{
	static struct verify_captured vc;

	opt_parsed(&cmd_verify);
	opt_reproduce(&cmd_verify, v->command, sizeof(v->command));
	vc.path = v->captured;
	vc.profiles = v->profile_list;
	vc.base = v->base ? named_profile("--base", v->base) : NULL;
	vc.json = v->json;
	vc.command = v->command;
	return verify_captured(&vc);
}

static int verify_run(int argc, char **argv)
{
	static struct verify v;
	FILE *json = NULL;

	parse(&v, argc, argv);
	if (v.captured)
		return run_captured(&v);
	if (v.candidate)
		return run_candidate(&v);
	json = cli_out_open("--json", v.json);
	if (isatty(STDERR_FILENO))
		v.cfg.progress = progress;
	if (hs_verify_run(&v.cfg, &v.res))
		cli_die("cannot start %u threads or allocate their memory",
		       v.cfg.threads);
	if (v.cfg.progress)
		fputs("\r\033[K", stderr);
	shrink_all(&v);
	print_report(&v);
	if (json) {
		if (write_json(&v, json))
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
		 "hotscore verify --captured FILE [--profile LIST]"
		 " [--base PROFILE] [--json FILE]",
	.about = "Prove the age_in_log methods equal over all 2^32 values of"
		 " age_in_sec, compare every\npair of profiles over a grid and a"
		 " random domain, check each profile's invariants\nand its"
		 " prepared scorer, and shrink every finding to a small `hotscore"
		 " score`\ncommand.  Exit 1 if profiles that differ only in their"
		 " age_in_log method disagree\nanywhere, so that verify can gate"
		 " a change in CI.\nWith --captured FILE,"
		 " check a live kdamond's calls instead.",
	.opts = verify_opts,
	.nr_opts = sizeof(verify_opts) / sizeof(verify_opts[0]),
	.run = verify_run,
};
