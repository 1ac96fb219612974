// SPDX-License-Identifier: GPL-2.0
/*
 * verify.c - `hotscore verify`: the age_in_log methods proven equal over
 * every 32-bit age_in_sec, every pair of profiles compared over the grid
 * and random domains, every profile's invariants checked, and each finding
 * shrunk to a small `hotscore score` command line.
 *
 * Exit status 1 when profiles that differ only in their age_in_log method
 * (the 2026 patches' claim) disagree anywhere, or the methods do: verify can
 * gate a change in CI.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hotscore/kernel.h>
#include <hotscore/fast.h>
#include <hotscore/verify.h>

#include "cli.h"
#include "json.h"
#include "opt.h"

#define FULL_RANDOM 10000000UL
#define QUICK_RANDOM 100000UL

struct verify {
	struct hs_verify_config cfg;
	char names[HS_VERIFY_MAX_PROFILES][64];
	const char *json;
	char command[4096];
	bool random_set;
	struct hs_verify_result res;
};

enum { O_PROFILE, O_QUICK, O_THREADS, O_SEED, O_RANDOM, O_JSON, O_LIST };

static const struct opt verify_opts[] = {
	{ .id = O_PROFILE, .name = "profile", .old = "profiles",
	  .type = OPT_LIST, .arg = "LIST", .dflt = "all",
	  .help = "profiles or FREQ+DIVISOR+AGE+CLAMP combinations",
	  .words = "@profiles", .example = "v6.6,hotfix" },
	{ .id = O_QUICK, .name = "quick", .type = OPT_FLAG,
	  .help = "boundaries and a stride of each domain (make test)" },
	{ .id = O_THREADS, .name = "threads", .type = OPT_COUNT, .arg = "N",
	  .dflt = "one per online CPU", .help = "worker threads", .min = 1,
	  .max = 256, .example = "2" },
	{ .id = O_SEED, .name = "seed", .type = OPT_COUNT, .arg = "N",
	  .dflt = "1", .help = "seed of the random domain", .example = "7" },
	{ .id = O_RANDOM, .name = "random", .type = OPT_COUNT, .arg = "N",
	  .dflt = "10000000; --quick 100000",
	  .help = "inputs in the random domain", .max = 1000000000,
	  .example = "1000" },
	{ .id = O_JSON, .name = "json", .type = OPT_STR, .arg = "FILE",
	  .flags = OPT_OUTPUT, .words = "@file",
	  .help = "every count and example (docs/verify.md)",
	  .example = "v.json" },
	{ .id = O_LIST, .name = "list-profiles", .type = OPT_FLAG,
	  .flags = OPT_EXIT,
	  .help = "the built-in profiles (as hotscore score --list-profiles)" },
};

static void add_profile(struct verify *v, const char *name)
{
	struct hs_components comp;
	const struct hs_profile *p = hs_profile_find(name);
	unsigned int i;
	int rc;

	if (p) {
		comp = p->comp;
	} else {
		rc = hs_components_parse(name, &comp);
		if (rc == -2)
			cli_die("--profile: '%s' needs the x86 bsr instruction, not on this machine",
				name);
		if (rc)
			cli_die("--profile: unknown profile '%s' (see 'hotscore verify --list-profiles')",
				name);
	}
	for (i = 0; i < v->cfg.nr; i++)
		if (!strcmp(v->names[i], name))
			cli_die("--profile: '%s' is listed twice", name);
	if (v->cfg.nr == HS_VERIFY_MAX_PROFILES)
		cli_die("--profile: more than %d profiles",
		       HS_VERIFY_MAX_PROFILES);
	if (strlen(name) >= sizeof(v->names[0]))
		cli_die("--profile: '%.40s...' is too long", name);
	snprintf(v->names[v->cfg.nr], sizeof(v->names[0]), "%s", name);
	v->cfg.comp[v->cfg.nr++] = comp;
}

static void add_profiles(struct verify *v, const char *list)
{
	char *copy = strdup(list), *item, *save = NULL;

	if (!copy)
		cli_die("out of memory");
	for (item = strtok_r(copy, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		unsigned int i;

		if (strcmp(item, "all")) {
			add_profile(v, item);
			continue;
		}
		for (i = 0; i < hs_nr_profiles; i++)
			add_profile(v, hs_profiles[i].name);
	}
	free(copy);
	if (!v->cfg.nr)
		cli_die("--profile: empty list");
}

static void set(void *ctx, const struct opt *o, const struct opt_val *val,
		unsigned int nr)
{
	struct verify *v = ctx;

	(void)nr;
	switch (o->id) {
	case O_PROFILE:
		v->cfg.nr = 0;
		add_profiles(v, val->s);
		break;
	case O_QUICK:
		v->cfg.quick = true;
		break;
	case O_THREADS:
		v->cfg.threads = (unsigned int)val->u;
		break;
	case O_SEED:
		v->cfg.seed = val->u;
		break;
	case O_RANDOM:
		v->cfg.random = val->u;
		v->random_set = true;
		break;
	case O_JSON:
		v->json = val->s;
		break;
	case O_LIST:
		hs_list_profiles();
		cli_exit(0);
	}
}

static void parse(struct verify *v, int argc, char **argv)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int i;

	v->cfg.threads = cpus > 0 ? (unsigned int)cpus : 1;
	v->cfg.fast = true;
	v->cfg.seed = HS_DEFAULT_SEED;
	opt_parse(&cmd_verify, argc, argv, set, v);
	if (!opt_given(O_PROFILE))
		for (i = 0; i < hs_nr_profiles; i++)
			add_profile(v, hs_profiles[i].name);
	if (!v->random_set)
		v->cfg.random = v->cfg.quick ? QUICK_RANDOM : FULL_RANDOM;
	opt_parsed(&cmd_verify);
	opt_reproduce(&cmd_verify, v->command, sizeof(v->command));
}

/* A bar on stderr, only when it is a terminal. */
static void progress(void *ctx, const struct hs_verify_progress *p)
{
	double frac = p->total ? (double)p->done / (double)p->total : 0;
	double rate = p->seconds > 0 ? (double)p->done / p->seconds : 0;
	char bar[31];
	int i, fill = (int)(frac * 30);

	(void)ctx;
	for (i = 0; i < 30; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[30] = '\0';
	fprintf(stderr, "\r\033[Kverify [%s] %5.1f%%  %s %.0f%% of %.3g M"
		"  ETA %.0f s", bar, 100 * frac, hs_domain_name(p->domain),
		p->domain_total ? 100.0 * (double)p->domain_done /
		(double)p->domain_total : 0, (double)p->domain_total / 1e6,
		rate > 0 ? (double)(p->total - p->done) / rate : 0);
	fflush(stderr);
}

struct pair_ctx {
	const struct hs_components *a, *b;
	unsigned int cls;
};

static bool pair_pred(const struct hs_input *in, const void *ctx)
{
	const struct pair_ctx *c = ctx;
	unsigned int cls;

	return hs_pair_class(c->a, c->b, in, &cls) && cls == c->cls;
}

struct inv_ctx {
	const struct hs_components *c;
	enum hs_invariant inv;
};

static bool inv_pred(const struct hs_input *in, const void *ctx)
{
	const struct inv_ctx *c = ctx;
	bool checked;

	return hs_violates(c->c, c->inv, in, &checked);
}

static bool fast_pred(const struct hs_input *in, const void *ctx)
{
	const struct hs_components *c = ctx;
	struct hs_result model = hs_score(c, in, NULL), fast;
	static struct hs_prep p;	/* 3.5 KB: not on the stack */

	hs_prep_init(&p, c, in);
	fast = hs_fast_score(&p, in->nr_accesses, in->last_nr_accesses,
			     in->age);
	return !hs_fast_same(&model, &fast);
}

/* Every example, made small. */
static void shrink_all(struct verify *v)
{
	unsigned int a, b, k, nr = v->cfg.nr;
	struct hs_input dflt;

	hs_score_defaults(&dflt);
	for (a = 0; a < nr; a++) {
		for (b = a + 1; b < nr; b++)
			for (k = 0; k < HS_NR_PAIR_CLASSES; k++) {
				struct pair_ctx ctx = { &v->cfg.comp[a],
							&v->cfg.comp[b], k };

				if (v->res.pair[a][b].ex[k].found)
					hs_shrink(&v->res.pair[a][b].ex[k].in,
						  &dflt, pair_pred, &ctx);
			}
		if (v->res.fast[a].ex.found)
			hs_shrink(&v->res.fast[a].ex.in, &dflt, fast_pred,
				  &v->cfg.comp[a]);
		for (k = 0; k < HS_NR_INVARIANTS; k++) {
			struct inv_ctx ctx = { &v->cfg.comp[a], k };

			if (v->res.inv[a][k].ex.found)
				hs_shrink(&v->res.inv[a][k].ex.in, &dflt,
					  inv_pred, &ctx);
		}
	}
}

/* "hot 125 out-of-range", or the div0 status alone. */
static void outcome(const struct hs_components *c, const struct hs_input *in,
		    char *buf, size_t size)
{
	struct hs_result r = hs_score(c, in, NULL);

	if (r.status == HS_DIV0)
		snprintf(buf, size, "%s", hs_status_name(&r));
	else
		snprintf(buf, size, "hot %d %s", r.hot, hs_status_name(&r));
}

static bool agelog_equal(const struct hs_verify_result *res)
{
	unsigned int k;

	for (k = 0; k < HS_NR_AGELOG_WAYS; k++)
		if (res->agelog.mismatches[k])
			return false;
	return true;
}

static bool pair_equal(const struct hs_pair_stats *ps)
{
	return ps->agree == ps->inputs;
}

/* The exit status: 1 if a claimed equality failed. */
static int verdict(const struct verify *v)
{
	return hs_verify_ok(&v->cfg, &v->res) ? 0 : 1;
}

static void print_agelog(const struct verify *v)
{
	const struct hs_agelog_stats *st = &v->res.agelog;
	unsigned int k;

	printf("\nage_in_log, every method and fls implementation against the"
	       " shift loop\n(%u ways: fls and ilog2 on the arch, generic,"
	       " builtin%s fls):\n", st->ways, HS_HAVE_BSR ? " and bsr" : "");
	if (agelog_equal(&v->res)) {
		printf("  loop = fls = ilog2 on all %llu values of age_in_sec%s\n",
		       (unsigned long long)st->values, v->cfg.quick ?
		       " tried (--quick: boundaries and a stride)" : "");
		return;
	}
	for (k = 0; k < HS_NR_AGELOG_WAYS; k++)
		if (st->mismatches[k])
			printf("  %s differs from loop on %llu values, first"
			       " age_in_sec %u   FAIL\n",
			       hs_agelog_name(k / HS_NR_FLS_IMPL,
					      k % HS_NR_FLS_IMPL),
			       (unsigned long long)st->mismatches[k],
			       st->first[k]);
}

static void print_pair(const struct verify *v, unsigned int a, unsigned int b)
{
	const struct hs_pair_stats *ps = &v->res.pair[a][b];
	bool claimed = hs_claimed_equal(&v->cfg.comp[a], &v->cfg.comp[b]);
	char args[512], ra[64], rb[64];
	int w = (int)(strlen(v->names[a]) > strlen(v->names[b]) ?
		      strlen(v->names[a]) : strlen(v->names[b]));
	unsigned int k;

	if (pair_equal(ps)) {
		printf("  %s = %s: agree on all %llu inputs%s\n", v->names[a],
		       v->names[b], (unsigned long long)ps->inputs,
		       claimed ? " (claimed equal: ok)" : "");
		return;
	}
	printf("  %s vs %s: differ on %llu of %llu inputs%s\n", v->names[a],
	       v->names[b], (unsigned long long)(ps->inputs - ps->agree),
	       (unsigned long long)ps->inputs,
	       claimed ? " (claimed equal: FAIL)" : "");
	for (k = 0; k < HS_NR_PAIR_CLASSES; k++) {
		const struct hs_input *in = &ps->ex[k].in;

		if (!ps->count[k])
			continue;
		hs_score_args(in, args, sizeof(args));
		outcome(&v->cfg.comp[a], in, ra, sizeof(ra));
		outcome(&v->cfg.comp[b], in, rb, sizeof(rb));
		printf("    %s %s, %s %s%s: %llu\n", v->names[a],
		       hs_status_code_name(k / HS_NR_STATUS_CODES),
		       v->names[b], hs_status_code_name(k % HS_NR_STATUS_CODES),
		       k / HS_NR_STATUS_CODES == k % HS_NR_STATUS_CODES ?
		       ", hot differs" : "", (unsigned long long)ps->count[k]);
		printf("      e.g. hotscore score %s%s--profile %-*s  # %s\n"
		       "           hotscore score %s%s--profile %-*s  # %s\n",
		       args, *args ? " " : "", w, v->names[a], ra,
		       args, *args ? " " : "", w, v->names[b], rb);
	}
}

/* What the input is compared with, for a monotonicity invariant. */
static const char *neighbour(const struct hs_components *c,
			     enum hs_invariant inv, const struct hs_input *in)
{
	static char buf[96];
	struct hs_input next = *in;
	struct hs_result r;

	if (inv == HS_INV_RANGE || inv == HS_INV_SUM)
		return "";
	if (inv == HS_INV_ACCESSES)
		next.nr_accesses++;
	else
		next.age++;
	r = hs_score(c, &next, NULL);
	snprintf(buf, sizeof(buf), "; with %s: hot %d",
		 inv == HS_INV_ACCESSES ? "one more access" :
		 "one interval older", r.hot);
	return buf;
}

static void print_invariants(const struct verify *v)
{
	char args[512], r[64];
	unsigned int a, k;

	printf("\ninvariants (violations of checked inputs):\n");
	for (a = 0; a < v->cfg.nr; a++)
		for (k = 0; k < HS_NR_INVARIANTS; k++) {
			const struct hs_inv_stats *is = &v->res.inv[a][k];

			printf("  %-16s %-30s %llu of %llu\n", v->names[a],
			       hs_invariant_name(k),
			       (unsigned long long)is->violations,
			       (unsigned long long)is->checked);
			if (!is->violations)
				continue;
			hs_score_args(&is->ex.in, args, sizeof(args));
			outcome(&v->cfg.comp[a], &is->ex.in, r, sizeof(r));
			printf("      e.g. hotscore score --profile %s%s%s  # %s%s\n",
			       v->names[a], *args ? " " : "", args, r,
			       neighbour(&v->cfg.comp[a], k, &is->ex.in));
		}
}

/* The prepared scorer's result on @in, as outcome() gives the model's. */
static void fast_outcome(const struct hs_components *c,
			 const struct hs_input *in, char *buf, size_t size)
{
	static struct hs_prep p;
	struct hs_result r;

	hs_prep_init(&p, c, in);
	r = hs_fast_score(&p, in->nr_accesses, in->last_nr_accesses, in->age);
	if (r.status == HS_DIV0)
		snprintf(buf, size, "%s", hs_status_name(&r));
	else
		snprintf(buf, size, "hot %d %s", r.hot, hs_status_name(&r));
}

static void print_fast(const struct verify *v)
{
	char args[512], model[64], fast[64];
	unsigned int a;

	if (!v->cfg.fast)
		return;
	printf("\nprepared scorer (fast.h), each against its profile"
	       " (differ of compared):\n");
	for (a = 0; a < v->cfg.nr; a++) {
		const struct hs_fast_stats *fs = &v->res.fast[a];

		printf("  %-16s %llu of %llu grid + %llu random inputs; %llu + %llu schemes prepared\n",
		       v->names[a], (unsigned long long)fs->mismatches,
		       (unsigned long long)fs->inputs[HS_DOM_GRID],
		       (unsigned long long)fs->inputs[HS_DOM_RANDOM],
		       (unsigned long long)fs->schemes[HS_DOM_GRID],
		       (unsigned long long)fs->schemes[HS_DOM_RANDOM]);
		if (!fs->mismatches)
			continue;
		hs_score_args(&fs->ex.in, args, sizeof(args));
		outcome(&v->cfg.comp[a], &fs->ex.in, model, sizeof(model));
		fast_outcome(&v->cfg.comp[a], &fs->ex.in, fast, sizeof(fast));
		printf("      e.g. hotscore score --profile %s%s%s  # %s; prepared: %s\n",
		       v->names[a], *args ? " " : "", args, model, fast);
	}
}

static void print_report(const struct verify *v)
{
	const struct hs_verify_result *res = &v->res;
	unsigned int a, b, d;

	printf("hotscore verify: %u profiles, %u threads, --seed %llu%s\n",
	       v->cfg.nr, v->cfg.threads, (unsigned long long)v->cfg.seed,
	       v->cfg.quick ? ", --quick" : "");
	for (d = 0; d < HS_NR_DOMAINS; d++)
		printf("  %-7s %12llu %s in %.2f s\n", hs_domain_name(d),
		       (unsigned long long)res->inputs[d],
		       d == HS_DOM_AGELOG ? "age_in_sec values" : "inputs",
		       res->seconds[d]);
	print_agelog(v);
	printf("\nprofile pairs, over the grid and random inputs:\n");
	for (a = 0; a < v->cfg.nr; a++)
		for (b = a + 1; b < v->cfg.nr; b++)
			print_pair(v, a, b);
	print_invariants(v);
	print_fast(v);
	printf("\n%s\n", verdict(v) ? "FAIL: variants claimed equal differ" :
	       "ok: every variant claimed equal is equal on every input checked");
}

/* The example's fields, and a `hotscore score` command per profile. */
static void json_example(FILE *f, const char *const *profiles,
			 unsigned int nr, const struct hs_input *in)
{
	char args[512], cmd[700];
	unsigned int i;

	hs_score_args(in, args, sizeof(args));
	fprintf(f, "\"example\":{\"sample_us\":%lu,\"aggr_us\":%lu,"
		"\"nr_accesses\":%u,\"last_nr_accesses\":%u,\"age\":%u,"
		"\"passed_sis\":%lu,\"next_aggr_sis\":%lu,"
		"\"weight_nr_accesses\":%u,\"weight_age\":%u},\"commands\":[",
		in->sample_us, in->aggr_us, in->nr_accesses,
		in->last_nr_accesses, in->age, in->passed_sis,
		in->next_aggr_sis, in->weight_nr_accesses, in->weight_age);
	for (i = 0; i < nr; i++) {
		snprintf(cmd, sizeof(cmd), "hotscore score --profile %s%s%s",
			 profiles[i], *args ? " " : "", args);
		fputs(i ? "," : "", f);
		json_write_string(f, cmd);
	}
	fputc(']', f);
}

static void write_json(const struct verify *v, FILE *f)
{
	const struct hs_verify_result *res = &v->res;
	unsigned int a, b, k, d;
	bool first = true;

	fputs("{\"tool\":\"hotscore verify\",\"schema\":1,\"command\":", f);
	json_write_string(f, v->command);
	fprintf(f, ",\"seed\":%llu,\"quick\":%s,\"threads\":%u,\"profiles\":[",
		(unsigned long long)v->cfg.seed, v->cfg.quick ? "true" : "false",
		v->cfg.threads);
	for (a = 0; a < v->cfg.nr; a++) {
		char spec[96];

		hs_components_format(&v->cfg.comp[a], spec, sizeof(spec));
		fprintf(f, "%s{\"name\":", a ? "," : "");
		json_write_string(f, v->names[a]);
		fprintf(f, ",\"components\":\"%s\"}", spec);
	}
	fputs("],\"domains\":{", f);
	for (d = 0; d < HS_NR_DOMAINS; d++)
		fprintf(f, "%s\"%s\":{\"inputs\":%llu,\"seconds\":%.3f,"
			"\"per_second_per_thread\":%.0f}", d ? "," : "",
			hs_domain_name(d), (unsigned long long)res->inputs[d],
			res->seconds[d], res->seconds[d] > 0 ?
			(double)res->inputs[d] / res->seconds[d] /
			v->cfg.threads : 0);
	fprintf(f, "},\"agelog\":{\"values\":%llu,\"ways\":%u,\"equal\":%s,"
		"\"mismatches\":[", (unsigned long long)res->agelog.values,
		res->agelog.ways, agelog_equal(res) ? "true" : "false");
	for (k = 0; k < HS_NR_AGELOG_WAYS; k++) {
		if (!res->agelog.mismatches[k])
			continue;
		fprintf(f, "%s{\"way\":\"%s\",\"count\":%llu,\"first\":%u}",
			first ? "" : ",", hs_agelog_name(k / HS_NR_FLS_IMPL,
							 k % HS_NR_FLS_IMPL),
			(unsigned long long)res->agelog.mismatches[k],
			res->agelog.first[k]);
		first = false;
	}
	fputs("]},\"pairs\":[", f);
	first = true;
	for (a = 0; a < v->cfg.nr; a++)
		for (b = a + 1; b < v->cfg.nr; b++) {
			const struct hs_pair_stats *ps = &res->pair[a][b];
			bool first_cls = true;

			fputs(first ? "\n{\"a\":" : ",\n{\"a\":", f);
			first = false;
			json_write_string(f, v->names[a]);
			fputs(",\"b\":", f);
			json_write_string(f, v->names[b]);
			fprintf(f, ",\"claimed_equal\":%s,\"inputs\":%llu,"
				"\"agree\":%llu,\"equal\":%s,\"classes\":[",
				hs_claimed_equal(&v->cfg.comp[a],
						 &v->cfg.comp[b]) ? "true" :
				"false", (unsigned long long)ps->inputs,
				(unsigned long long)ps->agree,
				pair_equal(ps) ? "true" : "false");
			for (k = 0; k < HS_NR_PAIR_CLASSES; k++) {
				if (!ps->count[k])
					continue;
				fprintf(f, "%s{\"a_status\":\"%s\",\"b_status\":"
					"\"%s\",\"count\":%llu,",
					first_cls ? "" : ",",
					hs_status_code_name(k / HS_NR_STATUS_CODES),
					hs_status_code_name(k % HS_NR_STATUS_CODES),
					(unsigned long long)ps->count[k]);
				{
					const char *two[2] = { v->names[a],
							       v->names[b] };

					json_example(f, two, 2, &ps->ex[k].in);
				}
				fputc('}', f);
				first_cls = false;
			}
			fputs("]}", f);
		}
	fputs("],\"invariants\":[", f);
	first = true;
	for (a = 0; a < v->cfg.nr; a++)
		for (k = 0; k < HS_NR_INVARIANTS; k++) {
			const struct hs_inv_stats *is = &res->inv[a][k];

			fputs(first ? "\n{\"profile\":" : ",\n{\"profile\":", f);
			first = false;
			json_write_string(f, v->names[a]);
			fprintf(f, ",\"invariant\":\"%s\",\"checked\":%llu,"
				"\"violations\":%llu", hs_invariant_name(k),
				(unsigned long long)is->checked,
				(unsigned long long)is->violations);
			if (is->violations) {
				fputc(',', f);
				const char *one[1] = { v->names[a] };

				json_example(f, one, 1, &is->ex.in);
			}
			fputc('}', f);
		}
	fputs("],\"fast\":[", f);
	for (a = 0; v->cfg.fast && a < v->cfg.nr; a++) {
		const struct hs_fast_stats *fs = &res->fast[a];
		const char *one[1] = { v->names[a] };

		fputs(a ? ",\n{\"profile\":" : "\n{\"profile\":", f);
		json_write_string(f, v->names[a]);
		fprintf(f, ",\"grid\":%llu,\"random\":%llu,"
			"\"schemes\":{\"grid\":%llu,\"random\":%llu},"
			"\"mismatches\":%llu",
			(unsigned long long)fs->inputs[HS_DOM_GRID],
			(unsigned long long)fs->inputs[HS_DOM_RANDOM],
			(unsigned long long)fs->schemes[HS_DOM_GRID],
			(unsigned long long)fs->schemes[HS_DOM_RANDOM],
			(unsigned long long)fs->mismatches);
		if (fs->mismatches) {
			fputc(',', f);
			json_example(f, one, 1, &fs->ex.in);
		}
		fputc('}', f);
	}
	fprintf(f, "],\"ok\":%s}\n", verdict(v) ? "false" : "true");
}

/*
 * `hotscore verify`.
 * @argc: argument count, argv[0] being "verify".
 * @argv: the arguments.
 *
 * Return: 0, or 1 if variants claimed equal differ.
 */
static int verify_run(int argc, char **argv)
{
	static struct verify v;
	FILE *json = NULL;

	parse(&v, argc, argv);
	if (v.json && !(json = fopen(v.json, "w")))
		cli_die("--json: %s: %s", v.json, strerror(errno));
	if (isatty(STDERR_FILENO))
		v.cfg.progress = progress;
	if (hs_verify_run(&v.cfg, &v.res))
		cli_die("cannot start %u threads or allocate their memory",
		       v.cfg.threads);
	if (v.cfg.progress)
		fputs("\r\033[K", stderr);
	shrink_all(&v);
	print_report(&v);
	if (json) {
		write_json(&v, json);
		if (fflush(json) || ferror(json) || fclose(json))
			cli_die("--json: %s: write error: %s", v.json,
			       strerror(errno));
	}
	return verdict(&v);
}

const struct hs_cmd cmd_verify = {
	.name = "verify",
	.summary = "variants proven equal over whole domains; where versions differ",
	.usage = "hotscore verify [--profile LIST] [--quick] [--threads N]"
		 " [--seed N] [--random N] [--json FILE]",
	.about = "Prove the age_in_log methods equal over all 2^32 values of"
		 " age_in_sec, compare every\npair of profiles over a grid and a"
		 " random domain, check each profile's invariants\nand its"
		 " prepared scorer, and shrink every finding to a small `hotscore"
		 " score`\ncommand.  Exit 1 if profiles that differ only in their"
		 " age_in_log method disagree\nanywhere, so that verify can gate"
		 " a change in CI.",
	.opts = verify_opts,
	.nr_opts = sizeof(verify_opts) / sizeof(verify_opts[0]),
	.run = verify_run,
};
