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
 *
 * The intervals resample invocations, so what a re-run could change must
 * change between them: each invocation gets its own address-space layout
 * (ASLR on, even under setarch -R), unless --fixed-layout (docs/bench.md,
 * "Fixed layout"), an environment of its own size (HOTSCORE_BENCH_PAD) and
 * its own offsets of the pools into their pages, both drawn from the order
 * seed and its number (the offsets in the first process too).
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

#include "cmd_bench.h"
#include "cli.h"

#define BLOCK_ENV "HOTSCORE_BENCH_BLOCK"
#define PAD_ENV "HOTSCORE_BENCH_PAD"
#define BLOCK_MAGIC 0x68736b626c6f636bULL	/* "hskblock" */
/* what an invocation draws: its pad, then each of its pools' offsets */
#define DRAW_PAD 0
#define DRAW_POOL 1

/**
 * bench_draw() - a number of invocation @block's, from the run's order
 * seed: the same in every process that measures the block, another for
 * each @what and each block.
 * @order_seed:	the run's (--order_seed).
 * @block:	the invocation, from 0.
 * @what:	which draw: DRAW_PAD, or DRAW_POOL + a pool's index.
 *
 * Return: 64 random bits (splitmix64 of the run's stream, keyed).
 */
static uint64_t bench_draw(uint64_t order_seed, size_t block,
			   unsigned int what)
{
	uint64_t state = order_seed;

	state = hs_stats_rand(&state) ^ ((uint64_t)block << 20 | what);
	return hs_stats_rand(&state);
}

/**
 * bench_pad_len() - how many bytes of HOTSCORE_BENCH_PAD invocation
 * @block's environment gets: 0 .. BENCH_PAD_MAX - 1.  The environment
 * sits above the stack, so its size moves every stack address
 * (Mytkowicz et al., ASPLOS 2009); a re-run's environment differs too.
 * @order_seed:	the run's.
 * @block:	the invocation.
 */
size_t bench_pad_len(uint64_t order_seed, size_t block)
{
	return bench_draw(order_seed, block, DRAW_PAD) % BENCH_PAD_MAX;
}

/**
 * bench_pool_offset() - where pool @pool of invocation @block starts in
 * its page-aligned buffer: a multiple of BENCH_POOL_ALIGN (so that its
 * inputs keep their alignment), 0 .. BENCH_PAGE - BENCH_POOL_ALIGN.  Where
 * the inputs sit in a page decides which cache sets they fill and which
 * stack addresses their loads alias with; a re-run's heap is not this
 * one's.
 * @order_seed:	the run's.
 * @block:	the invocation.
 * @pool:	the pool's index among the block's (place_pools()).
 */
size_t bench_pool_offset(uint64_t order_seed, size_t block, unsigned int pool)
{
	return bench_draw(order_seed, block, DRAW_POOL + pool) %
	       (BENCH_PAGE / BENCH_POOL_ALIGN) * BENCH_POOL_ALIGN;
}

/**
 * bench_block_env() - HOTSCORE_BENCH_BLOCK's value for invocation @block:
 * every number at a fixed width, so that the pad is the only thing that
 * changes the environment's size from one invocation to the next.
 * @b:		the run, planned.
 * @block:	the invocation.
 * @fd:		the pipe's write end, as the invocation will have it.
 * @buf:	receives the value.
 * @size:	of @buf.
 */
void bench_block_env(const struct bench *b, size_t block, int fd, char *buf,
		     size_t size)
{
	snprintf(buf, size, "%04zu,%04d,%010zu,%04zu,%016llx", block, fd, b->n,
		 b->rounds, (unsigned long long)b->order_seed);
}

/* Samples of one (distribution, mode, function) in block @block. */
static size_t block_off(const struct bench *b, size_t block)
{
	return block * b->placements * 2 * b->rounds;
}

static size_t block_len(const struct bench *b)
{
	return b->placements * 2 * b->rounds;
}

/*
 * The functions of a stream: the empty call, the variants, with a door in
 * the run the door to nothing, and last the A/A copy of the baseline.
 */
static unsigned int nr_fns(const struct bench *b)
{
	return b->nr_variants + 1 + b->has_door + (b->aa != NULL);
}

/* Function @k is the A/A copy: the baseline's code, timed again. */
static bool is_aa(const struct bench *b, unsigned int k)
{
	return b->aa && k == nr_fns(b) - 1;
}

/* The copy of function @k (0: the empty call) at placement @pl. */
static hs_bench_fn placed_fn(const struct bench *b, unsigned int k,
			     unsigned int pl)
{
	const struct hs_variant *v;

	if (!k)
		return hs_bench_empty_placed[pl];
	if (is_aa(b, k))
		return placed_fn(b, 1, pl);
	if (k > b->nr_variants)
		return b->door_empty[pl];
	v = b->variants[k - 1];
	return v->placed ? v->placed[pl] : v->fn;
}

/* Function @k's result of (@di, @mi): the door's after the variants'. */
static struct bench_result *fn_result(struct bench *b, unsigned int di,
				      unsigned int mi, unsigned int k)
{
	if (is_aa(b, k))
		return bench_aa_at(b, di, mi);
	return k > b->nr_variants ? bench_door_at(b, di, mi) :
	       bench_at(b, di, mi, k);
}

/* What function @k is timed on. */
static const struct hs_pool *fn_pool(const struct bench *b,
				     const struct bench_dist *d,
				     unsigned int k)
{
	if (!k)
		return &d->input_pool;
	if (is_aa(b, k))
		return fn_pool(b, d, 1);
	return bench_pool(b, d, k > b->nr_variants ? b->door_pool : k - 1);
}

/* Rounds measured in this process, for the progress line's fraction. */
static size_t rounds_done;

static int cell_progress(void *ctx, const struct hs_run_at *at)
{
	const struct bench *b = ctx;
	/* the rounds of every block this process measures */
	double all = (double)b->nr_dists * b->nr_modes * b->placements *
		     b->rounds * (b->blocks_in_process ? b->invocations : 1);

	cli_progress_at((double)++rounds_done / all,
			"bench: %s, %s: placement %u/%lu, round %zu/%zu",
			b->dists[at->stream / b->nr_modes].name,
			hs_mode_name(b->modes[at->stream % b->nr_modes]),
			at->placement + 1, b->placements, at->round + 1,
			b->rounds);
	return 0;
}

/* What the engine takes of one stream (a distribution in one mode). */
#define MAX_FNS (BENCH_MAX_LIST + 3)
struct stream_arrays {
	hs_bench_fn fns[HS_NR_PLACEMENTS * MAX_FNS];
	const struct hs_pool *pools[MAX_FNS];
	unsigned int units[MAX_FNS];
	uint64_t *mt[MAX_FNS], *scale[MAX_FNS];
	uint64_t *cycles[MAX_FNS], *ins[MAX_FNS];
	bool counters[MAX_FNS];
};

/* Stream @si, results[di][mi] with @si = di * nr_modes + mi, into @st. */
static void stream_of(struct bench *b, unsigned int si,
		      struct stream_arrays *a, struct hs_bench_stream *st)
{
	unsigned int di = si / b->nr_modes, mi = si % b->nr_modes;
	unsigned int nf = nr_fns(b), k, pl;
	struct bench_dist *d = &b->dists[di];

	for (k = 0; k < nf; k++) {
		struct bench_result *r = fn_result(b, di, mi, k);

		for (pl = 0; pl < b->placements; pl++)
			a->fns[pl * nf + k] = placed_fn(b, k, pl);
		a->pools[k] = fn_pool(b, d, k);
		a->units[k] = is_aa(b, k) ? hs_variant_regions(b->variants[0]) :
			      k && k <= b->nr_variants ?
			      hs_variant_regions(b->variants[k - 1]) : 1;
		a->mt[k] = r->mt;
		a->scale[k] = r->scale;
		a->cycles[k] = r->cycles;
		a->ins[k] = r->ins;
		a->counters[k] = true;
	}
	*st = (struct hs_bench_stream){
		.fns = a->fns, .pools = a->pools, .units = a->units,
		.mode = b->modes[mi], .mt = a->mt, .scale = a->scale,
		.cycles = a->cycles, .ins = a->ins, .counters = a->counters,
	};
}

/* A pool the engine cycles over in one block, and its placed copy. */
struct placed {
	const struct hs_pool *from;
	struct hs_pool to;
	void *mem;
};

/*
 * Every pool of the streams @a (@nr of them, @nf functions each), placed
 * for block @block: copied, byte for byte, to a page-aligned buffer of its
 * own at bench_pool_offset() of its index (in the order the streams name
 * them), and the streams pointed at the copies.  What a call points to (a
 * prepared scheme, a batch's region arrays) stays where it was built.  The
 * checks before the timing (bench_check_inputs(), bench_vet_calls()) ran
 * on the same bytes.  Return: the copies, @pl[0 .. *@nr_placed), to free.
 */
static struct placed *place_pools(const struct bench *b, size_t block,
				  struct stream_arrays *a, unsigned int nr,
				  unsigned int nf, unsigned int *nr_placed)
{
	struct placed *pl = cli_xcalloc((size_t)nr * nf, sizeof(*pl));
	unsigned int si, k, i, n = 0;
	size_t off, bytes;

	for (si = 0; si < nr; si++)
		for (k = 0; k < nf; k++) {
			const struct hs_pool *from = a[si].pools[k];

			for (i = 0; i < n && pl[i].from != from; i++)
				;
			if (i == n) {
				off = bench_pool_offset(b->order_seed, block, n);
				bytes = from->nr * from->stride;
				pl[n].mem = aligned_alloc(BENCH_PAGE,
					(off + bytes + BENCH_PAGE - 1) /
					BENCH_PAGE * BENCH_PAGE);
				if (!pl[n].mem)
					cli_die("out of memory");
				memcpy((char *)pl[n].mem + off, from->base,
				       bytes);
				pl[n].from = from;
				pl[n].to = *from;
				pl[n].to.base = (char *)pl[n].mem + off;
				n++;
			}
			a[si].pools[k] = &pl[i].to;
		}
	*nr_placed = n;
	return pl;
}

/*
 * Block @block: every distribution and mode, measured by the engine
 * (src/bench/stream.c) in its warm-ups and cells, in its order, on its
 * placed pools.
 */
static void measure_block(struct bench *b, size_t block)
{
	unsigned int nr = b->nr_dists * b->nr_modes, si, k, nr_placed;
	unsigned int nf = nr_fns(b);
	struct placed *pl;
	uint64_t hz = b->host.clock.hz;
	struct stream_arrays *a = cli_xcalloc(nr, sizeof(*a));
	struct hs_bench_stream *st = cli_xcalloc(nr, sizeof(*st));
	struct hs_run run = {
		.clk = &b->host.clock, .streams = st, .nr_streams = nr,
		.nr_fns = nf, .placements = (unsigned int)b->placements,
		.plan = { b->n, b->rounds, 1 }, .first_block = block,
		.warmup = (uint64_t)((unsigned __int128)b->warmup_us * hz /
				     1000000),
		.shuffle = true, .seed = b->order_seed,
		.round = b->block < 0 ? cell_progress : NULL, .ctx = b,
		.scratch = cli_xcalloc(1, HS_RUN_SCRATCH(nf)),
	};
	struct hs_run_result res;

	for (si = 0; si < nr; si++)
		stream_of(b, si, &a[si], &st[si]);
	pl = place_pools(b, block, a, nr, nf, &nr_placed);
	hs_bench_run(&run, &res);
	while (nr_placed)
		free(pl[--nr_placed].mem);
	free(pl);
	b->stream_ns += (uint64_t)((unsigned __int128)res.round_ticks *
				   1000000000 / hz);
	for (si = 0; si < nr; si++)
		for (k = 0; k < nf; k++)
			if (!a[si].counters[k])
				fn_result(b, si / b->nr_modes,
					  si % b->nr_modes, k)->counters = false;
	free(run.scratch);
	free(st);
	free(a);
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
			for (k = 0; k < nr_fns(b); k++) {
				struct bench_result *r = fn_result(b, di, mi, k);

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
		word = hs_host_aslr();	/* its own layout, or a fixed one */
		write_all(fd, &word, sizeof(word));
		word = BLOCK_MAGIC;
		write_all(fd, &word, sizeof(word));
		return true;
	}
	if (!read_all(fd, &word, sizeof(word)))
		return false;
	b->stream_ns += word;
	if (!read_all(fd, &word, sizeof(word)))
		return false;
	b->blocks_fixed += !word;
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
	char env[128], pad[BENCH_PAD_MAX];
	size_t len = bench_pad_len(b->order_seed, block);
	pid_t pid;
	bool ok;

	memset(pad, 'x', len);
	pad[len] = '\0';
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
		bench_block_env(b, block, w, env, sizeof(env));
		setenv(BLOCK_ENV, env, 1);
		setenv(PAD_ENV, pad, 1);
		/* its own layout, even under setarch -R; --fixed-layout: ours */
		if (!b->fixed_layout)
			hs_host_random_layout();
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
		cli_die("invocation %zu failed (%s %d)", block + 1,
			WIFSIGNALED(status) ? "signal" : "exit",
			WIFSIGNALED(status) ? WTERMSIG(status) :
			WEXITSTATUS(status));
}

/**
 * bench_block_child() - whether this process is an invocation of another
 * `hotscore bench` (HOTSCORE_BENCH_BLOCK): then its block number, the
 * parent's N, rounds and order seed are set in @b, and b->block_fd is the
 * pipe.  Both variables are gone from the environment afterwards.
 * @b:	the bench, parsed.
 *
 * A malformed value, or a pad of another length than the block's, is an
 * internal error: only bench sets them.
 */
bool bench_block_child(struct bench *b)
{
	const char *v = getenv(BLOCK_ENV), *pad = getenv(PAD_ENV);
	unsigned long long blk, n, r, order;
	int fd;

	b->block = -1;
	if (!v) {
		unsetenv(PAD_ENV);	/* not ours to pass on */
		return false;
	}
	if (sscanf(v, "%llu,%d,%llu,%llu,%llx", &blk, &fd, &n, &r,
		   &order) != 5 || blk >= b->invocations || !n || !r)
		cli_die("%s=%s: not an invocation of this command", BLOCK_ENV,
			v);
	if (!pad || strlen(pad) != bench_pad_len(order, blk))
		cli_die("%s: not the pad of invocation %llu", PAD_ENV, blk + 1);
	unsetenv(BLOCK_ENV);
	unsetenv(PAD_ENV);
	b->block = (int)blk;
	b->block_fd = fd;
	b->n = n;
	b->rounds = r;
	b->order_seed = order;
	return true;
}

/**
 * bench_measure_blocks() - every block's paired rounds into the results
 * (allocated for b->invocations blocks): in this process for one
 * invocation, else one invocation after another until bench_enough()
 * says so; b->invocations is then how many there were.  In an
 * invocation: its own block, written to the pipe.
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
		b->stop = STOP_FIXED;
	} else {
		/* under valgrind or ld.so exec would start them, not us */
		b->blocks_in_process = !hs_exe_is_program();
		for (i = 0; !i || !bench_enough(b, i, hs_host_now_ns() - t0);
		     i++) {
			/* budgeted: the time spent of the budget */
			cli_progress_at(b->budget ?
					(double)(hs_host_now_ns() - b->start_ns) /
					((double)b->budget_us * 1000) :
					(double)i / (double)b->invocations,
					"bench: invocation %zu%s%lu", i + 1,
					b->budget ? ", up to " : "/",
					b->invocations);
			if (b->blocks_in_process)
				measure_block(b, i);
			else
				run_block(b, i);
		}
		b->invocations = i;
		/* the layout is the invocations': each its own, or fixed */
		if (!b->blocks_in_process)
			b->layout = !b->blocks_fixed ? HS_LAYOUT_RANDOM :
				    b->layout == HS_LAYOUT_RANDOM ?
				    HS_LAYOUT_FIXED : b->layout;
	}
	b->blocks_ns = hs_host_now_ns() - t0;
}
