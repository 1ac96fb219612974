// SPDX-License-Identifier: GPL-2.0
/*
 * rank_svg.c - hotscore rank --sweep_weights --svg: the grid of weights as
 * an SVG image, each pair's cell coloured by the bytes it picks that the
 * scheme's own weights do not, white (none) to red (the most).
 */
#include <stdio.h>

#include "../cmd_rank.h"
#include "svg.h"

#define CELL_W	80
#define CELL_H	40
#define LEFT	150
#define TOP	70

/* White at 0 to red at 1. */
static void cell_colour(double v, char *buf, size_t size)
{
	int gb = (int)(255 * (1 - (v < 0 ? 0 : v > 1 ? 1 : v)) + 0.5);

	snprintf(buf, size, "#ff%02x%02x", gb, gb);
}

/* One pair's cell: its colour and its bytes. */
static void sweep_cell(FILE *f, const struct rank_run *run, unsigned int i,
		       unsigned int j, uint64_t max)
{
	uint64_t v = run->sweep.differ[i][j];
	int x = LEFT + (int)j * CELL_W, y = TOP + (int)i * CELL_H;
	char col[16];

	cell_colour(max ? (double)v / max : 0, col, sizeof(col));
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#cccccc\"/>\n",
		x, y, CELL_W, CELL_H, col);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%.1f MiB</text>\n",
		x + CELL_W / 2, y + CELL_H / 2 + 4, v / 1048576.0);
}

/* The scheme's own weights outlined, over the cells, where on the grid. */
static void sweep_own(FILE *f, const struct hs_quota *q)
{
	unsigned int i, j;

	if (rank_sweep_at(q, &i, &j))
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\" stroke-width=\"3\"/>\n",
			LEFT + (int)j * CELL_W, TOP + (int)i * CELL_H, CELL_W,
			CELL_H);
}

/**
 * rank_svg_sweep() - --svg: --sweep_weights' grid, rows the nr_accesses
 * weight, columns the age weight, each cell the bytes that pair picks and
 * the scheme's own weights do not, summed over the snapshots.
 * @run:	the ranking, after every context.
 * @f:		the file, open.
 */
void rank_svg_sweep(const struct rank_run *run, FILE *f)
{
	const struct hs_quota *q = &run->schemes[0].quota;
	const int w = RANK_SWEEP_N * CELL_W, h = RANK_SWEEP_N * CELL_H;
	uint64_t max = 0;
	unsigned int i, j;

	for (i = 0; i < RANK_SWEEP_N; i++)
		for (j = 0; j < RANK_SWEEP_N; j++)
			if (run->sweep.differ[i][j] > max)
				max = run->sweep.differ[i][j];
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n",
		LEFT + w + 20, TOP + h + 50);
	fputs("<text x=\"10\" y=\"20\" font-size=\"13\">hotscore rank ", f);
	svg_text(f, run->c->input);
	fputs(", ", f);
	svg_text(f, run->c->prof[0].name);
	fprintf(f, ", scheme 0, %zu snapshots</text>\n", run->sweep.snapshots);
	fprintf(f, "<text x=\"10\" y=\"40\">bytes each pair of weights picks that yours (nr_accesses %u, age %u, outlined) do not</text>\n",
		q->weight_nr, q->weight_age);
	for (i = 0; i < RANK_SWEEP_N; i++) {
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">nr_accesses %u</text>\n",
			LEFT - 8, TOP + (int)i * CELL_H + CELL_H / 2 + 4,
			rank_sweep_weights[i]);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">age %u</text>\n",
			LEFT + (int)i * CELL_W + CELL_W / 2, TOP - 8,
			rank_sweep_weights[i]);
		for (j = 0; j < RANK_SWEEP_N; j++)
			sweep_cell(f, run, i, j, max);
	}
	sweep_own(f, q);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">weight_age (columns) and weight_nr_accesses (rows); white: 0 B, red: %.1f MiB</text>\n",
		LEFT + w / 2, TOP + h + 30, max / 1048576.0);
	fputs("</svg>\n", f);
}
