// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - damon:damon_aggregated trace text into snapshots, a line at a
 * time, and DAMOS stats from "NAME VALUE" lines.
 *
 * The event is found by its name, not by its column: tracefs prints
 * "comm-pid [cpu] flags ts: damon_aggregated: ...", perf script
 * "comm pid [cpu] ts: damon:damon_aggregated: ...", and a comm may hold
 * spaces.  Everything after the name must be exactly what the kernel's
 * TP_printk() writes; anything else there is an error, for a record built
 * from half-understood lines would mislead every comparison made with it.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotscore/record_trace.h"

#define NS_PER_S	1000000000ULL

static int fail(struct hs_trace_reader *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct hs_trace_reader *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(t->err, sizeof(t->err), "line %lu: ", t->lineno);
	va_start(ap, fmt);
	vsnprintf(t->err + n, sizeof(t->err) - n, fmt, ap);
	va_end(ap);
	return -1;
}

/**
 * hs_trace_init() - an empty reader.
 * @t:		the reader.
 * @first_ns:	the length taken for the first snapshot's aggregation (the
 *		aggregation interval): the trace says when it ended only.
 */
void hs_trace_init(struct hs_trace_reader *t, uint64_t first_ns)
{
	memset(t, 0, sizeof(*t));
	t->first_ns = first_ns;
	t->min_samples = ULONG_MAX;
}

/** hs_trace_free() - the reader's regions, freed. */
void hs_trace_free(struct hs_trace_reader *t)
{
	free(t->r);
	t->r = NULL;
	t->nr = t->cap = 0;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* A cursor over one line, which need not end in a NUL. */
struct cur {
	const char *p, *end;
};

static void skip_space(struct cur *c)
{
	while (c->p < c->end && is_space(*c->p))
		c->p++;
}

/* Decimal digits into *@v, no larger than @max; false if none or more. */
static bool number(struct cur *c, uint64_t max, uint64_t *v)
{
	const char *start = c->p;
	uint64_t n = 0;

	for (; c->p < c->end && *c->p >= '0' && *c->p <= '9'; c->p++) {
		unsigned int d = (unsigned int)(*c->p - '0');

		if (n > (max - d) / 10)
			return false;
		n = n * 10 + d;
	}
	*v = n;
	return c->p > start;
}

static bool literal(struct cur *c, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n))
		return false;
	c->p += n;
	return true;
}

/*
 * Where the event @ev ("damon_aggregated:") ends, after its ':', or NULL if
 * the line is of another event: the name stands alone, after a space, bare
 * or behind its @group ("damon:"), as tracefs and perf script print it.
 * *@name is set to where the name, with its group, starts.
 */
static const char *event(const char *line, size_t len, const char *ev,
			 const char *group, const char **name)
{
	const char *p = line, *end = line + len, *at;
	size_t n = strlen(ev), g = strlen(group);

	while ((at = memmem(p, (size_t)(end - p), ev, n))) {
		const char *start = at;
		const char *after = at + n;

		if ((size_t)(start - line) >= g && !memcmp(start - g, group, g))
			start -= g;
		if (start > line && is_space(start[-1]) &&
		    (after == end || is_space(*after))) {
			*name = start;
			return after;
		}
		p = at + 1;
	}
	return NULL;
}

/*
 * The timestamp before the event's name: "SECONDS.FRACTION:", as the
 * tracefs and perf script print it (6 digits, or 9 with a ns clock).
 */
static int timestamp(struct hs_trace_reader *t, const char *line,
		     const char *name, uint64_t *ns)
{
	const char *end = name, *start;
	uint64_t s, frac;
	struct cur c;
	size_t digits;

	while (end > line && is_space(end[-1]))
		end--;
	for (start = end; start > line && !is_space(start[-1]); start--)
		;
	c = (struct cur){ start, end };
	if (!number(&c, UINT64_MAX / NS_PER_S - 1, &s) || !literal(&c, ".")) {
		c = (struct cur){ start, end };
		if (number(&c, UINT64_MAX, &s) && literal(&c, "."))
			return fail(t, "the timestamp is past 2^64 ns");
		return fail(t, "no timestamp (SECONDS.FRACTION:) before the event");
	}
	start = c.p;
	if (!number(&c, UINT64_MAX, &frac) || !literal(&c, ":") || c.p != end)
		return fail(t, "no timestamp (SECONDS.FRACTION:) before the event");
	digits = (size_t)(c.p - start) - 1;
	if (digits > 9)
		return fail(t, "a timestamp with more than 9 digits after the point");
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = s * NS_PER_S + frac;
	return 0;
}

/**
 * struct line - one damon_aggregated line's fields.
 * @ns:		its timestamp.
 * @target_id:	target_id=.
 * @nr_regions:	nr_regions=.
 * @r:		the region: start, end, nr_accesses, age (0 without).
 * @has_age:	the line gives the age.
 */
struct line {
	uint64_t ns, target_id, nr_regions;
	struct hs_region r;
	bool has_age;
};

/* "target_id=N nr_regions=N START-END: NR [AGE]" */
static int fields(struct hs_trace_reader *t, struct cur *c, struct line *l)
{
	uint64_t start, end, nr, age = 0;

	skip_space(c);
	if (!literal(c, "target_id=") || !number(c, UINT64_MAX, &l->target_id))
		return fail(t, "no target_id=N after damon_aggregated:");
	skip_space(c);
	if (!literal(c, "nr_regions=") || !number(c, UINT32_MAX, &l->nr_regions))
		return fail(t, "no nr_regions=N after target_id");
	skip_space(c);
	if (!number(c, ULONG_MAX, &start) || !literal(c, "-") ||
	    !number(c, ULONG_MAX, &end) || !literal(c, ":"))
		return fail(t, "no START-END: region after nr_regions");
	skip_space(c);
	if (!number(c, UINT32_MAX, &nr))
		return fail(t, "no nr_accesses after the region");
	skip_space(c);
	l->has_age = c->p < c->end;
	if (l->has_age && !number(c, UINT32_MAX, &age))
		return fail(t, "the age after nr_accesses is not a number");
	skip_space(c);
	if (c->p < c->end)
		return fail(t, "more after the age than damon_aggregated prints");
	l->r = (struct hs_region){ .start = start, .end = end,
				   .nr_accesses = (unsigned int)nr,
				   .age = (unsigned int)age };
	return 0;
}

/* Start a snapshot at line @l; the one before is done. */
static int open_snapshot(struct hs_trace_reader *t, const struct line *l)
{
	if (!l->nr_regions)
		return fail(t, "nr_regions=0: a snapshot has a region at least");
	if (l->nr_regions > HS_TRACE_MAX_REGIONS)
		return fail(t, "nr_regions=%llu: more than %lu regions",
			    (unsigned long long)l->nr_regions,
			    HS_TRACE_MAX_REGIONS);
	if ((t->nr_snapshots || t->want) && l->target_id != t->target_id)
		return fail(t, "target_id=%llu, after target_id=%llu: convert takes one target's trace",
			    (unsigned long long)l->target_id,
			    (unsigned long long)t->target_id);
	if (t->nr_snapshots && l->ns < t->end_ns)
		return fail(t, "not time-sorted: %llu ns, after a snapshot at %llu ns",
			    (unsigned long long)l->ns,
			    (unsigned long long)t->end_ns);
	t->snap_samples = t->pending_samples;
	t->pending_samples = 0;
	t->start_ns = t->nr_snapshots ? t->end_ns :
		l->ns > t->first_ns ? l->ns - t->first_ns : 0;
	if (!t->nr_snapshots)
		t->first_end_ns = l->ns;
	t->end_ns = l->ns;
	t->target_id = l->target_id;
	t->want = (size_t)l->nr_regions;
	t->open_line = t->lineno;
	t->nr = 0;
	return 0;
}

/* One more region of the open snapshot: the same target, in order. */
static int add_region(struct hs_trace_reader *t, const struct line *l)
{
	struct hs_region *p;

	if (l->target_id != t->target_id || l->nr_regions != t->want)
		return fail(t, "target_id=%llu nr_regions=%llu, inside the snapshot of line %lu (target_id=%llu nr_regions=%zu, %zu regions read)",
			    (unsigned long long)l->target_id,
			    (unsigned long long)l->nr_regions, t->open_line,
			    (unsigned long long)t->target_id, t->want, t->nr);
	if (l->r.end <= l->r.start)
		return fail(t, "region %lu-%lu: its end is not above its start",
			    l->r.start, l->r.end);
	if (t->nr && l->r.start < t->r[t->nr - 1].end)
		return fail(t, "region %lu-%lu overlaps or precedes the one before, ending at %lu",
			    l->r.start, l->r.end, t->r[t->nr - 1].end);
	if (t->nr == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;

		p = reallocarray(t->r, cap, sizeof(*p));
		if (!p)
			return fail(t, "out of memory for %zu regions", cap);
		t->r = p;
		t->cap = cap;
	}
	t->r[t->nr++] = l->r;
	return 0;
}

/* Every line of a trace has an age, or none has (kernels before 5.16). */
static int age_mode(struct hs_trace_reader *t, const struct line *l)
{
	int mode = l->has_age ? 1 : 2;

	if (t->age_mode && t->age_mode != mode)
		return fail(t, "%s age, where the lines before had %s",
			    l->has_age ? "an" : "no", l->has_age ? "none" : "one");
	t->age_mode = mode;
	return 0;
}

/* The snapshot has all its regions: count it. */
static int complete(struct hs_trace_reader *t)
{
	if (t->snap_samples < t->min_samples)
		t->min_samples = t->snap_samples;
	if (t->snap_samples > t->max_samples)
		t->max_samples = t->snap_samples;
	if (!t->nr_snapshots || t->nr < t->min_nr)
		t->min_nr = t->nr;
	if (t->nr > t->max_nr)
		t->max_nr = t->nr;
	t->nr_snapshots++;
	t->nr_regions += t->nr;
	t->want = 0;
	return 1;
}

/*
 * A kprobe event's time: neither sample nor a sample's start may come
 * before the last sample or the start still open.  @what names the event
 * in the message.
 */
static int kprobe_time(struct hs_trace_reader *t, const char *line,
		       const char *name, const char *what, uint64_t *ns)
{
	uint64_t last = t->prepare_ns > t->last_sample_ns ? t->prepare_ns :
			t->last_sample_ns;

	if (timestamp(t, line, name, ns))
		return -1;
	if (*ns < last)
		return fail(t, "not time-sorted: %s at %llu ns, after a sample's event at %llu ns",
			    what, (unsigned long long)*ns,
			    (unsigned long long)last);
	return 0;
}

/*
 * One hs_sample event: a kprobe on the operations' check_accesses()
 * (vaddr's damon_va_check_accesses()), which kdamond calls once a sampling
 * interval.  Counted, so that the record says how often the kdamond really
 * sampled: an emulated machine's kdamond sleeps late.  With an hs_prepare
 * before it, its window is counted too.
 */
static int sample(struct hs_trace_reader *t, const char *line,
		  const char *name)
{
	uint64_t ns;

	if (kprobe_time(t, line, name, "a sample", &ns))
		return -1;
	if (t->prepare_ns) {
		t->window_ns += ns - t->prepare_ns;
		t->nr_windows++;
		t->prepare_ns = 0;
	}
	if (!t->nr_samples)
		t->first_sample_ns = ns;
	t->last_sample_ns = ns;
	t->nr_samples++;
	t->pending_samples++;
	return 0;
}

/* One hs_prepare event: a sample's window opens. */
static int prepare(struct hs_trace_reader *t, const char *line,
		   const char *name)
{
	uint64_t ns;

	if (kprobe_time(t, line, name, "a sample's start", &ns))
		return -1;
	t->prepare_ns = ns ? ns : 1;	/* 0 is "none open" */
	return 0;
}

/* Lines that are not events: '#' headers, blanks; lost events stop. */
static int other_line(struct hs_trace_reader *t, const char *line, size_t len)
{
	struct cur c = { line, line + len };

	skip_space(&c);
	if (c.p == c.end || *c.p == '#')
		return 0;
	if (memmem(line, len, "[LOST", 5))
		return fail(t, "the trace lost events (its buffer overflowed: a larger buffer_size_kb)");
	t->nr_ignored++;
	return 0;
}

/**
 * hs_trace_line() - read one line of the trace.
 * @t:		the reader.
 * @line:	the line, without its newline; need not end in a NUL.
 * @len:	its length.
 *
 * Lines of the hs_sample event (HS_TRACE_SAMPLE_EVENT) are counted: the
 * samples the kdamond took, each aggregation's in @t->snap_samples; with
 * hs_prepare events (HS_TRACE_PREPARE_EVENT), how long each was open.
 *
 * Return: 1 when the line completes a snapshot (@t->r, @t->nr,
 * @t->start_ns, @t->end_ns, @t->snap_samples hold it until the next call),
 * 0 when it does not, -1 when it is wrong (@t->err says what, with the
 * line number).
 */
int hs_trace_line(struct hs_trace_reader *t, const char *line, size_t len)
{
	const char *name, *after;
	struct line l = { 0 };
	struct cur c;

	t->lineno++;
	if (memchr(line, '\0', len))
		return fail(t, "a NUL byte: not text");
	after = event(line, len, "damon_aggregated:", "damon:", &name);
	if (!after && event(line, len, HS_TRACE_SAMPLE_EVENT ":", "kprobes:",
			    &name))
		return sample(t, line, name) ? -1 : 0;
	if (!after && event(line, len, HS_TRACE_PREPARE_EVENT ":", "kprobes:",
			    &name))
		return prepare(t, line, name) ? -1 : 0;
	if (!after)
		return other_line(t, line, len);
	c = (struct cur){ after, line + len };
	if (timestamp(t, line, name, &l.ns) || fields(t, &c, &l) ||
	    age_mode(t, &l))
		return -1;
	if (!t->want && open_snapshot(t, &l))
		return -1;
	if (add_region(t, &l))
		return -1;
	return t->nr == t->want ? complete(t) : 0;
}

/**
 * hs_trace_end() - the trace has ended: no snapshot may be left open.
 * @t:		the reader.
 *
 * Return: 0, or -1 with @t->err saying which snapshot was cut short.
 */
int hs_trace_end(struct hs_trace_reader *t)
{
	if (!t->want)
		return 0;
	return fail(t, "the trace ends inside the snapshot of line %lu: %zu of its %zu regions",
		    t->open_line, t->nr, t->want);
}

/**
 * hs_trace_intervals() - the intervals the kdamond really kept, from a
 * trace read to its end: the mean time between two samples (hs_sample
 * events) and between two snapshots' ends.
 * @t:		the reader, after hs_trace_end().
 * @sample_us:	set to the sampling interval, in us, rounded; 0 without two
 *		samples.
 * @aggr_us:	set to the aggregation interval; 0 without two snapshots.
 */
void hs_trace_intervals(const struct hs_trace_reader *t,
			unsigned long *sample_us, unsigned long *aggr_us)
{
	*sample_us = 0;
	*aggr_us = 0;
	if (t->nr_samples >= 2)
		*sample_us = (unsigned long)(((t->last_sample_ns -
					       t->first_sample_ns) /
					      (t->nr_samples - 1) + 500) / 1000);
	if (t->nr_snapshots >= 2)
		*aggr_us = (unsigned long)(((t->end_ns - t->first_end_ns) /
					    (t->nr_snapshots - 1) + 500) / 1000);
}

/**
 * hs_trace_window_us() - how long a sample's window was open, on average:
 * from its hs_prepare event to its hs_sample event.
 * @t:		the reader, after hs_trace_end().
 *
 * Return: the mean, in us, rounded; 0 without hs_prepare events.
 */
unsigned long hs_trace_window_us(const struct hs_trace_reader *t)
{
	if (!t->nr_windows)
		return 0;
	return (unsigned long)((t->window_ns / t->nr_windows + 500) / 1000);
}

/* The stats DAMON's sysfs shows that a record carries, by name. */
static const char *const stat_names[] = {
	"nr_tried", "sz_tried", "nr_applied", "sz_applied", "qt_exceeds",
};
#define NR_STATS	(sizeof(stat_names) / sizeof(stat_names[0]))
/* Others of that directory, which a record has no place for. */
static const char *const stat_skipped[] = {
	"sz_ops_filter_passed", "nr_snapshots", "max_nr_snapshots",
};

static unsigned long *stat_field(struct hs_damos_stat *st, size_t i)
{
	unsigned long *const f[NR_STATS] = {
		&st->nr_tried, &st->sz_tried, &st->nr_applied,
		&st->sz_applied, &st->qt_exceeds,
	};

	return f[i];
}

/* One "NAME VALUE" line; -1 with @err set.  @seen: names read so far. */
static int stat_line(struct cur *c, struct hs_damos_stat *st,
		     unsigned int *seen, char *err, size_t errlen)
{
	const char *name = c->p;
	size_t n, i;
	uint64_t v;

	while (c->p < c->end && !is_space(*c->p))
		c->p++;
	n = (size_t)(c->p - name);
	skip_space(c);
	if (!number(c, ULONG_MAX, &v) || (skip_space(c), c->p != c->end)) {
		snprintf(err, errlen, "'%.*s': not NAME VALUE (a whole number)",
			 (int)(n > 40 ? 40 : n), name);
		return -1;
	}
	for (i = 0; i < sizeof(stat_skipped) / sizeof(stat_skipped[0]); i++)
		if (n == strlen(stat_skipped[i]) && !memcmp(name, stat_skipped[i], n))
			return 0;
	for (i = 0; i < NR_STATS; i++)
		if (n == strlen(stat_names[i]) && !memcmp(name, stat_names[i], n))
			break;
	if (i == NR_STATS || (*seen & (1U << i))) {
		snprintf(err, errlen, "'%.*s': %s", (int)(n > 40 ? 40 : n), name,
			 i == NR_STATS ? "not a stat of DAMON's sysfs" : "given twice");
		return -1;
	}
	*seen |= 1U << i;
	*stat_field(st, i) = (unsigned long)v;
	return 0;
}

/**
 * hs_damos_stats_parse() - a scheme's stats as DAMON's sysfs shows them
 * (schemes/N/stats/): "NAME VALUE" lines for nr_tried, sz_tried,
 * nr_applied, sz_applied and qt_exceeds, each once; the directory's other
 * files (sz_ops_filter_passed, nr_snapshots, max_nr_snapshots) are passed
 * over, as are blank lines and '#' comments.
 * @text:	the file's text.
 * @len:	its length.
 * @st:		filled.
 * @err:	why not, "line N: ...", when it returns -1.
 * @errlen:	room in @err.
 *
 * Return: 0, or -1.
 */
int hs_damos_stats_parse(const char *text, size_t len,
			 struct hs_damos_stat *st, char *err, size_t errlen)
{
	const char *p = text, *end = text + len, *nl;
	unsigned int seen = 0;
	unsigned long lineno = 0;
	char why[160];
	size_t i;

	memset(st, 0, sizeof(*st));
	for (; p < end; p = nl + 1) {
		struct cur c;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		c = (struct cur){ p, nl };
		lineno++;
		skip_space(&c);
		if (c.p == c.end || *c.p == '#')
			continue;
		if (memchr(p, '\0', (size_t)(nl - p)) ||
		    stat_line(&c, st, &seen, why, sizeof(why))) {
			snprintf(err, errlen, "line %lu: %s", lineno,
				 memchr(p, '\0', (size_t)(nl - p)) ?
				 "a NUL byte: not text" : why);
			return -1;
		}
	}
	for (i = 0; i < NR_STATS; i++)
		if (!(seen & (1U << i))) {
			snprintf(err, errlen, "no %s (of nr_tried, sz_tried, nr_applied, sz_applied, qt_exceeds)",
				 stat_names[i]);
			return -1;
		}
	return 0;
}
