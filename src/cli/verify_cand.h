/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify_cand.h - `hotscore verify --candidate`: what cmd_verify.c parses and
 * verify_cand.c runs and reports.
 */
#ifndef HOTSCORE_CLI_VERIFY_CAND_H
#define HOTSCORE_CLI_VERIFY_CAND_H

#include <hotscore/spec.h>
#include <hotscore/verify.h>

/* --candidate, at most this many: each against --against and each other */
#define VERIFY_MAX_CANDS 8

/**
 * struct verify_cand - candidates against a profile or a candidate file.
 * @cands:	each --candidate ("./mine.c" or "LABEL=./mine.c"), loaded
 *		with the base's divisor; reports call it by its name.
 * @nr_cands:	how many.
 * @against:	--against: a profile, a combination or a candidate file
 *		(loaded as the candidates are).
 * @base:	the base they were loaded for (--base, else --against if it
 *		is a model, else hotfix).
 * @json:	--json, or NULL.
 * @command:	the reproduce line.
 * @cfg:	quick, threads, seed, random.
 */
struct verify_cand {
	struct hs_spec cands[VERIFY_MAX_CANDS];
	unsigned int nr_cands;
	struct hs_spec against, base;
	const char *json;
	const char *command;
	struct hs_cand_verify_config cfg;
};

int verify_candidates(struct verify_cand *vc);

#endif /* HOTSCORE_CLI_VERIFY_CAND_H */
