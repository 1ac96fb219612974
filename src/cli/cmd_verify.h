/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_verify.h - `hotscore verify`'s run (cmd_verify.c) and what its reporters
 * read (src/cli/report/verify_text.c, verify_json.c): the result, and the
 * classes of profiles that agree.
 */
#ifndef HOTSCORE_CLI_CMD_VERIFY_H
#define HOTSCORE_CLI_CMD_VERIFY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <hotscore/spec.h>
#include <hotscore/verify.h>

#include "verify_cand.h"

/**
 * struct verify - one `hotscore verify`: its options and its result.
 * @cfg:		what to prove, for hs_verify_run().
 * @specs:		each profile, as given (cli_spec_add()).
 * @json:		--json FILE, or NULL.
 * @cands:		each --candidate FILE.
 * @nr_cands:		how many.
 * @against:		--against PROFILE or FILE, or NULL.
 * @base:		--base PROFILE, or NULL.
 * @captured:		--captured FILE, or NULL.
 * @profile_list:	--profile, as given.
 * @command:		the command line that reproduces the run.
 * @random_set:		--random was given.
 * @res:		the result.
 */
struct verify {
	struct hs_verify_config cfg;
	struct hs_spec specs[HS_VERIFY_MAX_PROFILES];
	const char *json;
	const char *cands[VERIFY_MAX_CANDS];	/* --candidate mode */
	unsigned int nr_cands;
	const char *against, *base;
	const char *captured;			/* --captured mode */
	const char *profile_list;		/* --profile, as given */
	char command[4096];
	bool random_set;
	struct hs_verify_result res;
};

/**
 * struct classes - profiles that agree on every input checked, as classes.
 * @nr:		classes.
 * @of:		each profile's class.
 * @members:	each class's profiles, as a mask.
 *
 * Agreement (the same status, and the same score unless both divide by
 * zero at the same site) is an equivalence, and a pair of raw profiles is
 * checked on a subset of the inputs of a pair with a moving-sum one, which
 * a raw profile scores as it does that subset: so equality is transitive,
 * and a profile joins the class of the first earlier profile it equals.
 */
struct classes {
	unsigned int nr;
	unsigned int of[HS_VERIFY_MAX_PROFILES];	/* profile -> class */
	unsigned int members[HS_VERIFY_MAX_PROFILES];	/* class -> mask */
};

void find_classes(const struct verify *v, struct classes *c);
void verify_print_report(const struct verify *v);
int verify_write_json(const struct verify *v, FILE *f);

/* The age_in_log methods agree on every value. */
static inline bool agelog_equal(const struct hs_verify_result *res)
{
	unsigned int k;

	for (k = 0; k < HS_NR_AGELOG_WAYS; k++)
		if (res->agelog.mismatches[k])
			return false;
	return true;
}

/* The pair agrees on every input it was checked on. */
static inline bool pair_equal(const struct hs_pair_stats *ps)
{
	return ps->agree == ps->inputs;
}

/* The exit status: 1 if a claimed equality failed. */
static inline int verdict(const struct verify *v)
{
	return hs_verify_ok(&v->cfg, &v->res) ? 0 : 1;
}

/* Profile @a is in @mask. */
static inline bool has(unsigned int mask, unsigned int a)
{
	return mask >> a & 1;
}

/* The counts of the pair @x, @y, whichever is stored first. */
static inline const struct hs_pair_stats *pair_of(const struct verify *v,
						  unsigned int x,
						  unsigned int y)
{
	return x < y ? &v->res.pair[x][y] : &v->res.pair[y][x];
}

/* The profiles @x and @y are claimed equal (hs_claimed_equal()). */
static inline bool claimed(const struct verify *v, unsigned int x,
			   unsigned int y)
{
	return hs_claimed_equal(&v->cfg.comp[x], &v->cfg.comp[y]);
}

/* The inputs on which @a and @b differ. */
static inline uint64_t differ(const struct verify *v, unsigned int a,
			      unsigned int b)
{
	const struct hs_pair_stats *ps = pair_of(v, a, b);

	return ps->inputs - ps->agree;
}

#endif /* HOTSCORE_CLI_CMD_VERIFY_H */
