// SPDX-License-Identifier: GPL-2.0
/*
 * layout.c - text laid out for a terminal: one word wrapper and one table
 * layouter for every text report (bench, verify, sim, rank, score and the
 * help).  The reports differ in small ways (a word longer than a line cut
 * or not, spaces kept or not, a table's cells wrapped or not); each such
 * difference is a flag here, so that one function keeps them all.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../cli.h"
#include "layout.h"

/* Print @len bytes of @p; with LAYOUT_NBSP its hard spaces as spaces. */
static void put_bytes(FILE *f, const char *p, size_t len, unsigned int flags)
{
	if (!(flags & LAYOUT_NBSP)) {
		fwrite(p, 1, len, f);
		return;
	}
	for (; len--; p++)
		fputc(*p == LAYOUT_NBSP_CHAR ? ' ' : *p, f);
}

/* Print the words of @p's first @n bytes, one space apart. */
static void put_words(FILE *f, const char *p, size_t n, unsigned int flags)
{
	const char *end = p + n;
	size_t len;

	while (p < end) {
		p += strspn(p, " ");
		len = strcspn(p, " ");
		if (len > (size_t)(end - p))
			len = (size_t)(end - p);
		put_bytes(f, p, len, flags);
		p += len;
		if (p < end)
			fputc(' ', f);
	}
}

/*
 * The words of @p (which starts with one) that fit in @room columns, one
 * space apart; the first word in any case, cut to @room with LAYOUT_CUT.
 * Return the bytes of @p they span; *@last: nothing is left after them.
 */
static size_t words_fit(const char *p, size_t room, unsigned int flags,
			bool *last)
{
	size_t used = 0, end = 0, len;
	const char *q = p;

	for (;;) {
		len = strcspn(q, " ");
		*last = !len;
		if (!len || (used && used + 1 + len > room))
			return end;
		if (!used && len > room && (flags & LAYOUT_CUT)) {
			*last = false;
			return room ? room : 1;
		}
		used += (used ? 1 : 0) + len;
		q += len;
		end = (size_t)(q - p);
		q += strspn(q, " ");
	}
}

/*
 * With LAYOUT_KEEP_SPACES: @p up to its last space that fits in @room
 * columns (not its first byte), else cut at @room with LAYOUT_CUT, else up
 * to its next space.  Return the bytes; *@last: nothing is left after them.
 */
static size_t raw_fit(const char *p, size_t room, unsigned int flags,
		      bool *last)
{
	size_t n = strlen(p), i;

	*last = n <= room;
	if (*last)
		return n;
	for (i = room; i > 0 && p[i] != ' '; i--)
		;
	if (!i && (flags & LAYOUT_CUT))
		i = room ? room : 1;
	else if (!i)
		i = 1 + strcspn(p + 1, " ");
	*last = i == n;
	return i;
}

/**
 * layout_wrap() - print @text from column @col, wrapped at @width; each new
 * line starts at column @indent.  Ends with a newline.
 * @f:		where.
 * @text:	words separated by spaces.
 * @col:	the column the cursor is at.
 * @indent:	where continuation lines start.
 * @width:	no line passes it unless one word does (and LAYOUT_CUT is not
 *		set).
 * @flags:	LAYOUT_CUT: a word longer than a line is cut where the line
 *		ends; LAYOUT_NBSP: LAYOUT_NBSP_CHAR prints as a space that no
 *		line breaks at; LAYOUT_KEEP_SPACES: spaces are printed as
 *		given (a line may end in some), not one between two words.
 */
void layout_wrap(FILE *f, const char *text, size_t col, size_t indent,
		 size_t width, unsigned int flags)
{
	bool keep = flags & LAYOUT_KEEP_SPACES, last;
	size_t n, room;

	if (!keep)
		text += strspn(text, " ");
	for (;;) {
		room = col < width ? width - col : 0;
		if (keep) {
			n = raw_fit(text, room, flags, &last);
			put_bytes(f, text, n, flags);
		} else {
			n = words_fit(text, room, flags, &last);
			put_words(f, text, n, flags);
		}
		if (last)
			break;
		text += n;
		text += strspn(text, " ");
		fprintf(f, "\n%*s", (int)indent, "");
		col = indent;
	}
	fputc('\n', f);
}

/**
 * layout_command() - a command, ready to paste: @lead ("      e.g. "),
 * then @cmd, broken with a backslash before a --flag where it would pass
 * @width (continuation lines start at column @cont), then "  # @comment"
 * at the end of the last line, or on a line of its own where it does not
 * fit.  Ends with a newline.
 * @f:		where.
 * @lead:	what comes before the command on its first line.
 * @cont:	the column continuation lines start at.
 * @cmd:	the command, its options " --"-separated.
 * @comment:	or NULL.
 * @width:	the columns a line may take.
 */
void layout_command(FILE *f, const char *lead, int cont, const char *cmd,
		    const char *comment, int width)
{
	int col = fprintf(f, "%s", lead);
	const char *t = cmd;

	while (*t) {
		const char *end = strstr(t + 1, " --");
		int len = end ? (int)(end - t) : (int)strlen(t);

		/* a line that goes on keeps room for its " \" */
		if (t != cmd && col + 1 + len + (end ? 2 : 0) > width) {
			fputs(" \\\n", f);
			col = fprintf(f, "%*s", cont, "");
		} else if (t != cmd) {
			col += fprintf(f, " ");
		}
		col += fprintf(f, "%.*s", len, t);
		t += end ? len + 1 : len;
	}
	if (!comment)
		fputc('\n', f);
	else if (col + 4 + (int)strlen(comment) <= width)
		fprintf(f, "  # %s\n", comment);
	else
		fprintf(f, "\n%*s# %s\n", (int)strlen(lead), "", comment);
}

/**
 * layout_widen() - widen @t's columns to the cells of @row.
 * @t:		the table.
 * @row:	@t->nr_cols cells.
 */
void layout_widen(struct layout_table *t, const char *const *row)
{
	unsigned int c;

	for (c = 0; c < t->nr_cols; c++)
		if (strlen(row[c]) > t->width[c])
			t->width[c] = strlen(row[c]);
}

/**
 * layout_total() - how many columns a line of @t takes, padded.
 * @t:		the table.
 *
 * Return: its lead, its columns and the gaps between them.
 */
size_t layout_total(const struct layout_table *t)
{
	size_t sum = t->lead + (size_t)t->gap * (t->nr_cols - 1);
	unsigned int c;

	for (c = 0; c < t->nr_cols; c++)
		sum += t->width[c];
	return sum;
}

/*
 * The longest piece of @s that no break splits: breaks are after ", "
 * (between items) and, with @words, at a space and after a '+' too.
 */
static size_t longest_piece(const char *s, bool words)
{
	size_t i, run = 0, best = 0;

	for (i = 0; s[i]; i++) {
		if (s[i] == ' ' && (words || (i && s[i - 1] == ',')))
			run = 0;
		else
			run++;
		if (run > best)
			best = run;
		if (words && s[i] == '+')
			run = 0;
	}
	return best;
}

/*
 * The next line of @s in @w columns: break after the last ", " that fits,
 * else at a space, else after a '+', else anywhere.  Return its length;
 * *@skip is where the rest starts.
 */
static size_t next_piece(const char *s, size_t w, size_t *skip)
{
	size_t n = strlen(s), i, comma = 0, space = 0, plus = 0, len;

	if (n <= w) {
		*skip = n;
		return n;
	}
	for (i = 1; i <= w; i++) {
		if (s[i] == ' ' && s[i - 1] == ',')
			comma = i;
		else if (s[i] == ' ')
			space = i;
		if (s[i - 1] == '+')
			plus = i;
	}
	len = comma ? comma : space ? space : plus ? plus : w;
	for (*skip = len; s[*skip] == ' '; (*skip)++)
		;
	return len;
}

/* The piece of @s that column @c shows on a line; *@skip: the rest. */
static size_t cell_piece(const struct layout_table *t, unsigned int c,
			 const char *s, size_t *skip)
{
	if (t->flags & LAYOUT_WRAP_CELLS)
		return next_piece(s, t->width[c], skip);
	*skip = strlen(s);
	return *skip;
}

/* How many lines @s takes in @w columns. */
static unsigned int cell_lines(const char *s, size_t w)
{
	unsigned int n = 0;
	size_t skip;

	do {
		next_piece(s, w, &skip);
		s += skip;
		n++;
	} while (*s);
	return n;
}

/* @t's lines at its widths; *@cells: the lines of all its cells. */
static unsigned int table_lines(const struct layout_table *t,
				const char *const *cells, unsigned int nr_rows,
				unsigned int *nr_lines)
{
	unsigned int r, c, n, height, lines = 0;

	*nr_lines = 0;
	for (r = 0; r < nr_rows; r++) {
		height = 1;
		for (c = 0; c < t->nr_cols; c++) {
			n = cell_lines(cells[r * t->nr_cols + c], t->width[c]);
			height = n > height ? n : height;
			*nr_lines += n;
		}
		lines += height;
	}
	return lines;
}

/*
 * Narrow by one the column, from @from on and wider than its @floor, that
 * adds the fewest lines to the table (then to its cells; then the widest):
 * columns wrap together, and a row already two lines high wraps its other
 * cells for free.  Return false if no column can give way.
 */
static bool narrow(struct layout_table *t, const char *const *cells,
		   unsigned int nr_rows, const size_t *floor,
		   unsigned int from)
{
	unsigned int c, lines, nr, best_lines = 0, best_nr = 0;
	int best = -1;

	for (c = from; c < t->nr_cols; c++) {
		if (t->width[c] <= floor[c])
			continue;
		t->width[c]--;
		lines = table_lines(t, cells, nr_rows, &nr);
		t->width[c]++;
		if (best < 0 || lines < best_lines ||
		    (lines == best_lines && (nr < best_nr ||
		     (nr == best_nr && t->width[c] > t->width[best])))) {
			best = (int)c;
			best_lines = lines;
			best_nr = nr;
		}
	}
	if (best < 0)
		return false;
	t->width[best]--;
	return true;
}

/**
 * layout_fit() - widths from the content of @cells, narrowed (their cells
 * to be wrapped, LAYOUT_WRAP_CELLS) until a line fits @max columns.
 * @t:		the table, its @nr_cols, @lead and @gap set.
 * @cells:	@nr_rows rows of @t->nr_cols cells, row after row.
 * @nr_rows:	rows, the head included.
 * @max:	the columns a line may take.
 * @lists_from:	the first column that holds lists ("a, b, c"): those
 *		give way first, whole items first; then any column, whole
 *		words first; then anywhere.
 */
void layout_fit(struct layout_table *t, const char *const *cells,
		unsigned int nr_rows, size_t max, unsigned int lists_from)
{
	size_t item[LAYOUT_MAX_COLS], word[LAYOUT_MAX_COLS];
	size_t one[LAYOUT_MAX_COLS], n;
	unsigned int c, r;

	for (c = 0; c < t->nr_cols; c++) {
		t->width[c] = item[c] = word[c] = 0;
		one[c] = 1;
		for (r = 0; r < nr_rows; r++) {
			const char *s = cells[r * t->nr_cols + c];

			n = strlen(s);
			t->width[c] = n > t->width[c] ? n : t->width[c];
			n = longest_piece(s, false);
			item[c] = n > item[c] ? n : item[c];
			n = longest_piece(s, true);
			word[c] = n > word[c] ? n : word[c];
		}
	}
	while (layout_total(t) > max &&
	       narrow(t, cells, nr_rows, item, lists_from))
		;
	while (layout_total(t) > max && narrow(t, cells, nr_rows, word, 0))
		;
	while (layout_total(t) > max && narrow(t, cells, nr_rows, one, 0))
		;
}

/* A line of a table, its spaces held back: LAYOUT_TRIM drops the last. */
struct line {
	FILE *f;
	size_t spaces;
};

static void line_put(struct line *l, const char *s, size_t len)
{
	for (; len--; s++) {
		if (*s == ' ') {
			l->spaces++;
			continue;
		}
		fprintf(l->f, "%*s%c", (int)l->spaces, "", *s);
		l->spaces = 0;
	}
}

/**
 * layout_row() - print one row of @t, on as many lines as its tallest cell
 * needs (one, without LAYOUT_WRAP_CELLS).
 * @f:		where.
 * @t:		the table, its widths set (layout_widen(), layout_fit()).
 * @row:	@t->nr_cols cells.
 */
void layout_row(FILE *f, const struct layout_table *t,
		const char *const *row)
{
	const char *rest[LAYOUT_MAX_COLS];
	struct line l = { f, 0 };
	bool more = true, right;
	size_t len, skip, pad;
	unsigned int c;

	for (c = 0; c < t->nr_cols; c++)
		rest[c] = row[c];
	while (more) {
		more = false;
		l.spaces += t->lead;
		for (c = 0; c < t->nr_cols; c++) {
			right = t->right >> c & 1;
			len = cell_piece(t, c, rest[c], &skip);
			pad = t->width[c] > len ? t->width[c] - len : 0;
			l.spaces += c ? t->gap : 0;
			l.spaces += right ? pad : 0;
			line_put(&l, rest[c], len);
			l.spaces += !right && c + 1 < t->nr_cols ? pad : 0;
			rest[c] += skip;
			more |= *rest[c] != '\0';
		}
		if (!(t->flags & LAYOUT_TRIM))
			fprintf(f, "%*s", (int)l.spaces, "");
		fputc('\n', f);
		l.spaces = 0;
	}
}
