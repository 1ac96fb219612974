// SPDX-License-Identifier: GPL-2.0
/*
 * verify.c - verify's work, spread over threads.
 *
 * The domains are cut into units (2^24 age_in_sec values, one grid cell of
 * intervals x weights x moving-sum state, 65,536 random inputs); threads
 * take the next unit from an atomic counter and keep their own counts.
 * Counts are added up at the end and each example is the smallest in
 * domain order, so the result does not depend on the number of threads.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hotscore/score_fast.h>

#include "domain.h"
#include "verify_internal.h"

#define AGELOG_UNIT (1ULL << 24)
#define RANDOM_UNIT 65536ULL
/* grid inputs the batch scorers take at a time (batch_check()) */
#define BATCH_CHUNK 1024

struct unit {
	enum hs_domain dom;
	uint64_t arg;		/* first value, grid cell or first index */
	uint64_t n;		/* items */
	uint64_t order;		/* of its first item, in its domain */
	uint64_t cost;		/* estimated, for the progress bar's ETA */
};

/*
 * Relative cost of an item: an age_in_sec through every way is 1; an input
 * through every profile, its pairs and its invariants costs about 5 per
 * profile (6 for a random input, which is made first).  From the measured
 * rates in docs/PERFORMANCE.md.
 */
static uint64_t item_cost(enum hs_domain d, unsigned int nr_profiles)
{
	return d == HS_DOM_AGELOG ? 1 : (d == HS_DOM_GRID ? 5 : 6) *
					 (uint64_t)nr_profiles;
}

struct job {
	const struct hs_verify_config *cfg;
	uint64_t domain_total[HS_NR_DOMAINS];
	struct unit *units;
	unsigned int nr_units;
	bool mvsum;
	unsigned long next, done_units;	/* atomics */
	uint64_t done_items, done_cost;	/* atomics */
	pthread_mutex_t lock;
	uint64_t start_ns[HS_NR_DOMAINS], end_ns[HS_NR_DOMAINS];
	uint32_t *quick_values;
	size_t nr_quick_values;
};

struct acc {
	struct hs_agelog_stats agelog;
	uint64_t inputs[HS_NR_DOMAINS];
	struct hs_pair_stats pair[HS_VERIFY_MAX_PROFILES][HS_VERIFY_MAX_PROFILES];
	struct hs_inv_stats inv[HS_VERIFY_MAX_PROFILES][HS_NR_INVARIANTS];
	struct hs_fast_stats fast[HS_VERIFY_MAX_PROFILES];
};

struct worker {
	struct job *job;
	struct acc *acc;
	struct hs_input *buf;
	struct hs_prep *prep;		/* per profile, cfg->fast */
	bool prepared[HS_VERIFY_MAX_PROFILES];
	struct hs_input block;		/* the random block's scheme */
	/*
	 * cfg->batch_impls: the model's results of the last @kept grid
	 * inputs, [profile * BATCH_CHUNK + k], and the batch's arrays
	 */
	struct hs_result *model;
	size_t kept;
	unsigned int *nr, *last, *age;
	int *hot;
	pthread_t tid;
};

/** hs_verify_now_ns() - CLOCK_MONOTONIC in ns, for the runs' timings. */
uint64_t hs_verify_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void keep_first(struct hs_example *ex, uint64_t order,
		       const struct hs_input *in)
{
	if (!ex->found || order < ex->order) {
		ex->found = true;
		ex->order = order;
		ex->in = *in;
	}
}

/* Profile @a reads nr_accesses_bp. */
static bool reads_bp(const struct hs_verify_config *cfg, unsigned int a)
{
	return cfg->comp[a].freq == HS_FREQ_BP;
}

/* Profile @a reads the grid's state: the moving sum's, or bp. */
static bool reads_state(const struct hs_verify_config *cfg, unsigned int a)
{
	return cfg->comp[a].freq == HS_FREQ_MVSUM || reads_bp(cfg, a);
}

/*
 * @in with nr_accesses_bp at its default: the example kept where no
 * profile involved reads it, so that a reproducer names it only where it
 * matters.
 */
static const struct hs_input *plain(const struct hs_input *in,
				    struct hs_input *buf)
{
	*buf = *in;
	buf->nr_accesses_bp = hs_bp_of_nr(in->nr_accesses);
	return buf;
}

/*
 * The prepared scorer of profile @a on @in against the model's @model.
 * The scheme is prepared again only when @in's differs from the last one.
 */
static void fast_check(struct worker *w, unsigned int a,
		       const struct hs_input *in, uint64_t order,
		       const struct hs_result *model, enum hs_domain dom)
{
	struct hs_fast_stats *fs = &w->acc->fast[a];
	struct hs_prep *p = &w->prep[a];
	struct hs_result r;

	const struct hs_verify_config *cfg = w->job->cfg;

	if (!w->prepared[a] || !hs_prep_matches(p, in)) {
		hs_prep_init(p, &cfg->comp[(a + cfg->fast_rotate) % cfg->nr],
			     in);
		w->prepared[a] = true;
		fs->schemes[dom]++;
	}
	r = hs_fast_score(p, hs_fast_nr_of(&p->comp, in), in->last_nr_accesses,
			  in->age);
	fs->inputs[dom]++;
	if (!hs_fast_same(model, &r)) {
		fs->mismatches++;
		keep_first(&fs->ex, order, in);
	}
}

/*
 * The random domain's prepared-scorer check: random input @i's region
 * under the scheme of the first input of its block (HS_FAST_RANDOM_BLOCK).
 */
static void fast_random(struct worker *w, uint64_t i, const struct hs_input *in)
{
	const struct hs_verify_config *cfg = w->job->cfg;
	struct hs_input h, p;
	struct hs_result model;
	unsigned int a;

	if (i % HS_FAST_RANDOM_BLOCK == 0) {	/* a new scheme, always */
		w->block = *in;
		memset(w->prepared, 0, sizeof(w->prepared));
	}
	h = w->block;
	h.nr_accesses = in->nr_accesses;
	h.nr_accesses_bp = in->nr_accesses_bp;
	h.last_nr_accesses = in->last_nr_accesses;
	h.age = in->age;
	for (a = 0; a < cfg->nr; a++) {
		model = hs_score(&cfg->comp[a], &h, NULL);
		fast_check(w, a, reads_bp(cfg, a) ? &h : plain(&h, &p),
			   (2ULL << 62) | i, &model, HS_DOM_RANDOM);
	}
}

/*
 * Every profile on @in: pairs compared, invariants checked.  With
 * @mvsum_only (a grid unit that varies only the moving-sum state and bp),
 * a raw profile would repeat what state 0 found: only the moving-sum and bp
 * profiles' invariants and the pairs that include one are checked.  With
 * @fast, each profile's prepared scorer is compared with it on @in.
 */
static void check_input(struct worker *w, const struct hs_input *in,
			uint64_t order, bool mvsum_only, bool fast)
{
	const struct hs_verify_config *cfg = w->job->cfg;
	struct acc *acc = w->acc;
	struct hs_eval e[HS_VERIFY_MAX_PROFILES];
	bool mv[HS_VERIFY_MAX_PROFILES], bp[HS_VERIFY_MAX_PROFILES];
	struct hs_input buf;
	const struct hs_input *pl = plain(in, &buf);
	unsigned int a, b, inv;
	bool checked;

	for (a = 0; a < cfg->nr; a++) {
		mv[a] = reads_state(cfg, a);
		bp[a] = reads_bp(cfg, a);
		if (mvsum_only && !mv[a])
			e[a].r = hs_score(&cfg->comp[a], in, NULL);
		else
			hs_eval(&cfg->comp[a], in, &e[a]);
	}
	for (a = 0; a < cfg->nr; a++) {
		for (b = a + 1; b < cfg->nr; b++) {
			struct hs_pair_stats *ps = &acc->pair[a][b];
			unsigned int cls;

			if (mvsum_only && !mv[a] && !mv[b])
				continue;
			ps->inputs++;
			if (hs_eval_same(&e[a], &e[b])) {
				ps->agree++;
				continue;
			}
			cls = hs_pair_code(&e[a].r, &e[b].r);
			ps->count[cls]++;
			keep_first(&ps->ex[cls], order,
				   bp[a] || bp[b] ? in : pl);
		}
		if (mvsum_only && !mv[a])
			continue;
		if (fast)
			fast_check(w, a, bp[a] ? in : pl, order, &e[a].r,
				   HS_DOM_GRID);
		if (fast && w->model)	/* for batch_check() */
			w->model[a * BATCH_CHUNK + w->kept] = e[a].r;
		for (inv = 0; inv < HS_NR_INVARIANTS; inv++) {
			struct hs_inv_stats *is = &acc->inv[a][inv];

			if (hs_eval_violates(&e[a], inv, &checked)) {
				is->violations++;
				keep_first(&is->ex, order, bp[a] ? in : pl);
			}
			is->checked += checked;
		}
	}
}

/* Note the first batch scorer's difference, in domain order. */
static void batch_differs(struct hs_fast_stats *fs, enum hs_fast_impl impl,
			  uint64_t order, const struct hs_input *in)
{
	fs->batch_mismatches[impl]++;
	if (!fs->batch_ex.found || order < fs->batch_ex.order)
		fs->batch_impl = impl;
	keep_first(&fs->batch_ex, order, in);
}

/*
 * Batch scorer @impl on the @n inputs @in with profile @a's prepared
 * scheme, against the model's results: each score, and the batch's status,
 * which is out of range if any score is (a difference in the status alone
 * is the first region whose model status is not ok, or the first region).
 */
static void batch_compare(struct worker *w, unsigned int a,
			  enum hs_fast_impl impl, const struct hs_input *in,
			  size_t n, uint64_t order)
{
	struct hs_fast_stats *fs = &w->acc->fast[a];
	const struct hs_result *m = w->model + a * BATCH_CHUNK;
	struct hs_fast_regions r = { w->nr, w->last, w->age };
	enum hs_status st, want = HS_OK;
	uint64_t before = fs->batch_mismatches[impl];
	size_t i, blame = 0;

	st = hs_fast_batch_with(impl, &w->prep[a], &r, n, w->hot);
	for (i = 0; i < n; i++) {
		if (m[i].status != HS_OK && want == HS_OK) {
			want = m[i].status;
			blame = i;
		}
		if (st == HS_DIV0 ? m[i].status != HS_DIV0 :
		    m[i].status == HS_DIV0 || w->hot[i] != m[i].hot)
			batch_differs(fs, impl, order + i, &in[i]);
	}
	if (fs->batch_mismatches[impl] == before && st != want)
		batch_differs(fs, impl, order + blame, &in[blame]);
	fs->batch[impl] += n;
}

/*
 * Every batch scorer of cfg->batch_impls on the last w->kept grid inputs,
 * @in on, whose model results check_input() kept: one grid unit has one
 * scheme, which fast_check() prepared for each profile it checked.
 */
static void batch_check(struct worker *w, const struct hs_input *in,
			uint64_t order, bool mvsum_only)
{
	const struct hs_verify_config *cfg = w->job->cfg;
	size_t n = w->kept, i;
	unsigned int a, impl;

	for (i = 0; i < n; i++) {
		w->last[i] = in[i].last_nr_accesses;
		w->age[i] = in[i].age;
	}
	w->kept = 0;
	for (a = 0; a < cfg->nr; a++) {
		if (!w->prepared[a] || (mvsum_only && !reads_state(cfg, a)))
			continue;
		for (i = 0; i < n; i++)	/* bp, or nr_accesses */
			w->nr[i] = hs_fast_nr_of(&w->prep[a].comp, &in[i]);
		for (impl = 0; impl < HS_NR_FAST_IMPLS; impl++)
			if (cfg->batch_impls & (1u << impl))
				batch_compare(w, a, impl, in, n, order);
	}
}

static void run_grid(struct worker *w, const struct unit *u)
{
	const struct hs_verify_config *cfg = w->job->cfg;
	unsigned int g = (unsigned int)u->arg;
	bool mv = hs_grid_unit_mv(g, w->job->mvsum) != 0;
	size_t n = hs_grid_unit(g, cfg->quick, w->job->mvsum, w->buf);
	uint64_t order = (1ULL << 62) | u->order;	/* of input 0 */
	size_t i, from = 0;

	for (i = 0; i < n; i++) {
		check_input(w, &w->buf[i], order + i, mv, cfg->fast);
		if (w->model && ++w->kept == BATCH_CHUNK) {
			batch_check(w, w->buf + from, order + from, mv);
			from = i + 1;
		}
	}
	if (w->model && w->kept)
		batch_check(w, w->buf + from, order + from, mv);
}

static void run_unit(struct worker *w, const struct unit *u)
{
	const struct hs_verify_config *cfg = w->job->cfg;
	struct hs_input in;
	uint64_t i;

	/* no scheme carried over from another unit: counts do not depend
	 * on which thread ran what */
	memset(w->prepared, 0, sizeof(w->prepared));
	switch (u->dom) {
	case HS_DOM_AGELOG:
		if (cfg->quick) {
			for (i = 0; i < w->job->nr_quick_values; i++)
				hs_agelog_sweep(w->job->quick_values[i], 1,
						&w->acc->agelog);
		} else {
			hs_agelog_sweep(u->arg, u->n, &w->acc->agelog);
		}
		break;
	case HS_DOM_GRID:
		run_grid(w, u);
		break;
	default:
		for (i = 0; i < u->n; i++) {
			hs_random_input(cfg->seed, u->arg + i, &in);
			check_input(w, &in, (2ULL << 62) | (u->arg + i),
				    false, false);
			if (cfg->fast)
				fast_random(w, u->arg + i, &in);
		}
		break;
	}
	w->acc->inputs[u->dom] += u->n;
}

/**
 * hs_verify_stamp() - widen a domain's span [*@start, *@end] to [@t0, @t1]
 * under @lock: a domain's time runs from its first unit's start to its
 * last unit's end, whichever worker ran them.
 * @lock:	the job's lock.
 * @start:	the domain's start, 0 before its first unit.
 * @end:	its end.
 * @t0:		a unit's start.
 * @t1:		its end.
 */
void hs_verify_stamp(pthread_mutex_t *lock, uint64_t *start, uint64_t *end,
		     uint64_t t0, uint64_t t1)
{
	pthread_mutex_lock(lock);
	if (!*start || t0 < *start)
		*start = t0;
	if (t1 > *end)
		*end = t1;
	pthread_mutex_unlock(lock);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct job *job = w->job;
	unsigned long k;

	while ((k = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED)) <
	       job->nr_units) {
		const struct unit *u = &job->units[k];
		uint64_t t0 = hs_verify_now_ns();

		run_unit(w, u);
		hs_verify_stamp(&job->lock, &job->start_ns[u->dom],
				&job->end_ns[u->dom], t0, hs_verify_now_ns());
		__atomic_fetch_add(&job->done_items, u->n, __ATOMIC_RELAXED);
		__atomic_fetch_add(&job->done_cost, u->cost, __ATOMIC_RELAXED);
	}
	__atomic_fetch_add(&job->done_units, 1, __ATOMIC_RELEASE);
	return NULL;
}

static unsigned int make_units(struct job *job, struct unit **out)
{
	const struct hs_verify_config *cfg = job->cfg;
	unsigned int nr_grid = hs_grid_units(job->mvsum), n = 0, g;
	uint64_t nr_age = cfg->quick ? 1 : (1ULL << 32) / AGELOG_UNIT;
	uint64_t nr_rand = (cfg->random + RANDOM_UNIT - 1) / RANDOM_UNIT, i;
	uint64_t order = 0;
	struct unit *u = calloc(nr_age + nr_grid + nr_rand, sizeof(*u));

	if (!u)
		return 0;
	for (i = 0; i < nr_age; i++)
		u[n++] = (struct unit){ .dom = HS_DOM_AGELOG,
			.arg = i * AGELOG_UNIT,
			.n = cfg->quick ? job->nr_quick_values : AGELOG_UNIT };
	for (g = 0; g < nr_grid; g++) {
		uint64_t size = hs_grid_unit(g, cfg->quick, job->mvsum, NULL);

		u[n++] = (struct unit){ .dom = HS_DOM_GRID, .arg = g,
					.n = size, .order = order };
		order += size;
	}
	for (i = 0; i < nr_rand; i++) {
		uint64_t first = i * RANDOM_UNIT;
		uint64_t size = cfg->random - first < RANDOM_UNIT ?
				cfg->random - first : RANDOM_UNIT;

		u[n++] = (struct unit){ .dom = HS_DOM_RANDOM, .arg = first,
					.n = size, .order = first };
	}
	*out = u;
	return n;
}

static void merge_example(struct hs_example *to, const struct hs_example *ex)
{
	if (ex->found)
		keep_first(to, ex->order, &ex->in);
}

static void merge_batch(struct hs_fast_stats *to,
			const struct hs_fast_stats *from)
{
	unsigned int k;

	for (k = 0; k < HS_NR_FAST_IMPLS; k++) {
		to->batch[k] += from->batch[k];
		to->batch_mismatches[k] += from->batch_mismatches[k];
	}
	if (from->batch_ex.found && (!to->batch_ex.found ||
				     from->batch_ex.order < to->batch_ex.order))
		to->batch_impl = from->batch_impl;
	merge_example(&to->batch_ex, &from->batch_ex);
}

static void merge(struct hs_verify_result *res, const struct acc *acc,
		  unsigned int nr)
{
	unsigned int a, b, k;

	res->agelog.values += acc->agelog.values;
	res->agelog.ways = acc->agelog.ways ? acc->agelog.ways :
			   res->agelog.ways;
	for (k = 0; k < HS_NR_AGELOG_WAYS; k++) {
		if (acc->agelog.mismatches[k] &&
		    (!res->agelog.mismatches[k] ||
		     acc->agelog.first[k] < res->agelog.first[k]))
			res->agelog.first[k] = acc->agelog.first[k];
		res->agelog.mismatches[k] += acc->agelog.mismatches[k];
	}
	for (k = 0; k < HS_NR_DOMAINS; k++)
		res->inputs[k] += acc->inputs[k];
	for (a = 0; a < nr; a++) {
		for (b = a + 1; b < nr; b++) {
			struct hs_pair_stats *to = &res->pair[a][b];
			const struct hs_pair_stats *from = &acc->pair[a][b];

			to->inputs += from->inputs;
			to->agree += from->agree;
			for (k = 0; k < HS_NR_PAIR_CLASSES; k++) {
				to->count[k] += from->count[k];
				merge_example(&to->ex[k], &from->ex[k]);
			}
		}
		for (k = 0; k < HS_NR_DOMAINS; k++)
			res->fast[a].inputs[k] += acc->fast[a].inputs[k];
		for (k = 0; k < HS_NR_DOMAINS; k++)
			res->fast[a].schemes[k] += acc->fast[a].schemes[k];
		res->fast[a].mismatches += acc->fast[a].mismatches;
		merge_example(&res->fast[a].ex, &acc->fast[a].ex);
		merge_batch(&res->fast[a], &acc->fast[a]);
		for (k = 0; k < HS_NR_INVARIANTS; k++) {
			res->inv[a][k].checked += acc->inv[a][k].checked;
			res->inv[a][k].violations += acc->inv[a][k].violations;
			merge_example(&res->inv[a][k].ex, &acc->inv[a][k].ex);
		}
	}
}

/* Report progress until every worker has finished. */
static void watch(struct job *job, unsigned int threads, uint64_t total,
		  uint64_t t0)
{
	const struct hs_verify_config *cfg = job->cfg;
	struct timespec pause = { 0, 200000000 };
	struct hs_verify_progress p = { .total = total };
	uint64_t before, items;

	while (__atomic_load_n(&job->done_units, __ATOMIC_ACQUIRE) < threads) {
		if (cfg->progress) {
			p.done = __atomic_load_n(&job->done_cost,
						 __ATOMIC_RELAXED);
			items = __atomic_load_n(&job->done_items,
						__ATOMIC_RELAXED);
			p.seconds = (double)(hs_verify_now_ns() - t0) / 1e9;
			/* the units run in domain order: find ours */
			for (p.domain = 0, before = 0;
			     p.domain + 1 < HS_NR_DOMAINS &&
			     items >= before + job->domain_total[p.domain];
			     p.domain++)
				before += job->domain_total[p.domain];
			p.domain_total = job->domain_total[p.domain];
			p.domain_done = items - before < p.domain_total ?
					items - before : p.domain_total;
			cfg->progress(cfg->ctx, &p);
		}
		nanosleep(&pause, NULL);
	}
}

/*
 * The job's units and their costs (what the progress line weighs), and
 * the values of --quick.  Return: 0, or -1 when memory ran out.
 */
static int plan_job(struct job *job, uint64_t *total)
{
	const struct hs_verify_config *cfg = job->cfg;
	unsigned int k;

	for (k = 0; k < cfg->nr; k++)
		job->mvsum |= reads_state(cfg, k);
	job->quick_values = calloc(HS_AGELOG_QUICK_MAX, sizeof(uint32_t));
	if (!job->quick_values)
		return -1;
	job->nr_quick_values = hs_agelog_quick_values(job->quick_values);
	job->nr_units = make_units(job, &job->units);
	if (!job->nr_units)
		return -1;
	*total = 0;
	for (k = 0; k < job->nr_units; k++) {
		job->units[k].cost = job->units[k].n *
				     item_cost(job->units[k].dom, cfg->nr);
		*total += job->units[k].cost;
		job->domain_total[job->units[k].dom] += job->units[k].n;
	}
	return 0;
}

/*
 * A worker's room for batch_check(), when the batch scorers are checked.
 * Return: 0, or -1 when memory ran out.
 */
static int batch_scratch(struct worker *w)
{
	const struct hs_verify_config *cfg = w->job->cfg;

	if (!cfg->fast || !cfg->batch_impls)
		return 0;
	w->model = calloc((size_t)cfg->nr * BATCH_CHUNK, sizeof(*w->model));
	w->nr = calloc(3 * BATCH_CHUNK, sizeof(*w->nr));
	w->hot = calloc(BATCH_CHUNK, sizeof(*w->hot));
	if (!w->model || !w->nr || !w->hot)
		return -1;	/* the caller frees what was allocated */
	w->last = w->nr + BATCH_CHUNK;
	w->age = w->last + BATCH_CHUNK;
	return 0;
}

/*
 * One thread per worker, each with its scratch.  Fewer threads than asked
 * stop the queue, are waited for, and fail the run.  Return: 0, or -1.
 */
static int start_workers(struct job *job, struct worker *w)
{
	unsigned int t, started = 0, threads = job->cfg->threads;

	for (t = 0; t < threads; t++) {
		w[t].job = job;
		w[t].acc = calloc(1, sizeof(*w[t].acc));
		w[t].buf = calloc(HS_GRID_UNIT_MAX, sizeof(*w[t].buf));
		w[t].prep = calloc(job->cfg->nr, sizeof(*w[t].prep));
		if (batch_scratch(&w[t]) < 0) {
			free(w[t].buf);	/* the start below stops here */
			w[t].buf = NULL;
		}
		if (!w[t].acc || !w[t].buf || !w[t].prep)
			break;
	}
	for (t = 0; t < threads && w[t].buf && w[t].acc && w[t].prep;
	     t++, started++)
		if (pthread_create(&w[t].tid, NULL, worker_main, &w[t]))
			break;
	if (started == threads)
		return 0;
	__atomic_store_n(&job->next, job->nr_units, __ATOMIC_RELAXED);
	for (t = 0; t < started; t++)
		pthread_join(w[t].tid, NULL);
	return -1;
}

/**
 * hs_verify_run() - check every domain with @cfg->threads threads.
 * @cfg:	what to check.
 * @res:	receives the counts and the first example of everything.
 *
 * Return: 0, or -1 if memory or threads ran out.
 */
int hs_verify_run(const struct hs_verify_config *cfg,
		  struct hs_verify_result *res)
{
	struct job job = { .cfg = cfg };
	struct worker *w = calloc(cfg->threads, sizeof(*w));
	uint64_t total, t0 = hs_verify_now_ns();
	unsigned int t, k;
	int err = -1;

	memset(res, 0, sizeof(*res));
	hs_domain_init();
	pthread_mutex_init(&job.lock, NULL);
	if (!w || plan_job(&job, &total) < 0 || start_workers(&job, w) < 0)
		goto out;
	watch(&job, cfg->threads, total, t0);
	for (t = 0; t < cfg->threads; t++) {
		pthread_join(w[t].tid, NULL);
		merge(res, w[t].acc, cfg->nr);
	}
	for (k = 0; k < HS_NR_DOMAINS; k++)
		res->seconds[k] = job.end_ns[k] > job.start_ns[k] ?
			(double)(job.end_ns[k] - job.start_ns[k]) / 1e9 : 0;
	if (cfg->quick)	/* one unit stood for the listed values */
		res->inputs[HS_DOM_AGELOG] = res->agelog.values;
	err = 0;
out:
	for (t = 0; w && t < cfg->threads; t++) {
		free(w[t].acc);
		free(w[t].buf);
		free(w[t].prep);
		free(w[t].model);
		free(w[t].nr);
		free(w[t].hot);
	}
	free(w);
	free(job.units);
	free(job.quick_values);
	pthread_mutex_destroy(&job.lock);
	return err;
}
