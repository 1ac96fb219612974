// SPDX-License-Identifier: GPL-2.0
/*
 * cand.c - candidates for the subcommands: "./mine.c" or "LABEL=./mine.c"
 * wherever a profile goes, loaded once, errors worded the CLI's way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotscore/bench.h>
#include <hotscore/cand.h>

#include "cli.h"

/* sixteen files, each also at HS_NR_PLACEMENTS placements for bench */
#define MAX_CANDS (16 * (1 + HS_NR_PLACEMENTS))

static struct {
	char spec[256];
	enum hs_divisor base;
	int placement;
	char label[64];
	struct hs_cand cand;
} cands[MAX_CANDS];
static unsigned int nr_cands;

/* "LABEL=PATH": the label; "PATH": the file's name. */
static void split_spec(const char *spec, char *label, size_t size,
		       const char **path)
{
	*path = hs_cand_path(spec);
	if (*path == spec)
		snprintf(label, size, "%s", spec);
	else
		snprintf(label, size, "%.*s", (int)(*path - spec - 1), spec);
}

/**
 * cli_cand_get() - the candidate @spec names, compiled for @base, loaded
 * once; a file that does not compile, or cannot be read, exits 2 (after
 * the compiler's messages, which name the user's file:line).
 * @opt:	the option, for messages ("--profile").
 * @spec:	"./mine.c" or "LABEL=./mine.c".
 * @base:	the divisor helper its environment defines.
 * @label:	receives the name to print (the label, or the path).
 *
 * Return: the candidate.
 */
const struct hs_cand *cli_cand_get(const char *opt, const char *spec,
				   enum hs_divisor base, const char **label)
{
	return cli_cand_placed(opt, spec, base, -1, label);
}

/**
 * cli_cand_placed() - cli_cand_get() of a copy whose functions enter at
 * byte @placement of a 64-byte line (hs_cand_load()), or -1: as compiled.
 * @opt:	the option, for messages.
 * @spec:	"./mine.c" or "LABEL=./mine.c".
 * @base:	the divisor helper its environment defines.
 * @placement:	-1 or HS_PLACEMENT_OFFSET(k).
 * @label:	receives the name to print.
 *
 * Return: the candidate.
 */
const struct hs_cand *cli_cand_placed(const char *opt, const char *spec,
				      enum hs_divisor base, int placement,
				      const char **label)
{
	char err[512], *log;
	const char *path;
	unsigned int i;

	for (i = 0; i < nr_cands; i++)
		if (!strcmp(cands[i].spec, spec) && cands[i].base == base &&
		    cands[i].placement == placement) {
			*label = cands[i].label;
			return &cands[i].cand;
		}
	if (nr_cands == MAX_CANDS)
		cli_die("%s: more than %d candidates", opt, MAX_CANDS);
	if (strlen(spec) >= sizeof(cands[0].spec))
		cli_die("%s: '%.40s...' is too long", opt, spec);
	i = nr_cands;
	snprintf(cands[i].spec, sizeof(cands[i].spec), "%s", spec);
	split_spec(spec, cands[i].label, sizeof(cands[i].label), &path);
	cands[i].base = base;
	cands[i].placement = placement;
	if (hs_cand_load(path, base, placement, &cands[i].cand, &log, err,
			 sizeof(err))) {
		if (log && *log) {
			fflush(stdout);
			fputs(log, stderr);
		}
		free(log);
		cli_die("%s: %s: %s", opt, path, err);
	}
	free(log);
	cands[i].cand.path = path;
	nr_cands++;
	*label = cands[i].label;
	return &cands[i].cand;
}

/**
 * cli_cand_status() - "ok", "out-of-range", "trap(SIGFPE)" or "hang": a
 * candidate's result in the model's words.
 * @r:		the result.
 */
const char *cli_cand_status(const struct hs_cand_result *r)
{
	static char buf[32];

	if (r->trap == HS_CAND_HANG)
		return "hang";
	if (r->trap) {
		snprintf(buf, sizeof(buf), "trap(%s)",
			 hs_cand_trap_name(r->trap));
		return buf;
	}
	return r->hot < 0 || r->hot > 99 ? "out-of-range" : "ok";
}
