/* SPDX-License-Identifier: GPL-2.0 */
/*
 * io.h - the files a command line names: no output over an input and no
 * two outputs on one file, checked by the option layer once argv is parsed.
 */
#ifndef HOTSCORE_CLI_IO_H
#define HOTSCORE_CLI_IO_H

#include <stdbool.h>
#include <stddef.h>

struct opt;

/**
 * struct cli_io - one option as given.
 * @o:		its table entry, whose flags say what its value names.
 * @value:	its value, the last one given; NULL for a flag.
 * @bare:	given as a bare argument (the command's operand), not as
 *		--name: a message names the file alone.
 */
struct cli_io {
	const struct opt *o;
	const char *value;
	bool bare;
};

void cli_io_inputs(const struct cli_io *io, size_t n);
void cli_io_check(const struct cli_io *io, size_t n);

#endif /* HOTSCORE_CLI_IO_H */
