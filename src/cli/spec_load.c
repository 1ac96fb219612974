// SPDX-License-Identifier: GPL-2.0
/*
 * spec_load.c - candidates loaded for the subcommands, errors worded the
 * CLI's way: the compiler's messages (which name the user's file:line),
 * then one line, exit 2.  The fuzz harnesses link tests/fuzz/nocand.c in
 * place of this file, so that a fuzzed profile column never compiles
 * whatever file it names.
 */
#include <stdio.h>
#include <stdlib.h>

#include <hotscore/spec.h>

#include "cli.h"

/* The compiler's messages, then one line naming the file. */
static void load_failed(const char *opt, const struct hs_spec *sp,
			char *log, const char *err)
{
	if (log && *log) {
		fflush(stdout);
		fputs(log, stderr);
	}
	free(log);
	cli_die("%s: %s: %s", opt, hs_spec_cand_path(sp->given, true), err);
}

/**
 * cli_spec_load() - load @sp if it is a candidate, for @base; a file that
 * does not compile, or cannot be read, exits 2.
 * @opt:	the option, for messages ("--profile").
 * @sp:		the spec.
 * @base:	its base (hs_spec_base()).
 */
void cli_spec_load(const char *opt, struct hs_spec *sp,
		   const struct hs_spec *base)
{
	char err[512], *log;

	if (hs_spec_load(sp, &base->comp, &log, err, sizeof(err)))
		load_failed(opt, sp, log, err);
	free(log);
}

/**
 * cli_cand_placed() - the candidate @sp names, compiled for @base, with
 * its functions entering at byte @placement of a 64-byte line (bench).
 * @opt:	the option, for messages.
 * @sp:		a candidate spec.
 * @base:	the divisor helper its environment defines.
 * @placement:	HS_PLACEMENT_OFFSET(k).
 *
 * Return: the candidate.
 */
const struct hs_cand *cli_cand_placed(const char *opt,
				      const struct hs_spec *sp,
				      enum hs_divisor base, int placement)
{
	const struct hs_cand *c;
	char err[512], *log;

	c = hs_spec_load_placed(sp, base, placement, &log, err, sizeof(err));
	if (!c)
		load_failed(opt, sp, log, err);
	free(log);
	return c;
}
