/* SPDX-License-Identifier: GPL-2.0 */
/*
 * damos_opt.h - the --damos_* scheme options, shared by the subcommands
 * that take a DAMOS scheme (sim, rank): damo's names and units, the
 * default scheme, and the conversion into kernel units.
 */
#ifndef HOTSCORE_CLI_DAMOS_OPT_H
#define HOTSCORE_CLI_DAMOS_OPT_H

#include <hotscore/sim.h>

#include "opt.h"

#define CLI_DAMOS_MAX_US	(30ULL * 24 * 3600 * 1000000)	/* 30 days */

/* Their ids in a subcommand's table: keep its own ids below 100. */
enum { CLI_O_DAMOS_ACTION = 100, CLI_O_DAMOS_ACCESS_RATE, CLI_O_DAMOS_SZ,
       CLI_O_DAMOS_AGE, CLI_O_DAMOS_APPLY, CLI_O_DAMOS_QUOTAS,
       CLI_O_DAMOS_GOAL, CLI_O_DAMOS_LAST = CLI_O_DAMOS_GOAL };

extern const enum opt_type cli_two_rates[], cli_two_sizes[],
	cli_two_times[], cli_quota_types[], cli_goal_types[];

#define CLI_DAMOS_SCHEME (OPT_REPEAT | OPT_MINMAX)
/* The six table entries, spliced into a subcommand's option table. */
#define CLI_DAMOS_OPTS							\
	{ .id = CLI_O_DAMOS_ACTION, .name = "damos_action",		\
	  .type = OPT_STR, .arg = "ACTION", .flags = OPT_REPEAT,	\
	  .words = "stat pageout lru_prio lru_deprio migrate_hot migrate_cold", \
	  .help = "starts a scheme: stat, pageout, lru_prio, lru_deprio,"	\
		  " migrate_hot or migrate_cold", .example = "stat" },	\
	{ .id = CLI_O_DAMOS_ACCESS_RATE, .name = "damos_access_rate",	\
	  .type = OPT_RATE, .nr_values = 2, .min_values = 2,		\
	  .types = cli_two_rates, .arg = "MIN MAX",			\
	  .dflt = "0% 0%; a new scheme's min max",			\
	  .flags = CLI_DAMOS_SCHEME,					\
	  .help = "the scheme's access rate, in percent",		\
	  .example = "0% 10%" },					\
	{ .id = CLI_O_DAMOS_SZ, .name = "damos_sz_region",		\
	  .type = OPT_SIZE, .nr_values = 2, .min_values = 2,		\
	  .types = cli_two_sizes, .arg = "MIN MAX", .dflt = "min max",	\
	  .flags = CLI_DAMOS_SCHEME, .help = "the scheme's region size",	\
	  .example = "4KiB max" },					\
	{ .id = CLI_O_DAMOS_AGE, .name = "damos_age", .type = OPT_TIME,	\
	  .nr_values = 2, .min_values = 2, .types = cli_two_times,	\
	  .arg = "MIN MAX", .dflt = "2s max; a new scheme's min max",	\
	  .max = CLI_DAMOS_MAX_US, .flags = CLI_DAMOS_SCHEME,		\
	  .help = "the scheme's region age", .example = "2s max" },	\
	{ .id = CLI_O_DAMOS_APPLY, .name = "damos_apply_interval",	\
	  .type = OPT_TIME, .arg = "T", .dflt = "the aggregation interval", \
	  .max = CLI_DAMOS_MAX_US, .flags = OPT_REPEAT,			\
	  .help = "how often the scheme is applied", .example = "20ms" },	\
	{ .id = CLI_O_DAMOS_QUOTAS, .name = "damos_quotas", .type = OPT_MS, \
	  .nr_values = 6, .min_values = 1, .types = cli_quota_types,	\
	  .arg = "TIME [SIZE [RESET [W_SZ [W_NR [W_AGE]]]]]",		\
	  .dflt = "10ms 8MiB 1s 0 0 1; a new scheme's 0 0 max 0 0 0",	\
	  .flags = CLI_DAMOS_SCHEME,					\
	  .help = "the scheme's quota: time and size per reset interval, and" \
		  " the weights; as in damo, a bare TIME or RESET is in ms", \
	  .example = "10ms 8MiB 1s 0 3 7" }

/* The quota goal, for the subcommands that model goals (sim). */
#define CLI_DAMOS_GOAL_OPT						\
	{ .id = CLI_O_DAMOS_GOAL, .name = "damos_quota_goal",		\
	  .type = OPT_STR, .nr_values = 3, .min_values = 2,		\
	  .types = cli_goal_types, .arg = "METRIC TARGET [CURRENT]",	\
	  .flags = OPT_REPEAT,						\
	  .words = "user_input some_mem_psi_us",			\
	  .help = "the scheme's quota goal, as damo's: user_input (CURRENT" \
		  " is the value committed at each charge window, a comma"	\
		  " list; the last holds; default 0) or some_mem_psi_us (the" \
		  " modelled pressure, us per window)",			\
	  .example = "user_input 10000 0,5000,15000" }

/* How help explains the scheme options, after the option list. */
#define CLI_DAMOS_NOTES							\
	"With no --damos_action, the scheme is --damos_action pageout"	\
	" --damos_access_rate 0% 0%\n--damos_age 2s max --damos_quotas"	\
	" 10ms 8MiB 1s 0 0 1, and each scheme option\nchanges what it"	\
	" names in it (the fields --damos_quotas leaves out stay as"	\
	" they\nare).  With --damos_action, each scheme starts from"	\
	" damo's defaults, and the n-th\nuse of each scheme option"	\
	" belongs to the n-th --damos_action.\n"

/**
 * struct cli_scheme_spec - a scheme as given, in the user's units, before
 * the intervals turn it into kernel units.
 * @action:	enum hs_action.
 * @rate_bp:	access rate min and max, 1/100 of a percent.
 * @sz:		region size min and max, bytes.
 * @age_us:	age min and max.
 * @age_bare:	each is a bare number (microseconds, as in damo), not a
 *		time with its unit or "max".
 * @apply_us:	apply interval (0: the aggregation interval).
 * @quota:	ms, bytes, reset ms, w_sz, w_nr, w_age.
 * @goal:	the quota goal; its script points into @goal_script.
 * @goal_script: user_input's current values, window by window.
 */
struct cli_scheme_spec {
	int action;
	uint64_t rate_bp[2];
	uint64_t sz[2];
	uint64_t age_us[2];
	bool age_bare[2];
	uint64_t apply_us;
	uint64_t quota[6];
	struct hs_quota_goal goal;
	unsigned long goal_script[HS_GOAL_MAX_STEPS];
};

/* One scheme option as given; applied once every option is known. */
struct cli_scheme_opt {
	const struct opt *o;
	struct opt_val v[OPT_MAX_VALUES];
	unsigned int nr;
};

/**
 * struct cli_schemes - the scheme options of one command line.
 * @sopts:	as given, in order.
 * @nr:		how many.
 */
struct cli_schemes {
	struct cli_scheme_opt sopts[HS_MAX_SCHEMES * 7];
	unsigned int nr;
};

bool cli_damos_take(struct cli_schemes *ss, const struct opt *o,
		    const struct opt_val *v, unsigned int nr);
unsigned int cli_damos_specs(const struct cli_schemes *ss,
			     struct cli_scheme_spec *specs);
void cli_damos_scheme(const struct cli_scheme_spec *sp, unsigned long sample_us,
		      unsigned long aggr_us, struct hs_scheme *s);
enum hs_ops cli_ops_parse(const char *s);

#endif /* HOTSCORE_CLI_DAMOS_OPT_H */
