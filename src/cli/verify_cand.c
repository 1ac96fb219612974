// SPDX-License-Identifier: GPL-2.0
/*
 * verify_cand.c - `hotscore verify --candidate FILE... [--against P|FILE]`:
 * the user's damon_hot_score() against a profile or another candidate file
 * (patch v2 against v1), every 32-bit age_in_sec included, each difference
 * shrunk to a `hotscore score` command that shows both side by side.
 * Several candidates are each compared with --against, then with each
 * other.  Exit 0 all equal, 1 any different, 2 bad input.
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

/* One comparison: @cand against @against, and what it found. */
struct pair {
	const struct hs_spec *cand, *against;
	struct hs_cand_verify_result res;
};

/* The status of @against in class @k: a profile's, or a candidate's. */
static const char *against_code_name(const struct pair *p, unsigned int k)
{
	unsigned int code = k / HS_NR_CAND_CODES;

	return p->against->cand ? hs_cand_code_name(code) :
		hs_status_code_name(code);
}

/* "hot 24 ok", "div0(...)", "trap(SIGFPE)"; a hang is not waited for again. */
static void outcome(const struct hs_spec *sp, const struct hs_input *in,
		    bool hang, char *buf, size_t size)
{
	struct hs_spec_result r = { .undef = true, .trap = HS_CAND_HANG };
	const char *status;
	char name[32];

	if (!hang)
		r = hs_spec_score(sp, in);
	status = hs_spec_status(sp, &r, name, sizeof(name));
	if (r.undef)
		snprintf(buf, size, "%s", status);
	else
		snprintf(buf, size, "hot %d %s", r.hot, status);
}

/* The command that shows the example: --against, then the candidate. */
static void reproducer(const struct verify_cand *vc, const struct pair *p,
		       const struct hs_input *in, char *buf, size_t size)
{
	char args[512], profile[600];

	cli_score_args(in, args, sizeof(args));
	cli_spec_profiles(p->cand, p->against->given, &vc->base, profile,
			  sizeof(profile));
	snprintf(buf, size, "%s score %s%s%s%s", cli_prog(), profile,
		 *args ? " " : "", args, cli_call_limit_arg());
}

static void print_classes(const struct verify_cand *vc, const struct pair *p)
{
	const char *a = p->against->name, *c = p->cand->name;
	char cmd[1280], oa[64], oc[64];
	unsigned int k;

	for (k = 0; k < HS_NR_CAND_CLASSES; k++) {
		const struct hs_input *in = &p->res.ex[k].in;

		if (!p->res.count[k])
			continue;
		printf("  %s %s, %s %s: %llu input%s\n", a,
		       against_code_name(p, k), c,
		       hs_cand_code_name(k % HS_NR_CAND_CODES),
		       (unsigned long long)p->res.count[k],
		       cli_s(p->res.count[k]));
		reproducer(vc, p, in, cmd, sizeof(cmd));
		outcome(p->against, in, p->against->cand &&
			k / HS_NR_CAND_CODES == HS_CAND_CODE_HANG, oa,
			sizeof(oa));
		outcome(p->cand, in, k % HS_NR_CAND_CODES == HS_CAND_CODE_HANG,
			oc, sizeof(oc));
		layout_command(stdout, "    e.g. ", 9, cmd, NULL, CLI_COLS);
		printf("         # %s: %s; %s: %s\n", a, oa, c, oc);
	}
}

static uint64_t total_of(const struct hs_cand_verify_result *res)
{
	uint64_t total = 0;
	unsigned int d;

	for (d = 0; d < HS_NR_CDOMAINS; d++)
		total += res->inputs[d];
	return total;
}

/* "its kernel's divisor: safe": what the candidates were compiled with */
static void print_report(const struct verify_cand *vc, const struct pair *p)
{
	const struct hs_cand_verify_result *res = &p->res;
	uint64_t total = total_of(res), differ = total - res->agree;
	unsigned int d;
	char head[1024];

	/* wrapped between its parts, a long file name cut: 100 columns */
	snprintf(head, sizeof(head), "hotscore verify: candidate %s against %s"
		 " (its" LAYOUT_NBSP_STR "kernel's" LAYOUT_NBSP_STR "divisor:"
		 LAYOUT_NBSP_STR "%s), %u" LAYOUT_NBSP_STR "thread%s, --seed"
		 LAYOUT_NBSP_STR "%llu%s", p->cand->name, p->against->name,
		 hs_divisor_name(p->cand->cand->base), vc->cfg.threads,
		 cli_s(vc->cfg.threads), (unsigned long long)vc->cfg.seed,
		 vc->cfg.quick ? ", --quick" : "");
	layout_wrap(stdout, head, 0, 2, CLI_COLS, LAYOUT_NBSP | LAYOUT_CUT);
	for (d = 0; d < HS_NR_CDOMAINS; d++)
		printf("  %-9s %12llu %s in %.2f s\n", dom_names[d],
		       (unsigned long long)res->inputs[d],
		       d < HS_CDOM_GRID && vc->cfg.quick ?
		       "ages (--quick: boundaries and a stride)" : dom_what[d],
		       res->seconds[d]);
	if (res->stopped)
		printf("  stopped at the first hang: a call ran past --call_limit %s of CPU time\n",
		       cli_call_limit_text());
	if (!differ)
		snprintf(head, sizeof(head), "%s = %s: agree on all %llu inputs%s",
			 p->cand->name, p->against->name,
			 (unsigned long long)total, vc->cfg.quick ? "" :
			 ", all 4294967296 values of age_in_sec among them");
	else
		snprintf(head, sizeof(head), "%s vs %s: differ on %llu of %llu inputs",
			 p->cand->name, p->against->name,
			 (unsigned long long)differ, (unsigned long long)total);
	putchar('\n');
	layout_wrap(stdout, head, 0, 2, CLI_COLS, LAYOUT_CUT);
	if (!differ)
		return;
	print_classes(vc, p);
}

/* Several comparisons: one line each, after their reports. */
static void print_summary(const struct pair *pairs, unsigned int nr)
{
	unsigned int i;

	printf("\nhotscore verify: %u comparisons\n", nr);
	for (i = 0; i < nr; i++) {
		const struct pair *p = &pairs[i];
		uint64_t total = total_of(&p->res);

		if (total == p->res.agree)
			printf("  %s = %s: agree on all %llu inputs\n",
			       p->cand->name, p->against->name,
			       (unsigned long long)total);
		else
			printf("  %s vs %s: differ on %llu of %llu inputs%s\n",
			       p->cand->name, p->against->name,
			       (unsigned long long)(total - p->res.agree),
			       (unsigned long long)total,
			       p->res.stopped ? " (stopped at a hang)" : "");
	}
}

/* Each class of disagreement: how often, and a command that shows one. */
static json_t *json_classes(const struct verify_cand *vc, const struct pair *p)
{
	json_t *list = json_array();
	char cmd[1280];
	unsigned int k;

	for (k = 0; k < HS_NR_CAND_CLASSES; k++) {
		if (!p->res.count[k])
			continue;
		reproducer(vc, p, &p->res.ex[k].in, cmd, sizeof(cmd));
		json_array_append_new(list, json_pack("{s:s, s:s, s:o, s:o}",
			"profile_status", against_code_name(p, k),
			"candidate_status",
			hs_cand_code_name(k % HS_NR_CAND_CODES),
			"count", hs_json_u64(p->res.count[k]),
			"command", hs_json_text(cmd)));
	}
	return list;
}

/* One comparison's fields; a candidate --against adds its file. */
static json_t *json_pair(const struct verify_cand *vc, const struct pair *p)
{
	json_t *domains = json_object(), *o;
	unsigned int d;

	for (d = 0; d < HS_NR_CDOMAINS; d++)
		json_object_set_new(domains, dom_names[d], json_pack(
			"{s:o, s:o}", "inputs", hs_json_u64(p->res.inputs[d]),
			"seconds", hs_json_fixed(p->res.seconds[d], 3)));
	o = json_pack("{s:o, s:o, s:o}",
		      "candidate", hs_json_text(p->cand->name),
		      "file", hs_json_text(p->cand->cand->path),
		      "against", hs_json_text(p->against->name));
	if (p->against->cand)
		json_object_set_new(o, "against_file",
				    hs_json_text(p->against->cand->path));
	json_object_set_new(o, "domains", domains);
	json_object_set_new(o, "inputs", hs_json_u64(total_of(&p->res)));
	json_object_set_new(o, "agree", hs_json_u64(p->res.agree));
	json_object_set_new(o, "equal",
			    json_boolean(total_of(&p->res) == p->res.agree));
	json_object_set_new(o, "stopped", json_boolean(p->res.stopped));
	json_object_set_new(o, "classes", json_classes(vc, p));
	return o;
}

/*
 * One comparison: the document of old, the run's fields added; several:
 * the run's fields, and the comparisons in a list.
 */
static int write_json(const struct verify_cand *vc, const struct pair *pairs,
		      unsigned int nr, FILE *f)
{
	json_t *doc = json_pack("{s:s, s:i, s:o}", "tool", "hotscore verify",
				"schema", 1, "command",
				hs_json_text(vc->command));
	json_t *list = json_array();
	bool equal = true;
	unsigned int i;

	json_object_set_new(doc, "base_divisor", json_string(
		hs_divisor_name(vc->base.comp.divisor)));
	json_object_set_new(doc, "seed", hs_json_u64(vc->cfg.seed));
	json_object_set_new(doc, "quick", json_boolean(vc->cfg.quick));
	json_object_set_new(doc, "threads",
			    json_integer((json_int_t)vc->cfg.threads));
	for (i = 0; i < nr; i++) {
		equal &= total_of(&pairs[i].res) == pairs[i].res.agree;
		json_array_append_new(list, json_pair(vc, &pairs[i]));
	}
	if (nr == 1) {
		json_object_update(doc, json_array_get(list, 0));
		json_decref(list);
	} else {
		json_object_set_new(doc, "equal", json_boolean(equal));
		json_object_set_new(doc, "comparisons", list);
	}
	return hs_json_write_doc(f, doc, JSON_COMPACT);
}

/* A status line on stderr, only when it is a terminal, and the ETA. */
static void progress(void *ctx, const struct hs_verify_progress *at)
{
	const struct pair *p = ctx;

	cli_progress_at(at->total ? (double)at->done / (double)at->total : 0,
			"verify: %s against %s", p->cand->name,
			p->against->name);
}

/* Compare @p->cand with @p->against, shrink each example, report. */
static void run_pair(struct verify_cand *vc, struct pair *p)
{
	struct hs_input dflt;
	unsigned int k;

	vc->cfg.cand = p->cand->cand;
	vc->cfg.against = p->against->comp;
	vc->cfg.against_cand = p->against->cand;
	if (isatty(STDERR_FILENO)) {
		vc->cfg.progress = progress;
		vc->cfg.ctx = p;
	}
	if (hs_cand_verify(&vc->cfg, &p->res))
		cli_die("cannot start %u threads or allocate their memory",
			vc->cfg.threads);
	cli_progress_done();
	cli_score_defaults(&dflt);
	for (k = 0; k < HS_NR_CAND_CLASSES; k++)
		if (p->res.ex[k].found)
			hs_cand_shrink_versus(&p->against->comp,
					      p->against->cand, p->cand->cand,
					      k, &p->res.ex[k].in, &dflt);
	print_report(vc, p);
}

/**
 * verify_candidates() - run verify on each candidate against --against,
 * then on each pair of candidates (the later against the earlier), and
 * report each, then a line a comparison when there are several.
 * @vc:		the parsed command; its candidates (and --against, if a
 *		file) are loaded.
 *
 * Return: 0 all equal, 1 any different.  Errors exit 2.
 */
int verify_candidates(struct verify_cand *vc)
{
	static struct pair pairs[VERIFY_MAX_CANDS * (VERIFY_MAX_CANDS + 1) / 2];
	FILE *json = cli_out_open("--json", vc->json);
	unsigned int i, j, nr = 0;
	int status = 0;

	for (i = 0; i < vc->nr_cands; i++, nr++) {
		pairs[nr].cand = &vc->cands[i];
		pairs[nr].against = &vc->against;
	}
	for (i = 0; i < vc->nr_cands; i++)
		for (j = i + 1; j < vc->nr_cands; j++, nr++) {
			pairs[nr].cand = &vc->cands[j];
			pairs[nr].against = &vc->cands[i];
		}
	for (i = 0; i < nr; i++) {
		if (i)
			putchar('\n');
		run_pair(vc, &pairs[i]);
		if (total_of(&pairs[i].res) != pairs[i].res.agree)
			status = CLI_EXIT_FINDING;
	}
	if (nr > 1)
		print_summary(pairs, nr);
	if (json) {
		if (write_json(vc, pairs, nr, json))
			cli_die("--json: %s: %s", vc->json, strerror(errno));
		cli_out_done(json);
		cli_out_commit();
	}
	return status;
}
