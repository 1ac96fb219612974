/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify_cand.h - `hotscore verify --candidate`: what verify.c parses and
 * verify_cand.c runs and reports.
 */
#ifndef HOTSCORE_CLI_VERIFY_CAND_H
#define HOTSCORE_CLI_VERIFY_CAND_H

#include <hotscore/verify.h>

/**
 * struct verify_cand - a candidate against a profile.
 * @spec:	"./mine.c" or "LABEL=./mine.c", as given.
 * @label:	what reports call it.
 * @against:	the profile's name.
 * @comp:	its components.
 * @cand:	loaded with the base's divisor.
 * @json:	--json, or NULL.
 * @command:	the reproduce line.
 * @cfg:	quick, threads, seed, random.
 */
struct verify_cand {
	const char *spec;
	const char *label;
	const char *against;
	struct hs_components comp;
	const struct hs_cand *cand;
	const char *json;
	const char *command;
	struct hs_cand_verify_config cfg;
};

int verify_candidate(struct verify_cand *vc);

#endif /* HOTSCORE_CLI_VERIFY_CAND_H */
