/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify.h - proofs over whole input domains: that variants are equal, where
 * kernel versions differ, and which invariants each version keeps.
 *
 * Three domains (docs/verify.md):
 *   agelog  every 32-bit age_in_sec through every age_in_log method and fls
 *           implementation of the model;
 *   grid    every freq_subscore 0..100 (and raw nr_accesses around it) x
 *           every reachable age_in_log, for a grid of intervals, weights and
 *           moving-sum states, through every profile asked for;
 *   random  seeded inputs at the kernel's full field widths, with boundary
 *           values mixed in.
 * User space: the work is spread over POSIX threads.
 */
#ifndef HOTSCORE_VERIFY_H
#define HOTSCORE_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "score.h"
#include "simd.h"

#define HS_VERIFY_MAX_PROFILES 16
#define HS_NR_STATUS_CODES 5	/* ok, out-of-range, three div0 sites */
#define HS_NR_PAIR_CLASSES (HS_NR_STATUS_CODES * HS_NR_STATUS_CODES)

enum hs_invariant {
	HS_INV_RANGE,		/* hot in [0, 99] (status ok) */
	HS_INV_SUM,		/* hot + cold = 99 */
	HS_INV_ACCESSES,	/* one more access never makes it colder */
	HS_INV_OLDER_HOT,	/* freq_subscore > 0: older is never colder */
	HS_INV_OLDER_COLD,	/* freq_subscore = 0: older is never hotter */
	HS_NR_INVARIANTS
};

enum hs_domain { HS_DOM_AGELOG, HS_DOM_GRID, HS_DOM_RANDOM, HS_NR_DOMAINS };

/**
 * struct hs_example - the first input (in domain order) of some kind.
 * @found:	an example exists.
 * @order:	its position: the smallest wins, so threads do not matter.
 * @in:		the input.
 */
struct hs_example {
	bool found;
	uint64_t order;
	struct hs_input in;
};

/** struct hs_pair_stats - how two profiles compare over the inputs. */
struct hs_pair_stats {
	uint64_t inputs, agree;
	uint64_t count[HS_NR_PAIR_CLASSES];	/* [code(a) * 5 + code(b)] */
	struct hs_example ex[HS_NR_PAIR_CLASSES];
};

/** struct hs_inv_stats - one invariant of one profile. */
struct hs_inv_stats {
	uint64_t checked, violations;
	struct hs_example ex;
};

#define HS_NR_AGELOG_WAYS (HS_NR_AGELOG * HS_NR_FLS_IMPL)

/**
 * struct hs_agelog_stats - every age_in_log method against the shift loop.
 * @values:	age_in_sec values checked.
 * @ways:	how many (method, fls) combinations were compared.
 * @mismatches:	per way (agelog * HS_NR_FLS_IMPL + fls).
 * @first:	the smallest mismatching value, per way.
 */
struct hs_agelog_stats {
	uint64_t values;
	unsigned int ways;
	uint64_t mismatches[HS_NR_AGELOG_WAYS];
	uint32_t first[HS_NR_AGELOG_WAYS];
};

/**
 * struct hs_fast_stats - the prepared scorer (score_fast.h) against its profile.
 * @inputs:	inputs compared, per domain.
 * @schemes:	schemes prepared, per domain: each unit of work starts
 *		afresh, and a random block always prepares its scheme, so the
 *		count does not depend on the threads.
 * @mismatches:	inputs where score or status differ.
 * @ex:		the first of them.
 * @batch:	grid inputs scored in batches, per batch scorer (enum
 *		hs_fast_impl), against the model: each scorer of
 *		hs_verify_config.batch_impls scores every grid input the
 *		prepared scorer is compared on.
 * @batch_mismatches: per batch scorer, grid inputs where its score
 *		differs from the model's, or where the batch's status (out
 *		of range if any score is) does not follow the model's.
 * @batch_ex:	the first of them, of any scorer.
 * @batch_impl:	the scorer that differed there (the first in enum order).
 */
struct hs_fast_stats {
	uint64_t inputs[HS_NR_DOMAINS];
	uint64_t schemes[HS_NR_DOMAINS];
	uint64_t mismatches;
	struct hs_example ex;
	uint64_t batch[HS_NR_FAST_IMPLS];
	uint64_t batch_mismatches[HS_NR_FAST_IMPLS];
	struct hs_example batch_ex;
	enum hs_fast_impl batch_impl;
};

/*
 * In the random domain, the scorer is prepared for the scheme (intervals,
 * weights, window) of every HS_FAST_RANDOM_BLOCK-th input and scores the
 * regions of that input and the block's next ones: every random region, at
 * a preparation a block instead of one an input.
 */
#define HS_FAST_RANDOM_BLOCK 1024

/** struct hs_verify_progress - for a progress bar. */
struct hs_verify_progress {
	uint64_t done, total;		/* estimated work over all domains */
	double seconds;
	enum hs_domain domain;		/* the one being covered */
	uint64_t domain_done, domain_total;
};

/**
 * struct hs_verify_config - what to prove.
 * @comp:	the profiles' components.
 * @nr:		how many (at least 1).
 * @quick:	boundaries and a stride of each domain instead of all of it.
 * @fast:	also check the prepared scorer of every profile.
 * @batch_impls: with @fast, the batch scorers to check on the grid too, a
 *		bit (1 << enum hs_fast_impl) each; the front end gives every
 *		one this CPU runs (hs_fast_impl_supported()).
 * @fast_rotate: a test's fault: check profile a's model against the
 *		prepared scorer of profile (a + @fast_rotate) % @nr; 0 in a
 *		real run.
 * @threads:	worker threads (at least 1).
 * @seed:	seed of the random domain.
 * @random:	inputs in the random domain.
 * @progress:	called about 5 times a second from the main thread; NULL.
 * @ctx:	passed to @progress.
 */
struct hs_verify_config {
	struct hs_components comp[HS_VERIFY_MAX_PROFILES];
	unsigned int nr;
	bool quick;
	bool fast;
	unsigned int batch_impls;
	unsigned int fast_rotate;
	unsigned int threads;
	uint64_t seed;
	uint64_t random;
	void (*progress)(void *ctx, const struct hs_verify_progress *p);
	void *ctx;
};

/**
 * struct hs_verify_result - everything found.
 * @agelog:	the exhaustive age_in_log proof.
 * @inputs:	inputs checked per domain (agelog: age_in_sec values).
 * @seconds:	wall time per domain.
 * @pair:	[a][b] for a < b.
 * @inv:	[profile][invariant].
 * @fast:	[profile]: the prepared scorer, when @cfg->fast.
 */
struct hs_verify_result {
	struct hs_agelog_stats agelog;
	uint64_t inputs[HS_NR_DOMAINS];
	double seconds[HS_NR_DOMAINS];
	struct hs_pair_stats pair[HS_VERIFY_MAX_PROFILES][HS_VERIFY_MAX_PROFILES];
	struct hs_inv_stats inv[HS_VERIFY_MAX_PROFILES][HS_NR_INVARIANTS];
	struct hs_fast_stats fast[HS_VERIFY_MAX_PROFILES];
};

int hs_verify_run(const struct hs_verify_config *cfg,
		  struct hs_verify_result *res);
bool hs_more_access(const struct hs_components *c, struct hs_input *in);
bool hs_verify_ok(const struct hs_verify_config *cfg,
		  const struct hs_verify_result *res);

/* The pieces, for the front end and the shrinker. */
const char *hs_status_code_name(unsigned int code);
bool hs_claimed_equal(const struct hs_components *a,
		      const struct hs_components *b);
bool hs_fast_same(const struct hs_result *model,
		  const struct hs_result *fast);
struct hs_result hs_batch_result(struct hs_prep *p,
				 const struct hs_components *c,
				 enum hs_fast_impl impl,
				 const struct hs_input *in);
bool hs_pair_class(const struct hs_components *a,
		   const struct hs_components *b, const struct hs_input *in,
		   unsigned int *cls);
bool hs_violates(const struct hs_components *c, enum hs_invariant inv,
		 const struct hs_input *in, bool *checked);
const char *hs_invariant_name(enum hs_invariant inv);
const char *hs_domain_name(enum hs_domain d);

typedef bool (*hs_shrink_pred)(const struct hs_input *in, const void *ctx);
unsigned int hs_shrink(struct hs_input *in, const struct hs_input *prefer,
		       hs_shrink_pred pred, const void *ctx);
bool hs_shrink_to_one(struct hs_input *in, const struct hs_input *prefer,
		      hs_shrink_pred pred, const void *ctx);

/*
 * verify on a candidate (src/verify/candidate.c): the user's damon_hot_score()
 * against a profile, or against another candidate.  A candidate's status
 * code is 0 ok, 1 out-of-range, 2 trap(SIGFPE), 3 another trap, 4 hang (a
 * call ran past the limit).
 */
enum hs_cand_domain { HS_CDOM_AGES, HS_CDOM_AGES_DEFAULT, HS_CDOM_GRID,
		      HS_CDOM_RANDOM, HS_NR_CDOMAINS };
#define HS_CAND_CODE_HANG 4
#define HS_NR_CAND_CODES 5
#define HS_NR_CAND_CLASSES (HS_NR_STATUS_CODES * HS_NR_CAND_CODES)

struct hs_cand;

/**
 * struct hs_cand_verify_config - what to compare.
 * @cand:	the candidate, loaded.
 * @against:	the profile's components.
 * @against_cand: a candidate to compare with instead of @against, or NULL.
 * @quick:	as for hs_verify_run(): boundaries and a stride of each
 *		domain instead of all of it.
 * @threads:	as for hs_verify_run(): worker threads (at least 1).
 * @seed:	as for hs_verify_run(): seed of the random domain.
 * @random:	as for hs_verify_run(): inputs in the random domain.
 * @progress:	as for hs_verify_run(), but it counts units of work.
 * @ctx:	passed to @progress.
 */
struct hs_cand_verify_config {
	const struct hs_cand *cand;
	struct hs_components against;
	const struct hs_cand *against_cand;
	bool quick;
	unsigned int threads;
	uint64_t seed;
	uint64_t random;
	void (*progress)(void *ctx, const struct hs_verify_progress *p);
	void *ctx;
};

/**
 * struct hs_cand_verify_result - what was found.
 * @inputs:	per domain.
 * @seconds:	wall time per domain.
 * @agree:	inputs where the two agree.
 * @count:	per class (the profile's code x HS_NR_CAND_CODES + the
 *		candidate's; against a candidate, its code as the
 *		candidate's), inputs where they differ.
 * @ex:		the first of each class, in domain order.
 * @stopped:	a hang ended the run: @inputs counts those checked before
 *		it, and which were checked depends on the threads.
 */
struct hs_cand_verify_result {
	uint64_t inputs[HS_NR_CDOMAINS];
	double seconds[HS_NR_CDOMAINS];
	uint64_t agree;
	uint64_t count[HS_NR_CAND_CLASSES];
	struct hs_example ex[HS_NR_CAND_CLASSES];
	bool stopped;
};

int hs_cand_verify(const struct hs_cand_verify_config *cfg,
		   struct hs_cand_verify_result *res);
bool hs_cand_class(const struct hs_components *against,
		   const struct hs_cand *cand, const struct hs_input *in,
		   unsigned int *cls);
bool hs_cand_versus(const struct hs_components *against,
		    const struct hs_cand *against_cand,
		    const struct hs_cand *cand, const struct hs_input *in,
		    unsigned int *cls);
bool hs_cand_class_hangs(unsigned int cls, bool against_cand);
const char *hs_cand_code_name(unsigned int code);
void hs_cand_shrink(const struct hs_components *against,
		    const struct hs_cand *cand, unsigned int cls,
		    struct hs_input *in, const struct hs_input *prefer);
void hs_cand_shrink_versus(const struct hs_components *against,
			   const struct hs_cand *against_cand,
			   const struct hs_cand *cand, unsigned int cls,
			   struct hs_input *in, const struct hs_input *prefer);

#endif /* HOTSCORE_VERIFY_H */
