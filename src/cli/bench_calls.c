// SPDX-License-Identifier: GPL-2.0
/*
 * bench_calls.c - the inputs of the variants that do not take a struct
 * hs_input, for each distribution: built and checked by the kernel-safe
 * builder that hotscore.ko uses too (src/bench/calls.c), with calloc()
 * for memory; here its failures become the CLI's messages and statuses.
 */
#include <stdlib.h>
#include <string.h>

#include <hotscore/simd.h>

#include "cmd_bench.h"
#include "cli.h"

static void *xzalloc(void *ctx, size_t nr, size_t size)
{
	(void)ctx;
	return cli_xcalloc(nr, size);
}

static void xfree(void *ctx, void *p)
{
	(void)ctx;
	free(p);
}

/* The CLI's allocator: out of memory exits (cli_xcalloc()). */
const struct hs_alloc bench_alloc = { xzalloc, xfree, NULL };

/* The batch scorer @v's calls are given. */
static hs_batch_fn batch_of(const struct bench *b, const struct hs_variant *v)
{
	return v->vector ? hs_fast_batch_for(b->simd) : hs_fast_batch;
}

/* Which scorer that is on @c's scheme, for the report. */
static enum hs_fast_impl impl_of(const struct bench *b,
				 const struct hs_variant *v,
				 const struct hs_calls *c)
{
	/* what hs_fast_batch_for(b->simd) does with this scheme */
	return v->vector ? hs_fast_batch_impl(b->simd, c->prep) :
			   HS_FAST_SCALAR;
}

/**
 * bench_build_calls() - every variant's inputs for distribution @d.
 * @b:	the bench, its variants chosen.
 * @d:	the distribution, its pool built.
 *
 * Bad input (rows that do not share one scheme) exits with status 2.
 */
void bench_build_calls(struct bench *b, struct bench_dist *d)
{
	unsigned int v;
	size_t row;

	d->input_pool = (struct hs_pool){ d->pool, sizeof(*d->pool),
					  d->nr_pool, 1 };
	for (v = 0; v < b->nr_variants; v++) {
		const struct hs_variant *var = b->variants[v];
		struct bench_calls *c = &d->calls[v];

		if (var->call == HS_CALL_INPUT)
			continue;
		if (var->call == HS_CALL_DOOR) {
			bench_door_calls(b, d, v);
			continue;
		}
		if (hs_calls_build(&c->c, var, batch_of(b, var), d->pool,
				   d->nr_pool, &bench_alloc, &row))
			cli_die("--dist %s: row %zu has other intervals, weights or window than row 1; --profile %s prepares one scheme",
				d->name, row + 1, var->name);
		c->impl = impl_of(b, var, &c->c);
	}
}

/** bench_pool() - what variant @v (0-based) of @b is timed on for @d. */
const struct hs_pool *bench_pool(const struct bench *b,
				 const struct bench_dist *d, unsigned int v)
{
	if (b->variants[v]->call == HS_CALL_INPUT)
		return &d->input_pool;
	return &d->calls[v].c.pool;
}

/**
 * bench_vet_calls() - every call of every variant built here returns
 * the model's scores for the pool rows it covers; an internal error exits
 * with status 1.
 * @b:	the bench.
 * @d:	the distribution, its calls built.
 */
void bench_vet_calls(const struct bench *b, const struct bench_dist *d)
{
	struct hs_calls_diff diff;
	unsigned int v;

	for (v = 0; v < b->nr_variants; v++) {
		const struct hs_variant *var = b->variants[v];

		if (var->call == HS_CALL_DOOR)
			bench_door_vet(b, d, v);
		if (var->call == HS_CALL_INPUT || var->call == HS_CALL_DOOR ||
		    hs_calls_vet(&d->calls[v].c, var, d->pool, d->nr_pool,
				 &diff))
			continue;
		fprintf(stderr,
			"hotscore: internal error: variant %s returns %d, the model %d, on input %zu of %s\n",
			var->name, diff.got, diff.want, diff.row, d->name);
		exit(1);
	}
}
