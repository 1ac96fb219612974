/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_rank.h - hotscore rank: the command line (cmd_rank.c) and the ranking of a
 * record's snapshots with its reports (rank_run.c).
 */
#ifndef HOTSCORE_CLI_CMD_RANK_H
#define HOTSCORE_CLI_CMD_RANK_H

#include <stdio.h>

#include <hotscore/score.h>
#include <hotscore/spec.h>

#include "damos_opt.h"

#define RANK_MAX_PROFILES	2

/**
 * struct rank_cmd - hotscore rank, as given.
 * @input:	the record file.
 * @profiles:	--profile as given, or NULL.
 * @prof:	the profiles (candidates loaded for @base_name).
 * @nr_prof:	how many.
 * @base:	--base, or NULL.
 * @base_spec:	the candidates' base (hs_spec_base()).
 * @ops:	vaddr or paddr.
 * @snapshot:	--snapshot, or -1.
 * @time_us:	--time, if @has_time.
 * @has_time:	--time was given.
 * @ss:		the scheme options.
 * @specs:	the schemes as given.
 * @nr_schemes:	how many.
 * @csv:	the CSV output file's name, or NULL.
 * @json:	the JSON output file's name, or NULL.
 * @csv_f:	open on @csv's temporary file.
 * @json_f:	open on @json's temporary file.
 */
struct rank_cmd {
	const char *input, *profiles;
	struct hs_spec prof[RANK_MAX_PROFILES];
	unsigned int nr_prof;
	const struct hs_profile *base;
	struct hs_spec base_spec;
	enum hs_ops ops;
	long snapshot;
	uint64_t time_us;
	bool has_time;
	struct cli_schemes ss;
	struct cli_scheme_spec specs[HS_MAX_SCHEMES];
	unsigned int nr_schemes;
	const char *csv, *json;
	FILE *csv_f, *json_f;
};

int rank_file(struct rank_cmd *c);

#endif /* HOTSCORE_CLI_CMD_RANK_H */
