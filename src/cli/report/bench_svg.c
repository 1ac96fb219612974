// SPDX-License-Identifier: GPL-2.0
/*
 * bench_svg.c - `hotscore bench --svg`: each result's samples as a box
 * plot, ns per call on one axis.
 */
#include <math.h>
#include <stdio.h>

#include "../cmd_bench.h"
#include "../bench_report.h"
#include "../cli.h"

/* The smallest step of 1, 2 or 5 x 10^k giving at most 10 ticks. */
static double axis_step(double max)
{
	static const double steps[] = { 1, 2, 5 };
	double mag = 0.001;
	unsigned int i;

	for (;;) {
		for (i = 0; i < 3; i++)
			if (max / (steps[i] * mag) <= 10)
				return steps[i] * mag;
		mag *= 10;
	}
}

/* The plot's geometry: the axis from 0 to @max ns over the plot's width. */
struct svg_plot {
	double left, right, width, rh, top, max;
	unsigned int rows;
};

static const double SVG_LEFT = 260, SVG_RIGHT = 40, SVG_WIDTH = 960,
		    SVG_ROW = 26, SVG_TOP = 50;

/* The x of @ns on the axis. */
static double svg_x(const struct svg_plot *p, double ns)
{
	return p->left + ns / p->max * (p->width - p->left - p->right);
}

/* The title, the grid with its tick labels, and the axis' name. */
static void svg_frame(const struct bench *b, const struct svg_plot *p,
		      double step, FILE *f)
{
	double x, bottom = p->top + p->rows * p->rh;

	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		"<text x=\"10\" y=\"20\" font-size=\"14\">hotscore bench: ns per"
		" call (box: quartiles, bar: median, whiskers: min-max of %zu"
		" paired samples; diamond: class-weighted mean)</text>\n",
		p->width, bottom + 50, b->results[0].n);
	for (x = 0; x <= p->max + step / 2; x += step)
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\""
			" stroke=\"#ddd\"/><text x=\"%.1f\" y=\"%.0f\" "
			"text-anchor=\"middle\">%g</text>\n", svg_x(p, x),
			p->top - 10, svg_x(p, x), bottom, svg_x(p, x),
			bottom + 16, x);
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">ns per"
		" call (batches: per region)</text>\n",
		(p->left + p->width - p->right) / 2, bottom + 34);
}

/* A row's label, "<" and "&" escaped for SVG. */
static void svg_label(const struct bench *b, const struct bench_result *r,
		      double y, FILE *f)
{
	char label[200];

	snprintf(label, sizeof(label), "%s%s | %s | %s", r->name,
		 per_region(r) ? " (per region)" : "", b->dists[r->dist].name,
		 hs_mode_name(r->mode));
	fputs("<text x=\"10\" y=\"", f);
	fprintf(f, "%.1f\">", y + 4);
	for (const char *q = label; *q; q++)
		if (*q == '<')
			fputs("&lt;", f);
		else if (*q == '&')
			fputs("&amp;", f);
		else
			fputc(*q, f);
	fputs("</text>\n", f);
}

/* One result's box plot, centred on @y. */
static void svg_box(const struct bench *b, const struct svg_plot *p,
		    const struct bench_result *r, double y, FILE *f)
{
	if (!r->ns.n)	/* every sample was 0 */
		return;
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\""
		" stroke=\"black\"/>\n", svg_x(p, bench_ns(b, r->ns.min)), y,
		svg_x(p, bench_ns(b, r->ns.max)), y);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\""
		" fill=\"%s\" stroke=\"black\"/>\n",
		svg_x(p, bench_ns(b, r->ns.q1)), y - 8,
		svg_x(p, bench_ns(b, r->ns.q3)) -
		svg_x(p, bench_ns(b, r->ns.q1)) + 0.5, 16.0,
		r->variant ? "#9ecae1" : "#ddd");
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\""
		" stroke=\"#b00\" stroke-width=\"2\"/>\n",
		svg_x(p, bench_ns(b, r->ns.median)), y - 9,
		svg_x(p, bench_ns(b, r->ns.median)), y + 9);
	if (r->variant && r->cls)
		fprintf(f, "<path d=\"M%.1f %.1fl4 4l-4 4l-4 -4z\""
			" fill=\"#060\"/>\n",
			svg_x(p, bench_ns(b, r->cls_mean)), y - 4);
}

/** bench_write_svg() - box plots of the per-call cost, one row each. */
void bench_write_svg(struct bench *b, FILE *f)
{
	struct svg_plot p = { SVG_LEFT, SVG_RIGHT, SVG_WIDTH, SVG_ROW, SVG_TOP,
			      0, b->nr_dists * b->nr_modes * (b->nr_variants + 1) };
	unsigned int di, mi, v, row = 0;
	double step;

	for (v = 0; v < p.rows; v++)
		if (bench_ns(b, b->results[v].ns.max) > p.max)
			p.max = bench_ns(b, b->results[v].ns.max);
	step = axis_step(p.max);
	p.max = step * (double)(unsigned long)(p.max / step + 1);
	svg_frame(b, &p, step, f);
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			for (v = 0; v <= b->nr_variants; v++, row++) {
				const struct bench_result *r =
					bench_at(b, di, mi, v);
				double y = p.top + row * p.rh + p.rh / 2;

				svg_label(b, r, y, f);
				svg_box(b, &p, r, y, f);
			}
	fputs("</svg>\n", f);
}
