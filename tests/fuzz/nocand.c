// SPDX-License-Identifier: GPL-2.0
/*
 * nocand.c - candidate files (a profile that names ./mine.c) refused, in
 * every harness: a fuzzed CSV's profile column must not make the harness
 * read, compile and load whatever file the input happens to name.  These
 * stand in for src/cli/cand.c's, which the link then leaves out; a
 * candidate spec is rejected as an unreadable file would be.  The loader
 * itself (C source given to the compiler) is not a parser fuzzed here:
 * docs/reliability.md.
 */
#include <hotscore/cand.h>

#include "cli/cli.h"
#include "fuzz.h"

const struct hs_cand *cli_cand_get(const char *opt, const char *spec,
				   enum hs_divisor base, const char **label)
{
	(void)base;
	(void)label;
	cli_die("%s: %s: candidates are not loaded by the fuzz harnesses", opt,
		spec);
}

const char *cli_cand_status(const struct hs_cand_result *r)
{
	(void)r;
	fuzz_assert(!"no candidate is ever loaded");
	return "";
}

const struct hs_cand *cli_cand_placed(const char *opt, const char *spec,
				      enum hs_divisor base, int placement,
				      const char **label)
{
	(void)placement;
	return cli_cand_get(opt, spec, base, label);
}
