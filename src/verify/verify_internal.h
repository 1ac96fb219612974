/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify_internal.h - what the files of src/verify/ share and nothing outside
 * uses (tests include it, as DAMON's KUnit tests reach ops-common.h): an
 * input's evaluation and its comparisons, the status codes the tallies are
 * kept in, and the age_in_log sweep.  The public API is <hotscore/verify.h>.
 */
#ifndef HOTSCORE_VERIFY_INTERNAL_H
#define HOTSCORE_VERIFY_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include <hotscore/verify.h>

/**
 * struct hs_eval - a profile's results on an input and its neighbours.
 * @r:			on the input.
 * @freq_subscore:	its freq_subscore (decides which age invariant).
 * @more:		with one more access (if @has_more).
 * @older:		one aggregation interval older (if @has_older).
 * @has_more:		@more holds a score: @r did not trap, the input
 *			had room for one more access, and @more did not trap.
 * @has_older:		@older holds a score: @r did not trap, the age had
 *			room for one more interval, and @older did not trap.
 */
struct hs_eval {
	struct hs_result r, more, older;
	int freq_subscore;
	bool has_more, has_older;
};

void hs_eval(const struct hs_components *c, const struct hs_input *in,
	     struct hs_eval *e);

/*
 * The age_in_log sweep (sweep.c).  Aligned blocks of HS_SWEEP_CHUNK values
 * are cleared by a fast path, compiled for the x86-64 baseline and for
 * x86-64-v3, that runs the shift loop on HS_SWEEP_LANES values side by
 * side: 6 rounds on every value, 6 more on each group of HS_SWEEP_LANES,
 * the other rounds once per block.  Everything else is checked value by
 * value (HS_SWEEP_VALUES).
 */
#define HS_SWEEP_LANES 64u
#define HS_SWEEP_CHUNK (HS_SWEEP_LANES * HS_SWEEP_LANES)
#define HS_SWEEP_SHARED 12u	/* log2(HS_SWEEP_CHUNK): then one state */
enum hs_sweep_isa { HS_SWEEP_VALUES, HS_SWEEP_BASE, HS_SWEEP_V3 };

void hs_agelog_sweep(uint64_t lo, uint64_t n, struct hs_agelog_stats *st);
void hs_agelog_sweep_with(uint64_t lo, uint64_t n, struct hs_agelog_stats *st,
			  enum hs_sweep_isa isa);
int hs_sweep_chunk(enum hs_sweep_isa isa, uint32_t x0, int k);
enum hs_sweep_isa hs_sweep_isa_best(void);

bool hs_eval_same(const struct hs_eval *a, const struct hs_eval *b);
bool hs_eval_violates(const struct hs_eval *e, enum hs_invariant inv,
		      bool *checked);
unsigned int hs_status_code(const struct hs_result *r);
unsigned int hs_pair_code(const struct hs_result *a, const struct hs_result *b);

/* The runs' clock and a domain's span of time (verify.c; candidate.c too). */
uint64_t hs_verify_now_ns(void);
void hs_verify_stamp(pthread_mutex_t *lock, uint64_t *start, uint64_t *end,
		     uint64_t t0, uint64_t t1);

#endif /* HOTSCORE_VERIFY_INTERNAL_H */
