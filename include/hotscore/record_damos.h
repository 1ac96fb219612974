/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record_damos.h - a 6.12 kdamond's DAMOS trace, read into what each
 * sample saw (src/record/damos_trace.c), for hotscore replay.
 *
 * Four events, in the order one kdamond iteration writes them to tracefs:
 *
 *   hs_tick: (damon_va_check_accesses+0x0/0x...) sis=60 j=4294892301
 *   damos_before_apply: ctx_idx=0 scheme_idx=1 target_idx=0 nr_regions=12
 *	93824992231424-93824993280000: 0 5
 *   hs_quota: (damon_va_apply_scheme+0x0/0x...) sis=60 start=93824992231424
 *	esz=0 charged=0 from=4294892296 min=0 tsz=0 tns=0
 *   damon_aggregated: target_id=0 nr_regions=12
 *	93824992231424-93824993280000: 0 5
 *
 * hs_tick and hs_quota are kprobe events whose fetch arguments hotscore.ko
 * writes for the running kernel (its debugfs file damos_kprobes): the
 * sample count and jiffies at each sample's check, and the scheme's quota
 * state as the ops' apply_scheme() is entered.  damos_before_apply and
 * damon_aggregated are the kernel's tracepoints (damon_aggregated fires
 * after that iteration's schemes were applied).
 */
#ifndef HOTSCORE_RECORD_DAMOS_H
#define HOTSCORE_RECORD_DAMOS_H

#include <stdbool.h>
#include <stddef.h>

#define HS_DTRACE_TICK		"hs_tick"
#define HS_DTRACE_QUOTA		"hs_quota"
/* The most regions one aggregation may declare (sim's own limit). */
#define HS_DTRACE_MAX_REGIONS	(1UL << 22)

/** struct hs_dtrace_region - a damon_aggregated line. */
struct hs_dtrace_region {
	unsigned long start, end;
	unsigned int nr_accesses, age;
};

/**
 * struct hs_dtrace_apply - a damos_before_apply line and its hs_quota.
 * @scheme:	scheme_idx.
 * @start:	the region, as the walk had it.
 * @end:	its end.
 * @nr_accesses: r->nr_accesses_bp / 10000.
 * @age:	before the action reset it.
 * @nr_regions:	the target's regions then.
 * @quota:	the hs_quota line that followed it was read.
 * @esz:	quota->esz.
 * @charged:	quota->charged_sz, before this region is charged.
 * @from:	quota->charged_from (jiffies).
 * @min_score:	quota->min_score.
 * @tsz:	quota->total_charged_sz.
 * @tns:	quota->total_charged_ns.
 * @lineno:	the damos_before_apply line.
 */
struct hs_dtrace_apply {
	unsigned int scheme;
	unsigned long start, end;
	unsigned int nr_accesses, age;
	unsigned int nr_regions;
	bool quota;
	unsigned long esz, charged, from;
	unsigned int min_score;
	unsigned long tsz, tns;
	unsigned long lineno;
};

/**
 * struct hs_dtrace_iter - one sample: its hs_tick and what followed it.
 * @sis:	passed_sample_intervals.
 * @jiffies:	jiffies at the check.
 * @first_apply: its applications, in @applies.
 * @nr_apply:	how many.
 * @first_region: the regions damon_aggregated showed after it, in
 *		@regions; none if it ended no aggregation.
 * @nr_regions:	how many.
 * @lineno:	the hs_tick line.
 */
struct hs_dtrace_iter {
	unsigned long sis, jiffies;
	size_t first_apply, nr_apply;
	size_t first_region, nr_regions;
	unsigned long lineno;
};

/**
 * struct hs_dtrace - a trace read so far.
 * @iters:	the samples, in order.
 * @applies:	every application.
 * @regions:	every aggregation's regions.
 * @nr_iters:	how many samples.
 * @cap_iters:	room in @iters.
 * @nr_applies:	how many applications.
 * @cap_applies: room in @applies.
 * @nr_regions:	how many regions.
 * @cap_regions: room in @regions.
 * @want:	the open aggregation's nr_regions, 0 if none is open.
 * @lineno:	the line just read.
 * @nr_ignored:	lines of other events.
 * @err:	why the trace was refused.
 */
struct hs_dtrace {
	struct hs_dtrace_iter *iters;
	struct hs_dtrace_apply *applies;
	struct hs_dtrace_region *regions;
	size_t nr_iters, cap_iters;
	size_t nr_applies, cap_applies;
	size_t nr_regions, cap_regions;
	size_t want;
	unsigned long lineno;
	unsigned long nr_ignored;
	char err[160];
};

void hs_dtrace_init(struct hs_dtrace *t);
void hs_dtrace_free(struct hs_dtrace *t);
int hs_dtrace_line(struct hs_dtrace *t, const char *line, size_t len);
int hs_dtrace_end(struct hs_dtrace *t);

#endif /* HOTSCORE_RECORD_DAMOS_H */
