// SPDX-License-Identifier: GPL-2.0
/*
 * profiles.c - named kernel versions and the names of each component.
 *
 * Kernel-safe: string handling is done by hand, no library calls.
 */
#include <hotscore/kernel.h>
#include <hotscore/score.h>
#include <hotscore/str.h>

#define HS_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define HS_PROFILE_ROW(id, name, freq, div, age, fls, clamp, what)	\
	{ name, HS_COMPONENTS(freq, div, age, fls, clamp), what },

/* The rows and their sources: HS_PROFILE_LIST in score.h. */
const struct hs_profile hs_profiles[] = { HS_PROFILE_LIST(HS_PROFILE_ROW) };
const unsigned int hs_nr_profiles = HS_ARRAY_SIZE(hs_profiles);

static const char *const freq_names[HS_NR_FREQ] = { "raw", "mvsum", "bp" };
static const char *const divisor_names[HS_NR_DIVISOR] = {
	"u32-trunc", "max-nr", "safe" };
static const char *const clamp_names[HS_NR_CLAMP] = { "none", "clamp" };
/* Indexed by agelog * HS_NR_FLS_IMPL + fls implementation. */
static const char *const agelog_names[HS_NR_AGELOG * HS_NR_FLS_IMPL] = {
	"loop", "loop", "loop", "loop",
	"fls", "fls-generic", "fls-bsr", "fls-builtin",
	"ilog2", "ilog2-generic", "ilog2-bsr", "ilog2-builtin",
};

/* Compare the first @len bytes of @s with the whole of @name. */
static bool hs_word_is(const char *s, unsigned int len, const char *name)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		if (name[i] != s[i])
			return false;
	return name[len] == '\0';
}

/*
 * hs_freq_name(), hs_divisor_name(), hs_clamp_name(), hs_agelog_name(): the
 * names --profile accepts and --list-profiles prints; "?" if out of range.
 */
const char *hs_freq_name(enum hs_freq f)
{
	return f < HS_NR_FREQ ? freq_names[f] : "?";
}

const char *hs_divisor_name(enum hs_divisor d)
{
	return d < HS_NR_DIVISOR ? divisor_names[d] : "?";
}

const char *hs_clamp_name(enum hs_clamp c)
{
	return c < HS_NR_CLAMP ? clamp_names[c] : "?";
}

const char *hs_agelog_name(enum hs_agelog a, enum hs_fls_impl impl)
{
	if (a >= HS_NR_AGELOG || impl >= HS_NR_FLS_IMPL)
		return "?";
	return agelog_names[a * HS_NR_FLS_IMPL + impl];
}

/**
 * hs_status_name() - the status as printed: ok, out-of-range or div0(...).
 * @res: the result.
 *
 * A div0 names the divisor that is zero, by its kernel variable name.
 *
 * Return: a static string.
 */
const char *hs_status_name(const struct hs_result *res)
{
	switch (res->status) {
	case HS_OK:
		return "ok";
	case HS_OUT_OF_RANGE:
		return "out-of-range";
	default:
		break;
	}
	switch (res->div0) {
	case HS_DIV0_SAMPLE:
		return "div0(sample_interval)";
	case HS_DIV0_MAX_NR:
		return "div0(max_nr_accesses)";
	case HS_DIV0_WINDOW:
		return "div0(window_len)";
	default:
		return "div0";
	}
}

/**
 * hs_profile_find() - look a profile up by name.
 * @name: e.g. "v6.6".
 *
 * Return: the profile, or NULL.
 */
const struct hs_profile *hs_profile_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < hs_nr_profiles; i++)
		if (hs_streq(hs_profiles[i].name, name))
			return &hs_profiles[i];
	return NULL;
}

/* The index of the name in @names that @word (of @len bytes) is, or -1. */
static int hs_lookup(const char *const *names, unsigned int n,
		     const char *word, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (hs_word_is(word, len, names[i]))
			return (int)i;
	return -1;
}

/* Set the component that @word (of @len bytes) names, by @slot. */
static bool hs_parse_word(const char *word, unsigned int len, int slot,
			  struct hs_components *c)
{
	int i;

	switch (slot) {
	case 0:
		i = hs_lookup(freq_names, HS_NR_FREQ, word, len);
		if (i >= 0)
			c->freq = i;
		break;
	case 1:
		i = hs_lookup(divisor_names, HS_NR_DIVISOR, word, len);
		if (i >= 0)
			c->divisor = i;
		break;
	case 2:
		/* "loop" matches first at index 0: the arch fls, unused */
		i = hs_lookup(agelog_names, HS_NR_AGELOG * HS_NR_FLS_IMPL,
			      word, len);
		if (i >= 0) {
			c->agelog = i / HS_NR_FLS_IMPL;
			c->fls = i % HS_NR_FLS_IMPL;
		}
		break;
	default:
		i = hs_lookup(clamp_names, HS_NR_CLAMP, word, len);
		if (i >= 0)
			c->clamp = i;
		break;
	}
	return i >= 0;
}

/**
 * hs_components_parse() - parse a profile name or a component list.
 * @spec:	a profile name ("hotfix") or FREQ+DIVISOR+AGELOG+CLAMP
 *		("raw+max-nr+fls-bsr+none").
 * @out:	receives the components.
 *
 * Return: 0 on success; -1 if @spec is neither; -2 if it names an fls
 * implementation this build cannot run (bsr off x86-64).
 */
int hs_components_parse(const char *spec, struct hs_components *out)
{
	const struct hs_profile *p = hs_profile_find(spec);
	struct hs_components c = { 0 };
	const char *word = spec;
	int slot = 0;

	if (p) {
		c = p->comp;
	} else {
		for (;;) {
			const char *end = word;

			while (*end && *end != '+')
				end++;
			if (slot > 3 || end == word ||
			    !hs_parse_word(word, (unsigned int)(end - word),
					   slot, &c))
				return -1;
			slot++;
			if (!*end)
				break;
			word = end + 1;
		}
		if (slot != 4)
			return -1;
	}
	if (!hs_components_available(&c))
		return -2;
	*out = c;
	return 0;
}

/**
 * hs_components_available() - can this build compute @comp?
 * @comp: the components.
 *
 * Return: false only for an x86 bsr fls on another architecture.
 */
bool hs_components_available(const struct hs_components *comp)
{
	return comp->agelog == HS_AGELOG_LOOP || comp->fls != HS_FLS_BSR ||
		HS_HAVE_BSR;
}

/**
 * hs_components_format() - write @comp as FREQ+DIVISOR+AGELOG+CLAMP.
 * @comp:	the components.
 * @buf:	destination, always NUL-terminated when @size > 0.
 * @size:	its size.
 *
 * Return: the length of the full string (like snprintf()).
 */
int hs_components_format(const struct hs_components *comp, char *buf,
			 unsigned int size)
{
	unsigned int n = 0;

	n = hs_strappend(buf, size, n, hs_freq_name(comp->freq));
	n = hs_strappend(buf, size, n, "+");
	n = hs_strappend(buf, size, n, hs_divisor_name(comp->divisor));
	n = hs_strappend(buf, size, n, "+");
	n = hs_strappend(buf, size, n, hs_agelog_name(comp->agelog, comp->fls));
	n = hs_strappend(buf, size, n, "+");
	n = hs_strappend(buf, size, n, hs_clamp_name(comp->clamp));
	return (int)n;
}

/**
 * hs_base_pick() - the base rule, one for every front end: a candidate is
 * compiled against, and compared with, the profile the user gave (--base,
 * --against, against=), else the first model named beside it, else the
 * hotfix (docs/your-change.md).  The base's damon_max_nr_accesses() is the
 * one the candidate's kernel has.
 * @given:	the profile given, or NULL.
 * @first:	the first model named beside the candidate, or NULL.
 * @first_name:	its name: a profile's, or anything else for a combination
 *		(which is then named by its components).
 * @out:	receives the base's components.
 * @name:	receives its name, as `hotscore score --profile` takes it.
 * @size:	of @name.
 */
void hs_base_pick(const struct hs_profile *given,
		  const struct hs_components *first, const char *first_name,
		  struct hs_components *out, char *name, unsigned int size)
{
	const struct hs_profile *p = given;

	if (!p && first) {
		p = hs_profile_find(first_name);
		if (!p) {
			*out = *first;
			hs_components_format(first, name, size);
			return;
		}
	}
	if (!p)
		p = hs_profile_find("hotfix");
	*out = p->comp;
	hs_strappend(name, size, 0, p->name);
}
