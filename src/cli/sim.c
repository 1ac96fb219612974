// SPDX-License-Identifier: GPL-2.0
/*
 * sim.c - `hotscore sim`: kdamond and DAMOS over a masim workload, with the
 * cost of each stage and of the score function in context.
 *
 * Options follow damo's names (src/_damon_args.py); each --damos_* option
 * may be repeated, its n-th use going to the n-th --damos_action.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hotscore/simd.h>

#include "cli.h"
#include "sim.h"

#define NO_LIMIT	UINT64_MAX
/* 4x the 1,000,000 regions benchmarked; about 0.5 GB of region arrays */
#define SIM_MAX_REGIONS	(1UL << 22)
#define SIM_MAX_US	(30ULL * 24 * 3600 * 1000000)	/* times: 30 days */
#define SIM_MAX_SAMPLES	1000000000ULL		/* per run */
#define SIM_MAX_RECORD	20000000ULL	/* --record: snapshots x regions */

/* A scheme as given, before the intervals turn it into kernel units. */
struct scheme_spec {
	int action;
	uint64_t rate_bp[2];		/* access rate, 1/100 of a percent */
	uint64_t sz[2];			/* bytes */
	uint64_t age_us[2];
	uint64_t apply_us;
	uint64_t quota[6];		/* ms, bytes, reset ms, w_sz, w_nr, w_age */
};

/* How many times each scheme option was given. */
enum { O_ACTION, O_RATE, O_SZ, O_AGE, O_APPLY, O_QUOTAS, NR_O };

static const char *const scheme_opts[NR_O] = {
	"damos_action", "damos_access_rate", "damos_sz_region", "damos_age",
	"damos_apply_interval", "damos_quotas",
};

static void usage(void)
{
	puts("usage: hotscore sim [OPTIONS]\n"
	     "\n"
	     "Simulate kdamond (linux-mm 2026) and DAMOS over a masim workload,\n"
	     "far faster than real time; report what the quota picked and what\n"
	     "each stage, and the score function, cost in context.\n"
	     "\n"
	     "  --workload NAME|FILE  stairs (default), zigzag, or a masim config\n"
	     "  --ops vaddr|paddr     monitoring operations (default vaddr)\n"
	     "  --rate N              workload memory accesses per ms (100000)\n"
	     "  --duration T          simulated time (default: one workload pass)\n"
	     "  --seed N              damon_rand() and workload seed (default 1)\n"
	     "  --sample T --aggr T --updr T   intervals (5ms, 100ms, 60s)\n"
	     "  --minr N --maxr N     min/max nr_regions (10, 1000)\n"
	     "  --damos_action ACT    stat pageout lru_prio lru_deprio migrate_hot\n"
	     "                        migrate_cold; starts a scheme\n"
	     "  --damos_access_rate MIN MAX   percent, e.g. 0% 0%\n"
	     "  --damos_sz_region MIN MAX     bytes, e.g. 4KiB max\n"
	     "  --damos_age MIN MAX           time, e.g. 2s max\n"
	     "  --damos_apply_interval T      (default: the aggregation interval)\n"
	     "  --damos_quotas MS [BYTES [RESET_MS [W_SZ [W_NR [W_AGE]]]]]\n"
	     "  --profile NAME        the damon_hot_score() profile (mm-new)\n"
	     "  --compare-profiles A,B  run twice, prove identical decisions\n"
	     "  --scorer NAME         kernel (damon_hot_score() a region, the\n"
	     "                        default), fast (prepared, fast.h) or\n"
	     "                        fast-batch (prepared, all regions a call)\n"
	     "  --compare-scorers A,B   run the profile with both, prove identical\n"
	     "                        decisions, compare the score stage's cost\n"
	     "  --capture N           score inputs kept for the cost replay\n"
	     "                        (4096; 0: no replay)\n"
	     "  --no-timing           no stage clock, no replay\n"
	     "  --record FILE         damo's JSON record format\n"
	     "  --heatmap FILE.svg    time x address, colour = access frequency\n"
	     "  --json FILE           stats and costs\n"
	     "\n"
	     "With no scheme options: --damos_action pageout --damos_access_rate\n"
	     "0% 0% --damos_age 2s max --damos_quotas 10 8MiB 1000 0 0 1.\n"
	     "T takes ns, us (default), ms, s, m, h.  Sizes take B, K/KiB,\n"
	     "M/MiB, G/GiB, T/TiB (1024) or KB, MB, GB, TB (1000).");
}

/*
 * "12.5" as 12500000000 (the value times 10^9).  Return the rest of @s, or
 * NULL if @s does not start with a number or has more than 9 decimals.
 */
static const char *parse_fixed(const char *s, unsigned __int128 *out)
{
	unsigned __int128 v = 0;
	unsigned int frac = 0;
	bool digits = false, dot = false;

	for (; *s; s++) {
		if (*s == '.' && !dot) {
			dot = true;
			continue;
		}
		if (*s < '0' || *s > '9')
			break;
		if (dot && ++frac > 9)
			return NULL;
		digits = true;
		v = v * 10 + (unsigned)(*s - '0');
		if (v >> 100)
			return NULL;
	}
	if (!digits)
		return NULL;
	for (; frac < 9; frac++)
		v *= 10;
	*out = v;
	return s;
}

/* A value with a unit: value * mult, which must be a whole number. */
static uint64_t scaled(const char *opt, const char *s, const char *unit,
		       unsigned __int128 fixed, uint64_t mult, uint64_t div)
{
	unsigned __int128 v = fixed * mult;

	if (v % (1000000000ULL * (unsigned __int128)div))
		hs_die("%s: '%s': not a whole number of %s", opt, s, unit);
	v /= 1000000000ULL * (unsigned __int128)div;
	if (v >= NO_LIMIT)
		hs_die("%s: '%s' is too large", opt, s);
	return (uint64_t)v;
}

/*
 * A time in microseconds: plain numbers are us, as in damo.  At most 30
 * days, so that simulated nanoseconds never wrap.
 */
static uint64_t opt_time(const char *opt, const char *s, bool allow_max)
{
	static const struct { const char *u; uint64_t ns; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000ULL }, { "m", 60000000000ULL },
		{ "h", 3600000000000ULL },
	};
	unsigned __int128 v;
	const char *rest;
	size_t i;

	if (allow_max && !strcmp(s, "max"))
		return NO_LIMIT;
	rest = parse_fixed(s, &v);
	if (!rest)
		hs_die("%s: '%s' is not a time (e.g. 5000, 5ms, 1.5s; at most 9 decimals)",
		       opt, s);
	while (*rest == ' ')
		rest++;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		uint64_t us;

		if (strcmp(rest, units[i].u))
			continue;
		us = scaled(opt, s, "microseconds", v, units[i].ns, 1000);
		if (us > SIM_MAX_US)
			hs_die("%s: '%s' is longer than 30 days", opt, s);
		return us;
	}
	hs_die("%s: '%s': unknown unit '%s' (ns, us, ms, s, m, h)", opt, s,
	       rest);
}

/* A size in bytes: "min", "max", or a number with an optional unit. */
static uint64_t opt_size(const char *opt, const char *s)
{
	static const struct { const char *u; uint64_t mult; } units[] = {
		{ "", 1 }, { "B", 1 },
		{ "K", 1ULL << 10 }, { "KiB", 1ULL << 10 }, { "KB", 1000 },
		{ "M", 1ULL << 20 }, { "MiB", 1ULL << 20 }, { "MB", 1000000 },
		{ "G", 1ULL << 30 }, { "GiB", 1ULL << 30 },
		{ "GB", 1000000000ULL }, { "T", 1ULL << 40 },
		{ "TiB", 1ULL << 40 }, { "TB", 1000000000000ULL },
	};
	unsigned __int128 v;
	const char *rest;
	size_t i;

	if (!strcmp(s, "min"))
		return 0;
	if (!strcmp(s, "max"))
		return NO_LIMIT;
	rest = parse_fixed(s, &v);
	if (!rest)
		hs_die("%s: '%s' is not a size (e.g. 4096, 4KiB, 8MiB, max)",
		       opt, s);
	while (*rest == ' ')
		rest++;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(rest, units[i].u))
			return scaled(opt, s, "bytes", v, units[i].mult, 1);
	hs_die("%s: '%s': unknown unit '%s' (B, KiB, MiB, GiB, TiB, KB, ...)",
	       opt, s, rest);
}

/* An access rate in 1/100 percent: "0%", "12.5", "min", "max". */
static uint64_t opt_rate(const char *opt, const char *s)
{
	unsigned __int128 v;
	const char *rest;
	uint64_t bp;

	if (!strcmp(s, "min"))
		return 0;
	if (!strcmp(s, "max"))
		return NO_LIMIT;
	rest = parse_fixed(s, &v);
	if (!rest || (*rest && strcmp(rest, "%")))
		hs_die("%s: '%s' is not a percentage (e.g. 0%%, 12.5%%, max)",
		       opt, s);
	if (v > (unsigned __int128)100 * 1000000000)
		hs_die("%s: '%s' is above 100%%", opt, s);
	bp = scaled(opt, s, "1/100 percent", v, 100, 1);
	return bp;
}

/* The next argument of a multi-value option, or exit 2. */
static const char *next_arg(int argc, char **argv, int *i, const char *opt)
{
	if (*i + 1 >= argc || !strncmp(argv[*i + 1], "--", 2))
		hs_die("--%s needs more values; see hotscore sim --help", opt);
	return argv[++*i];
}

static struct scheme_spec *spec_for(struct scheme_spec *specs,
				    unsigned int *count, int opt)
{
	unsigned int n = count[opt]++;

	if (opt != O_ACTION && n >= count[O_ACTION])
		hs_die("--%s given %u times but --damos_action only %u: each scheme starts with --damos_action",
		       scheme_opts[opt], n + 1, count[O_ACTION]);
	if (n >= HS_MAX_SCHEMES)
		hs_die("--%s: at most %d schemes", scheme_opts[opt],
		       HS_MAX_SCHEMES);
	return &specs[n];
}

static void spec_defaults(struct scheme_spec *sp)
{
	memset(sp, 0, sizeof(*sp));
	sp->rate_bp[1] = NO_LIMIT;
	sp->sz[1] = NO_LIMIT;
	sp->age_us[1] = NO_LIMIT;
	sp->quota[2] = NO_LIMIT;	/* damo: reset interval "max" */
}

/* min above max matches nothing: the kernel takes it, a user meant else */
static void check_range(const char *opt, const uint64_t *v, const char *min,
			const char *max)
{
	if (v[0] > v[1])
		hs_die("--%s: min '%s' is above max '%s'", opt, min, max);
}

static int parse_scheme_opt(int argc, char **argv, int *i,
			    struct scheme_spec *specs, unsigned int *count)
{
	const char *arg = argv[*i] + 2, *v;
	struct scheme_spec *sp;
	int opt, k;

	for (opt = 0; opt < NR_O; opt++)
		if (!strcmp(arg, scheme_opts[opt]))
			break;
	if (opt == NR_O)
		return 0;
	sp = spec_for(specs, count, opt);
	switch (opt) {
	case O_ACTION:
		spec_defaults(sp);
		v = next_arg(argc, argv, i, arg);
		sp->action = hs_action_parse(v);
		if (sp->action < 0)
			hs_die("--damos_action: '%s' is not simulated (stat, pageout, lru_prio, lru_deprio, migrate_hot, migrate_cold)", v);
		break;
	case O_RATE:
		for (k = 0; k < 2; k++)
			sp->rate_bp[k] = opt_rate("--damos_access_rate",
						  next_arg(argc, argv, i, arg));
		check_range(arg, sp->rate_bp, argv[*i - 1], argv[*i]);
		break;
	case O_SZ:
		for (k = 0; k < 2; k++)
			sp->sz[k] = opt_size("--damos_sz_region",
					     next_arg(argc, argv, i, arg));
		check_range(arg, sp->sz, argv[*i - 1], argv[*i]);
		break;
	case O_AGE:
		for (k = 0; k < 2; k++)
			sp->age_us[k] = opt_time("--damos_age",
						 next_arg(argc, argv, i, arg),
						 true);
		check_range(arg, sp->age_us, argv[*i - 1], argv[*i]);
		break;
	case O_APPLY:
		sp->apply_us = opt_time("--damos_apply_interval",
					next_arg(argc, argv, i, arg), false);
		break;
	case O_QUOTAS:
		/* <ms> [<bytes> [<reset ms> [<w_sz> [<w_nr> [<w_age>]]]]] */
		for (k = 0; k < 6; k++) {
			if (k && (*i + 1 >= argc ||
				  !strncmp(argv[*i + 1], "--", 2)))
				break;
			v = next_arg(argc, argv, i, arg);
			if (k == 1)
				sp->quota[k] = opt_size("--damos_quotas", v);
			else
				sp->quota[k] = hs_option_number("--damos_quotas", v, 0, k >= 3 ? UINT32_MAX : ULONG_MAX);
		}
		break;
	}
	return 1;
}

static unsigned long clamp_ul(uint64_t v)
{
	return v > ULONG_MAX ? ULONG_MAX : (unsigned long)v;
}

static unsigned int clamp_u(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (unsigned int)v;
}

/* damo's conversions: percent of aggr/sample samples; age in aggrs. */
static void spec_to_scheme(const struct scheme_spec *sp,
			   const struct hs_attrs *a, struct hs_scheme *s)
{
	uint64_t max_nr = a->aggr_us / a->sample_us;
	int k;

	memset(s, 0, sizeof(*s));
	s->action = (enum hs_action)sp->action;
	for (k = 0; k < 2; k++) {
		unsigned int nr = sp->rate_bp[k] == NO_LIMIT ? UINT32_MAX :
			clamp_u(sp->rate_bp[k] * max_nr / 10000);
		unsigned int age = sp->age_us[k] == NO_LIMIT ? UINT32_MAX :
			clamp_u(sp->age_us[k] / a->aggr_us);

		if (k) {
			s->pattern.max_nr = nr;
			s->pattern.max_age = age;
			s->pattern.max_sz = clamp_ul(sp->sz[k]);
		} else {
			s->pattern.min_nr = nr;
			s->pattern.min_age = age;
			s->pattern.min_sz = clamp_ul(sp->sz[k]);
		}
	}
	s->apply_us = clamp_ul(sp->apply_us);
	s->quota.ms = clamp_ul(sp->quota[0]);
	s->quota.sz = clamp_ul(sp->quota[1]);
	s->quota.reset_ms = clamp_ul(sp->quota[2]);
	s->quota.weight_sz = clamp_u(sp->quota[3]);
	s->quota.weight_nr = clamp_u(sp->quota[4]);
	s->quota.weight_age = clamp_u(sp->quota[5]);
}

/* The default scheme: DAMON_RECLAIM's shape, with a quota that binds. */
static void default_scheme(struct scheme_spec *sp)
{
	spec_defaults(sp);
	sp->action = HS_ACT_PAGEOUT;
	sp->rate_bp[0] = sp->rate_bp[1] = 0;
	sp->age_us[0] = 2000000;
	sp->quota[0] = 10;
	sp->quota[1] = 8ULL << 20;
	sp->quota[2] = 1000;
	sp->quota[5] = 1;
}

static void parse_profiles(struct sim_cmd *c, const char *list)
{
	const char *comma = strchr(list, ',');
	static char first[64];

	if (!comma || strchr(comma + 1, ',') || comma == list ||
	    !comma[1] || (size_t)(comma - list) >= sizeof(first))
		hs_die("--compare-profiles: '%s' is not two profiles A,B", list);
	memcpy(first, list, (size_t)(comma - list));
	first[comma - list] = '\0';
	c->profiles[0] = first;
	c->profiles[1] = comma + 1;
	c->nr_runs = 2;
	c->compare = true;
}

static enum hs_scorer scorer_arg(const char *opt, const char *name)
{
	int s = hs_scorer_parse(name);

	if (s < 0)
		hs_die("%s: '%s' is not kernel, fast or fast-batch", opt,
		       name);
	return (enum hs_scorer)s;
}

static void parse_scorers(struct sim_cmd *c, const char *list)
{
	const char *comma = strchr(list, ',');
	char first[64];

	if (!comma || strchr(comma + 1, ',') || comma == list ||
	    !comma[1] || (size_t)(comma - list) >= sizeof(first))
		hs_die("--compare-scorers: '%s' is not two scorers A,B", list);
	memcpy(first, list, (size_t)(comma - list));
	first[comma - list] = '\0';
	c->scorers[0] = scorer_arg("--compare-scorers", first);
	c->scorers[1] = scorer_arg("--compare-scorers", comma + 1);
	if (c->scorers[0] == c->scorers[1])
		hs_die("--compare-scorers: '%s' names one scorer twice", list);
	c->nr_runs = 2;
	c->compare = c->compare_scorers = true;
}

static const struct hs_variant *profile_variant(const struct sim_cmd *c,
						const char *name)
{
	const char *opt = c->compare && !c->compare_scorers ?
		"--compare-profiles" : "--profile";
	const struct hs_variant *v;

	if (!hs_profile_find(name))
		hs_die("%s: no profile '%s' (hotscore score --list-profiles)",
		       opt, name);
	v = hs_variant_find(name);
	if (!v)
		hs_die("%s: '%s' has no compiled variant", opt, name);
	return v;
}

static char *read_file(const char *path, size_t *lenp)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t len = 0, cap = 4096, got;

	if (!f)
		hs_die("--workload: %s: %s (built-in: stairs, zigzag)", path,
		       strerror(errno));
	buf = malloc(cap);
	while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
		len += got;
		if (len == cap) {
			if (cap >= 16 << 20)
				hs_die("--workload: %s: larger than 16 MiB",
				       path);
			buf = realloc(buf, cap *= 2);
		}
	}
	if (!buf)
		hs_die("sim: out of memory");
	if (ferror(f))
		hs_die("--workload: %s: %s", path, strerror(errno));
	fclose(f);
	*lenp = len;
	return buf;
}

static void parse_args(struct sim_cmd *c, int argc, char **argv)
{
	struct scheme_spec specs[HS_MAX_SCHEMES];
	unsigned int count[NR_O] = { 0 }, k;
	struct hs_attrs *a = &c->cfg.attrs;
	bool have_duration = false, have_profile = false, have_scorer = false;
	bool compare_profiles = false, have_capture = false;
	const char *v;
	int i;

	memset(c, 0, sizeof(*c));
	c->workload = "stairs";
	c->profiles[0] = "mm-new";
	c->nr_runs = 1;
	c->rate = HS_WL_DEFAULT_RATE;
	c->timing = true;
	c->cfg.seed = 1;
	c->cfg.hz = 250;
	c->cfg.capture = 4096;
	c->cfg.max_events = 1 << 20;
	*a = (struct hs_attrs){ 5000, 100000, 60000000, 10, 1000,
				HS_PAGE_SIZE };
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage();
			exit(0);
		}
		if (!strncmp(argv[i], "--damos_", 8) &&
		    parse_scheme_opt(argc, argv, &i, specs, count))
			continue;
		if (hs_opt(argc, argv, &i, "workload", &v))
			c->workload = v;
		else if (hs_opt(argc, argv, &i, "ops", &v)) {
			if (strcmp(v, "vaddr") && strcmp(v, "paddr"))
				hs_die("--ops: '%s' is not vaddr or paddr", v);
			c->ops = !strcmp(v, "paddr") ? HS_OPS_PADDR :
				HS_OPS_VADDR;
		} else if (hs_opt(argc, argv, &i, "rate", &v))
			c->rate = hs_option_number("--rate", v, 1,
						   HS_WL_MAX_RATE);
		else if (hs_opt(argc, argv, &i, "duration", &v)) {
			c->cfg.duration_us = opt_time("--duration", v, false);
			have_duration = true;
			if (!c->cfg.duration_us)
				hs_die("--duration: '%s' is not positive", v);
		} else if (hs_opt(argc, argv, &i, "seed", &v))
			c->cfg.seed = hs_option_number("--seed", v, 0,
						       ULONG_MAX);
		else if (hs_opt(argc, argv, &i, "sample", &v))
			a->sample_us = clamp_ul(opt_time("--sample", v, false));
		else if (hs_opt(argc, argv, &i, "aggr", &v))
			a->aggr_us = clamp_ul(opt_time("--aggr", v, false));
		else if (hs_opt(argc, argv, &i, "updr", &v))
			a->ops_update_us = clamp_ul(opt_time("--updr", v,
							     false));
		else if (hs_opt(argc, argv, &i, "minr", &v))
			a->min_nr_regions = hs_option_number("--minr", v, 3,
							     SIM_MAX_REGIONS);
		else if (hs_opt(argc, argv, &i, "maxr", &v))
			a->max_nr_regions = hs_option_number("--maxr", v, 3,
							     SIM_MAX_REGIONS);
		else if (hs_opt(argc, argv, &i, "profile", &v)) {
			c->profiles[0] = v;
			have_profile = true;
		}
		else if (hs_opt(argc, argv, &i, "compare-profiles", &v)) {
			parse_profiles(c, v);
			compare_profiles = true;
		} else if (hs_opt(argc, argv, &i, "scorer", &v)) {
			c->scorers[0] = c->scorers[1] =
				scorer_arg("--scorer", v);
			have_scorer = true;
		} else if (hs_opt(argc, argv, &i, "compare-scorers", &v))
			parse_scorers(c, v);
		else if (hs_opt(argc, argv, &i, "capture", &v)) {
			c->cfg.capture = hs_option_number("--capture", v, 0,
							  1UL << 24);
			have_capture = true;
		}
		else if (hs_opt(argc, argv, &i, "no-timing", NULL))
			c->timing = false;
		else if (hs_opt(argc, argv, &i, "record", &v))
			c->record = v;
		else if (hs_opt(argc, argv, &i, "heatmap", &v))
			c->heatmap = v;
		else if (hs_opt(argc, argv, &i, "json", &v))
			c->json = v;
		else
			hs_die("sim: unknown option '%s'; try hotscore sim --help",
			       argv[i]);
	}
	if (have_profile && compare_profiles)
		hs_die("sim: give --profile or --compare-profiles, not both");
	if (compare_profiles && c->compare_scorers)
		hs_die("sim: give --compare-profiles or --compare-scorers, not both");
	if (have_scorer && c->compare_scorers)
		hs_die("sim: give --scorer or --compare-scorers, not both");
	if (have_capture && (c->compare_scorers || c->scorers[0]))
		hs_die("--capture: nothing is captured with a prepared scorer or --compare-scorers: the replay times the kernel's form");
	if (c->compare_scorers) {
		/* one profile, both scorers; nothing captured to replay, so
		 * that the score stage holds the same work in both runs */
		c->profiles[1] = c->profiles[0];
		c->cfg.capture = 0;
	}
	if (!a->sample_us)
		hs_die("--sample: must be at least 1us");
	if (a->sample_us > a->aggr_us)
		hs_die("--sample %luus is longer than --aggr %luus",
		       a->sample_us, a->aggr_us);
	if (a->min_nr_regions > a->max_nr_regions)
		hs_die("--minr %lu is larger than --maxr %lu",
		       a->min_nr_regions, a->max_nr_regions);
	if (!count[O_ACTION]) {
		default_scheme(&specs[0]);
		count[O_ACTION] = 1;
	}
	for (k = 0; k < count[O_ACTION]; k++)
		spec_to_scheme(&specs[k], a, &c->schemes[k]);
	c->cfg.schemes = c->schemes;
	c->cfg.nr_schemes = count[O_ACTION];
	c->cfg.ops = c->ops;
	if (!have_duration)
		c->cfg.duration_us = 0;	/* one pass: set from the workload */
	if (!c->timing)
		c->cfg.capture = 0;
}

static const char *load_workload(struct sim_cmd *c, const char **file,
				 size_t *len)
{
	const char *text = hs_workload_builtin(c->workload);

	*file = c->workload;
	if (text) {
		*len = strlen(text);
		return text;
	}
	if (!c->text)
		c->text = read_file(c->workload, &c->text_len);
	*len = c->text_len;
	return c->text;
}

static void setup_workload(struct sim_cmd *c, struct hs_workload *wl)
{
	const char *file, *text;
	char err[256];
	size_t len;

	text = load_workload(c, &file, &len);
	if (hs_workload_parse(text, len, file, wl, err, sizeof(err)))
		hs_die("--workload: %s", err);
	wl->rate = c->rate;
	wl->seed = c->cfg.seed;
	if (hs_workload_layout(wl, c->ops == HS_OPS_PADDR ? HS_WL_PADDR :
			       HS_WL_VADDR, err, sizeof(err)))
		hs_die("--workload: %s: %s", file, err);
	hs_workload_prepare(wl, c->cfg.attrs.sample_us);
}

/*
 * Keep the state after every aggregation, up to SIM_MAX_POINTS; then keep
 * every second one, every fourth..., so memory stays bounded.
 */
static void add_point(struct sim_run *run, const struct hs_sim *sim)
{
	const struct hs_workload *wl = sim->wl;
	struct sim_point *p;
	uint64_t wss = 0;
	size_t i;

	if (sim->nr_aggr % run->point_every)
		return;
	if (run->nr_points == SIM_MAX_POINTS) {
		for (i = 0; i < SIM_MAX_POINTS / 2; i++)
			run->points[i] = run->points[2 * i + 1];
		run->nr_points = SIM_MAX_POINTS / 2;
		run->point_every *= 2;
		if (sim->nr_aggr % run->point_every)
			return;
	}
	if (run->nr_points == run->cap_points) {
		run->cap_points = run->cap_points ? 2 * run->cap_points : 256;
		run->points = realloc(run->points, run->cap_points *
				      sizeof(*run->points));
		if (!run->points)
			hs_die("sim: out of memory");
	}
	for (i = 0; i < sim->nr; i++)
		if (sim->r[i].nr_accesses)
			wss += sim->r[i].end - sim->r[i].start;
	p = &run->points[run->nr_points++];
	p->t_us = hs_sim_now_us(sim);
	p->resident = (wl->nr_pages - wl->nr_out) << HS_PAGE_SHIFT;
	p->faults = wl->faults;
	p->wss = wss;
	p->nr_regions = sim->nr;
}

/* Called by kdamond at each aggregation, before the reset. */
static void on_aggregate(const struct hs_sim *sim, void *ctx)
{
	struct sim_run *run = ctx;

	add_point(run, sim);
	if (run->record)
		sim_record_snapshot(run, sim);
	if (run->heat)
		sim_heat_add(run->heat, sim);
}

static void show_progress(struct sim_run *run, const struct hs_sim *sim)
{
	uint64_t now = hs_host_now_ns();

	if (now - run->last_progress_ns < 200000000ULL)
		return;
	run->last_progress_ns = now;
	hs_progress("sim: %s: %.1f of %.1f s simulated, %zu regions",
		    run->profile, hs_sim_now_us(sim) / 1e6,
		    sim->cfg.duration_us / 1e6, sim->nr);
}

static void run_one(struct sim_cmd *c, struct sim_run *run, bool first)
{
	struct hs_sim_config cfg = c->cfg;
	char err[256];
	uint64_t t0;
	unsigned long steps = 0;

	run->variant = profile_variant(c, run->profile);
	run->point_every = 1;
	setup_workload(c, &run->wl);
	cfg.comp = run->variant->comp;
	cfg.score_fn = run->variant->fn;
	cfg.scorer = run->scorer;
	cfg.batch = hs_fast_batch_best;
	if (run->scorer != HS_SCORER_KERNEL)
		cfg.capture = 0;	/* the replay times the kernel's form */
	cfg.clock = c->timing ? &c->host.clock : NULL;
	cfg.on_aggregate = on_aggregate;
	cfg.ctx = run;
	if (first && c->record)
		sim_record_begin(run, c);	/* run->record is open */
	if (first && c->heatmap) {
		run->heat = calloc(1, sizeof(*run->heat));
		if (!run->heat)
			hs_die("sim: out of memory");
	}
	if (hs_sim_init(&run->sim, &cfg, &run->wl, err, sizeof(err)))
		hs_die("sim: %s", err);
	t0 = hs_host_now_ns();
	while (hs_sim_step(&run->sim))
		if (!(++steps & 1023))
			show_progress(run, &run->sim);
	run->wall_ns = hs_host_now_ns() - t0;
	hs_progress_done();
	if (c->timing && run->sim.nr_inputs) {
		hs_progress("sim: %s: timing the score function on %zu captured inputs",
			    run->profile, run->sim.nr_inputs);
		run->have_cost = !hs_sim_score_cost(&c->host.clock,
						    run->variant->fn,
						    run->sim.inputs,
						    run->sim.nr_inputs,
						    &run->cost);
		hs_progress_done();
	}
}

/* A score outside [0, 99] indexes past the kernel's histogram. */
static void report_overrun(const struct sim_run *run)
{
	const struct hs_input *in = &run->sim.overrun_in;
	char args[512];

	hs_score_args(in, args, sizeof(args));
	fprintf(stderr, "hotscore: sim: profile %s: damon_hot_score() returned %d at %.3f s: the kernel would write past regions_score_histogram[99]; stopped.  Reproduce: hotscore score --profile %s %s\n",
		run->profile, run->sim.overrun_hot,
		hs_sim_now_us(&run->sim) / 1e6, run->profile, args);
}

/*
 * The duration (one pass of the workload unless given) and what it
 * implies, checked before anything runs or is written.
 */
static void check_duration(struct sim_cmd *c)
{
	const struct hs_attrs *a = &c->cfg.attrs;
	struct hs_sim_config cfg = c->cfg;
	struct hs_workload wl;
	unsigned int k;
	char err[256];

	/* the workload file and every profile, before any output opens */
	setup_workload(c, &wl);
	if (!c->cfg.duration_us) {
		c->cfg.duration_us = wl.total_ms * 1000;
		if (c->cfg.duration_us > SIM_MAX_US)
			hs_die("--workload: %s: one pass is %.1f days; give --duration (at most 30 days)",
			       c->workload, c->cfg.duration_us / 86400e6);
	}
	hs_workload_free(&wl);
	for (k = 0; k < c->nr_runs; k++) {
		cfg.comp = profile_variant(c, c->profiles[k])->comp;
		if (hs_sim_check(&cfg, err, sizeof(err)))
			hs_die("sim: %s: %s", c->profiles[k], err);
	}
	if (c->cfg.duration_us / a->sample_us > SIM_MAX_SAMPLES)
		hs_die("--duration: %.1f s at --sample %lu us is more than 10^9 samples",
		       c->cfg.duration_us / 1e6, a->sample_us);
	/* about 150 bytes a region: keep a record under about 3 GB */
	if (c->record && (c->cfg.duration_us / a->aggr_us + 1) *
	    a->max_nr_regions > SIM_MAX_RECORD)
		hs_die("--record: %llu snapshots of up to %lu regions is too much; shorten --duration, raise --aggr or lower --maxr",
		       (unsigned long long)(c->cfg.duration_us / a->aggr_us + 1),
		       a->max_nr_regions);
}

static int close_output(FILE *f)
{
	return fclose(f) ? -1 : 0;
}

int hs_cmd_sim(int argc, char **argv)
{
	struct sim_cmd *c = calloc(1, sizeof(*c));
	int status = 0;
	unsigned int k;
	char err[256];

	if (!c)
		hs_die("sim: out of memory");
	parse_args(c, argc, argv);
	hs_check_simd_env();
	check_duration(c);	/* the workload and every profile, too */
	hs_command_line(c->command, sizeof(c->command), argc, argv);
	if (c->json)
		c->json_f = hs_open_output("--json", c->json);
	if (c->heatmap)
		c->heat_f = hs_open_output("--heatmap", c->heatmap);
	if (c->record)
		c->runs[0].record = hs_open_output("--record", c->record);
	if (c->timing) {
		hs_host_fixed_layout(hs_argv);
		if (hs_host_init(&c->host, -1, HS_CLOCK_AUTO, err,
				 sizeof(err)))
			hs_die("sim: %s", err);
	}
	for (k = 0; k < c->nr_runs; k++) {
		c->runs[k].profile = c->profiles[k];
		c->runs[k].scorer = c->scorers[k];
		snprintf(c->runs[k].label, sizeof(c->runs[k].label), "%s%s%s",
			 c->profiles[k], c->scorers[k] ? "/" : "",
			 c->scorers[k] ? hs_scorer_name(c->scorers[k]) : "");
		run_one(c, &c->runs[k], k == 0);
		if (c->runs[k].sim.overrun) {
			report_overrun(&c->runs[k]);
			status = 1;
		}
	}
	if (c->record && sim_record_end(&c->runs[0]))
		hs_die("--record: %s: %s", c->record, strerror(errno));
	if (c->heatmap && sim_heat_write(c->runs[0].heat, c, c->heat_f))
		hs_die("--heatmap: %s: %s", c->heatmap, strerror(errno));
	if (c->json && (sim_write_json(c, c->json_f) ||
			close_output(c->json_f)))
		hs_die("--json: %s: %s", c->json, strerror(errno));
	sim_report(stdout, c);
	if (c->compare && sim_compare(stdout, c))
		status = status ? status : 1;
	if (c->timing)
		hs_host_fini(&c->host);
	for (k = 0; k < c->nr_runs; k++) {
		hs_sim_free(&c->runs[k].sim);
		hs_workload_free(&c->runs[k].wl);
		free(c->runs[k].points);
		free(c->runs[k].heat);
	}
	free(c->text);
	free(c);
	return status;
}
