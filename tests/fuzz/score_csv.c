// SPDX-License-Identifier: GPL-2.0
/*
 * score_csv.c - `hotscore score --input FILE`, whole: the CSV reader
 * (header, columns, numbers, quoted fields, CR/LF/CRLF, a BOM, profiles
 * and FREQ+DIVISOR+AGE+CLAMP combinations in the profile column), then
 * every row scored and printed under the CSV's profile or two --profile
 * ones.  The output goes to /dev/null; a bad file is cli_die().
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *argv[] = { "score", "--input", NULL, "--profile",
				"v6.6,mm-new", NULL };

	fuzz_quiet_stdout();
	fuzz_begin(size);
	argv[2] = (char *)fuzz_file(data, size);
	if (!setjmp(fuzz_jmp))
		fuzz_assert(cmd_score.run(5, argv) == 0);
	cli_csv_reset();		/* after a rejection, what the read held */
	fflush(stdout);
	fuzz_end();
	return 0;
}
