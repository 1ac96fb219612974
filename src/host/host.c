// SPDX-License-Identifier: GPL-2.0
/*
 * host.c - user-space clocks, pinning, counters and machine facts.
 *
 * The TSC is calibrated against CLOCK_MONOTONIC_RAW; it counts at a fixed
 * rate, not in core cycles, so cycle figures from it are labelled
 * "TSC-derived".  perf_event_open() counters are used when the machine has
 * them (a VM without a vPMU does not).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/personality.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <hotscore/host.h>

static int perf_fd = -1, perf_ins_fd = -1;

static uint64_t hs_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/** hs_host_now_ns() - CLOCK_MONOTONIC: user space's ktime_get(). */
uint64_t hs_host_now_ns(void)
{
	return hs_clock_ns(CLOCK_MONOTONIC);
}

static uint64_t hs_read_raw(void)
{
	return hs_clock_ns(CLOCK_MONOTONIC_RAW);
}

#if HS_HAVE_ARCH_COUNTER
static uint64_t hs_read_arch(void)
{
	return hs_arch_counter();
}

/* A (raw ns, counter) pair read as close together as the system allows. */
static void hs_pair(uint64_t *ns, uint64_t *ticks)
{
	uint64_t best = UINT64_MAX, a, t, b;
	int i;

	for (i = 0; i < 16; i++) {
		a = hs_read_raw();
		t = hs_arch_counter();
		b = hs_read_raw();
		if (b - a < best) {
			best = b - a;
			*ns = a + (b - a) / 2;
			*ticks = t;
		}
	}
}

/* Counter ticks per second: the median of five 20 ms windows. */
static uint64_t hs_calibrate(void)
{
	uint64_t hz[5], ns0, t0, ns1, t1;
	int i;

	for (i = 0; i < 5; i++) {
		hs_pair(&ns0, &t0);
		do
			hs_pair(&ns1, &t1);
		while (ns1 - ns0 < 20000000);
		hz[i] = (uint64_t)((unsigned __int128)(t1 - t0) *
				   1000000000ULL / (ns1 - ns0));
	}
	hs_sort_u64(hz, 5);
	return hz[2];
}
#endif

static bool hs_perf_read(void *ctx, uint64_t *cycles, uint64_t *ins)
{
	uint64_t v[3];

	(void)ctx;
	if (read(perf_fd, v, sizeof(v)) != (ssize_t)sizeof(v) || v[0] != 2)
		return false;
	*cycles = v[1];
	*ins = v[2];
	return true;
}

static int hs_perf_open(uint64_t config, int group)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = config;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.read_format = PERF_FORMAT_GROUP;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, group, 0);
}

/* A cycles + instructions group on this thread, or a reason why not. */
static void hs_perf_init(struct hs_host *h)
{
	int ins;

	perf_fd = hs_perf_open(PERF_COUNT_HW_CPU_CYCLES, -1);
	if (perf_fd < 0) {
		snprintf(h->perf, sizeof(h->perf),
			 "unavailable (perf_event_open cycles: %s)",
			 strerror(errno));
		return;
	}
	ins = hs_perf_open(PERF_COUNT_HW_INSTRUCTIONS, perf_fd);
	if (ins < 0) {
		snprintf(h->perf, sizeof(h->perf),
			 "unavailable (perf_event_open instructions: %s)",
			 strerror(errno));
		close(perf_fd);
		perf_fd = -1;
		return;
	}
	perf_ins_fd = ins;
	h->clock.counters = hs_perf_read;
	snprintf(h->perf, sizeof(h->perf),
		 "perf_event_open cycles and instructions (user only)");
}

/* The value of "@key<tab>: value" in /proc/cpuinfo, first occurrence. */
static bool hs_cpuinfo(const char *key, char *buf, size_t len)
{
	char line[4096];
	size_t klen = strlen(key);
	FILE *f = fopen("/proc/cpuinfo", "r");
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, key, klen) || !colon ||
		    strspn(line + klen, " \t") != (size_t)(colon - line) - klen)
			continue;
		colon += 1 + (colon[1] == ' ');
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, len, "%s", colon);
		found = true;
	}
	fclose(f);
	return found;
}

static bool hs_has_flag(const char *flags, const char *flag)
{
	size_t n = strlen(flag);
	const char *p = flags;

	while ((p = strstr(p, flag))) {
		if ((p == flags || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
		p += n;
	}
	return false;
}

static void hs_describe(struct hs_host *h)
{
	char flags[4096] = "", path[128];
	struct utsname u;
	FILE *f;

	if (!hs_cpuinfo("model name", h->cpu_model, sizeof(h->cpu_model)))
		snprintf(h->cpu_model, sizeof(h->cpu_model), "unknown");
	hs_cpuinfo("flags", flags, sizeof(flags));
	h->hypervisor = hs_has_flag(flags, "hypervisor");
	h->invariant_tsc = hs_has_flag(flags, "constant_tsc") &&
			   hs_has_flag(flags, "nonstop_tsc");
	snprintf(h->governor, sizeof(h->governor), "unknown");
	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
		 h->cpu);
	f = fopen(path, "r");
	if (f) {
		if (fgets(h->governor, sizeof(h->governor), f))
			h->governor[strcspn(h->governor, "\n")] = '\0';
		fclose(f);
	}
	snprintf(h->kernel, sizeof(h->kernel), "%s",
		 uname(&u) ? "unknown" : u.release);
}

static uint64_t hs_host_clock_step(const struct hs_clock *clk);
static uint64_t hs_host_resolution(const struct hs_clock *clk);

/**
 * hs_host_init() - pin, pick and calibrate the clock, open the counters.
 * @h:		receives the host.
 * @cpu:	the CPU to pin to; -1 for the one we run on.
 * @clock:	HS_CLOCK_AUTO (the TSC or cntvct where there is one) or
 *		HS_CLOCK_GETTIME.
 * @err:	receives a one-line reason on failure.
 * @errlen:	its size.
 *
 * Return: 0, or -1 if @cpu cannot be used.
 */
int hs_host_init(struct hs_host *h, int cpu, enum hs_clock_choice clock,
		 char *err, size_t errlen)
{
	cpu_set_t set;

	memset(h, 0, sizeof(*h));
	if (cpu < 0)
		cpu = sched_getcpu();
	if (cpu < 0) {
		snprintf(err, errlen, "cannot tell which CPU to pin to: %s",
			 strerror(errno));
		return -1;
	}
	if (cpu >= CPU_SETSIZE) {
		snprintf(err, errlen, "--cpu %d: no such CPU", cpu);
		return -1;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		snprintf(err, errlen, "--cpu %d: %s", cpu, errno == EINVAL ?
			 "no such CPU online, or not allowed to this process" :
			 strerror(errno));
		return -1;
	}
	h->cpu = cpu;
	hs_describe(h);
	h->clock.read = hs_read_raw;
	h->clock.hz = 1000000000ULL;
	h->clock.name = "clock_gettime(CLOCK_MONOTONIC_RAW)";
	snprintf(h->clock_desc, sizeof(h->clock_desc), "ns");
#if HS_HAVE_ARCH_COUNTER
	if (clock == HS_CLOCK_AUTO) {
		h->clock.read = hs_read_arch;
		h->clock.name = HS_ARCH_COUNTER_NAME;
		h->clock.hz = hs_calibrate();
		h->clock.tsc = HS_ARCH_COUNTER_IS_TSC;
		snprintf(h->clock_desc, sizeof(h->clock_desc),
			 "%llu.%03llu MHz, calibrated against "
			 "CLOCK_MONOTONIC_RAW%s",
			 (unsigned long long)(h->clock.hz / 1000000),
			 (unsigned long long)(h->clock.hz / 1000 % 1000),
			 h->invariant_tsc ? "" : " (no invariant-TSC flag!)");
	}
#else
	(void)clock;
#endif
	h->clock.step = hs_host_clock_step(&h->clock);
	h->resolution = hs_host_resolution(&h->clock);
	hs_perf_init(h);
	return 0;
}

#define HS_REEXEC_ENV "HOTSCORE_REEXECUTED"

/**
 * hs_exe_is_program() - is /proc/self/exe the program itself (not
 * valgrind, not ld.so)?  Only then can the program execute itself again.
 */
bool hs_exe_is_program(void)
{
	char self[PATH_MAX], prog[PATH_MAX];
	const char *fn = (const char *)getauxval(AT_EXECFN);
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0 || !fn || !realpath(fn, prog))
		return false;
	self[n] = '\0';
	return !strcmp(self, prog);
}

/**
 * hs_host_aslr() - is this process's address space randomized: its
 * personality lacks ADDR_NO_RANDOMIZE and kernel.randomize_va_space is not
 * 0 (an unreadable sysctl counts as on, the kernel's default).
 */
bool hs_host_aslr(void)
{
	int persona = personality(0xffffffff);
	FILE *f = fopen("/proc/sys/kernel/randomize_va_space", "r");
	int level = 2;

	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = 2;
		fclose(f);
	}
	return level && (persona == -1 || !(persona & ADDR_NO_RANDOMIZE));
}

/**
 * hs_host_random_layout() - clear ADDR_NO_RANDOMIZE from the personality,
 * so that the next exec gets randomized addresses even if this process
 * was started with them fixed (setarch -R): for a child about to execute
 * an invocation.  A failure leaves the flag; the exec'd program can tell
 * (hs_host_aslr()).
 */
void hs_host_random_layout(void)
{
	int persona = personality(0xffffffff);

	if (persona != -1 && (persona & ADDR_NO_RANDOMIZE))
		personality((unsigned long)persona & ~(unsigned long)ADDR_NO_RANDOMIZE);
}

/**
 * hs_host_fixed_layout() - run with address-space randomization off
 * (bench --fixed-layout).
 * @argv: the program's whole argv, NULL-terminated, to exec again; NULL
 *	  to report the state without re-executing.
 *
 * With ASLR, code and data land at new addresses each run, and where a
 * branch sits decides which predictor entries it shares: on this VM the
 * shift loop ran at 8 or 15 ns per call depending on the run.  Like
 * google/benchmark, re-execute once with ADDR_NO_RANDOMIZE so that every
 * invocation gets the same layout.  Never more than once (an environment
 * variable marks the re-executed process), never when the flag does not
 * stick (seccomp may fake success; exec of a setuid file clears it), and
 * never when /proc/self/exe is not the program (valgrind, ld.so).
 *
 * Return: HS_LAYOUT_REEXECUTED, HS_LAYOUT_FIXED (already off) or
 * HS_LAYOUT_RANDOM; only the first two mean randomization is off.
 */
enum hs_layout hs_host_fixed_layout(char **argv)
{
	int persona = personality(0xffffffff);

	if (persona != -1 && (persona & ADDR_NO_RANDOMIZE))
		return getenv(HS_REEXEC_ENV) ? HS_LAYOUT_REEXECUTED :
					       HS_LAYOUT_FIXED;
	if (!hs_host_aslr())
		return HS_LAYOUT_FIXED;		/* randomize_va_space = 0 */
	if (!argv || persona == -1 || getenv(HS_REEXEC_ENV) ||
	    !hs_exe_is_program())
		return HS_LAYOUT_RANDOM;
	if (personality((unsigned long)persona | ADDR_NO_RANDOMIZE) == -1)
		return HS_LAYOUT_RANDOM;
	if (!(personality(0xffffffff) & ADDR_NO_RANDOMIZE)) {
		personality((unsigned long)persona);	/* faked: give up */
		return HS_LAYOUT_RANDOM;
	}
	fflush(NULL);
	setenv(HS_REEXEC_ENV, "1", 1);
	execv("/proc/self/exe", argv);
	unsetenv(HS_REEXEC_ENV);	/* exec failed: carry on as we are */
	personality((unsigned long)persona);
	return HS_LAYOUT_RANDOM;
}

/**
 * hs_host_fresh_seed() - a seed no earlier run chose: getrandom(2), else
 * the time and the process id mixed.  32 bits, so that it reads and types
 * easily and a JSON reader holds it exactly.
 */
uint64_t hs_host_fresh_seed(void)
{
	uint32_t v;
	uint64_t z;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) == (ssize_t)sizeof(v))
		return v;
	z = hs_clock_ns(CLOCK_REALTIME) ^ ((uint64_t)getpid() << 32);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (uint32_t)(z ^ (z >> 31));
}

/**
 * hs_host_clock_step() - the clock's resolution: the smallest non-zero
 * difference of two reads in a row, over 1000 pairs.  A VM's TSC can
 * advance in steps of many ticks (26 here).
 * @clk: the clock.
 *
 * Return: ticks, at least 1.
 */
static uint64_t hs_host_clock_step(const struct hs_clock *clk)
{
	uint64_t best = UINT64_MAX, a, b;
	int i;

	for (i = 0; i < 1000; i++) {
		a = clk->read();
		do
			b = clk->read();
		while (b == a);
		if (b - a < best)
			best = b - a;
	}
	return best;
}

/**
 * hs_host_resolution() - the clock's real step: the greatest common
 * divisor of 10,000 differences of reads, some in a row and some a few
 * hundred ticks apart.  Two reads in a row are never closer than what a
 * read costs (hs_host_clock_step(): 42 ticks here for the fenced rdtsc),
 * but the values they return can still advance in steps of 1 or 2 ticks;
 * a coarse clock (a VM's scaled TSC, a 1 us gettime) shows its step here.
 * @clk: the clock.
 *
 * Return: ticks, at least 1.
 */
static uint64_t hs_host_resolution(const struct hs_clock *clk)
{
	uint64_t g = 0, a, b;
	unsigned int i, j;

	for (i = 0; i < 10000 && g != 1; i++) {
		a = clk->read();
		for (j = 0; j < (i & 63); j++)
			hs_sink(j);
		b = clk->read();
		g = hs_gcd(g, b - a);
	}
	return g ? g : 1;
}

/** hs_host_fini() - close the counters. */
void hs_host_fini(struct hs_host *h)
{
	if (perf_ins_fd >= 0)
		close(perf_ins_fd);
	if (perf_fd >= 0)
		close(perf_fd);
	perf_fd = perf_ins_fd = -1;
	h->clock.counters = NULL;
}

/**
 * hs_add_chain() - HS_ADD_CHAIN_LEN dependent adds: one core cycle each on
 * every x86-64 and arm64 core, which makes it a ruler for the harness.
 * Register to itself, not an immediate: Golden Cove (Sapphire Rapids)
 * folds chains of 'add $imm, reg' at rename, about three a cycle, which
 * made this ruler read 0.89 cycles an add at a "19 GHz" core clock.
 * @input: the chain's start value (its address).
 *
 * Return: the low bits of the sum.
 */
__attribute__((__noinline__)) int hs_add_chain(const void *input)
{
	unsigned long x = (unsigned long)input;

#if defined(__x86_64__)
	__asm__ __volatile__(".rept 1000\n\tadd %0, %0\n\t.endr" : "+r"(x));
#elif defined(__aarch64__)
	__asm__ __volatile__(".rept 1000\n\tadd %0, %0, %0\n\t.endr"
			     : "+r"(x));
#else
	int i;

	for (i = 0; i < HS_ADD_CHAIN_LEN; i++) {
		x++;
		hs_hide(x);
	}
#endif
	return (int)x;
}

/**
 * hs_host_core_hz() - the core clock, from 2^24 dependent adds (16 per
 * trip of an asm loop, a register to itself as in hs_add_chain()) timed
 * against CLOCK_MONOTONIC_RAW: no TSC involved.
 * About 4 ms; a turbo clock moves, so pair it with what it calibrates.
 *
 * Return: core cycles per second, or 0 where no add chain is written in asm.
 */
uint64_t hs_host_core_hz(void)
{
#if defined(__x86_64__) || defined(__aarch64__)
	unsigned long x = 1, n = 1UL << 20;	/* 16 adds per trip */
	uint64_t t0, t1;

	t0 = hs_read_raw();
#if defined(__x86_64__)
	__asm__ __volatile__("1:\n\t.rept 16\n\tadd %0, %0\n\t.endr\n\t"
			     "sub $1, %1\n\tjnz 1b"
			     : "+r"(x), "+r"(n));
#else
	__asm__ __volatile__("1:\n\t.rept 16\n\tadd %0, %0, %0\n\t"
			     ".endr\n\tsubs %1, %1, #1\n\tb.ne 1b"
			     : "+r"(x), "+r"(n) : : "cc");
#endif
	t1 = hs_read_raw();
	return (uint64_t)((unsigned __int128)(1ULL << 24) * 1000000000ULL /
			  (t1 - t0));
#else
	return 0;
#endif
}
