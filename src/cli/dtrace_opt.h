/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dtrace_opt.h - a 6.12 kdamond's DAMOS trace as the subcommands that
 * replay it read it (replay, rank --damos_trace): the kdamond's setup
 * options, which a trace does not show, and the reader.
 */
#ifndef HOTSCORE_CLI_DTRACE_OPT_H
#define HOTSCORE_CLI_DTRACE_OPT_H

#include <stdbool.h>

#include <hotscore/record_damos.h>
#include <hotscore/replay.h>

#include "damos_opt.h"
#include "opt.h"

enum { CLI_O_KD_SAMPLE = 120, CLI_O_KD_AGGR, CLI_O_KD_HZ,
       CLI_O_KD_MIN_REGION, CLI_O_KD_LAST = CLI_O_KD_MIN_REGION };

/* The four table entries, spliced into a subcommand's option table. */
#define CLI_KDAMOND_OPTS(w)						\
	{ .id = CLI_O_KD_SAMPLE, .name = "sample", .type = OPT_TIME,	\
	  .arg = "T", .dflt = "5ms", .max = CLI_DAMOS_MAX_US,		\
	  .help = "the kdamond's sampling interval", .example = "4ms",	\
	  .with = w },						\
	{ .id = CLI_O_KD_AGGR, .name = "aggr", .type = OPT_TIME,	\
	  .arg = "T", .dflt = "100ms", .min = 1, .max = CLI_DAMOS_MAX_US, \
	  .help = "its aggregation interval", .example = "40ms",	\
	  .with = w },						\
	{ .id = CLI_O_KD_HZ, .name = "hz", .type = OPT_COUNT, .arg = "N",	\
	  .dflt = "250", .min = 1, .max = 100000,			\
	  .help = "the kernel's CONFIG_HZ (jiffies per second): the charge" \
		  " window's length in jiffies", .example = "1000",	\
	  .with = w },						\
	{ .id = CLI_O_KD_MIN_REGION, .name = "min_region_sz",		\
	  .type = OPT_SIZE, .arg = "SIZE", .dflt = "4KiB", .min = 1,	\
	  .max = 1UL << 30,						\
	  .help = "the kernel's DAMON_MIN_REGION: the quota's split"	\
		  " granularity (1 in a kernel built with"		\
		  " CONFIG_DAMON_KUNIT_TEST)", .example = "1",		\
	  .with = w }

/**
 * struct cli_kdamond - what the kdamond was set up with.
 * @sample_us:	--sample.
 * @aggr_us:	--aggr.
 * @hz:		--hz.
 * @min_region:	--min_region_sz.
 * @given:	the first of them given, or NULL.
 * @other:	the first given but --hz, or NULL.
 */
struct cli_kdamond {
	unsigned long sample_us, aggr_us, hz, min_region;
	const char *given, *other;
};

void cli_kdamond_init(struct cli_kdamond *k);
bool cli_kdamond_take(struct cli_kdamond *k, const struct opt *o,
		      const struct opt_val *v);
void cli_kdamond_check(const struct cli_kdamond *k);
void cli_replay_cfg(const struct cli_kdamond *k, enum hs_ops ops,
		    const struct hs_scheme *schemes, unsigned int nr_schemes,
		    struct hs_replay_cfg *cfg);
void cli_dtrace_read(const char *path, struct hs_dtrace *t);

#endif /* HOTSCORE_CLI_DTRACE_OPT_H */
