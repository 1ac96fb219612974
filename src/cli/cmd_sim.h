/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_sim.h - `hotscore sim`: the options, one run's results, and the writers.
 *
 * cmd_sim.c parses and runs (through the engine in src/sim/); sim_report.c
 * keeps what the reports read and writes --record (damo's format, through
 * src/record/write.c) and --actions as the run goes; src/cli/report/'s
 * sim_text.c, sim_json.c, sim_csv.c and sim_svg.c are the reports.
 */
#ifndef HOTSCORE_CLI_CMD_SIM_H
#define HOTSCORE_CLI_CMD_SIM_H

#include <stdio.h>

#include <hotscore/record_write.h>
#include <hotscore/bench_damon.h>
#include <hotscore/host.h>
#include <hotscore/sim.h>
#include <hotscore/spec.h>

#include "damos_opt.h"

#define SIM_MAX_POINTS	100000	/* kept per run; then every 2nd, 4th... */
#define HEAT_T		160	/* heatmap time bins */
#define HEAT_A		80	/* heatmap address bins */
#define SIM_FIRST_ACTIONS 3	/* per scheme, in the summary */

/** struct sim_point - the state after one aggregation. */
struct sim_point {
	uint64_t t_us;
	uint64_t resident;	/* bytes of the workload resident */
	uint64_t faults;	/* so far */
	uint64_t wss;		/* bytes in regions with nr_accesses > 0 */
	size_t nr_regions;
};

/**
 * struct sim_qwin - a charge window of a scheme with a quota goal: what
 * damos_set_effective_quota() computed when it started.
 * @t_us:	simulated time.
 * @scheme:	the scheme.
 * @current:	the goal's current_value.
 * @esz:	the effective size, bytes.
 */
struct sim_qwin {
	uint64_t t_us;
	unsigned int scheme;
	unsigned long current, esz;
};

/** struct heatmap - access frequency over time and address. */
struct heatmap {
	double sum[HEAT_T][HEAT_A];	/* percent x bytes */
	double bytes[HEAT_T][HEAT_A];
	uint64_t span;			/* monitored bytes (ranges joined) */
};

/**
 * struct sim_picks - what one scheme acted on, for the summary: every
 * action counted, the first few kept.
 * @applications: applications that picked at least one region.
 * @last_sis:	the last of them (passed_sample_intervals).
 * @score_lo:	the lowest score of the picked regions (if scored).
 * @score_hi:	the highest score of the picked regions (if scored).
 * @min_lo:	the lowest cut-off (min_score) they passed.
 * @min_hi:	the highest cut-off (min_score) they passed.
 * @nr_scored:	actions with a score.
 * @nr_first:	how many of @first are set.
 * @first:	the first actions.
 */
struct sim_picks {
	unsigned long applications;
	unsigned long last_sis;
	int score_lo, score_hi;
	unsigned int min_lo, min_hi;
	unsigned long nr_scored;
	size_t nr_first;
	struct hs_event first[SIM_FIRST_ACTIONS];
};

/** struct sim_run - one simulation with one profile. */
struct sim_run {
	const char *profile;
	enum hs_scorer scorer;
	char label[HS_SPEC_GIVEN + 16];	/* profile, or profile/scorer */
	const struct hs_variant *variant;
	struct hs_workload wl;
	struct hs_sim sim;
	uint64_t wall_ns;
	long max_rss_kb;		/* the process' peak resident set after it */
	bool have_cost;
	struct hs_cost cost;
	struct sim_point *points;
	size_t nr_points, cap_points;
	unsigned long point_every;	/* aggregations per point kept */
	FILE *record;			/* --record, first run only */
	const char *record_path;
	struct hs_damo_writer rec;
	FILE *actions;			/* --actions, first run only */
	const char *actions_path;
	bool actions_json;
	uint64_t nr_actions;		/* rows written */
	struct sim_picks picks[HS_MAX_SCHEMES];
	struct sim_qwin *qwin;		/* quota goals' windows */
	size_t nr_qwin, cap_qwin;
	struct heatmap *heat;		/* --heatmap, first run only */
	uint64_t last_progress_ns;
	uint64_t aggr_start_ns;
	unsigned long steps;
	int trap;			/* a candidate's signal, or 0 */
	bool cand;			/* its function is a candidate file's */
};

/**
 * struct sim_diff - how the two profiles of a comparison differ: their
 * scores call by call, on the inputs of the first profile's run (run again,
 * untimed, each call asking both), and the actions each run took.
 * @scored:	the scores were compared.
 * @why_not:	else why not.
 * @nr_calls:	score calls in the first profile's run.
 * @nr_differ:	calls on which the two profiles' scores differ.
 * @first_a:	the first such call's score under the first profile.
 * @first_b:	its score under the second.
 * @first_us:	when it was made, in simulated time.
 * @trap:	the second profile trapped (a signal) or hung
 *		(HS_CAND_HANG) on an input of the first's run, or 0.
 * @command:	the `hotscore score` command of the first difference or of
 *		the trap: both profiles on its input.
 * @nr_kept:	each run's kept actions, which are compared.
 * @only:	each run's kept actions that the other run did not take.
 */
struct sim_diff {
	bool scored;
	const char *why_not;
	uint64_t nr_calls, nr_differ;
	int first_a, first_b;
	uint64_t first_us;
	int trap;
	char command[1024];
	size_t nr_kept[2], only[2];
};

/** struct sim_cmd - the command: options and runs. */
struct sim_cmd {
	FILE *json_f, *heat_f;		/* opened before the run */
	const char *workload;
	char *text;			/* the config */
	size_t text_len;
	enum hs_ops ops;
	struct hs_sim_config cfg;
	struct hs_scheme schemes[HS_MAX_SCHEMES];
	struct cli_scheme_spec specs[HS_MAX_SCHEMES];	/* goals' scripts */
	const char *profiles[2];
	enum hs_scorer scorers[2];
	unsigned int nr_runs;
	bool compare;			/* two runs, their decisions compared */
	bool compare_scorers;		/* ... differing in the scorer only */
	const char *record, *heatmap, *json, *actions;
	enum hs_damo_format record_format;
	bool actions_json;		/* --actions FILE.json, else .csv */
	uint64_t rate;			/* the mean, with a list */
	const char *rates;		/* --rate's list, or NULL */
	bool timing;
	struct hs_host host;
	char command[1024];
	struct sim_run runs[2];
	struct sim_diff diff;		/* with two profiles */
};

void sim_report(FILE *f, const struct sim_cmd *c);
int sim_compare(FILE *f, const struct sim_cmd *c);
int sim_write_json(const struct sim_cmd *c, FILE *f);
void sim_record_begin(struct sim_run *run, const struct sim_cmd *c);
void sim_record_snapshot(struct sim_run *run, const struct hs_sim *sim);
void sim_record_end(struct sim_run *run);
void sim_picks_add(struct sim_run *run, const struct hs_event *e);
void sim_actions_begin(struct sim_run *run);
void sim_actions_row(struct sim_run *run, const struct hs_event *e);
void sim_actions_end(struct sim_run *run);
void sim_heat_add(struct heatmap *h, const struct hs_sim *sim);
void sim_heat_write(const struct heatmap *h, const struct sim_cmd *c, FILE *f);

#endif /* HOTSCORE_CLI_CMD_SIM_H */
