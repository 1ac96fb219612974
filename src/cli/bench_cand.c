// SPDX-License-Identifier: GPL-2.0
/*
 * bench_cand.c - candidates in `hotscore bench`: what they must equal
 * (--against), the base they are compiled for (--base), their copies at
 * each placement, and the vetting that keeps a candidate that differs
 * from being timed (on verify's edge set, then on every pool input).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotscore/cand.h>
#include <hotscore/spec.h>
#include <hotscore/verify.h>

#include "cmd_bench.h"
#include "cli.h"

/*
 * What candidates must equal: --against, else the first built-in variant,
 * else hotfix (hs_base_pick()), named as `hotscore score` takes it; and
 * the base they are compiled for: --base, else that.
 */
static void against_of(const struct bench *b, struct hs_spec *against,
		       struct hs_spec *base)
{
	const struct hs_variant *first = NULL;
	unsigned int i;

	for (i = 0; !first && i < b->nr_variants; i++)
		first = b->variants[i];
	memset(against, 0, sizeof(*against));
	hs_base_pick(b->against, first ? &first->comp : NULL,
		     first ? first->name : NULL, &against->comp,
		     against->name, sizeof(against->name));
	*base = *against;
	if (b->base)
		hs_spec_base(NULL, 0, b->base, base);
}

/*
 * Before a candidate is timed it must equal --against on verify's edge
 * set (--quick's boundaries and strides, and 10^5 random inputs): a
 * function that differs, traps or hangs is not worth timing.  Exit 1 with
 * the first difference (a hang, if one ended the check) as a `hotscore
 * score` command.
 */
static void vet(struct bench *b, unsigned int k)
{
	const struct hs_components *comp = &b->against_spec.comp;
	const char *against = b->against_spec.name;
	static struct hs_cand_verify_result res;
	struct hs_cand_verify_config cfg = {
		.cand = b->cand[k], .against = *comp, .quick = true,
		.threads = 1, .seed = b->seed, .random = 100000,
	};
	struct hs_input dflt;
	uint64_t total = 0;
	unsigned int c, d;
	char args[512], profile[416];

	if (hs_cand_verify(&cfg, &res))
		cli_die("out of memory");
	for (d = 0; d < HS_NR_CDOMAINS; d++)
		total += res.inputs[d];
	for (c = 0; c < HS_NR_CAND_CLASSES && (!res.count[c] || (res.stopped &&
	     c % HS_NR_CAND_CODES != HS_CAND_CODE_HANG)); c++)
		;
	if (c == HS_NR_CAND_CLASSES)
		return;
	cli_score_defaults(&dflt);
	hs_cand_shrink(comp, b->cand[k], c, &res.ex[c].in, &dflt);
	cli_score_args(&res.ex[c].in, args, sizeof(args));
	fflush(stdout);
	if (res.stopped)
		fprintf(stderr, "hotscore bench: --profile: %s hangs on verify's edge set (a call ran past --call_limit %s where %s is %s)",
			b->cand_var[k].name, cli_call_limit_text(), against,
			hs_status_code_name(c / HS_NR_CAND_CODES));
	else
		fprintf(stderr, "hotscore bench: --profile: %s differs from %s on %llu of %llu inputs of verify's edge set (%s %s, %s %s)",
			b->cand_var[k].name, against,
			(unsigned long long)(total - res.agree),
			(unsigned long long)total, against,
			hs_status_code_name(c / HS_NR_CAND_CODES),
			b->cand_var[k].name,
			hs_cand_code_name(c % HS_NR_CAND_CODES));
	cli_spec_profiles(&b->cand_spec[k], against, &b->base_spec, profile,
			  sizeof(profile));
	fprintf(stderr, ", so it is not timed: hotscore score %s%s%s%s\n",
		profile, *args ? " " : "", args, cli_call_limit_arg());
	exit(CLI_EXIT_FINDING);
}

/*
 * Candidate @k's copies at each placement: its object compiled again with
 * every function entering at that offset, as the built-in variants' copies
 * do (HS_PLACEMENT_COPIES), so that its ratio samples placements too.
 */
static void place_candidate(struct bench *b, unsigned int k,
			    enum hs_divisor base)
{
	unsigned int pl;

	for (pl = 0; pl < b->placements; pl++)
		b->cand_placed[k][pl] = (hs_bench_fn)cli_cand_placed("--profile",
			&b->cand_spec[k], base, HS_PLACEMENT_OFFSET(pl))->hot;
	b->cand_var[k].placed = b->cand_placed[k];
}

/**
 * bench_load_candidates() - each candidate compiled for the base, vetted,
 * and made a variant.
 * @b:		the run.
 */
void bench_load_candidates(struct bench *b)
{
	struct hs_spec *against = &b->against_spec, *base = &b->base_spec;
	unsigned int k;

	against_of(b, against, base);
	for (k = 0; k < b->nr_variants; k++) {
		struct hs_variant *v = &b->cand_var[k];

		if (b->variants[k])
			continue;
		cli_spec_load("--profile", &b->cand_spec[k], base);
		b->cand[k] = b->cand_spec[k].cand;
		v->name = b->cand_spec[k].name;
		v->comp = against->comp;
		v->fn = (hs_bench_fn)b->cand[k]->hot;
		place_candidate(b, k, base->comp.divisor);
		v->what = "a candidate file (docs/your-change.md)";
		v->call = HS_CALL_INPUT;
		v->user_only = true;
		b->variants[k] = v;
		if (b->block < 0)
			vet(b, k);
	}
}

/**
 * bench_pool_vet() - a candidate on a pool input: equal to --against, or
 * not timed (exit 1 with the command that shows it).
 * @b:		the run.
 * @v:		the candidate's variant.
 * @d:		the distribution.
 * @j:		its pool input.
 */
void bench_pool_vet(struct bench *b, unsigned int v, struct bench_dist *d,
		     size_t j)
{
	const struct hs_variant *var = b->variants[v];
	char args[512], profile[416];
	unsigned int cls;

	if (!hs_cand_class(&var->comp, b->cand[v], &d->pool[j], &cls))
		return;
	cli_score_args(&d->pool[j], args, sizeof(args));
	cli_spec_profiles(&b->cand_spec[v], b->against_spec.name,
			  &b->base_spec, profile, sizeof(profile));
	fflush(stdout);
	fprintf(stderr, "hotscore bench: --profile: %s is %s where its --against is %s, on input %zu of --dist %s, so it is not timed: hotscore score %s%s%s%s\n",
		var->name, hs_cand_code_name(cls % HS_NR_CAND_CODES),
		hs_status_code_name(cls / HS_NR_CAND_CODES), j + 1, d->name,
		profile, *args ? " " : "", args, cli_call_limit_arg());
	exit(CLI_EXIT_FINDING);
}
