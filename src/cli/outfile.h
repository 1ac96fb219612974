/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outfile.h - output files written whole: a temporary file beside the target,
 * renamed over it when the run is complete; Ctrl-C changes nothing.
 */
#ifndef HOTSCORE_CLI_OUTFILE_H
#define HOTSCORE_CLI_OUTFILE_H

#include <stdio.h>

void cli_out_init(const char *cmd);
FILE *cli_out_open(const char *opt, const char *path);
void cli_out_done(FILE *f);
void cli_out_commit(void);
const char *cli_out_scratch(const char *name);

#endif /* HOTSCORE_CLI_OUTFILE_H */
