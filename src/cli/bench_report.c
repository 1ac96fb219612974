// SPDX-License-Identifier: GPL-2.0
/*
 * bench_report.c - what the reporters of `hotscore bench` share: figures to
 * three significant digits, a result's verdict and check, its estimates,
 * and what an interval is of.  One file per format uses them
 * (src/cli/report/bench_*.c).
 *
 * Nothing here measures; everything comes from struct bench.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_bench.h"
#include "bench_report.h"
#include "cli.h"
#include "report/layout.h"

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

/**
 * sig3() - @x to three significant digits ("9.84", "18.6", "1.54", "123"):
 * the figures of a noisy VM carry no more (docs/bench.md, "Intervals").
 * Machine outputs (--json, --csv) keep every digit.
 * @buf:	where.
 * @size:	its size.
 * @x:		the figure.
 *
 * Return: @buf.
 */
const char *sig3(char *buf, size_t size, double x)
{
	char e[32];
	int exp10 = 0;

	snprintf(e, sizeof(e), "%.2e", x);	/* rounded first: 9.996 is 10.0 */
	sscanf(strchr(e, 'e') + 1, "%d", &exp10);
	snprintf(buf, size, "%.*f", exp10 >= 2 ? 0 : 2 - exp10, x);
	return buf;
}

/**
 * sig3_range() - "1.54 [1.50 - 1.58]" (@sep " - "), each to three
 * significant digits.
 * @buf:	where.
 * @size:	its size.
 * @v:		the figure.
 * @lo:		its range's low end.
 * @hi:		its range's high end.
 * @sep:	between them.
 *
 * Return: @buf.
 */
const char *sig3_range(char *buf, size_t size, double v, double lo,
		       double hi, const char *sep)
{
	char a[32], b[32], c[32];

	snprintf(buf, size, "%s [%s%s%s]", sig3(a, sizeof(a), v),
		 sig3(b, sizeof(b), lo), sep, sig3(c, sizeof(c), hi));
	return buf;
}

/**
 * tsc_cycles() - TSC ticks per call; meaningful only when the clock is the
 * TSC.
 * @mt:		milliticks.
 */
double tsc_cycles(uint64_t mt)
{
	return (double)mt / 1000.0;
}

/**
 * plural() - "1 tick", "26 ticks": @one for a count of 1, @many for any
 * other.
 * @n:		the count.
 * @one:	the singular.
 * @many:	the plural.
 */
const char *plural(unsigned long long n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/**
 * verdict_of() - @r's verdict in words.  "no difference" with a CI that
 * excludes 1 is a significant change that stays inside the noise band:
 * say so, or the two read as a contradiction.
 * @r:		the result.
 */
const char *verdict_of(const struct bench_result *r)
{
	if (r->baseline)
		return "baseline";
	if (r->verdict == HS_SAME && (r->ci_low > HS_PPM || r->ci_high < HS_PPM))
		return "within 1 %";
	return hs_verdict_name(r->verdict);
}

/**
 * check_of() - @r's check of its calls' results, or what the empty call is.
 * @r:		the result.
 */
const char *check_of(const struct bench_result *r)
{
	if (r->door)
		return "the door to an empty function";
	return r->variant ? hs_check_name(r->check) : "empty-call baseline";
}

/**
 * per_region() - a batch variant's figures are per region, not per call.
 * @r:		the result.
 */
bool per_region(const struct bench_result *r)
{
	return r->variant && hs_variant_regions(r->variant) > 1;
}

/**
 * estimate_text() - "1.537 [1.532 - 1.541]" (four significant digits: an
 * interval of a few tenths of a per cent must show), or "1.54 (3 rounds)"
 * without an interval, or "-" without a value.
 * @buf:	where.
 * @size:	its size.
 * @r:		the result @e is of.
 * @e:		the estimate.
 *
 * Return: @buf.
 */
const char *estimate_text(char *buf, size_t size,
			  const struct bench_result *r,
			  const struct hs_estimate *e)
{
	char v[32];

	if (!e->value)
		snprintf(buf, size, "-");
	else if (!e->low && !e->high)
		snprintf(buf, size, "%s (%zu %s)",
			 sig3(v, sizeof(v), bench_ppm(e->value)), r->rounds,
			 plural(r->rounds, "round", "rounds"));
	else
		snprintf(buf, size, "%#.4g [%#.4g - %#.4g]", bench_ppm(e->value),
			 bench_ppm(e->low), bench_ppm(e->high));
	return buf;
}

/**
 * empty_of() - the empty call timed in the same rounds as @r, through the
 * same door: a variant behind a candidate's door has the door to nothing
 * (the "door" row), the others the empty function.
 * @b:		the run.
 * @r:		a result of it.
 */
const struct bench_result *empty_of(const struct bench *b,
				    const struct bench_result *r)
{
	unsigned int mi;

	for (mi = 0; mi + 1 < b->nr_modes && b->modes[mi] != r->mode; mi++)
		;
	if (r->variant && r->variant->call == HS_CALL_DOOR && b->doors)
		return bench_door_at(b, r->dist, mi);
	return &b->results[(r->dist * b->nr_modes + mi) *
			   (b->nr_variants + 1)];
}

/**
 * kj_rounds() - Kalibera and Jones's rounds per cell for @r.
 * @b:		the run.
 * @r:		a result of it.
 *
 * hs_kj_rounds(): the rounds per invocation and stream that buy the most
 * precision for the time, from an invocation's own cost (a process, its
 * set-up, its warm-up), shared by its streams (distribution and mode),
 * against a round's; a round's variance is a median's (pi/2 of a mean's).
 * The placements of an invocation share its rounds, so a cell gets 1/P of
 * them.
 *
 * Return: the rounds, or 0: unknown (one invocation, an import, no
 * invocation component).
 */
uint64_t kj_rounds(const struct bench *b, const struct bench_result *r)
{
	uint64_t streams = (uint64_t)b->nr_dists * b->nr_modes;
	uint64_t rounds = b->invocations * streams * b->placements * b->rounds;
	uint64_t m;

	if (b->module_blocks || b->invocations < 2 || !rounds ||
	    b->blocks_ns <= b->stream_ns)
		return 0;
	m = hs_kj_rounds((b->blocks_ns - b->stream_ns) /
			 (b->invocations * streams), b->stream_ns / rounds,
			 r->cells.var_round * 157 / 100, r->cells.var_block);
	return m ? (m + b->placements - 1) / b->placements : 0;
}

/**
 * print_nonpositive() - say which results had samples of 0, and that they
 * are left out.
 * @b:		the run.
 * @f:		where.
 */
void print_nonpositive(struct bench *b, FILE *f)
{
	unsigned int i, nr = b->nr_dists * b->nr_modes * (b->nr_variants + 1);
	unsigned int doors = b->doors ? b->nr_dists * b->nr_modes : 0;
	bool any = false;

	for (i = 0; i < nr + doors; i++) {
		const struct bench_result *r = i < nr ? &b->results[i] :
					       &b->doors[i - nr];

		if (!r->nonpositive)
			continue;
		if (!any)
			fprintf(f, "\nSamples that measured 0 (the 2N batch"
				" took no longer than the N batch: noise\nlarger"
				" than N calls) say nothing of a call's cost;"
				" they are left out of the\nfigures:\n");
		any = true;
		fprintf(f, "  %s, %s, %s: %zu of %zu %s\n", r->name,
			b->dists[r->dist].name, hs_mode_name(r->mode),
			r->nonpositive, r->n,
			plural(r->n, "sample", "samples"));
	}
}

/**
 * print_door() - with a candidate in the run, what the door is and what
 * it costs: the door's row against the empty call's, per distribution
 * and mode; and which variants are not behind it.
 * @b:		the run.
 * @f:		where.
 */
void print_door(const struct bench *b, FILE *f)
{
	unsigned int di, mi, v, out = 0;
	char text[1024], buf[64];
	size_t at;

	if (!b->doors)
		return;
	at = (size_t)snprintf(text, sizeof(text), "The door: with a candidate"
		" in the run, each variant of one call an input is called as a"
		" candidate is, a built-in as its kernel source compiled as a"
		" candidate: damon_hot_score() on the kernel's structs, built"
		" before the timing, through a tail call in the candidate's"
		" object.  It costs (door ns - empty ns, %s):",
		b->host.clock.tsc ? "TSC-derived" : "clock-derived");
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes && at < sizeof(text); mi++) {
			const struct bench_result *d = bench_door_at(b, di, mi);
			const struct bench_result *e = bench_at(
				(struct bench *)b, di, mi, 0);

			at += (size_t)snprintf(text + at, sizeof(text) - at,
				"%s %s %s %s ns", di + mi ? "," : "",
				b->dists[di].name, hs_mode_name(b->modes[mi]),
				sig3(buf, sizeof(buf), bench_ns(b, d->ns.median) -
				     bench_ns(b, e->ns.median)));
		}
	if (at < sizeof(text))
		at += (size_t)snprintf(text + at, sizeof(text) - at, ".  The"
			" net ratios take each side's own empty call out (empty"
			" ns: the door's for a variant behind it).");
	for (v = 0; v < b->nr_variants && at < sizeof(text); v++)
		if (b->variants[v]->call != HS_CALL_DOOR)
			at += (size_t)snprintf(text + at, sizeof(text) - at,
				"%s%s", out++ ? ", " : "  Not behind it"
				" (hotscore's own code): ", b->variants[v]->name);
	if (out && at < sizeof(text))
		snprintf(text + at, sizeof(text) - at, ".");
	fputc('\n', f);
	layout_wrap(f, text, 0, 0, 100, BENCH_WRAP);
}

/**
 * print_differs() - the candidates timed with --allow-different, and how
 * many inputs each differs from --against on.
 * @b:		the run.
 * @f:		where.
 */
void print_differs(const struct bench *b, FILE *f)
{
	char text[512];
	unsigned int v;

	for (v = 0; v < b->nr_variants; v++) {
		if (!b->differs[v][0])
			continue;
		snprintf(text, sizeof(text), "%s %s (--allow-different): its"
			 " figures are another function's.",
			 b->variants[v]->name, b->differs[v]);
		fputs("  ", f);
		layout_wrap(f, text, 2, 4, 100, BENCH_WRAP);
	}
}

/**
 * print_interval_note() - what the intervals are over, and what each is
 * for, at length.
 * @b:		the run.
 * @f:		where.
 */
void print_interval_note(const struct bench *b, FILE *f)
{
	const char *unit = b->interval.kind == HS_IV_BLOCKS ? "time block" :
			   b->interval.kind == HS_IV_MODULE_RUNS ?
			   "run of the module" : "invocation";
	char text[1536];

	switch (b->interval.kind) {
	case HS_IV_ROUNDS:
		snprintf(text, sizeof(text), "Within one %s: each interval"
			 " resamples its rounds, which share its state, so a"
			 " re-run can land outside it; there is no re-run"
			 " interval.", b->module_blocks ?
			 "run of the module" : "process (--invocations 1"
			 " --placements 1)");
		break;
	case HS_IV_PLACEMENTS:
		snprintf(text, sizeof(text), "Within one process"
			 " (--invocations 1): each interval is over the %lu"
			 " code placements, not the process's state, so a re-run"
			 " can land outside it.", b->placements);
		break;
	default:
		snprintf(text, sizeof(text), "Over the %lu %ss: each %s's"
			 " ratio is the geometric mean over its %lu code %s (a"
			 " fixed factor: a re-run of one binary keeps them), the"
			 " ratio their 10 %% trimmed mean on the log scale. CI:"
			 " the 95 %% confidence interval of the true ratio, which"
			 " the verdict reads. Re-run: where 95 %% of re-runs'"
			 " ratios land, sqrt(2) times as wide, since a re-run has"
			 " an error of its own. Neither holds a rebuild that"
			 " moves the code: the layout table says how far the"
			 " placements move each ratio.", b->invocations, unit,
			 unit, b->placements,
			 plural(b->placements, "placement", "placements"));
		break;
	}
	layout_wrap(f, text, 0, 0, 100, BENCH_WRAP);
}

/*
 * Kalibera and Jones's rule for the rounds against the invocations: the
 * median of the comparisons' K-J rounds per cell, against this run's.
 */
static void print_kj(const struct bench *b, FILE *f)
{
	uint64_t kj[BENCH_MAX_LIST * BENCH_MAX_LIST], m;
	unsigned int nr = b->nr_dists * b->nr_modes * (b->nr_variants + 1);
	unsigned int i, n = 0;
	char text[512];

	for (i = 0; i < nr && n < sizeof(kj) / sizeof(kj[0]); i++) {
		const struct bench_result *r = &b->results[i];

		if (r->variant && !r->baseline && kj_rounds(b, r))
			kj[n++] = kj_rounds(b, r);
	}
	if (!n)
		return;
	hs_sort_u64(kj, n);
	m = kj[n / 2];
	snprintf(text, sizeof(text), "Kalibera and Jones: with these"
		 " variances and costs, %llu rounds per cell buy the most"
		 " precision for the time (the median over the ratios; this run"
		 " had %zu). %s", (unsigned long long)m, b->rounds,
		 m > 2 * b->rounds ? "Fewer, longer invocations would do"
		 " better: raise --iterations." : 2 * m < b->rounds ?
		 "More, shorter invocations would do better: lower"
		 " --iterations." : "The split is near its best.");
	layout_wrap(f, text, 0, 0, 100, BENCH_WRAP);
}

/**
 * print_budget() - how many invocations the run made, and why that many:
 * --invocations, or the widest confidence interval against --precision
 * and --budget; and then what this machine's noise allows.
 * @b:		the run.
 * @f:		where.
 */
void print_budget(const struct bench *b, FILE *f)
{
	char text[1024], w[160] = "no ratio has an interval to narrow";
	double s = (double)b->blocks_ns / 1e9;

	if (b->widest)
		snprintf(w, sizeof(w), "the widest, %s, %s, %s, is +-%.2f %%",
			 b->widest->name, b->dists[b->widest->dist].name,
			 hs_mode_name(b->widest->mode),
			 (double)b->widest_ppm / 10000);
	switch (b->stop) {
	case STOP_FIXED:
		return;
	case STOP_PRECISION:
		snprintf(text, sizeof(text), "Budget: %lu invocations in %.1f"
			 " s, until every confidence interval was within +-%.2f"
			 " %% (--precision; %s).", b->invocations, s,
			 (double)b->precision_ppm / 10000, w);
		break;
	case STOP_BUDGET:
	case STOP_LIMIT:
		snprintf(text, sizeof(text), "Budget: %lu invocations in %.1f"
			 " s, when %s: not every confidence interval reached"
			 " +-%.2f %% (--precision): %s. That is what this"
			 " machine's noise allows in this time; a longer"
			 " --budget narrows it about as 1 / sqrt(invocations).",
			 b->invocations, s, b->stop == STOP_LIMIT ?
			 "the most a budgeted run makes were done" :
			 b->invocations == BENCH_MIN_INVOCATIONS ?
			 "the fewest a budgeted run makes were done, past"
			 " --budget already" :
			 "another would have taken the run past --budget",
			 (double)b->precision_ppm / 10000, w);
		break;
	}
	layout_wrap(f, text, 0, 0, 100, BENCH_WRAP);
	print_kj(b, f);
}

/**
 * print_aa() - the A/A pairs: the baseline against itself, whose true
 * ratio is 1, per distribution and mode; and what their excess added.
 * @b:		the run.
 * @f:		where.
 */
void print_aa(const struct bench *b, FILE *f)
{
	unsigned int di, mi;
	char r[96], text[512];

	if (!b->aa)
		return;
	for (mi = 0; mi < b->nr_modes; mi++) {
		for (di = 0; di < b->nr_dists; di++) {
			const struct bench_result *a = bench_aa_at(b, di, mi);
			const struct hs_estimate *e = &a->cells.ratio;

			snprintf(text, sizeof(text), "A/A, %s against itself,"
				 " %s, %s: %s (%s).", b->variants[0]->name,
				 b->dists[di].name, hs_mode_name(b->modes[mi]),
				 estimate_text(r, sizeof(r), a, e),
				 !e->low && !e->high ? "no interval" :
				 e->low > HS_PPM || e->high < HS_PPM ?
				 "its CI excludes 1: noise beyond the"
				 " invocations'" : "its CI holds 1");
			layout_wrap(f, text, 0, 2, 100, BENCH_WRAP);
		}
		if (b->aa_var[mi])
			fprintf(f, "The %s intervals carry the A/A excess, an"
				" SD of %.2f %%.\n", hs_mode_name(b->modes[mi]),
				100 * M_LN2 * sqrt((double)b->aa_var[mi]) /
				HS_LOG_ONE);
	}
}

/*
 * Whether the ruler held: within 2 % of a cycle an add, at a core clock a
 * core can have (an add chain the core folds reads several GHz too fast).
 */
static const char *accuracy_verdict(const struct bench *b, double per_add)
{
	if (b->core_hz < 100000000ULL || b->core_hz > 8000000000ULL)
		return "FAILED, the core clock is impossible (the adds were"
		       " not one a cycle)";
	if (per_add < 0.98 || per_add > 1.02)
		return "FAILED";
	return "passed";
}

/**
 * print_accuracy() - the harness's accuracy (--accuracy): what a chain of
 * dependent adds costs against the core clock.
 * @b:		the run.
 * @f:		where.
 */
void print_accuracy(struct bench *b, FILE *f)
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
		" 1.00 +- 0.02: %s.\n", HS_ADD_CHAIN_LEN, per_add,
		(double)b->core_hz / 1e6, accuracy_verdict(b, per_add));
}
