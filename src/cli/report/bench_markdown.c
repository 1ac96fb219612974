// SPDX-License-Identifier: GPL-2.0
/*
 * bench_markdown.c - `hotscore bench --markdown`: the comparison as a
 * Markdown table, with the notes of the text report under it.
 */
#include <stdbool.h>
#include <stdio.h>

#include "../cmd_bench.h"
#include "../bench_report.h"

/*
 * Markdown cells of @e: "1.537 [1.532–1.541]" (or what estimate_text
 * says), then with @rerun its re-run interval, "[1.529–1.544]" or "–".
 */
static void md_estimate(FILE *f, const struct bench_result *r,
			const struct hs_estimate *e, bool rerun)
{
	char buf[64];

	if (e->value && (e->low || e->high))
		snprintf(buf, sizeof(buf), "%#.4g [%#.4g–%#.4g]",
			 bench_ppm(e->value), bench_ppm(e->low),
			 bench_ppm(e->high));
	else
		estimate_text(buf, sizeof(buf), r, e);
	fprintf(f, "%s | ", buf);
	if (!rerun)
		return;
	if (e->rerun_low || e->rerun_high)
		fprintf(f, "[%#.4g–%#.4g] | ", bench_ppm(e->rerun_low),
			bench_ppm(e->rerun_high));
	else
		fprintf(f, "– | ");
}

/* One result's row of the markdown table. */
static void md_row(struct bench *b, const struct bench_result *r, FILE *f)
{
	char buf[64];

	fprintf(f, "| %s | %s | %s | ", r->name, b->dists[r->dist].name,
		hs_mode_name(r->mode));
	if (!r->ns.n)	/* every sample was 0 */
		fprintf(f, "– (all %zu samples 0) | %s", r->n,
			b->host.clock.tsc ? "– | " : "");
	else
		fprintf(f, "%s | ", sig3_range(buf, sizeof(buf),
			bench_ns(b, r->ns.median), bench_ns(b, r->ns.min),
			bench_ns(b, r->ns.max), "–"));
	if (b->host.clock.tsc && r->ns.n)
		fprintf(f, "%.1f [%.1f–%.1f] | ", tsc_cycles(r->ns.median),
			tsc_cycles(r->ns.min), tsc_cycles(r->ns.max));
	if (r->variant && !r->baseline) {
		md_estimate(f, r, &r->cells.ratio, true);
		md_estimate(f, r, &r->cells.net, false);
	} else {
		fprintf(f, "%s | – | %s | ", r->variant ? "1" : "–",
			r->variant ? "1" : "–");
	}
	fprintf(f, "%s | %s |\n", r->variant ? verdict_of(r) : "–",
		check_of(r));
}

/** bench_print_markdown() - the comparison as a Markdown table. */
void bench_print_markdown(struct bench *b, FILE *f)
{
	unsigned int di, mi, v;

	fprintf(f, "| variant | dist | mode | ns/call (batches: per region) median [min–max] | %s"
		"ratio vs %s [95%% CI] | re-run [95%%] | net of the empty call |"
		" verdict | check |\n"
		"|---|---|---|---|%s---|---|---|---|---|\n", b->host.clock.tsc ?
		"TSC cycles/call median [min–max] | " : "",
		b->variants[0]->name, b->host.clock.tsc ? "---|" : "");
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			for (v = 0; v <= b->nr_variants; v++)
				md_row(b, bench_at(b, di, mi, v), f);
	for (di = 0; b->doors && di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			md_row(b, bench_door_at(b, di, mi), f);
	fputc('\n', f);
	print_door(b, f);
	print_interval_note(b, f);
	print_budget(b, f);
	print_aa(b, f);
	if (b->import)
		fprintf(f, "\nInputs: hotscore.ko's seed=%llu.\n",
			(unsigned long long)b->seed);
	else
		fprintf(f, "\nInputs: --seed %llu (orders and bootstraps:"
			" --order_seed %llu).\n", (unsigned long long)b->seed,
			(unsigned long long)b->order_seed);
	print_nonpositive(b, f);
	print_accuracy(b, f);
}
