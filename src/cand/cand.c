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
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hotscore/cand.h>

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
#endif
	"-fno-stack-protector", "-fPIC", "-shared", "-nostdlib",
	"-Wl,-z,defs", "-Wl,-Bsymbolic", "-w",
};

/**
 * hs_cand_is_file() - whether a --profile item names a candidate file
 * rather than a profile: it ends in ".c" or holds a '/'.
 * @spec:	the item, possibly "LABEL=PATH".
 */
bool hs_cand_is_file(const char *spec)
{
	size_t len = strlen(spec);

	return strchr(spec, '/') || (len > 2 && !strcmp(spec + len - 2, ".c"));
}

/**
 * hs_cand_path() - the file a candidate spec names: PATH of "LABEL=PATH"
 * (a label holds no '/'), else the whole spec.
 * @spec:	"./mine.c" or "LABEL=./mine.c".
 *
 * Return: a pointer into @spec.
 */
const char *hs_cand_path(const char *spec)
{
	const char *eq = strchr(spec, '=');

	if (eq && eq > spec && !memchr(spec, '/', (size_t)(eq - spec)))
		return eq + 1;
	return spec;
}

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

/* $HOTSCORE_CACHE, $XDG_CACHE_HOME/hotscore or ~/.cache/hotscore, + cand */
static int cache_dir(char *buf, size_t size)
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
 * Why the compiler failed, in one line.  A missing function or another
 * signature than the kernel's is said plainly, and the compiler's words
 * are dropped; anything else keeps them in @log, for the user's file:line.
 */
static void explain(char *log, char *err, size_t errlen, const char *cc,
		    int rc)
{
	static const char sig[] = "int damon_hot_score(struct damon_ctx *c, "
		"struct damon_region *r, struct damos *s)";
	char *line = strstr(log, "conflicting types for");

	if (strstr(log, "undefined reference to `damon_hot_score'")) {
		snprintf(err, errlen, "defines no damon_hot_score(): a candidate is the function as mm/damon/ops-common.c has it");
		*log = '\0';
		return;
	}
	if (line && strstr(line, "damon_") &&
	    strstr(line, "damon_") < strchr(line, '\n')) {
		while (line > log && line[-1] != '\n')
			line--;
		/* "FILE:LINE:COL: error: ...": the file is said by the caller */
		line = strchr(line, ':');
		snprintf(err, errlen, "line %d: another signature than the kernel's %s",
			 line ? atoi(line + 1) : 0, sig);
		*log = '\0';
		return;
	}
	snprintf(err, errlen, "does not compile (%s, exit %d)", cc, rc);
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
	argv[n++] = (char *)path;
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
		explain(*log, err, errlen, argv[0], rc);
		return -1;
	}
	return 0;
}

static void set_err(char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s", what);
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
	if (cache_dir(dir, sizeof(dir))) {
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
	if (!out->hot || !out->cold || !has_cold || !size || !out->sweep ||
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

/* The way back from a candidate's trap, per thread. */
static __thread sigjmp_buf trap_jump;
static __thread volatile sig_atomic_t trap_armed;

static void on_trap(int sig)
{
	if (trap_armed) {
		trap_armed = 0;
		siglongjmp(trap_jump, sig);
	}
	signal(sig, SIG_DFL);	/* hotscore's own: crash as it would */
	raise(sig);
}

static void arm_traps(void)
{
	static const int sigs[] = { SIGFPE, SIGSEGV, SIGBUS, SIGILL };
	static volatile sig_atomic_t done;
	struct sigaction sa;
	size_t i;

	if (done)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_trap;
	/* not blocked in the handler: siglongjmp() saves no mask */
	sa.sa_flags = SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	done = 1;
}

/**
 * hs_trap_guard() - run @fn, catching a candidate's trap: a division by
 * zero (SIGFPE), a bad pointer (SIGSEGV, SIGBUS), SIGILL.
 * @fn:		what calls into a candidate; it must keep in @ctx how far
 *		it got, so that the caller can step over the input.
 * @ctx:	for @fn.
 *
 * Thread-safe.  A trap in hotscore's own code still crashes it.
 *
 * Return: 0, or the signal @fn was stopped by.
 */
int hs_trap_guard(void (*fn)(void *ctx), void *ctx)
{
	int sig;

	arm_traps();
	sig = sigsetjmp(trap_jump, 0);
	if (sig)
		return sig;
	trap_armed = 1;
	fn(ctx);
	trap_armed = 0;
	return 0;
}

/**
 * hs_cand_score() - the candidate's hot and cold scores of @in, or the
 * signal it trapped with (a division by zero is SIGFPE, as in a kernel).
 * @c:		the candidate.
 * @in:		the input.
 *
 * Thread-safe.  A trap in hotscore's own code still crashes it.
 */
struct hs_cand_result hs_cand_score(const struct hs_cand *c,
				    const struct hs_input *in)
{
	struct hs_cand_result r = { 0, 0, 0 };
	volatile int hot, cold;
	int sig;

	arm_traps();
	sig = sigsetjmp(trap_jump, 0);
	if (sig) {
		r.trap = sig;
		return r;
	}
	trap_armed = 1;
	hot = c->hot(in);
	cold = c->cold(in);
	trap_armed = 0;
	r.hot = hot;
	r.cold = cold;
	return r;
}

/** hs_cand_trap_name() - "SIGFPE" for SIGFPE. */
const char *hs_cand_trap_name(int sig)
{
	switch (sig) {
	case SIGFPE: return "SIGFPE";
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGILL: return "SIGILL";
	default: return "signal";
	}
}
