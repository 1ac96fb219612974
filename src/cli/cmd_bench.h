/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_bench.h - `hotscore bench`: what the run produced, for the reporters.
 *
 * cmd_bench.c measures (through the engine in src/bench/); the reporters
 * (src/cli/report/, over bench_report.c) only format what is in struct
 * bench.  All per-call costs are in milliticks of the host clock (see
 * include/hotscore/bench.h).
 */
#ifndef HOTSCORE_CLI_CMD_BENCH_H
#define HOTSCORE_CLI_CMD_BENCH_H

#include <stdio.h>

#include <hotscore/bench_calls.h>
#include <hotscore/bench_damon.h>
#include <hotscore/host.h>
#include <hotscore/simd.h>
#include <hotscore/spec.h>

#define BENCH_MAX_LIST 32	/* variants, distributions or modes */
#define BENCH_KTIME_EVERY 1000	/* the seed timed one call in 1000 */
#define BENCH_KTIME_BUCKETS 6	/* 0-19 .. 80-99, 100+ ns */
/* samples of each cost class, and runs of the seed's ktime method */
#define BENCH_CLASS_RUNS 5

/** struct bench_class - inputs that take the same path, timed together. */
struct bench_class {
	unsigned int key;		/* hs_cost_class() */
	uint64_t count;			/* how many of the iterations */
	struct hs_input *inputs;	/* up to the pool size of them */
	size_t nr;
};

/*
 * The classes of one distribution under one (frequency, divisor, clamp):
 * the age_in_log methods compute the same age_in_log, so they share them.
 */
struct bench_classes {
	struct hs_components canon;
	struct bench_class *c;
	unsigned int nr;
};

/**
 * struct bench_calls - what a variant that is not given a struct hs_input
 * is given instead, made from a distribution's pool (bench_calls.c).
 * @c:		the calls, by the builder hotscore.ko uses too.
 * @impl:	the batch scorer a vector variant uses on this distribution.
 * @door:	HS_CALL_DOOR: the calls prepared for the candidate door.
 */
struct bench_calls {
	struct hs_calls c;
	enum hs_fast_impl impl;
	void *door;
};

/** struct bench_dist - one distribution: its pool and where it came from. */
struct bench_dist {
	char name[128];			/* "seed", "file:PATH" */
	enum hs_dist kind;		/* HS_NR_DISTS for a file */
	const char *path;		/* for a file */
	struct hs_input *pool;		/* what the mixed stream cycles over */
	size_t nr_pool;
	struct hs_input *rows;		/* a file's rows */
	size_t nr_rows;
	size_t nr_nested;		/* a capture's rows left out */
	struct bench_classes sets[BENCH_MAX_LIST];
	unsigned int nr_sets;
	struct bench_calls calls[BENCH_MAX_LIST];	/* per variant */
	struct hs_pool input_pool;			/* of struct hs_input */
};

/** struct bench_ktime - the seed module's figures, by its own method. */
struct bench_ktime {
	uint64_t average_ns_x1000;	/* total loop time / calls */
	uint64_t p95_ns, p99_ns, min_ns, max_ns;
	uint64_t buckets[BENCH_KTIME_BUCKETS];	/* timed calls, all runs */
	size_t samples;
};

/**
 * struct bench_result - one (distribution, mode, variant).
 * @variant:	NULL for the empty-call baseline and the door.
 * @name:	the variant's name, "empty", or "door".
 * @door:	this is the door to nothing (a candidate object's).
 * @dist:	the distribution's index.
 * @mode:	throughput or latency.
 * @mt:		per-call cost of every sample (the mixed stream), milliticks.
 * @scale:	each sample's ticks_2n * 1000 / ticks_n.
 * @cycles:	each sample's core cycles x 1000, when @counters.
 * @ins:	each sample's instructions x 1000, when @counters.
 * @n:		samples in each array: 2 x runs x rounds.
 * @ns:		the summary of @mt.
 * @nonpositive: samples of 0, left out of @ns (a summary of the others):
 *		the engine clamps to 0 the difference of a 2N batch that
 *		took no longer than its N batch, which is noise, not the
 *		cost of a call.
 * @scale_median: the median of @scale (2000 when the work scales).
 * @counters:	every sample had cycle and instruction counts.
 * @cycles_median: the median of @cycles.
 * @ins_median:	the median of @ins.
 * @check:	the dead-code self-check.
 * @baseline:	this is the comparison's baseline (the first variant).
 * @ratio:	baseline time / this time, ppm, median over paired rounds.
 * @ci_low:	the bootstrap 95 % interval of @ratio, its lower end.
 * @ci_high:	its upper end.
 * @rounds:	paired rounds behind @ratio.
 * @verdict:	faster, slower, no difference or undecided.
 * @cells:	the comparison over invocations and placements: the net
 *		ratio, the variance components, invocations unlike the rest.
 * @cls:	the cost classes of the distribution, for this variant.
 * @cls_mt:	the median cost per call of each class.
 * @cls_mean:	the classes' mean, weighted by their inputs.
 * @cls_p95:	the weighted 95th percentile.
 * @cls_p99:	the weighted 99th percentile.
 * @cls_min:	the cheapest class.
 * @cls_max:	the dearest class.
 * @has_ktime:	@ktime holds the seed module's method's figures.
 * @ktime:	those figures.
 */
struct bench_result {
	const struct hs_variant *variant;
	const char *name;
	bool door;
	unsigned int dist;
	enum hs_bench_mode mode;
	uint64_t *mt, *scale, *cycles, *ins;
	size_t n;
	struct hs_summary ns;
	size_t nonpositive;
	uint64_t scale_median;
	bool counters;
	uint64_t cycles_median, ins_median;
	enum hs_check check;
	bool baseline;
	uint64_t ratio, ci_low, ci_high;
	size_t rounds;
	enum hs_verdict verdict;
	struct hs_cell_stats cells;
	const struct bench_classes *cls;
	uint64_t *cls_mt;		/* median cost per call, per class */
	uint64_t cls_mean, cls_p95, cls_p99, cls_min, cls_max;
	bool has_ktime;
	struct bench_ktime ktime;
};

enum bench_format { FORMAT_TEXT, FORMAT_COMMIT, FORMAT_MARKDOWN };

/* Why a run stopped adding invocations. */
enum bench_stop {
	STOP_FIXED,		/* --invocations K, or an --import */
	STOP_PRECISION,		/* every CI within --precision */
	STOP_BUDGET,		/* --budget would have passed */
	STOP_LIMIT,		/* BENCH_MAX_INVOCATIONS */
};

/* The budget's fewest and most invocations (docs/bench.md, "Budget"). */
#define BENCH_MIN_INVOCATIONS 12
#define BENCH_MAX_INVOCATIONS 100

#define BENCH_UNKNOWN "unknown"	/* what an old module's results lack */

/**
 * struct bench_vector - the measured machine's vector unit, recorded when
 * it is measured (cmd_bench.c) or read from hotscore.ko's results
 * (bench_import.c), so that a report describes that machine and never
 * asks the one printing it.
 * @impl:	the batch scorer fast-batch scores with: "avx512", "avx2",
 *		"scalar" (also the module's: the kernel has no vector
 *		scorer), or BENCH_UNKNOWN from a module that did not say.
 * @flags:	the CPU flags that matter to the scorers, as /proc/cpuinfo
 *		names them ("avx2 bmi1 bmi2 avx512f ..."), "none", or
 *		BENCH_UNKNOWN.
 */
struct bench_vector {
	char impl[16];
	char flags[160];
};

/*
 * struct bench - the configuration and everything measured.
 *
 * The paired rounds are laid out in cells (bench_invoke.c): @invocations
 * x @placements x @rounds, each round two samples per function.  An
 * --import has the module's runs as its invocations ("time blocks" in one
 * load, @module_blocks) and one placement.
 */
struct bench {
	/* configuration */
	unsigned long iterations, invocations, placements, batch, pool;
	uint64_t warmup_us;
	/*
	 * Without --invocations, invocations are added until every
	 * confidence interval is within @precision_ppm (--precision) or
	 * @budget_us (--budget) would pass: @budget.
	 */
	bool budget;
	uint64_t budget_us, precision_ppm;
	uint64_t start_ns;		/* when the run began */
	enum bench_stop stop;		/* why the invocations stopped */
	uint64_t widest_ppm;		/* the widest CI's half-width then */
	const struct bench_result *widest;	/* whose */
	uint64_t seed;			/* --seed: the inputs' */
	uint64_t order_seed;		/* --order_seed: the orders' */
	int cpu;
	enum hs_clock_choice clock;
	bool ktime, accuracy;
	bool fixed_layout;		/* --fixed-layout: ASLR off, one layout */
	enum hs_layout layout;		/* is ASLR off for this run */
	enum hs_fast_impl simd;		/* HOTSCORE_SIMD's choice, for fast-batch */
	enum bench_format format;
	const char *json, *csv, *svg;
	const char *import;		/* --import: hotscore.ko's results */
	const struct hs_variant *variants[BENCH_MAX_LIST];
	unsigned int nr_variants;
	/* candidates (hotscore/spec.h): the spec, loaded, and its variant */
	struct hs_spec cand_spec[BENCH_MAX_LIST];
	struct hs_spec against_spec, base_spec;	/* resolved: bench_cand.c */
	const struct hs_cand *cand[BENCH_MAX_LIST];
	struct hs_variant cand_var[BENCH_MAX_LIST];
	hs_bench_fn cand_placed[BENCH_MAX_LIST][HS_NR_PLACEMENTS];
	/*
	 * The door (bench_cand.c): with a candidate in the run, every variant
	 * of one call an input goes through a candidate object's door, a
	 * built-in as its kernel source compiled as a candidate; door_obj
	 * builds a variant's calls, door_empty[] is the door to nothing (the
	 * "door" row, timed on door_pool's calls), doors its results.
	 */
	const struct hs_cand *door_obj[BENCH_MAX_LIST];
	hs_bench_fn door_empty[HS_NR_PLACEMENTS];
	bool has_door;
	unsigned int door_pool;
	struct bench_result *doors;	/* [dist][mode], when has_door */
	bool allow_different;		/* --allow-different */
	char differs[BENCH_MAX_LIST][HS_SPEC_GIVEN + 256]; /* "differs from P on N inputs" */
	unsigned long long pool_differs[BENCH_MAX_LIST];
	const struct hs_profile *against;	/* what candidates must equal */
	const struct hs_profile *base;		/* their kernel's divisor */
	enum hs_bench_mode modes[BENCH_MAX_LIST];
	unsigned int nr_modes;
	struct bench_dist dists[BENCH_MAX_LIST];
	unsigned int nr_dists;
	char command[4096];
	const char *compiler, *cflags;	/* of this build, for the reports */
	/* what was measured: the machine (its CPU model and clock), ... */
	struct hs_host host;
	struct bench_vector vector;
	size_t n;			/* N of every sample */
	size_t rounds;			/* paired rounds per cell */
	bool module_blocks;		/* invocations are a module's runs */
	bool blocks_in_process;		/* could not exec: blocks in here */
	unsigned long blocks_fixed;	/* invocations that had ASLR off */
	int block, block_fd;		/* an invocation: its block, its pipe */
	uint64_t stream_ns;		/* in rounds, all invocations */
	uint64_t blocks_ns;		/* measuring all invocations, wall */
	struct hs_interval interval;	/* what every ratio's interval is */
	struct bench_result *results;	/* [dist][mode][variant + 1] */
	/*
	 * The A/A pair: the baseline against itself (the same code, timed as
	 * one more function), [dist][mode]; NULL for an --import.  aa_var:
	 * each mode's excess (hs_excess_var()), added to its intervals.
	 */
	struct bench_result *aa;
	uint64_t aa_var[BENCH_MAX_LIST];
	uint64_t core_hz;		/* --accuracy: median core clock */
	uint64_t add_ppm;		/* median core cycles per add, ppm */
};

/* results[dist][mode][0] is the empty-call baseline, then the variants. */
static inline struct bench_result *bench_at(struct bench *b, unsigned int d,
					    unsigned int m, unsigned int v)
{
	return &b->results[(d * b->nr_modes + m) * (b->nr_variants + 1) + v];
}

/* The door's result of (dist, mode), or NULL: no door in this run. */
static inline struct bench_result *bench_door_at(const struct bench *b,
						 unsigned int d,
						 unsigned int m)
{
	return b->doors ? &b->doors[d * b->nr_modes + m] : NULL;
}

/* The A/A pair's result of (dist, mode), or NULL: none in this run. */
static inline struct bench_result *bench_aa_at(const struct bench *b,
					       unsigned int d, unsigned int m)
{
	return b->aa ? &b->aa[d * b->nr_modes + m] : NULL;
}

/* an invocation's environment pad: 0 .. BENCH_PAD_MAX - 1 bytes */
#define BENCH_PAD_MAX 4096
/* its pools: BENCH_POOL_ALIGN x 0 .. 63 bytes into a page-aligned buffer */
#define BENCH_PAGE 4096
#define BENCH_POOL_ALIGN 64

bool bench_block_child(struct bench *b);
bool bench_enough(struct bench *b, size_t blocks, uint64_t elapsed_ns);
size_t bench_pad_len(uint64_t order_seed, size_t block);
size_t bench_pool_offset(uint64_t order_seed, size_t block, unsigned int pool);
void bench_block_env(const struct bench *b, size_t block, int fd, char *buf,
		     size_t size);
void bench_measure_blocks(struct bench *b);
extern const struct hs_alloc bench_alloc;
void bench_build_calls(struct bench *b, struct bench_dist *d);
const struct hs_pool *bench_pool(const struct bench *b,
				 const struct bench_dist *d, unsigned int v);
void bench_vet_calls(const struct bench *b, const struct bench_dist *d);
void bench_import(struct bench *b);
/* bench_cand.c: candidates loaded, placed and vetted */
void bench_load_candidates(struct bench *b);
void bench_door_calls(struct bench *b, struct bench_dist *d, unsigned int v);
void bench_door_vet(const struct bench *b, const struct bench_dist *d,
		    unsigned int v);
void *bench_door_pool(const struct bench *b, unsigned int v,
		      const struct hs_input *in, size_t nr,
		      struct hs_pool *pool);
void bench_pool_vet(struct bench *b, unsigned int v, struct bench_dist *d,
		    size_t j);
/* bench_inputs.c: the pools, checked, and their cost classes */
void bench_build_pool(struct bench *b, struct bench_dist *d);
void bench_check_inputs(struct bench *b, struct bench_dist *d);
struct bench_classes *bench_class_set(struct bench_dist *d,
				      const struct hs_components *comp);
void bench_build_classes(struct bench *b, struct bench_dist *d,
			 struct bench_classes *set);
void bench_choose_interval(struct bench *b);
double bench_ns(const struct bench *b, uint64_t mt);
double bench_ppm(uint64_t ppm);
void bench_print_text(struct bench *b, FILE *f);
void bench_print_commit(struct bench *b, FILE *f);
void bench_print_markdown(struct bench *b, FILE *f);
void bench_write_json(struct bench *b, FILE *f);
void bench_write_csv(struct bench *b, FILE *f);
void bench_write_svg(struct bench *b, FILE *f);

#endif /* HOTSCORE_CLI_CMD_BENCH_H */
