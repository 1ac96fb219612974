// SPDX-License-Identifier: GPL-2.0
/*
 * cand.c - a candidate damon_hot_score(): compiled, cached, loaded, called.
 *
 * The file is compiled as the kernel compiles mm/damon/ops-common.c, as far
 * as integer semantics and code generation go, with env.h forced in front:
 *
 *   -std=gnu11 -O2		the kernel's dialect and level
 *   -fno-strict-overflow	signed overflow wraps (the kernel relies on it)
 *   -fno-strict-aliasing	as the kernel
 *   -fno-delete-null-pointer-checks	as the kernel
 *   -funsigned-char		char is unsigned on every arch since 6.2
 *   -mno-sse -mno-mmx -mno-sse2 -mno-avx -mno-red-zone (x86-64)
 *				no vector unit in the kernel: no SIMD code
 *   -falign-jumps=1 -falign-loops=1 (x86-64)
 *				the kernel's: loop heads and jump targets
 *				not padded (arch/x86/Makefile)
 *   -fno-stack-protector -nostdlib -Wl,-z,defs
 *				nothing from libc: kernel code has none
 *
 * and, for loading, -fPIC -shared -Wl,-Bsymbolic.  The object is cached
 * under $HOTSCORE_CACHE (else $XDG_CACHE_HOME/hotscore, else
 * ~/.cache/hotscore), cand/<hash>.so, the hash covering the file, env.h,
 * shim.c, the compiler and the flags; the user's file is only read.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <hotscore/cand.h>

#include "cand_internal.h"

extern char **environ;

/* src/cand/object/env.h and shim.c, carried in the binary (embed.c) */
extern const char hs_cand_env_h[];
extern const char hs_cand_shim_c[];

#define MAX_SOURCE	(1 << 20)	/* a candidate file, at most */
#define MAX_LOG		(64 << 10)	/* compiler output kept */

static const char *const flags[] = {
	"-std=gnu11", "-O2", "-fno-strict-overflow", "-fno-strict-aliasing",
	"-fno-delete-null-pointer-checks", "-funsigned-char",
#if defined(__x86_64__)
	"-mno-sse", "-mno-mmx", "-mno-sse2", "-mno-avx", "-mno-red-zone",
	"-falign-jumps=1", "-falign-loops=1",
#endif
	"-fno-stack-protector", "-fPIC", "-shared", "-nostdlib",
	"-Wl,-z,defs", "-Wl,-Bsymbolic", "-w",
};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		h = (h ^ *b++) * 0x100000001b3ULL;
	return h;
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
	return fnv(h, s, strlen(s) + 1);
}

/* The whole file, NUL-terminated; NULL with errno on failure. */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	char *buf;

	if (!f)
		return NULL;
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		fclose(f);
		errno = EISDIR;
		return NULL;
	}
	buf = malloc(MAX_SOURCE + 1);
	*len = buf ? fread(buf, 1, MAX_SOURCE + 1, f) : 0;
	if (!buf || ferror(f) || *len > MAX_SOURCE) {
		int err = !buf ? ENOMEM : ferror(f) ? EIO : EFBIG;

		free(buf);
		fclose(f);
		errno = err;
		return NULL;
	}
	fclose(f);
	buf[*len] = '\0';
	return buf;
}

static int mkdirs(char *dir)
{
	char *p;

	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(dir, 0755) && errno != EEXIST ? -1 : 0;
}

/**
 * hs_cand_cache_dir() - where compiled candidates are kept, made if need
 * be: $HOTSCORE_CACHE, $XDG_CACHE_HOME/hotscore or ~/.cache/hotscore, then
 * cand.
 * @buf:	receives the directory.
 * @size:	its size.
 *
 * Return: 0, or -1 with errno.
 */
int hs_cand_cache_dir(char *buf, size_t size)
{
	const char *v;

	if ((v = getenv("HOTSCORE_CACHE")) && *v)
		snprintf(buf, size, "%s/cand", v);
	else if ((v = getenv("XDG_CACHE_HOME")) && *v)
		snprintf(buf, size, "%s/hotscore/cand", v);
	else if ((v = getenv("HOME")) && *v)
		snprintf(buf, size, "%s/.cache/hotscore/cand", v);
	else
		snprintf(buf, size, "/tmp/hotscore-cache/cand");
	return mkdirs(buf);
}

/* Write @text to @path whole (a temporary file, then a rename). */
static int write_whole(const char *path, const char *text)
{
	char tmp[4200];
	FILE *f;
	int fd, ok;

	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	ok = f && fputs(text, f) >= 0;
	ok = f && !fclose(f) && ok;
	if (!ok || rename(tmp, path)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* $CC split at spaces ("gcc -m64"), default cc; NULL-terminated. */
static int split_cc(char *cc, char **argv, int max)
{
	int n = 0;
	char *save = NULL, *w;

	for (w = strtok_r(cc, " \t", &save); w && n < max;
	     w = strtok_r(NULL, " \t", &save))
		argv[n++] = w;
	return n;
}

/*
 * Run @argv, its stdout and stderr into a malloc'ed *@log.  Return its
 * exit status, or -1 if it could not run (errno).
 */
static int run(char *const *argv, char **log)
{
	posix_spawn_file_actions_t fa;
	int pipefd[2], status;
	size_t n = 0;
	ssize_t got;
	pid_t pid;

	*log = calloc(1, MAX_LOG + 1);
	if (!*log || pipe(pipefd))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
	posix_spawn_file_actions_addclose(&fa, pipefd[0]);
	errno = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (errno) {
		close(pipefd[0]);
		return -1;
	}
	while ((got = read(pipefd[0], *log + n, MAX_LOG - n)) > 0 ||
	       (got < 0 && errno == EINTR))
		n += got > 0 ? (size_t)got : 0;
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/*
 * Compile @path into @so; 0, or -1 with the compiler's words in *@log.
 * @placement >= 0: every function of the object enters at that byte of a
 * 64-byte line, as the bench's own placement copies do (bench.h).
 */
static int compile(const char *path, const char *dir, uint64_t hash,
		   enum hs_divisor base, int placement, const char *so,
		   char **log, char *err, size_t errlen)
{
	char env[4200], shim[4200], tmp[4300], cc[512], define[64];
	char align[] = "-falign-functions=64", entry[64];
	char *argv[64];
	size_t i;
	int n, rc;

	/* per process: another hotscore may compile the same file now */
	if ((size_t)snprintf(env, sizeof(env), "%s/env-%016llx.%d.h", dir,
			     (unsigned long long)hash, (int)getpid()) >=
	    sizeof(env) ||
	    (size_t)snprintf(shim, sizeof(shim), "%s/shim-%016llx.%d.c", dir,
			     (unsigned long long)hash, (int)getpid()) >=
	    sizeof(shim) ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%s.%d.tmp", so,
			     (int)getpid()) >= sizeof(tmp)) {
		snprintf(err, errlen, "the cache's path is too long");
		return -1;
	}
	if (write_whole(env, hs_cand_env_h) || write_whole(shim, hs_cand_shim_c)) {
		snprintf(err, errlen, "cannot write to the cache %s: %s", dir,
			 strerror(errno));
		return -1;
	}
	snprintf(cc, sizeof(cc), "%s", getenv("CC") && *getenv("CC") ?
		 getenv("CC") : "cc");
	snprintf(define, sizeof(define), "-DHS_BASE_DIVISOR=%d", (int)base);
	n = split_cc(cc, argv, 8);
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		argv[n++] = (char *)flags[i];
	argv[n++] = define;
	if (placement >= 0) {
		snprintf(entry, sizeof(entry),
			 "-fpatchable-function-entry=%d,%d", placement,
			 placement);
		argv[n++] = align;
		argv[n++] = entry;
	}
	argv[n++] = "-include";
	argv[n++] = env;
	argv[n++] = "-x";	/* C, whatever it is named: mine.txt */
	argv[n++] = "c";
	argv[n++] = (char *)path;
	argv[n++] = "-x";
	argv[n++] = "none";
	argv[n++] = shim;
	argv[n++] = "-o";
	argv[n++] = tmp;
	argv[n] = NULL;
	rc = run(argv, log);
	unlink(env);
	unlink(shim);
	if (rc < 0) {
		snprintf(err, errlen, "cannot run the C compiler '%s': %s "
			 "(set CC, or install gcc)", argv[0], strerror(errno));
		return -1;
	}
	if (rc || rename(tmp, so)) {
		unlink(tmp);
		/* the temporary copies are gone: name them as the sources */
		hs_cand_scrub(*log, env, "env.h");
		hs_cand_scrub(*log, shim, "shim.c");
		hs_cand_explain(path, *log, err, errlen, argv[0], rc);
		return -1;
	}
	return 0;
}

static void set_err(char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s", what);
}

/* The bench's door (shim.c): false if the object lacks it. */
static bool door_symbols(struct hs_cand *c)
{
	const unsigned long *call_size = dlsym(c->handle, "hs_cand_call_size");

	c->door = (int (*)(const void *))dlsym(c->handle, "hs_cand_door");
	c->door_empty = (int (*)(const void *))dlsym(c->handle,
						     "hs_cand_door_empty");
	c->calls = (void (*)(const struct hs_input *, unsigned long, void *))
		dlsym(c->handle, "hs_cand_calls");
	c->calls_size = (unsigned long (*)(unsigned long))
		dlsym(c->handle, "hs_cand_calls_size");
	c->call_size = call_size ? *call_size : 0;
	return c->door && c->door_empty && c->calls && c->calls_size &&
	       c->call_size;
}

/**
 * hs_cand_calls_build() - the calls the bench times @c's door on, for @n
 * inputs: each a region of its own, with a context and a scheme shared by
 * the inputs that share intervals and weights, all built now, so that the
 * timed call converts nothing (src/cand/object/shim.c).
 * @c:		the candidate.
 * @in:		the inputs.
 * @n:		how many, at least 1.
 *
 * Every object of the same hotscore lays its calls out alike: the calls of
 * one placement serve every other.
 *
 * Return: the calls (free()), c->call_size bytes apart, or NULL when out
 * of memory.
 */
void *hs_cand_calls_build(const struct hs_cand *c, const struct hs_input *in,
			  size_t n)
{
	size_t size = c->calls_size(n);
	void *mem = aligned_alloc(64, (size + 63) / 64 * 64);

	if (mem)
		c->calls(in, n, mem);
	return mem;
}

/**
 * hs_cand_source_file() - write @text, a C file, into the cache (once: it
 * is named by its hash), for hs_cand_load(): the kernel form of a built-in
 * profile (hs_cand_source()) is compiled as a candidate is.
 * @text:	the source.
 * @path:	receives the file's path.
 * @size:	of @path.
 * @err:	receives one line on failure.
 * @errlen:	of @err.
 *
 * Return: 0, or -1 with @err set.
 */
int hs_cand_source_file(const char *text, char *path, size_t size,
			char *err, size_t errlen)
{
	char dir[4096];

	if (hs_cand_cache_dir(dir, sizeof(dir))) {
		snprintf(err, errlen, "cannot make the cache %s: %s", dir,
			 strerror(errno));
		return -1;
	}
	if ((size_t)snprintf(path, size, "%s/kernel-%016llx.c", dir,
			     (unsigned long long)fnv_str(0xcbf29ce484222325ULL,
							 text)) >= size) {
		snprintf(err, errlen, "the cache's path is too long");
		return -1;
	}
	if (access(path, R_OK) && write_whole(path, text)) {
		snprintf(err, errlen, "cannot write to the cache %s: %s", dir,
			 strerror(errno));
		return -1;
	}
	return 0;
}

/**
 * hs_cand_load() - compile (or find in the cache) and load a candidate.
 * @path:	the C file.
 * @base:	which damon_max_nr_accesses() env.h defines.
 * @placement:	-1, or the byte of a 64-byte line its functions enter at
 *		(the bench's code placements): each is an object of its own.
 * @out:	receives the candidate.
 * @log:	receives the compiler's messages (malloc'ed) on a compile
 *		error, else NULL.
 * @err:	receives one line on failure.
 * @errlen:	of @err.
 *
 * Return: 0, or -1 with @err set.
 */
int hs_cand_load(const char *path, enum hs_divisor base, int placement,
		 struct hs_cand *out, char **log, char *err, size_t errlen)
{
	char dir[4096], so[4200], *src;
	int (*has_cold)(void);
	const unsigned long *size;
	const char *cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t len, i;

	*log = NULL;
	memset(out, 0, sizeof(*out));
	out->path = path;
	out->base = base;
	src = read_file(path, &len);
	if (!src) {
		snprintf(err, errlen, "%s", errno == EFBIG ?
			 "larger than 1 MiB: not one function" : strerror(errno));
		return -1;
	}
	if (memchr(src, '\0', len)) {
		free(src);
		set_err(err, errlen, "a NUL byte: not a C file");
		return -1;
	}
	h = fnv(h, src, len);
	free(src);
	h = fnv_str(fnv_str(fnv_str(h, hs_cand_env_h), hs_cand_shim_c), cc);
	h = fnv(h, &base, sizeof(base));
	h = fnv(h, &placement, sizeof(placement));
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		h = fnv_str(h, flags[i]);
	if (hs_cand_cache_dir(dir, sizeof(dir))) {
		snprintf(err, errlen, "cannot make the cache %s: %s", dir,
			 strerror(errno));
		return -1;
	}
	snprintf(so, sizeof(so), "%s/%016llx.so", dir, (unsigned long long)h);
	if (access(so, R_OK) &&
	    compile(path, dir, h, base, placement, so, log, err, errlen))
		return -1;
	out->handle = dlopen(so, RTLD_NOW | RTLD_LOCAL);
	if (!out->handle) {
		snprintf(err, errlen, "cannot load its object: %s", dlerror());
		return -1;
	}
	out->hot = (int (*)(const struct hs_input *))dlsym(out->handle,
							   "hs_cand_hot");
	out->cold = (int (*)(const struct hs_input *))dlsym(out->handle,
							    "hs_cand_cold");
	has_cold = (int (*)(void))dlsym(out->handle, "hs_cand_has_cold");
	out->sweep = (hs_cand_sweep_fn)dlsym(out->handle, "hs_cand_sweep");
	size = dlsym(out->handle, "hs_cand_input_size");
	if (!size || !door_symbols(out) ||
	    !out->hot || !out->cold || !has_cold || !out->sweep ||
	    *size != sizeof(struct hs_input)) {
		dlclose(out->handle);
		set_err(err, errlen, "its object does not match this hotscore (remove the cache)");
		return -1;
	}
	out->has_cold = has_cold();
	return 0;
}

/** hs_cand_unload() - unload a candidate. */
void hs_cand_unload(struct hs_cand *c)
{
	if (c->handle)
		dlclose(c->handle);
	c->handle = NULL;
}

/*
 * Guarding a candidate's calls, per thread.  A guard (hs_cand_score(),
 * hs_cand_sweep_ages(), hs_trap_guard()) sets where a trap or a hang
 * leaves to, and the candidate's code runs with in_cand set: only then
 * does a signal leave through the guard, so that a trap in hotscore's own
 * code still crashes it.
 *
 * A hang is found by a watchdog that costs no system call per call: a
 * timer on the thread's CPU-time clock (CLOCK_THREAD_CPUTIME_ID, its
 * signal sent to the thread alone), created at the first guarded call of
 * a watch (hs_cand_watch_begin() ... hs_cand_watch_end(), else the
 * guard's own) and deleted at its end, ticks TICKS times a limit.  Each
 * call into the candidate bumps calls, and a sweep moves *at; a tick that
 * finds the candidate's code running and neither moved for TICKS ticks
 * leaves with HS_CAND_HANG.  So a call is stopped once it has run the
 * limit, and at most a tick more, of the thread's CPU time; one that
 * returns within the limit never is.
 */
#define TICKS	4

#define LOAD(x)		atomic_load_explicit(&(x), memory_order_relaxed)
#define STORE(x, v)	atomic_store_explicit(&(x), (v), memory_order_relaxed)

_Static_assert(ATOMIC_LONG_LOCK_FREE == 2 && ATOMIC_INT_LOCK_FREE == 2 &&
	       ATOMIC_POINTER_LOCK_FREE == 2,
	       "the signal handlers read lock-free atomics only");

#ifndef sigev_notify_thread_id	/* glibc before 2.38 names no field */
#define sigev_notify_thread_id	_sigev_un._tid
#endif

struct guard {
	sigjmp_buf buf;
};

static uint64_t limit_ns = HS_CAND_LIMIT_NS;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static atomic_bool installed;	/* the handlers are: no call to check */
static int tick_sig;

/* Read by the handlers: volatile sig_atomic_t, or lock-free atomics. */
static __thread _Atomic(struct guard *) jump;	/* the innermost guard */
static __thread volatile sig_atomic_t in_cand;	/* the candidate runs */
static __thread volatile sig_atomic_t left_by;	/* a signal, or a hang */
static __thread _Atomic unsigned long calls;	/* calls entered */
static __thread _Atomic(const volatile unsigned int *) sweep_at;
static __thread _Atomic unsigned long seen_calls;	/* at the last tick */
static __thread _Atomic unsigned int seen_at;
static __thread volatile sig_atomic_t stuck;	/* ticks without progress */

/* The watch, outside the handlers. */
static __thread unsigned int depth;		/* nested watches */
static __thread bool watch_tried, watch_on;	/* its timer: tried, made */
static __thread timer_t watch_timer;

/* Leave through the innermost guard, if the candidate's code runs. */
static void leave_by(int why)
{
	struct guard *g = LOAD(jump);

	if (!in_cand || !g)
		return;
	in_cand = 0;
	left_by = why;
	siglongjmp(g->buf, 1);
}

static void on_trap(int sig)
{
	leave_by(sig);
	signal(sig, SIG_DFL);	/* hotscore's own: crash as it would */
	raise(sig);
}

static void on_tick(int sig, siginfo_t *si, void *uc)
{
	const volatile unsigned int *p = LOAD(sweep_at);
	unsigned long n = LOAD(calls);
	unsigned int pos = p ? *p : 0;

	(void)sig;
	(void)uc;
	if (si->si_code != SI_TIMER)
		return;		/* not the watch's */
	if (!in_cand || n != LOAD(seen_calls) || pos != LOAD(seen_at)) {
		STORE(seen_calls, n);
		STORE(seen_at, pos);
		stuck = 0;
		return;
	}
	if (stuck < TICKS - 1) {
		stuck = stuck + 1;
		return;
	}
	stuck = 0;
	leave_by(HS_CAND_HANG);
}

static void install(void)
{
	static const int sigs[] = { SIGFPE, SIGSEGV, SIGBUS, SIGILL };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_trap;
	/* not blocked in the handler: siglongjmp() saves no mask */
	sa.sa_flags = SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	/* a tick may land in hotscore's own system calls: restart them */
	tick_sig = SIGRTMIN;
	sa.sa_handler = NULL;
	sa.sa_sigaction = on_tick;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_RESTART;
	sigaction(tick_sig, &sa, NULL);
	atomic_store_explicit(&installed, true, memory_order_release);
}

/**
 * hs_cand_set_limit() - how long one call of a candidate may run, in the
 * calling thread's CPU time, before it ends as HS_CAND_HANG.
 * @ns:		the limit (HS_CAND_LIMIT_NS unless set); 0: no limit.
 *
 * Set it before any guarded call; the watches opened after it use it.
 */
void hs_cand_set_limit(uint64_t ns)
{
	limit_ns = ns;
}

/** hs_cand_limit() - the limit hs_cand_set_limit() set, in ns. */
uint64_t hs_cand_limit(void)
{
	return limit_ns;
}

/**
 * hs_cand_watch_begin() - watch this thread's guarded calls for hangs
 * until hs_cand_watch_end(), with one timer for them all: around a loop of
 * hs_cand_score() calls, so that each does not make and delete its own.
 * Watches nest; the timer is made at the first guarded call inside, so a
 * watch around no call costs nothing.
 */
void hs_cand_watch_begin(void)
{
	if (!depth++)
		watch_tried = false;
}

/* The watch's timer, at its first guarded call. */
static void watch_arm(void)
{
	uint64_t tick = limit_ns / TICKS ? limit_ns / TICKS : 1;
	struct sigevent ev;
	struct itimerspec it;

	watch_tried = true;
	if (!limit_ns)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = tick_sig;
	ev.sigev_notify_thread_id = gettid();
	if (timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &watch_timer))
		return;		/* no watchdog: calls run as they would */
	it.it_value.tv_sec = (time_t)(tick / 1000000000);
	it.it_value.tv_nsec = (long)(tick % 1000000000);
	it.it_interval = it.it_value;
	stuck = 0;
	if (timer_settime(watch_timer, 0, &it, NULL)) {
		timer_delete(watch_timer);
		return;
	}
	watch_on = true;
}

/**
 * hs_cand_watch_end() - end the watch hs_cand_watch_begin() began: the
 * outermost deletes its timer, and with it any tick not yet delivered.
 */
void hs_cand_watch_end(void)
{
	if (!depth || --depth)
		return;
	if (watch_on)
		timer_delete(watch_timer);
	watch_on = false;
}

/* What a guard restores, whichever way it is left. */
struct guard_state {
	struct guard *outer;
	const volatile unsigned int *outer_at;
	unsigned int depth;
	bool own;		/* its own watch */
};

/* Inlined: each guarded call pays for these, and nothing else. */
static inline __attribute__((always_inline)) void
guard_open(struct guard_state *st)
{
	if (!atomic_load_explicit(&installed, memory_order_acquire))
		pthread_once(&once, install);
	st->outer = LOAD(jump);
	st->outer_at = LOAD(sweep_at);
	st->depth = depth;
	st->own = !depth;
	if (st->own)
		hs_cand_watch_begin();
}

static inline __attribute__((always_inline)) void
guard_close(const struct guard_state *st)
{
	in_cand = 0;
	STORE(sweep_at, st->outer_at);
	STORE(jump, st->outer);
	depth = st->depth + st->own;	/* a jump skips inner watches' ends */
	if (st->own)
		hs_cand_watch_end();
}

/* The candidate's code starts: a call entered, and signals may leave. */
static inline void enter(void)
{
	if (!watch_tried)
		watch_arm();
	STORE(calls, LOAD(calls) + 1);
	in_cand = 1;
	atomic_signal_fence(memory_order_seq_cst);
}

/* Another call, in the same stretch of the candidate's code. */
static inline void next_call(void)
{
	STORE(calls, LOAD(calls) + 1);
	atomic_signal_fence(memory_order_seq_cst);
}

static inline void leave(void)
{
	atomic_signal_fence(memory_order_seq_cst);
	in_cand = 0;
}

/**
 * hs_trap_guard() - run @fn, catching a candidate's trap: a division by
 * zero (SIGFPE), a bad pointer (SIGSEGV, SIGBUS), SIGILL, and its hang: a
 * call that runs past the limit (hs_cand_set_limit()).
 * @fn:		what calls into a candidate, through hs_cand_call_hot(); it
 *		must keep in @ctx how far it got, so that the caller can
 *		report or step over the input.
 * @ctx:	for @fn.
 *
 * Thread-safe.  A trap in hotscore's own code still crashes it.
 *
 * Return: 0, or the signal @fn was stopped by, or HS_CAND_HANG.
 */
int hs_trap_guard(void (*fn)(void *ctx), void *ctx)
{
	struct guard_state st;
	struct guard g;

	guard_open(&st);
	if (sigsetjmp(g.buf, 0)) {
		guard_close(&st);
		return left_by;
	}
	STORE(jump, &g);
	fn(ctx);
	guard_close(&st);
	return 0;
}

/**
 * hs_cand_call_hot() - the candidate's damon_hot_score() of @in, called
 * inside hs_trap_guard(), which a trap or a hang leaves through.
 * @c:		the candidate.
 * @in:		the input.
 *
 * Outside a guard it is a plain call: a trap crashes, a hang hangs.
 */
int hs_cand_call_hot(const struct hs_cand *c, const struct hs_input *in)
{
	int hot;

	if (!depth)
		return c->hot(in);
	enter();
	hot = c->hot(in);
	leave();
	return hot;
}

struct sweep_call {
	const struct hs_cand *c;
	const struct hs_input *in;
	unsigned int from, n;
	int *hot;
	volatile unsigned int *at;
};

/* The sweep as hs_trap_guard() runs it; guard_close() clears sweep_at. */
static void sweep_call(void *ctx)
{
	struct sweep_call *s = ctx;

	STORE(sweep_at, s->at);
	enter();
	s->c->sweep(s->in, s->from, s->n, s->hot, s->at);
	leave();
}

/**
 * hs_cand_sweep_ages() - the candidate's own loop, hs_cand_sweep(), of
 * damon_hot_score() on @n ages from @from (verify's exhaustive sweep),
 * guarded: a trap or a hang stops it at the age *@at.
 * @c:		the candidate.
 * @in:		the input; its age is replaced.
 * @from:	the first age.
 * @n:		how many ages.
 * @hot:	receives the @n scores.
 * @at:		the age index: the sweep starts at *@at, and leaves it at
 *		@n, or at the age that trapped or hung.  Each age is a call
 *		of its own, for the limit.
 *
 * Thread-safe.
 *
 * Return: 0, or the signal the sweep was stopped by, or HS_CAND_HANG.
 */
int hs_cand_sweep_ages(const struct hs_cand *c, const struct hs_input *in,
		       unsigned int from, unsigned int n, int *hot,
		       volatile unsigned int *at)
{
	struct sweep_call s = { c, in, from, n, hot, at };

	return hs_trap_guard(sweep_call, &s);
}

/**
 * hs_cand_score() - the candidate's hot and cold scores of @in, or the
 * signal it trapped with (a division by zero is SIGFPE, as in a kernel),
 * or HS_CAND_HANG if a call ran past the limit.
 * @c:		the candidate.
 * @in:		the input.
 *
 * Thread-safe.  Without a watch open (hs_cand_watch_begin()), each call
 * makes its own timer: three system calls.  A trap in hotscore's own code
 * still crashes it.
 */
struct hs_cand_result hs_cand_score(const struct hs_cand *c,
				    const struct hs_input *in)
{
	struct hs_cand_result r = { 0, 0, 0 };
	struct guard_state st;
	struct guard g;
	volatile int hot, cold;

	guard_open(&st);
	if (sigsetjmp(g.buf, 0)) {
		r.trap = left_by;
	} else {
		STORE(jump, &g);
		enter();
		hot = c->hot(in);
		next_call();
		cold = c->cold(in);
		leave();
		r.hot = hot;
		r.cold = cold;
	}
	guard_close(&st);
	return r;
}

/** hs_cand_trap_name() - "SIGFPE" for SIGFPE, "hang" for HS_CAND_HANG. */
const char *hs_cand_trap_name(int sig)
{
	switch (sig) {
	case HS_CAND_HANG: return "hang";
	case SIGFPE: return "SIGFPE";
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGILL: return "SIGILL";
	default: return "signal";
	}
}
