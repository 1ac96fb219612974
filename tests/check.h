/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check.h - the smallest test harness that can fail.
 *
 * A test is a function; it fails if any CHECK in it fails.  Each test binary
 * ends with "N passed, N failed" and exits 1 if any failed; tests/run.sh adds
 * the binaries' counts up.
 */
#ifndef HOTSCORE_CHECK_H
#define HOTSCORE_CHECK_H

#include <stdint.h>
#include <stdio.h>

static int check_failed_here;	/* failures in the running test */
static int tests_passed, tests_failed;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		if (check_failed_here++ < 5) {				\
			fprintf(stdout, "  %s:%d: CHECK(%s) ", __FILE__,	\
				__LINE__, #cond);			\
			fprintf(stdout, __VA_ARGS__);			\
			fputc('\n', stdout);				\
		}							\
	}								\
} while (0)

#define CHECK_EQ(a, b) CHECK((long long)(a) == (long long)(b),		\
	"%s = %lld, %s = %lld", #a, (long long)(a), #b, (long long)(b))

#define RUN(test) do {							\
	check_failed_here = 0;						\
	test();								\
	if (check_failed_here) {					\
		tests_failed++;						\
		fprintf(stdout, "FAIL %s (%d checks)\n", #test,	\
			check_failed_here);				\
	} else {							\
		tests_passed++;						\
		printf("ok   %s\n", #test);				\
	}								\
} while (0)

#define CHECK_DONE() ({							\
	printf("%d passed, %d failed\n", tests_passed, tests_failed);	\
	tests_failed ? 1 : 0; })

/* splitmix64: a seeded, reproducible stream for randomized tests. */
static inline uint64_t check_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif /* HOTSCORE_CHECK_H */
