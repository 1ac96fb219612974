// SPDX-License-Identifier: GPL-2.0
/*
 * bench_csv.c - `hotscore bench --csv`: one row per result, every digit.
 */
#include <stdio.h>

#include "../cmd_bench.h"
#include "../bench_report.h"
#include "../cli.h"

/*
 * The paired ratio, "1.652", or "-" when no round had both sides above 0
 * to compare (compare() in cmd_bench.c).
 */
static const char *ratio_or_dash(const struct bench_result *r, int digits)
{
	static char buf[32];

	if (!r->rounds)
		return "-";
	snprintf(buf, sizeof(buf), "%.*f", digits, bench_ppm(r->ratio));
	return buf;
}

/* The ratio, interval and verdict columns: empty for baselines' figures. */
static void csv_comparison(const struct bench_result *r, FILE *f)
{
	if (r->variant && !r->baseline && r->verdict == HS_UNDECIDED)
		fprintf(f, "%s,,,%s,", r->rounds ? ratio_or_dash(r, 6) : "",
			hs_verdict_name(r->verdict));
	else if (r->variant && !r->baseline)
		fprintf(f, "%.6f,%.6f,%.6f,%s,", bench_ppm(r->ratio),
			bench_ppm(r->ci_low), bench_ppm(r->ci_high),
			hs_verdict_name(r->verdict));
	else
		fprintf(f, "%s,,,%s,", r->variant ? "1" : "",
			r->variant ? "baseline" : "");
}

static void csv_row(const struct bench *b, const struct bench_result *r,
		    FILE *f)
{
	fprintf(f, "%s,", r->name);
	cli_csv_field(f, b->dists[r->dist].name);
	fprintf(f, ",%s,%zu,", hs_mode_name(r->mode), r->n);
	if (r->ns.n)	/* else every sample was 0 */
		fprintf(f, "%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,",
			bench_ns(b, r->ns.median), bench_ns(b, r->ns.min),
			bench_ns(b, r->ns.max), bench_ns(b, r->ns.q1),
			bench_ns(b, r->ns.q3), bench_ns(b, r->ns.mad),
			bench_ns(b, r->ns.tmean));
	else
		fputs(",,,,,,,", f);
	if (b->host.clock.tsc && r->ns.n)
		fprintf(f, "%.3f,", tsc_cycles(r->ns.median));
	else
		fputs(",", f);
	csv_comparison(r, f);
	fprintf(f, "%s,", r->variant ? (r->check == HS_CHECK_AT_BASELINE ?
		"at-baseline" : r->check ? "optimized-away" : "ok") :
		check_of(r));
	if (r->variant && r->cls)
		fprintf(f, "%.4f,%.4f,%.4f,", bench_ns(b, r->cls_mean),
			bench_ns(b, r->cls_p95), bench_ns(b, r->cls_p99));
	else
		fputs(",,,", f);
	fprintf(f, "%u,%zu\n", r->variant ? hs_variant_regions(r->variant) : 1,
		r->nonpositive);
}

/** bench_write_csv() - one row per (variant, distribution, mode). */
void bench_write_csv(struct bench *b, FILE *f)
{
	unsigned int di, mi, v;

	fputs("variant,dist,mode,samples,ns_median,ns_min,ns_max,ns_q1,ns_q3,"
	      "ns_mad,ns_tmean,tsc_cycles_median,ratio,ci_low,ci_high,verdict,"
	      "check,class_mean_ns,class_p95_ns,class_p99_ns,regions_per_call,"
	      "nonpositive_samples\n",
	      f);
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			for (v = 0; v <= b->nr_variants; v++)
				csv_row(b, bench_at(b, di, mi, v), f);
	for (di = 0; b->doors && di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			csv_row(b, bench_door_at(b, di, mi), f);
}
