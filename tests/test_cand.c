// SPDX-License-Identifier: GPL-2.0
/*
 * test_cand.c - the guards around a candidate's calls (src/cand/cand.c),
 * on stand-in candidates compiled here: a call that does not return ends
 * as HS_CAND_HANG within the limit, in every guard, in threads; a call
 * that returns within it never does; a trap is still a trap; and no timer
 * or tick is left behind.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hotscore/cand.h>
#include <hotscore/verify.h>

#include "check.h"

#define LIMIT_NS	50000000ULL	/* 50 ms, as the shell tests use */

/* Endless, without undefined behaviour: each pass has a side effect. */
static void forever(void)
{
	for (;;)
		__asm__ volatile("");
}

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Spin for @ns of this thread's CPU time. */
static void spin(uint64_t ns)
{
	uint64_t t0 = cpu_ns();

	while (cpu_ns() - t0 < ns)
		;
}

/* hot: nr_accesses, except 7 (forever), 8 (SIGFPE), 9 (a slow return) */
static int hot(const struct hs_input *in)
{
	if (in->nr_accesses == 7)
		forever();
	if (in->nr_accesses == 8)
		raise(SIGFPE);
	if (in->nr_accesses == 9)
		spin(LIMIT_NS / 2);
	return (int)in->nr_accesses;
}

static int cold(const struct hs_input *in)
{
	return 99 - hot(in);
}

/* the shim's sweep, but endless at age 1000 */
static void sweep(const struct hs_input *in, unsigned int from,
		  unsigned int n, int *out, volatile unsigned int *at)
{
	unsigned int i;

	for (i = *at; i < n; i++) {
		*at = i;
		if (from + i == 1000)
			forever();
		out[i] = (int)(in->nr_accesses + from + i);
	}
	*at = n;
}

static const struct hs_cand cand = {
	.path = "stand-in", .hot = hot, .cold = cold, .has_cold = true,
	.sweep = sweep,
};

/* endless at nr_accesses 7 alone: no slow call, no trap */
static int hot7(const struct hs_input *in)
{
	if (in->nr_accesses == 7)
		forever();
	return 50;
}

static int cold7(const struct hs_input *in)
{
	return 99 - hot7(in);
}

static const struct hs_cand cand7 = {
	.path = "stand-in-7", .hot = hot7, .cold = cold7, .has_cold = true,
	.sweep = sweep,
};

static struct hs_input input(unsigned int nr)
{
	struct hs_input in = { .sample_us = 5000, .aggr_us = 100000,
			       .nr_accesses = nr, .weight_nr_accesses = 1,
			       .weight_age = 1 };

	return in;
}

/* No POSIX timer left in the process, and no tick pending. */
static void check_clean(void)
{
	FILE *f = fopen("/proc/self/timers", "r");
	sigset_t pending;
	char line[256];

	if (f) {
		CHECK(!fgets(line, sizeof(line), f), "a timer is left: %s",
		      line);
		fclose(f);
	}
	sigpending(&pending);
	CHECK(!sigismember(&pending, SIGRTMIN), "a tick is pending");
}

/* hs_cand_score() of nr_accesses @nr: @trap, else hot @hot; none left. */
static void check_score(unsigned int nr, int trap, int hot)
{
	struct hs_input in = input(nr);
	struct hs_cand_result r = hs_cand_score(&cand, &in);

	CHECK(r.trap == trap && (trap || (r.hot == hot && r.cold == 99 - hot)),
	      "nr_accesses %u: trap %d, hot %d, cold %d", nr, r.trap, r.hot,
	      r.cold);
	check_clean();
}

static void test_hang_is_a_status(void)
{
	struct hs_input in = input(7);
	struct hs_cand_result r;
	uint64_t t0 = cpu_ns(), spent;

	r = hs_cand_score(&cand, &in);
	spent = cpu_ns() - t0;
	CHECK_EQ(r.trap, HS_CAND_HANG);
	/* the limit, at most a tick more, and a scheduler tick of slack */
	CHECK(spent >= LIMIT_NS && spent < 2 * LIMIT_NS + 20000000,
	      "stopped after %llu ns", (unsigned long long)spent);
	CHECK(!strcmp(hs_cand_trap_name(r.trap), "hang"), "%s",
	      hs_cand_trap_name(r.trap));
	check_clean();
	check_score(5, 0, 5);
}

/* Half the limit, twice (hot, then cold): each call has its own. */
static void test_slow_is_not_a_hang(void)
{
	check_score(9, 0, 9);
}

static void test_trap_is_still_a_trap(void)
{
	check_score(8, SIGFPE, 0);
}

/* One watch around many calls: one timer, each hang caught, then none. */
static void test_watch(void)
{
	struct hs_input in;
	struct hs_cand_result r;
	unsigned int i, hangs = 0, wrong = 0;

	hs_cand_watch_begin();
	hs_cand_watch_begin();		/* nested: the outer one counts */
	for (i = 0; i < 200000; i++) {
		in = input(i % 100000 == 7 ? 7 : i % 7);
		r = hs_cand_score(&cand, &in);
		hangs += r.trap == HS_CAND_HANG;
		wrong += !r.trap && r.hot != (int)(i % 7);
	}
	hs_cand_watch_end();
	CHECK_EQ(hangs, 2);
	CHECK_EQ(wrong, 0);
	hs_cand_watch_end();
	check_clean();
	hs_cand_watch_end();		/* one too many: ignored */
	check_clean();
}

static void test_sweep_stops_at_the_age(void)
{
	static int out[4096];
	struct hs_input in = input(0);
	volatile unsigned int at = 0;
	int why;

	why = hs_cand_sweep_ages(&cand, &in, 0, 4096, out, &at);
	CHECK_EQ(why, HS_CAND_HANG);
	CHECK_EQ(at, 1000);
	CHECK(out[999] == 999, "%d", out[999]);
	at++;
	why = hs_cand_sweep_ages(&cand, &in, 0, 4096, out, &at);
	CHECK_EQ(why, 0);
	CHECK_EQ(at, 4096);
	CHECK(out[4095] == 4095, "%d", out[4095]);
	check_clean();
}

struct run_ctx {
	unsigned int nr;
	int hot;
	uint64_t busy_ns;
};

static void run_sim(void *arg)
{
	struct run_ctx *c = arg;
	struct hs_input in = input(c->nr);

	spin(c->busy_ns);	/* hotscore's own code: no limit on it */
	c->hot = hs_cand_call_hot(&cand, &in);
}

/* sim's way: a guard around a run, the candidate called inside. */
static void test_guard_around_a_run(void)
{
	struct run_ctx c = { 3, -1, 3 * LIMIT_NS };

	CHECK_EQ(hs_trap_guard(run_sim, &c), 0);
	CHECK_EQ(c.hot, 3);
	c = (struct run_ctx){ 7, -1, 0 };
	CHECK_EQ(hs_trap_guard(run_sim, &c), HS_CAND_HANG);
	CHECK_EQ(c.hot, -1);
	check_clean();
}

static void *thread_main(void *arg)
{
	unsigned int *bad = arg, i;
	struct hs_input in;
	struct hs_cand_result r;

	hs_cand_watch_begin();
	for (i = 0; i < 50000; i++) {
		in = input(i == 20000 ? 7 : i % 5);
		r = hs_cand_score(&cand, &in);
		*bad += i == 20000 ? r.trap != HS_CAND_HANG :
			r.trap || r.hot != (int)(i % 5);
	}
	hs_cand_watch_end();
	return NULL;
}

/* Each thread its own timer and its own hang. */
static void test_threads(void)
{
	pthread_t t[2];
	unsigned int bad[2] = { 0, 0 }, k;

	for (k = 0; k < 2; k++)
		CHECK_EQ(pthread_create(&t[k], NULL, thread_main, &bad[k]), 0);
	for (k = 0; k < 2; k++) {
		pthread_join(t[k], NULL);
		CHECK_EQ(bad[k], 0);
	}
	check_clean();
}

/*
 * verify's candidate run, in two threads: the first hang ends it, each
 * thread at most one more, and it is a class of its own.
 */
static void test_verify_stops_at_a_hang(void)
{
	static struct hs_cand_verify_result res;
	struct hs_cand_verify_config cfg = {
		.cand = &cand7, .against = hs_profile_find("hotfix")->comp,
		.quick = true, .threads = 2, .seed = 1, .random = 100000,
	};
	uint64_t hangs = 0, checked = 0;
	unsigned int k;

	CHECK_EQ(hs_cand_verify(&cfg, &res), 0);
	CHECK(res.stopped, "the run was not stopped");
	for (k = 0; k < HS_NR_CAND_CLASSES; k++)
		if (k % HS_NR_CAND_CODES == HS_CAND_CODE_HANG)
			hangs += res.count[k];
	for (k = 0; k < HS_NR_CDOMAINS; k++)
		checked += res.inputs[k];
	CHECK(hangs >= 1 && hangs <= 2, "%llu hangs",
	      (unsigned long long)hangs);
	CHECK(checked < 431006, "%llu inputs: all of them",
	      (unsigned long long)checked);
	CHECK(!strcmp(hs_cand_code_name(HS_CAND_CODE_HANG), "hang"), "%s",
	      hs_cand_code_name(HS_CAND_CODE_HANG));
	check_clean();
}

/* Two stand-ins that agree but above 10^9 accesses, and never trap. */
static int hot_v1(const struct hs_input *in)
{
	return (int)(in->nr_accesses % 100);
}

static int hot_v2(const struct hs_input *in)
{
	return in->nr_accesses > 1000000000u ? 50 : hot_v1(in);
}

static int cold_v1(const struct hs_input *in)
{
	return 99 - hot_v1(in);
}

static int cold_v2(const struct hs_input *in)
{
	return 99 - hot_v2(in);
}

static const struct hs_cand cand_v1 = {
	.path = "v1", .hot = hot_v1, .cold = cold_v1, .has_cold = true,
	.sweep = sweep,
};
static const struct hs_cand cand_v2 = {
	.path = "v2", .hot = hot_v2, .cold = cold_v2, .has_cold = true,
	.sweep = sweep,
};

/*
 * verify --candidate v2 --against v1: a candidate against a candidate.
 * v1 against itself agrees everywhere; v2 differs where it should, each
 * example shrinks to an input on which the two still differ, and a trap
 * in both with the same signal is agreement, in one alone a difference.
 */
static void test_verify_against_a_candidate(void)
{
	static struct hs_cand_verify_result res;
	struct hs_cand_verify_config cfg = {
		.cand = &cand_v1, .against_cand = &cand_v1, .quick = true,
		.threads = 2, .seed = 1, .random = 100000,
	};
	struct hs_input in = input(2000000000u), prefer = input(0);
	uint64_t total = 0;
	unsigned int k, cls;

	CHECK_EQ(hs_cand_verify(&cfg, &res), 0);
	for (k = 0; k < HS_NR_CDOMAINS; k++)
		total += res.inputs[k];
	CHECK(total > 0 && res.agree == total, "v1 = v1: %llu of %llu",
	      (unsigned long long)res.agree, (unsigned long long)total);
	cfg.cand = &cand_v2;
	CHECK_EQ(hs_cand_verify(&cfg, &res), 0);
	CHECK(res.count[0] > 0 && res.agree < total, "v2 = v1 (the control)");
	CHECK(res.ex[0].found, "no example");
	in = res.ex[0].in;
	hs_cand_shrink_versus(NULL, &cand_v1, &cand_v2, 0, &in, &prefer);
	CHECK(hs_cand_versus(NULL, &cand_v1, &cand_v2, &in, &cls) && !cls,
	      "the shrunk example does not differ");
	CHECK(in.nr_accesses == 2000000000u && in.age == 0 &&
	      in.sample_us == 5000, "not shrunk to round: %u", in.nr_accesses);
	in = input(8);		/* the stand-in cand traps with SIGFPE there */
	CHECK(!hs_cand_versus(NULL, &cand, &cand, &in, &cls) &&
	      cls == 2 * HS_NR_CAND_CODES + 2, "the same trap is agreement");
	CHECK(hs_cand_versus(NULL, &cand_v1, &cand, &in, &cls) &&
	      cls == 0 * HS_NR_CAND_CODES + 2, "a trap in one is not");
	check_clean();
}

static void test_no_limit(void)
{
	hs_cand_set_limit(0);
	CHECK_EQ(hs_cand_limit(), 0);
	check_score(9, 0, 9);
	hs_cand_set_limit(LIMIT_NS);
}

int main(void)
{
	alarm(60);	/* a watchdog that fails to stop a call fails here */
	CHECK_EQ(hs_cand_limit(), HS_CAND_LIMIT_NS);
	hs_cand_set_limit(LIMIT_NS);
	RUN(test_hang_is_a_status);
	RUN(test_slow_is_not_a_hang);
	RUN(test_trap_is_still_a_trap);
	RUN(test_watch);
	RUN(test_sweep_stops_at_the_age);
	RUN(test_guard_around_a_run);
	RUN(test_threads);
	RUN(test_verify_stops_at_a_hang);
	RUN(test_verify_against_a_candidate);
	RUN(test_no_limit);
	return CHECK_DONE();
}
