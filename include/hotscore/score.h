/* SPDX-License-Identifier: GPL-2.0 */
/*
 * score.h - bit-exact model of the kernel's damon_hot_score() and
 * damon_cold_score() (mm/damon/ops-common.c) across kernel versions.
 *
 * Kernels combine four components differently, so each is a separate choice
 * (see docs/scoring.md):
 *   frequency formula  raw | mvsum | bp
 *   divisor helper     u32-trunc | max-nr | safe
 *   age_in_log method  loop | fls | ilog2   (+ an fls implementation)
 *   clamp              none | clamp
 * A profile names one combination, e.g. "v6.6" or "hotfix".
 */
#ifndef HOTSCORE_SCORE_H
#define HOTSCORE_SCORE_H

#include "compat.h"

#define HS_DAMON_MAX_SUBSCORE	100
#define HS_DAMON_MAX_AGE_IN_LOG	32
#define HS_DAMOS_MAX_SCORE	99

/**
 * struct hs_input - everything damon_hot_score() reads.
 * @sample_us:		c->attrs.sample_interval (µs).
 * @aggr_us:		c->attrs.aggr_interval (µs).
 * @nr_accesses:	r->nr_accesses.
 * @last_nr_accesses:	r->last_nr_accesses (mvsum only).
 * @age:		r->age, in aggregation intervals.
 * @passed_sis:		c->passed_sample_intervals (mvsum only).
 * @next_aggr_sis:	c->next_aggregation_sis (mvsum only).
 * @weight_nr_accesses:	s->quota.weight_nr_accesses.
 * @weight_age:		s->quota.weight_age.
 * @nr_accesses_bp:	r->nr_accesses_bp (bp only; 6.7+): the moving sum of
 *			the samples in basis points that the kernel keeps up
 *			to date sample by sample (damon_moving_sum()).  Last,
 *			so that the older fields keep their places.
 */
struct hs_input {
	unsigned long sample_us;
	unsigned long aggr_us;
	unsigned long passed_sis;
	unsigned long next_aggr_sis;
	unsigned int nr_accesses;
	unsigned int last_nr_accesses;
	unsigned int age;
	unsigned int weight_nr_accesses;
	unsigned int weight_age;
	unsigned int nr_accesses_bp;
};

enum hs_freq {
	HS_FREQ_RAW,	/* nr_accesses * 100 / divisor */
	HS_FREQ_MVSUM,	/* mult_frac(mvsum, 100, divisor) */
	HS_FREQ_BP,	/* mult_frac(nr_accesses_bp / 10000, 100, divisor) */
	HS_NR_FREQ
};

enum hs_divisor {
	HS_DIV_U32_TRUNC,	/* unsigned int max = aggr / sample (to 2023) */
	HS_DIV_MAX_NR,		/* min(aggr / sample, UINT_MAX) (Oct 2023) */
	HS_DIV_SAFE,		/* sample ?: 1, result ?: 1 (2026 hotfix) */
	HS_NR_DIVISOR
};

enum hs_agelog {
	HS_AGELOG_LOOP,		/* the shift loop, capped at 32 */
	HS_AGELOG_FLS,		/* min_t(int, fls(x), 32): the RFC */
	HS_AGELOG_ILOG2,	/* x ? min_t(int, ilog2(x) + 1, 32) : 0: v2 */
	HS_NR_AGELOG
};

enum hs_fls_impl {
	HS_FLS_ARCH,		/* the kernel's fls(): bsr on x86-64 */
	HS_FLS_GENERIC,		/* asm-generic binary search */
	HS_FLS_BSR,		/* x86 bsrl with a -1 preload */
	HS_FLS_BUILTIN,		/* 32 - __builtin_clz(x) */
	HS_NR_FLS_IMPL
};

enum hs_clamp {
	HS_CLAMP_NONE,
	HS_CLAMP_0_99,		/* max(min(hotness, 99), 0) */
	HS_NR_CLAMP
};

/**
 * struct hs_components - one way of computing the score.
 * @freq:	frequency subscore formula.
 * @divisor:	samples-per-aggregation helper.
 * @agelog:	age_in_log method.
 * @fls:	fls implementation behind HS_AGELOG_FLS / HS_AGELOG_ILOG2.
 * @clamp:	final clamp.
 */
struct hs_components {
	enum hs_freq freq;
	enum hs_divisor divisor;
	enum hs_agelog agelog;
	enum hs_fls_impl fls;
	enum hs_clamp clamp;
};

/*
 * The named kernel versions, one line each: X(id, name, FREQ, DIVISOR,
 * AGELOG, FLS, CLAMP, what).  profiles.c builds hs_profiles[] from it and the
 * bench compiles one specialised damon_hot_score() per line, so the two can
 * never disagree.  Sources for each row: docs/scoring.md, "Profiles".
 */
#define HS_PROFILE_LIST(X)						\
	X(v5_16, "v5.16", RAW, U32_TRUNC, LOOP, ARCH, NONE,		\
	  "v5.16 to v6.5 as released: aggr/sample kept in an unsigned int") \
	X(v6_6, "v6.6", RAW, MAX_NR, LOOP, ARCH, NONE,			\
	  "Oct 2023 damon_max_nr_accesses() fix (v6.6, stable 5.16+)")	\
	X(rfc_fls, "rfc-fls", RAW, MAX_NR, FLS, ARCH, NONE,		\
	  "Mar 2026 RFC: min_t(int, fls(age_in_sec), 32)")		\
	X(v2_ilog2, "v2-ilog2", RAW, MAX_NR, ILOG2, ARCH, NONE,		\
	  "2026 v2 as merged: min_t(int, ilog2(age_in_sec) + 1, 32)")	\
	X(hotfix, "hotfix", RAW, SAFE, ILOG2, ARCH, 0_99,		\
	  "mainline after the Jul 2026 extreme-intervals hotfix")	\
	X(debian_6_1_192, "debian-6.1.192", RAW, SAFE, LOOP, ARCH, 0_99, \
	  "Debian 12 linux-source-6.1 6.1.192-3: hotfix on the shift loop") \
	X(mm_new, "mm-new", MVSUM, SAFE, ILOG2, ARCH, 0_99,		\
	  "mm-new / damon/next 2026: mult_frac of the moving sum")	\
	X(debian_6_12_117, "debian-6.12.117", BP, SAFE, LOOP, ARCH, 0_99, \
	  "Debian 12 linux-source-6.12 6.12.117-1~deb12u1: mult_frac of " \
	  "nr_accesses_bp / 10000 on the shift loop")

/* The struct hs_components initializer of one HS_PROFILE_LIST line. */
#define HS_COMPONENTS(freq, div, age, fls, clamp)			\
	{ HS_FREQ_##freq, HS_DIV_##div, HS_AGELOG_##age, HS_FLS_##fls,	\
	  HS_CLAMP_##clamp }

/**
 * struct hs_profile - a named combination, as some kernel shipped it.
 * @name:	short name ("v6.6", "hotfix", ...).
 * @comp:	the combination.
 * @what:	which kernels compute this way.
 */
struct hs_profile {
	const char *name;
	struct hs_components comp;
	const char *what;
};

enum hs_status {
	HS_OK,			/* hot in [0, 99] */
	HS_DIV0,		/* the kernel would divide by zero */
	HS_OUT_OF_RANGE,	/* hot outside [0, 99]: histogram overrun */
};

/* Which division would trap, for HS_DIV0. */
enum hs_div0_site {
	HS_DIV0_NONE,
	HS_DIV0_SAMPLE,		/* aggr_interval / sample_interval, sample 0 */
	HS_DIV0_MAX_NR,		/* nr_accesses * 100 / max_nr_accesses, max 0 */
	HS_DIV0_WINDOW,		/* mvsum: left_window * 10000 / window_len 0 */
};

/**
 * struct hs_result - what the kernel would return.
 * @hot:	damon_hot_score(); undefined when @status is HS_DIV0.
 * @cold:	damon_cold_score() = 99 - hot (int, wrapping).
 * @status:	HS_OK, HS_DIV0 or HS_OUT_OF_RANGE.
 * @div0:	the trapping division when @status is HS_DIV0.
 */
struct hs_result {
	int hot;
	int cold;
	enum hs_status status;
	enum hs_div0_site div0;
};

/**
 * struct hs_trace - the intermediate values of one computation.
 * @window_len:	mvsum: (aggr ?: 1) / (sample ?: 1).
 * @left_window_bp: mvsum: remaining part of the aggregation window, in bp.
 * @mvsum:	mvsum: the moving-sum estimate of nr_accesses.
 * @max_nr:	the divisor of the frequency line.
 * @freq_subscore: as the kernel's int local.
 * @age_in_sec:	r->age * aggr / 1e6, truncated to 32 bits.
 * @age_in_log:	bit length of age_in_sec, before the sign flip.
 * @age_log_scaled: age_in_log after the sign flip and the +32 offset.
 * @age_subscore: 0..100.
 * @weighted:	fw * fs + aw * as, as the int the kernel stores it in.
 * @averaged:	@weighted after the division by fw + aw (if non-zero).
 * @scaled:	@averaged * 99 / 100, before the clamp.
 */
struct hs_trace {
	unsigned long window_len;
	unsigned long left_window_bp;
	unsigned int mvsum;
	unsigned int max_nr;
	int freq_subscore;
	unsigned int age_in_sec;
	int age_in_log;
	int age_log_scaled;
	int age_subscore;
	int weighted;
	int averaged;
	int scaled;
};

/**
 * hs_bp_of_nr() - r->nr_accesses_bp where only nr_accesses is known: what
 * 6.12's mm/damon/core.c stores after a merge (damon_merge_two_regions())
 * or an attrs change (damon_update_monitoring_result()),
 * 'r->nr_accesses * 10000', an unsigned int product that wraps.
 * @nr_accesses:	r->nr_accesses.
 *
 * Return: the default nr_accesses_bp of an input that gives none.
 */
static inline unsigned int hs_bp_of_nr(unsigned int nr_accesses)
{
	return nr_accesses * 10000u;
}

struct hs_result hs_score(const struct hs_components *comp,
			  const struct hs_input *in, struct hs_trace *trace);
int hs_age_in_log(const struct hs_components *comp, unsigned int age_in_sec);
unsigned int hs_nr_accesses_mvsum(const struct hs_input *in);

/* Profiles and names (src/score/profiles.c). */
extern const struct hs_profile hs_profiles[];
extern const unsigned int hs_nr_profiles;
const struct hs_profile *hs_profile_find(const char *name);
int hs_components_parse(const char *spec, struct hs_components *out);
bool hs_components_available(const struct hs_components *comp);
int hs_components_format(const struct hs_components *comp, char *buf,
			 unsigned int size);
void hs_base_pick(const struct hs_profile *given,
		  const struct hs_components *first, const char *first_name,
		  struct hs_components *out, char *name, unsigned int size);
const char *hs_freq_name(enum hs_freq f);
const char *hs_divisor_name(enum hs_divisor d);
const char *hs_agelog_name(enum hs_agelog a, enum hs_fls_impl impl);
const char *hs_clamp_name(enum hs_clamp c);
const char *hs_status_name(const struct hs_result *res);

#endif /* HOTSCORE_SCORE_H */
