/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cand_steps.h - a candidate's steps: the values its damon_hot_score() and
 * its helpers give their local variables on one input, as `hotscore score`
 * shows a profile's freq_subscore, age_in_log and the rest.
 *
 * hs_cand_steps() compiles a copy of the file in which each statement
 * that assigns a variable (outside loops; a loop as a whole) records it,
 * and calls that copy once.  User space only.
 */
#ifndef HOTSCORE_CAND_STEPS_H
#define HOTSCORE_CAND_STEPS_H

#include <stdbool.h>

#include <hotscore/score.h>

/* assignments kept; more are counted */
#define HS_CAND_STEPS_MAX	64

/**
 * struct hs_cand_step - one assignment, as it ran.
 * @func:	the function it is in.
 * @name:	the variable.
 * @line:	its line in the user's file.
 * @is_signed:	of a signed type: @value is to be read as an int64_t.
 * @value:	the value after it, widened from the variable's type.
 */
struct hs_cand_step {
	char func[48];
	char name[48];
	unsigned int line;
	bool is_signed;
	unsigned long long value;
};

/**
 * struct hs_cand_steps - a candidate's steps on one input.
 * @nr:		kept in @step.
 * @total:	recorded in all (more than @nr: the rest were dropped).
 * @step:	in the order they ran.
 * @why:	when there are none: why ("it traps", "the copy does not
 *		compile: ..."), or "" for a file that assigns no variable.
 */
struct hs_cand_steps {
	unsigned int nr, total;
	struct hs_cand_step step[HS_CAND_STEPS_MAX];
	char why[160];
};

int hs_cand_steps(const char *path, enum hs_divisor base,
		  const struct hs_input *in, struct hs_cand_steps *out);
const struct hs_cand_step *hs_cand_step_find(const struct hs_cand_steps *s,
					     const char *name);

#endif /* HOTSCORE_CAND_STEPS_H */
