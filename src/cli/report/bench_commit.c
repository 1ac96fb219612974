// SPDX-License-Identifier: GPL-2.0
/*
 * bench_commit.c - `hotscore bench --commit`: a block for a commit message,
 * 72 columns wide: the command, each variant's figures and verdict, and
 * what the intervals are of.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../cmd_bench.h"
#include "../bench_report.h"
#include "../cli.h"
#include "layout.h"

#define COMMIT_WIDTH 72

/*
 * Where to cut a word of a shell command that does not fit in @room
 * columns: after the last comma that fits, else as late as fits.  @quoted
 * says whether the word is inside single quotes at its start, and receives
 * whether it is at the cut, where a quoted cut needs a column for the
 * closing quote.
 */
static size_t command_cut(const char *p, size_t len, size_t room,
			  bool *quoted)
{
	size_t i, cut = 0, comma = 0;
	bool q = *quoted, q_cut = q, q_comma = q;

	for (i = 0; i < len; i++) {
		if (p[i] == '\'')
			q = !q;
		if (i + 1 + q > room)	/* p[0..i] and a closing quote */
			break;
		cut = i + 1;
		q_cut = q;
		if (p[i] == ',') {
			comma = cut;
			q_comma = q;
		}
	}
	if (comma) {
		cut = comma;
		q_cut = q_comma;
	}
	*quoted = q_cut;
	return cut ? cut : 1;
}

/*
 * A shell command after @prompt, wrapped at 72 columns: " \" between
 * words; a word too long for a line is cut (after a comma where it can
 * be) with a "\" that the shell removes with the newline, joining the
 * parts again.  Inside single quotes it would not be removed, so there
 * the quote is closed before the cut and reopened after it.
 */
static void wrap_command(FILE *f, const char *prompt, const char *cmd)
{
	size_t at = strlen(prompt), len, need, cut;
	const char *p = cmd, *q;
	bool empty = true, quoted, last;

	fputs(prompt, f);
	for (;;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		for (q = p, quoted = false; *q && (quoted || *q != ' '); q++)
			quoted ^= *q == '\'';
		len = (size_t)(q - p);
		last = !q[strspn(q, " ")];
		need = len + (last ? 0 : 2);	/* room for " \" after it */
		if (!empty && at + 1 + need > COMMIT_WIDTH) {
			fputs(" \\\n", f);
			at = 0;
			empty = true;
		}
		if (!empty) {
			fputc(' ', f);
			at++;
		}
		quoted = false;
		while (at + need > COMMIT_WIDTH) {	/* cut the word */
			cut = command_cut(p, len, COMMIT_WIDTH - at - 1,
					  &quoted);
			fwrite(p, 1, cut, f);
			fputs(quoted ? "'\\\n'" : "\\\n", f);
			at = quoted;
			p += cut;
			len -= cut;
			need -= cut;
		}
		fwrite(p, 1, len, f);
		at += len;
		p += len;
		empty = false;
	}
	fputc('\n', f);
}

/*
 * A distribution as a commit message shows it: a file by its base name
 * (file:worst.csv), never a path of the machine it ran on.
 */
static const char *commit_dist(const struct bench_dist *d)
{
	static char buf[sizeof(d->name)];
	const char *base;

	if (strncmp(d->name, "file:", 5) || !strchr(d->name + 5, '/'))
		return d->name;
	base = strrchr(d->name, '/') + 1;
	snprintf(buf, sizeof(buf), "file:%s", *base ? base : d->name + 5);
	return buf;
}

/*
 * The reproduce line: the option layer's command, with the --seed that
 * makes the same inputs and the --order_seed that makes the same orders, and each --dist file:PATH as commit_dist() shows
 * it (the file is expected beside the command, as the block names it).
 */
static void commit_command(const struct bench *b, char *buf, size_t size)
{
	unsigned int di;
	size_t at;

	snprintf(buf, size, "%s", b->command);
	for (di = 0; di < b->nr_dists; di++) {
		const char *name = b->dists[di].name, *show = commit_dist(
			&b->dists[di]);
		size_t nl = strlen(name), sl = strlen(show);
		char *p = buf;

		if (!strcmp(name, show))
			continue;
		while ((p = strstr(p, name))) {
			/* a whole list item: after ' ', ',', '\'', '=' */
			bool whole = p > buf && strchr(" ,'=", p[-1]) &&
				     (!p[nl] || strchr(" ,'", p[nl]));

			if (!whole) {
				p++;
				continue;
			}
			memmove(p + sl, p + nl, strlen(p + nl) + 1);
			memcpy(p, show, sl);
			p += sl;
		}
	}
	/* the seed, always: with it the command makes the same inputs */
	if (!strstr(buf, "--seed")) {
		at = strlen(buf);
		snprintf(buf + at, size - at, " --seed %llu",
			 (unsigned long long)b->seed);
	}
	/* and the same orders: --seed S alone gives them S */
	if (!strstr(buf, "--order_seed") && b->order_seed != b->seed) {
		at = strlen(buf);
		snprintf(buf + at, size - at, " --order_seed %llu",
			 (unsigned long long)b->order_seed);
	}
}

/* "name=value " unless the value is the module's default. */
static size_t insmod_param(char *buf, size_t size, size_t at,
			   const char *name, const char *value,
			   const char *dflt)
{
	if (at >= size || (dflt && !strcmp(value, dflt)))
		return at;
	return at + (size_t)snprintf(buf + at, size - at, " %s=%s", name,
				     value);
}

/*
 * An import's reproduce lines: the module loads that measure it again
 * (kmod/params.c's parameters, those at their defaults left out except the
 * seed), then the import.  The module takes one dist a load, so each
 * distribution is a load of its own; the results of identify's timing
 * (the "kernel" row) come from mode=identify, which times the seed's
 * inputs in throughput mode only.
 */
static void commit_insmod(const struct bench *b, FILE *f)
{
	char cmd[1024], list[512], num[32];
	bool identify = false;
	unsigned int di, i;
	size_t at, lat;

	for (i = 0; i < b->nr_variants; i++)
		identify |= !strcmp(b->variants[i]->name, "kernel");
	for (i = 0, lat = 0, list[0] = '\0'; i < b->nr_variants; i++)
		if (strcmp(b->variants[i]->name, "kernel") &&
		    lat < sizeof(list))
			lat += (size_t)snprintf(list + lat, sizeof(list) - lat,
						"%s%s", lat ? "," : "",
						b->variants[i]->name);
	layout_wrap(f, identify || b->nr_dists == 1 ?
		    "To measure again, as root (kmod/hotscore.ko built for the"
		    " kernel):" : "To measure again, as root (kmod/hotscore.ko"
		    " built for the kernel), one load per distribution:",
		    0, 0, COMMIT_WIDTH, BENCH_WRAP);
	for (di = 0; di < (identify ? 1 : b->nr_dists); di++) {
		at = (size_t)snprintf(cmd, sizeof(cmd), "insmod hotscore.ko");
		if (identify)
			at = insmod_param(cmd, sizeof(cmd), at, "mode",
					  "identify", NULL);
		if (*list)
			at = insmod_param(cmd, sizeof(cmd), at, "variants",
					  list, "loop,fls,ilog2");
		if (!identify) {
			char modes[64];
			size_t mat = 0;

			at = insmod_param(cmd, sizeof(cmd), at, "dist",
					  b->dists[di].name, "seed");
			for (i = 0; i < b->nr_modes; i++)
				mat += (size_t)snprintf(modes + mat,
					sizeof(modes) - mat, "%s%s",
					i ? "," : "",
					hs_mode_name(b->modes[i]));
			at = insmod_param(cmd, sizeof(cmd), at, "modes", modes,
					  "throughput,latency");
		}
		snprintf(num, sizeof(num), "%lu", b->iterations);
		at = insmod_param(cmd, sizeof(cmd), at, "iterations", num,
				  "10000000");
		snprintf(num, sizeof(num), "%lu", b->invocations);
		at = insmod_param(cmd, sizeof(cmd), at, "runs", num, "10");
		snprintf(num, sizeof(num), "%llu", (unsigned long long)b->seed);
		insmod_param(cmd, sizeof(cmd), at, "seed", num, NULL);
		wrap_command(f, "$ ", cmd);
		wrap_command(f, "$ ", di ?
			     "cat /sys/kernel/debug/hotscore/results >> r.jsonl" :
			     "cat /sys/kernel/debug/hotscore/results > r.jsonl");
		wrap_command(f, "$ ", "rmmod hotscore");
	}
	wrap_command(f, "$ ", "hotscore bench --import r.jsonl");
}

/* The cells of one result in the commit block. */
struct commit_row {
	const char *name;
	char ns[32], cyc[32], ratio[48];
	const char *unit, *verdict;
};

static void commit_row(struct bench *b, const struct bench_result *r,
		       struct commit_row *c)
{
	char buf[32];

	c->name = r->name;
	c->unit = per_region(r) ? "ns/r" : "ns";
	c->verdict = "";
	snprintf(c->ns, sizeof(c->ns), "%s", r->ns.n ?
		 sig3(buf, sizeof(buf), bench_ns(b, r->ns.median)) : "-");
	snprintf(c->cyc, sizeof(c->cyc), r->ns.n ? "%.1f" : "-",
		 tsc_cycles(r->ns.median));
	if (r->baseline) {
		snprintf(c->ratio, sizeof(c->ratio), "baseline");
	} else if (r->verdict == HS_UNDECIDED) {
		snprintf(c->ratio, sizeof(c->ratio), "%s, too few rounds",
			 r->rounds ? sig3(buf, sizeof(buf), bench_ppm(r->ratio)) :
			 "-");
	} else {
		sig3_range(c->ratio, sizeof(c->ratio), bench_ppm(r->ratio),
			   bench_ppm(r->ci_low), bench_ppm(r->ci_high), ", ");
		c->verdict = r->check == HS_CHECK_OK ? verdict_of(r) :
			     r->check == HS_CHECK_AT_BASELINE ? "at-base" :
			     "DCE?";
	}
}

/*
 * "  NAME  8.00 ns  20.0 cyc  1.652 [1.641, 1.661] faster", the columns as
 * wide as their widest cell.  What would pass 72 columns wraps: a name
 * wider than NAME_MAX above its figures, a verdict below its ratio.
 */
#define COMMIT_NAME_MAX 20

static void commit_rows(struct bench *b, FILE *f, unsigned int di,
			unsigned int mi, const size_t *w)
{
	unsigned int v;

	for (v = 1; v <= b->nr_variants; v++) {
		struct commit_row c;
		char line[256];
		int n, ratio_col;

		commit_row(b, bench_at(b, di, mi, v), &c);
		if (strlen(c.name) > w[0]) {
			fputs("  ", f);
			layout_wrap(f, c.name, 2, 2, COMMIT_WIDTH, BENCH_WRAP);
		}
		n = snprintf(line, sizeof(line), "  %-*s  %*s %-*s", (int)w[0],
			     strlen(c.name) > w[0] ? "" : c.name, (int)w[1],
			     c.ns, (int)w[2], c.unit);
		if (b->host.clock.tsc)
			n += snprintf(line + n, sizeof(line) - (size_t)n,
				      "  %*s cyc", (int)w[3], c.cyc);
		ratio_col = n + 2;
		n += snprintf(line + n, sizeof(line) - (size_t)n, "  %s",
			      c.ratio);
		if (*c.verdict && n + 1 + strlen(c.verdict) <= COMMIT_WIDTH)
			fprintf(f, "%s %s\n", line, c.verdict);
		else if (*c.verdict)
			fprintf(f, "%s\n%*s%s\n", line, ratio_col, "",
				c.verdict);
		else
			fprintf(f, "%s\n", line);
	}
}

/*
 * Below a table: the empty call's cost, which every ratio includes, and
 * each variant's ratio net of it.
 */
static void commit_net(struct bench *b, FILE *f, unsigned int di,
		       unsigned int mi)
{
	const struct bench_result *e = bench_at(b, di, mi, 0);
	const struct bench_result *d = bench_door_at(b, di, mi);
	char text[4096], v[32], w[32], range[96];
	size_t at;
	unsigned int k;

	if (!e->ns.n)
		return;
	if (d && d->ns.n)	/* a candidate's door: its own empty call */
		at = (size_t)snprintf(text, sizeof(text), "  Net of the %s ns"
				      " empty call (%s ns through a candidate's"
				      " door, which costs %s ns):",
				      sig3(v, sizeof(v), bench_ns(b, e->ns.median)),
				      sig3(w, sizeof(w), bench_ns(b, d->ns.median)),
				      sig3(range, sizeof(range),
					   bench_ns(b, d->ns.median) -
					   bench_ns(b, e->ns.median)));
	else
		at = (size_t)snprintf(text, sizeof(text), "  Net of the %s ns"
				      " empty call:", sig3(v, sizeof(v),
				      bench_ns(b, e->ns.median)));
	for (k = 2; k <= b->nr_variants && at < sizeof(text); k++) {
		const struct bench_result *r = bench_at(b, di, mi, k);
		const struct hs_estimate *n = &r->cells.net;

		if (!n->value)
			continue;
		if (n->low || n->high)
			sig3_range(range, sizeof(range), bench_ppm(n->value),
				   bench_ppm(n->low), bench_ppm(n->high), ", ");
		else
			sig3(range, sizeof(range), bench_ppm(n->value));
		at += (size_t)snprintf(text + at, sizeof(text) - at, "%s %s %s",
				       k > 2 ? "," : "", r->name, range);
	}
	if (at < sizeof(text))
		snprintf(text + at, sizeof(text) - at, ".");
	layout_wrap(f, text, 4, 4, COMMIT_WIDTH, BENCH_WRAP);
}

/* The first paragraph: how and where the figures were measured. */
static void commit_intro(const struct bench *b, FILE *f)
{
	const struct hs_host *h = &b->host;
	char text[8192];

	if (b->import)	/* hotscore.ko's samples: no CPU number, no compiler */
		snprintf(text, sizeof(text), "Measured in hotscore.ko on CPU %s,"
			 " Linux %s, preemption and interrupts off per batch:"
			 " %lu calls x %lu %s per variant, timed in N/2N batches"
			 " with the timer cancelled, paired and interleaved; %s;"
			 " built by Kbuild.  Intervals: %s.", h->cpu_model,
			 h->kernel, b->iterations, b->invocations,
			 plural(b->invocations, "run", "runs"), h->clock.tsc ?
			 "cycles are TSC-derived" : h->clock.name,
			 hs_interval_name(b->interval.kind));
	else
		snprintf(text, sizeof(text), "Measured with hotscore bench: %lu"
			 " %s x %lu code %s x %zu paired %s per function, timed"
			 " in N/2N batches with the timer cancelled; %s; CPU %d"
			 " of %s%s, Linux %s, %s.  Intervals: %s.",
			 b->invocations,
			 plural(b->invocations, "invocation", "invocations"),
			 b->placements, plural(b->placements, "placement",
					       "placements"), b->rounds,
			 plural(b->rounds, "round", "rounds"), h->clock.tsc ?
			 "cycles are TSC-derived" : h->clock.name, h->cpu,
			 h->cpu_model, h->hypervisor ? " (VM)" : "", h->kernel,
			 b->compiler, hs_interval_name(b->interval.kind));
	layout_wrap(f, text, 0, 0, COMMIT_WIDTH, BENCH_WRAP);
}

/* @w: the widths of the rows' columns, shared by every table. */
static void commit_widths(struct bench *b, size_t *w)
{
	unsigned int nr = b->nr_dists * b->nr_modes * (b->nr_variants + 1);
	unsigned int i;

	for (i = 0; i < nr; i++) {
		struct commit_row c;
		const struct bench_result *r = &b->results[i];

		if (!r->variant)
			continue;
		commit_row(b, r, &c);
		if (strlen(c.name) > w[0] && strlen(c.name) <= COMMIT_NAME_MAX)
			w[0] = strlen(c.name);
		if (strlen(c.ns) > w[1])
			w[1] = strlen(c.ns);
		if (strlen(c.unit) > w[2])
			w[2] = strlen(c.unit);
		if (strlen(c.cyc) > w[3])
			w[3] = strlen(c.cyc);
	}
}

/* Below the tables: per-region costs, and samples left out as noise. */
static void commit_notes(const struct bench *b, FILE *f)
{
	unsigned int nr = b->nr_dists * b->nr_modes * (b->nr_variants + 1);
	size_t excluded = 0, samples = 0;
	char text[512];
	unsigned int v, i;

	for (i = 0; i < nr; i++) {
		excluded += b->results[i].nonpositive;
		samples += b->results[i].n;
	}
	for (v = 0; v < b->nr_variants; v++)
		if (hs_variant_regions(b->variants[v]) > 1) {
			fprintf(f, "\nns/r: per region of a %u-region batch.\n",
				HS_BATCH_REGIONS);
			break;
		}
	if (excluded) {
		snprintf(text, sizeof(text), "%zu of %zu samples measured 0 (the"
			 " 2N batch took no longer than the N batch: noise) and"
			 " are left out of the figures.", excluded, samples);
		fputc('\n', f);
		layout_wrap(f, text, 0, 0, COMMIT_WIDTH, BENCH_WRAP);
	}
}

/** bench_print_commit() - a block of at most 72 columns for a commit. */
void bench_print_commit(struct bench *b, FILE *f)
{
	size_t w[4] = { 0, 0, 2, 0 };
	char text[8192];
	unsigned int di, mi;

	commit_intro(b, f);
	commit_widths(b, w);
	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++) {
			snprintf(text, sizeof(text), "%s inputs, %s (ratio = %s"
				 " time / variant time):",
				 commit_dist(&b->dists[di]),
				 hs_mode_name(b->modes[mi]),
				 b->variants[0]->name);
			fputc('\n', f);
			layout_wrap(f, text, 0, 0, COMMIT_WIDTH, BENCH_WRAP);
			commit_rows(b, f, di, mi, w);
			commit_net(b, f, di, mi);
		}
	commit_notes(b, f);
	fputc('\n', f);
	if (b->import) {
		commit_insmod(b, f);
		return;
	}
	commit_command(b, text, sizeof(text));
	wrap_command(f, "$ ", text);
}
