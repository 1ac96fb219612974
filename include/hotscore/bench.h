/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench.h - a measurement engine for nanosecond functions.
 *
 * It knows nothing about DAMON: it times any int f(const void *input) over
 * a pool of inputs, in batches, with the clock's and the loop's fixed cost
 * cancelled by running N and 2N calls and keeping the difference (nanoBench's
 * 2U - U).  The user-space CLI and the kernel module share it; each supplies
 * a struct hs_clock.  Kernel-safe: no library calls, no floating point.
 *
 * Units: ticks of the clock; per-call costs are in milliticks (1/1000 tick)
 * so that a 2 ns call keeps three significant digits in an integer.
 */
#ifndef HOTSCORE_BENCH_H
#define HOTSCORE_BENCH_H

#include "compat.h"
#include "bench_stats.h"

/* Keep @x alive: the compiler must compute it into a register. */
#define hs_sink(x) __asm__ __volatile__("" : : "r"(x))
/* Make @x opaque: the compiler can no longer assume its value. */
#define hs_hide(x) __asm__("" : "+r"(x))

/*
 * The serialised counter reads of bench-methodology.md: the fences keep the
 * timed work from leaking across the read in either direction.
 */
#if defined(__x86_64__)
#define HS_HAVE_ARCH_COUNTER 1
#define HS_ARCH_COUNTER_IS_TSC 1
#define HS_ARCH_COUNTER_NAME "tsc (lfence; rdtsc; lfence)"
static inline uint64_t hs_arch_counter(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc\n\tlfence"
			     : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}
#elif defined(__aarch64__)
#define HS_HAVE_ARCH_COUNTER 1
#define HS_ARCH_COUNTER_IS_TSC 0	/* the generic timer: no cycles */
#define HS_ARCH_COUNTER_NAME "cntvct_el0 (isb; mrs)"
static inline uint64_t hs_arch_counter(void)
{
	uint64_t v;

	__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0\n\tisb"
			     : "=r"(v) : : "memory");
	return v;
}
#else
#define HS_HAVE_ARCH_COUNTER 0
#endif

typedef int (*hs_bench_fn)(const void *input);

/*
 * Code placement.  Where a timed function's first byte falls in its 64-byte
 * line moves its cost by several per cent (docs/bench.md, "Placements"),
 * and address-space randomization moves code only in whole pages, so a
 * re-run never varies it: only a rebuild does.  User space therefore
 * compiles every timed function HS_NR_PLACEMENTS times, copy k entering at
 * byte HS_PLACEMENT_OFFSET(k) of a 64-byte line, and samples the copies as
 * it samples invocations.  The module keeps one copy: the kernel's own
 * function padding (CALL_PADDING, kCFI) sits where the offset would go.
 */
#ifdef __KERNEL__
#define HS_NR_PLACEMENTS 1
#define HS_PLACED(offset) __attribute__((__noinline__))
#else
#define HS_NR_PLACEMENTS 4
/* @offset nops, then the entry: at @offset of a 64-byte aligned line */
#define HS_PLACED(offset)						\
	__attribute__((__noinline__, __aligned__(64),			\
		       __patchable_function_entry__(offset, offset)))
#endif
#define HS_PLACEMENT_OFFSET(k)	((k) * 64 / HS_NR_PLACEMENTS % 64)

/*
 * HS_PLACEMENT_COPIES(name, body...) defines name_at0 .. name_at48, each
 * an int f(const void *input) with @body; HS_PLACEMENT_TABLE(name) is the
 * initializer of their table, copy k at HS_PLACEMENT_OFFSET(k).  In the
 * kernel: name_at0 alone.
 */
#define HS_PLACED_FN(name, at, ...)					\
	static HS_PLACED(at) int name##_at##at(const void *input) __VA_ARGS__
#ifdef __KERNEL__
#define HS_PLACEMENT_COPIES(name, ...) HS_PLACED_FN(name, 0, __VA_ARGS__)
#define HS_PLACEMENT_TABLE(name) { name##_at0 }
#else
#define HS_PLACEMENT_COPIES(name, ...)					\
	HS_PLACED_FN(name, 0, __VA_ARGS__)				\
	HS_PLACED_FN(name, 16, __VA_ARGS__)				\
	HS_PLACED_FN(name, 32, __VA_ARGS__)				\
	HS_PLACED_FN(name, 48, __VA_ARGS__)
#define HS_PLACEMENT_TABLE(name)					\
	{ name##_at0, name##_at16, name##_at32, name##_at48 }
#endif

int hs_bench_empty(const void *input);
extern const hs_bench_fn hs_bench_empty_placed[HS_NR_PLACEMENTS];

/**
 * struct hs_clock - what the engine reads time (and maybe counters) from.
 * @name:	e.g. "tsc (lfence; rdtsc; lfence)".
 * @read:	the current tick count.
 * @hz:		ticks per second (calibrated for the TSC).
 * @tsc:	ticks are TSC ticks, not core cycles: label them so.
 * @step:	the smallest advance of @read, in ticks (its resolution).
 * @counters:	optional: fills cycles and instructions so far; NULL when the
 *		machine has no usable PMU.
 * @enter:	optional: called before each timed batch (the kernel module
 *		turns preemption and interrupts off here).
 * @leave:	optional: called after each timed batch, undoing @enter.
 * @ctx:	passed to @counters, @enter and @leave.
 */
struct hs_clock {
	const char *name;
	uint64_t (*read)(void);
	uint64_t hz;
	bool tsc;
	uint64_t step;
	bool (*counters)(void *ctx, uint64_t *cycles, uint64_t *instructions);
	void (*enter)(void *ctx);
	void (*leave)(void *ctx);
	void *ctx;
};

enum hs_bench_mode {
	HS_THROUGHPUT,	/* independent calls: the cost of a call in a loop */
	HS_LATENCY,	/* each result feeds the next input's address */
	HS_NR_MODES
};

/**
 * struct hs_pool - the inputs, used round-robin.
 * @base:	the first input.
 * @stride:	bytes from one input to the next.
 * @nr:		how many (at least 1).
 * @units:	work units a call does (a batch's regions); 0 or 1: one.
 *		hs_bench_rounds() makes N / @units calls of such a pool, so
 *		that every function of a round runs about as long.
 */
struct hs_pool {
	const void *base;
	size_t stride;
	size_t nr;
	size_t units;
};

/**
 * struct hs_sample - one differenced measurement.
 * @ticks_n:	ticks for N calls, timer and loop overhead included.
 * @ticks_2n:	ticks for 2N calls.
 * @mt:		(ticks_2n - ticks_n) * 1000 / N: milliticks per call, with
 *		the overhead cancelled; 0 if the difference is negative.
 * @scale:	ticks_2n * 1000 / ticks_n: 2000 when the work scales.
 * @cycles:	core cycles per call x 1000, when @counters.
 * @instructions: instructions per call x 1000, when @counters.
 * @counters:	@cycles and @instructions are valid.
 */
struct hs_sample {
	uint64_t ticks_n, ticks_2n;
	uint64_t mt;
	uint64_t scale;
	uint64_t cycles, instructions;
	bool counters;
};

/* Why a measurement cannot be the function's cost. */
enum hs_check {
	HS_CHECK_OK,
	HS_CHECK_AT_BASELINE,	/* no slower than calling an empty function */
	HS_CHECK_NO_SCALING,	/* 2N calls did not take about twice N */
};

uint64_t hs_bench_batch(const struct hs_clock *clk, hs_bench_fn fn,
			const struct hs_pool *pool, size_t start, size_t calls,
			enum hs_bench_mode mode);
void hs_bench_sample(const struct hs_clock *clk, hs_bench_fn fn,
		     const struct hs_pool *pool, size_t start, size_t n,
		     enum hs_bench_mode mode, bool long_first,
		     struct hs_sample *out);
size_t hs_bench_start(unsigned int k, size_t nr);
size_t hs_pool_calls(const struct hs_pool *pool, size_t n);
void hs_bench_rounds(const struct hs_clock *clk, const hs_bench_fn *fns,
		     const struct hs_pool *const *pools, unsigned int nr_fns,
		     size_t n, enum hs_bench_mode mode, unsigned int round,
		     struct hs_sample *out);
enum hs_check hs_bench_check(uint64_t median_mt, uint64_t baseline_mt,
			     uint64_t median_scale, uint64_t hz);
const char *hs_check_name(enum hs_check check);
const char *hs_mode_name(enum hs_bench_mode mode);
uint64_t hs_mt_to_ps(uint64_t mt, uint64_t hz);

/* Verdicts of an A/B comparison; see hs_verdict(). */
enum hs_verdict {
	HS_SAME,	/* not significant, or within the noise band */
	HS_FASTER,	/* the variant is faster than the baseline */
	HS_SLOWER,
	HS_UNDECIDED,	/* fewer than HS_MIN_ROUNDS paired rounds */
};

#define HS_NOISE_BAND_PPM 10000	/* 1 % */
/*
 * Below 6 observations (rounds, or cells of hs_cells_ratio()) no
 * distribution-free 95 % interval for a median exists (the sign test's
 * smallest two-sided p is 2/2^5 > 0.05 at 5), and a bootstrap interval
 * from so few is too narrow: no verdict then.
 */
#define HS_MIN_ROUNDS 6

enum hs_verdict hs_verdict(uint64_t ratio, uint64_t ci_low, uint64_t ci_high,
			   uint64_t band);
const char *hs_verdict_name(enum hs_verdict v);

/**
 * struct hs_plan - how a stream runs (src/bench/plan.c).
 * @n:		N: calls of a function in a sample's short batch.
 * @rounds_per_run: paired rounds a run holds.
 * @runs:	runs (blocks), each after its own warm-up.
 */
struct hs_plan {
	size_t n;
	size_t rounds_per_run;
	unsigned int runs;
};

size_t hs_plan_batch(const struct hs_clock *clk, const struct hs_pool *pool,
		     size_t n, size_t max_n);
void hs_plan_rounds(struct hs_plan *p, uint64_t iterations,
		    size_t max_rounds);

/**
 * struct hs_bench_stream - one stream of a run (a distribution in one
 * mode): its functions and where their samples go (src/bench/stream.c).
 * @fns:	placements x nr_fns functions, placement-major: fns[pl *
 *		nr_fns + k] is function k's copy at placement pl; fns[0] is
 *		usually the empty baseline.
 * @pools:	each function's inputs.
 * @units:	per function, work units a call does (a batch function's
 *		regions): its samples are per unit; NULL: one.
 * @mode:	throughput or latency.
 * @mt:		per function, room for the samples of every cell: cell
 *		(block b, placement pl) holds 2 x rounds_per_run from
 *		(b x placements + pl) x 2 x rounds_per_run on: milliticks per
 *		call (or unit).
 * @scale:	the same for ticks_2n * 1000 / ticks_n, or NULL.
 * @cycles:	the same for core cycles x 1000, or NULL.
 * @ins:	the same for instructions x 1000, or NULL.
 * @counters:	per function, or NULL: cleared when one of its samples had
 *		no cycle and instruction counts (the caller sets it first).
 */
struct hs_bench_stream {
	const hs_bench_fn *fns;
	const struct hs_pool *const *pools;
	const unsigned int *units;
	enum hs_bench_mode mode;
	uint64_t **mt, **scale, **cycles, **ins;
	bool *counters;
};

/**
 * struct hs_run_at - where a run is, for its per-round hook.
 * @block:	the block (an invocation, or a module's run).
 * @stream:	the stream's index.
 * @placement:	the cell's placement.
 * @round:	the round of the cell just measured, from 0.
 */
struct hs_run_at {
	size_t block;
	unsigned int stream;
	unsigned int placement;
	size_t round;
};

/**
 * struct hs_run - what hs_bench_run() measures, and how.
 * @clk:	the clock.
 * @streams:	the streams, measured one after another in each block.
 * @nr_streams:	how many.
 * @nr_fns:	functions in every stream.
 * @placements:	copies of each function, 1 to HS_NR_PLACEMENTS.
 * @plan:	N, rounds per cell, and @plan.runs blocks.
 * @first_block: the first block measured: with one block per process,
 *		its number; the other blocks' slots are left as they are.
 * @warmup:	clock ticks of untimed calls of every function at every
 *		placement before each stream of a block (one pass at least).
 * @shuffle:	the cells of a stream, and the functions of a cell, in a
 *		random order from @seed; else in their index order.
 * @seed:	the user's seed.
 * @round:	called after each round (progress; cond_resched() in the
 *		kernel); a non-zero return stops the run with it.
 * @ctx:	for @round.
 * @scratch:	room for HS_RUN_SCRATCH(@nr_fns) bytes, 8-byte aligned.
 */
struct hs_run {
	const struct hs_clock *clk;
	const struct hs_bench_stream *streams;
	unsigned int nr_streams, nr_fns, placements;
	struct hs_plan plan;
	size_t first_block;
	uint64_t warmup;
	bool shuffle;
	uint64_t seed;
	int (*round)(void *ctx, const struct hs_run_at *at);
	void *ctx;
	void *scratch;
};

/* Bytes of scratch hs_bench_run() needs for @nr_fns functions. */
#define HS_RUN_SCRATCH(nr_fns)						\
	((nr_fns) * (2 * sizeof(struct hs_sample) + sizeof(hs_bench_fn) + \
		     sizeof(struct hs_pool *) + sizeof(unsigned int)))

/**
 * struct hs_run_result - what a run spent, besides its samples.
 * @warmup_ticks: clock ticks in warm-ups.
 * @round_ticks: clock ticks in the cells' rounds, every stream's.
 */
struct hs_run_result {
	uint64_t warmup_ticks, round_ticks;
};

int hs_bench_run(const struct hs_run *run, struct hs_run_result *out);

/**
 * struct hs_cost - a function's cost on replayed inputs (src/bench/replay.c).
 * @fn_ps:	median picoseconds per call of the function.
 * @empty_ps:	the same for the empty function: the floor of a call.
 * @n:		calls per batch.
 * @rounds:	rounds (each times both functions).
 * @check:	whether @fn_ps can be the function's cost at all.
 */
struct hs_cost {
	uint64_t fn_ps, empty_ps;
	size_t n;
	unsigned int rounds;
	enum hs_check check;
};

int hs_bench_replay(const struct hs_clock *clk, hs_bench_fn fn,
		    const struct hs_pool *pool, struct hs_cost *out);

#define HS_BOOTSTRAP_ROUNDS 2000	/* resamples of a paired interval */

/**
 * struct hs_paired - a function against the baseline (src/bench/analysis.c).
 * @ratio:	median over rounds of baseline time / function time, in ppm.
 * @ci_low:	its bootstrap 95 % interval, with HS_MIN_ROUNDS rounds or more.
 * @ci_high:	the interval's upper end.
 * @rounds:	rounds where all four samples measured something.
 * @verdict:	faster, slower, the same or undecided.
 */
struct hs_paired {
	uint64_t ratio, ci_low, ci_high;
	size_t rounds;
	enum hs_verdict verdict;
};

/* Scratch values hs_paired_ratio() needs for @nr samples of each side. */
#define HS_PAIRED_SCRATCH(nr)	((nr) / 2 * 3 + HS_BOOTSTRAP_ROUNDS)

/**
 * struct hs_cells - the paired samples of a function, its baseline and
 * the empty call, in cells: @blocks (invocations, or a module's runs) x
 * @placements x @rounds x 2 samples, block-major (src/bench/analysis.c).
 * @base:	the baseline's samples, per unit.
 * @fn:		the function's, in the same rounds.
 * @empty:	the empty call's, in the same rounds, per call: the
 *		function's own (its door's, for a candidate's).
 * @base_units:	units (regions) a call of the baseline does; 0: one.
 * @fn_units:	the same for the function.
 * @blocks:	blocks, at least 1, in the order they were measured.
 * @placements:	placements, at least 1.
 * @rounds:	rounds per cell, at least 1.
 * @extra_var:	a variance of the log ratio that the blocks cannot show,
 *		measured elsewhere (an A/A pair's excess, hs_excess_var();
 *		HS_LOG_ONE^2 units; 0: none), added to both intervals.
 * @base_empty:	the baseline's empty call, if another than @empty (a
 *		built-in against a candidate); NULL: @empty.
 */
struct hs_cells {
	const uint64_t *base, *fn, *empty;
	unsigned int base_units, fn_units;
	size_t blocks, placements, rounds;
	uint64_t extra_var;
	const uint64_t *base_empty;
};

/**
 * struct hs_estimate - a ratio, ppm, and its two 95 % intervals.
 * @value:	the estimate; 0 when nothing was observed.
 * @low:	the confidence interval of the true ratio, its lower end
 *		(0 and @high 0: none).  The verdict is read from it.
 * @high:	its upper end.
 * @rerun_low:	where a re-run's estimate lands, 95 % of the time: its
 *		lower end (0 and @rerun_high 0: none).
 * @rerun_high:	its upper end.
 */
struct hs_estimate {
	uint64_t value, low, high, rerun_low, rerun_high;
};

/* Fixed-point one of a base-2 logarithm (analysis.c's log scale). */
#define HS_LOG_ONE (1LL << 24)

/**
 * struct hs_cell_stats - what hs_cells_ratio() found.
 * @ratio:	baseline time / function time: each cell's median round,
 *		their geometric mean over placements per block, the 10 %
 *		trimmed mean of that over blocks (on the log scale); with
 *		its confidence and re-run intervals.
 * @net:	the same with the empty call's cost taken from both first.
 * @within_process: one cell: @ratio's interval is of its rounds only.
 * @log_value:	@ratio's log2, HS_LOG_ONE units.
 * @log_var:	its squared standard error, HS_LOG_ONE^2 units, without
 *		@c->extra_var (for an A/A pair's excess).
 * @units:	what the intervals are over: blocks, or placements when
 *		there is one block.
 * @df:		the intervals' degrees of freedom (units kept - 1).
 * @layout_low:	layout sensitivity: the lowest placement's ratio, ppm
 *		(its geometric mean over the blocks); 0: one placement.
 * @layout_high: the highest.
 * @layout_sd:	the placements' standard deviation, ppm of the ratio.
 * @vn:		the von Neumann ratio of the blocks in time order, x 1000
 *		(1000: no time structure; 0: too few blocks).
 * @trend:	@vn says the blocks drift over the run (one-sided 5 %); the
 *		variance was widened (2000 - @vn) / @vn times.
 * @state_n:	two states among the blocks: how many in the lower and the
 *		upper (0, 0: one state).
 * @state:	the two states' ratios, ppm.
 * @rounds:	rounds where all four samples measured something.
 * @cells:	cells where one of them did (the others are left out).
 * @var_round:	a round's ratio's variance within its cell, ppm^2.
 * @var_within:	a cell value's variance from its rounds, ppm^2.
 * @var_block:	the blocks' (invocations') component, ppm^2.
 * @var_placement: the placements' component, ppm^2.
 * @var_residual: what is left: their interaction, ppm^2.
 * @nr_outliers: blocks unlike the others and outside the re-run interval.
 * @outliers:	which, as a bit mask of the first 64 blocks.
 * @verdict:	from @ratio's confidence interval.
 */
struct hs_cell_stats {
	struct hs_estimate ratio, net;
	bool within_process;
	int64_t log_value;
	uint64_t log_var;
	size_t units, df;
	uint64_t layout_low, layout_high, layout_sd;
	unsigned int vn;
	bool trend;
	size_t state_n[2];
	uint64_t state[2];
	size_t rounds, cells;
	uint64_t var_round, var_within, var_block, var_placement;
	uint64_t var_residual;
	unsigned int nr_outliers;
	uint64_t outliers;
	enum hs_verdict verdict;
};

/* Scratch values hs_cells_ratio() needs. */
#define HS_CELLS_SCRATCH(blocks, placements, rounds)			\
	(4 * (blocks) * (placements) + 3 * (rounds) + 4 * (blocks) +	\
	 4 * (placements) + HS_BOOTSTRAP_ROUNDS)

/* What the blocks of a comparison are: what its interval can speak for. */
enum hs_blocks {
	HS_BLOCKS_PROCESSES,	/* invocations: processes, one after another */
	HS_BLOCKS_IN_PROCESS,	/* invocations that could not exec: in here */
	HS_BLOCKS_MODULE_RUNS,	/* a module's runs: time blocks of one load */
};

/* What an interval is over (hs_cells_ratio()'s units), so what it holds. */
enum hs_interval_kind {
	HS_IV_ROUNDS,		/* one cell: one process's (or run's) rounds */
	HS_IV_PLACEMENTS,	/* one invocation: its placements */
	HS_IV_MODULE_RUNS,	/* a module's runs: time blocks of one load */
	HS_IV_BLOCKS,		/* blocks in one process */
	HS_IV_RERUN,		/* invocations, placements a fixed factor */
};

/**
 * struct hs_interval - the interval every ratio of a comparison gets,
 * decided once (hs_interval_choose()) and recorded for the reporters.
 * @kind:	what it is over.
 * @seed:	the bootstrap's seed (one cell's), from the user's.
 */
struct hs_interval {
	enum hs_interval_kind kind;
	uint64_t seed;
};

uint64_t hs_bootstrap_seed(uint64_t seed);
uint64_t hs_comparison_key(const char *name, enum hs_bench_mode mode);
uint64_t hs_comparison_seed(uint64_t seed, uint64_t k);
void hs_interval_choose(struct hs_interval *iv, size_t blocks,
			size_t placements, enum hs_blocks what, uint64_t seed);
const char *hs_interval_name(enum hs_interval_kind kind);

void hs_cells_ratio(const struct hs_cells *c, uint64_t seed,
		    uint64_t *scratch, struct hs_cell_stats *out);
uint64_t hs_excess_var(const struct hs_cell_stats *aa, size_t n);
int64_t hs_log2_fixed(uint64_t x);
uint64_t hs_exp2_ppm(int64_t l);
uint64_t hs_kj_rounds(uint64_t block_cost, uint64_t round_cost,
		      uint64_t var_round, uint64_t var_block);
uint64_t hs_median(const uint64_t *v, size_t n, uint64_t *scratch);
size_t hs_summary_nonzero(const uint64_t *v, size_t n, uint64_t *scratch,
			  struct hs_summary *out);
void hs_paired_ratio(const uint64_t *base, const uint64_t *fn, size_t nr,
		     uint64_t seed, uint64_t *scratch, struct hs_paired *out);

/* Scratch values hs_runs_ratio() needs for runs of @na and @nb values. */
#define HS_RUNS_SCRATCH(na, nb)	(2 * ((na) > (nb) ? (na) : (nb)))
enum hs_verdict hs_runs_ratio(const uint64_t *a, size_t na, const uint64_t *b,
			      size_t nb, uint64_t *scratch,
			      struct hs_estimate *out);

#endif /* HOTSCORE_BENCH_H */
