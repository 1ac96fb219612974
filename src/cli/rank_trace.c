// SPDX-License-Identifier: GPL-2.0
/*
 * rank_trace.c - hotscore rank --damos_trace TRACE: what each profile's
 * quota picks on a 6.12 kdamond's own regions, every scheme in order with
 * the quota's state carried from window to window (the charge, the
 * resume address, the effective size), each pick marked with whether the
 * kernel made it.
 *
 * The walk is hs_replay()'s (src/replay/replay.c over src/sim/apply.c):
 * at each sample where a scheme is due it rebuilds the regions the
 * kernel's walk started from out of the trace, walks them under the
 * profile, and compares the walk with the kernel's damos_before_apply
 * events.  rank reports that comparison as picks: a pick the kernel made
 * is marked; an application the kernel made that the profile did not
 * pick is counted on its own.  Under the kernel's own damon_hot_score()
 * every pick is marked and every kernel application picked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotscore/cand.h>
#include <hotscore/replay.h>
#include <hotscore/spec.h>

#include "cli.h"
#include "cmd_rank.h"

/* damon_hot_score() of the profile being walked; a trap is counted. */
static int hot(void *ctx, const struct hs_input *in)
{
	struct rank_trace *rt = ctx;
	const struct hs_spec *p = &rt->c->prof[rt->k];
	struct hs_spec_result res = hs_spec_score(p, in);

	if (res.trap == HS_CAND_HANG)
		rank_stop_at_hang(rt->c, p, in);
	if (res.undef)
		rt->traps[rt->k]++;
	return res.hot;
}

/* Every application of either side: counted, and written to the files. */
static void on_pick(void *ctx, const struct hs_replay_pick *p)
{
	struct rank_trace *rt = ctx;
	struct rank_trace_count *n;
	uint64_t sz = p->end - p->start;

	if (p->scheme >= rt->c->nr_schemes)
		return;		/* the kernel's scheme has no --damos_action */
	n = &rt->count[rt->k][p->scheme];
	if (p->picked) {
		n->picks++;
		n->sz_picks += sz;
	}
	if (p->kernel) {
		n->kernel++;
		n->sz_kernel += sz;
	}
	if (p->picked && p->kernel) {
		n->marked++;
		n->sz_marked += sz;
	} else {
		if (rt->nr_diffs[rt->k] < RANK_TRACE_DIFFS)
			rt->diffs[rt->k][rt->nr_diffs[rt->k]] = *p;
		rt->nr_diffs[rt->k]++;
	}
	if (rt->c->csv_f)
		rank_trace_csv_row(rt, p);
	if (rt->c->json_f)
		rank_trace_json_row(rt, p);
}

/*
 * The trace's schemes past --damos_action's are refused: rank would walk
 * fewer schemes than the kernel ran, and mark picks against a kernel
 * whose quotas it does not hold.
 */
static void check_schemes(const struct rank_trace *rt)
{
	const struct hs_dtrace *t = &rt->t;
	size_t i;

	for (i = 0; i < t->nr_applies; i++)
		if (t->applies[i].scheme >= rt->c->nr_schemes)
			cli_die("%s: line %lu: scheme %u applied, but %u scheme%s given (--damos_action): give the kdamond's schemes, in its order",
				rt->c->trace, t->applies[i].lineno,
				t->applies[i].scheme, rt->c->nr_schemes,
				cli_s(rt->c->nr_schemes));
}

/* Profile @k's walk over the whole trace. */
static void walk_profile(struct rank_trace *rt, unsigned int k)
{
	struct hs_replay_result res;
	struct hs_replay_cfg cfg;
	char err[256];

	rt->k = k;
	cli_replay_cfg(&rt->c->kd, rt->c->ops, rt->schemes,
		       rt->c->nr_schemes, &cfg);
	cfg.hot = hot;
	cfg.on_pick = on_pick;
	cfg.ctx = rt;
	if (rt->c->json_f)
		rank_trace_json_profile(rt);
	if (hs_replay(&cfg, &rt->t, &res, err, sizeof(err)))
		cli_die("%s: %s", rt->c->trace, err);
	rt->windows[k] = res.nr_windows;
	hs_replay_free(&res);
	if (rt->c->json_f)
		rank_trace_json_counts(rt);
}

/**
 * rank_trace() - rank --damos_trace: every profile walked over the trace,
 * the summary printed, --csv and --json written.
 * @c:		the command, its outputs open.
 *
 * Return: 0.
 */
int rank_trace(struct rank_cmd *c)
{
	struct rank_trace *rt = cli_xcalloc(1, sizeof(*rt));
	unsigned int i;

	rt->c = c;
	rt->txt = c->csv_f == stdout || c->json_f == stdout ? stderr : stdout;
	for (i = 0; i < c->nr_schemes; i++)
		cli_damos_scheme(&c->specs[i], c->kd.sample_us, c->kd.aggr_us,
				 &rt->schemes[i]);
	hs_dtrace_init(&rt->t);
	cli_dtrace_read(c->trace, &rt->t);
	check_schemes(rt);
	if (c->csv_f)
		rank_trace_csv_head(c->csv_f);
	if (c->json_f)
		rank_trace_json_begin(rt);
	for (i = 0; i < c->nr_prof; i++)
		walk_profile(rt, i);
	if (c->json_f)
		rank_trace_json_end(rt);
	rank_trace_text(rt);
	hs_dtrace_free(&rt->t);
	free(rt);
	return 0;
}
