/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz.h - what the harnesses in tests/fuzz/ share.
 *
 * A harness is one file defining LLVMFuzzerTestOneInput().  It is linked
 * either with libFuzzer (make fuzz: clang, ASan, UBSan) or with replay.c
 * (make test: any compiler), which calls it on every file of its corpus;
 * fuzz.c is in both.  docs/reliability.md says what each harness covers.
 */
#ifndef HOTSCORE_FUZZ_H
#define HOTSCORE_FUZZ_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Where cli_die() lands when a parser rejects the input: a harness does
 *
 *	fuzz_begin(size);
 *	if (!setjmp(fuzz_jmp))
 *		parse(...);
 *	free what is left;
 *	fuzz_end();
 *
 * Bad input is the common, expected outcome; only a crash, a sanitizer
 * report, a leak, a failed fuzz_assert() or an exit() is a finding.
 * State a harness keeps across the jump lives in static storage, never in
 * a local of the function that called setjmp().
 */
extern jmp_buf fuzz_jmp;

void fuzz_begin(size_t size);
void fuzz_end(void);
const char *fuzz_file(const uint8_t *data, size_t size);
char *fuzz_string(const uint8_t *data, size_t size);
void fuzz_quiet_stdout(void);
void fuzz_fail(const char *file, int line, const char *what)
	__attribute__((noreturn));

/* An invariant of a parser's result: false is a finding (abort()). */
#define fuzz_assert(cond) do {						\
	if (!(cond))							\
		fuzz_fail(__FILE__, __LINE__, #cond);			\
} while (0)

/*
 * The parsers' state that cli_die() leaves behind; not part of the CLI's
 * interface, so declared here rather than in cli.h and cmd_bench.h.
 */
void cli_csv_reset(void);
void bench_import_reset(void);

#endif /* HOTSCORE_FUZZ_H */
