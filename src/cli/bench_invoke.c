// SPDX-License-Identifier: GPL-2.0
/*
 * bench_invoke.c - how `hotscore bench` lays out its paired rounds: K
 * invocations (separate processes, run one after another) x P code
 * placements x r rounds.  An invocation is this program executed again
 * with HOTSCORE_BENCH_BLOCK set: it measures its block and writes the
 * samples to a pipe; the first process reads them into the results, as if
 * it had measured them itself.  With --invocations 1 the one block is
 * measured in this process.
 *
 * Why invocations: round ratios inside one process share its state, and
 * between processes the state differs (docs/bench.md, "Intervals").  Why
 * placements: copies of one function at other entry offsets differ by
 * several per cent, and only a rebuild would show it otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hotscore/host.h>

#include "bench.h"
#include "cli.h"

#define BLOCK_ENV "HOTSCORE_BENCH_BLOCK"
#define BLOCK_MAGIC 0x68736b626c6f636bULL	/* "hskblock" */

/* Samples of one (distribution, mode, function) in block @block. */
static size_t block_off(const struct bench *b, size_t block)
{
	return block * b->placements * 2 * b->rounds;
}

static size_t block_len(const struct bench *b)
{
	return b->placements * 2 * b->rounds;
}

/* The copy of function @k (0: the empty call) at placement @pl. */
static hs_bench_fn placed_fn(const struct bench *b, unsigned int k,
			     unsigned int pl)
{
	const struct hs_variant *v;

	if (!k)
		return hs_bench_empty_placed[pl];
	v = b->variants[k - 1];
	return v->placed ? v->placed[pl] : v->fn;
}

/* A permutation of 0..@n-1 into @p, from @state. */
static void shuffle(unsigned int *p, unsigned int n, uint64_t *state)
{
	unsigned int i, j, t;

	for (i = 0; i < n; i++)
		p[i] = i;
	for (i = n; i > 1; i--) {
		j = (unsigned int)(hs_stats_rand(state) % i);
		t = p[i - 1];
		p[i - 1] = p[j];
		p[j] = t;
	}
}

struct cell_progress {
	const struct bench *b;
	const char *dist;
	enum hs_bench_mode mode;
	unsigned int pl;
};

static int cell_progress(void *ctx, unsigned int run, size_t round)
{
	const struct cell_progress *p = ctx;

	(void)run;
	cli_progress("bench: %s, %s: placement %u/%lu, round %zu/%zu",
		     p->dist, hs_mode_name(p->mode), p->pl + 1,
		     p->b->placements, round + 1, p->b->rounds);
	return 0;
}

/*
 * One cell: every function at placement @pl, in the order @order, paired
 * in b->rounds rounds; the samples go to block @block's slots.
 */
static void measure_cell(struct bench *b, unsigned int di, unsigned int mi,
			 size_t block, unsigned int pl,
			 const unsigned int *order)
{
	unsigned int nf = b->nr_variants + 1, k;
	struct bench_dist *d = &b->dists[di];
	const struct hs_pool *pools[BENCH_MAX_LIST + 1];
	hs_bench_fn fns[BENCH_MAX_LIST + 1];
	struct hs_sample s[2 * (BENCH_MAX_LIST + 1)];
	unsigned int per[BENCH_MAX_LIST + 1];
	uint64_t *mt[BENCH_MAX_LIST + 1], *scale[BENCH_MAX_LIST + 1];
	uint64_t *cycles[BENCH_MAX_LIST + 1], *ins[BENCH_MAX_LIST + 1];
	bool counters[BENCH_MAX_LIST + 1];
	size_t off = block_off(b, block) + pl * 2 * b->rounds;
	struct cell_progress prog = { b, d->name, b->modes[mi], pl };
	struct hs_stream st = {
		.clk = &b->host.clock, .fns = fns, .pools = pools,
		.nr_fns = nf, .mode = b->modes[mi],
		.plan = { b->n, b->rounds, 1 },
		.units = per, .mt = mt, .scale = scale, .cycles = cycles,
		.ins = ins, .counters = counters,
		.round = b->block < 0 ? cell_progress : NULL, .ctx = &prog,
	};

	for (k = 0; k < nf; k++) {
		unsigned int f = order[k];
		struct bench_result *r = bench_at(b, di, mi, f);

		fns[k] = placed_fn(b, f, pl);
		pools[k] = f ? bench_pool(b, d, f - 1) : &d->input_pool;
		per[k] = f ? hs_variant_regions(b->variants[f - 1]) : 1;
		mt[k] = r->mt + off;
		scale[k] = r->scale + off;
		cycles[k] = r->cycles + off;
		ins[k] = r->ins + off;
	}
	hs_stream_run(&st, s);
	for (k = 0; k < nf; k++)
		if (!counters[k])
			bench_at(b, di, mi, order[k])->counters = false;
}

/*
 * Untimed calls of every function at every placement until b->warmup_us
 * has passed: the process's first second is not its steady state (the
 * predictors, the caches and the clock settle), docs/bench.md.
 */
static void warm_up(struct bench *b, unsigned int di, unsigned int mi)
{
	struct bench_dist *d = &b->dists[di];
	uint64_t end = hs_host_now_ns() + b->warmup_us * 1000;
	unsigned int nf = b->nr_variants + 1, k, pl;

	do {
		for (pl = 0; pl < b->placements; pl++)
			for (k = 0; k < nf; k++) {
				const struct hs_pool *pool = k ?
					bench_pool(b, d, k - 1) :
					&d->input_pool;

				hs_bench_batch(&b->host.clock,
					       placed_fn(b, k, pl), pool, 0,
					       hs_pool_calls(pool, b->n),
					       b->modes[mi]);
			}
	} while (hs_host_now_ns() < end);
}

/*
 * Block @block: for each distribution and mode, the warm-up, then every
 * placement in a random order, the functions of a round in a random order
 * too, so that neither position favours a function.
 */
static void measure_block(struct bench *b, size_t block)
{
	uint64_t state = b->seed * 0x9e3779b97f4a7c15ULL + block + 1, t0;
	unsigned int order[BENCH_MAX_LIST + 1], pls[HS_NR_PLACEMENTS];
	unsigned int di, mi, p;

	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++) {
			warm_up(b, di, mi);
			t0 = hs_host_now_ns();
			shuffle(pls, (unsigned int)b->placements, &state);
			for (p = 0; p < b->placements; p++) {
				shuffle(order, b->nr_variants + 1, &state);
				measure_cell(b, di, mi, block, pls[p], order);
			}
			b->stream_ns += hs_host_now_ns() - t0;
		}
}

/* The arrays of one result that a block fills, in the pipe's order. */
static uint64_t *result_array(struct bench_result *r, unsigned int a)
{
	uint64_t *arrays[] = { r->mt, r->scale, r->cycles, r->ins };

	return arrays[a];
}

#define NR_ARRAYS 4

static void write_all(int fd, const void *p, size_t len)
{
	const char *c = p;
	ssize_t n;

	while (len) {
		n = write(fd, c, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			cli_die("invocation: cannot write its samples: %s",
				strerror(errno));
		c += n;
		len -= (size_t)n;
	}
}

static bool read_all(int fd, void *p, size_t len)
{
	char *c = p;
	ssize_t n;

	while (len) {
		n = read(fd, c, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		c += n;
		len -= (size_t)n;
	}
	return true;
}

/* Every slice a block fills, through @move (a read or a write). */
static bool move_block(struct bench *b, size_t block, int fd, bool out)
{
	size_t off = block_off(b, block), len = block_len(b) * sizeof(uint64_t);
	unsigned int di, mi, k, a;
	uint64_t word;

	for (di = 0; di < b->nr_dists; di++)
		for (mi = 0; mi < b->nr_modes; mi++)
			for (k = 0; k <= b->nr_variants; k++) {
				struct bench_result *r = bench_at(b, di, mi, k);

				for (a = 0; a < NR_ARRAYS; a++) {
					uint64_t *v = result_array(r, a) + off;

					if (out)
						write_all(fd, v, len);
					else if (!read_all(fd, v, len))
						return false;
				}
				word = r->counters;
				if (out)
					write_all(fd, &word, sizeof(word));
				else if (!read_all(fd, &word, sizeof(word)))
					return false;
				else if (!word)
					r->counters = false;
			}
	word = b->stream_ns;
	if (out) {
		write_all(fd, &word, sizeof(word));
		word = BLOCK_MAGIC;
		write_all(fd, &word, sizeof(word));
		return true;
	}
	if (!read_all(fd, &word, sizeof(word)))
		return false;
	b->stream_ns += word;
	return read_all(fd, &word, sizeof(word)) && word == BLOCK_MAGIC;
}

/*
 * Run invocation @block: this program again, its samples read from a
 * pipe.  A failed or killed invocation ends the run: its words are on
 * stderr already.
 */
static void run_block(struct bench *b, size_t block)
{
	int pfd[2], status, w;
	char env[128];
	pid_t pid;
	bool ok;

	if (pipe2(pfd, O_CLOEXEC))
		cli_die("invocation: pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		cli_die("invocation: fork: %s", strerror(errno));
	if (!pid) {
		/* the first process gone (SIGTERM, SIGKILL): so is this one */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		w = dup(pfd[1]);	/* without O_CLOEXEC: it survives exec */
		snprintf(env, sizeof(env), "%zu,%d,%zu,%zu", block, w, b->n,
			 b->rounds);
		setenv(BLOCK_ENV, env, 1);
		execv("/proc/self/exe", hs_argv);
		_exit(127);
	}
	close(pfd[1]);
	ok = move_block(b, block, pfd[0], false);
	close(pfd[0]);
	while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	if (w < 0)
		cli_die("invocation %zu: waitpid: %s", block + 1,
			strerror(errno));
	/* an interrupted invocation interrupts the run, as Ctrl-C would */
	if ((WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) ||
	    (WIFEXITED(status) && WEXITSTATUS(status) == CLI_EXIT_INTERRUPTED))
		raise(SIGINT);
	if (!ok || !WIFEXITED(status) || WEXITSTATUS(status))
		cli_die("invocation %zu of %lu failed (%s %d)", block + 1,
			b->invocations,
			WIFSIGNALED(status) ? "signal" : "exit",
			WIFSIGNALED(status) ? WTERMSIG(status) :
			WEXITSTATUS(status));
}

/**
 * bench_block_child() - whether this process is an invocation of another
 * `hotscore bench` (HOTSCORE_BENCH_BLOCK): then its block number, the
 * parent's N and rounds are set in @b, and b->block_fd is the pipe.
 * @b:	the bench, parsed.
 *
 * A malformed value is an internal error: only bench sets it.
 */
bool bench_block_child(struct bench *b)
{
	const char *v = getenv(BLOCK_ENV);
	unsigned long long blk, n, r;
	int fd;

	b->block = -1;
	if (!v)
		return false;
	if (sscanf(v, "%llu,%d,%llu,%llu", &blk, &fd, &n, &r) != 4 ||
	    blk >= b->invocations || !n || !r)
		cli_die("%s=%s: not an invocation of this command", BLOCK_ENV,
			v);
	unsetenv(BLOCK_ENV);
	b->block = (int)blk;
	b->block_fd = fd;
	b->n = n;
	b->rounds = r;
	return true;
}

/**
 * bench_measure_blocks() - every block's paired rounds into the results
 * (allocated for all blocks): in this process for one invocation, else
 * one invocation after another.  In an invocation: its own block, written
 * to the pipe.
 * @b:	the bench, its N, rounds and results set.
 */
void bench_measure_blocks(struct bench *b)
{
	size_t i;
	uint64_t t0 = hs_host_now_ns();

	if (b->block >= 0) {
		measure_block(b, (size_t)b->block);
		move_block(b, (size_t)b->block, b->block_fd, true);
		close(b->block_fd);
		return;
	}
	if (b->invocations == 1) {
		measure_block(b, 0);
	} else if (!hs_exe_is_program()) {
		/* under valgrind or ld.so: exec would start them, not us */
		b->blocks_in_process = true;
		for (i = 0; i < b->invocations; i++)
			measure_block(b, i);
	} else {
		for (i = 0; i < b->invocations; i++) {
			cli_progress("bench: invocation %zu/%lu", i + 1,
				     b->invocations);
			run_block(b, i);
		}
	}
	b->blocks_ns = hs_host_now_ns() - t0;
}
