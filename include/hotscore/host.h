/* SPDX-License-Identifier: GPL-2.0 */
/*
 * host.h - the bench engine's user-space front end: clocks, calibration,
 * pinning, performance counters and the machine description.
 *
 * Linux user space only; the kernel module has its own front end.
 */
#ifndef HOTSCORE_HOST_H
#define HOTSCORE_HOST_H

#include "bench.h"

#define HS_ADD_CHAIN_LEN 1000	/* dependent adds in hs_add_chain() */

/**
 * struct hs_host - what the bench ran on.
 * @clock:	the clock the engine reads.
 * @resolution: the clock's real step in ticks (hs_host_resolution()); 0 when
 *		unknown (a module's results).
 * @clock_desc:	how it was obtained, e.g. the calibration.
 * @invariant_tsc: /proc/cpuinfo lists constant_tsc and nonstop_tsc.
 * @perf:	why hardware counters are or are not used.
 * @cpu:	the CPU the process is pinned to.
 * @cpu_model:	/proc/cpuinfo "model name".
 * @governor:	cpufreq governor of @cpu, or "unknown".
 * @hypervisor:	the CPU reports that it runs under a hypervisor.
 * @kernel:	uname release.
 * @core_hz:	core clock measured on a chain of dependent adds (0: not
 *		measured).
 */
struct hs_host {
	struct hs_clock clock;
	uint64_t resolution;
	char clock_desc[160];
	bool invariant_tsc;
	char perf[160];
	int cpu;
	char cpu_model[128];
	char governor[64];
	bool hypervisor;
	char kernel[128];
	uint64_t core_hz;
};

enum hs_clock_choice { HS_CLOCK_AUTO, HS_CLOCK_GETTIME };

int hs_host_init(struct hs_host *h, int cpu, enum hs_clock_choice clock,
		 char *err, size_t errlen);
void hs_host_fini(struct hs_host *h);
enum hs_layout {
	HS_LAYOUT_RANDOM,	/* ASLR on: placement varies per invocation */
	HS_LAYOUT_FIXED,	/* ASLR was already off (setarch -R, sysctl) */
	HS_LAYOUT_REEXECUTED,	/* we re-executed with ASLR off */
};

enum hs_layout hs_host_fixed_layout(char **argv);
bool hs_host_aslr(void);
void hs_host_random_layout(void);
uint64_t hs_host_fresh_seed(void);
bool hs_exe_is_program(void);
uint64_t hs_host_now_ns(void);
int hs_add_chain(const void *input);
uint64_t hs_host_core_hz(void);

#endif /* HOTSCORE_HOST_H */
