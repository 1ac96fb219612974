// SPDX-License-Identifier: GPL-2.0
/*
 * dtrace_opt.c - the kdamond's setup options and the DAMOS trace reader
 * that replay and rank --damos_trace share (dtrace_opt.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dtrace_opt.h"

/**
 * cli_kdamond_init() - the defaults: a fresh damo kdamond on 6.12 (sample
 * 5 ms, aggregation 100 ms), Debian's HZ 250 and a 4 KiB DAMON_MIN_REGION.
 * @k:		the setup.
 */
void cli_kdamond_init(struct cli_kdamond *k)
{
	k->sample_us = 5000;
	k->aggr_us = 100000;
	k->hz = 250;
	k->min_region = HS_PAGE_SIZE;
	k->given = k->other = NULL;
}

/**
 * cli_kdamond_take() - keep option @o if it is one of CLI_KDAMOND_OPTS.
 * @k:		the setup.
 * @o:		the option.
 * @v:		its value.
 *
 * Return: true if @o was one.
 */
bool cli_kdamond_take(struct cli_kdamond *k, const struct opt *o,
		      const struct opt_val *v)
{
	switch (o->id) {
	case CLI_O_KD_SAMPLE: k->sample_us = (unsigned long)v->u; break;
	case CLI_O_KD_AGGR: k->aggr_us = (unsigned long)v->u; break;
	case CLI_O_KD_HZ: k->hz = (unsigned long)v->u; break;
	case CLI_O_KD_MIN_REGION: k->min_region = (unsigned long)v->u; break;
	default:
		return false;
	}
	if (!k->given)
		k->given = o->name;
	if (!k->other && o->id != CLI_O_KD_HZ)
		k->other = o->name;
	return true;
}

/** cli_kdamond_check() - refuse what 6.12 refuses: sample above aggr. */
void cli_kdamond_check(const struct cli_kdamond *k)
{
	if (k->sample_us > k->aggr_us)
		cli_usage_die("--sample %lu us is above --aggr %lu us: 6.12 refuses that",
			      k->sample_us, k->aggr_us);
}

/**
 * cli_replay_cfg() - hs_replay()'s setup; the caller sets the score.
 * @k:		the kdamond's setup.
 * @ops:	its operations.
 * @schemes:	its schemes, in its order.
 * @nr_schemes:	how many.
 * @cfg:	zeroed, then filled.
 */
void cli_replay_cfg(const struct cli_kdamond *k, enum hs_ops ops,
		    const struct hs_scheme *schemes, unsigned int nr_schemes,
		    struct hs_replay_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->attrs.sample_us = k->sample_us;
	cfg->attrs.aggr_us = k->aggr_us;
	cfg->attrs.min_region_sz = k->min_region;
	cfg->ops = ops;
	cfg->hz = k->hz;
	cfg->schemes = schemes;
	cfg->nr_schemes = nr_schemes;
}

/**
 * cli_dtrace_read() - read the trace at @path (- is stdin) whole; a bad
 * line, or a trace without a damos_before_apply event, is exit 2.
 * @path:	the trace.
 * @t:		hs_dtrace_init()'d.
 */
void cli_dtrace_read(const char *path, struct hs_dtrace *t)
{
	FILE *in = strcmp(path, "-") ? fopen(path, "r") : stdin;
	size_t cap = 0;
	char *line = NULL;
	ssize_t n;

	if (!in)
		cli_die("%s: %s", path, strerror(errno));
	while ((n = getline(&line, &cap, in)) > 0) {
		if (line[n - 1] == '\n')
			n--;
		if (hs_dtrace_line(t, line, (size_t)n))
			break;
	}
	free(line);
	if (!t->err[0] && ferror(in))
		cli_die("%s: read error: %s", path, strerror(errno));
	if (in != stdin)
		fclose(in);
	if (!t->err[0])
		hs_dtrace_end(t);
	if (t->err[0])
		cli_die("%s: %s", path, t->err);
	if (!t->nr_applies)
		cli_die("%s: no damos_before_apply event in %lu samples: nothing to replay",
			path, (unsigned long)t->nr_iters);
}
