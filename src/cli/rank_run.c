// SPDX-License-Identifier: GPL-2.0
/*
 * rank_run.c - hotscore rank's work: the record's contexts, their
 * snapshots read in step across targets, each ranked under every profile
 * and scheme; src/cli/report/'s rank_text.c, rank_csv.c and rank_json.c
 * report what it holds.
 *
 * A context's quota spans all of its targets (damos_adjust_quota() walks
 * damon_for_each_target()), so the records of one kdamond, context and
 * scheme are ranked together, snapshot i with snapshot i; each is read by
 * its own reader, so memory stays one snapshot per target, and readers
 * are reused from record to record, so the file is read about once.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <hotscore/cand.h>
#include <hotscore/sim_damos.h>
#include <hotscore/record.h>

#include "cli.h"
#include "cmd_rank.h"

#define DAMO_SAMPLE_US	5000	/* damo's default intervals */
#define DAMO_AGGR_US	100000

/* What each enum rank_assumption says, in the summary and the JSON. */
const char *const rank_assumption_text[RANK_NR_ASSUMPTIONS] = {
	[RANK_A_INTERVALS] = "no intervals in the record: damo's defaults, sample 5 ms, aggregation 100 ms",
	[RANK_A_BOUNDARY] = "scored at the aggregation's end (passed_sample_intervals = next_aggregation_sis), where mm-new's moving sum is nr_accesses",
	[RANK_A_NO_AGE] = "regions without an age: age 0",
	[RANK_A_NO_NR] = "regions without nr_accesses: 0 accesses",
	[RANK_A_PERCENT] = "regions with nr_accesses in percent only: samples = percent * aggr / sample / 100, as damo converts",
	[RANK_A_USEC] = "regions with age in usec only: aggregation intervals = usec / aggr, as damo converts",
	[RANK_A_SAMPLE_FIELD] = "snapshots whose sample_interval_us differs from the record's intervals: the intervals used (damo 3.3 rewrites that field in ns)",
	[RANK_A_FIRST_WINDOW] = "the time quota's first charge window: the kernel's initial throughput, PAGE_SIZE * 1024 bytes per ms",
	[RANK_A_ACTION_TIME] = "the time quota's action time, which a record lacks: every charge window at the kernel's initial throughput, PAGE_SIZE * 1024 bytes per ms",
	[RANK_A_TARGETS] = "a context of several targets walked as one list: the resume address is kept by address, not by target",
};

/* --sweep_weights' grid: no weight, equal ones, and ratios up to 10. */
const unsigned int rank_sweep_weights[RANK_SWEEP_N] = { 0, 1, 2, 3, 5, 7, 10 };

/* A context of more rows than this prints some of them; the summary all. */
#define ROWS_ALL	20
#define ROWS_FIRST	10	/* then, with one pick: the first rows */

struct group {
	size_t *records;	/* indexes into the file's records */
	size_t nr;
	struct hs_rec_reader **rd;
	bool *done;
};

/**
 * rank_stop_at_hang() - a candidate's call that ran past --call_limit: the
 * ranking stops, since each further hang would cost the limit again; exit
 * 1 with the command that shows it.
 * @c:		the command.
 * @p:		the profile.
 * @in:		the call's input.
 */
void rank_stop_at_hang(const struct rank_cmd *c, const struct hs_spec *p,
		       const struct hs_input *in)
{
	const struct hs_spec *base = &c->base_spec;
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
	struct rank_run *run;
	struct rank_pick *pk;
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
	struct rank_run *run = sc->run;
	struct rank_pick *pk = sc->pk;
	const struct hs_spec *p = sc->p;
	const struct hs_scheme *s = sc->s;
	enum hs_score_kind kind = hs_score_kind(run->c->ops, s->action);
	struct hs_input in = {
		.sample_us = run->sample_us, .aggr_us = run->aggr_us,
		.passed_sis = (unsigned long)sc->sis,
		.next_aggr_sis = (unsigned long)sc->sis,
		.nr_accesses = r->nr_accesses,
		.nr_accesses_bp = hs_bp_of_nr(r->nr_accesses),
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
		rank_stop_at_hang(run->c, p, &in);
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
static void rank_one(struct rank_run *run, struct rank_pick *pk,
		     const struct hs_spec *p, const struct hs_scheme *s,
		     uint64_t sis)
{
	struct scoring sc = { .run = run, .pk = pk, .p = p, .s = s,
			      .sis = sis };
	struct hs_damos_walk w = { .score = pk->score, .charged = pk->picked };

	pk->nr_traps = pk->nr_out = 0;
	if (hs_damos_walk(run->r, run->nr, s, score_of, &sc, &w))
		cli_die("out of memory");
	pk->esz = w.esz;
	pk->min_score = w.min_score;
	pk->nr_eligible = w.nr_eligible;
	pk->sz_eligible = w.sz_eligible;
	pk->nr_picked = w.nr_charged;
	pk->sz_picked = w.sz_charged;
}

/* A pick's arrays for @cap regions. */
static void pick_reserve(struct rank_pick *pk, size_t cap, size_t n)
{
	pk->score = realloc(pk->score, cap * sizeof(*pk->score));
	pk->picked = realloc(pk->picked, cap * sizeof(*pk->picked));
	pk->counted = realloc(pk->counted, cap);
	if (!pk->score || !pk->picked || !pk->counted)
		cli_die("out of memory for %zu regions", n);
}

static void reserve(struct rank_run *run, size_t n)
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
	for (k = 0; k < run->nr_picks; k++)
		pick_reserve(&run->picks[k], cap, n);
	if (run->c->sweep)
		pick_reserve(&run->sweep.pick, cap, n);
	run->cap = cap;
}

/* damo's DamonNrAccesses.add_unset_unit(): int(percent * max / 100). */
static unsigned int samples_of(const struct rank_run *run,
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
static unsigned int aggrs_of(const struct rank_run *run,
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
static unsigned int add_target(struct rank_run *run,
			       const struct hs_rec_snapshot *s,
			       unsigned int target)
{
	size_t i;

	reserve(run, run->nr + s->nr);
	if (s->has_sample_us && s->sample_us != run->sample_us)
		run->assumed[RANK_A_SAMPLE_FIELD]++;
	for (i = 0; i < s->nr; i++) {
		const struct hs_rec_region *q = &s->r[i];
		struct hs_damos_region *r = &run->r[run->nr];
		struct rank_origin *o = &run->from[run->nr++];

		r->start = q->start;
		r->end = q->end;
		o->record = s->record;
		o->target = target + q->target;
		r->nr_accesses = q->has_samples ? q->nr_accesses :
			q->has_percent ? samples_of(run, s, i) : 0;
		r->age = q->has_aggrs ? q->age :
			q->has_usec ? aggrs_of(run, s, i) : 0;
		run->assumed[RANK_A_NO_NR] += !q->has_samples &&
			!q->has_percent;
		run->assumed[RANK_A_NO_AGE] += !q->has_aggrs && !q->has_usec;
		run->assumed[RANK_A_PERCENT] += !q->has_samples &&
			q->has_percent;
		run->assumed[RANK_A_USEC] += !q->has_aggrs && q->has_usec;
	}
	return s->nr_targets;
}

static void die_record(const struct rank_run *run, const char *what)
{
	cli_die("%s: %s", run->c->input, what);
}

/*
 * A reader for record @k: one left where an earlier group's record ended,
 * at or before @k (the nearest), or a new one.  Records in between are
 * passed by brackets: the file is read about once however many there are.
 */
static struct hs_rec_reader *reader_for(struct rank_run *run, size_t k)
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
static void group_open(struct rank_run *run, struct group *g)
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
static void group_close(struct rank_run *run, struct group *g)
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
static bool group_next(struct rank_run *run, struct group *g,
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
static void group_intervals(struct rank_run *run, const struct group *g)
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
	run->assumed[RANK_A_INTERVALS]++;
}

static void group_schemes(struct rank_run *run)
{
	unsigned int k;

	for (k = 0; k < run->c->nr_schemes; k++) {
		cli_damos_scheme(&run->c->specs[k], run->sample_us,
				 run->aggr_us, &run->schemes[k]);
		if (run->schemes[k].quota.ms)
			run->assumed[run->c->carry ? RANK_A_ACTION_TIME :
				     RANK_A_FIRST_WINDOW]++;
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

/* --- --carry: the kdamond's walk over the snapshots, in time order --- */

#define SCORE_UNSET	INT_MIN

/* The pick of profile @cy->prof and scheme @s. */
static struct rank_pick *carry_pick(const struct rank_carry *cy, unsigned int s)
{
	return &cy->run->picks[cy->prof * cy->run->c->nr_schemes + s];
}

/* What rank_pick.counted says of a region: counted already. */
#define CARRY_TRAP	1
#define CARRY_OUT	2

/*
 * A region's score under scheme @s, through score_of(); a trap or a score
 * out of range counts once a region if any call made it, however often
 * the walk asks (the histogram, then the cut-off, on an age an earlier
 * scheme reset).
 */
static int carry_score(void *ctx, const struct hs_region *r, unsigned int s)
{
	struct rank_carry *cy = ctx;
	struct rank_pick *pk = carry_pick(cy, s);
	struct scoring sc = { .run = cy->run, .pk = pk,
			      .p = &cy->run->c->prof[cy->prof],
			      .s = &cy->schemes[s], .sis = cy->sis };
	struct hs_damos_region d = { r->start, r->end, r->nr_accesses,
				     r->age };
	size_t traps = pk->nr_traps, out = pk->nr_out;
	unsigned char *seen = &pk->counted[r->wl];
	int score = score_of(&sc, &d);

	if (pk->nr_traps > traps) {
		if (*seen & CARRY_TRAP)
			pk->nr_traps = traps;
		*seen |= CARRY_TRAP;
	}
	if (pk->nr_out > out) {
		if (*seen & CARRY_OUT)
			pk->nr_out = out;
		*seen |= CARRY_OUT;
	}
	/* the listing's: the first score, or -1 if any call trapped */
	if (pk->score[r->wl] == SCORE_UNSET || score < 0)
		pk->score[r->wl] = score;
	return score;
}

/* A record's nr_accesses, in samples, is the moving sum at its end. */
static bool carry_eligible(void *ctx, const struct hs_region *r,
			   unsigned int s)
{
	const struct rank_carry *cy = ctx;

	return hs_pattern_admits(&cy->schemes[s].pattern, r->end - r->start,
				 r->nr_accesses, r->age);
}

static unsigned long carry_apply(void *ctx, const struct hs_region *r,
				 unsigned int s, int score,
				 const struct hs_quota *q, size_t nr)
{
	(void)score;
	(void)q;
	(void)nr;
	carry_pick(ctx, s)->picked[r->wl] += r->end - r->start;
	return 0;
}

static const struct hs_apply_ops carry_ops = {
	.score = carry_score, .eligible = carry_eligible,
	.on_apply = carry_apply,
};

/* A context's start: each profile's kdamond with fresh quotas. */
static void carry_begin(struct rank_run *run)
{
	unsigned int p;

	for (p = 0; p < run->c->nr_prof; p++) {
		struct rank_carry *cy = &run->carry[p];
		struct hs_region *r = cy->r;
		size_t cap = cy->cap;

		memset(cy, 0, sizeof(*cy));
		cy->r = r;
		cy->cap = cap;
		cy->run = run;
		cy->prof = p;
		memcpy(cy->schemes, run->schemes,
		       run->c->nr_schemes * sizeof(*cy->schemes));
		cy->a.core = HS_CORE_NEWEST;
		cy->a.attrs.sample_us = run->sample_us;
		cy->a.attrs.aggr_us = run->aggr_us;
		cy->a.attrs.min_region_sz = HS_PAGE_SIZE;
		cy->a.ops = run->c->ops;
		cy->a.hz = run->c->kd.hz;
		cy->a.schemes = cy->schemes;
		cy->a.nr_schemes = run->c->nr_schemes;
		cy->a.cb = &carry_ops;
		cy->a.ctx = cy;
		cy->a.max_region_sz = ULONG_MAX;
		hs_apply_init(&cy->a);
	}
}

/* The snapshot as the walk takes it (hs_damos_regions()), with room. */
static void carry_regions(struct rank_carry *cy, const struct rank_run *run)
{
	if (run->nr + 16 > cy->cap) {
		free(cy->r);
		cy->cap = run->cap + 16;
		cy->r = calloc(cy->cap, sizeof(*cy->r));
		if (!cy->r)
			cli_die("out of memory for %zu regions", run->nr);
	}
	hs_damos_regions(run->r, run->nr, cy->r);
	cy->nr = run->nr;
}

/* What a pick's walk left to count: eligibility and the bytes picked. */
static void carry_count(struct rank_run *run, struct rank_pick *pk,
			const struct hs_scheme *s)
{
	size_t i;

	pk->esz = s->quota.esz;
	pk->min_score = s->quota.ms || s->quota.sz ? s->quota.min_score : 0;
	pk->nr_eligible = pk->nr_picked = 0;
	pk->sz_eligible = pk->sz_picked = 0;
	for (i = 0; i < run->nr; i++) {
		const struct hs_damos_region *r = &run->r[i];

		if (pk->score[i] == SCORE_UNSET)
			pk->score[i] = -1;
		if (!hs_pattern_admits(&s->pattern, r->end - r->start,
				       r->nr_accesses, r->age))
			continue;
		pk->nr_eligible++;
		pk->sz_eligible += r->end - r->start;
		pk->nr_picked += pk->picked[i] != 0;
		pk->sz_picked += pk->picked[i];
	}
}

/*
 * --carry: the @nth snapshot (from 0), ending at @ns from the context's
 * start, one kdamond_apply_schemes() per profile (the schemes due at its
 * end).  The kernel counts samples, not time: each aggregation adds
 * aggr / sample to passed_sample_intervals however long it took, while
 * jiffies, which time the charge windows, are the clock's.
 */
static void carry_snapshot(struct rank_run *run, uint64_t ns, size_t nth)
{
	uint64_t us = ns / 1000;
	unsigned long sis = (unsigned long)(nth + 1) *
		(run->aggr_us / run->sample_us);
	unsigned long jiffies = run->c->kd.hz +
		(unsigned long)(us * run->c->kd.hz / 1000000);
	unsigned int p, s;
	size_t i;

	if (run->nr && run->from[run->nr - 1].target)
		run->assumed[RANK_A_TARGETS]++;
	for (p = 0; p < run->c->nr_prof; p++) {
		struct rank_carry *cy = &run->carry[p];

		for (s = 0; s < run->c->nr_schemes; s++) {
			struct rank_pick *pk = carry_pick(cy, s);

			pk->nr_traps = pk->nr_out = 0;
			for (i = 0; i < run->nr; i++) {
				pk->score[i] = SCORE_UNSET;
				pk->picked[i] = 0;
				pk->counted[i] = 0;
			}
		}
		carry_regions(cy, run);
		cy->sis = sis;
		cy->a.next_aggr_sis = sis;
		if (hs_apply_run(&cy->a, sis, jiffies, &cy->r, &cy->nr,
				 &cy->cap))
			cli_die("out of memory for %zu regions", run->nr);
		for (s = 0; s < run->c->nr_schemes; s++)
			carry_count(run, carry_pick(cy, s), &cy->schemes[s]);
	}
}

/* Bytes and regions that one pick takes and the other does not. */
static void differ(const struct rank_run *run, uint64_t *bytes, size_t *regions)
{
	const struct rank_pick *a = &run->picks[0], *b = &run->picks[1];
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

/* A snapshot where a pick's score trapped or left 0..99. */
static void count_bad(struct rank_run *run)
{
	unsigned int k;

	for (k = 0; k < run->nr_picks; k++)
		run->nr_bad += run->picks[k].nr_traps || run->picks[k].nr_out;
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

/*
 * --sweep_weights: the snapshot under each pair of weights of the grid, the
 * first profile and scheme; what each pair picks that pick 0, the scheme's
 * own weights, does not.
 */
static void sweep_snapshot(struct rank_run *run, uint64_t sis)
{
	struct rank_sweep *sw = &run->sweep;
	const struct rank_pick *own = &run->picks[0];
	struct hs_scheme s = run->schemes[0];
	unsigned int i, j;
	size_t r;

	for (i = 0; i < RANK_SWEEP_N; i++) {
		for (j = 0; j < RANK_SWEEP_N; j++) {
			s.quota.weight_nr = rank_sweep_weights[i];
			s.quota.weight_age = rank_sweep_weights[j];
			rank_one(run, &sw->pick, &run->c->prof[0], &s, sis);
			sw->picked[i][j] += sw->pick.sz_picked;
			sw->traps += sw->pick.nr_traps;
			for (r = 0; r < run->nr; r++)
				if (sw->pick.picked[r] > own->picked[r])
					sw->differ[i][j] += sw->pick.picked[r] -
						own->picked[r];
		}
	}
	sw->snapshots++;
}

/**
 * rank_sweep_at() - where the scheme's own weights are on the grid.
 * @q:		the scheme's quota.
 * @i:		set to the row: the nr_accesses weight's index.
 * @j:		set to the column: the age weight's index.
 *
 * Return: false when they are not a pair of the grid.
 */
bool rank_sweep_at(const struct hs_quota *q, unsigned int *i, unsigned int *j)
{
	for (*i = 0; *i < RANK_SWEEP_N; (*i)++)
		for (*j = 0; *j < RANK_SWEEP_N; (*j)++)
			if (q->weight_nr == rank_sweep_weights[*i] &&
			    q->weight_age == rank_sweep_weights[*j])
				return true;
	return false;
}

/* The snapshot into the context's totals and, with two picks, its diff. */
static void add_totals(struct rank_run *run, const struct hs_rec_snapshot *s,
		       uint64_t t0)
{
	struct rank_context *cx = &run->ctx;
	unsigned int k;

	cx->ranked++;
	for (k = 0; k < run->nr_picks; k++) {
		struct rank_total *t = &cx->total[k];

		t->regions += run->picks[k].nr_picked;
		t->bytes += run->picks[k].sz_picked;
		t->snapshots += run->picks[k].nr_picked > 0;
	}
	if (run->nr_picks != 2 || !run->diff_regions)
		return;
	if (!cx->nr_differ++) {
		cx->first = s->index;
		cx->first_ns = s->end_ns - t0;
	}
	cx->diff_bytes += run->diff_bytes;
	cx->diff_regions += run->diff_regions;
}

/*
 * Whether the snapshot gets its row: every one in a short context, and
 * any whose scores trapped or left 0..99; else the first few, or with
 * two picks the first few where they differ.
 */
static bool row_shown(const struct rank_run *run)
{
	const struct rank_context *cx = &run->ctx;
	unsigned int k;

	for (k = 0; k < run->nr_picks; k++)
		if (run->picks[k].nr_traps || run->picks[k].nr_out)
			return true;
	if (cx->expected <= ROWS_ALL)
		return true;
	if (run->nr_picks == 2)
		return run->diff_regions && cx->shown < ROWS_ALL;
	return cx->shown < ROWS_FIRST;
}

/* The snapshots the context will rank, as its records count them. */
static size_t expected(const struct rank_run *run, const struct group *g)
{
	size_t j, n = 0;

	if (run->c->snapshot >= 0 || run->c->has_time)
		return 1;
	for (j = 0; j < g->nr; j++)
		if (run->infos[g->records[j]].nr_snapshots > n)
			n = run->infos[g->records[j]].nr_snapshots;
	return n;
}

static void rank_group(struct rank_run *run, struct group *g)
{
	struct hs_rec_snapshot s = { 0 };
	uint64_t t0 = 0, sis;
	unsigned int k;
	bool first = true, past = false;
	size_t nth = 0;

	group_intervals(run, g);
	group_schemes(run);
	group_open(run, g);
	memset(&run->ctx, 0, sizeof(run->ctx));
	run->ctx.expected = expected(run, g);
	rank_text_context(run, &run->infos[g->records[0]], g->nr);
	if (run->c->carry)
		carry_begin(run);
	while (group_next(run, g, &s)) {
		if (first)
			t0 = s.start_ns;
		first = false;
		if (past)	/* --carry's choice made: read on, walk no more */
			continue;
		hs_cand_watch_begin();	/* one timer for a snapshot's calls */
		if (run->c->carry)	/* every snapshot: the quotas' state */
			carry_snapshot(run, s.end_ns - t0, nth++);
		if (!chosen(run->c, &s, t0)) {
			hs_cand_watch_end();
			continue;
		}
		past = run->c->carry &&
			(run->c->snapshot >= 0 || run->c->has_time);
		sis = s.end_ns / 1000 / run->sample_us;
		for (k = 0; k < run->nr_picks && !run->c->carry; k++)
			rank_one(run, &run->picks[k], rank_pick_prof(run, k),
				 &run->schemes[rank_pick_scheme(run, k)], sis);
		if (run->c->sweep)
			sweep_snapshot(run, sis);
		hs_cand_watch_end();
		run->nr_ranked++;
		count_bad(run);
		run->diff_regions = 0;
		if (run->nr_picks == 2)
			differ(run, &run->diff_bytes, &run->diff_regions);
		add_totals(run, &s, t0);
		if (row_shown(run)) {
			rank_text_row(run, &s, t0);
			run->ctx.shown++;
		}
		if (run->c->snapshot >= 0 || run->c->has_time)
			rank_text_picked(run);
		if (run->c->csv_f)
			rank_csv_rows(run, &s);
		if (run->c->json_f)
			rank_json_snapshot(run, &s);
	}
	if (run->ctx.ranked > 1)	/* one snapshot: its row says it */
		rank_text_summary(run);
	group_close(run, g);
}

/* The records of one kdamond, context and scheme, in file order. */
static void group_of(const struct rank_run *run, size_t first, bool *taken,
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

static void run_free(struct rank_run *run)
{
	unsigned int k;

	for (k = 0; k < run->nr_picks; k++) {
		free(run->picks[k].score);
		free(run->picks[k].picked);
		free(run->picks[k].counted);
	}
	free(run->sweep.pick.score);
	free(run->sweep.pick.picked);
	free(run->sweep.pick.counted);
	for (k = 0; k < RANK_MAX_PROFILES; k++)
		free(run->carry[k].r);
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
	struct rank_run run = { .c = c, .txt = stdout };
	struct hs_rec_info *infos;
	struct hs_rec_reader *rd;
	struct group g;
	bool *taken, compressed;
	struct stat st;
	char err[320];
	size_t i;

	/* a table of contents, then one reader per target: read it again */
	if (!stat(c->input, &st) && !S_ISREG(st.st_mode))
		cli_die("%s: not a regular file: rank reads a record twice (save it to a file)",
			c->input);
	if (hs_rec_open(c->input, &rd, err, sizeof(err)) < 0)
		cli_die("%s: %s", c->input, err);
	compressed = hs_rec_compressed(rd);
	if ((c->csv && !strcmp(c->csv, "-")) ||
	    (c->json && !strcmp(c->json, "-")) ||
	    (c->svg && !strcmp(c->svg, "-")))
		run.txt = stderr;	/* standard output is the data's */
	hs_rec_close(rd);
	if (hs_rec_scan(c->input, &infos, &run.nr_infos, err, sizeof(err)) < 0)
		cli_die("%s: %s", c->input, err);
	run.infos = infos;
	if (!run.nr_infos)
		cli_die("%s: no records", c->input);
	check_choice(c, infos, run.nr_infos);
	run.nr_picks = c->nr_prof * c->nr_schemes;
	rank_text_begin(&run, compressed);
	if (c->csv_f)
		rank_csv_head(c->csv_f);
	if (c->json_f)
		rank_json_begin(&run, compressed);
	taken = calloc(run.nr_infos, sizeof(*taken));
	if (!taken)
		cli_die("out of memory");
	if (any_mvsum(c))
		run.assumed[RANK_A_BOUNDARY]++;
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
	if (c->sweep)
		rank_text_sweep(&run);
	rank_text_end(&run);
	if (c->json_f)
		rank_json_end(&run);
	if (c->svg_f)
		rank_svg_sweep(&run, c->svg_f);
	run_free(&run);
	return run.nr_bad ? 1 : 0;
}
