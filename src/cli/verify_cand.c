// SPDX-License-Identifier: GPL-2.0
/*
 * verify_cand.c - `hotscore verify --candidate FILE [--against PROFILE]`:
 * the user's damon_hot_score() against a profile, every 32-bit age_in_sec
 * included, each difference shrunk to a `hotscore score` command that
 * shows both side by side.  Exit 0 equal, 1 different, 2 bad input.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <hotscore/cand.h>
#include <hotscore/spec.h>
#include <hotscore/record_write.h>
#include <hotscore/json_out.h>
#include <hotscore/verify.h>

#include "cli.h"
#include "report/layout.h"
#include "outfile.h"
#include "verify_cand.h"

static const char *const dom_names[HS_NR_CDOMAINS] = {
	"ages", "ages@dflt", "grid", "random",
};

static const char *const dom_what[HS_NR_CDOMAINS] = {
	"ages at aggr 1 s: every 32-bit age_in_sec",
	"ages at the default intervals",
	"inputs (the discriminating grid)",
	"inputs at full field widths",
};

/* "hot 24 ok" or "div0(...)" / "trap(SIGFPE)". */
static void model_outcome(const struct hs_components *c,
			  const struct hs_input *in, char *buf, size_t size)
{
	struct hs_result r = hs_score(c, in, NULL);

	if (r.status == HS_DIV0)
		snprintf(buf, size, "%s", hs_status_name(&r));
	else
		snprintf(buf, size, "hot %d %s", r.hot, hs_status_name(&r));
}

/* The same for the candidate; a hang is not waited for again. */
static void cand_outcome(const struct hs_spec *sp, const struct hs_input *in,
			 unsigned int code, char *buf, size_t size)
{
	struct hs_spec_result r = { .undef = true, .trap = HS_CAND_HANG };
	const char *status;
	char name[32];

	if (code != HS_CAND_CODE_HANG)
		r = hs_spec_score(sp, in);
	status = hs_spec_status(sp, &r, name, sizeof(name));
	if (r.trap)
		snprintf(buf, size, "%s", status);
	else
		snprintf(buf, size, "hot %d %s", r.hot, status);
}

/* The command that shows the example: the profile, then the candidate. */
static void reproducer(const struct verify_cand *vc, const struct hs_input *in,
		       char *buf, size_t size)
{
	char args[512], profile[416];

	cli_score_args(in, args, sizeof(args));
	cli_spec_profiles(&vc->spec, vc->against, &vc->base, profile,
			  sizeof(profile));
	snprintf(buf, size, "hotscore score %s%s%s%s", profile,
		 *args ? " " : "", args, cli_call_limit_arg());
}

static void print_classes(const struct verify_cand *vc,
			  const struct hs_cand_verify_result *res)
{
	char cmd[1024], a[64], b[64];
	unsigned int k;

	for (k = 0; k < HS_NR_CAND_CLASSES; k++) {
		const struct hs_input *in = &res->ex[k].in;

		if (!res->count[k])
			continue;
		printf("  %s %s, %s %s: %llu input%s\n", vc->against,
		       hs_status_code_name(k / HS_NR_CAND_CODES), vc->spec.name,
		       hs_cand_code_name(k % HS_NR_CAND_CODES),
		       (unsigned long long)res->count[k], cli_s(res->count[k]));
		reproducer(vc, in, cmd, sizeof(cmd));
		model_outcome(&vc->comp, in, a, sizeof(a));
		cand_outcome(&vc->spec, in, k % HS_NR_CAND_CODES, b, sizeof(b));
		layout_command(stdout, "    e.g. ", 9, cmd, NULL, CLI_COLS);
		printf("         # %s: %s; %s: %s\n", vc->against, a, vc->spec.name,
		       b);
	}
}

static void print_report(const struct verify_cand *vc,
			 const struct hs_cand_verify_result *res)
{
	uint64_t total = 0, differ;
	char head[1024];
	unsigned int d;

	/* wrapped between its parts, a long file name cut: 100 columns */
	snprintf(head, sizeof(head), "hotscore verify: candidate %s against %s"
		 " (its" LAYOUT_NBSP_STR "kernel's" LAYOUT_NBSP_STR "divisor:"
		 LAYOUT_NBSP_STR "%s), %u" LAYOUT_NBSP_STR "thread%s, --seed"
		 LAYOUT_NBSP_STR "%llu%s", vc->spec.name, vc->against,
		 hs_divisor_name(vc->spec.cand->base), vc->cfg.threads,
		 cli_s(vc->cfg.threads), (unsigned long long)vc->cfg.seed,
		 vc->cfg.quick ? ", --quick" : "");
	layout_wrap(stdout, head, 0, 2, CLI_COLS, LAYOUT_NBSP | LAYOUT_CUT);
	for (d = 0; d < HS_NR_CDOMAINS; d++) {
		printf("  %-9s %12llu %s in %.2f s\n", dom_names[d],
		       (unsigned long long)res->inputs[d],
		       d < HS_CDOM_GRID && vc->cfg.quick ?
		       "ages (--quick: boundaries and a stride)" : dom_what[d],
		       res->seconds[d]);
		total += res->inputs[d];
	}
	if (res->stopped)
		printf("  stopped at the first hang: a call ran past --call_limit %s of CPU time\n",
		       cli_call_limit_text());
	differ = total - res->agree;
	if (!differ)
		snprintf(head, sizeof(head), "%s = %s: agree on all %llu inputs%s",
			 vc->spec.name, vc->against, (unsigned long long)total,
			 vc->cfg.quick ? "" :
			 ", all 4294967296 values of age_in_sec among them");
	else
		snprintf(head, sizeof(head), "%s vs %s: differ on %llu of %llu inputs",
			 vc->spec.name, vc->against,
			 (unsigned long long)differ, (unsigned long long)total);
	putchar('\n');
	layout_wrap(stdout, head, 0, 2, CLI_COLS, LAYOUT_CUT);
	if (!differ)
		return;
	print_classes(vc, res);
}

/* Each class of disagreement: how often, and a command that shows one. */
static json_t *json_classes(const struct verify_cand *vc,
			    const struct hs_cand_verify_result *res)
{
	json_t *list = json_array();
	char cmd[1024];
	unsigned int k;

	for (k = 0; k < HS_NR_CAND_CLASSES; k++) {
		if (!res->count[k])
			continue;
		reproducer(vc, &res->ex[k].in, cmd, sizeof(cmd));
		json_array_append_new(list, json_pack("{s:s, s:s, s:o, s:o}",
			"profile_status",
			hs_status_code_name(k / HS_NR_CAND_CODES),
			"candidate_status",
			hs_cand_code_name(k % HS_NR_CAND_CODES),
			"count", hs_json_u64(res->count[k]),
			"command", hs_json_text(cmd)));
	}
	return list;
}

static int write_json(const struct verify_cand *vc,
		      const struct hs_cand_verify_result *res, FILE *f)
{
	json_t *domains = json_object();
	uint64_t total = 0;
	unsigned int d;

	for (d = 0; d < HS_NR_CDOMAINS; d++) {
		json_object_set_new(domains, dom_names[d], json_pack(
			"{s:o, s:o}", "inputs", hs_json_u64(res->inputs[d]),
			"seconds", hs_json_fixed(res->seconds[d], 3)));
		total += res->inputs[d];
	}
	return hs_json_write_doc(f, json_pack(
		"{s:s, s:i, s:o, s:o, s:o, s:o, s:s, s:o, s:b, s:I, s:o, s:o,"
		" s:o, s:b, s:b, s:o}", "tool", "hotscore verify", "schema", 1,
		"command", hs_json_text(vc->command),
		"candidate", hs_json_text(vc->spec.name),
		"file", hs_json_text(vc->spec.cand->path),
		"against", hs_json_text(vc->against),
		"base_divisor", hs_divisor_name(vc->spec.cand->base),
		"seed", hs_json_u64(vc->cfg.seed), "quick", vc->cfg.quick,
		"threads", (json_int_t)vc->cfg.threads, "domains", domains,
		"inputs", hs_json_u64(total), "agree", hs_json_u64(res->agree),
		"equal", total == res->agree, "stopped", res->stopped,
		"classes",
		json_classes(vc, res)), JSON_COMPACT);
}

/* A status line on stderr, only when it is a terminal, and the ETA. */
static void progress(void *ctx, const struct hs_verify_progress *p)
{
	struct verify_cand *vc = ctx;

	cli_progress_at(p->total ? (double)p->done / (double)p->total : 0,
			"verify: %s against %s", vc->spec.name, vc->against);
}

/**
 * verify_candidate() - run verify on a candidate and report it.
 * @vc:		the parsed command; @vc->spec.cand is loaded.
 *
 * Return: 0 equal, 1 different.  Errors exit 2.
 */
int verify_candidate(struct verify_cand *vc)
{
	static struct hs_cand_verify_result res;
	struct hs_input dflt;
	unsigned int k;
	FILE *json = cli_out_open("--json", vc->json);

	vc->cfg.cand = vc->spec.cand;
	vc->cfg.against = vc->comp;
	if (isatty(STDERR_FILENO)) {
		vc->cfg.progress = progress;
		vc->cfg.ctx = vc;
	}
	if (hs_cand_verify(&vc->cfg, &res))
		cli_die("cannot start %u threads or allocate their memory",
			vc->cfg.threads);
	cli_progress_done();
	cli_score_defaults(&dflt);
	for (k = 0; k < HS_NR_CAND_CLASSES; k++)
		if (res.ex[k].found)
			hs_cand_shrink(&vc->comp, vc->spec.cand, k, &res.ex[k].in,
				       &dflt);
	print_report(vc, &res);
	if (json) {
		if (write_json(vc, &res, json))
			cli_die("--json: %s: %s", vc->json, strerror(errno));
		cli_out_done(json);
		cli_out_commit();
	}
	for (k = 0; k < HS_NR_CAND_CLASSES; k++)
		if (res.count[k])
			return CLI_EXIT_FINDING;
	return 0;
}
