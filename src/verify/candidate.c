// SPDX-License-Identifier: GPL-2.0
/*
 * candidate.c - verify on a candidate: the user's damon_hot_score() against a
 * profile of the model, or against another candidate (patch v2 against v1),
 * over four domains.
 *
 *   ages     every 32-bit age with aggr = 1 s, so that age_in_sec = age:
 *            every age_in_sec, through whole-function calls (the
 *            candidate's own loop, hs_cand_sweep(), one call an age);
 *   ages@dflt every 32-bit age at the default intervals (age_in_sec =
 *            age / 10);
 *   grid     the model's discriminating grid, moving-sum states included;
 *   random   seeded inputs at full field widths.
 *
 * A candidate that traps is caught (hs_cand_score()): a division by zero
 * agrees with a profile that divides by zero there, and a trap with a
 * candidate against that traps with the same signal; anything else is a
 * difference, and the run goes on.  A call that runs past the limit
 * (hs_cand_set_limit()) is a difference too, hang, and it ends the run:
 * each further hang would cost the limit again.  Threads take units from
 * a counter and keep their own counts; each example is the first in
 * domain order, so the result does not depend on the threads (unless a
 * hang stopped them).
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hotscore/cand.h>

#include "domain.h"
#include "verify_internal.h"

#define SWEEP_UNIT	(1U << 20)	/* ages a sweep unit */
#define RANDOM_UNIT	65536ULL
#define DOM_SHIFT	56		/* an example's order: domain first */

/* The sweeps' fixed fields: never accessed, age weighs alone. */
static const struct hs_input sweep_in[2] = {
	{ .sample_us = 5000, .aggr_us = 1000000, .weight_age = 1 },
	{ .sample_us = 5000, .aggr_us = 100000, .weight_age = 1 },
};

struct unit {
	enum hs_cand_domain dom;
	uint64_t arg, n;	/* first age or index, or grid cell; items */
};

struct acc {
	uint64_t inputs[HS_NR_CDOMAINS], agree;
	uint64_t count[HS_NR_CAND_CLASSES];
	struct hs_example ex[HS_NR_CAND_CLASSES];
};

struct job {
	const struct hs_cand_verify_config *cfg;
	struct unit *units;
	unsigned int nr_units;
	unsigned long next, done;	/* atomics */
	int expect[2][33];		/* a sweep's hot by age_in_log */
	uint32_t *quick;
	size_t nr_quick;
	uint64_t start_ns[HS_NR_CDOMAINS], end_ns[HS_NR_CDOMAINS];
	pthread_mutex_t lock;
	int stop;			/* atomic: a hang ended the run */
};

/*
 * A worker's buffers; @hot2 and the trap marks only against a candidate,
 * whose sweep is run too.
 */
struct worker {
	struct job *job;
	struct acc acc;
	struct hs_input *buf;
	int *hot, *hot2;
	unsigned char *trapped, *trapped2;
	pthread_t tid;
};

/* A candidate's status code: 0 ok, 1 out-of-range, 2 SIGFPE, 3, 4 hang. */
static unsigned int cand_code(const struct hs_cand_result *c)
{
	if (c->trap == HS_CAND_HANG)
		return HS_CAND_CODE_HANG;
	if (c->trap)
		return c->trap == SIGFPE ? 2 : 3;
	return c->hot < 0 || c->hot > HS_DAMOS_MAX_SCORE ? 1 : 0;
}

/**
 * hs_cand_class() - how a candidate and a profile compare on one input.
 * @against:	the profile.
 * @cand:	the candidate.
 * @in:		the input.
 * @cls:	receives the class: hs_status_code() of the profile times
 *		HS_NR_CAND_CODES, plus the candidate's code (0 ok,
 *		1 out-of-range, 2 trap(SIGFPE), 3 another trap, 4 hang).
 *
 * Return: whether they differ.  A division by zero and a SIGFPE agree;
 * otherwise hot and cold must be equal.
 */
bool hs_cand_class(const struct hs_components *against,
		   const struct hs_cand *cand, const struct hs_input *in,
		   unsigned int *cls)
{
	struct hs_result m = hs_score(against, in, NULL);
	struct hs_cand_result c = hs_cand_score(cand, in);

	*cls = hs_status_code(&m) * HS_NR_CAND_CODES + cand_code(&c);
	if (m.status == HS_DIV0)
		return c.trap != SIGFPE;
	return c.trap || c.hot != m.hot || c.cold != m.cold;
}

/**
 * hs_cand_versus() - hs_cand_class(), against a profile or, when
 * @against_cand is given, against that candidate.
 * @against:	the profile (used when @against_cand is NULL).
 * @against_cand: a candidate to compare with instead, or NULL.
 * @cand:	the candidate.
 * @in:		the input.
 * @cls:	receives the class; against a candidate, its code (as the
 *		candidate's) times HS_NR_CAND_CODES plus the candidate's.
 *
 * Two candidates agree where both return the same hot and cold, or both
 * trap with the same signal (the kernel would oops in both); a hang is
 * always a difference, since it ends the run.
 *
 * Return: whether they differ.
 */
bool hs_cand_versus(const struct hs_components *against,
		    const struct hs_cand *against_cand,
		    const struct hs_cand *cand, const struct hs_input *in,
		    unsigned int *cls)
{
	struct hs_cand_result a, c;

	if (!against_cand)
		return hs_cand_class(against, cand, in, cls);
	a = hs_cand_score(against_cand, in);
	c = hs_cand_score(cand, in);
	*cls = cand_code(&a) * HS_NR_CAND_CODES + cand_code(&c);
	if (a.trap == HS_CAND_HANG || c.trap == HS_CAND_HANG)
		return true;
	if (a.trap || c.trap)
		return a.trap != c.trap;
	return a.hot != c.hot || a.cold != c.cold;
}

/**
 * hs_cand_class_hangs() - whether class @cls (of hs_cand_versus()) holds a
 * hang: the candidate's, or a candidate against's.
 * @cls:	the class.
 * @against_cand: whether the run was against a candidate.
 */
bool hs_cand_class_hangs(unsigned int cls, bool against_cand)
{
	return cls % HS_NR_CAND_CODES == HS_CAND_CODE_HANG ||
	       (against_cand && cls / HS_NR_CAND_CODES == HS_CAND_CODE_HANG);
}

struct cand_pred {
	const struct hs_components *against;
	const struct hs_cand *against_cand, *cand;
	unsigned int cls;
};

static bool differs_so(const struct hs_input *in, const void *ctx)
{
	const struct cand_pred *p = ctx;
	unsigned int cls;

	return hs_cand_versus(p->against, p->against_cand, p->cand, in,
			      &cls) && cls == p->cls;
}

/**
 * hs_cand_shrink_versus() - make an example of class @cls small and round:
 * fields as in @prefer where the difference stays the same kind.
 * @against:	the profile (used when @against_cand is NULL).
 * @against_cand: the candidate compared with instead, or NULL.
 * @cand:	the candidate.
 * @cls:	the class, as hs_cand_versus() gives it.
 * @in:		the example; shrunk in place.
 * @prefer:	the values to try first (`hotscore score`'s defaults).
 */
void hs_cand_shrink_versus(const struct hs_components *against,
			   const struct hs_cand *against_cand,
			   const struct hs_cand *cand, unsigned int cls,
			   struct hs_input *in, const struct hs_input *prefer)
{
	struct cand_pred p = { against, against_cand, cand, cls };

	hs_cand_watch_begin();
	/* each try that still hangs costs the limit: as few as can be */
	if (hs_cand_class_hangs(cls, against_cand != NULL) && prefer)
		hs_shrink_to_one(in, prefer, differs_so, &p);
	hs_shrink(in, prefer, differs_so, &p);
	hs_cand_watch_end();
}

/**
 * hs_cand_shrink() - hs_cand_shrink_versus() against a profile.
 * @against:	the profile.
 * @cand:	the candidate.
 * @cls:	the class, as hs_cand_class() gives it.
 * @in:		the example; shrunk in place.
 * @prefer:	the values to try first (`hotscore score`'s defaults).
 */
void hs_cand_shrink(const struct hs_components *against,
		    const struct hs_cand *cand, unsigned int cls,
		    struct hs_input *in, const struct hs_input *prefer)
{
	hs_cand_shrink_versus(against, NULL, cand, cls, in, prefer);
}

/**
 * hs_cand_code_name() - "ok", "out-of-range", "trap(SIGFPE)", "trap",
 * "hang".
 * @code:	a candidate's status code, 0 to HS_NR_CAND_CODES - 1.
 */
const char *hs_cand_code_name(unsigned int code)
{
	static const char *const names[HS_NR_CAND_CODES] = {
		"ok", "out-of-range", "trap(SIGFPE)", "trap(SIGSEGV...)",
		"hang",
	};

	return code < HS_NR_CAND_CODES ? names[code] : "?";
}

static bool stopping(struct job *job)
{
	return __atomic_load_n(&job->stop, __ATOMIC_RELAXED);
}

/* An input on which they differ, in class @cls; a hang ends the run. */
static void differ(struct worker *w, const struct hs_input *in,
		   enum hs_cand_domain dom, uint64_t pos, unsigned int cls)
{
	struct hs_example *ex = &w->acc.ex[cls];
	uint64_t order = ((uint64_t)dom << DOM_SHIFT) | pos;

	w->acc.count[cls]++;
	if (!ex->found || order < ex->order) {
		ex->found = true;
		ex->order = order;
		ex->in = *in;
	}
	if (hs_cand_class_hangs(cls, w->job->cfg->against_cand != NULL))
		__atomic_store_n(&w->job->stop, 1, __ATOMIC_RELAXED);
}

static void check(struct worker *w, const struct hs_input *in,
		  enum hs_cand_domain dom, uint64_t pos)
{
	const struct hs_cand_verify_config *cfg = w->job->cfg;
	unsigned int cls;

	if (!hs_cand_versus(&cfg->against, cfg->against_cand, cfg->cand, in,
			    &cls)) {
		w->acc.agree++;
		return;
	}
	differ(w, in, dom, pos, cls);
}

struct sweep {
	const struct hs_cand *cand;
	struct hs_input in;
	unsigned int from, n;
	int *hot;
	volatile unsigned int at;
};

/*
 * age_in_log of @age in sweep @k: age_in_sec is the age itself at aggr 1 s,
 * a tenth of it at 100 ms (constants, so no division at run time).
 */
static inline int sweep_log(unsigned int k, uint32_t age)
{
	uint32_t sec = k ? age / 10 : age;

	return sec ? 32 - __builtin_clz(sec) : 0;
}

/* Count the agreeing ages of [from, to); check the others one by one. */
static void sweep_compare(struct worker *w, const struct unit *u,
			  unsigned int k, const struct sweep *s,
			  unsigned int from, unsigned int to)
{
	const int *expect = w->job->expect[k];
	struct hs_input in = sweep_in[k];
	unsigned int i;

	for (i = from; i < to; i++) {
		uint32_t age = s->from + i;

		if (s->hot[i] == expect[sweep_log(k, age)]) {
			w->acc.agree++;
			continue;
		}
		in.age = age;
		check(w, &in, u->dom, age);
	}
}

/*
 * A run of ages through the candidate's own loop; where its hot is not
 * the expected one, or it trapped, the input is checked one by one.  A
 * hang is not called again: it ends the run.
 */
static void run_sweep(struct worker *w, const struct unit *u)
{
	const struct hs_cand_verify_config *cfg = w->job->cfg;
	unsigned int k = u->dom == HS_CDOM_AGES ? 0 : 1;
	struct sweep s = { cfg->cand, sweep_in[k],
			   (unsigned int)u->arg, (unsigned int)u->n, w->hot, 0 };
	struct hs_input in = sweep_in[k];
	struct hs_result m;
	int why;

	while (s.at < s.n) {
		unsigned int start = s.at;

		why = hs_cand_sweep_ages(s.cand, &s.in, s.from, s.n, s.hot,
					 &s.at);
		if (!why) {
			sweep_compare(w, u, k, &s, start, s.n);
			break;
		}
		/* trapped at s.at: what came before it, then the trap */
		sweep_compare(w, u, k, &s, start, s.at);
		in.age = s.from + s.at;
		if (why == HS_CAND_HANG) {
			m = hs_score(&cfg->against, &in, NULL);
			differ(w, &in, u->dom, in.age, hs_status_code(&m) *
			       HS_NR_CAND_CODES + HS_CAND_CODE_HANG);
			w->acc.inputs[u->dom] += s.at + 1;
			return;
		}
		check(w, &in, u->dom, in.age);
		s.at++;
	}
	w->acc.inputs[u->dom] += u->n;
}

/*
 * One candidate's sweep of @n ages into @hot, a trap marked in @trapped
 * and stepped over.  Return where it hung, or @n.
 */
static unsigned int sweep_fill(const struct hs_cand *c,
			       const struct hs_input *in, unsigned int from,
			       unsigned int n, int *hot,
			       unsigned char *trapped)
{
	volatile unsigned int at = 0;
	int why;

	memset(trapped, 0, n);
	while (at < n) {
		why = hs_cand_sweep_ages(c, in, from, n, hot, &at);
		if (!why)
			break;
		if (why == HS_CAND_HANG)
			return at;
		trapped[at++] = 1;
	}
	return n;
}

/*
 * A run of ages against a candidate: both sweeps, each through its own
 * loop; an age where they differ or either trapped is checked one by one,
 * and so is the first that hung (which ends the run).
 */
static void run_sweep_pair(struct worker *w, const struct unit *u)
{
	const struct hs_cand_verify_config *cfg = w->job->cfg;
	struct hs_input in = sweep_in[u->dom == HS_CDOM_AGES ? 0 : 1];
	unsigned int from = (unsigned int)u->arg, n = (unsigned int)u->n;
	unsigned int end, end2, i;

	end = sweep_fill(cfg->cand, &in, from, n, w->hot, w->trapped);
	end2 = sweep_fill(cfg->against_cand, &in, from, end, w->hot2,
			  w->trapped2);
	end = end2 < end ? end2 : end;
	for (i = 0; i < end; i++) {
		if (!w->trapped[i] && !w->trapped2[i] &&
		    w->hot[i] == w->hot2[i]) {
			w->acc.agree++;
			continue;
		}
		in.age = from + i;
		check(w, &in, u->dom, in.age);
	}
	if (end < n) {
		in.age = from + end;
		check(w, &in, u->dom, in.age);
		end++;
	}
	w->acc.inputs[u->dom] += end;
}

static void run_unit(struct worker *w, const struct unit *u)
{
	const struct hs_cand_verify_config *cfg = w->job->cfg;
	struct hs_input in;
	uint64_t i;
	size_t n;

	switch (u->dom) {
	case HS_CDOM_AGES:
	case HS_CDOM_AGES_DEFAULT:
		if (!cfg->quick && cfg->against_cand) {
			run_sweep_pair(w, u);
			return;
		}
		if (!cfg->quick) {
			run_sweep(w, u);
			return;
		}
		in = sweep_in[u->dom == HS_CDOM_AGES ? 0 : 1];
		for (i = 0; i < w->job->nr_quick && !stopping(w->job); i++) {
			in.age = w->job->quick[i];
			check(w, &in, u->dom, in.age);
		}
		w->acc.inputs[u->dom] += i;
		return;
	case HS_CDOM_GRID:
		n = hs_grid_unit((unsigned int)u->arg, cfg->quick, true, w->buf);
		for (i = 0; i < n && !stopping(w->job); i++)
			check(w, &w->buf[i], u->dom, u->arg << 24 | i);
		w->acc.inputs[u->dom] += i;
		return;
	default:
		for (i = u->arg; i < u->arg + u->n && !stopping(w->job); i++) {
			hs_random_input(cfg->seed, i, &in);
			check(w, &in, u->dom, i);
		}
		w->acc.inputs[u->dom] += i - u->arg;
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct job *job = w->job;
	unsigned long k;

	hs_cand_watch_begin();	/* one timer for the thread's calls */
	while (!stopping(job) &&
	       (k = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED)) <
	       job->nr_units) {
		uint64_t t0 = hs_verify_now_ns();

		run_unit(w, &job->units[k]);
		hs_verify_stamp(&job->lock, &job->start_ns[job->units[k].dom],
				&job->end_ns[job->units[k].dom], t0,
				hs_verify_now_ns());
		__atomic_fetch_add(&job->done, 1, __ATOMIC_RELEASE);
	}
	hs_cand_watch_end();
	return NULL;
}

static unsigned int make_units(struct job *job)
{
	const struct hs_cand_verify_config *cfg = job->cfg;
	unsigned int n = 0, d, g, grid = hs_grid_units(true);
	uint64_t i, sweep = cfg->quick ? 1 : (1ULL << 32) / SWEEP_UNIT;

	job->units = calloc(2 * sweep + grid + cfg->random / RANDOM_UNIT + 1,
			    sizeof(*job->units));
	if (!job->units)
		return 0;
	for (d = HS_CDOM_AGES; d <= HS_CDOM_AGES_DEFAULT; d++)
		for (i = 0; i < sweep; i++)
			job->units[n++] = (struct unit){ d, i * SWEEP_UNIT,
							 SWEEP_UNIT };
	for (g = 0; g < grid; g++)
		job->units[n++] = (struct unit){ HS_CDOM_GRID, g, 0 };
	for (i = 0; i < cfg->random; i += RANDOM_UNIT)
		job->units[n++] = (struct unit){ HS_CDOM_RANDOM, i,
			cfg->random - i < RANDOM_UNIT ? cfg->random - i :
			RANDOM_UNIT };
	return n;
}

/* The profile's hot at each age_in_log of each sweep. */
static void expectations(struct job *job)
{
	const struct hs_components *c = &job->cfg->against;
	struct hs_input in;
	unsigned int k, l;

	for (k = 0; k < 2; k++)
		for (l = 0; l <= 32; l++) {
			uint64_t sec = l ? 1ULL << (l - 1) : 0;

			in = sweep_in[k];
			/* the smallest age with this age_in_sec */
			in.age = (uint32_t)((sec * 1000000 + in.aggr_us - 1) /
					    in.aggr_us);
			if ((uint64_t)in.age * in.aggr_us / 1000000 != sec) {
				job->expect[k][l] = INT32_MIN;	/* unreachable */
				continue;
			}
			job->expect[k][l] = hs_score(c, &in, NULL).hot;
		}
}

static void merge(struct hs_cand_verify_result *res, const struct acc *a)
{
	unsigned int k;

	for (k = 0; k < HS_NR_CDOMAINS; k++)
		res->inputs[k] += a->inputs[k];
	res->agree += a->agree;
	for (k = 0; k < HS_NR_CAND_CLASSES; k++) {
		res->count[k] += a->count[k];
		if (a->ex[k].found && (!res->ex[k].found ||
				       a->ex[k].order < res->ex[k].order))
			res->ex[k] = a->ex[k];
	}
}

static void watch(struct job *job, unsigned int threads)
{
	const struct hs_cand_verify_config *cfg = job->cfg;
	struct timespec pause = { 0, 200000000 };
	struct hs_verify_progress p = { .total = job->nr_units };
	uint64_t t0 = hs_verify_now_ns();

	(void)threads;
	while ((p.done = __atomic_load_n(&job->done, __ATOMIC_ACQUIRE)) <
	       job->nr_units && !stopping(job)) {
		if (cfg->progress) {
			p.seconds = (double)(hs_verify_now_ns() - t0) / 1e9;
			cfg->progress(cfg->ctx, &p);
		}
		nanosleep(&pause, NULL);
	}
}

/* Against a candidate, a full run sweeps both: room for the second. */
static int worker_pair_bufs(struct worker *w,
			    const struct hs_cand_verify_config *cfg)
{
	if (!cfg->against_cand || cfg->quick)
		return 0;
	w->hot2 = calloc(SWEEP_UNIT, sizeof(*w->hot2));
	w->trapped = calloc(SWEEP_UNIT, 1);
	w->trapped2 = calloc(SWEEP_UNIT, 1);
	return w->hot2 && w->trapped && w->trapped2 ? 0 : -1;
}

/**
 * hs_cand_verify() - compare a candidate with a profile, or with another
 * candidate, over the four domains, with @cfg->threads threads.
 * @cfg:	what to compare.
 * @res:	receives the counts and the first example of each class.
 *
 * Return: 0, or -1 if memory or threads ran out.
 */
int hs_cand_verify(const struct hs_cand_verify_config *cfg,
		   struct hs_cand_verify_result *res)
{
	struct job job = { .cfg = cfg };
	struct worker *w = calloc(cfg->threads, sizeof(*w));
	unsigned int t, started = 0, k;
	int err = -1;

	memset(res, 0, sizeof(*res));
	hs_domain_init();
	pthread_mutex_init(&job.lock, NULL);
	expectations(&job);
	job.quick = calloc(HS_AGELOG_QUICK_MAX, sizeof(*job.quick));
	if (!w || !job.quick)
		goto out;
	job.nr_quick = hs_agelog_quick_values(job.quick);
	job.nr_units = make_units(&job);
	if (!job.nr_units)
		goto out;
	for (t = 0; t < cfg->threads; t++) {
		w[t].job = &job;
		w[t].buf = calloc(HS_GRID_UNIT_MAX, sizeof(*w[t].buf));
		w[t].hot = calloc(SWEEP_UNIT, sizeof(*w[t].hot));
		if (!w[t].buf || !w[t].hot || worker_pair_bufs(&w[t], cfg))
			break;
		if (pthread_create(&w[t].tid, NULL, worker_main, &w[t]))
			break;
		started++;
	}
	if (started < cfg->threads) {
		__atomic_store_n(&job.next, job.nr_units, __ATOMIC_RELAXED);
		for (t = 0; t < started; t++)
			pthread_join(w[t].tid, NULL);
		goto out;
	}
	watch(&job, cfg->threads);
	for (t = 0; t < cfg->threads; t++) {
		pthread_join(w[t].tid, NULL);
		merge(res, &w[t].acc);
	}
	for (k = 0; k < HS_NR_CDOMAINS; k++)
		res->seconds[k] = job.end_ns[k] > job.start_ns[k] ?
			(double)(job.end_ns[k] - job.start_ns[k]) / 1e9 : 0;
	res->stopped = job.stop;
	err = 0;
out:
	for (t = 0; w && t < cfg->threads; t++) {
		free(w[t].buf);
		free(w[t].hot);
		free(w[t].hot2);
		free(w[t].trapped);
		free(w[t].trapped2);
	}
	free(w);
	free(job.units);
	free(job.quick);
	pthread_mutex_destroy(&job.lock);
	return err;
}
