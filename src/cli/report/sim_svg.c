// SPDX-License-Identifier: GPL-2.0
/*
 * sim_svg.c - `hotscore sim --heatmap`: the heatmap's bins (sim_heat_add()
 * in sim_report.c) as an SVG image, access frequency over time and address.
 */
#include <stdio.h>

#include "../cmd_sim.h"
#include "../sim_report.h"
#include "svg.h"

/* Black to red to yellow to white, like a flame palette. */
static void heat_colour(double pct, char *buf, size_t size)
{
	double v = pct / 100.0;
	int r, g, b;

	v = v < 0 ? 0 : v > 1 ? 1 : v;
	r = (int)(255 * (v < 0.4 ? v / 0.4 : 1) + 0.5);
	g = (int)(255 * (v < 0.4 ? 0 : v < 0.8 ? (v - 0.4) / 0.4 : 1) + 0.5);
	b = (int)(255 * (v < 0.8 ? 0 : (v - 0.8) / 0.2) + 0.5);
	snprintf(buf, size, "#%02x%02x%02x", r, g, b);
}

/**
 * sim_heat_write() - --heatmap: the first run's heatmap as SVG.
 * @h:		the heatmap, after the run.
 * @c:		the command.
 * @f:		the file, open.
 */
void sim_heat_write(const struct heatmap *h, const struct sim_cmd *c, FILE *f)
{
	const int cw = 5, ch = 5, left = 70, top = 40;
	const int w = HEAT_T * cw, hh = HEAT_A * ch;
	double secs = c->cfg.duration_us / 1e6;
	char col[16];
	int t, a, k;

	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n",
		left + w + 90, top + hh + 50);
	fprintf(f, "<text x=\"%d\" y=\"20\" font-size=\"13\">hotscore sim: ", left);
	svg_text(f, c->runs[0].wl.name);
	fprintf(f, " (%s), %s: access frequency over time and address</text>\n",
		c->ops == HS_OPS_PADDR ? "paddr" : "vaddr", c->runs[0].profile);
	for (t = 0; t < HEAT_T; t++) {
		for (a = 0; a < HEAT_A; a++) {
			if (h->bytes[t][a] > 0)
				heat_colour(h->sum[t][a] / h->bytes[t][a], col,
					    sizeof(col));
			else
				snprintf(col, sizeof(col), "#dddddd");
			/* low addresses at the bottom, as in damo's heatmap */
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
				left + t * cw, top + (HEAT_A - 1 - a) * ch, cw,
				ch, col);
		}
	}
	for (k = 0; k <= 4; k++) {
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%.1f s</text>\n",
			left + k * w / 4, top + hh + 16, secs * k / 4);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.0f MiB</text>\n",
			left - 6, top + hh - k * hh / 4 + 4,
			sim_mib(h->span) * k / 4);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">time</text>\n",
		left + w / 2, top + hh + 34);
	for (k = 0; k <= 10; k++) {
		heat_colour(k * 10.0, col, sizeof(col));
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"%d\" fill=\"%s\"/>\n",
			left + w + 20, top + hh - (k + 1) * hh / 11, hh / 11,
			col);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\">100%%</text><text x=\"%d\" y=\"%d\">0%%</text>\n",
		left + w + 38, top + 10, left + w + 38, top + hh);
	fputs("</svg>\n", f);
}
