// SPDX-License-Identifier: GPL-2.0
/*
 * bench_cand.c - candidates in `hotscore bench`: what they must equal
 * (--against), the base they are compiled for (--base), their copies at
 * each placement, the vetting that keeps a candidate that differs from
 * being timed (on verify's edge set, then on every pool input) unless
 * --allow-different, and the door every variant of one call an input
 * goes through when a candidate is in the run.
 *
 * The door: a candidate object's hs_cand_door() on calls built before the
 * timing (src/cand/object/shim.c), each input a region with its context
 * and scheme, as a kdamond passes them.  A built-in profile in the same
 * run is its kernel source (src/cand/source.c) compiled and called the
 * same way, so that the two differ only in the function (docs/bench.md,
 * "Candidates").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotscore/cand.h>
#include <hotscore/spec.h>
#include <hotscore/verify.h>

#include "cmd_bench.h"
#include "cli.h"

#define LINE_MAX_COLS 100	/* a refusal is one line of at most this */

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
 * Refuse candidate @name in one line of at most LINE_MAX_COLS columns:
 * "hotscore bench: NAME WHY", the name cut to its last part (and then
 * to its end) if the whole would not fit; exit 1, a finding.
 */
static void refuse(const char *name, const char *why)
{
	const char *slash = strrchr(name, '/');
	int room = LINE_MAX_COLS - (int)strlen("hotscore bench:  ") -
		   (int)strlen(why);
	int len = (int)strlen(name);

	if (len > room && slash)
		name = slash + 1;
	len = (int)strlen(name);
	fflush(stdout);
	if (len > room && room > 3)
		fprintf(stderr, "hotscore bench: ...%s %s\n",
			name + len - (room - 3), why);
	else
		fprintf(stderr, "hotscore bench: %s %s\n", name, why);
	exit(CLI_EXIT_FINDING);
}

/*
 * Before a candidate is timed it must equal --against on verify's edge
 * set (--quick's boundaries and strides, and 10^5 random inputs): a
 * function that differs, traps or hangs is not worth timing.  With
 * --allow-different one that differs is timed, labelled with how many
 * inputs it differs on; one that hangs never is.
 */
static void vet(struct bench *b, unsigned int k)
{
	const char *against = b->against_spec.name;
	static struct hs_cand_verify_result res;
	struct hs_cand_verify_config cfg = {
		.cand = b->cand[k], .against = b->against_spec.comp,
		.quick = true, .threads = 1, .seed = b->seed, .random = 100000,
	};
	unsigned long long total = 0, differ;
	char why[HS_SPEC_GIVEN + 256];
	unsigned int d;

	if (hs_cand_verify(&cfg, &res))
		cli_die("out of memory");
	for (d = 0; d < HS_NR_CDOMAINS; d++)
		total += res.inputs[d];
	differ = total - res.agree;
	if (res.stopped) {
		snprintf(why, sizeof(why), "hangs (a call ran past --call_limit"
			 " %s): not timed", cli_call_limit_text());
		refuse(b->cand_var[k].name, why);
	}
	if (!differ)
		return;
	if (!b->allow_different) {
		snprintf(why, sizeof(why), "differs from %s on %llu inputs"
			 " (see --allow-different)", against, differ);
		refuse(b->cand_var[k].name, why);
	}
	snprintf(b->differs[k], sizeof(b->differs[k]),
		 "differs from %s on %llu of %llu inputs", against, differ,
		 total);
}

/* The door's functions of @obj at each placement, into @fns. */
static void door_copies(struct bench *b, const struct hs_cand *const *objs,
			hs_bench_fn *fns, unsigned int k)
{
	unsigned int pl;

	for (pl = 0; pl < b->placements; pl++)
		fns[pl] = (hs_bench_fn)objs[pl]->door;
	if (!b->has_door) {
		for (pl = 0; pl < b->placements; pl++)
			b->door_empty[pl] = (hs_bench_fn)objs[pl]->door_empty;
		b->door_pool = k;
		b->has_door = true;
	}
}

/*
 * Candidate @k's copies at each placement: its object compiled again with
 * every function entering at that offset, as the built-in variants' copies
 * do (HS_PLACEMENT_COPIES), so that its ratio samples placements too.
 */
static void place_candidate(struct bench *b, unsigned int k,
			    enum hs_divisor base)
{
	const struct hs_cand *objs[HS_NR_PLACEMENTS];
	unsigned int pl;

	for (pl = 0; pl < b->placements; pl++)
		objs[pl] = cli_cand_placed("--profile", &b->cand_spec[k], base,
					   HS_PLACEMENT_OFFSET(pl));
	door_copies(b, objs, b->cand_placed[k], k);
	b->cand_var[k].placed = b->cand_placed[k];
}

/*
 * A built-in of one call an input, in a run with a candidate: its kernel
 * source (src/cand/source.c), compiled for its own divisor at each
 * placement and called through the same door.  The rows of the profiles
 * and age_in_log methods are the ones with the seed's ktime loop; the
 * prepared scorers are hotscore's own code, not a kernel's: they stay.
 */
static void door_builtin(struct bench *b, unsigned int k)
{
	static struct hs_cand objs[BENCH_MAX_LIST][HS_NR_PLACEMENTS];
	const struct hs_cand *placed[HS_NR_PLACEMENTS];
	const struct hs_variant *v = b->variants[k];
	char text[4096], path[4200], err[512], *log;
	unsigned int pl;

	if (v->call != HS_CALL_INPUT || !v->ktime)
		return;
	if (hs_cand_source(&v->comp, text, sizeof(text)) ||
	    hs_cand_source_file(text, path, sizeof(path), err, sizeof(err)))
		cli_die("--profile %s: its kernel source: %s", v->name,
			hs_cand_source(&v->comp, text, sizeof(text)) ?
			"too long" : err);
	for (pl = 0; pl < b->placements; pl++) {
		if (hs_cand_load(path, v->comp.divisor, HS_PLACEMENT_OFFSET(pl),
				 &objs[k][pl], &log, err, sizeof(err))) {
			if (log)
				fputs(log, stderr);
			cli_die("--profile %s: its kernel source does not"
				" compile: %s", v->name, err);
		}
		free(log);	/* the compiler's words: it compiled */
		objs[k][pl].path = v->name;
		placed[pl] = &objs[k][pl];
	}
	b->cand_var[k] = *v;
	door_copies(b, placed, b->cand_placed[k], k);
	b->cand_var[k].fn = b->cand_placed[k][0];
	b->cand_var[k].placed = b->cand_placed[k];
	b->cand_var[k].call = HS_CALL_DOOR;
	b->cand_var[k].user_only = true;
	b->cand_var[k].what = "its kernel source, compiled and called as a"
			      " candidate (the door)";
	b->door_obj[k] = placed[0];
	b->variants[k] = &b->cand_var[k];
}

/**
 * bench_load_candidates() - each candidate compiled for the base, vetted,
 * and made a variant; then, if there is one, each built-in of one call an
 * input made its kernel source behind the same door.
 * @b:		the run.
 */
void bench_load_candidates(struct bench *b)
{
	struct hs_spec *against = &b->against_spec, *base = &b->base_spec;
	unsigned int k;
	bool any = false;

	against_of(b, against, base);
	for (k = 0; k < b->nr_variants; k++) {
		struct hs_variant *v = &b->cand_var[k];

		if (b->variants[k])
			continue;
		cli_spec_load("--profile", &b->cand_spec[k], base);
		b->cand[k] = b->cand_spec[k].cand;
		v->name = b->cand_spec[k].name;
		v->comp = against->comp;
		v->fn = (hs_bench_fn)b->cand[k]->door;
		place_candidate(b, k, base->comp.divisor);
		v->what = "a candidate file (docs/your-change.md)";
		v->call = HS_CALL_DOOR;
		v->user_only = true;
		b->door_obj[k] = b->cand[k];
		b->variants[k] = v;
		any = true;
		if (b->block < 0)
			vet(b, k);
	}
	for (k = 0; any && k < b->nr_variants; k++)
		door_builtin(b, k);
}

/**
 * bench_door_pool() - the calls of variant @v's door for @nr inputs.
 * @b:		the run.
 * @v:		a variant whose call is HS_CALL_DOOR.
 * @in:		the inputs.
 * @nr:		how many, at least 1.
 * @pool:	receives the engine's pool of them.
 *
 * Return: the memory to free() when done with @pool.
 */
void *bench_door_pool(const struct bench *b, unsigned int v,
		      const struct hs_input *in, size_t nr,
		      struct hs_pool *pool)
{
	const struct hs_cand *c = b->door_obj[v];
	void *mem = hs_cand_calls_build(c, in, nr);

	if (!mem)
		cli_die("out of memory");
	*pool = (struct hs_pool){ mem, c->call_size, nr, 1 };
	return mem;
}

/**
 * bench_door_calls() - variant @v's calls of distribution @d's pool.
 * @b:		the run.
 * @d:		the distribution, its pool built.
 * @v:		a variant whose call is HS_CALL_DOOR.
 */
void bench_door_calls(struct bench *b, struct bench_dist *d, unsigned int v)
{
	struct bench_calls *c = &d->calls[v];

	c->door = bench_door_pool(b, v, d->pool, d->nr_pool, &c->c.pool);
}

/**
 * bench_door_vet() - every copy of variant @v's door returns, on every
 * call of @d's pool, what the variant returned through the converting
 * call (a candidate, vetted on these inputs already), or the model (a
 * built-in's kernel source); an internal error exits with status 1.
 * @b:		the run.
 * @d:		the distribution, its calls built.
 * @v:		a variant whose call is HS_CALL_DOOR.
 */
void bench_door_vet(const struct bench *b, const struct bench_dist *d,
		    unsigned int v)
{
	const struct hs_variant *var = b->variants[v];
	const struct hs_pool *p = &d->calls[v].c.pool;
	unsigned int pl;
	size_t j;
	int want, got;

	for (j = 0; j < d->nr_pool; j++) {
		const void *call = (const char *)p->base + j * p->stride;

		want = b->cand[v] ? b->cand[v]->hot(&d->pool[j]) :
		       hs_score(&var->comp, &d->pool[j], NULL).hot;
		for (pl = 0; pl <= b->placements; pl++) {
			got = (pl ? var->placed[pl - 1] : var->fn)(call);
			if (got == want)
				continue;
			fprintf(stderr, "hotscore: internal error: %s returns"
				" %d through its door, %d before, on input %zu"
				" of %s\n", var->name, got, want, j + 1,
				d->name);
			exit(1);
		}
	}
}

/* @d's name, a file's cut to its last part: for a line of 100 columns. */
static const char *dist_short(const struct bench_dist *d)
{
	static char buf[64];
	const char *slash = strrchr(d->name, '/');

	if (d->kind != HS_NR_DISTS || !slash)
		return d->name;
	snprintf(buf, sizeof(buf), "file:%s", slash + 1);
	return buf;
}

/**
 * bench_pool_vet() - a candidate on a pool input: equal to --against, or
 * not timed (exit 1, one line); with --allow-different only a trap or a
 * hang is refused, and the differences are counted for its label.
 * @b:		the run.
 * @v:		the candidate's variant.
 * @d:		the distribution.
 * @j:		its pool input.
 */
void bench_pool_vet(struct bench *b, unsigned int v, struct bench_dist *d,
		    size_t j)
{
	const struct hs_variant *var = b->variants[v];
	const char *dist = dist_short(d);
	unsigned int cls, code;
	char why[HS_SPEC_GIVEN + 256];

	if (!hs_cand_class(&var->comp, b->cand[v], &d->pool[j], &cls))
		return;
	code = cls % HS_NR_CAND_CODES;
	if (code >= 2) {
		snprintf(why, sizeof(why), "gives %s on input %zu of --dist %s:"
			 " not timed", hs_cand_code_name(code), j + 1, dist);
		refuse(var->name, why);
	}
	if (!b->allow_different) {
		snprintf(why, sizeof(why), "differs from %s on input %zu of"
			 " --dist %s (see --allow-different)",
			 b->against_spec.name, j + 1, dist);
		refuse(var->name, why);
	}
	/* the edge set's count, or else this pool's */
	if (b->differs[v][0] && !b->pool_differs[v])
		return;
	snprintf(b->differs[v], sizeof(b->differs[v]),
		 "differs from %s on %llu of %zu inputs of --dist %s",
		 b->against_spec.name, ++b->pool_differs[v], d->nr_pool,
		 dist);
}
