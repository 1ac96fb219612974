// SPDX-License-Identifier: GPL-2.0
/*
 * bench_inputs.c - the inputs `hotscore bench` times: each distribution's
 * pool, checked on every variant (and every copy at each placement) before
 * anything is timed, and grouped into classes of equal cost for the
 * per-call table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotscore/cand.h>

#include "cmd_bench.h"
#include "cli.h"

/* inputs kept per cost class: they all cost the same, a few suffice */
#define CLASS_INPUTS 1024UL

/**
 * bench_build_pool() - the mixed stream's pool: an even sample of the
 * distribution's inputs, in the order it makes them (the seed's ages
 * ascend), or a file's rows.
 * @b:		the run.
 * @d:		the distribution.
 */
void bench_build_pool(struct bench *b, struct bench_dist *d)
{
	size_t j;

	if (d->kind == HS_NR_DISTS) {
		d->nr_rows = cli_read_inputs("--dist", d->path, &d->rows,
					     &d->nr_nested);
		if (!d->nr_rows)
			cli_die("--dist: %s: no rows", d->path);
		d->pool = d->rows;
		d->nr_pool = d->nr_rows;
		return;
	}
	d->nr_pool = b->pool;
	d->pool = cli_xcalloc(d->nr_pool, sizeof(*d->pool));
	for (j = 0; j < d->nr_pool; j++)
		hs_dist_input(d->kind, b->seed,
			      (uint64_t)j * b->iterations / d->nr_pool,
			      &d->pool[j]);
}

/* One copy of @var on pool input @j returns the model's @want. */
static void check_copy(const struct hs_variant *var, hs_bench_fn fn, int want,
		       const struct bench_dist *d, size_t j)
{
	int got = fn(&d->pool[j]);

	if (got == want)
		return;
	fprintf(stderr, "hotscore: internal error: variant %s returns %d, the model %d, on input %zu of %s\n",
		var->name, got, want, j, d->name);
	exit(1);
}

/**
 * bench_check_inputs() - every variant, and its copy at each placement, on
 * every pool input before anything is timed: a division by zero would kill
 * the bench with SIGFPE, and a variant that disagrees with the model is not
 * worth timing (lib/test_hash.c's rule).
 * @b:		the run.
 * @d:		the distribution.
 */
void bench_check_inputs(struct bench *b, struct bench_dist *d)
{
	struct hs_result r;
	unsigned int v, pl;
	size_t j;

	hs_cand_watch_begin();	/* one timer for the candidates' calls */
	for (v = 0; v < b->nr_variants; v++) {
		const struct hs_variant *var = b->variants[v];

		for (j = 0; j < d->nr_pool; j++) {
			r = hs_score(&var->comp, &d->pool[j], NULL);
			if (r.status == HS_DIV0)
				cli_die("--dist %s: data row %zu is %s under variant %s; the kernel would trap",
				       d->name, j + 1, hs_status_name(&r),
				       var->name);
			if (b->cand[v])
				bench_pool_vet(b, v, d, j);
			if (var->call != HS_CALL_INPUT)
				continue;	/* bench_vet_calls() */
			check_copy(var, var->fn, r.hot, d, j);
			for (pl = 0; var->placed && pl < b->placements; pl++)
				check_copy(var, var->placed[pl], r.hot, d, j);
		}
	}
	hs_cand_watch_end();
}

/**
 * bench_class_set() - the cost classes of @comp's computation on @d: one
 * set per canonical component combination (every age_in_log method
 * computes the same age_in_log), made on first use.
 * @d:		the distribution.
 * @comp:	the variant's components.
 */
struct bench_classes *bench_class_set(struct bench_dist *d,
				      const struct hs_components *comp)
{
	struct hs_components canon = *comp;
	unsigned int i;

	/* every age_in_log method computes the same age_in_log */
	canon.agelog = HS_AGELOG_ILOG2;
	canon.fls = HS_FLS_ARCH;
	for (i = 0; i < d->nr_sets; i++)
		if (!memcmp(&d->sets[i].canon, &canon, sizeof(canon)))
			return &d->sets[i];
	d->sets[d->nr_sets].canon = canon;
	return &d->sets[d->nr_sets++];
}

static void class_add(struct bench *b, struct bench_class *map[],
		      struct bench_classes *set, const struct hs_input *in,
		      uint64_t count)
{
	unsigned int key = hs_cost_class(&set->canon, in);
	struct bench_class *c = map[key];
	size_t keep = b->pool < CLASS_INPUTS ? b->pool : CLASS_INPUTS;

	if (!c) {
		c = &set->c[set->nr++];
		c->key = key;
		c->inputs = cli_xcalloc(keep, sizeof(*c->inputs));
		map[key] = c;
	}
	c->count += count;
	if (c->nr < keep)
		c->inputs[c->nr++] = *in;
}

/**
 * bench_build_classes() - count the classes over all the iterations: the
 * seed's 10,000,000 ages are counted, not sampled.  A file's rows are
 * cycled over the iterations.
 * @b:		the run.
 * @d:		the distribution.
 * @set:	its class set for the variant (bench_class_set()).
 */
void bench_build_classes(struct bench *b, struct bench_dist *d,
			  struct bench_classes *set)
{
	struct bench_class *map[HS_NR_CLASSES] = { NULL };
	struct hs_input in;
	uint64_t i;

	if (set->c)
		return;
	set->c = cli_xcalloc(HS_NR_CLASSES, sizeof(*set->c));
	if (d->kind == HS_NR_DISTS) {
		for (i = 0; i < d->nr_rows; i++)
			class_add(b, map, set, &d->rows[i],
				  b->iterations / d->nr_rows +
				  (i < b->iterations % d->nr_rows));
		return;
	}
	for (i = 0; i < b->iterations; i++) {
		if (!(i & 0xfffff))
			cli_progress_at((double)i / (double)b->iterations,
					"bench: %s: counting input classes",
					d->name);
		hs_dist_input(d->kind, b->seed, i, &in);
		class_add(b, map, set, &in, 1);
	}
}
