// SPDX-License-Identifier: GPL-2.0
/*
 * test_calls.c - the kernel-safe builder of the prepared and batch calls
 * (src/bench/calls.c), which `hotscore bench` and hotscore.ko share: the
 * calls it builds, its refusal of rows under two schemes, a failed
 * allocation at every step leaving nothing held, and the vetting that must
 * catch a call whose score is not the model's.
 */
#include <stdlib.h>
#include <string.h>

#include <hotscore/bench_calls.h>

#include "check.h"

#define POOL 1000

/* An allocator that counts what it holds and can fail the k-th request. */
static int held, requests, fail_at = -1;

static void *zalloc(void *ctx, size_t nr, size_t size)
{
	(void)ctx;
	if (requests++ == fail_at)
		return NULL;
	held++;
	return calloc(nr, size);
}

static void zfree(void *ctx, void *p)
{
	(void)ctx;
	if (p)
		held--;
	free(p);
}

static const struct hs_alloc counting = { zalloc, zfree, NULL };

static struct hs_input pool[POOL];

static void make_pool(enum hs_dist d)
{
	size_t j;

	for (j = 0; j < POOL; j++)
		hs_dist_input(d, 1, j * 10000, &pool[j]);
}

static enum hs_calls_status build(struct hs_calls *c, const char *name,
				  size_t *row)
{
	return hs_calls_build(c, hs_variant_find(name), hs_fast_batch, pool,
			      POOL, &counting, row);
}

/* fast: a call a row; the batches: lcm(1000, 64) regions in 125 calls. */
static void test_shapes(void)
{
	static const char *const names[] = {
		"fast", "fast-batch-scalar", "hotfix-batch",
	};
	struct hs_calls_diff diff;
	struct hs_calls c;
	unsigned int i;
	size_t row;

	make_pool(HS_DIST_UNIFORM);
	for (i = 0; i < 3; i++) {
		const struct hs_variant *v = hs_variant_find(names[i]);

		CHECK_EQ(build(&c, names[i], &row), HS_CALLS_OK);
		CHECK_EQ(c.pool.nr, i ? POOL / 8 : POOL);
		CHECK_EQ(c.pool.units, i ? HS_BATCH_REGIONS : 1);
		CHECK(hs_calls_vet(&c, v, pool, POOL, &diff),
		      "%s: row %zu gives %d, the model %d", names[i], diff.row,
		      diff.got, diff.want);
		hs_calls_free(&c, &counting);
		CHECK_EQ(held, 0);
	}
}

/* Each batch call's regions are the pool's, in order, wrapping around. */
static void test_batches_cover_the_pool(void)
{
	static unsigned int seen[POOL];
	struct hs_calls c;
	size_t j, row;
	unsigned int i;

	make_pool(HS_DIST_UNIFORM);
	CHECK_EQ(build(&c, "fast-batch-scalar", &row), HS_CALLS_OK);
	for (j = 0; j < c.pool.nr; j++) {
		const struct hs_batch_call *bc =
			(const struct hs_batch_call *)c.pool.base + j;

		CHECK_EQ(bc->n, HS_BATCH_REGIONS);
		CHECK(bc->batch == hs_fast_batch, "call %zu: another scorer", j);
		for (i = 0; i < bc->n; i++) {
			size_t at = (j * HS_BATCH_REGIONS + i) % POOL;

			CHECK_EQ(bc->r.age[i], pool[at].age);
			CHECK_EQ(bc->in[i].age, pool[at].age);
			seen[at]++;
		}
	}
	for (j = 0; j < POOL; j++)
		CHECK_EQ(seen[j], HS_BATCH_REGIONS / 8);
	hs_calls_free(&c, &counting);
}

/* Rows under another scheme are refused at the first one, nothing held. */
static void test_two_schemes(void)
{
	static const char *const names[] = { "fast", "fast-batch-scalar" };
	struct hs_calls c;
	unsigned int i;
	size_t row = 0;

	for (i = 0; i < 2; i++) {
		make_pool(HS_DIST_SEED);
		pool[517].weight_age = 7;
		pool[900].aggr_us = 1;
		CHECK_EQ(build(&c, names[i], &row), HS_CALLS_SCHEMES);
		CHECK_EQ(row, 517);
		CHECK(!c.prep && !c.pool.base && !c.hot, "%s: left set",
		      names[i]);
		CHECK_EQ(held, 0);
	}
}

/* Out of memory at any of the builder's requests: nothing held, no calls. */
static void test_out_of_memory(void)
{
	struct hs_calls c;
	int k, total;
	size_t row;

	make_pool(HS_DIST_SEED);
	requests = 0;
	CHECK_EQ(build(&c, "fast-batch-scalar", &row), HS_CALLS_OK);
	hs_calls_free(&c, &counting);
	total = requests;
	CHECK_EQ(total, 7);
	for (k = 0; k < total; k++) {
		requests = 0;
		fail_at = k;
		CHECK_EQ(build(&c, "fast-batch-scalar", &row), HS_CALLS_NOMEM);
		CHECK_EQ(held, 0);
		CHECK(!c.pool.base && !c.prep, "request %d: calls left", k);
	}
	fail_at = -1;
}

/*
 * A scheme whose table is wrong in one entry that the pool reaches: the
 * vetting must name a row that reaches it, with both scores.
 */
static void test_vet_catches(void)
{
	static const char *const names[] = { "fast", "fast-batch-scalar" };
	struct hs_calls_diff diff = { 0 };
	struct hs_calls c;
	struct hs_trace t = { 0 };
	unsigned int i;
	size_t row;

	for (i = 0; i < 2; i++) {
		const struct hs_variant *v = hs_variant_find(names[i]);
		int8_t *e;

		make_pool(HS_DIST_SEED);
		(void)hs_score(&v->comp, &pool[0], &t);
		CHECK_EQ(build(&c, names[i], &row), HS_CALLS_OK);
		e = &c.prep->table[HS_FAST_PAD + t.age_in_log * HS_FAST_COLS +
				   t.freq_subscore];
		*e = (int8_t)(*e + 1);
		CHECK(!hs_calls_vet(&c, v, pool, POOL, &diff),
		      "%s: a wrong table passes", names[i]);
		CHECK_EQ(diff.row, 0);
		CHECK_EQ(diff.want, hs_score(&v->comp, &pool[0], NULL).hot);
		CHECK_EQ(diff.got, diff.want + 1);
		hs_calls_free(&c, &counting);
	}
}

int main(void)
{
	RUN(test_shapes);
	RUN(test_batches_cover_the_pool);
	RUN(test_two_schemes);
	RUN(test_out_of_memory);
	RUN(test_vet_catches);
	return CHECK_DONE();
}
