// SPDX-License-Identifier: GPL-2.0
/*
 * damos_trace.c - a kdamond's DAMOS trace (include/hotscore/record_damos.h),
 * a line at a time: hs_tick and hs_quota kprobe events, damos_before_apply
 * and damon_aggregated.  As in trace.c, an event is found by its name and
 * everything after it must be exactly what the kernel prints; a replay
 * built on a half-understood line would report a miss that is not there,
 * or hide one that is.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotscore/record_damos.h"

#define MAX_SCHEMES	64	/* a scheme_idx past this is not a trace of ours */

static int fail(struct hs_dtrace *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct hs_dtrace *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(t->err, sizeof(t->err), "line %lu: ", t->lineno);
	va_start(ap, fmt);
	vsnprintf(t->err + n, sizeof(t->err) - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/** hs_dtrace_init() - an empty trace. */
void hs_dtrace_init(struct hs_dtrace *t)
{
	memset(t, 0, sizeof(*t));
}

/** hs_dtrace_free() - its arrays, freed. */
void hs_dtrace_free(struct hs_dtrace *t)
{
	free(t->iters);
	free(t->applies);
	free(t->regions);
	hs_dtrace_init(t);
}

/* Room for one more of @size bytes in *@a; false without memory. */
static bool grow(void **a, size_t nr, size_t *cap, size_t size)
{
	void *n;
	size_t c;

	if (nr < *cap)
		return true;
	c = *cap ? *cap * 2 : 256;
	n = realloc(*a, c * size);
	if (!n)
		return false;
	*a = n;
	*cap = c;
	return true;
}

/* A cursor over one line, which need not end in a NUL. */
struct cur {
	const char *p, *end;
};

static bool lit(struct cur *c, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n))
		return false;
	c->p += n;
	return true;
}

/* Decimal digits into *@v, within unsigned long; false if none or more. */
static bool number(struct cur *c, unsigned long *v)
{
	unsigned long n = 0;
	const char *start = c->p;

	while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
		unsigned int d = (unsigned int)(*c->p - '0');

		if (n > (ULONG_MAX - d) / 10)
			return false;
		n = n * 10 + d;
		c->p++;
	}
	*v = n;
	return c->p > start;
}

/* " KEY=N" (no space before the first key when @first). */
static bool field(struct cur *c, const char *key, bool first,
		  unsigned long *v)
{
	return (first || lit(c, " ")) && lit(c, key) && lit(c, "=") &&
		number(c, v);
}

static bool field32(struct cur *c, const char *key, bool first,
		    unsigned int *v)
{
	unsigned long n;

	if (!field(c, key, first, &n) || n > UINT_MAX)
		return false;
	*v = (unsigned int)n;
	return true;
}

/* " START-END: NR AGE" and the line's end (trailing blanks allowed). */
static bool region(struct cur *c, unsigned long *start, unsigned long *end,
		   unsigned int *nr, unsigned int *age)
{
	unsigned long a, b;

	if (!lit(c, " ") || !number(c, start) || !lit(c, "-") ||
	    !number(c, end) || !lit(c, ": ") || !number(c, &a) ||
	    !lit(c, " ") || !number(c, &b) || a > UINT_MAX || b > UINT_MAX)
		return false;
	*nr = (unsigned int)a;
	*age = (unsigned int)b;
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\r'))
		c->p++;
	return c->p == c->end;
}

/* A kprobe event's "(symbol+0x0/0x1a0)" and the space after it. */
static bool probe_site(struct cur *c)
{
	if (!lit(c, "("))
		return false;
	while (c->p < c->end && *c->p != ')' && *c->p != ' ')
		c->p++;
	return lit(c, ")");
}

static bool at_end(struct cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\r'))
		c->p++;
	return c->p == c->end;
}

static struct hs_dtrace_iter *cur_iter(struct hs_dtrace *t)
{
	return t->nr_iters ? &t->iters[t->nr_iters - 1] : NULL;
}

static int tick(struct hs_dtrace *t, struct cur *c)
{
	struct hs_dtrace_iter *it, *last = cur_iter(t);
	unsigned long sis, j;

	if (!probe_site(c) || !field(c, "sis", false, &sis) ||
	    !field(c, "j", false, &j) || !at_end(c))
		return fail(t, "hs_tick: not '(SITE) sis=N j=N'");
	if (t->want)
		return fail(t, "hs_tick inside an aggregation's %zu regions",
			    t->want);
	if (last && sis <= last->sis)
		return fail(t, "hs_tick: sis=%lu after sis=%lu: events lost or reordered",
			    sis, last->sis);
	if (!grow((void **)&t->iters, t->nr_iters, &t->cap_iters,
		  sizeof(*t->iters)))
		return fail(t, "out of memory");
	it = &t->iters[t->nr_iters++];
	memset(it, 0, sizeof(*it));
	it->sis = sis;
	it->jiffies = j;
	it->first_apply = t->nr_applies;
	it->first_region = t->nr_regions;
	it->lineno = t->lineno;
	return 0;
}

static int before_apply(struct hs_dtrace *t, struct cur *c)
{
	struct hs_dtrace_iter *it = cur_iter(t);
	struct hs_dtrace_apply *a;
	unsigned long tidx;
	unsigned int cidx, sidx, nr;

	if (!field32(c, "ctx_idx", true, &cidx) ||
	    !field32(c, "scheme_idx", false, &sidx) ||
	    !field(c, "target_idx", false, &tidx) ||
	    !field32(c, "nr_regions", false, &nr))
		return fail(t, "damos_before_apply: not 'ctx_idx=N scheme_idx=N target_idx=N nr_regions=N A-B: NR AGE'");
	if (!it)
		return fail(t, "damos_before_apply before the first hs_tick");
	if (t->want || it->nr_regions)
		return fail(t, "damos_before_apply after sis=%lu's damon_aggregated: the kernel applies before it shows the regions",
			    it->sis);
	if (cidx || tidx)
		return fail(t, "damos_before_apply: context %u, target %lu: one context of one target only",
			    cidx, tidx);
	if (sidx >= MAX_SCHEMES)
		return fail(t, "damos_before_apply: scheme_idx=%u: at most %d schemes",
			    sidx, MAX_SCHEMES);
	if (!grow((void **)&t->applies, t->nr_applies, &t->cap_applies,
		  sizeof(*t->applies)))
		return fail(t, "out of memory");
	a = &t->applies[t->nr_applies];
	memset(a, 0, sizeof(*a));
	if (!region(c, &a->start, &a->end, &a->nr_accesses, &a->age))
		return fail(t, "damos_before_apply: the region is not 'A-B: NR AGE'");
	if (a->start >= a->end)
		return fail(t, "damos_before_apply: region %lu-%lu is empty",
			    a->start, a->end);
	a->scheme = sidx;
	a->nr_regions = nr;
	a->lineno = t->lineno;
	t->nr_applies++;
	it->nr_apply++;
	return 0;
}

static int quota(struct hs_dtrace *t, struct cur *c)
{
	struct hs_dtrace_iter *it = cur_iter(t);
	struct hs_dtrace_apply *a;
	unsigned long sis, start, min;

	if (!it || !it->nr_apply)
		return fail(t, "hs_quota without its damos_before_apply");
	a = &t->applies[t->nr_applies - 1];
	if (!probe_site(c) || !field(c, "sis", false, &sis) ||
	    !field(c, "start", false, &start) ||
	    !field(c, "esz", false, &a->esz) ||
	    !field(c, "charged", false, &a->charged) ||
	    !field(c, "from", false, &a->from) ||
	    !field(c, "min", false, &min) ||
	    !field(c, "tsz", false, &a->tsz) ||
	    !field(c, "tns", false, &a->tns) || !at_end(c) || min > UINT_MAX)
		return fail(t, "hs_quota: not '(SITE) sis=N start=N esz=N charged=N from=N min=N tsz=N tns=N'");
	if (a->quota || start != a->start || sis != it->sis)
		return fail(t, "hs_quota: sis=%lu start=%lu is not the damos_before_apply before it (sis=%lu start=%lu)",
			    sis, start, it->sis, a->start);
	a->min_score = (unsigned int)min;
	a->quota = true;
	return 0;
}

static int aggregated(struct hs_dtrace *t, struct cur *c)
{
	struct hs_dtrace_iter *it = cur_iter(t);
	struct hs_dtrace_region *r;
	unsigned long target, nr;

	if (!field(c, "target_id", true, &target) ||
	    !field(c, "nr_regions", false, &nr))
		return fail(t, "damon_aggregated: not 'target_id=N nr_regions=N A-B: NR AGE'");
	if (!it)
		return fail(t, "damon_aggregated before the first hs_tick");
	if (target)
		return fail(t, "damon_aggregated: target %lu: one target only",
			    target);
	if (!nr || nr > HS_DTRACE_MAX_REGIONS)
		return fail(t, "damon_aggregated: nr_regions=%lu: 1 to %lu",
			    nr, HS_DTRACE_MAX_REGIONS);
	if (!t->want) {
		if (it->nr_regions)
			return fail(t, "damon_aggregated: a second aggregation at sis=%lu",
				    it->sis);
		t->want = nr;
	} else if (nr != t->want) {
		return fail(t, "damon_aggregated: nr_regions=%lu inside an aggregation of %zu",
			    nr, t->want);
	}
	if (!grow((void **)&t->regions, t->nr_regions, &t->cap_regions,
		  sizeof(*t->regions)))
		return fail(t, "out of memory");
	r = &t->regions[t->nr_regions];
	if (!region(c, &r->start, &r->end, &r->nr_accesses, &r->age))
		return fail(t, "damon_aggregated: the region is not 'A-B: NR AGE'");
	if (r->start >= r->end)
		return fail(t, "damon_aggregated: region %lu-%lu is empty",
			    r->start, r->end);
	if (it->nr_regions && r->start < r[-1].end)
		return fail(t, "damon_aggregated: region %lu-%lu before the end of the last, %lu",
			    r->start, r->end, r[-1].end);
	t->nr_regions++;
	if (++it->nr_regions == t->want)
		t->want = 0;
	return 0;
}

/* tracefs' "CPU:0 [LOST 3 EVENTS]" anywhere in the line. */
static bool lost(const char *line, size_t len)
{
	const char *p = line, *end = line + len;

	while ((p = memchr(p, '[', (size_t)(end - p)))) {
		if ((size_t)(end - p) >= 6 && !memcmp(p, "[LOST ", 6))
			return true;
		p++;
	}
	return false;
}

/* Where event @name starts its payload: after " NAME: " or ":NAME: ". */
static const char *payload(const char *line, size_t len, const char *name)
{
	size_t n = strlen(name), i;

	for (i = 1; i + n + 2 <= len; i++)
		if ((line[i - 1] == ' ' || line[i - 1] == ':') &&
		    !memcmp(line + i, name, n) && line[i + n] == ':' &&
		    line[i + n + 1] == ' ')
			return line + i + n + 2;
	return NULL;
}

/**
 * hs_dtrace_line() - one line of the trace.
 * @t:		the trace.
 * @line:	the line, without its newline; need not end in a NUL.
 * @len:	its length.
 *
 * Return: 0, or -1 with @t->err set.
 */
int hs_dtrace_line(struct hs_dtrace *t, const char *line, size_t len)
{
	static const struct {
		const char *name;
		int (*fn)(struct hs_dtrace *t, struct cur *c);
	} events[] = {
		{ HS_DTRACE_TICK, tick }, { HS_DTRACE_QUOTA, quota },
		{ "damos_before_apply", before_apply },
		{ "damon_aggregated", aggregated },
	};
	struct cur c;
	size_t i;

	t->lineno++;
	if (memchr(line, '\0', len))
		return fail(t, "a NUL byte: not a text trace");
	while (len && (*line == ' ' || *line == '\t'))
		line++, len--;
	if (!len || *line == '#' || (len == 1 && *line == '\r'))
		return 0;
	if (lost(line, len))
		return fail(t, "the trace lost events: a replay needs all of them (a larger buffer_size_kb)");
	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		c.p = payload(line, len, events[i].name);
		if (!c.p)
			continue;
		c.end = line + len;
		return events[i].fn(t, &c);
	}
	t->nr_ignored++;
	return 0;
}

/**
 * hs_dtrace_end() - the end of the trace: no aggregation left open.
 * @t:		the trace.
 *
 * Return: 0, or -1 with @t->err set.
 */
int hs_dtrace_end(struct hs_dtrace *t)
{
	if (t->want)
		return fail(t, "the trace ends inside an aggregation (%zu of %zu regions)",
			    t->nr_iters ? t->iters[t->nr_iters - 1].nr_regions : 0,
			    t->want);
	if (!t->nr_iters)
		return fail(t, "no hs_tick event: was hotscore.ko's damos_kprobes set up?");
	return 0;
}
