// SPDX-License-Identifier: GPL-2.0
/*
 * source.c - a built-in profile's damon_hot_score() as kernel C: the text
 * of mm/damon/ops-common.c for those components, which the bench compiles
 * as a candidate (env.h in front, the candidate's flags, the candidate's
 * door) when a run times candidates, so that a built-in and a candidate
 * are timed alike: the same compiler, flags, structs and door.
 *
 * The lines are the kernel's (docs/damon-scoring.md, "Components"):
 * mm/damon/ops-common.c of v5.16 (the shift loop, aggr / sample kept in an
 * unsigned int), v6.6 (damon_max_nr_accesses()), the 2026 RFC (fls()) and
 * v2 (ilog2()), the July 2026 hotfix (the clamp, damon_max_nr_accesses()
 * that never returns 0), 6.7+'s nr_accesses_bp and mm-new's
 * damon_nr_accesses_mvsum().  The divisor is env.h's
 * damon_max_nr_accesses() for the base the object is compiled for: the
 * profile's own divisor.  Before it is timed, every copy is checked
 * against the model on every input (src/cli/bench_cand.c).
 */
#include <stdarg.h>
#include <stdio.h>

#include <hotscore/cand.h>

/* Appends to a buffer, remembering whether it overflowed. */
struct text {
	char *buf;
	size_t size, len;
};

static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(t->buf + (t->len < t->size ? t->len : t->size),
		      t->len < t->size ? t->size - t->len : 0, fmt, ap);
	va_end(ap);
	t->len += n > 0 ? (size_t)n : 0;
}

/*
 * fls() of the implementation the profile names: env.h's is the
 * architecture's (x86's bsrl), and with it ilog2(); the others are
 * defined here, as asm-generic and __builtin_clz() have them.
 */
static const char *fls_of(const struct hs_components *c, struct text *t)
{
	switch (c->fls) {
	case HS_FLS_GENERIC:
		add(t, "/* include/asm-generic/bitops/fls.h */\n"
		       "static __always_inline int hs_fls(unsigned int x)\n"
		       "{\n\tint r = 32;\n\n\tif (!x)\n\t\treturn 0;\n"
		       "\tif (!(x & 0xffff0000u)) {\n\t\tx <<= 16;\n\t\tr -= 16;\n\t}\n"
		       "\tif (!(x & 0xff000000u)) {\n\t\tx <<= 8;\n\t\tr -= 8;\n\t}\n"
		       "\tif (!(x & 0xf0000000u)) {\n\t\tx <<= 4;\n\t\tr -= 4;\n\t}\n"
		       "\tif (!(x & 0xc0000000u)) {\n\t\tx <<= 2;\n\t\tr -= 2;\n\t}\n"
		       "\tif (!(x & 0x80000000u)) {\n\t\tx <<= 1;\n\t\tr -= 1;\n\t}\n"
		       "\treturn r;\n}\n\n");
		return "hs_fls";
	case HS_FLS_BUILTIN:
		add(t, "static __always_inline int hs_fls(unsigned int x)\n"
		       "{\n\treturn x ? 32 - __builtin_clz(x) : 0;\n}\n\n");
		return "hs_fls";
	default:
		return NULL;	/* env.h's fls() and ilog2() */
	}
}

/* The frequency line. */
static void freq_line(const struct hs_components *c, struct text *t)
{
	static const char *const count[HS_NR_FREQ] = {
		"r->nr_accesses",
		"damon_nr_accesses_mvsum(r, c)",
		"r->nr_accesses_bp / 10000",
	};

	if (c->freq == HS_FREQ_RAW)
		add(t, "\tfreq_subscore = r->nr_accesses * DAMON_MAX_SUBSCORE /\n"
		       "\t\tdamon_max_nr_accesses(&c->attrs);\n\n");
	else
		add(t, "\tfreq_subscore = mult_frac(%s, DAMON_MAX_SUBSCORE,\n"
		       "\t\t\tdamon_max_nr_accesses(&c->attrs));\n\n",
		    count[c->freq]);
}

/* age_in_log, from age_in_sec. */
static void age_lines(const struct hs_components *c, const char *fls,
		      struct text *t)
{
	add(t, "\tage_in_sec = (unsigned long)r->age * c->attrs.aggr_interval / 1000000;\n");
	switch (c->agelog) {
	case HS_AGELOG_FLS:
		add(t, "\tage_in_log = min_t(int, %s(age_in_sec), DAMON_MAX_AGE_IN_LOG);\n",
		    fls ? fls : "fls");
		break;
	case HS_AGELOG_ILOG2:
		if (fls)	/* __ilog2_u32(): fls(n) - 1 */
			add(t, "\tage_in_log = age_in_sec ?\n"
			       "\t\tmin_t(int, %s(age_in_sec) - 1 + 1, DAMON_MAX_AGE_IN_LOG) : 0;\n",
			    fls);
		else
			add(t, "\tage_in_log = age_in_sec ?\n"
			       "\t\tmin_t(int, ilog2(age_in_sec) + 1, DAMON_MAX_AGE_IN_LOG) : 0;\n");
		break;
	default:
		add(t, "\tfor (age_in_log = 0; age_in_log < DAMON_MAX_AGE_IN_LOG &&\n"
		       "\t\t\tage_in_sec; age_in_log++, age_in_sec >>= 1)\n\t\t;\n");
		break;
	}
}

/* What every version has after age_in_log, up to the clamp. */
static void tail_lines(const struct hs_components *c, struct text *t)
{
	add(t, "\n\t/* If frequency is 0, higher age means it's colder */\n"
	       "\tif (freq_subscore == 0)\n\t\tage_in_log *= -1;\n\n"
	       "\t/*\n\t * Now age_in_log is in [-DAMON_MAX_AGE_IN_LOG, DAMON_MAX_AGE_IN_LOG].\n"
	       "\t * Scale it to be in [0, 100] and set it as age subscore.\n\t */\n"
	       "\tage_in_log += DAMON_MAX_AGE_IN_LOG;\n"
	       "\tage_subscore = age_in_log * DAMON_MAX_SUBSCORE /\n"
	       "\t\tDAMON_MAX_AGE_IN_LOG / 2;\n\n"
	       "\thotness = (freq_weight * freq_subscore + age_weight * age_subscore);\n"
	       "\tif (freq_weight + age_weight)\n"
	       "\t\thotness /= freq_weight + age_weight;\n"
	       "\t/*\n\t * Transform it to fit in [0, DAMOS_MAX_SCORE]\n\t */\n"
	       "\thotness = hotness * DAMOS_MAX_SCORE / DAMON_MAX_SUBSCORE;\n\n");
	if (c->clamp == HS_CLAMP_0_99)
		add(t, "\treturn max(min(hotness, DAMOS_MAX_SCORE), 0);\n}\n");
	else
		add(t, "\treturn hotness;\n}\n");
}

/**
 * hs_cand_source() - @c's damon_hot_score() as mm/damon/ops-common.c has
 * it, a candidate file's text; compile it for the base @c->divisor.
 * @c:		the components.
 * @buf:	receives the text, NUL-terminated.
 * @size:	of @buf (4 KiB is enough).
 *
 * Return: 0, or -1 if @buf is too small.
 */
int hs_cand_source(const struct hs_components *c, char *buf, size_t size)
{
	struct text t = { buf, size, 0 };
	const char *fls;
	char name[64];

	hs_components_format(c, name, sizeof(name));
	add(&t, "// SPDX-License-Identifier: GPL-2.0\n"
		"/* %s: written by hotscore (src/cand/source.c) */\n", name);
	fls = fls_of(c, &t);
	add(&t, "int damon_hot_score(struct damon_ctx *c, struct damon_region *r,\n"
		"\t\t\tstruct damos *s)\n{\n"
		"\tint freq_subscore;\n\tunsigned int age_in_sec;\n"
		"\tint age_in_log, age_subscore;\n"
		"\tunsigned int freq_weight = s->quota.weight_nr_accesses;\n"
		"\tunsigned int age_weight = s->quota.weight_age;\n"
		"\tint hotness;\n\n");
	freq_line(c, &t);
	age_lines(c, fls, &t);
	tail_lines(c, &t);
	return t.len < size ? 0 : -1;
}
