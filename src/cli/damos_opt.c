// SPDX-License-Identifier: GPL-2.0
/*
 * damos_opt.c - the --damos_* scheme options of sim and rank, as damo's
 * _damon_args.py takes them: each option may be repeated, its n-th use
 * going to the n-th --damos_action; with no --damos_action they change
 * the default scheme.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "damos_opt.h"

#define NO_LIMIT	UINT64_MAX

const enum opt_type cli_two_rates[] = { OPT_RATE, OPT_RATE };
const enum opt_type cli_two_sizes[] = { OPT_SIZE, OPT_SIZE };
const enum opt_type cli_two_times[] = { OPT_TIME, OPT_TIME };
const enum opt_type cli_quota_types[] = { OPT_MS, OPT_SIZE, OPT_MS,
					  OPT_COUNT, OPT_COUNT, OPT_COUNT };
const enum opt_type cli_goal_types[] = { OPT_STR, OPT_COUNT, OPT_STR };

static void spec_defaults(struct cli_scheme_spec *sp)
{
	memset(sp, 0, sizeof(*sp));
	sp->rate_bp[1] = NO_LIMIT;
	sp->sz[1] = NO_LIMIT;
	sp->age_us[1] = NO_LIMIT;
	sp->quota[2] = NO_LIMIT;	/* damo: reset interval "max" */
}

/* The default scheme: DAMON_RECLAIM's shape, with a quota that binds. */
static void default_scheme(struct cli_scheme_spec *sp)
{
	spec_defaults(sp);
	sp->action = HS_ACT_PAGEOUT;
	sp->rate_bp[0] = sp->rate_bp[1] = 0;
	sp->age_us[0] = 2000000;
	sp->quota[0] = 10;
	sp->quota[1] = 8ULL << 20;
	sp->quota[2] = 1000;
	sp->quota[5] = 1;
}

/* min above max matches nothing: the kernel takes it, a user meant else */
static void check_range(const char *opt, const struct opt_val *v)
{
	if (v[0].u > v[1].u)
		cli_die("--%s: min '%s' is above max '%s'", opt, v[0].s, v[1].s);
}

/**
 * cli_damos_take() - keep option @o if it is a scheme option.
 * @ss:		the command line's scheme options.
 * @o:		the option.
 * @v:		its values.
 * @nr:		how many.
 *
 * Return: true if @o was one (and is kept), false if not.
 */
bool cli_damos_take(struct cli_schemes *ss, const struct opt *o,
		    const struct opt_val *v, unsigned int nr)
{
	struct cli_scheme_opt *so = &ss->sopts[ss->nr];

	if (o->id < CLI_O_DAMOS_ACTION || o->id > CLI_O_DAMOS_LAST)
		return false;
	if (ss->nr == sizeof(ss->sopts) / sizeof(ss->sopts[0]))
		cli_usage_die("--%s: too many scheme options", o->name);
	so->o = o;
	so->nr = nr;
	memcpy(so->v, v, nr * sizeof(*v));
	ss->nr++;
	return true;
}

/*
 * @so into @sp.  A --damos_quotas that leaves fields out gives them damo's
 * defaults in a new scheme, and keeps the default scheme's (@keep).
 */
/* An action DAMON has that sim does not simulate, or a typo: exit 2. */
static void __attribute__((noreturn)) unknown_action(const char *s)
{
	struct cli_near n;
	const char *best;
	int a;

	cli_near_init(&n, s, strlen(s));
	for (a = 0; a < HS_NR_ACTIONS; a++)
		cli_near_add(&n, hs_action_name(a));
	best = cli_near_best(&n);
	if (best)
		cli_die("--damos_action: unknown action '%s'; did you mean '%s'?",
			s, best);
	cli_usage_die("--damos_action: '%s' is not a simulated action", s);
}

/* user_input's CURRENT: values for successive charge windows, commas between. */
static unsigned int goal_script(const char *s, unsigned long *out)
{
	unsigned int n = 0;
	const char *p = s;
	char *end;

	for (;;) {
		if (n == HS_GOAL_MAX_STEPS)
			cli_usage_die("--damos_quota_goal: CURRENT has more than %d values",
				      HS_GOAL_MAX_STEPS);
		errno = 0;
		if (*p < '0' || *p > '9')
			cli_usage_die("--damos_quota_goal: CURRENT '%s': value %u is not a number",
				      s, n + 1);
		out[n] = strtoul(p, &end, 10);
		if (errno)
			cli_usage_die("--damos_quota_goal: CURRENT '%s': value %u is above 2^64 - 1",
				      s, n + 1);
		n++;
		if (!*end)
			return n;
		if (*end != ',')
			cli_usage_die("--damos_quota_goal: CURRENT '%s': '%c' after value %u; values go between commas",
				      s, *end, n);
		p = end + 1;
	}
}

/* --damos_quota_goal METRIC TARGET [CURRENT], as damo takes it. */
static void goal_opt(struct cli_scheme_spec *sp, const struct cli_scheme_opt *so)
{
	const struct opt_val *v = so->v;
	struct hs_quota_goal *g = &sp->goal;

	if (!strcmp(v[0].s, "user_input"))
		g->metric = HS_GOAL_USER_INPUT;
	else if (!strcmp(v[0].s, "some_mem_psi_us"))
		g->metric = HS_GOAL_SOME_MEM_PSI_US;
	else
		cli_usage_die("--damos_quota_goal: metric '%s' is not simulated (user_input, some_mem_psi_us)",
			      v[0].s);
	if (!v[1].u)
		cli_usage_die("--damos_quota_goal: target 0: the kernel refuses it (damos_commit_quota_goal())");
	g->target = (unsigned long)v[1].u;
	if (g->metric == HS_GOAL_SOME_MEM_PSI_US && so->nr > 2)
		cli_usage_die("--damos_quota_goal: some_mem_psi_us takes no CURRENT: the simulator models the pressure");
	sp->goal_script[0] = 0;		/* damo's current_value default */
	g->nr_script = so->nr > 2 ? goal_script(v[2].s, sp->goal_script) : 1;
	g->script = NULL;		/* set where the spec is kept */
}

static void apply_opt(struct cli_scheme_spec *sp,
		      const struct cli_scheme_opt *so, bool keep)
{
	const struct opt_val *v = so->v;
	unsigned int k;

	switch (so->o->id) {
	case CLI_O_DAMOS_ACTION:
		sp->action = hs_action_parse(v[0].s);
		if (sp->action < 0)
			unknown_action(v[0].s);
		break;
	case CLI_O_DAMOS_ACCESS_RATE:
		check_range(so->o->name, v);
		for (k = 0; k < 2; k++)
			sp->rate_bp[k] = v[k].u;
		break;
	case CLI_O_DAMOS_SZ:
		check_range(so->o->name, v);
		for (k = 0; k < 2; k++)
			sp->sz[k] = v[k].u;
		break;
	case CLI_O_DAMOS_AGE:
		check_range(so->o->name, v);
		for (k = 0; k < 2; k++) {
			sp->age_us[k] = v[k].u;
			sp->age_bare[k] = *v[k].s &&
				strspn(v[k].s, "0123456789") == strlen(v[k].s);
		}
		break;
	case CLI_O_DAMOS_APPLY:
		sp->apply_us = v[0].u;
		break;
	case CLI_O_DAMOS_QUOTAS:
		if (!keep) {	/* damo's defaults for the fields left out */
			sp->quota[0] = sp->quota[1] = 0;
			sp->quota[2] = NO_LIMIT;
			sp->quota[3] = sp->quota[4] = sp->quota[5] = 0;
		}
		for (k = 0; k < so->nr; k++) {
			if (k >= 3 && v[k].u > UINT32_MAX)
				cli_usage_die("--damos_quotas: weight '%s' is above 2^32 - 1",
					      v[k].s);
			sp->quota[k] = v[k].u;
		}
		break;
	case CLI_O_DAMOS_GOAL:
		goal_opt(sp, so);
		break;
	}
}

static const char *times(unsigned int n)
{
	return n == 1 ? "once" : n == 2 ? "twice" : "more often";
}

/**
 * cli_damos_specs() - the schemes.  With no --damos_action, each scheme
 * option replaces its part of the default scheme.  Otherwise, as in damo,
 * the n-th use of each option belongs to the n-th --damos_action.
 * @ss:		the scheme options as given.
 * @specs:	room for HS_MAX_SCHEMES.
 *
 * Return: how many schemes, at least 1.
 */
unsigned int cli_damos_specs(const struct cli_schemes *ss,
			     struct cli_scheme_spec *specs)
{
	unsigned int count[CLI_O_DAMOS_LAST - CLI_O_DAMOS_ACTION + 1] = { 0 };
	unsigned int i, n;

	for (i = 0; i < ss->nr; i++)
		count[0] += ss->sopts[i].o->id == CLI_O_DAMOS_ACTION;
	if (count[0] > HS_MAX_SCHEMES)
		cli_usage_die("--damos_action: at most %d schemes",
			      HS_MAX_SCHEMES);
	if (!count[0]) {
		default_scheme(&specs[0]);
		for (i = 0; i < ss->nr; i++) {
			const struct cli_scheme_opt *so = &ss->sopts[i];

			if (count[so->o->id - CLI_O_DAMOS_ACTION]++)
				cli_usage_die("--%s is given twice for one scheme; each scheme starts with --damos_action",
					      so->o->name);
			apply_opt(&specs[0], so, true);
		}
		return 1;
	}
	n = count[0];
	memset(count, 0, sizeof(count));
	for (i = 0; i < ss->nr; i++) {
		const struct cli_scheme_opt *so = &ss->sopts[i];
		unsigned int k = count[so->o->id - CLI_O_DAMOS_ACTION]++;

		if (so->o->id == CLI_O_DAMOS_ACTION)
			spec_defaults(&specs[k]);
		else if (k >= count[0])
			cli_usage_die("--%s is given %s, --damos_action %s before it: each starts a scheme",
				      so->o->name, times(k + 1),
				      count[0] ? times(count[0]) : "never");
		apply_opt(&specs[k], so, false);
	}
	return n;
}

static unsigned long clamp_ul(uint64_t v)
{
	return v > ULONG_MAX ? ULONG_MAX : (unsigned long)v;
}

static unsigned int clamp_u(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (unsigned int)v;
}

/*
 * A bare --damos_age is microseconds, as damo takes it: "5" meant as five
 * aggregations or seconds becomes 0 aggregations, which every region
 * passes.  Said once, on one line of stderr; the run goes on.
 */
static void warn_bare_age(const struct cli_scheme_spec *sp,
			  unsigned long aggr_us)
{
	static bool warned;
	char aggr[32];
	int k;

	for (k = 0; k < 2 && !warned; k++) {
		if (!sp->age_bare[k] || !sp->age_us[k] ||
		    sp->age_us[k] >= aggr_us)
			continue;
		warned = true;
		cli_format_time_us(aggr_us, aggr, sizeof(aggr));
		fprintf(stderr, "hotscore %s: warning: --damos_age %" PRIu64 " is 0 aggregations of %s: a bare number is us, as in damo\n",
			cli_cmd_name ? cli_cmd_name : "", sp->age_us[k], aggr);
	}
}

/**
 * cli_damos_scheme() - a scheme in kernel units, as damo converts it:
 * access rates in samples (percent of aggr / sample, truncated), ages in
 * aggregation intervals (truncated).
 * @sp:		the scheme as given.
 * @sample_us:	the sampling interval, not 0.
 * @aggr_us:	the aggregation interval, not 0.
 * @s:		the scheme.
 */
void cli_damos_scheme(const struct cli_scheme_spec *sp, unsigned long sample_us,
		      unsigned long aggr_us, struct hs_scheme *s)
{
	int k;

	warn_bare_age(sp, aggr_us);
	memset(s, 0, sizeof(*s));
	s->action = (enum hs_action)sp->action;
	for (k = 0; k < 2; k++) {
		/*
		 * damo: int(percent * (aggr / sample) / 100), in floating
		 * point; here exactly, so that 60% of 100 ms / 3 ms is 20.
		 */
		unsigned __int128 q = (unsigned __int128)sp->rate_bp[k] *
			aggr_us / ((unsigned __int128)sample_us * 10000);
		unsigned int nr = sp->rate_bp[k] == NO_LIMIT || q > UINT32_MAX ?
			UINT32_MAX : (unsigned int)q;
		unsigned int age = sp->age_us[k] == NO_LIMIT ? UINT32_MAX :
			clamp_u(sp->age_us[k] / aggr_us);

		if (k) {
			s->pattern.max_nr = nr;
			s->pattern.max_age = age;
			s->pattern.max_sz = clamp_ul(sp->sz[k]);
		} else {
			s->pattern.min_nr = nr;
			s->pattern.min_age = age;
			s->pattern.min_sz = clamp_ul(sp->sz[k]);
		}
	}
	s->apply_us = clamp_ul(sp->apply_us);
	s->quota.ms = clamp_ul(sp->quota[0]);
	s->quota.sz = clamp_ul(sp->quota[1]);
	s->quota.reset_ms = clamp_ul(sp->quota[2]);
	s->quota.weight_sz = clamp_u(sp->quota[3]);
	s->quota.weight_nr = clamp_u(sp->quota[4]);
	s->quota.weight_age = clamp_u(sp->quota[5]);
	/* the script stays in @sp: keep it as long as the scheme */
	s->quota.goal = sp->goal;
	if (sp->goal.metric != HS_GOAL_NONE)
		s->quota.goal.script = sp->goal_script;
}

/**
 * cli_ops_parse() - --ops: the monitoring operations, which decide the
 * score each action takes (hs_score_kind()); anything else exits 2.
 * @s:		"vaddr" or "paddr".
 *
 * Return: the operations.
 */
enum hs_ops cli_ops_parse(const char *s)
{
	if (!strcmp(s, "vaddr"))
		return HS_OPS_VADDR;
	if (!strcmp(s, "paddr"))
		return HS_OPS_PADDR;
	cli_usage_die("--ops: '%s' is neither vaddr nor paddr", s);
}
