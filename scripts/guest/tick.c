// SPDX-License-Identifier: GPL-2.0
/*
 * tick: wake every millisecond until SIGTERM, then print how many times it
 * woke and over how long.  In a TCG guest, so that the kernel switches
 * address spaces at least that often: every CR3 write empties QEMU's
 * software TLB, and only a TLB fill sets a page's accessed bit again after
 * kdamond has cleared it.  A real CPU's TLB misses all the time on a
 * working set of megabytes; QEMU's holds it, and DAMON would see no access
 * at all (docs/kernel.md, "The live run").  A C loop rather than a shell's
 * "usleep 1000": busybox forks for every iteration, which under TCG takes
 * milliseconds and depends on how fast the host is.
 */
#include <signal.h>
#include <stdio.h>
#include <time.h>

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
	const struct timespec ms = { .tv_sec = 0, .tv_nsec = 1000000 };
	double start = now();
	unsigned long n = 0;

	signal(SIGTERM, on_term);
	while (!stop) {
		nanosleep(&ms, NULL);
		n++;
	}
	printf("tick: %lu wakeups in %.1f s\n", n, now() - start);
	return 0;
}
