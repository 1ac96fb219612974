// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz.c - the harnesses' common ground: cli_die() turned into a jump
 * back, the input as a file the parsers can open, and the time of the
 * slowest input, printed at exit for tests/fuzz/fuzz.sh's summary.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "fuzz.h"

jmp_buf fuzz_jmp;

static struct {
	bool ready;
	int fd;			/* the memfd behind fuzz_file() */
	char path[64];
	struct timespec start;
	size_t size;		/* of the input running */
	unsigned long long inputs;
	double slowest_ms;
	size_t slowest_size;
	int lowest_free;	/* after the first input */
} fz = { .fd = -1, .lowest_free = -1 };

static void die_hook(const char *msg)
{
	/* every rejection says something (it is the user's one line) */
	fuzz_assert(msg && *msg);
	longjmp(fuzz_jmp, 1);
}

void fuzz_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: fuzz_assert(%s) failed\n", file, line, what);
	abort();
}

/*
 * The figures fuzz.sh copies: every input timed inside the harness, so
 * that "no input slower than 1 s" is measured, not only -timeout's bound.
 */
static void print_stats(void)
{
	fprintf(stderr, "fuzz: %llu inputs, slowest %.3f ms (%zu bytes)\n",
		fz.inputs, fz.slowest_ms, fz.slowest_size);
}

static void init(void)
{
	/* the option layer's dry run would print and exit(0) */
	unsetenv("HOTSCORE_CHECK_ARGS");
	atexit(print_stats);
	fz.ready = true;
}

/**
 * fuzz_begin() - an input starts: set the die hook, start its clock.
 * @size:	its length, for the slowest input's figure.
 */
void fuzz_begin(size_t size)
{
	if (!fz.ready)
		init();
	cli_die_hook = die_hook;
	fz.size = size;
	clock_gettime(CLOCK_MONOTONIC, &fz.start);
}

/*
 * No descriptor left open input after input: score_csv's rejections each
 * left their file open, and after 20 s libFuzzer stopped with "Too many
 * open files".  The lowest free descriptor may move up a few times (a
 * runtime's own pipe, a one-time open); FUZZ_FD_SLACK more than after the
 * first input is a leak, named by what the first one left open is.
 */
#define FUZZ_FD_SLACK	64

static void check_fds(void)
{
	char link[64], to[256] = "?";
	int fd = dup(0);
	ssize_t n;

	if (fd < 0) {
		perror("fuzz: dup");
		abort();
	}
	close(fd);
	if (fz.lowest_free < 0)
		fz.lowest_free = fd;
	if (fd <= fz.lowest_free + FUZZ_FD_SLACK)
		return;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fz.lowest_free);
	n = readlink(link, to, sizeof(to) - 1);
	if (n > 0)
		to[n] = '\0';
	fprintf(stderr, "fuzz: %d descriptors left open, the first %s\n",
		fd - fz.lowest_free, to);
	fuzz_assert(fd <= fz.lowest_free + FUZZ_FD_SLACK);
}

/** fuzz_end() - the input is done, its state freed: keep its time. */
void fuzz_end(void)
{
	struct timespec end;
	double ms;

	clock_gettime(CLOCK_MONOTONIC, &end);
	ms = (double)(end.tv_sec - fz.start.tv_sec) * 1e3 +
		(double)(end.tv_nsec - fz.start.tv_nsec) / 1e6;
	if (ms > fz.slowest_ms) {
		fz.slowest_ms = ms;
		fz.slowest_size = fz.size;
	}
	fz.inputs++;
	cli_die_hook = NULL;
	check_fds();
}

/**
 * fuzz_file() - @data as a file a parser can fopen(): a memfd, rewritten
 * for each input, so that nothing is left on disk.
 * @data:	the bytes.
 * @size:	how many.
 *
 * Return: its path, valid until the next call.
 */
const char *fuzz_file(const uint8_t *data, size_t size)
{
	size_t done = 0;
	ssize_t n;

	if (fz.fd < 0) {
		fz.fd = memfd_create("hotscore-fuzz", MFD_CLOEXEC);
		if (fz.fd < 0) {
			perror("fuzz: memfd_create");
			abort();
		}
		snprintf(fz.path, sizeof(fz.path), "/proc/self/fd/%d", fz.fd);
	}
	if (ftruncate(fz.fd, 0)) {
		perror("fuzz: ftruncate");
		abort();
	}
	while (done < size) {
		n = pwrite(fz.fd, data + done, size - done, (off_t)done);
		if (n <= 0) {
			perror("fuzz: pwrite");
			abort();
		}
		done += (size_t)n;
	}
	return fz.path;
}

/**
 * fuzz_string() - @data as a NUL-terminated string (an embedded NUL ends
 * it early, as it would end an argv word).
 * @data:	the bytes.
 * @size:	how many.
 *
 * Return: a malloc'ed copy; free() it.
 */
char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* What a subcommand prints is not looked at: send it nowhere, once. */
void fuzz_quiet_stdout(void)
{
	static bool done;

	if (!done && !freopen("/dev/null", "w", stdout)) {
		perror("fuzz: /dev/null");
		abort();
	}
	done = true;
}
