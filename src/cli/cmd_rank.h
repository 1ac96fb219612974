/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_rank.h - hotscore rank: the command line (cmd_rank.c), the ranking of a
 * record's snapshots (rank_run.c) and what its reports read: src/cli/report/'s
 * rank_text.c, rank_csv.c and rank_json.c.
 */
#ifndef HOTSCORE_CLI_CMD_RANK_H
#define HOTSCORE_CLI_CMD_RANK_H

#include <stdio.h>

#include <hotscore/json_out.h>
#include <hotscore/score.h>
#include <hotscore/sim_apply.h>
#include <hotscore/sim_damos.h>
#include <hotscore/spec.h>

#include "damos_opt.h"
#include "dtrace_opt.h"

#define RANK_MAX_PROFILES	2

/**
 * struct rank_cmd - hotscore rank, as given.
 * @input:	the record file.
 * @profiles:	--profile as given, or NULL.
 * @prof:	the profiles (candidates loaded for @base_name).
 * @nr_prof:	how many.
 * @base:	--base, or NULL.
 * @base_spec:	the candidates' base (hs_spec_base()).
 * @ops:	vaddr or paddr.
 * @snapshot:	--snapshot, or -1.
 * @time_us:	--time, if @has_time.
 * @has_time:	--time was given.
 * @ss:		the scheme options.
 * @specs:	the schemes as given.
 * @nr_schemes:	how many.
 * @csv:	the CSV output file's name, or NULL.
 * @json:	the JSON output file's name, or NULL.
 * @csv_f:	open on @csv's temporary file.
 * @json_f:	open on @json's temporary file.
 * @sweep:	--sweep_weights: the scheme under a grid of weights.
 * @svg:	--svg, the sweep's drawing, or NULL.
 * @svg_f:	open on @svg's temporary file.
 * @trace:	--damos_trace, a 6.12 kdamond's DAMOS trace, or NULL.
 * @kd:		the kdamond's setup, for @trace (its HZ for @carry too).
 * @carry:	--carry: the snapshots walked in time order, every scheme
 *		in order, each quota carried from one to the next.
 */
struct rank_cmd {
	const char *input, *profiles;
	struct hs_spec prof[RANK_MAX_PROFILES];
	unsigned int nr_prof;
	const struct hs_profile *base;
	struct hs_spec base_spec;
	enum hs_ops ops;
	long snapshot;
	uint64_t time_us;
	bool has_time;
	struct cli_schemes ss;
	struct cli_scheme_spec specs[HS_MAX_SCHEMES];
	unsigned int nr_schemes;
	const char *csv, *json;
	FILE *csv_f, *json_f;
	bool sweep;
	const char *svg;
	FILE *svg_f;
	const char *trace;
	struct cli_kdamond kd;
	bool carry;
};

/* What a record lacked, and what rank assumed instead: counted. */
enum rank_assumption {
	RANK_A_INTERVALS, RANK_A_BOUNDARY, RANK_A_NO_AGE, RANK_A_NO_NR,
	RANK_A_PERCENT, RANK_A_USEC, RANK_A_SAMPLE_FIELD, RANK_A_FIRST_WINDOW,
	RANK_A_ACTION_TIME, RANK_A_TARGETS, RANK_NR_ASSUMPTIONS
};

extern const char *const rank_assumption_text[RANK_NR_ASSUMPTIONS];

/**
 * struct rank_origin - where a region of rank_run.r came from.
 * @record:	the record, of the file.
 * @target:	the target, of the context, from 0.
 */
struct rank_origin {
	size_t record;
	unsigned int target;
};

/**
 * struct rank_pick - one profile and one scheme on one snapshot: what
 * hs_damos_walk() found, and what the ranking's score callback counted.
 * @score:	per region, -1 where not eligible or trapped.
 * @picked:	per region, bytes the walk acts on.
 * @esz:	the quota's effective size in bytes, or 0 without a quota.
 * @min_score:	the score a region needs to be acted on under the quota,
 *		or 0.
 * @nr_eligible: regions the scheme's access pattern admits.
 * @nr_picked:	regions the walk acts on.
 * @sz_eligible: bytes of the eligible regions.
 * @sz_picked:	bytes the walk acts on.
 * @nr_traps:	eligible regions whose score trapped.
 * @nr_out:	eligible regions scored outside 0..HS_DAMOS_MAX_SCORE,
 *		clamped.
 * @counted:	per region, --carry: which of the two it counted already.
 */
struct rank_pick {
	int *score;
	unsigned long *picked;
	unsigned long esz;
	unsigned int min_score;
	size_t nr_eligible, nr_picked;
	unsigned long sz_eligible, sz_picked;
	size_t nr_traps, nr_out;
	unsigned char *counted;
};

/**
 * struct rank_total - one pick over a context's snapshots.
 * @regions:	regions it acts on, summed.
 * @bytes:	bytes it acts on, summed.
 * @snapshots:	snapshots where it acts on something.
 */
struct rank_total {
	uint64_t regions, bytes;
	size_t snapshots;
};

/**
 * struct rank_context - a context's summary: what each pick acted on over
 * its snapshots and, with two picks, where they differ.
 * @expected:	snapshots it will rank, as its records count them.
 * @ranked:	snapshots ranked.
 * @shown:	of them, rows printed.
 * @total:	per pick.
 * @nr_differ:	snapshots where two picks act differently.
 * @diff_bytes:	bytes one acts on and the other not, summed.
 * @diff_regions: regions they act on differently, summed.
 * @first:	the first snapshot where they differ (its index).
 * @first_ns:	its end, from the context's start.
 */
struct rank_context {
	size_t expected, ranked, shown;
	struct rank_total total[RANK_MAX_PROFILES * HS_MAX_SCHEMES];
	size_t nr_differ;
	uint64_t diff_bytes;
	uint64_t diff_regions;
	size_t first;
	uint64_t first_ns;
};

/* --sweep_weights: the grid's weights, for nr_accesses and for age. */
#define RANK_SWEEP_N	7
extern const unsigned int rank_sweep_weights[RANK_SWEEP_N];

/**
 * struct rank_sweep - the first profile and scheme under each pair of
 * weights of the grid, against the scheme's own weights.
 * @pick:	scratch: one pair on one snapshot.
 * @picked:	[nr_accesses][age]: bytes picked, summed over snapshots.
 * @differ:	[nr_accesses][age]: bytes picked that the scheme's own
 *		weights do not pick, summed over snapshots.
 * @snapshots:	snapshots swept.
 * @traps:	regions whose score trapped, over the grid.
 */
struct rank_sweep {
	struct rank_pick pick;
	uint64_t picked[RANK_SWEEP_N][RANK_SWEEP_N];
	uint64_t differ[RANK_SWEEP_N][RANK_SWEEP_N];
	size_t snapshots;
	uint64_t traps;
};

struct hs_rec_info;
struct hs_rec_reader;
struct hs_rec_snapshot;
struct rank_run;

/**
 * struct rank_carry - --carry: one profile's kdamond between snapshots.
 * @run:	the ranking.
 * @prof:	the profile.
 * @a:		the walk's context (src/sim/apply.c, the newest core).
 * @schemes:	its schemes, with their quota state.
 * @r:		the snapshot's regions as the walk takes them, each tagged
 *		(in @wl) with its index in rank_run.r.
 * @nr:		how many.
 * @cap:	room in @r.
 * @sis:	the snapshot's end, in sampling intervals from the start.
 */
struct rank_carry {
	struct rank_run *run;
	unsigned int prof;
	struct hs_apply a;
	struct hs_scheme schemes[HS_MAX_SCHEMES];
	struct hs_region *r;
	size_t nr, cap;
	unsigned long sis;
};

/**
 * struct rank_run - the ranking of one file: a context's snapshot at a
 * time, ranked by every pick (profile k / nr_schemes, scheme k %
 * nr_schemes).
 * @c:		the command.
 * @infos:	the file's records.
 * @nr_infos:	how many.
 * @sample_us:	the context's sampling interval.
 * @aggr_us:	its aggregation interval.
 * @schemes:	the schemes, in these intervals.
 * @r:		the snapshot's regions, as the walk reads them.
 * @from:	each one's record and target.
 * @nr:		regions in @r.
 * @cap:	room in @r, @from and each pick's arrays.
 * @picks:	each profile and scheme on the snapshot.
 * @nr_picks:	how many.
 * @diff_bytes:	with two picks: the bytes one acts on and the other not.
 * @diff_regions: with two picks: the regions they act on differently.
 * @assumed:	what the records lacked, counted by enum rank_assumption.
 * @txt:	the summary: stdout, or stderr when a file is.
 * @pool:	readers between groups.
 * @nr_pool:	how many.
 * @nr_ranked:	snapshots ranked.
 * @nr_bad:	snapshots where a score trapped or left 0..99.
 * @js:		--json, a snapshot at a time.
 * @ctx:	the context at hand's summary.
 * @sweep:	--sweep_weights' grid, over every context.
 * @carry:	--carry: each profile's kdamond, over a context.
 */
struct rank_run {
	struct rank_cmd *c;
	const struct hs_rec_info *infos;
	size_t nr_infos;
	unsigned long sample_us, aggr_us;
	struct hs_scheme schemes[HS_MAX_SCHEMES];
	struct hs_damos_region *r;
	struct rank_origin *from;
	size_t nr, cap;
	struct rank_pick picks[RANK_MAX_PROFILES * HS_MAX_SCHEMES];
	unsigned int nr_picks;
	uint64_t diff_bytes;
	size_t diff_regions;
	size_t assumed[RANK_NR_ASSUMPTIONS];
	FILE *txt;
	struct hs_rec_reader **pool;
	size_t nr_pool;
	size_t nr_ranked;
	size_t nr_bad;
	struct hs_json_stream js;
	struct rank_context ctx;
	struct rank_sweep sweep;
	struct rank_carry carry[RANK_MAX_PROFILES];
};

/**
 * rank_pick_prof() - the profile of pick @k.
 * @run:	the ranking.
 * @k:		the pick.
 *
 * Return: the profile.
 */
static inline const struct hs_spec *rank_pick_prof(const struct rank_run *run,
						   unsigned int k)
{
	return &run->c->prof[k / run->c->nr_schemes];
}

/**
 * rank_pick_scheme() - the scheme of pick @k.
 * @run:	the ranking.
 * @k:		the pick.
 *
 * Return: the scheme's index.
 */
static inline unsigned int rank_pick_scheme(const struct rank_run *run,
					    unsigned int k)
{
	return k % run->c->nr_schemes;
}

/* A trace's differences the text prints, per profile. */
#define RANK_TRACE_DIFFS	10

/**
 * struct rank_trace_count - one profile and scheme over a trace.
 * @picks:	applications rank's walk made.
 * @kernel:	applications the kernel made (damos_before_apply).
 * @marked:	picks the kernel made too.
 * @sz_picks:	bytes of @picks.
 * @sz_kernel:	bytes of @kernel.
 * @sz_marked:	bytes of @marked.
 */
struct rank_trace_count {
	unsigned long picks, kernel, marked;
	uint64_t sz_picks, sz_kernel, sz_marked;
};

/**
 * struct rank_trace - rank --damos_trace: each profile's walk over the
 * trace's regions, with the quota state carried (hs_replay()), its picks
 * marked with the kernel's.
 * @c:		the command.
 * @t:		the trace.
 * @schemes:	the schemes, in the kdamond's intervals.
 * @k:		the profile being walked.
 * @count:	per profile and scheme.
 * @windows:	charge windows started, per profile.
 * @traps:	scores that trapped, per profile.
 * @diffs:	per profile, the first picks only one side made.
 * @nr_diffs:	per profile, all of them.
 * @txt:	the summary: stdout, or stderr when a file is.
 * @js:		--json.
 */
struct rank_trace {
	struct rank_cmd *c;
	struct hs_dtrace t;
	struct hs_scheme schemes[HS_MAX_SCHEMES];
	unsigned int k;
	struct rank_trace_count count[RANK_MAX_PROFILES][HS_MAX_SCHEMES];
	unsigned long windows[RANK_MAX_PROFILES];
	unsigned long traps[RANK_MAX_PROFILES];
	struct hs_replay_pick diffs[RANK_MAX_PROFILES][RANK_TRACE_DIFFS];
	size_t nr_diffs[RANK_MAX_PROFILES];
	FILE *txt;
	struct hs_json_stream js;
};

int rank_file(struct rank_cmd *c);
int rank_trace(struct rank_cmd *c);
void __attribute__((noreturn)) rank_stop_at_hang(const struct rank_cmd *c,
						 const struct hs_spec *p,
						 const struct hs_input *in);
bool rank_sweep_at(const struct hs_quota *q, unsigned int *i, unsigned int *j);

void rank_text_begin(const struct rank_run *run, bool compressed);
void rank_text_context(const struct rank_run *run,
		       const struct hs_rec_info *in, size_t nr_records);
void rank_text_row(const struct rank_run *run,
		   const struct hs_rec_snapshot *s, uint64_t t0);
void rank_text_picked(const struct rank_run *run);
void rank_text_summary(const struct rank_run *run);
void rank_text_sweep(const struct rank_run *run);
void rank_text_end(const struct rank_run *run);
void rank_svg_sweep(const struct rank_run *run, FILE *f);
void rank_csv_head(FILE *f);
void rank_csv_rows(const struct rank_run *run,
		   const struct hs_rec_snapshot *s);
void rank_json_begin(struct rank_run *run, bool compressed);
void rank_json_snapshot(struct rank_run *run,
			const struct hs_rec_snapshot *s);
void rank_json_end(struct rank_run *run);
void rank_trace_text(const struct rank_trace *rt);
void rank_trace_csv_head(FILE *f);
void rank_trace_csv_row(const struct rank_trace *rt,
			const struct hs_replay_pick *p);
void rank_trace_json_begin(struct rank_trace *rt);
void rank_trace_json_profile(struct rank_trace *rt);
void rank_trace_json_row(struct rank_trace *rt,
			 const struct hs_replay_pick *p);
void rank_trace_json_counts(struct rank_trace *rt);
void rank_trace_json_end(struct rank_trace *rt);

#endif /* HOTSCORE_CLI_CMD_RANK_H */
