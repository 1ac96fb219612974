// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_convert.c - hotscore convert TRACE --record FILE: the text of a real
 * kdamond's damon:damon_aggregated tracepoint (src/record/trace.c) into a
 * damo record, through the writer `sim --record` uses
 * (src/record/write.c), so that damo, rank and compare-records read it as
 * they read a simulated one.
 *
 * The record is written as the trace is read, a snapshot behind: the
 * last snapshot is known to be the last only at the end of the trace, and
 * it alone carries --damos_stats (the kernel's counters at the end of the
 * run; earlier snapshots carry no damos_stats at all).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <hotscore/record_write.h>
#include <hotscore/record_trace.h>

#include "cli.h"
#include "damos_opt.h"
#include "opt.h"
#include "outfile.h"

enum { O_INPUT, O_RECORD, O_RECORD_FORMAT, O_SAMPLE, O_AGGR, O_UPDR,
       O_STATS };

static const struct opt convert_opts[] = {
	{ .id = O_INPUT, .name = "input", .type = OPT_STR, .arg = "TRACE",
	  .flags = OPT_INPUT | OPT_STDIN, .words = "@file",
	  .help = "the damon_aggregated trace text (tracefs' trace file, or"
		  " perf script's); - is stdin; also the bare argument",
	  .example = "tests/data/records/trace-6.1.txt" },
	{ .id = O_RECORD, .name = "record", .type = OPT_STR, .arg = "FILE",
	  .flags = OPT_OUTPUT | OPT_WRITE, .words = "@file",
	  .help = "the damo record to write", .example = "damon.data" },
	{ .id = O_RECORD_FORMAT, .name = "record_format", .type = OPT_STR,
	  .arg = "FORMAT", .dflt = "json_compressed", .flags = OPT_OUTPUT,
	  .words = "json json_compressed",
	  .help = "--record's format, as damo names it",
	  .example = "json", .with = "--record damon.data" },
	{ .id = O_SAMPLE, .name = "sample", .type = OPT_TIME, .arg = "T",
	  .dflt = "5ms", .min = 1, .max = CLI_DAMOS_MAX_US,
	  .help = "the kdamond's sampling interval, for the record (a trace"
		  " with hs_sample events: measured)",
	  .example = "4ms" },
	{ .id = O_AGGR, .name = "aggr", .type = OPT_TIME, .arg = "T",
	  .dflt = "100ms", .min = 1, .max = CLI_DAMOS_MAX_US,
	  .help = "its aggregation interval, for the record and the first"
		  " snapshot's start (measured, as --sample)",
	  .example = "40ms" },
	{ .id = O_UPDR, .name = "updr", .type = OPT_TIME, .arg = "T",
	  .dflt = "60s", .min = 1, .max = CLI_DAMOS_MAX_US,
	  .help = "its operations update interval, for the record",
	  .example = "1s" },
	{ .id = O_STATS, .name = "damos_stats", .type = OPT_STR, .arg = "FILE",
	  .flags = OPT_INPUT, .words = "@file",
	  .help = "the scheme's stats at the run's end, NAME VALUE lines as"
		  " DAMON's sysfs shows them; into the last snapshot",
	  .example = "tests/data/records/stats.txt" },
};

struct convert_cmd {
	const char *input, *record, *stats_path;
	enum hs_damo_format format;
	struct hs_damo_intervals iv;
	struct hs_damos_stat stats;
	FILE *in, *out;
	struct hs_damo_writer w;
	struct hs_region *held;		/* the snapshot not yet written */
	size_t nr_held, cap_held;
	uint64_t held_start, held_end;
	uint64_t first_ns;		/* the first snapshot's start */
	bool read_twice;		/* measure() ran */
	bool measured;			/* and the record has its intervals */
};

static void set(void *ctx, const struct opt *o, const struct opt_val *v,
		unsigned int nr)
{
	struct convert_cmd *c = ctx;
	int fmt;

	(void)nr;
	switch (o->id) {
	case O_INPUT:
		if (c->input)
			cli_usage_die("one trace at a time ('%s' and '%s')",
				      c->input, v->s);
		c->input = v->s;
		break;
	case O_RECORD: c->record = v->s; break;
	case O_RECORD_FORMAT:
		fmt = hs_damo_format_parse(v->s);
		if (fmt < 0)
			cli_usage_die("--record_format: '%s' is not json or json_compressed",
				      v->s);
		c->format = (enum hs_damo_format)fmt;
		break;
	case O_SAMPLE: c->iv.sample_us = (unsigned long)v->u; break;
	case O_AGGR: c->iv.aggr_us = (unsigned long)v->u; break;
	case O_UPDR: c->iv.ops_update_us = (unsigned long)v->u; break;
	case O_STATS: c->stats_path = v->s; break;
	}
}

/* --damos_stats FILE, read whole (a few lines). */
static void read_stats(struct convert_cmd *c)
{
	FILE *f = fopen(c->stats_path, "rb");
	char err[256];
	size_t len;
	char *text;

	if (!f)
		cli_die("--damos_stats: %s: %s", c->stats_path, strerror(errno));
	text = cli_read_stream(f, 1 << 20, &len);
	fclose(f);
	if (!text)
		cli_die("--damos_stats: %s: %s", c->stats_path,
			errno == EFBIG ? "larger than 1 MiB" : strerror(errno));
	if (hs_damos_stats_parse(text, len, &c->stats, err, sizeof(err))) {
		free(text);
		cli_die("--damos_stats: %s: %s", c->stats_path, err);
	}
	free(text);
}

static void parse_args(struct convert_cmd *c, int argc, char **argv)
{
	c->format = HS_DAMO_JSON_COMPRESSED;
	c->iv = (struct hs_damo_intervals){ 5000, 100000, 60000000 };
	opt_parse(&cmd_convert, argc, argv, set, c);
	if (c->iv.sample_us > c->iv.aggr_us)
		cli_usage_die("--sample %luus is longer than --aggr %luus",
			      c->iv.sample_us, c->iv.aggr_us);
	if (opt_given(O_RECORD_FORMAT) && !c->record)
		cli_usage_die("--record_format: there is no --record to write");
	opt_parsed(&cmd_convert);
	if (!c->input)
		cli_usage_die("which trace? (hotscore convert TRACE --record FILE)");
	if (!c->record)
		cli_usage_die("where to? (--record FILE)");
	if (c->stats_path)
		read_stats(c);
}

/* Write the held snapshot; @last carries the stats. */
static void write_held(struct convert_cmd *c, bool last)
{
	struct hs_damo_snapshot s = {
		.start_ns = c->held_start, .end_ns = c->held_end,
		.regions = c->held, .nr = c->nr_held,
		.stat = last && c->stats_path ? &c->stats : NULL,
	};

	if (hs_damo_snapshot(&c->w, &s))
		cli_die("--record: %s: write error: %s", c->record,
			strerror(errno));
}

/* A snapshot is complete: write the one before, hold this one. */
static void take(struct convert_cmd *c, struct hs_trace_reader *t)
{
	struct hs_region *r = c->held;
	size_t cap = c->cap_held;

	if (t->nr_snapshots > 1)
		write_held(c, false);
	else
		c->first_ns = t->start_ns;
	/* swap the buffers: the reader reuses the old one */
	c->held = t->r;
	c->cap_held = t->cap;
	c->nr_held = t->nr;
	c->held_start = t->start_ns;
	c->held_end = t->end_ns;
	t->r = r;
	t->cap = cap;
	t->nr = 0;
}

static void die_trace(const struct convert_cmd *c, struct hs_trace_reader *t)
{
	char err[sizeof(t->err)];

	snprintf(err, sizeof(err), "%s", t->err);
	hs_trace_free(t);
	cli_die("%s: %s", c->input, err);
}

/* Every line through the reader; each snapshot to the record if @write. */
static void read_trace(struct convert_cmd *c, struct hs_trace_reader *t,
		       bool write)
{
	size_t cap = 0;
	char *line = NULL;
	ssize_t n;
	int ret;

	while ((n = getline(&line, &cap, c->in)) > 0) {
		if (line[n - 1] == '\n')
			n--;
		ret = hs_trace_line(t, line, (size_t)n);
		if (ret < 0) {
			free(line);
			die_trace(c, t);
		}
		if (ret > 0 && write)
			take(c, t);
	}
	free(line);
	if (ferror(c->in))
		cli_die("%s: read error: %s", c->input, strerror(errno));
	if (hs_trace_end(t))
		die_trace(c, t);
	if (!t->nr_snapshots)
		cli_die("%s: no damon_aggregated event in %lu line%s (%lu of other events)",
			c->input, t->lineno, cli_s(t->lineno), t->nr_ignored);
}

/*
 * A trace in a file with hs_sample events is read twice: first for the
 * intervals the kdamond really kept, which go into the record unless
 * --sample or --aggr says otherwise, for the record's header comes first.
 */
static void measure(struct convert_cmd *c)
{
	struct hs_trace_reader t;
	unsigned long sample_us, aggr_us;

	hs_trace_init(&t, (uint64_t)c->iv.aggr_us * 1000);
	read_trace(c, &t, false);
	hs_trace_intervals(&t, &sample_us, &aggr_us);
	hs_trace_free(&t);
	if (fseek(c->in, 0, SEEK_SET))
		cli_die("%s: %s", c->input, strerror(errno));
	c->read_twice = true;
	/* what --sample and --aggr would accept, or the record keeps theirs */
	if (!sample_us || !aggr_us || sample_us > aggr_us ||
	    aggr_us > CLI_DAMOS_MAX_US || opt_given(O_SAMPLE) ||
	    opt_given(O_AGGR))
		return;
	c->iv.sample_us = sample_us;
	c->iv.aggr_us = aggr_us;
	c->measured = true;
}

/* The samples' line of the summary, when the trace has them. */
static void summary_samples(FILE *f, const struct convert_cmd *c,
			    const struct hs_trace_reader *t)
{
	unsigned long sample_us, aggr_us;

	if (!t->nr_samples)
		return;
	hs_trace_intervals(t, &sample_us, &aggr_us);
	fprintf(f, "  %lu %s events, %lu..%lu an aggregation; measured: sample %lu us, aggr %lu us (%s)\n",
		t->nr_samples, HS_TRACE_SAMPLE_EVENT, t->min_samples,
		t->max_samples, sample_us, aggr_us,
		c->measured ? "in the record" :
		!c->read_twice ? "not in the record: a stream is read once" :
		opt_given(O_SAMPLE) || opt_given(O_AGGR) ?
		"not in the record: --sample or --aggr given" :
		"not in the record: too few samples, or intervals out of range");
	if (t->nr_windows && sample_us)
		fprintf(f, "  %lu %s events: a sample's window was open %lu us on average, %.1f %% of its interval\n",
			t->nr_windows, HS_TRACE_PREPARE_EVENT,
			hs_trace_window_us(t),
			100.0 * (double)hs_trace_window_us(t) / (double)sample_us);
}

/* What was converted: on stdout, or stderr when the record goes there. */
static void summary(const struct convert_cmd *c,
		    const struct hs_trace_reader *t)
{
	FILE *f = strcmp(c->record, "-") ? stdout : stderr;

	fprintf(f, "hotscore convert: %lu snapshot%s of target_id %llu, %zu..%zu regions, trace clock %.3f..%.3f s\n",
		t->nr_snapshots, cli_s(t->nr_snapshots),
		(unsigned long long)t->target_id, t->min_nr, t->max_nr,
		c->first_ns * 1e-9, c->held_end * 1e-9);
	fprintf(f, "  %lu line%s of other events ignored; damos_stats: %s\n",
		t->nr_ignored, cli_s(t->nr_ignored),
		c->stats_path ? "in the last snapshot" : "none");
	summary_samples(f, c, t);
	if (t->age_mode == 2)
		fprintf(f, "  the trace has no ages (a kernel before 5.16): written as age 0\n");
}

static int convert_run(int argc, char **argv)
{
	struct convert_cmd *c = cli_xcalloc(1, sizeof(*c));
	struct hs_trace_reader t;
	struct stat st;

	parse_args(c, argc, argv);
	c->in = strcmp(c->input, "-") ? fopen(c->input, "r") : stdin;
	if (!c->in)
		cli_die("%s: %s", c->input, strerror(errno));
	/* a file that can be read twice: not tracefs' trace_pipe (size 0) */
	if (c->in != stdin && !fstat(fileno(c->in), &st) &&
	    S_ISREG(st.st_mode) && st.st_size > 0)
		measure(c);
	c->out = cli_out_open("--record", c->record);
	if (hs_damo_begin(&c->w, c->out, c->format, &c->iv, -1))
		cli_die("--record: %s: %s", c->record, strerror(errno));
	hs_trace_init(&t, (uint64_t)c->iv.aggr_us * 1000);
	read_trace(c, &t, true);
	write_held(c, true);
	if (hs_damo_end(&c->w))
		cli_die("--record: %s: write error: %s", c->record,
			strerror(errno));
	cli_out_done(c->out);
	cli_out_commit();
	summary(c, &t);
	if (c->in != stdin)
		fclose(c->in);
	hs_trace_free(&t);
	free(c->held);
	free(c);
	return 0;
}

const struct cli_cmd cmd_convert = {
	.name = "convert",
	.summary = "a real kdamond's damon_aggregated trace into a damo record",
	.usage = "hotscore convert TRACE --record FILE [--record_format F]"
		 " [--damos_stats FILE] ...",
	.about = "Read the text of the damon:damon_aggregated tracepoint (cat"
		 " /sys/kernel/tracing/trace,\nor perf script), group its lines"
		 " into snapshots as damo does (nr_regions\nconsecutive lines of"
		 " one target; a snapshot ends at its first line's timestamp),"
		 "\nand write them as the damo record that sim's --record"
		 " writes.",
	.notes = "The trace gives no scheme stats: --damos_stats go into"
		 " its last snapshot only.  With\nhs_sample events (a kprobe"
		 " on damon_va_check_accesses()) in a TRACE file, the\n"
		 "intervals the kdamond really kept go into the record;"
		 " otherwise --sample, --aggr\n(and always --updr).  Lines of"
		 " other events are ignored and counted; a malformed\nline, a"
		 " region out of order, a second target, lost events or a"
		 " snapshot cut short\nis an error (docs/sim.md).",
	.opts = convert_opts,
	.nr_opts = sizeof(convert_opts) / sizeof(convert_opts[0]),
	.operand = "input",
	.run = convert_run,
};
