// SPDX-License-Identifier: GPL-2.0
/*
 * rank_csv.c - hotscore rank --csv: a row per pick and region of every
 * snapshot ranked.
 */
#include <stdio.h>

#include <hotscore/record.h>

#include "../cli.h"
#include "../cmd_rank.h"

/**
 * rank_csv_head() - --csv's header row.
 * @f:		the file, open.
 */
void rank_csv_head(FILE *f)
{
	fputs("profile,scheme,record,snapshot,target,start,end,nr_accesses,age,score,min_score,picked\n",
	      f);
}

/**
 * rank_csv_rows() - a snapshot's rows: every region under every pick.
 * @run:	the ranking, after the snapshot's.
 * @s:		the snapshot (its first target's).
 */
void rank_csv_rows(const struct rank_run *run,
		   const struct hs_rec_snapshot *s)
{
	FILE *f = run->c->csv_f;
	unsigned int k;
	size_t i;

	for (k = 0; k < run->nr_picks; k++) {
		const struct rank_pick *pk = &run->picks[k];

		for (i = 0; i < run->nr; i++) {
			const struct hs_damos_region *r = &run->r[i];
			const struct rank_origin *o = &run->from[i];

			cli_csv_field(f, rank_pick_prof(run, k)->name);
			fprintf(f, ",%u,%zu,%zu,%u,%lu,%lu,%u,%u,%d,%u,%lu\n",
				rank_pick_scheme(run, k),
				o->record, s->index, o->target, r->start,
				r->end, r->nr_accesses, r->age, pk->score[i],
				pk->min_score, pk->picked[i]);
		}
	}
}

/**
 * rank_trace_csv_head() - --csv's header row, with --damos_trace.
 * @f:		the file, open.
 */
void rank_trace_csv_head(FILE *f)
{
	fputs("profile,sample,scheme,window,start,end,nr_accesses,age,score,min_score,picked,kernel\n",
	      f);
}

/**
 * rank_trace_csv_row() - one application of either side: picked and
 * kernel are the bytes each applied the scheme to (0: not applied); score
 * and min_score are empty where there is none.
 * @rt:		the ranking.
 * @p:		the application.
 */
void rank_trace_csv_row(const struct rank_trace *rt,
			const struct hs_replay_pick *p)
{
	FILE *f = rt->c->csv_f;
	unsigned long sz = p->end - p->start;

	cli_csv_field(f, rt->c->prof[rt->k].name);
	fprintf(f, ",%lu,%u,%lu,%lu,%lu,%u,%u,", p->sis, p->scheme, p->window,
		p->start, p->end, p->nr_accesses, p->age);
	if (p->score >= 0)
		fprintf(f, "%d", p->score);
	fputc(',', f);
	if (p->min_score >= 0)
		fprintf(f, "%d", p->min_score);
	fprintf(f, ",%lu,%lu\n", p->picked ? sz : 0, p->kernel ? sz : 0);
}
