/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - a masim workload performed in real memory, for a real kdamond
 * to watch: the regions mmap()ed, the phases run for their wall-clock
 * durations, each access a real load or store.  The same config drives
 * hotscore sim's oracle (workload.h); docs/sim.md compares the two.
 */
#ifndef HOTSCORE_WORKLOAD_H
#define HOTSCORE_WORKLOAD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hotscore/sim_masim.h"

/* Accesses between two looks at the clock, the stop flag and the lines. */
#define HS_WLRUN_BATCH		4096

/**
 * struct hs_wlrun_line - one access line while it runs.
 * @mem:	its region's first byte.
 * @size:	its region's mapped bytes (page-rounded, as sim's oracle).
 * @step:	the stride modulo @size.
 * @pos:	sequential: the offset of the next access.
 * @random:	random (1) or sequential (0).
 * @mode:	enum hs_wl_mode.
 */
struct hs_wlrun_line {
	volatile uint8_t *mem;
	uint64_t size, step, pos;
	bool random;
	uint8_t mode;
};

/**
 * struct hs_wlrun_rnd - masim's table of random numbers, from which random
 * lines draw their offsets (masim's rndints and rndint()).
 * @table:	HS_WL_RND_ARRAYS arrays of HS_WL_RND_LEN values, one mapping;
 *		NULL when no line is random.
 * @bytes:	its mapped bytes.
 * @arr:	the array being read.
 * @ofs:	the next value's index in it; HS_WL_RND_LEN draws a new array.
 */
struct hs_wlrun_rnd {
	uint64_t *table;
	uint64_t bytes;
	uint32_t arr, ofs;
};

/**
 * struct hs_wlrun - a workload in real memory, and what it did.
 * @wl:		the parsed workload (hs_workload_parse(); not laid out).
 * @duration_ns: how long to run, the phases repeating; 0 is one pass.
 * @seed:	seeds the choice of lines and the random offsets.
 * @stop:	set (by a signal handler) to stop at once; may be NULL.
 * @tick:	called about every 200 ms while it runs, or NULL.
 * @ctx:	for @tick.
 * @mem:	each region's mapping, NULL until hs_wlrun_map().
 * @bytes:	each region's mapped bytes.
 * @first:	phase j's lines are @count[@first[j]] on; nr_phases + 1 of them.
 * @count:	accesses made by each access line of each phase, all passes.
 * @phase_ns:	time spent in each phase, all passes.
 * @phase_runs:	how many times each phase began.
 * @lines:	the current phase's lines; as many as the largest phase.
 * @cum:	their cumulative probabilities.
 * @rng:	the random state.
 * @rnd:	masim's table of random numbers (hs_wlrun_map()).
 * @t0_ns:	when the first phase began (hs_wlrun_now_ns()).
 * @accesses:	accesses made in all.
 * @elapsed_ns:	from the first phase's start to the end.
 * @active_ns:	of that, in phases with access lines (idle phases sleep).
 * @passes:	passes of the whole workload completed.
 * @phase:	the phase running now (for @tick).
 * @stopped:	whether @stop ended the run.
 */
struct hs_wlrun {
	const struct hs_workload *wl;
	uint64_t duration_ns;
	uint64_t seed;
	volatile sig_atomic_t *stop;
	void (*tick)(const struct hs_wlrun *r, void *ctx);
	void *ctx;
	uint8_t **mem;
	uint64_t *bytes;
	size_t *first;
	uint64_t *count;
	uint64_t *phase_ns;
	uint64_t *phase_runs;
	struct hs_wlrun_line *lines;
	uint64_t *cum;
	uint64_t rng;
	struct hs_wlrun_rnd rnd;
	uint64_t t0_ns;
	uint64_t accesses;
	uint64_t elapsed_ns;
	uint64_t active_ns;
	uint64_t passes;
	unsigned int phase;
	bool stopped;
};

int hs_wlrun_init(struct hs_wlrun *r, const struct hs_workload *wl,
		  char *err, size_t errlen);
int hs_wlrun_map(struct hs_wlrun *r, char *err, size_t errlen);
void hs_wlrun_run(struct hs_wlrun *r);
void hs_wlrun_free(struct hs_wlrun *r);
uint64_t hs_wlrun_now_ns(void);

#endif /* HOTSCORE_WORKLOAD_H */
