/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify_captured.h - `hotscore verify --captured FILE` (verify_captured.c):
 * a live kdamond's calls, recorded by hotscore.ko mode=capture, checked
 * against the model's profiles.
 */
#ifndef HOTSCORE_CLI_VERIFY_CAPTURED_H
#define HOTSCORE_CLI_VERIFY_CAPTURED_H

#include <hotscore/score.h>

/**
 * struct verify_captured - what verify --captured checks.
 * @path:	the capture (the CSV hotscore.ko's debugfs capture file gives).
 * @profiles:	--profile's list (profiles, combinations, candidate files),
 *		or NULL for every built-in profile.
 * @base:	--base: whose damon_max_nr_accesses() a candidate's kernel
 *		has, or NULL (hs_spec_base()).
 * @json:	--json's file, or NULL.
 * @command:	the command line, for the JSON.
 */
struct verify_captured {
	const char *path;
	const char *profiles;
	const struct hs_profile *base;
	const char *json;
	const char *command;
};

int verify_captured(const struct verify_captured *vc);

#endif /* HOTSCORE_CLI_VERIFY_CAPTURED_H */
