// SPDX-License-Identifier: GPL-2.0
/*
 * sim_csv.c - `hotscore sim --actions FILE.csv`: a row per action, written
 * as the actions happen (sim_actions_row() in sim_report.c).
 */
#include <inttypes.h>
#include <stdio.h>

#include "../sim_report.h"

/**
 * sim_csv_actions_head() - the header row of --actions' CSV.
 * @f:		the file, open.
 */
void sim_csv_actions_head(FILE *f)
{
	fputs("t_us,scheme,start,end,score,min_score,sz_applied\n", f);
}

/**
 * sim_csv_action() - one action's row; a score not computed (no quota) is
 * an empty field.
 * @f:		the file, open.
 * @e:		the action.
 */
void sim_csv_action(FILE *f, const struct hs_event *e)
{
	char score[16];

	snprintf(score, sizeof(score), "%d", e->score);
	fprintf(f, "%" PRIu64 ",%u,%lu,%lu,%s,%u,%lu\n", e->t_us, e->scheme,
		e->start, e->end, e->score == HS_EVENT_NO_SCORE ? "" : score,
		e->min_score, e->sz_applied);
}
