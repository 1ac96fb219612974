// SPDX-License-Identifier: GPL-2.0
/*
 * test_invoke.c - what `hotscore bench` varies from one invocation to the
 * next (src/cli/bench_invoke.c): the environment's pad and the pools'
 * offsets into their pages, drawn from the order seed and the
 * invocation's number, and the invocation's variable, whose length must
 * not vary with them.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_bench.h"
#include "check.h"

/* Lengths of the pads of invocations 0 .. @n - 1 under @seed. */
static void pads(uint64_t seed, size_t *len, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		len[i] = bench_pad_len(seed, i);
}

/* Distinct values among @n. */
static size_t distinct(const size_t *v, size_t n)
{
	size_t i, j, d = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i && v[j] != v[i]; j++)
			;
		d += j == i;
	}
	return d;
}

/* Each invocation its own pad, 0 .. 4095 bytes; a seed repeats them. */
static void test_pad_lengths(void)
{
	size_t a[1000], b[1000], c[10];
	size_t i, lo = BENCH_PAD_MAX, hi = 0;
	uint64_t seed;

	pads(1, a, 1000);
	pads(1, b, 1000);
	CHECK(!memcmp(a, b, sizeof(a)), "the same seed, other pads");
	for (i = 0; i < 1000; i++) {
		CHECK(a[i] < BENCH_PAD_MAX, "invocation %zu: %zu bytes", i,
		      a[i]);
		lo = a[i] < lo ? a[i] : lo;
		hi = a[i] > hi ? a[i] : hi;
	}
	/* the whole range, not a corner of it */
	CHECK(lo < 64 && hi >= BENCH_PAD_MAX - 64, "range %zu..%zu", lo, hi);
	CHECK(distinct(a, 10) >= 9, "10 invocations, %zu lengths",
	      distinct(a, 10));
	/* another seed, other pads, whatever the seed */
	for (seed = 0; seed < 50; seed++) {
		pads(seed, c, 10);
		CHECK(distinct(c, 10) >= 8, "seed %llu: %zu lengths",
		      (unsigned long long)seed, distinct(c, 10));
		pads(seed + 1, b, 10);
		CHECK(memcmp(b, c, sizeof(c)), "seeds %llu and %llu alike",
		      (unsigned long long)seed, (unsigned long long)seed + 1);
	}
}

/*
 * Each pool's offset into its page: a multiple of 64 in 0 .. 4032, over the
 * whole range, another for each invocation and each pool.
 */
static void test_pool_offsets(void)
{
	size_t off[64], lo = BENCH_PAGE, hi = 0, o;
	unsigned int i, p;

	for (i = 0; i < 1000; i++)
		for (p = 0; p < 4; p++) {
			o = bench_pool_offset(3, i, p);
			CHECK(o % BENCH_POOL_ALIGN == 0 &&
			      o <= BENCH_PAGE - BENCH_POOL_ALIGN,
			      "invocation %u, pool %u: %zu", i, p, o);
			CHECK(o == bench_pool_offset(3, i, p), "not repeated");
			lo = o < lo ? o : lo;
			hi = o > hi ? o : hi;
		}
	CHECK(lo == 0 && hi == BENCH_PAGE - BENCH_POOL_ALIGN, "range %zu..%zu",
	      lo, hi);
	for (i = 0; i < 16; i++)
		off[i] = bench_pool_offset(3, i, 0);
	for (p = 0; p < 16; p++)
		off[16 + p] = bench_pool_offset(3, 0, p);
	CHECK(distinct(off, 16) >= 12, "16 invocations, %zu offsets",
	      distinct(off, 16));
	CHECK(distinct(off + 16, 16) >= 12, "16 pools, %zu offsets",
	      distinct(off + 16, 16));
	/* not the pad's draw under another name */
	for (i = 0; i < 16; i++)
		off[32 + i] = bench_pad_len(3, i) / BENCH_POOL_ALIGN *
			      BENCH_POOL_ALIGN;
	CHECK(memcmp(off, off + 32, 16 * sizeof(*off)),
	      "the offsets are the pads'");
}

/* The invocation's variable: one length, whatever its numbers. */
static void test_block_env_width(void)
{
	static struct bench b;
	char x[128], y[128];

	b.n = 16;
	b.rounds = 1;
	b.order_seed = 0;
	bench_block_env(&b, 0, 3, x, sizeof(x));
	b.n = 1UL << 24;
	b.rounds = 256;
	b.order_seed = UINT64_MAX;
	bench_block_env(&b, 999, 11, y, sizeof(y));
	CHECK(strlen(x) == strlen(y), "'%s' and '%s'", x, y);
}

static jmp_buf died;

static void die_hook(const char *msg)
{
	(void)msg;
	longjmp(died, 1);
}

/* What an invocation reads back, and a pad of the wrong length refused. */
static void test_block_child(void)
{
	static struct bench b;
	char env[128], pad[BENCH_PAD_MAX];
	size_t len = bench_pad_len(77, 5);

	b.n = 4096;
	b.rounds = 12;
	b.order_seed = 77;
	bench_block_env(&b, 5, 9, env, sizeof(env));
	memset(pad, 'x', len);
	pad[len] = '\0';
	setenv("HOTSCORE_BENCH_BLOCK", env, 1);
	setenv("HOTSCORE_BENCH_PAD", pad, 1);
	memset(&b, 0, sizeof(b));
	b.invocations = 10;
	CHECK(bench_block_child(&b), "not an invocation: %s", env);
	CHECK(b.block == 5 && b.block_fd == 9 && b.n == 4096 &&
	      b.rounds == 12 && b.order_seed == 77,
	      "block %d, fd %d, N %zu, rounds %zu, order seed %llu", b.block,
	      b.block_fd, b.n, b.rounds, (unsigned long long)b.order_seed);
	CHECK(!getenv("HOTSCORE_BENCH_BLOCK") && !getenv("HOTSCORE_BENCH_PAD"),
	      "left in the environment");

	/* another invocation's pad: refused */
	pad[len] = 'x';
	pad[len + 1] = '\0';
	setenv("HOTSCORE_BENCH_BLOCK", env, 1);
	setenv("HOTSCORE_BENCH_PAD", pad, 1);
	cli_die_hook = die_hook;
	if (!setjmp(died)) {
		bench_block_child(&b);
		CHECK(0, "a pad of %zu bytes taken for one of %zu", len + 1,
		      len);
	}
	cli_die_hook = NULL;
	unsetenv("HOTSCORE_BENCH_BLOCK");
	unsetenv("HOTSCORE_BENCH_PAD");
}

int main(void)
{
	RUN(test_pad_lengths);
	RUN(test_pool_offsets);
	RUN(test_block_env_width);
	RUN(test_block_child);
	return CHECK_DONE();
}
