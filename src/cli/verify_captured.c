// SPDX-License-Identifier: GPL-2.0
/*
 * verify_captured.c - `hotscore verify --captured FILE`: every call a live
 * kdamond made, as hotscore.ko mode=capture recorded it (the inputs and
 * what damon_hot_score() or damon_cold_score() returned), scored again by
 * each profile of the model.  It answers two questions on real inputs: does
 * the model compute what this kernel computed, and which kernel versions'
 * arithmetic would have returned the same on every call.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotscore/cand.h>
#include <hotscore/json_out.h>
#include <hotscore/score.h>
#include <hotscore/spec.h>

#include "cli.h"
#include "report/layout.h"
#include "input.h"
#include "outfile.h"
#include "verify_captured.h"

#define MAX_SPECS 32

/**
 * struct first_diff - the first call on which a profile differs.
 * @line:	its line in the file.
 * @in:		its inputs.
 * @fn:		hot or cold.
 * @returned:	what the kernel returned.
 * @model:	what the profile gives ("undef" where it divides by zero,
 *		"hang" where a candidate's call ran past --call_limit).
 */
struct first_diff {
	size_t line;
	struct hs_input in;
	enum input_fn fn;
	int returned;
	char model[16];
};

/*
 * One profile or candidate and its count of agreements; a candidate that
 * hangs is not called again (each hang would cost the limit again).
 */
struct checked {
	struct hs_spec spec;
	size_t agrees, differs;
	struct first_diff first;
	bool hung;
	struct first_diff hang;
};

/* The capture's calls, and the range of each input column. */
struct capture_stats {
	size_t calls, hot, cold, nested;
	unsigned long min[INPUT_NR_COLUMNS], max[INPUT_NR_COLUMNS];
};

static struct {
	struct hs_spec specs[MAX_SPECS];	/* as given, for the base */
	struct hs_spec base;			/* the candidates' */
	struct checked c[MAX_SPECS];
	unsigned int nr;
	struct capture_stats st;
} cap;

static void add_spec(void *ctx, const char *name)
{
	(void)ctx;
	cli_spec_add("--profile", name, cap.specs, &cap.nr, MAX_SPECS, true);
	cap.c[cap.nr - 1].spec = cap.specs[cap.nr - 1];
}

/*
 * What @sp returns for the captured call's function, as text: "undef"
 * where the kernel would trap (a division by zero in the model, a trap in
 * a candidate), "hang" where a candidate's call ran past the limit.
 * Return: whether it is a number equal to @r->returned.
 */
static bool same_as_kernel(const struct hs_spec *sp, const struct row *r,
			   char *text, size_t size)
{
	struct hs_spec_result res = hs_spec_score(sp, &r->in);
	int v = r->fn == INPUT_FN_HOT ? res.hot : res.cold;

	if (res.undef) {
		snprintf(text, size, "%s", res.trap == HS_CAND_HANG ?
			 "hang" : "undef");
		return false;
	}
	snprintf(text, size, "%d", v);
	return v == r->returned;
}

static void count_call(const struct row *r)
{
	struct capture_stats *st = &cap.st;
	unsigned long v;
	size_t i;

	for (i = 0; i < INPUT_NR_COLUMNS; i++) {
		v = input_column_get(i, &r->in);
		if (!st->calls || v < st->min[i])
			st->min[i] = v;
		if (!st->calls || v > st->max[i])
			st->max[i] = v;
	}
	st->calls++;
	st->hot += r->fn == INPUT_FN_HOT;
	st->cold += r->fn == INPUT_FN_COLD;
	st->nested += r->nested;
}

static void check_call(const struct row *r, size_t line)
{
	unsigned int k;

	count_call(r);
	for (k = 0; k < cap.nr; k++) {
		struct checked *c = &cap.c[k];
		struct first_diff d = { line, r->in, r->fn, r->returned, "" };

		if (c->hung)
			continue;
		if (same_as_kernel(&c->spec, r, d.model, sizeof(d.model))) {
			c->agrees++;
			continue;
		}
		if (!c->differs++)
			c->first = d;
		if (!strcmp(d.model, "hang")) {
			c->hung = true;
			c->hang = d;
		}
	}
}

/* Every row of the capture, checked by every profile. */
static void check_file(const char *path)
{
	struct row dflt, r;

	input_open("--captured", path);
	input_header();
	if (!input_is_capture())
		cli_die("--captured: %s: not a capture: its header has no fn and returned columns (hotscore.ko mode=capture writes them)",
			path);
	input_row_defaults(&dflt);
	hs_cand_watch_begin();	/* one timer for the candidates' calls */
	for (r = dflt; input_next_row(&r); r = dflt)
		check_call(&r, input_mark().lineno);
	hs_cand_watch_end();
	input_close();
	if (!cap.st.calls)
		cli_die("--captured: %s: no calls", path);
}

static const char *fn_name(enum input_fn fn)
{
	return fn == INPUT_FN_HOT ? "damon_hot_score()" : "damon_cold_score()";
}

/* "hotscore score --profile P ARGS": the call's inputs, for a reader. */
static void command_of(const struct checked *c, const struct first_diff *d,
		       char *buf, size_t size)
{
	char args[512], profile[416];

	cli_score_args(&d->in, args, sizeof(args));
	if (c->spec.cand)
		cli_spec_profiles(&c->spec, NULL, &cap.base, profile,
				  sizeof(profile));
	else
		snprintf(profile, sizeof(profile), "--profile %s",
			 c->spec.name);
	snprintf(buf, size, "hotscore score %s%s%s%s", profile,
		 *args ? " " : "", args,
		 c->spec.cand ? cli_call_limit_arg() : "");
}

static void print_inputs(void)
{
	const struct capture_stats *st = &cap.st;
	char text[2048] = "", piece[128];
	size_t i;

	for (i = 0; i < INPUT_NR_COLUMNS; i++) {
		if (st->min[i] == st->max[i])
			snprintf(piece, sizeof(piece), "%s%s %lu", i ? ", " : "",
				 input_columns[i].csv, st->min[i]);
		else
			snprintf(piece, sizeof(piece), "%s%s %lu-%lu",
				 i ? ", " : "", input_columns[i].csv,
				 st->min[i], st->max[i]);
		strncat(text, piece, sizeof(text) - strlen(text) - 1);
	}
	printf("  inputs   ");
	layout_wrap(stdout, text, 11, 11, 100, 0);
}

static void print_report(const char *path)
{
	const struct capture_stats *st = &cap.st;
	char cmd[1600], agree[2048] = "", text[2048];
	unsigned int k;

	printf("hotscore verify --captured %s\n", path);
	snprintf(text, sizeof(text), "%zu: %zu damon_hot_score() (%zu of"
		 " them inside damon_cold_score()), %zu damon_cold_score()",
		 st->calls, st->hot, st->nested, st->cold);
	printf("  calls    ");
	layout_wrap(stdout, text, 11, 11, 100, 0);
	print_inputs();
	printf("\n  %-30s %10s %10s\n", "profile", "agrees", "differs");
	for (k = 0; k < cap.nr; k++) {
		const struct checked *c = &cap.c[k];

		printf("  %-30s %10zu %10zu\n", c->spec.name, c->agrees,
		       c->differs);
		if (!c->differs) {
			snprintf(agree + strlen(agree),
				 sizeof(agree) - strlen(agree), "%s%s",
				 *agree ? ", " : "", c->spec.name);
			continue;
		}
		command_of(c, &c->first, cmd, sizeof(cmd));
		snprintf(text, sizeof(text), "first: line %zu, %s returned %d"
			 " where the profile gives %s: %s", c->first.line,
			 fn_name(c->first.fn), c->first.returned,
			 c->first.model, cmd);
		printf("    ");
		layout_wrap(stdout, text, 4, 6, 100, 0);
		if (!c->hung)
			continue;
		command_of(c, &c->hang, cmd, sizeof(cmd));
		snprintf(text, sizeof(text), "stopped at line %zu: a call ran"
			 " past --call_limit %s (hang), and its %zu later"
			 " call%s were not checked%s%s", c->hang.line,
			 cli_call_limit_text(),
			 st->calls - c->agrees - c->differs,
			 cli_s(st->calls - c->agrees - c->differs),
			 c->hang.line == c->first.line ? "" : ": ",
			 c->hang.line == c->first.line ? "" : cmd);
		printf("    ");
		layout_wrap(stdout, text, 4, 6, 100, 0);
	}
	printf("\nagree with every captured call: ");
	layout_wrap(stdout, *agree ? agree : "none", 32, 2, 100, 0);
}

/* A call on which @c differs: where, what, and the command that shows it. */
static json_t *json_diff(const struct checked *c, const struct first_diff *d)
{
	char cmd[1600];

	command_of(c, d, cmd, sizeof(cmd));
	return json_pack("{s:o, s:s, s:i, s:s, s:o}", "line",
			 hs_json_u64(d->line), "fn",
			 d->fn == INPUT_FN_HOT ? "hot" : "cold", "returned",
			 d->returned, "model", d->model, "command",
			 hs_json_text(cmd));
}

static json_t *json_checked(const struct checked *c)
{
	json_t *o = json_pack("{s:o, s:o, s:o}", "profile",
			      hs_json_text(c->spec.name), "agrees",
			      hs_json_u64(c->agrees), "differs",
			      hs_json_u64(c->differs));

	if (o && c->differs)
		json_object_set_new(o, "first", json_diff(c, &c->first));
	if (o && c->hung)	/* the calls after it were not checked */
		json_object_set_new(o, "hang", json_diff(c, &c->hang));
	return o;
}

static int write_json(const struct verify_captured *vc, FILE *f)
{
	const struct capture_stats *st = &cap.st;
	json_t *doc, *rows = json_array(), *agree = json_array();
	unsigned int k;

	for (k = 0; k < cap.nr; k++) {
		json_array_append_new(rows, json_checked(&cap.c[k]));
		if (!cap.c[k].differs)
			json_array_append_new(agree,
					      hs_json_text(cap.c[k].spec.name));
	}
	doc = json_pack("{s:s, s:i, s:o, s:o, s:{s:o, s:o, s:o, s:o},"
			" s:o, s:o}", "tool", "hotscore verify --captured",
			"schema", 1, "command", hs_json_text(vc->command),
			"capture", hs_json_text(vc->path), "calls",
			"all", hs_json_u64(st->calls), "hot",
			hs_json_u64(st->hot), "cold", hs_json_u64(st->cold),
			"nested", hs_json_u64(st->nested), "profiles", rows,
			"agree_with_all", agree);
	return hs_json_write_doc(f, doc, JSON_COMPACT);
}

/* Exit 1: a profile named by --profile differs, or none agrees. */
static int verdict(const struct verify_captured *vc)
{
	unsigned int k, agree = 0;

	for (k = 0; k < cap.nr; k++) {
		if (vc->profiles && cap.c[k].differs)
			return 1;
		agree += !cap.c[k].differs;
	}
	return agree ? 0 : 1;
}

/**
 * verify_captured() - check every call of a capture against each profile.
 * @vc:		the file, the profiles and the outputs.
 *
 * Return: 0, or 1 when a profile named in @vc->profiles differs from the
 * kernel on some call, or (no profiles named) when none agrees with all.
 */
int verify_captured(const struct verify_captured *vc)
{
	FILE *json;
	unsigned int k;

	if (vc->profiles) {
		cli_each_profile("--profile", vc->profiles, add_spec, NULL);
	} else {
		for (k = 0; k < hs_nr_profiles; k++)
			add_spec(NULL, hs_profiles[k].name);
	}
	hs_spec_base(cap.specs, cap.nr, vc->base, &cap.base);
	for (k = 0; k < cap.nr; k++)
		cli_spec_load("--profile", &cap.c[k].spec, &cap.base);
	json = cli_out_open("--json", vc->json);
	check_file(vc->path);
	print_report(vc->path);
	if (json) {
		if (write_json(vc, json))
			cli_die("--json: %s: %s", vc->json, strerror(errno));
		cli_out_done(json);
		cli_out_commit();
	}
	return verdict(vc);
}
