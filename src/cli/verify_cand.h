/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify_cand.h - `hotscore verify --candidate`: what cmd_verify.c parses and
 * verify_cand.c runs and reports.
 */
#ifndef HOTSCORE_CLI_VERIFY_CAND_H
#define HOTSCORE_CLI_VERIFY_CAND_H

#include <hotscore/spec.h>
#include <hotscore/verify.h>

/**
 * struct verify_cand - a candidate against a profile.
 * @spec:	the candidate ("./mine.c" or "LABEL=./mine.c"), loaded with
 *		the base's divisor; reports call it by its name.
 * @base:	the base it was loaded for (--base, else @against).
 * @against:	the profile's name.
 * @comp:	its components.
 * @json:	--json, or NULL.
 * @command:	the reproduce line.
 * @cfg:	quick, threads, seed, random.
 */
struct verify_cand {
	struct hs_spec spec, base;
	const char *against;
	struct hs_components comp;
	const char *json;
	const char *command;
	struct hs_cand_verify_config cfg;
};

int verify_candidate(struct verify_cand *vc);

#endif /* HOTSCORE_CLI_VERIFY_CAND_H */
