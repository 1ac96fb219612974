/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_calls.h - the inputs of the variants that are not given a struct
 * hs_input: the prepared scorer's one-region calls (struct hs_fast_call)
 * and the batches' calls (struct hs_batch_call), built from a pool of
 * inputs (src/bench/calls.c).  `hotscore bench` and hotscore.ko build them
 * with the same code, so both time the same calls on the same regions.
 *
 * Kernel-safe: no library calls.  Memory comes from the caller's
 * allocator: calloc() in user space, kvmalloc() in the kernel.
 */
#ifndef HOTSCORE_BENCH_CALLS_H
#define HOTSCORE_BENCH_CALLS_H

#include "bench_damon.h"

/**
 * struct hs_alloc - where the builder gets its memory.
 * @zalloc:	@nr zeroed elements of @size bytes, or NULL; @nr * @size
 *		must not overflow (the caller checks, as kvcalloc() does).
 * @free:	gives back what @zalloc returned; given NULL, does nothing.
 * @ctx:	passed to both.
 */
struct hs_alloc {
	void *(*zalloc)(void *ctx, size_t nr, size_t size);
	void (*free)(void *ctx, void *p);
	void *ctx;
};

/**
 * struct hs_calls - what one variant is timed on, for one pool.
 * @prep:	the scheme, prepared from the pool's first row, as the kernel
 *		would prepare it when the scheme is committed.
 * @nr:		the pool's nr_accesses, HS_BATCH_REGIONS - 1 more wrapped
 *		around, so that every batch call reads contiguous arrays.
 * @last:	its last_nr_accesses, the same way.
 * @age:	its ages, the same way.
 * @in:		the pool, wrapped around the same way (the kernel's form,
 *		for hotfix-batch).
 * @hot:	a batch call's scores.
 * @pool:	the calls, as the engine cycles over them; @pool.units is the
 *		regions a call scores.
 */
struct hs_calls {
	struct hs_prep *prep;
	unsigned int *nr, *last, *age;
	struct hs_input *in;
	int *hot;
	struct hs_pool pool;
};

/* Why hs_calls_build() built nothing. */
enum hs_calls_status {
	HS_CALLS_OK,
	HS_CALLS_NOMEM,		/* the allocator returned NULL */
	HS_CALLS_SCHEMES,	/* a row has another scheme than the first */
};

/**
 * struct hs_calls_diff - a call whose score is not the model's.
 * @row:	the pool row it scored (0-based).
 * @got:	what the call returned for it.
 * @want:	the model's score.
 */
struct hs_calls_diff {
	size_t row;
	int got, want;
};

enum hs_calls_status hs_calls_build(struct hs_calls *c,
				    const struct hs_variant *v,
				    hs_batch_fn batch,
				    const struct hs_input *pool, size_t nr,
				    const struct hs_alloc *a, size_t *row);
void hs_calls_free(struct hs_calls *c, const struct hs_alloc *a);
bool hs_calls_vet(const struct hs_calls *c, const struct hs_variant *v,
		  const struct hs_input *pool, size_t nr,
		  struct hs_calls_diff *diff);

#endif /* HOTSCORE_BENCH_CALLS_H */
