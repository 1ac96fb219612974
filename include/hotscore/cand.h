/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cand.h - a candidate: the user's own damon_hot_score(), from a C file.
 *
 * hs_cand_load() compiles the file (as a patched mm/damon/ops-common.c has
 * it) in the kernel environment of src/cand/env.h into a shared object,
 * cached by content, and loads it.  hs_cand_score() calls it as a kdamond
 * would and turns a trap (a division by zero, a bad pointer) into a status
 * instead of a crash, and a call that does not return (an endless loop)
 * into the status hang instead of a hang.  User space only.
 */
#ifndef HOTSCORE_CAND_H
#define HOTSCORE_CAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hotscore/score.h>

/*
 * A call that ran past the limit (hs_cand_set_limit()) without returning:
 * hs_cand_result.trap, and what the guards return, as they return a
 * trap's signal.
 */
#define HS_CAND_HANG		(-1)
/* The limit unless set: 1 s of the calling thread's CPU time. */
#define HS_CAND_LIMIT_NS	1000000000ULL

/* One call of the candidate's hs_cand_sweep() (src/cand/object/shim.c). */
typedef void (*hs_cand_sweep_fn)(const struct hs_input *in, unsigned int from,
				 unsigned int n, int *hot,
				 volatile unsigned int *at);

/**
 * struct hs_cand - a loaded candidate.
 * @path:	the file as the user named it.
 * @base:	the divisor helper env.h defines: HS_DIV_U32_TRUNC, ...
 * @hot:	damon_hot_score() on an input.
 * @cold:	damon_cold_score() (damon_pageout_score()), or 99 - hot.
 * @has_cold:	the file defines a cold function.
 * @sweep:	damon_hot_score() of a run of ages (verify).
 * @door:	damon_hot_score() on a call hs_cand_calls_build() prepared:
 *		what the bench times, no conversion in it.
 * @door_empty:	the same door to a function that does nothing: the door's
 *		own cost.
 * @calls:	the object's builder of those calls (shim.c).
 * @calls_size:	bytes it needs for n inputs.
 * @call_size:	bytes from one call to the next.
 * @handle:	dlopen()'s.
 */
struct hs_cand {
	const char *path;
	enum hs_divisor base;
	int (*hot)(const struct hs_input *in);
	int (*cold)(const struct hs_input *in);
	bool has_cold;
	hs_cand_sweep_fn sweep;
	int (*door)(const void *call);
	int (*door_empty)(const void *call);
	void (*calls)(const struct hs_input *in, unsigned long n, void *mem);
	unsigned long (*calls_size)(unsigned long n);
	unsigned long call_size;
	void *handle;
};

/**
 * struct hs_cand_result - a candidate's answer on one input.
 * @hot:	its hot score, when @trap is 0.
 * @cold:	its cold score, when @trap is 0.
 * @trap:	the signal it raised (SIGFPE, SIGSEGV...), HS_CAND_HANG
 *		when it ran past the limit, or 0.
 */
struct hs_cand_result {
	int hot;
	int cold;
	int trap;
};

void hs_cand_set_limit(uint64_t ns);
uint64_t hs_cand_limit(void);
void hs_cand_watch_begin(void);
void hs_cand_watch_end(void);
int hs_trap_guard(void (*fn)(void *ctx), void *ctx);
int hs_cand_call_hot(const struct hs_cand *c, const struct hs_input *in);
int hs_cand_sweep_ages(const struct hs_cand *c, const struct hs_input *in,
		       unsigned int from, unsigned int n, int *hot,
		       volatile unsigned int *at);
int hs_cand_load(const char *path, enum hs_divisor base, int placement,
		 struct hs_cand *out, char **log, char *err, size_t errlen);
int hs_cand_source(const struct hs_components *c, char *buf, size_t size);
int hs_cand_source_file(const char *text, char *path, size_t size,
			char *err, size_t errlen);
void *hs_cand_calls_build(const struct hs_cand *c, const struct hs_input *in,
			  size_t n);
void hs_cand_unload(struct hs_cand *c);
struct hs_cand_result hs_cand_score(const struct hs_cand *c,
				    const struct hs_input *in);
const char *hs_cand_trap_name(int sig);

#endif /* HOTSCORE_CAND_H */
