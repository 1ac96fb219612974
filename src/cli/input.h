/* SPDX-License-Identifier: GPL-2.0 */
/*
 * input.h - score inputs from flags and CSV files (src/cli/input.c): the
 * columns (the kernel's field names), a row's profile column, and the CSV
 * reader that score --input, bench --dist file: and the fuzz harnesses
 * share.
 */
#ifndef HOTSCORE_CLI_INPUT_H
#define HOTSCORE_CLI_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#include <hotscore/score.h>
#include <hotscore/spec.h>

/*
 * The columns, one list for the CSV reader and score's flags: index, CSV
 * name, flag, struct hs_input member, unsigned long (else unsigned int), a
 * time (the flag takes units), default.
 */
#define INPUT_COLUMNS(X)						\
	X(0, "sample_us", "sample", sample_us, true, true, 5000)	\
	X(1, "aggr_us", "aggr", aggr_us, true, true, 100000)		\
	X(2, "nr_accesses", "nr_accesses", nr_accesses, false, false, 0) \
	X(3, "last_nr_accesses", "last_nr_accesses", last_nr_accesses,	\
	  false, false, 0)						\
	X(4, "age", "age", age, false, false, 0)			\
	X(5, "passed_sis", "passed_sis", passed_sis, true, false, 0)	\
	X(6, "next_aggr_sis", "next_aggr_sis", next_aggr_sis, true, false, 0) \
	X(7, "weight_nr_accesses", "weight_nr_accesses",		\
	  weight_nr_accesses, false, false, 1)				\
	X(8, "weight_age", "weight_age", weight_age, false, false, 1)

#define INPUT_NR_COLUMNS 9

/**
 * struct input_column - one numeric column of the input.
 * @csv:	its name in a CSV header.
 * @flag:	score's flag for it.
 * @offset:	in struct hs_input.
 * @is_long:	unsigned long, else unsigned int.
 * @is_time:	in us; the flag takes units.
 * @dflt:	its default.
 */
struct input_column {
	const char *csv, *flag;
	size_t offset;
	bool is_long, is_time;
	unsigned long dflt;
};

extern const struct input_column input_columns[INPUT_NR_COLUMNS];
extern const struct input_column input_bp_column;

/* Which function a captured call was (hotscore.ko mode=capture). */
enum input_fn { INPUT_FN_NONE, INPUT_FN_HOT, INPUT_FN_COLD };

/**
 * struct row - one input and the profile it names, if it names one.
 * @in:		the input.
 * @spec:	the profile column's profile.
 * @has_profile: the row had a profile column.
 * @fn:		a captured call's function (the fn column), else NONE.
 * @nested:	a damon_hot_score() call made inside damon_cold_score()
 *		(caller column "cold"): the same computation as that row.
 * @returned:	what the kernel's function returned (the returned column).
 * @has_bp:	@in.nr_accesses_bp was given (a column or --nr_accesses_bp);
 *		else input_bp_default() sets it from nr_accesses.
 * @nr_accesses_bp: a 6.7+ capture's nr_accesses_bp column, else 0.
 */
struct row {
	struct hs_input in;
	struct hs_spec spec;
	bool has_profile;
	bool has_bp;
	enum input_fn fn;
	bool nested;
	int returned;
	unsigned int nr_accesses_bp;
};

unsigned long input_column_get(size_t i, const struct hs_input *in);
void input_column_set(size_t i, struct hs_input *in, unsigned long v);
void input_set_base(const struct hs_spec *base);
void input_row_defaults(struct row *r);
void input_bp_default(struct row *r);
bool input_is_capture(void);
bool input_has_column(const char *name);

/* A CSV of rows, read whole and walked line by line (score --input). */
void input_open(const char *opt, const char *path);
void input_header(void);
/* Where a walk of the rows starts: input_mark(), input_rewind(). */
struct input_mark {
	size_t pos, lineno;
};

struct input_mark input_mark(void);
void input_rewind(struct input_mark m);
bool input_next_row(struct row *r);
void input_close(void);

#endif /* HOTSCORE_CLI_INPUT_H */
