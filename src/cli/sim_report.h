/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_report.h - what the reporters of `hotscore sim` read beyond the
 * structures of cmd_sim.h: the costs and periods sim_report.c derives from
 * a run, and the --actions rows.  Each format is a file of src/cli/report/:
 * sim_text.c, sim_json.c, sim_csv.c, sim_svg.c.
 */
#ifndef HOTSCORE_CLI_SIM_REPORT_H
#define HOTSCORE_CLI_SIM_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cmd_sim.h"

/**
 * sim_mib() - bytes in MiB, as the reports print them.
 * @bytes:	the bytes.
 *
 * Return: @bytes / 2^20.
 */
static inline double sim_mib(uint64_t bytes)
{
	return bytes / 1048576.0;
}

/**
 * struct sim_period - the memory of one period of the summary's table.
 * @from_us:	when it starts (the end of the one before), or 0.
 * @to_us:	when it ends: its last point's time.
 * @resident:	bytes resident at its end.
 * @faults:	faults in it.
 * @wss:	the median of its working sets.
 * @nr_regions:	the median of its region counts.
 */
struct sim_period {
	uint64_t from_us, to_us;
	uint64_t resident, faults, wss, nr_regions;
};

double sim_stage_ns(const struct sim_cmd *c, const struct sim_run *run,
		    enum hs_stage s);
double sim_kdamond_ns(const struct sim_cmd *c, const struct sim_run *run);
double sim_score_fn_ns(const struct sim_run *run);
struct sim_period *sim_periods(const struct sim_run *run,
			       uint64_t duration_us, size_t *nr);
bool sim_same_decisions(const struct sim_cmd *c);
size_t sim_first_difference(const struct sim_cmd *c, size_t *nr);
void sim_decisions_diff(struct sim_cmd *c);

void sim_csv_actions_head(FILE *f);
void sim_csv_action(FILE *f, const struct hs_event *e);
void sim_json_actions_begin(FILE *f);
void sim_json_action(const struct hs_event *e);
void sim_json_actions_end(void);

#endif /* HOTSCORE_CLI_SIM_REPORT_H */
