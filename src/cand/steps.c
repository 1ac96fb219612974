// SPDX-License-Identifier: GPL-2.0
/*
 * steps.c - a candidate's steps (include/hotscore/cand_steps.h): a copy of
 * the user's file in which each assignment records its variable, compiled
 * and called once.
 *
 * The copy is the file's own text with calls added on the lines they
 * belong to (a #line directive keeps the user's file and line numbers):
 *
 *   int x = e;		int x = e; REC(x, LINE);	a declaration
 *   x op= e;		x op= e, REC(x, LINE);		an expression
 *   for (...) body	{ for (...) body REC(x, LINE); }	a loop, whole
 *
 * A statement inside a loop records nothing (a step is a value, not a
 * history); the loop records what it assigned once it is done, as the
 * kernel's shift loop leaves age_in_log.  The recorder takes any variable
 * of an integer type (a _Generic), by its address and size; a pointer or
 * a struct records nothing.  The rewrite is a token walk (lex.c), not a
 * compiler: what it cannot follow it leaves as it is, and a copy that
 * does not compile only means that the steps are not shown.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hotscore/cand.h>
#include <hotscore/cand_steps.h>

#include "cand_internal.h"

#define MAX_FILE	(1 << 20)
#define MAX_NAMES	32	/* the variables one loop records */

/* What the copy starts with: the recorder, then the user's text. */
static const char runtime[] =
	"struct hotscore_step { const char *func, *name; unsigned int line;"
	" int kind; unsigned long long v; };\n"
	"struct hotscore_step hotscore_steps[64];\n"
	"unsigned int hotscore_nr_steps;\n"
	"static void hotscore_rec(const char *func, const char *name,"
	" unsigned int line, const void *p, unsigned long size, int kind)\n"
	"{\n"
	"\tstruct hotscore_step *st;\n"
	"\tunsigned long long v;\n"
	"\n"
	"\tif (!kind)\n\t\treturn;\n"
	"\tif (size == 1)\n\t\tv = kind < 0 ? (unsigned long long)"
	"*(const signed char *)p : *(const unsigned char *)p;\n"
	"\telse if (size == 2)\n\t\tv = kind < 0 ? (unsigned long long)"
	"*(const short *)p : *(const unsigned short *)p;\n"
	"\telse if (size == 4)\n\t\tv = kind < 0 ? (unsigned long long)"
	"*(const int *)p : *(const unsigned int *)p;\n"
	"\telse if (size == 8)\n\t\tv = *(const unsigned long long *)p;\n"
	"\telse\n\t\treturn;\n"
	"\tif (hotscore_nr_steps++ >= 64)\n\t\treturn;\n"
	"\tst = &hotscore_steps[hotscore_nr_steps - 1];\n"
	"\tst->func = func;\n\tst->name = name;\n\tst->line = line;\n"
	"\tst->kind = kind;\n\tst->v = v;\n"
	"}\n"
	"#define HOTSCORE_KIND(x) _Generic((x), signed char: -1, short: -1,"
	" int: -1, long: -1, long long: -1, unsigned char: 1,"
	" unsigned short: 1, unsigned int: 1, unsigned long: 1,"
	" unsigned long long: 1, char: 1, _Bool: 1, default: 0)\n"
	"#define HOTSCORE_REC(x, line) hotscore_rec(__func__, #x, line,"
	" &(x), sizeof(x), HOTSCORE_KIND(x))\n";

/* The words a declaration starts with (and "T x" for a typedef T). */
static const char *const type_words[] = {
	"int", "unsigned", "signed", "long", "short", "char", "bool", "_Bool",
	"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "size_t",
	"struct", "union", "enum", "const", "volatile", "static", "register",
	"auto", "__typeof__", "typeof", "float", "double", "void",
};

static const char *const assign_ops[] = {
	"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=",
};

/* One piece of text to add at a byte of the file. */
struct insert {
	size_t off;
	unsigned int order;
	char text[160];
};

struct rewrite {
	const char *src;
	const struct hs_ctok *t;
	size_t nr;
	struct insert *ins;
	size_t nr_ins, cap;
	bool failed;
};

static bool is(const struct rewrite *rw, size_t i, const char *s)
{
	return i < rw->nr && hs_ctok_is(rw->src, &rw->t[i], s);
}

static bool is_ident(const struct rewrite *rw, size_t i)
{
	return i < rw->nr && rw->t[i].kind == HS_CT_IDENT;
}

/* Token @i is one of the @nr words of @list. */
static bool is_one_of(const struct rewrite *rw, size_t i,
		      const char *const *list, size_t nr)
{
	while (nr--)
		if (is(rw, i, list[nr]))
			return true;
	return false;
}

#define IS_ONE_OF(rw, i, list) \
	is_one_of(rw, i, list, sizeof(list) / sizeof(list[0]))

static bool is_assign(const struct rewrite *rw, size_t i)
{
	return IS_ONE_OF(rw, i, assign_ops);
}

static bool is_type_word(const struct rewrite *rw, size_t i)
{
	return IS_ONE_OF(rw, i, type_words);
}

/* A declaration starts here: a type word, or "T x" (a typedef name). */
static bool is_decl(const struct rewrite *rw, size_t i)
{
	return is_type_word(rw, i) || (is_ident(rw, i) && is_ident(rw, i + 1));
}

static void add(struct rewrite *rw, size_t off, const char *text)
{
	struct insert *more;

	if (rw->nr_ins == rw->cap) {
		more = realloc(rw->ins, (rw->cap ? 2 * rw->cap : 64) *
			       sizeof(*rw->ins));
		if (!more) {
			rw->failed = true;
			return;
		}
		rw->ins = more;
		rw->cap = rw->cap ? 2 * rw->cap : 64;
	}
	rw->ins[rw->nr_ins].off = off;
	rw->ins[rw->nr_ins].order = (unsigned int)rw->nr_ins;
	snprintf(rw->ins[rw->nr_ins].text, sizeof(rw->ins->text), "%s", text);
	rw->nr_ins++;
}

/* "HOTSCORE_REC(name, line)" for token @i. */
static void rec_call(const struct rewrite *rw, size_t i, unsigned int line,
		     char *buf, size_t size)
{
	snprintf(buf, size, "HOTSCORE_REC(%.*s, %u)", (int)rw->t[i].len,
		 rw->src + rw->t[i].off, line);
}

/* The index after the group that opens at @i: (), [] or {}. */
static size_t skip_group(const struct rewrite *rw, size_t i)
{
	unsigned int depth = 0;

	for (; i < rw->nr; i++) {
		if (is(rw, i, "(") || is(rw, i, "[") || is(rw, i, "{"))
			depth++;
		else if ((is(rw, i, ")") || is(rw, i, "]") || is(rw, i, "}")) &&
			 !--depth)
			return i + 1;
	}
	return rw->nr;
}

/* The ';' that ends the statement at @i, groups stepped over; or nr. */
static size_t find_semi(const struct rewrite *rw, size_t i)
{
	while (i < rw->nr && !is(rw, i, ";")) {
		if (is(rw, i, "}"))
			return rw->nr;		/* no ';' in this block */
		if (is(rw, i, "(") || is(rw, i, "[") || is(rw, i, "{"))
			i = skip_group(rw, i);
		else
			i++;
	}
	return i;
}

/*
 * Whether token @i names a variable assigned there: an identifier that
 * an assignment operator or ++/-- follows, or ++/-- precedes, and that
 * stands where an expression starts (not "s->x = ", "*p = ", "T *p = ").
 */
static bool assigned_at(const struct rewrite *rw, size_t i)
{
	/* ")" and "else" end an if's condition, "do" starts a body */
	static const char *const starts[] = {
		";", "{", "}", "(", ")", ",", "?", ":", "++", "--", "else",
		"do",
	};
	bool start = i == 0 || is_assign(rw, i - 1) ||
		IS_ONE_OF(rw, i - 1, starts);

	if (!is_ident(rw, i) || is_type_word(rw, i) || !start)
		return false;
	return is_assign(rw, i + 1) || is(rw, i + 1, "++") ||
	       is(rw, i + 1, "--") ||
	       (i > 0 && (is(rw, i - 1, "++") || is(rw, i - 1, "--")));
}

/*
 * A statement [@i, @semi) at the top of its function: each variable it
 * gives a value records it.  A declaration's calls go after its ';' (it
 * cannot be the body of an if); an expression's before it, joined by
 * commas, so that one under an if records only when it runs.
 */
static void rec_statement(struct rewrite *rw, size_t i, size_t semi,
			  bool decl)
{
	char buf[160], call[140];

	for (; i < semi; i++) {
		if (is(rw, i, "(") || is(rw, i, "[") || is(rw, i, "{")) {
			i = skip_group(rw, i) - 1;
			continue;
		}
		if (decl ? !is_ident(rw, i) || is_type_word(rw, i) ||
			   !is(rw, i + 1, "=") : !assigned_at(rw, i))
			continue;
		rec_call(rw, i, rw->t[i].line, call, sizeof(call));
		snprintf(buf, sizeof(buf), decl ? " %s;" : ", %s", call);
		add(rw, rw->t[semi].off + decl, buf);
	}
}

/* Whether @name (a token) is among @names. */
static bool listed(const struct rewrite *rw, const size_t *names,
		   unsigned int nr, size_t i)
{
	unsigned int k;

	for (k = 0; k < nr; k++)
		if (rw->t[names[k]].len == rw->t[i].len &&
		    !memcmp(rw->src + rw->t[names[k]].off,
			    rw->src + rw->t[i].off, rw->t[i].len))
			return true;
	return false;
}

/*
 * The variables a declaration inside [@from, @to) makes (gone after the
 * loop): after a type word or a typedef name, each identifier that a '=',
 * ',', ';', '[' or ')' follows.
 */
static unsigned int loop_decls(const struct rewrite *rw, size_t from,
			       size_t to, size_t *out)
{
	unsigned int nr = 0;
	bool in_decl = false;
	size_t i;

	for (i = from; i < to && nr < MAX_NAMES; i++) {
		if (is(rw, i, ";") || is(rw, i, "{") || is(rw, i, "}") ||
		    (i > from && is(rw, i - 1, "(")))
			in_decl = false;
		if ((i == from || is(rw, i - 1, ";") || is(rw, i - 1, "{") ||
		     is(rw, i - 1, "}") || is(rw, i - 1, "(")) &&
		    is_decl(rw, i))
			in_decl = true;
		if (in_decl && is_ident(rw, i) && !is_type_word(rw, i) &&
		    (is(rw, i + 1, "=") || is(rw, i + 1, ",") ||
		     is(rw, i + 1, ";") || is(rw, i + 1, "[") ||
		     is(rw, i + 1, ")")))
			out[nr++] = i;
	}
	return nr;
}

/*
 * A loop [@start, @end) at the top of its function: wrapped in braces,
 * and what it assigned, but for what it declares, recorded after it.
 */
static void rec_loop(struct rewrite *rw, size_t start, size_t end)
{
	size_t decl[MAX_NAMES], names[MAX_NAMES];
	unsigned int nr_decl, nr = 0, k;
	char text[160], call[140];
	size_t i;

	if (end > rw->nr || end <= start)
		return;
	nr_decl = loop_decls(rw, start, end, decl);
	for (i = start; i < end && nr < MAX_NAMES; i++)
		if (assigned_at(rw, i) && !listed(rw, decl, nr_decl, i) &&
		    !listed(rw, names, nr, i))
			names[nr++] = i;
	if (!nr)
		return;
	add(rw, rw->t[start].off, "{ ");
	for (k = 0; k < nr; k++) {
		rec_call(rw, names[k], rw->t[start].line, call, sizeof(call));
		snprintf(text, sizeof(text), " %s;", call);
		add(rw, rw->t[end - 1].off + rw->t[end - 1].len, text);
	}
	add(rw, rw->t[end - 1].off + rw->t[end - 1].len, " }");
}

static size_t statement(struct rewrite *rw, size_t i, bool in_loop);

/* if (...) stmt [else stmt] */
static size_t if_statement(struct rewrite *rw, size_t i, bool in_loop)
{
	i++;
	if (is(rw, i, "("))
		i = skip_group(rw, i);
	i = statement(rw, i, in_loop);
	if (is(rw, i, "else"))
		i = statement(rw, i + 1, in_loop);
	return i;
}

/* for (...) stmt, while (...) stmt, do stmt while (...); */
static size_t loop_statement(struct rewrite *rw, size_t i, bool in_loop)
{
	size_t start = i;

	if (is(rw, i, "do")) {
		i = statement(rw, i + 1, true);
		if (is(rw, i, "while"))
			i++;
		if (is(rw, i, "("))
			i = skip_group(rw, i);
		if (is(rw, i, ";"))
			i++;
	} else {
		i++;
		if (is(rw, i, "("))
			i = skip_group(rw, i);
		i = statement(rw, i, true);
	}
	if (!in_loop)
		rec_loop(rw, start, i);
	return i;
}

/* A statement without a keyword: a declaration or an expression. */
static size_t simple_statement(struct rewrite *rw, size_t i, bool in_loop)
{
	size_t semi = find_semi(rw, i);

	if (semi >= rw->nr)
		return semi;
	if (!in_loop)
		rec_statement(rw, i, semi, is_decl(rw, i));
	return semi + 1;
}

/* The statement at @i; return the index after it. */
static size_t statement(struct rewrite *rw, size_t i, bool in_loop)
{
	if (i >= rw->nr)
		return rw->nr;
	if (rw->t[i].kind == HS_CT_PP || is(rw, i, ";"))
		return i + 1;
	if (is(rw, i, "{")) {
		for (i++; i < rw->nr && !is(rw, i, "}");)
			i = statement(rw, i, in_loop);
		return i < rw->nr ? i + 1 : i;
	}
	if (is(rw, i, "if"))
		return if_statement(rw, i, in_loop);
	if (is(rw, i, "for") || is(rw, i, "while") || is(rw, i, "do"))
		return loop_statement(rw, i, in_loop);
	if (is(rw, i, "switch")) {
		i++;
		if (is(rw, i, "("))
			i = skip_group(rw, i);
		return statement(rw, i, in_loop);
	}
	if (is(rw, i, "case") || is(rw, i, "default")) {
		while (i < rw->nr && !is(rw, i, ":") && !is(rw, i, "}"))
			i = is(rw, i, "(") ? skip_group(rw, i) : i + 1;
		return is(rw, i, ":") ? statement(rw, i + 1, in_loop) : i;
	}
	if (is_ident(rw, i) && is(rw, i + 1, ":"))
		return statement(rw, i + 2, in_loop);	/* a label */
	if (is(rw, i, "else") || is(rw, i, "}"))
		return i + 1;	/* not where a statement is: step on */
	if (is(rw, i, "return") || is(rw, i, "break") ||
	    is(rw, i, "continue") || is(rw, i, "goto")) {
		i = find_semi(rw, i);
		return i < rw->nr ? i + 1 : rw->nr;
	}
	return simple_statement(rw, i, in_loop);
}

/* Every function body of the file: a '{' after a ')' at the top level. */
static void rewrite_file(struct rewrite *rw)
{
	size_t i = 0;

	while (i < rw->nr && !rw->failed) {
		if (!is(rw, i, "{") && !is(rw, i, "(") && !is(rw, i, "[")) {
			i++;
			continue;
		}
		if (is(rw, i, "{") && i > 0 && is(rw, i - 1, ")"))
			i = statement(rw, i, false);
		else
			i = skip_group(rw, i);
	}
}

static int by_offset(const void *a, const void *b)
{
	const struct insert *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* "#line 1 \"PATH\"", the path escaped as a C string. */
static size_t line_directive(const char *path, char *buf, size_t size)
{
	size_t at = (size_t)snprintf(buf, size, "#line 1 \"");

	for (; *path && at + 5 < size; path++) {
		if (*path == '"' || *path == '\\')
			buf[at++] = '\\';
		if ((unsigned char)*path < 0x20)
			continue;
		buf[at++] = *path;
	}
	at += (size_t)snprintf(buf + at, size - at, "\"\n");
	return at < size ? at : size - 1;
}

/**
 * hs_cand_instrument() - the step recorder's copy of a candidate's text:
 * the recorder, a #line directive, then the text with a call after each
 * assignment (see the top of this file).
 * @src:	the file's text.
 * @len:	its length.
 * @path:	the file, for #line.
 * @out_len:	receives the copy's length.
 *
 * Return: the copy (malloc'ed, NUL-terminated), or NULL when memory ran
 * out or the text has too many tokens.
 */
char *hs_cand_instrument(const char *src, size_t len, const char *path,
			 size_t *out_len)
{
	struct rewrite rw = { .src = src };
	struct hs_ctok *toks;
	char line[4200], *out = NULL;
	size_t i, need, at = 0, from = 0, n;

	if (hs_clex(src, len, &toks, &rw.nr))
		return NULL;
	rw.t = toks;
	rewrite_file(&rw);
	if (rw.failed)
		goto done;
	if (rw.nr_ins)	/* qsort() of NULL is undefined, even of none */
		qsort(rw.ins, rw.nr_ins, sizeof(*rw.ins), by_offset);
	n = line_directive(path, line, sizeof(line));
	need = sizeof(runtime) + n + len + 1;
	for (i = 0; i < rw.nr_ins; i++)
		need += strlen(rw.ins[i].text);
	out = malloc(need);
	if (!out)
		goto done;
	memcpy(out, runtime, sizeof(runtime) - 1);
	at = sizeof(runtime) - 1;
	memcpy(out + at, line, n);
	at += n;
	for (i = 0; i <= rw.nr_ins; i++) {
		size_t to = i < rw.nr_ins ? rw.ins[i].off : len;

		memcpy(out + at, src + from, to - from);
		at += to - from;
		from = to;
		if (i < rw.nr_ins) {
			n = strlen(rw.ins[i].text);
			memcpy(out + at, rw.ins[i].text, n);
			at += n;
		}
	}
	out[at] = '\0';
	*out_len = at;
done:
	free(rw.ins);
	free(toks);
	return out;
}

/* The recorder's entry, as the copy lays it out (runtime[]). */
struct rec {
	const char *func, *name;
	unsigned int line;
	int kind;
	unsigned long long v;
};

/* The file, NUL-terminated; NULL with @why set. */
static char *read_text(const char *path, size_t *len, char *why, size_t size)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(MAX_FILE + 1);

	*len = f && buf ? fread(buf, 1, MAX_FILE + 1, f) : 0;
	if (!f || !buf || *len > MAX_FILE || memchr(buf, '\0', *len)) {
		snprintf(why, size, "its text cannot be read");
		if (f)
			fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[*len] = '\0';
	return buf;
}

/* The copy, written beside the cache's objects: its path in @out. */
static int write_copy(const char *text, size_t len, char *out, size_t size)
{
	char dir[4096];
	FILE *f;
	int fd, ok;

	if (hs_cand_cache_dir(dir, sizeof(dir)) ||
	    (size_t)snprintf(out, size, "%s/steps-XXXXXX.c", dir) >= size)
		return -1;
	fd = mkstemps(out, 2);
	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	ok = f && fwrite(text, 1, len, f) == len;
	if (f)
		ok = !fclose(f) && ok;
	else
		close(fd);
	if (!ok)
		unlink(out);
	return ok ? 0 : -1;
}

/* One call of the copy's damon_hot_score(), as hs_trap_guard() runs it. */
struct hot_call {
	const struct hs_cand *c;
	const struct hs_input *in;
};

static void call_hot(void *ctx)
{
	struct hot_call *h = ctx;

	hs_cand_call_hot(h->c, h->in);
}

/* The recorder's entries after one call of the copy's hot score. */
static void run_copy(const struct hs_cand *c, const struct hs_input *in,
		     struct hs_cand_steps *out)
{
	const struct rec *recs = dlsym(c->handle, "hotscore_steps");
	unsigned int *nr = dlsym(c->handle, "hotscore_nr_steps");
	struct hot_call call;
	unsigned int i;
	int trap;

	if (!recs || !nr) {
		snprintf(out->why, sizeof(out->why), "the recorder is missing");
		return;
	}
	*nr = 0;
	call.c = c;
	call.in = in;
	trap = hs_trap_guard(call_hot, &call);
	if (trap) {
		snprintf(out->why, sizeof(out->why), "it ends in %s",
			 hs_cand_trap_name(trap));
		return;
	}
	out->total = *nr;
	out->nr = *nr < HS_CAND_STEPS_MAX ? *nr : HS_CAND_STEPS_MAX;
	for (i = 0; i < out->nr; i++) {
		struct hs_cand_step *st = &out->step[i];

		snprintf(st->func, sizeof(st->func), "%s", recs[i].func);
		snprintf(st->name, sizeof(st->name), "%s", recs[i].name);
		st->line = recs[i].line;
		st->is_signed = recs[i].kind < 0;
		st->value = recs[i].v;
	}
	if (!out->total)
		snprintf(out->why, sizeof(out->why),
			 "it assigns no variable outside its loops");
}

/**
 * hs_cand_steps() - the values a candidate's functions give their
 * variables on one input, in the order they ran.
 * @path:	the candidate file.
 * @base:	the divisor helper its environment defines (as loaded).
 * @in:		the input.
 * @out:	receives the steps, or @out->why when there are none.
 *
 * The recorder's copy is compiled and cached as a candidate is; a trap
 * or a hang in it is caught (hs_cand_score()).
 *
 * Return: 0 when steps were recorded, else -1 with @out->why set.
 */
int hs_cand_steps(const char *path, enum hs_divisor base,
		  const struct hs_input *in, struct hs_cand_steps *out)
{
	char copy[4200], err[256], *src, *text, *log = NULL;
	struct hs_cand c;
	size_t len, n;
	int rc;

	memset(out, 0, sizeof(*out));
	src = read_text(path, &len, out->why, sizeof(out->why));
	if (!src)
		return -1;
	text = hs_cand_instrument(src, len, path, &n);
	free(src);
	if (!text || write_copy(text, n, copy, sizeof(copy))) {
		free(text);
		snprintf(out->why, sizeof(out->why),
			 "its recorder's copy cannot be made");
		return -1;
	}
	free(text);
	rc = hs_cand_load(copy, base, -1, &c, &log, err, sizeof(err));
	unlink(copy);
	free(log);
	if (rc) {
		snprintf(out->why, sizeof(out->why),
			 "its recorder's copy does not compile");
		return -1;
	}
	run_copy(&c, in, out);
	hs_cand_unload(&c);
	return out->nr ? 0 : -1;
}

/**
 * hs_cand_step_find() - the first step that gives @name a value, or NULL.
 * @s:		the steps.
 * @name:	a variable's name.
 */
const struct hs_cand_step *hs_cand_step_find(const struct hs_cand_steps *s,
					     const char *name)
{
	unsigned int i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->step[i].name, name))
			return &s->step[i];
	return NULL;
}
