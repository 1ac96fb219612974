// SPDX-License-Identifier: GPL-2.0
/*
 * bench_report.c - `hotscore bench` output: the seed module's table, the
 * comparison, a commit-message block, Markdown, JSON, CSV and SVG.
 *
 * Nothing here measures; everything comes from struct bench.  The JSON
 * schema is documented in docs/bench.md.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "json.h"

#define RULE "============================================="
#define THIN "---------------------------------------------"

/** bench_ns() - milliticks of the run's clock as nanoseconds. */
double bench_ns(const struct bench *b, uint64_t mt)
{
	return (double)hs_mt_to_ps(mt, b->host.clock.hz) / 1000.0;
}

/** bench_ppm() - a ppm fixed-point ratio as a double. */
double bench_ppm(uint64_t ppm)
{
	return (double)ppm / (double)HS_PPM;
}

/* TSC ticks per call; meaningful only when the clock is the TSC. */
static double tsc_cycles(uint64_t mt)
{
	return (double)mt / 1000.0;
}

/* "no difference" with a CI that excludes 1 is a significant change that
 * stays inside the noise band: say so, or the two read as a contradiction. */
/* "21.2 [16.7 - 28.0]": TSC ticks per call. */
static const char *tsc_range(const struct bench_result *r)
{
	static char buf[48];

	snprintf(buf, sizeof(buf), "%.1f [%.1f - %.1f]",
		 tsc_cycles(r->ns.median), tsc_cycles(r->ns.min),
		 tsc_cycles(r->ns.max));
	return buf;
}

static const char *verdict_of(const struct bench_result *r)
{
	if (r->baseline)
		return "baseline";
	if (r->verdict == HS_SAME && (r->ci_low > HS_PPM || r->ci_high < HS_PPM))
		return "within 1 %";
	return hs_verdict_name(r->verdict);
}

static const char *check_of(const struct bench_result *r)
{
	return r->variant ? hs_check_name(r->check) : "empty-call baseline";
}

/* A batch variant's figures are per region, not per call. */
static bool per_region(const struct bench_result *r)
{
	return r->variant && hs_variant_regions(r->variant) > 1;
}

/* The 0-based index of @r's variant in the run's list. */
static unsigned int variant_index(const struct bench *b,
				  const struct bench_result *r)
{
	unsigned int v;

	for (v = 0; v < b->nr_variants && b->variants[v] != r->variant; v++)
		;
	return v;
}

/*
 * The batches line of the header: what a batch costs are reported per, and
 * which scorer fast-batch used on each distribution (the vector one needs
 * intervals up to 1 s, and a moving-sum window at an end).
 */
static void print_batches(const struct bench *b, FILE *f)
{
	unsigned int v, vec = b->nr_variants, di;
	bool any = false;

	for (v = 0; v < b->nr_variants; v++) {
		any |= hs_variant_regions(b->variants[v]) > 1;
		if (b->variants[v]->vector && vec == b->nr_variants)
			vec = v;
	}
	if (!any)
		return;
	fprintf(f, "  batches   %u regions a call, costs per region", HS_BATCH_REGIONS);
	if (vec < b->nr_variants && b->dists[0].calls[vec].prep) {
		fprintf(f, "; %s scores with", b->variants[vec]->name);
		for (di = 0; di < b->nr_dists; di++)
			fprintf(f, "%s %s on %s", di ? "," : "",
				hs_fast_impl_name(b->dists[di].calls[vec].impl),
				b->dists[di].name);
	}
	fputc('\n', f);
}

static unsigned int name_width(const struct bench *b, bool dists)
{
	unsigned int w = dists ? 4 : 7, i;
	size_t len;

	for (i = 0; i < (dists ? b->nr_dists : b->nr_variants); i++) {
		len = strlen(dists ? b->dists[i].name : b->variants[i]->name);
		if (len > w)
			w = (unsigned int)len;
	}
	return w;
}

static void print_header(struct bench *b, FILE *f)
{
	const struct hs_host *h = &b->host;
	unsigned int i;

	fprintf(f, "hotscore bench: %lu iterations x %lu runs per variant (a run"
		" is %zu paired rounds\nof 12N = %zu calls each), batches of"
		" N = %zu and 2N calls, differenced\n", b->iterations, b->runs,
		b->rounds_per_run, 12 * b->n, b->n);
	fprintf(f, "  clock     %s, %s, steps of %llu ticks%s\n", h->clock.name,
		h->clock_desc, (unsigned long long)h->clock.step,
		h->clock.tsc ? "; cycle figures are TSC-derived" : "");
	fprintf(f, "  counters  %s\n", h->perf);
	if (h->cpu < 0)	/* imported from hotscore.ko */
		fprintf(f, "  machine   %s in Linux %s: preemption and interrupts off for each batch\n",
			h->cpu_model, h->kernel);
	else
		fprintf(f, "  machine   %s, CPU %d (pinned)%s, governor %s, Linux %s\n",
			h->cpu_model, h->cpu, h->hypervisor ?
			", under a hypervisor" : "", h->governor, h->kernel);
	fprintf(f, "  layout    %s\n", b->layout == HS_LAYOUT_REEXECUTED ?
		"fixed: address-space randomization off (re-executed)" :
		b->layout == HS_LAYOUT_FIXED ?
		"fixed: address-space randomization was already off" :
		"randomized (ASLR on): code placement varies from run to run");
	fprintf(f, "  inputs   ");
	for (i = 0; i < b->nr_dists; i++)
		fprintf(f, " %s%s", b->dists[i].name,
			i + 1 < b->nr_dists ? "," : "");
	fprintf(f, "; pool of %lu; --seed %llu\n", b->pool,
		(unsigned long long)b->seed);
	print_batches(b, f);
}

/* The smallest "nice" bucket width (ps) that fits [min, max] in 5. */
static uint64_t bucket_width(uint64_t min_ps, uint64_t max_ps)
{
	static const uint64_t nice[] = { 50, 100, 200, 250, 500, 1000, 2000,
					 2500, 5000, 10000, 20000, 50000 };
	unsigned int i;

	for (i = 0; i < sizeof(nice) / sizeof(nice[0]); i++)
		if (max_ps - min_ps / nice[i] * nice[i] < 5 * nice[i])
			return nice[i];
	return 100000;
}

/*
 * The seed module's table, from the classes: each class's batch-timed cost
 * stands for all of its inputs, so the ranks, the average and the ranges
 * are those of the per-call costs over the inputs.
 */
static void print_seed_table(struct bench *b, const struct bench_result *r,
			     FILE *f)
{
	uint64_t total = 0, counts[6] = { 0 }, w, lo, min_ps, max_ps;
	unsigned int c, k;

	min_ps = hs_mt_to_ps(r->cls_min, b->host.clock.hz);
	max_ps = hs_mt_to_ps(r->cls_max, b->host.clock.hz);
	w = bucket_width(min_ps, max_ps);
	lo = min_ps / w * w;
	for (c = 0; c < r->cls->nr; c++) {
		uint64_t ps = hs_mt_to_ps(r->cls_mt[c], b->host.clock.hz);

		k = (unsigned int)((ps - lo) / w);
		counts[k > 5 ? 5 : k] += r->cls->c[c].count;
		total += r->cls->c[c].count;
	}
	fprintf(f, "DAMON Perf Test: Starting %lu iterations\n", b->iterations);
	fprintf(f, "%s\n", RULE);
	fprintf(f, " Total Iterations : %llu\n", (unsigned long long)total);
	fprintf(f, " Average Latency  : %.3f ns\n", bench_ns(b, r->cls_mean));
	fprintf(f, " P95 Latency      : %.3f ns\n", bench_ns(b, r->cls_p95));
	fprintf(f, " P99 Latency      : %.3f ns\n", bench_ns(b, r->cls_p99));
	fprintf(f, "%s\n", THIN);
	fprintf(f, " Range (ns)      | Count        | Percent\n");
	fprintf(f, "%s\n", THIN);
	for (k = 0; k < 6; k++) {
		char range[32];

		if (k < 5)
			snprintf(range, sizeof(range), "%.2f-%.2f",
				 (double)(lo + k * w) / 1000,
				 (double)(lo + (k + 1) * w) / 1000);
		else
			snprintf(range, sizeof(range), "%.2f+",
				 (double)(lo + k * w) / 1000);
		fprintf(f, " %-15s | %-12llu | %6.2f%%\n", range,
			(unsigned long long)counts[k],
			total ? 100.0 * (double)counts[k] / (double)total : 0);
	}
	fprintf(f, "%s\n", RULE);
	fprintf(f, " How: %u classes of inputs with equal work (same age_in_log"
		" and branches),\n each timed by itself in N/2N batches of %zu"
		" calls; the figures weight each\n class by its share of the"
		" %llu inputs.  No call was timed alone.  Ranges\n are [from,"
		" to) ns; the cost per class is %.3f to %.3f ns.\n",
		r->cls->nr, b->n, (unsigned long long)total,
		bench_ns(b, r->cls_min), bench_ns(b, r->cls_max));
	fprintf(f, " Mixed stream (inputs in order, branch history included):"
		" median %.3f ns/call,\n min-max %.3f - %.3f over %zu samples.\n",
		bench_ns(b, r->ns.median), bench_ns(b, r->ns.min),
		bench_ns(b, r->ns.max), r->n);
}

/* The seed's own figures, printed as its module printed them. */
static void print_ktime_table(struct bench *b, const struct bench_result *r,
			      FILE *f)
{
	const struct bench_ktime *k = &r->ktime;
	static const char *const ranges[BENCH_KTIME_BUCKETS] = {
		"0-19", "20-39", "40-59", "60-79", "80-99", "100+" };
	unsigned int i;

	fprintf(f, "DAMON Perf Test: Starting %lu iterations\n", b->iterations);
	fprintf(f, "%s\n", RULE);
	fprintf(f, " Total Iterations : %lu\n", b->iterations);
	fprintf(f, " Average Latency  : %llu ns\n",
		(unsigned long long)(k->average_ns_x1000 / 1000));
	fprintf(f, " P95 Latency      : %llu ns\n",
		(unsigned long long)k->p95_ns);
	fprintf(f, " P99 Latency      : %llu ns\n",
		(unsigned long long)k->p99_ns);
	fprintf(f, "%s\n", THIN);
	fprintf(f, " Range (ns)      | Count        | Percent\n");
	fprintf(f, "%s\n", THIN);
	/* as the seed: timed calls scaled to all calls of a run */
	for (i = 0; i < BENCH_KTIME_BUCKETS; i++)
		fprintf(f, " %-15s | %-12llu | %6llu%%\n", ranges[i],
			(unsigned long long)(k->buckets[i] * b->iterations /
					     k->samples),
			(unsigned long long)(k->buckets[i] * 100 / k->samples));
	fprintf(f, "%s\n", RULE);
	fprintf(f, " How (the seed's method): one call in %d timed alone"
		" between two\n clock_gettime(CLOCK_MONOTONIC) reads (%zu"
		" samples, %llu-%llu ns, %lu runs pooled,\n counts per run);"
		" the average is the whole loop's time / calls (%.3f ns);\n"
		" the untimed calls' results are discarded.\n",
		BENCH_KTIME_EVERY, k->samples, (unsigned long long)k->min_ns,
		(unsigned long long)k->max_ns, b->runs,
		(double)k->average_ns_x1000 / 1000);
	if (k->average_ns_x1000 < k->min_ns * 1000)
		fprintf(f, " The average lies below every timed call: the"
			" untimed calls cost less than\n one call plus a"
			" clock read, so the clock, not the function, is"
			" measured.\n");
}

static void print_comparison(struct bench *b, FILE *f)
{
	unsigned int vw = name_width(b, false), dw = name_width(b, true);
	unsigned int di, mi, v;

	fprintf(f, "\nComparison: per call (a batch variant's: per region),"
		" median [min - max] of the\npaired samples; ratio = %s time"
		" / variant time (above 1: faster than\n%s), median of the"
		" paired rounds with a 95%% bootstrap CI; a verdict needs\nthe"
		" CI to exclude 1 and the ratio to leave the 1%% noise band.%s"
		"\n\n", b->variants[0]->name, b->variants[0]->name,
		b->host.clock.tsc ? "\nCycles are TSC ticks (TSC-derived), not"
		" core cycles." : "");
	fprintf(f, "%-*s  %-*s  %-10s  %-26s  %s%-24s  %-13s  %s\n",
		vw, "variant", dw, "dist", "mode", "ns/call median [min - max]",
		b->host.clock.tsc ? "TSC cycles/call       " : "",
		"ratio [95% CI]", "verdict", "check");
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			for (v = 0; v <= b->nr_variants; v++) {
				const struct bench_result *r =
					bench_at(b, di, mi, v);
				char ns[64], cyc[64] = "", ratio[64];

				snprintf(ns, sizeof(ns), "%.3f [%.3f - %.3f]",
					 bench_ns(b, r->ns.median),
					 bench_ns(b, r->ns.min),
					 bench_ns(b, r->ns.max));
				if (b->host.clock.tsc)
					snprintf(cyc, sizeof(cyc), "%-20s  ",
						 tsc_range(r));
				if (!r->variant || r->baseline)
					snprintf(ratio, sizeof(ratio), "%s",
						 r->variant ? "1" : "-");
				else if (r->verdict == HS_UNDECIDED)
					snprintf(ratio, sizeof(ratio),
						 "%.3f (%zu rounds)",
						 bench_ppm(r->ratio), r->rounds);
				else
					snprintf(ratio, sizeof(ratio),
						 "%.3f [%.3f - %.3f]",
						 bench_ppm(r->ratio),
						 bench_ppm(r->ci_low),
						 bench_ppm(r->ci_high));
				fprintf(f, "%-*s  %-*s  %-10s  %-26s  %s%-24s  %-13s  %s\n",
					vw, r->name, dw, b->dists[di].name,
					hs_mode_name(r->mode), ns, cyc, ratio,
					r->variant ? verdict_of(r) : "-",
					check_of(r));
			}
}

static void print_counters(struct bench *b, FILE *f)
{
	unsigned int i, nr = b->nr_dists * b->nr_modes * (b->nr_variants + 1);
	bool any = false;

	for (i = 0; i < nr; i++)
		any |= b->results[i].counters;
	if (!any)
		return;
	fprintf(f, "\nHardware counters (perf_event_open, user space), per"
		" call, median of the\nsame differenced samples:\n\n");
	fprintf(f, "%-14s  %-12s  %-10s  %10s  %12s  %5s\n", "variant", "dist",
		"mode", "cycles", "instructions", "IPC");
	for (i = 0; i < nr; i++) {
		const struct bench_result *r = &b->results[i];

		if (!r->counters)
			continue;
		fprintf(f, "%-14s  %-12s  %-10s  %10.1f  %12.1f  %5.2f\n",
			r->name, b->dists[r->dist].name, hs_mode_name(r->mode),
			(double)r->cycles_median / 1000,
			(double)r->ins_median / 1000, r->cycles_median ?
			(double)r->ins_median / (double)r->cycles_median : 0);
	}
}

static void print_accuracy(struct bench *b, FILE *f)
{
	double per_add;

	if (!b->accuracy)
		return;
	if (!b->core_hz) {
		fprintf(f, "\nHarness accuracy: no add chain in asm for this"
			" architecture.\n");
		return;
	}
	per_add = bench_ppm(b->add_ppm);
	fprintf(f, "\nHarness accuracy: a chain of %d dependent adds, timed"
		" by the engine\n(latency mode), costs %.4f core cycles per add"
		" against the core clock\n(median %.1f MHz, 2^24 adds timed with"
		" CLOCK_MONOTONIC_RAW around\neach of 31 samples).  Target"
		" 1.00 +- 0.02.\n", HS_ADD_CHAIN_LEN, per_add,
		(double)b->core_hz / 1e6);
}

/* --method ktime: name the variants the seed's loop does not apply to. */
static void print_no_ktime(const struct bench *b, FILE *f)
{
	unsigned int v, n = 0;

	if (!b->ktime)
		return;
	for (v = 0; v < b->nr_variants; v++) {
		if (b->variants[v]->ktime)
			continue;
		fprintf(f, "%s%s", n++ ? ", " : "\n--method ktime: not for ",
			b->variants[v]->name);
	}
	if (n)
		fputs(" (no seed-style loop: they are not one call an input)\n",
		      f);
}

/** bench_print_text() - the default report: seed tables, then comparison. */
void bench_print_text(struct bench *b, FILE *f)
{
	unsigned int di, mi, v;

	print_header(b, f);
	for (di = 0; di < b->nr_dists; di++) {
		for (mi = 0; mi < b->nr_modes; mi++)
			for (v = 1; v <= b->nr_variants; v++) {
				const struct bench_result *r =
					bench_at(b, di, mi, v);

				if (!r->cls)	/* imported: no classes */
					continue;
				fprintf(f, "\n### %s | dist %s | %s\n", r->name,
					b->dists[di].name,
					hs_mode_name(r->mode));
				print_seed_table(b, r, f);
			}
		if (!b->ktime)
			continue;
		for (v = 1; v <= b->nr_variants; v++) {
			const struct bench_result *r = bench_at(b, di, 0, v);

			if (!r->has_ktime)	/* not the seed's shape */
				continue;
			fprintf(f, "\n### %s | dist %s | --method ktime (the"
				" seed's single-call timing)\n", r->name,
				b->dists[di].name);
			print_ktime_table(b, r, f);
		}
	}
	print_no_ktime(b, f);
	print_comparison(b, f);
	print_counters(b, f);
	print_accuracy(b, f);
}

/** bench_print_markdown() - the comparison as a Markdown table. */
void bench_print_markdown(struct bench *b, FILE *f)
{
	unsigned int di, mi, v;

	fprintf(f, "| variant | dist | mode | ns/call (batches: per region) median [min–max] | %s"
		"ratio vs %s [95%% CI] | verdict | check |\n"
		"|---|---|---|---|%s---|---|---|\n", b->host.clock.tsc ?
		"TSC cycles/call median [min–max] | " : "",
		b->variants[0]->name, b->host.clock.tsc ? "---|" : "");
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			for (v = 0; v <= b->nr_variants; v++) {
				const struct bench_result *r =
					bench_at(b, di, mi, v);

				fprintf(f, "| %s | %s | %s | %.3f [%.3f–%.3f] | ",
					r->name, b->dists[di].name,
					hs_mode_name(r->mode),
					bench_ns(b, r->ns.median),
					bench_ns(b, r->ns.min),
					bench_ns(b, r->ns.max));
				if (b->host.clock.tsc)
					fprintf(f, "%.1f [%.1f–%.1f] | ",
						tsc_cycles(r->ns.median),
						tsc_cycles(r->ns.min),
						tsc_cycles(r->ns.max));
				if (r->variant && !r->baseline &&
				    r->verdict == HS_UNDECIDED)
					fprintf(f, "%.3f (%zu rounds) | ",
						bench_ppm(r->ratio), r->rounds);
				else if (r->variant && !r->baseline)
					fprintf(f, "%.3f [%.3f–%.3f] | ",
						bench_ppm(r->ratio),
						bench_ppm(r->ci_low),
						bench_ppm(r->ci_high));
				else
					fprintf(f, "%s | ",
						r->variant ? "1" : "–");
				fprintf(f, "%s | %s |\n",
					r->variant ? verdict_of(r) : "–",
					check_of(r));
			}
	fprintf(f, "\nInputs: --seed %llu.\n", (unsigned long long)b->seed);
	print_accuracy(b, f);
}

/* Print @text wrapped at 72 columns, each line prefixed by @indent. */
static void wrap72(FILE *f, const char *text, const char *indent,
		   const char *cont)
{
	size_t col = 0, len;
	const char *p = text, *word_end;

	fputs(indent, f);
	col = strlen(indent);
	while (*p) {
		while (*p == ' ')
			p++;
		word_end = p + strcspn(p, " ");
		len = (size_t)(word_end - p);
		if (!len)
			break;
		if (col > strlen(indent) && col + 1 + len > 72 -
		    strlen(cont)) {
			fprintf(f, "%s\n%s", cont, indent);
			col = strlen(indent);
		}
		if (col > strlen(indent)) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, len, f);
		col += len;
		p = word_end;
	}
	fputc('\n', f);
}

/** bench_print_commit() - a block of at most 72 columns for a commit. */
void bench_print_commit(struct bench *b, FILE *f)
{
	const struct hs_host *h = &b->host;
	char text[4200];
	unsigned int di, mi, v;

	snprintf(text, sizeof(text), "Measured with hotscore bench: %lu calls"
		 " x %lu runs per variant, timed in N/2N batches with the"
		 " timer cancelled, paired and interleaved; %s; CPU %d of %s%s,"
		 " Linux %s, %s.", b->iterations, b->runs,
		 h->clock.tsc ? "cycles are TSC-derived" : h->clock.name,
		 h->cpu, h->cpu_model, h->hypervisor ? " (VM)" : "",
		 h->kernel, b->compiler);
	wrap72(f, text, "", "");
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++) {
			fprintf(f, "\n%s inputs, %s (ratio = %s time /"
				" variant time):\n", b->dists[di].name,
				hs_mode_name(b->modes[mi]),
				b->variants[0]->name);
			for (v = 1; v <= b->nr_variants; v++) {
				const struct bench_result *r =
					bench_at(b, di, mi, v);
				char line[128];
				int n;

				n = snprintf(line, sizeof(line),
					     "  %-17.17s %6.2f ns%s", r->name,
					     bench_ns(b, r->ns.median),
					     per_region(r) ? "/r" : "  ");
				if (h->clock.tsc)
					n += snprintf(line + n, sizeof(line) - (size_t)n,
						      " %6.1f cyc",
						      tsc_cycles(r->ns.median));
				if (r->baseline)
					snprintf(line + n, sizeof(line) - (size_t)n,
						 "  baseline");
				else if (r->verdict == HS_UNDECIDED)
					snprintf(line + n, sizeof(line) - (size_t)n,
						 "  %.3f, too few rounds",
						 bench_ppm(r->ratio));
				else
					snprintf(line + n, sizeof(line) - (size_t)n,
						 "  %.3f [%.3f, %.3f] %s",
						 bench_ppm(r->ratio),
						 bench_ppm(r->ci_low),
						 bench_ppm(r->ci_high),
						 r->check == HS_CHECK_OK ?
						 verdict_of(r) : r->check ==
						 HS_CHECK_AT_BASELINE ?
						 "at-base" : "DCE?");
				fprintf(f, "%.72s\n", line);
			}
		}
	for (v = 0; v < b->nr_variants; v++)
		if (hs_variant_regions(b->variants[v]) > 1) {
			fprintf(f, "\nns/r: per region of a %u-region batch.\n",
				HS_BATCH_REGIONS);
			break;
		}
	fputc('\n', f);
	/* the seed, always: with it the command makes the same inputs */
	if (strstr(b->command, "--seed"))
		snprintf(text, sizeof(text), "$ %s", b->command);
	else
		snprintf(text, sizeof(text), "$ %s --seed %llu", b->command,
			 (unsigned long long)b->seed);
	wrap72(f, text, "", " \\");
}

static void json_key(FILE *f, const char *key)
{
	json_write_string(f, key);
	fputc(':', f);
}

static void json_ns_stats(struct bench *b, FILE *f,
			  const struct hs_summary *s)
{
	fprintf(f, "{\"median\":%.4f,\"min\":%.4f,\"max\":%.4f,\"q1\":%.4f,"
		"\"q3\":%.4f,\"mad\":%.4f,\"tmean_20_80\":%.4f}",
		bench_ns(b, s->median), bench_ns(b, s->min),
		bench_ns(b, s->max), bench_ns(b, s->q1), bench_ns(b, s->q3),
		bench_ns(b, s->mad), bench_ns(b, s->tmean));
}

static void json_environment(struct bench *b, FILE *f)
{
	const struct hs_host *h = &b->host;

	fputs("\"environment\":{", f);
	json_key(f, "cpu_model");
	json_write_string(f, h->cpu_model);
	fprintf(f, ",\"cpu\":%d,\"hypervisor\":%s,", h->cpu,
		h->hypervisor ? "true" : "false");
	json_key(f, "governor");
	json_write_string(f, h->governor);
	fputc(',', f);
	json_key(f, "clock");
	json_write_string(f, h->clock.name);
	fprintf(f, ",\"clock_hz\":%llu,\"tsc\":%s,\"tsc_hz\":",
		(unsigned long long)h->clock.hz, h->clock.tsc ? "true" : "false");
	if (h->clock.tsc)
		fprintf(f, "%llu", (unsigned long long)h->clock.hz);
	else
		fputs("null", f);
	fprintf(f, ",\"clock_step_ticks\":%llu,\"invariant_tsc\":%s,"
		"\"aslr\":%s,\"reexecuted\":%s,",
		(unsigned long long)h->clock.step,
		h->invariant_tsc ? "true" : "false",
		b->layout == HS_LAYOUT_RANDOM ? "true" : "false",
		b->layout == HS_LAYOUT_REEXECUTED ? "true" : "false");
	json_key(f, "counters");
	json_write_string(f, h->perf);
	fputc(',', f);
	json_key(f, "kernel");
	json_write_string(f, h->kernel);
	fputc(',', f);
	json_key(f, "compiler");
	json_write_string(f, b->compiler);
	fputc(',', f);
	json_key(f, "cflags");
	json_write_string(f, b->cflags);
	fputc(',', f);
	json_key(f, "vector");	/* what fast-batch scores with */
	json_write_string(f, hs_fast_impl_name(bench_vector_impl()));
	fputs("}", f);
}

static void json_config(struct bench *b, FILE *f)
{
	unsigned int i;

	fprintf(f, "\"config\":{\"iterations\":%lu,\"runs\":%lu,\"batch_n\":%zu,"
		"\"rounds_per_run\":%zu,\"pool\":%lu,\"seed\":%llu,"
		"\"method\":\"%s\",\"batch_regions\":%d,"
		"\"prepared_bytes\":%zu,\"variants\":[", b->iterations,
		b->runs, b->n, b->rounds_per_run, b->pool,
		(unsigned long long)b->seed, b->ktime ? "ktime" : "batch",
		HS_BATCH_REGIONS, sizeof(struct hs_prep));
	for (i = 0; i < b->nr_variants; i++) {
		fputs(i ? "," : "", f);
		json_write_string(f, b->variants[i]->name);
	}
	fputs("],\"dists\":[", f);
	for (i = 0; i < b->nr_dists; i++) {
		fputs(i ? "," : "", f);
		json_write_string(f, b->dists[i].name);
	}
	fputs("],\"modes\":[", f);
	for (i = 0; i < b->nr_modes; i++)
		fprintf(f, "%s\"%s\"", i ? "," : "", hs_mode_name(b->modes[i]));
	fputs("]}", f);
}

static void json_classes(struct bench *b, FILE *f,
			 const struct bench_result *r)
{
	uint64_t total = 0;
	unsigned int c;
	char name[64];

	for (c = 0; c < r->cls->nr; c++)
		total += r->cls->c[c].count;
	fprintf(f, ",\"seed_report\":{\"iterations\":%llu,\"average_ns\":%.4f,"
		"\"p95_ns\":%.4f,\"p99_ns\":%.4f,\"min_ns\":%.4f,\"max_ns\":%.4f,"
		"\"classes\":[", (unsigned long long)total,
		bench_ns(b, r->cls_mean), bench_ns(b, r->cls_p95),
		bench_ns(b, r->cls_p99), bench_ns(b, r->cls_min),
		bench_ns(b, r->cls_max));
	for (c = 0; c < r->cls->nr; c++) {
		hs_class_name(r->cls->c[c].key, name, sizeof(name));
		fprintf(f, "%s{\"class\":", c ? "," : "");
		json_write_string(f, name);
		fprintf(f, ",\"count\":%llu,\"ns_per_call\":%.4f}",
			(unsigned long long)r->cls->c[c].count,
			bench_ns(b, r->cls_mt[c]));
	}
	fputs("]}", f);
}

static void json_ktime(FILE *f, const struct bench_ktime *k)
{
	unsigned int i;

	fprintf(f, ",\"ktime\":{\"average_ns\":%.3f,\"p95_ns\":%llu,"
		"\"p99_ns\":%llu,\"min_ns\":%llu,\"max_ns\":%llu,\"samples\":%zu,"
		"\"buckets\":[", (double)k->average_ns_x1000 / 1000,
		(unsigned long long)k->p95_ns, (unsigned long long)k->p99_ns,
		(unsigned long long)k->min_ns, (unsigned long long)k->max_ns,
		k->samples);
	for (i = 0; i < BENCH_KTIME_BUCKETS; i++)
		fprintf(f, "%s%llu", i ? "," : "",
			(unsigned long long)k->buckets[i]);
	fputs("]}", f);
}

static void json_result(struct bench *b, FILE *f,
			const struct bench_result *r)
{
	fputs("{\"variant\":", f);
	json_write_string(f, r->name);
	fputs(",\"dist\":", f);
	json_write_string(f, b->dists[r->dist].name);
	fprintf(f, ",\"mode\":\"%s\",\"role\":\"%s\",\"samples\":%zu,"
		"\"regions_per_call\":%u,", hs_mode_name(r->mode), !r->variant ?
		"empty-call baseline" : r->baseline ? "baseline" : "variant",
		r->n, r->variant ? hs_variant_regions(r->variant) : 1);
	if (r->variant && r->variant->vector) {
		json_key(f, "vector");	/* what fast-batch used here */
		json_write_string(f, hs_fast_impl_name(
			b->dists[r->dist].calls[variant_index(b, r)].impl));
		fputc(',', f);
	}
	fputs("\"ns_per_call\":", f);
	json_ns_stats(b, f, &r->ns);
	if (b->host.clock.tsc)
		fprintf(f, ",\"cycles_per_call\":{\"median\":%.3f,\"min\":%.3f,"
			"\"max\":%.3f,\"source\":\"tsc\"}",
			tsc_cycles(r->ns.median), tsc_cycles(r->ns.min),
			tsc_cycles(r->ns.max));
	else
		fputs(",\"cycles_per_call\":{\"median\":null,\"source\":null}",
		      f);
	if (r->counters)
		fprintf(f, ",\"counters\":{\"cycles\":%.3f,\"instructions\":%.3f}",
			(double)r->cycles_median / 1000,
			(double)r->ins_median / 1000);
	else
		fputs(",\"counters\":null", f);
	fprintf(f, ",\"scale_2n_over_n\":%.3f,\"check\":",
		(double)r->scale_median / 1000);
	json_write_string(f, check_of(r));
	if (r->variant && r->cls)
		json_classes(b, f, r);
	if (r->has_ktime)
		json_ktime(f, &r->ktime);
	fputc('}', f);
}

/** bench_write_json() - every figure, the configuration and the machine. */
void bench_write_json(struct bench *b, FILE *f)
{
	unsigned int di, mi, v;
	bool first = true;

	fputs("{\"tool\":\"hotscore bench\",\"schema\":1,\"command\":", f);
	json_write_string(f, b->command);
	fputc(',', f);
	json_environment(b, f);
	fputc(',', f);
	json_config(b, f);
	fputs(",\"results\":[", f);
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			for (v = 0; v <= b->nr_variants; v++) {
				fputs(first ? "\n" : ",\n", f);
				first = false;
				json_result(b, f, bench_at(b, di, mi, v));
			}
	fputs("],\"comparisons\":[", f);
	first = true;
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			for (v = 2; v <= b->nr_variants; v++) {
				const struct bench_result *r =
					bench_at(b, di, mi, v);

				fputs(first ? "\n{\"baseline\":" : ",\n{\"baseline\":",
				      f);
				first = false;
				json_write_string(f, b->variants[0]->name);
				fputs(",\"variant\":", f);
				json_write_string(f, r->name);
				fputs(",\"dist\":", f);
				json_write_string(f, b->dists[di].name);
				fprintf(f, ",\"mode\":\"%s\",\"ratio\":%.6f,",
					hs_mode_name(r->mode),
					bench_ppm(r->ratio));
				if (r->verdict == HS_UNDECIDED)
					fputs("\"ci_low\":null,\"ci_high\":null,", f);
				else
					fprintf(f, "\"ci_low\":%.6f,\"ci_high\":%.6f,",
						bench_ppm(r->ci_low),
						bench_ppm(r->ci_high));
				fprintf(f, "\"confidence\":0.95,\"rounds\":%zu,"
					"\"noise_band\":0.01,\"verdict\":\"%s\"}",
					r->rounds, hs_verdict_name(r->verdict));
			}
	fputs("]", f);
	if (b->accuracy && b->core_hz)
		fprintf(f, ",\"accuracy\":{\"add_chain\":%d,\"core_hz\":%llu,"
			"\"cycles_per_add\":%.4f}", HS_ADD_CHAIN_LEN,
			(unsigned long long)b->core_hz,
			bench_ppm(b->add_ppm));
	fputs("}\n", f);
}

/* A CSV field, quoted (RFC 4180) only when it has to be. */
static void csv_field(FILE *f, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/** bench_write_csv() - one row per (variant, distribution, mode). */
void bench_write_csv(struct bench *b, FILE *f)
{
	unsigned int di, mi, v;

	fputs("variant,dist,mode,samples,ns_median,ns_min,ns_max,ns_q1,ns_q3,"
	      "ns_mad,ns_tmean,tsc_cycles_median,ratio,ci_low,ci_high,verdict,"
	      "check,class_mean_ns,class_p95_ns,class_p99_ns,regions_per_call\n",
	      f);
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			for (v = 0; v <= b->nr_variants; v++) {
				const struct bench_result *r =
					bench_at(b, di, mi, v);

				fprintf(f, "%s,", r->name);
				csv_field(f, b->dists[di].name);
				fprintf(f, ",%s,%zu,%.4f,%.4f,%.4f,%.4f,"
					"%.4f,%.4f,%.4f,",
					hs_mode_name(r->mode), r->n,
					bench_ns(b, r->ns.median),
					bench_ns(b, r->ns.min),
					bench_ns(b, r->ns.max),
					bench_ns(b, r->ns.q1),
					bench_ns(b, r->ns.q3),
					bench_ns(b, r->ns.mad),
					bench_ns(b, r->ns.tmean));
				if (b->host.clock.tsc)
					fprintf(f, "%.3f,",
						tsc_cycles(r->ns.median));
				else
					fputs(",", f);
				if (r->variant && !r->baseline &&
				    r->verdict == HS_UNDECIDED)
					fprintf(f, "%.6f,,,%s,", bench_ppm(r->ratio),
						hs_verdict_name(r->verdict));
				else if (r->variant && !r->baseline)
					fprintf(f, "%.6f,%.6f,%.6f,%s,",
						bench_ppm(r->ratio),
						bench_ppm(r->ci_low),
						bench_ppm(r->ci_high),
						hs_verdict_name(r->verdict));
				else
					fprintf(f, "%s,,,%s,",
						r->variant ? "1" : "",
						r->variant ? "baseline" : "");
				fprintf(f, "%s,", r->variant ?
					(r->check == HS_CHECK_AT_BASELINE ?
					 "at-baseline" : r->check ?
					 "optimized-away" : "ok") :
					"empty-call baseline");
				if (r->variant && r->cls)
					fprintf(f, "%.4f,%.4f,%.4f,",
						bench_ns(b, r->cls_mean),
						bench_ns(b, r->cls_p95),
						bench_ns(b, r->cls_p99));
				else
					fputs(",,,", f);
				fprintf(f, "%u\n", r->variant ?
					hs_variant_regions(r->variant) : 1);
			}
}

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

/** bench_write_svg() - box plots of the per-call cost, one row each. */
void bench_write_svg(struct bench *b, FILE *f)
{
	unsigned int rows = b->nr_dists * b->nr_modes * (b->nr_variants + 1);
	unsigned int di, mi, v, row = 0;
	const double left = 260, right = 40, width = 960, rh = 26, top = 50;
	double max = 0, step, x, height = top + rows * rh + 50;

	for (v = 0; v < rows; v++)
		if (bench_ns(b, b->results[v].ns.max) > max)
			max = bench_ns(b, b->results[v].ns.max);
	step = axis_step(max);
	max = step * (double)(unsigned long)(max / step + 1);
#define X(ns) (left + (ns) / max * (width - left - right))
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		"<text x=\"10\" y=\"20\" font-size=\"14\">hotscore bench: ns per"
		" call (box: quartiles, bar: median, whiskers: min-max of %zu"
		" paired samples; diamond: class-weighted mean)</text>\n",
		width, height, b->results[0].n);
	for (x = 0; x <= max + step / 2; x += step)
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\""
			" stroke=\"#ddd\"/><text x=\"%.1f\" y=\"%.0f\" "
			"text-anchor=\"middle\">%g</text>\n", X(x), top - 10,
			X(x), top + rows * rh, X(x), top + rows * rh + 16, x);
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">ns per"
		" call (batches: per region)</text>\n", (left + width - right) / 2,
		top + rows * rh + 34);
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			for (v = 0; v <= b->nr_variants; v++, row++) {
				const struct bench_result *r =
					bench_at(b, di, mi, v);
				double y = top + row * rh + rh / 2;
				char label[200];

				snprintf(label, sizeof(label), "%s%s | %s | %s",
					 r->name, per_region(r) ?
					 " (per region)" : "", b->dists[di].name,
					 hs_mode_name(r->mode));
				fputs("<text x=\"10\" y=\"", f);
				fprintf(f, "%.1f\">", y + 4);
				for (const char *p = label; *p; p++)
					if (*p == '<')
						fputs("&lt;", f);
					else if (*p == '&')
						fputs("&amp;", f);
					else
						fputc(*p, f);
				fprintf(f, "</text>\n<line x1=\"%.1f\" y1=\"%.1f\" "
					"x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
					X(bench_ns(b, r->ns.min)), y,
					X(bench_ns(b, r->ns.max)), y);
				fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\""
					" height=\"%.1f\" fill=\"%s\" stroke=\"black\"/>\n",
					X(bench_ns(b, r->ns.q1)), y - 8,
					X(bench_ns(b, r->ns.q3)) -
					X(bench_ns(b, r->ns.q1)) + 0.5, 16.0,
					r->variant ? "#9ecae1" : "#ddd");
				fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\""
					" y2=\"%.1f\" stroke=\"#b00\" stroke-width=\"2\"/>\n",
					X(bench_ns(b, r->ns.median)), y - 9,
					X(bench_ns(b, r->ns.median)), y + 9);
				if (r->variant && r->cls) {
					double m = X(bench_ns(b, r->cls_mean));

					fprintf(f, "<path d=\"M%.1f %.1fl4 4l-4 4l-4 -4z\""
						" fill=\"#060\"/>\n", m, y - 4);
				}
			}
#undef X
	fputs("</svg>\n", f);
}
