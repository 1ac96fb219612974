// SPDX-License-Identifier: GPL-2.0
/*
 * nocand.c - candidate files (a profile that names ./mine.c) refused, in
 * every harness: a fuzzed CSV's profile column must not make the harness
 * read, compile and load whatever file the input happens to name.  These
 * stand in for src/cli/spec_load.c's, which the link then leaves out; a
 * candidate spec is rejected as an unreadable file would be.  The loader
 * itself (C source given to the compiler) is not a parser fuzzed here:
 * docs/reliability.md.
 */
#include <hotscore/spec.h>

#include "cli/cli.h"
#include "fuzz.h"

void cli_spec_load(const char *opt, struct hs_spec *sp,
		   const struct hs_spec *base)
{
	(void)base;
	if (hs_spec_is_model(sp))
		return;
	cli_die("%s: %s: candidates are not loaded by the fuzz harnesses", opt,
		sp->given);
}

const struct hs_cand *cli_cand_placed(const char *opt,
				      const struct hs_spec *sp,
				      enum hs_divisor base, int placement)
{
	(void)base;
	(void)placement;
	cli_die("%s: %s: candidates are not loaded by the fuzz harnesses", opt,
		sp->given);
}
