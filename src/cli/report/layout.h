/* SPDX-License-Identifier: GPL-2.0 */
/*
 * layout.h - text laid out for a terminal, shared by every text report
 * (bench, verify, sim, rank, score): words wrapped at a width, and tables
 * whose columns are as wide as their cells, or narrowed until a row fits.
 */
#ifndef HOTSCORE_CLI_LAYOUT_H
#define HOTSCORE_CLI_LAYOUT_H

#include <stddef.h>
#include <stdio.h>

/* layout_wrap()'s flags. */
/* A word longer than a line is cut where the line ends. */
#define LAYOUT_CUT		(1U << 0)
/* LAYOUT_NBSP_CHAR is a space that no line breaks at: "1" NBSP "tick". */
#define LAYOUT_NBSP		(1U << 1)
/* Spaces are printed as given, not one between words. */
#define LAYOUT_KEEP_SPACES	(1U << 2)

#define LAYOUT_NBSP_CHAR	'\001'
#define LAYOUT_NBSP_STR		"\001"

void layout_wrap(FILE *f, const char *text, size_t col, size_t indent,
		 size_t width, unsigned int flags);

void layout_command(FILE *f, const char *lead, int cont, const char *cmd,
		    const char *comment, int width);

/* struct layout_table's flags. */
/* A cell wider than its column is wrapped (after ", ", at a space, ...). */
#define LAYOUT_WRAP_CELLS	(1U << 0)
/* No line ends in spaces. */
#define LAYOUT_TRIM		(1U << 1)

#define LAYOUT_MAX_COLS		40

/**
 * struct layout_table - the shape of a table of text.
 * @nr_cols:	columns in a row.
 * @lead:	spaces before the first column.
 * @gap:	spaces between two columns.
 * @right:	bit c set: column c is aligned right (and padded, even last).
 * @flags:	LAYOUT_WRAP_CELLS, LAYOUT_TRIM.
 * @width:	each column's width; a left-aligned last column is not padded.
 */
struct layout_table {
	unsigned int nr_cols;
	unsigned int lead;
	unsigned int gap;
	unsigned long long right;
	unsigned int flags;
	size_t width[LAYOUT_MAX_COLS];
};

void layout_widen(struct layout_table *t, const char *const *row);
size_t layout_total(const struct layout_table *t);
void layout_fit(struct layout_table *t, const char *const *cells,
		unsigned int nr_rows, size_t max, unsigned int lists_from);
void layout_row(FILE *f, const struct layout_table *t,
		const char *const *row);

#endif /* HOTSCORE_CLI_LAYOUT_H */
