// SPDX-License-Identifier: GPL-2.0
/*
 * rank_run.c - hotscore rank's work: the record's contexts, their
 * snapshots read in step across targets, each ranked under every profile
 * and scheme, and the text, CSV and JSON reports.
 *
 * A context's quota spans all of its targets (damos_adjust_quota() walks
 * damon_for_each_target()), so the records of one kdamond, context and
 * scheme are ranked together, snapshot i with snapshot i; each is read by
 * its own reader, so memory stays one snapshot per target, and readers
 * are reused from record to record, so the file is read about once.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <hotscore/cand.h>
#include <hotscore/record_write.h>
#include <hotscore/sim_damos.h>
#include <hotscore/json_out.h>
#include <hotscore/record.h>

#include "cli.h"
#include "cmd_rank.h"
#include "report/layout.h"

#define DAMO_SAMPLE_US	5000	/* damo's default intervals */
#define DAMO_AGGR_US	100000

/* What a record lacked, and what rank assumed instead: counted. */
enum assumption { A_INTERVALS, A_BOUNDARY, A_NO_AGE, A_NO_NR, A_PERCENT,
		  A_USEC, A_SAMPLE_FIELD, A_FIRST_WINDOW, NR_ASSUMPTIONS };

static const char *const assumption_text[NR_ASSUMPTIONS] = {
	[A_INTERVALS] = "no intervals in the record: damo's defaults, sample 5 ms, aggregation 100 ms",
	[A_BOUNDARY] = "scored at the aggregation's end (passed_sample_intervals = next_aggregation_sis), where mm-new's moving sum is nr_accesses",
	[A_NO_AGE] = "regions without an age: age 0",
	[A_NO_NR] = "regions without nr_accesses: 0 accesses",
	[A_PERCENT] = "regions with nr_accesses in percent only: samples = percent * aggr / sample / 100, as damo converts",
	[A_USEC] = "regions with age in usec only: aggregation intervals = usec / aggr, as damo converts",
	[A_SAMPLE_FIELD] = "snapshots whose sample_interval_us differs from the record's intervals: the intervals used (damo 3.3 rewrites that field in ns)",
	[A_FIRST_WINDOW] = "the time quota's first charge window: the kernel's initial throughput, PAGE_SIZE * 1024 bytes per ms",
};

/* Where a region of run->r came from. */
struct origin {
	size_t record;		/* of the file */
	unsigned int target;	/* of the context, from 0 */
};

/**
 * struct pick - one profile and one scheme on one snapshot: what
 * hs_damos_walk() found, and what score_of() counted.
 * @score:	per region, -1 where not eligible or trapped.
 * @picked:	per region, bytes the walk acts on.
 * @esz:	the quota's effective size in bytes, or 0 without a quota.
 * @min_score:	the score a region needs to be acted on under the quota,
 *		or 0.
 * @nr_eligible: regions the scheme's access pattern admits.
 * @nr_picked:	regions the walk acts on.
 * @sz_eligible: bytes of the eligible regions.
 * @sz_picked:	bytes the walk acts on.
 * @nr_traps:	eligible regions whose score trapped.
 * @nr_out:	eligible regions scored outside 0..HS_DAMOS_MAX_SCORE,
 *		clamped.
 */
struct pick {
	int *score;
	unsigned long *picked;
	unsigned long esz;
	unsigned int min_score;
	size_t nr_eligible, nr_picked;
	unsigned long sz_eligible, sz_picked;
	size_t nr_traps, nr_out;
};

struct group {
	size_t *records;	/* indexes into the file's records */
	size_t nr;
	struct hs_rec_reader **rd;
	bool *done;
};

struct run {
	struct rank_cmd *c;
	const struct hs_rec_info *infos;
	size_t nr_infos;
	unsigned long sample_us, aggr_us;
	struct hs_scheme schemes[HS_MAX_SCHEMES];
	struct hs_damos_region *r;	/* the snapshot's, as the walk reads */
	struct origin *from;		/* each one's record and target */
	size_t nr, cap;
	struct pick picks[RANK_MAX_PROFILES * HS_MAX_SCHEMES];
	unsigned int nr_picks;
	size_t assumed[NR_ASSUMPTIONS];
	FILE *txt;		/* the summary: stdout, or stderr when a file is */
	struct hs_rec_reader **pool;	/* readers between groups */
	size_t nr_pool;
	size_t nr_ranked;
	size_t nr_bad;		/* snapshots where a score trapped or left 0..99 */
	struct hs_json_stream js;	/* --json, a snapshot at a time */
};

static void fmt_bytes(char *buf, size_t size, uint64_t v)
{
	if (v >= 1ULL << 30)
		snprintf(buf, size, "%.1f GiB", (double)v / (1ULL << 30));
	else if (v >= 1ULL << 20)
		snprintf(buf, size, "%.1f MiB", (double)v / (1ULL << 20));
	else if (v >= 1ULL << 10)
		snprintf(buf, size, "%.1f KiB", (double)v / (1ULL << 10));
	else
		snprintf(buf, size, "%" PRIu64 " B", v);
}

static const struct hs_spec *pick_prof(const struct run *run, unsigned int k)
{
	return &run->c->prof[k / run->c->nr_schemes];
}

static unsigned int pick_scheme(const struct run *run, unsigned int k)
{
	return k % run->c->nr_schemes;
}

/*
 * A candidate's call that ran past --call_limit: the ranking stops, since
 * each further hang would cost the limit again; exit 1 with the command
 * that shows it.
 */
static void stop_at_hang(const struct run *run, const struct hs_spec *p,
			 const struct hs_input *in)
{
	const struct hs_spec *base = &run->c->base_spec;
	char args[512], profile[416];

	cli_score_args(in, args, sizeof(args));
	cli_spec_profiles(p, base->name, base, profile, sizeof(profile));
	fflush(stdout);
	fprintf(stderr, "hotscore rank: profile %s: damon_hot_score() did not return (hang: a call ran past --call_limit %s); stopped.  Reproduce: hotscore score %s%s%s%s\n",
		p->name, cli_call_limit_text(), profile, *args ? " " : "", args,
		cli_call_limit_arg());
	exit(CLI_EXIT_FINDING);
}

/* What score_of() scores for: one pick on one snapshot. */
struct scoring {
	struct run *run;
	struct pick *pk;
	const struct hs_spec *p;
	const struct hs_scheme *s;
	uint64_t sis;
};

/*
 * The score an action takes: 0..99, or -1 where the function traps.
 * hs_damos_walk()'s score callback; @ctx is a struct scoring.
 */
static int score_of(void *ctx, const struct hs_damos_region *r)
{
	const struct scoring *sc = ctx;
	struct run *run = sc->run;
	struct pick *pk = sc->pk;
	const struct hs_spec *p = sc->p;
	const struct hs_scheme *s = sc->s;
	enum hs_score_kind kind = hs_score_kind(run->c->ops, s->action);
	struct hs_input in = {
		.sample_us = run->sample_us, .aggr_us = run->aggr_us,
		.passed_sis = (unsigned long)sc->sis,
		.next_aggr_sis = (unsigned long)sc->sis,
		.nr_accesses = r->nr_accesses,
		.last_nr_accesses = r->nr_accesses, .age = r->age,
		.weight_nr_accesses = s->quota.weight_nr,
		.weight_age = s->quota.weight_age,
	};
	struct hs_spec_result res;
	int score;

	if (kind == HS_SCORE_MAX)
		return HS_DAMOS_MAX_SCORE;
	res = hs_spec_score(p, &in);
	if (res.trap == HS_CAND_HANG)
		stop_at_hang(run, p, &in);
	if (res.undef) {
		pk->nr_traps++;
		return -1;
	}
	score = kind == HS_SCORE_HOT ? res.hot : res.cold;
	if (score < 0 || score > HS_DAMOS_MAX_SCORE) {
		/* the kernel would index past its histogram */
		pk->nr_out++;
		score = score < 0 ? 0 : HS_DAMOS_MAX_SCORE;
	}
	return score;
}

/*
 * One profile and scheme on the snapshot: hs_damos_walk() scores the
 * eligible regions through score_of(), which counts the traps and the
 * scores out of range.
 */
static void rank_one(struct run *run, struct pick *pk, const struct hs_spec *p,
		     const struct hs_scheme *s, uint64_t sis)
{
	struct scoring sc = { .run = run, .pk = pk, .p = p, .s = s,
			      .sis = sis };
	struct hs_damos_walk w = { .score = pk->score, .charged = pk->picked };

	pk->nr_traps = pk->nr_out = 0;
	hs_damos_walk(run->r, run->nr, s, score_of, &sc, &w);
	pk->esz = w.esz;
	pk->min_score = w.min_score;
	pk->nr_eligible = w.nr_eligible;
	pk->sz_eligible = w.sz_eligible;
	pk->nr_picked = w.nr_charged;
	pk->sz_picked = w.sz_charged;
}

static void reserve(struct run *run, size_t n)
{
	unsigned int k;
	size_t cap = run->cap ? run->cap : 1024;
	void *p;

	if (n <= run->cap)
		return;
	while (cap < n)
		cap *= 2;
	p = realloc(run->r, cap * sizeof(*run->r));
	if (!p)
		cli_die("out of memory for %zu regions", n);
	run->r = p;
	p = realloc(run->from, cap * sizeof(*run->from));
	if (!p)
		cli_die("out of memory for %zu regions", n);
	run->from = p;
	for (k = 0; k < run->nr_picks; k++) {
		struct pick *pk = &run->picks[k];

		pk->score = realloc(pk->score, cap * sizeof(*pk->score));
		pk->picked = realloc(pk->picked, cap * sizeof(*pk->picked));
		if (!pk->score || !pk->picked)
			cli_die("out of memory for %zu regions", n);
	}
	run->cap = cap;
}

/* damo's DamonNrAccesses.add_unset_unit(): int(percent * max / 100). */
static unsigned int samples_of(const struct run *run,
			       const struct hs_rec_snapshot *s, size_t i)
{
	double v = s->r[i].percent * ((double)run->aggr_us / run->sample_us) /
		100;

	if (!(v < 4294967296.0))
		cli_die("%s: record %zu, snapshot %zu: region %zu: \"percent\" %g is over 2^32 samples",
			run->c->input, s->record, s->index, i, s->r[i].percent);
	return (unsigned int)v;
}

/* damo's DamonAge.add_unset_unit(): int(usec / aggr). */
static unsigned int aggrs_of(const struct run *run,
			     const struct hs_rec_snapshot *s, size_t i)
{
	uint64_t v = s->r[i].age_us / run->aggr_us;

	if (v > UINT32_MAX)
		cli_die("%s: record %zu, snapshot %zu: region %zu: \"usec\" is over 2^32 aggregations",
			run->c->input, s->record, s->index, i);
	return (unsigned int)v;
}

/*
 * A target's snapshot joins the context's regions, its fields converted
 * with the intervals rank uses; what it lacked counts.  Its targets are
 * numbered from @target on.  Return: how many targets it held.
 */
static unsigned int add_target(struct run *run, const struct hs_rec_snapshot *s,
			       unsigned int target)
{
	size_t i;

	reserve(run, run->nr + s->nr);
	if (s->has_sample_us && s->sample_us != run->sample_us)
		run->assumed[A_SAMPLE_FIELD]++;
	for (i = 0; i < s->nr; i++) {
		const struct hs_rec_region *q = &s->r[i];
		struct hs_damos_region *r = &run->r[run->nr];
		struct origin *o = &run->from[run->nr++];

		r->start = q->start;
		r->end = q->end;
		o->record = s->record;
		o->target = target + q->target;
		r->nr_accesses = q->has_samples ? q->nr_accesses :
			q->has_percent ? samples_of(run, s, i) : 0;
		r->age = q->has_aggrs ? q->age :
			q->has_usec ? aggrs_of(run, s, i) : 0;
		run->assumed[A_NO_NR] += !q->has_samples && !q->has_percent;
		run->assumed[A_NO_AGE] += !q->has_aggrs && !q->has_usec;
		run->assumed[A_PERCENT] += !q->has_samples && q->has_percent;
		run->assumed[A_USEC] += !q->has_aggrs && q->has_usec;
	}
	return s->nr_targets;
}

static void die_record(const struct run *run, const char *what)
{
	cli_die("%s: %s", run->c->input, what);
}

/*
 * A reader for record @k: one left where an earlier group's record ended,
 * at or before @k (the nearest), or a new one.  Records in between are
 * passed by brackets: the file is read about once however many there are.
 */
static struct hs_rec_reader *reader_for(struct run *run, size_t k)
{
	struct hs_rec_reader *rd;
	size_t i, best = SIZE_MAX;
	char err[320];

	for (i = 0; i < run->nr_pool; i++)
		if (hs_rec_record(run->pool[i]) <= k &&
		    (best == SIZE_MAX || hs_rec_record(run->pool[i]) >
		     hs_rec_record(run->pool[best])))
			best = i;
	if (best != SIZE_MAX) {
		rd = run->pool[best];
		run->pool[best] = run->pool[--run->nr_pool];
	} else if (hs_rec_open(run->c->input, &rd, err, sizeof(err)) < 0) {
		die_record(run, err);
	}
	hs_rec_range(rd, k, k);
	return rd;
}

/* A group's readers, each at the start of its record. */
static void group_open(struct run *run, struct group *g)
{
	size_t j;

	g->rd = calloc(g->nr, sizeof(*g->rd));
	g->done = calloc(g->nr, sizeof(*g->done));
	if (!g->rd || !g->done)
		cli_die("out of memory");
	for (j = 0; j < g->nr; j++)
		g->rd[j] = reader_for(run, g->records[j]);
}

/* The readers go back to the pool, each where its record ended. */
static void group_close(struct run *run, struct group *g)
{
	struct hs_rec_reader **p;
	size_t j;

	p = realloc(run->pool, (run->nr_pool + g->nr) * sizeof(*p));
	if (!p)
		cli_die("out of memory");
	run->pool = p;
	for (j = 0; j < g->nr; j++)
		run->pool[run->nr_pool++] = g->rd[j];
	free(g->rd);
	free(g->done);
	free(g->records);
}

/*
 * The next snapshot of every target of @g, joined into run->r; *@first
 * gets the first target's snapshot times.  Return: false when all ended.
 */
static bool group_next(struct run *run, struct group *g,
		       struct hs_rec_snapshot *first)
{
	struct hs_rec_snapshot s;
	unsigned int targets = 0;
	bool any = false;
	size_t j;
	int ret;

	run->nr = 0;
	for (j = 0; j < g->nr; j++) {
		if (g->done[j])
			continue;
		ret = hs_rec_next(g->rd[j], &s);	/* its record only */
		if (ret < 0)
			die_record(run, hs_rec_error(g->rd[j]));
		if (!ret) {
			g->done[j] = true;
			continue;
		}
		if (!any) {
			*first = s;
			first->r = NULL;
		}
		any = true;
		targets += add_target(run, &s, targets);
		hs_rec_snapshot_free(&s);
	}
	return any;
}

/* The group's intervals: its first record that has them. */
static void group_intervals(struct run *run, const struct group *g)
{
	size_t j;

	for (j = 0; j < g->nr; j++) {
		const struct hs_rec_info *in = &run->infos[g->records[j]];

		if (in->has_intervals && in->sample_us && in->aggr_us) {
			run->sample_us = in->sample_us;
			run->aggr_us = in->aggr_us;
			return;
		}
	}
	run->sample_us = DAMO_SAMPLE_US;
	run->aggr_us = DAMO_AGGR_US;
	run->assumed[A_INTERVALS]++;
}

static void group_schemes(struct run *run)
{
	unsigned int k;

	for (k = 0; k < run->c->nr_schemes; k++) {
		cli_damos_scheme(&run->c->specs[k], run->sample_us,
				 run->aggr_us, &run->schemes[k]);
		if (run->schemes[k].quota.ms)
			run->assumed[A_FIRST_WINDOW]++;
	}
}

static bool any_mvsum(const struct rank_cmd *c)
{
	unsigned int i;

	for (i = 0; i < c->nr_prof; i++)
		if (c->prof[i].cand || c->prof[i].comp.freq == HS_FREQ_MVSUM)
			return true;
	return false;
}

/* A table line, built in pieces and printed without trailing blanks. */
struct line {
	char s[1024];
	size_t n;
};

static void addf(struct line *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void addf(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(l->s + l->n, sizeof(l->s) - l->n, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->n = l->n + (size_t)n < sizeof(l->s) ? l->n + (size_t)n :
			sizeof(l->s) - 1;
}

static void line_put(struct line *l, FILE *f)
{
	while (l->n && l->s[l->n - 1] == ' ')
		l->n--;
	l->s[l->n] = '\0';
	fprintf(f, "%s\n", l->s);
	l->n = 0;
}

/* "3..max": a pattern's bounds, UINT_MAX as damo's "max". */
static void fmt_limit(char *buf, size_t size, unsigned int min,
		      unsigned int max)
{
	if (max == UINT32_MAX)
		snprintf(buf, size, "%u..max", min);
	else
		snprintf(buf, size, "%u..%u", min, max);
}

static void print_scheme(const struct run *run, unsigned int k)
{
	const struct cli_scheme_spec *sp = &run->c->specs[k];
	const struct hs_scheme *s = &run->schemes[k];
	char sz[32], reset[32], nr[32], age[32];

	fmt_bytes(sz, sizeof(sz), s->quota.sz);
	snprintf(reset, sizeof(reset), sp->quota[2] == UINT64_MAX ? "max" :
		 "%" PRIu64 " ms", sp->quota[2]);
	fmt_limit(nr, sizeof(nr), s->pattern.min_nr, s->pattern.max_nr);
	fmt_limit(age, sizeof(age), s->pattern.min_age, s->pattern.max_age);
	fprintf(run->txt, "scheme %u: %s; nr_accesses %s, age %s aggregations; quota %lu ms,"
	       " %s per %s;\n          weights %u %u %u\n",
	       k, hs_action_name(s->action), nr, age, s->quota.ms,
	       s->quota.sz ? sz : "no size limit", reset, s->quota.weight_sz,
	       s->quota.weight_nr, s->quota.weight_age);
}

static void print_header(const struct run *run, const struct group *g)
{
	const struct hs_rec_info *in = &run->infos[g->records[0]];
	char who[96] = "";
	struct line l = { .n = 0 };
	unsigned int k;

	/* damo record's trace-based records name no kdamond or context */
	if (in->kdamond_idx >= 0 || in->context_idx >= 0)
		snprintf(who, sizeof(who), "kdamond %ld, context %ld, ",
			 in->kdamond_idx, in->context_idx);
	if (in->scheme_idx >= 0)
		snprintf(who + strlen(who), sizeof(who) - strlen(who),
			 "scheme %ld, ", in->scheme_idx);
	fprintf(run->txt, "\ncontext: %s%zu record%s; sample %lu us, aggregation %lu us\n",
	       who, g->nr, cli_s(g->nr), run->sample_us, run->aggr_us);
	for (k = 0; k < run->c->nr_schemes; k++)
		print_scheme(run, k);
	addf(&l, "%6s  %7s  %6s  %14s", "snap", "end (s)", "regions",
	     "eligible");
	for (k = 0; k < run->nr_picks; k++) {
		char head[96];

		snprintf(head, sizeof(head), "%s%s%u", pick_prof(run, k)->name,
			 run->c->nr_schemes > 1 ? " scheme " : "",
			 run->c->nr_schemes > 1 ? pick_scheme(run, k) : 0);
		if (run->c->nr_schemes == 1)
			head[strlen(pick_prof(run, k)->name)] = '\0';
		addf(&l, "  %-22.22s", head);
	}
	addf(&l, "%s", run->nr_picks == 2 ? "  differ" : "");
	line_put(&l, run->txt);
	addf(&l, "%6s  %7s  %6s  %14s", "", "", "", "");
	for (k = 0; k < run->nr_picks; k++)
		addf(&l, "  %-22s", "min_score  picked");
	addf(&l, "%s", run->nr_picks == 2 ? "  bytes/nr" : "");
	line_put(&l, run->txt);
}

/* Bytes and regions that one pick takes and the other does not. */
static void differ(const struct run *run, uint64_t *bytes, size_t *regions)
{
	const struct pick *a = &run->picks[0], *b = &run->picks[1];
	size_t i;

	*bytes = 0;
	*regions = 0;
	for (i = 0; i < run->nr; i++) {
		unsigned long x = a->picked[i], y = b->picked[i];

		if (x == y)
			continue;
		*bytes += x > y ? x - y : y - x;
		(*regions)++;
	}
}

static void print_row(struct run *run, const struct hs_rec_snapshot *s,
		      uint64_t t0)
{
	struct line l = { .n = 0 };
	char e[32], p[32];
	unsigned int k;
	uint64_t bytes;
	size_t regions;

	fmt_bytes(e, sizeof(e), run->picks[0].sz_eligible);
	addf(&l, "%6zu  %7.3f  %6zu  %4zu %9s", s->index,
	     (double)(s->end_ns - t0) / 1e9, run->nr,
	     run->picks[0].nr_eligible, e);
	for (k = 0; k < run->nr_picks; k++) {
		const struct pick *pk = &run->picks[k];

		fmt_bytes(p, sizeof(p), pk->sz_picked);
		addf(&l, "  %9u %3zu %8s", pk->min_score, pk->nr_picked, p);
	}
	if (run->nr_picks == 2) {
		differ(run, &bytes, &regions);
		fmt_bytes(p, sizeof(p), bytes);
		addf(&l, "  %s/%zu", p, regions);
	}
	line_put(&l, run->txt);
	for (k = 0; k < run->nr_picks; k++) {
		run->nr_bad += run->picks[k].nr_traps || run->picks[k].nr_out;
		if (run->picks[k].nr_traps)
			fprintf(run->txt, "          %s: %zu region%s trapped (the kernel would divide by zero)\n",
			       pick_prof(run, k)->name, run->picks[k].nr_traps,
			       cli_s(run->picks[k].nr_traps));
		if (run->picks[k].nr_out)
			fprintf(run->txt, "          %s: %zu score%s outside 0..99 (the kernel would index past its histogram)\n",
			       pick_prof(run, k)->name, run->picks[k].nr_out,
			       cli_s(run->picks[k].nr_out));
	}
}

#define LIST_MAX	20	/* picked regions listed per pick */

/* One snapshot chosen: the regions each pick acts on, in walk order. */
static void print_picked(const struct run *run)
{
	char sz[32], head[96];
	unsigned int k;
	size_t i, n;

	for (k = 0; k < run->nr_picks; k++) {
		const struct pick *pk = &run->picks[k];

		snprintf(head, sizeof(head), "%s%s%u", pick_prof(run, k)->name,
			 run->c->nr_schemes > 1 ? " scheme " : "",
			 pick_scheme(run, k));
		if (run->c->nr_schemes == 1)
			head[strlen(pick_prof(run, k)->name)] = '\0';
		fprintf(run->txt, "%s picks %zu region%s:%s\n", head, pk->nr_picked,
		       cli_s(pk->nr_picked), pk->nr_picked ?
		       "  start-end, bytes picked, nr_accesses, age, score" : "");
		for (i = n = 0; i < run->nr; i++) {
			const struct hs_damos_region *r = &run->r[i];

			if (!pk->picked[i] || n++ >= LIST_MAX)
				continue;
			fmt_bytes(sz, sizeof(sz), pk->picked[i]);
			fprintf(run->txt, "  %lx-%lx  %10s  %5u  %5u  %2d\n", r->start,
			       r->end, sz, r->nr_accesses, r->age, pk->score[i]);
		}
		if (n > LIST_MAX)
			fprintf(run->txt, "  ... %zu more (--csv has them all)\n",
			       n - LIST_MAX);
	}
}

static void csv_rows(const struct run *run, const struct hs_rec_snapshot *s)
{
	FILE *f = run->c->csv_f;
	unsigned int k;
	size_t i;

	for (k = 0; k < run->nr_picks; k++) {
		const struct pick *pk = &run->picks[k];

		for (i = 0; i < run->nr; i++) {
			const struct hs_damos_region *r = &run->r[i];
			const struct origin *o = &run->from[i];

			cli_csv_field(f, pick_prof(run, k)->name);
			fprintf(f, ",%u,%zu,%zu,%u,%lu,%lu,%u,%u,%d,%u,%lu\n",
				pick_scheme(run, k),
				o->record, s->index, o->target, r->start,
				r->end, r->nr_accesses, r->age, pk->score[i],
				pk->min_score, pk->picked[i]);
		}
	}
}

/* One pick of a snapshot: its counts, then each region, as it goes. */
static void json_pick(struct run *run, unsigned int k)
{
	const struct pick *pk = &run->picks[k];
	struct hs_json_stream *js = &run->js;
	size_t i;

	hs_json_open(js, NULL, true, false);
	hs_json_members(js, json_pack(
		"{s:o, s:I, s:o, s:I, s:o, s:o, s:o, s:o, s:o, s:o}",
		"profile", hs_json_text(pick_prof(run, k)->name),
		"scheme", (json_int_t)pick_scheme(run, k),
		"esz", hs_json_u64(pk->esz),
		"min_score", (json_int_t)pk->min_score,
		"eligible_regions", hs_json_u64(pk->nr_eligible),
		"eligible_bytes", hs_json_u64(pk->sz_eligible),
		"picked_regions", hs_json_u64(pk->nr_picked),
		"picked_bytes", hs_json_u64(pk->sz_picked),
		"traps", hs_json_u64(pk->nr_traps),
		"out_of_range", hs_json_u64(pk->nr_out)));
	/* a region: target, start, end, nr_accesses, age, score, picked */
	hs_json_open(js, "regions", false, false);
	for (i = 0; i < run->nr; i++) {
		const struct hs_damos_region *r = &run->r[i];

		hs_json_put(js, NULL, json_pack("[I, o, o, I, I, i, o]",
			(json_int_t)run->from[i].target, hs_json_u64(r->start),
			hs_json_u64(r->end), (json_int_t)r->nr_accesses,
			(json_int_t)r->age, pk->score[i],
			hs_json_u64(pk->picked[i])));
	}
	hs_json_close(js);
	hs_json_close(js);
}

static void json_snapshot(struct run *run, const struct hs_rec_snapshot *s)
{
	unsigned int k;

	hs_json_open(&run->js, NULL, true, false);
	hs_json_members(&run->js, json_pack("{s:o, s:o, s:o, s:o}",
		"record", hs_json_u64(s->record),
		"index", hs_json_u64(s->index),
		"start_ns", hs_json_u64(s->start_ns),
		"end_ns", hs_json_u64(s->end_ns)));
	hs_json_open(&run->js, "picks", false, true);
	for (k = 0; k < run->nr_picks; k++)
		json_pick(run, k);
	hs_json_close(&run->js);
	hs_json_close(&run->js);
}

/* --snapshot and --time: is this the one? */
static bool chosen(const struct rank_cmd *c, const struct hs_rec_snapshot *s,
		   uint64_t t0)
{
	uint64_t t;

	if (c->snapshot >= 0)
		return s->index == (size_t)c->snapshot;
	if (!c->has_time)
		return true;
	t = t0 + c->time_us * 1000;
	return s->start_ns <= t && t < s->end_ns;
}

static void rank_group(struct run *run, struct group *g)
{
	struct hs_rec_snapshot s = { 0 };
	uint64_t t0 = 0;
	unsigned int k;
	bool first = true;

	group_intervals(run, g);
	group_schemes(run);
	group_open(run, g);
	print_header(run, g);
	while (group_next(run, g, &s)) {
		if (first)
			t0 = s.start_ns;
		first = false;
		if (!chosen(run->c, &s, t0))
			continue;
		hs_cand_watch_begin();	/* one timer for a snapshot's calls */
		for (k = 0; k < run->nr_picks; k++)
			rank_one(run, &run->picks[k], pick_prof(run, k),
				 &run->schemes[pick_scheme(run, k)],
				 s.end_ns / 1000 / run->sample_us);
		hs_cand_watch_end();
		run->nr_ranked++;
		print_row(run, &s, t0);
		if (run->c->snapshot >= 0 || run->c->has_time)
			print_picked(run);
		if (run->c->csv_f)
			csv_rows(run, &s);
		if (run->c->json_f)
			json_snapshot(run, &s);
	}
	group_close(run, g);
}

/* The records of one kdamond, context and scheme, in file order. */
static void group_of(const struct run *run, size_t first, bool *taken,
		     struct group *g)
{
	const struct hs_rec_info *a = &run->infos[first], *b;
	size_t i;

	g->records = calloc(run->nr_infos, sizeof(*g->records));
	if (!g->records)
		cli_die("out of memory");
	g->nr = 0;
	for (i = first; i < run->nr_infos; i++) {
		b = &run->infos[i];
		if (taken[i] || b->kdamond_idx != a->kdamond_idx ||
		    b->context_idx != a->context_idx ||
		    b->scheme_idx != a->scheme_idx)
			continue;
		taken[i] = true;
		g->records[g->nr++] = i;
	}
}

static void print_assumptions(const struct run *run)
{
	unsigned int a;

	fprintf(run->txt, "\nassumed:\n");
	for (a = 0; a < NR_ASSUMPTIONS; a++)
		if (run->assumed[a]) {
			fputs("  - ", run->txt);
			layout_wrap(run->txt, assumption_text[a], 4, 4, 100, 0);
		}
	fputs("  - ", run->txt);
	layout_wrap(run->txt, "each snapshot is the first window of a fresh quota, each scheme alone; a page is 4 KiB",
		    4, 4, 100, 0);
}

/* --json: the input and profiles; the snapshots follow as they are ranked. */
static void json_begin(struct run *run, bool compressed)
{
	json_t *profiles = json_array();
	unsigned int i;

	for (i = 0; i < run->c->nr_prof; i++)
		json_array_append_new(profiles,
				      hs_json_text(run->c->prof[i].name));
	hs_json_stream_init(&run->js, run->c->json_f, 0);
	hs_json_open(&run->js, NULL, true, false);
	hs_json_members(&run->js, json_pack("{s:o, s:s, s:o}",
		"input", hs_json_text(run->c->input),
		"format", compressed ? "json_compressed" : "json",
		"profiles", profiles));
	hs_json_open(&run->js, "snapshots", false, true);
}

/* --json's end: what the ranking assumed. */
static void json_end(struct run *run)
{
	json_t *assumed = json_array();
	unsigned int a;

	for (a = 0; a < NR_ASSUMPTIONS; a++)
		if (run->assumed[a])
			json_array_append_new(assumed,
					      hs_json_text(assumption_text[a]));
	hs_json_close(&run->js);
	hs_json_put(&run->js, "assumed", assumed);
	hs_json_close(&run->js);
}

static void run_free(struct run *run)
{
	unsigned int k;

	for (k = 0; k < run->nr_picks; k++) {
		free(run->picks[k].score);
		free(run->picks[k].picked);
	}
	for (k = 0; k < run->nr_pool; k++)
		hs_rec_close(run->pool[k]);
	free(run->pool);
	free(run->r);
	free(run->from);
	free((void *)run->infos);
}

/* --snapshot or --time that no record has: said before anything is. */
static void check_choice(const struct rank_cmd *c,
			 const struct hs_rec_info *infos, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct hs_rec_info *in = &infos[i];

		if (c->snapshot >= 0 && in->nr_snapshots > (size_t)c->snapshot)
			return;
		if (c->has_time && in->nr_snapshots &&
		    c->time_us * 1000 < in->last_ns - in->first_ns)
			return;
		if (c->snapshot < 0 && !c->has_time)
			return;
	}
	if (c->snapshot >= 0)
		cli_die("%s: --snapshot %ld: no record has that many snapshots",
			c->input, c->snapshot);
	cli_die("%s: --time: no record lasts that long", c->input);
}

/**
 * rank_file() - rank every context of the record file, print the summary
 * and write the CSV and JSON rows.
 * @c:		the command, its outputs open.
 *
 * Return: the exit status: 0, or 1 when a score trapped or left 0..99.
 */
int rank_file(struct rank_cmd *c)
{
	struct run run = { .c = c, .txt = stdout };
	struct hs_rec_info *infos;
	struct hs_rec_reader *rd;
	struct group g;
	bool *taken, compressed;
	struct stat st;
	char err[320];
	size_t i;

	/* a table of contents, then one reader per target: read it again */
	if (!stat(c->input, &st) && !S_ISREG(st.st_mode))
		cli_die("%s: not a regular file: rank reads a record more than once (save it to a file first)",
			c->input);
	if (hs_rec_open(c->input, &rd, err, sizeof(err)) < 0)
		cli_die("%s: %s", c->input, err);
	compressed = hs_rec_compressed(rd);
	if ((c->csv && !strcmp(c->csv, "-")) || (c->json && !strcmp(c->json, "-")))
		run.txt = stderr;	/* standard output is the data's */
	hs_rec_close(rd);
	if (hs_rec_scan(c->input, &infos, &run.nr_infos, err, sizeof(err)) < 0)
		cli_die("%s: %s", c->input, err);
	run.infos = infos;
	if (!run.nr_infos)
		cli_die("%s: no records", c->input);
	check_choice(c, infos, run.nr_infos);
	run.nr_picks = c->nr_prof * c->nr_schemes;
	fprintf(run.txt, "hotscore rank: %s (%s), %zu record%s\n", c->input,
	       compressed ? "json_compressed" : "json", run.nr_infos,
	       cli_s(run.nr_infos));
	if (c->csv_f)
		fputs("profile,scheme,record,snapshot,target,start,end,nr_accesses,age,score,min_score,picked\n",
		      c->csv_f);
	if (c->json_f)
		json_begin(&run, compressed);
	taken = calloc(run.nr_infos, sizeof(*taken));
	if (!taken)
		cli_die("out of memory");
	if (any_mvsum(c))
		run.assumed[A_BOUNDARY]++;
	for (i = 0; i < run.nr_infos; i++) {
		if (taken[i])
			continue;
		group_of(&run, i, taken, &g);
		rank_group(&run, &g);
	}
	free(taken);
	if (!run.nr_ranked)
		cli_die("%s: no snapshot %s", c->input, c->has_time ?
			"holds that --time" : "has that --snapshot index");
	print_assumptions(&run);
	if (c->json_f)
		json_end(&run);
	run_free(&run);
	return run.nr_bad ? 1 : 0;
}
