// SPDX-License-Identifier: GPL-2.0
/*
 * test_spec.c - what scores (src/spec/spec.c): the one parser of --profile
 * items, the one base rule, and the one score path, model or candidate.
 * Candidates here are stand-ins (function pointers), so nothing compiles.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hotscore/spec.h>

#include "check.h"

static int hot_120(const struct hs_input *in)
{
	(void)in;
	return 120;		/* past the histogram: out-of-range */
}

static int cold_of(const struct hs_input *in)
{
	(void)in;
	return 7;
}

static int hot_trap(const struct hs_input *in)
{
	(void)in;
	raise(SIGFPE);
	return 0;
}

static const struct hs_cand wide = {
	.path = "wide.c", .hot = hot_120, .cold = cold_of, .has_cold = true,
};
static const struct hs_cand trapping = {
	.path = "trap.c", .hot = hot_trap, .cold = cold_of, .has_cold = true,
};

static void test_parse_kinds(void)
{
	struct hs_spec sp;

	CHECK_EQ(hs_spec_parse("v6.6", &sp), 0);
	CHECK_EQ(sp.kind, HS_SPEC_PROFILE);
	CHECK(!strcmp(sp.name, "v6.6"), "name %s", sp.name);
	CHECK(hs_spec_is_model(&sp), "a profile is a model");

	CHECK_EQ(hs_spec_parse("raw+max-nr+loop+none", &sp), 0);
	CHECK_EQ(sp.kind, HS_SPEC_COMBINATION);
	CHECK(!memcmp(&sp.comp, &hs_profile_find("v6.6")->comp,
		      sizeof(sp.comp)), "v6.6's components");

	CHECK_EQ(hs_spec_parse("mine=./x/y.c", &sp), 0);
	CHECK_EQ(sp.kind, HS_SPEC_CAND);
	CHECK(!hs_spec_is_model(&sp), "a file is no model");
	CHECK(!strcmp(sp.given, "mine=./x/y.c"), "given %s", sp.given);

	CHECK_EQ(hs_spec_parse("v9", &sp), HS_SPEC_UNKNOWN);
	CHECK_EQ(hs_spec_parse("raw+max-nr+loop", &sp), HS_SPEC_UNKNOWN);
}

static void test_parse_too_long(void)
{
	char s[300];
	struct hs_spec sp;

	memset(s, 'a', sizeof(s) - 3);
	strcpy(s + sizeof(s) - 3, ".c");
	CHECK_EQ(hs_spec_parse(s, &sp), HS_SPEC_TOO_LONG);
	CHECK_EQ(hs_spec_parse_file(s, &sp), HS_SPEC_TOO_LONG);
}

static void test_cand_path(void)
{
	const char *s = "mine=./x/y.c";

	CHECK(hs_spec_cand_path(s, false) == s + 5, "label split");
	CHECK(hs_spec_cand_path("./a=b.c", false) != NULL, "a file");
	/* a '/' before the '=' makes it part of the path, not a label */
	CHECK(!strcmp(hs_spec_cand_path("./a=b.c", false), "./a=b.c"),
	      "no label");
	CHECK(hs_spec_cand_path("hotfix", false) == NULL, "a profile");
	CHECK(hs_spec_cand_path("mine", false) == NULL, "no .c, no /");
	CHECK(!strcmp(hs_spec_cand_path("l=mine", true), "mine"),
	      "forced file");
}

/*
 * "mine.txt" is a file where "./mine.txt" is: a name with a '.' that
 * exists, not as a directory; a built-in profile's name still wins, a
 * bare word is never a file, and a missing one stays "no profile".
 */
static void test_cand_path_dot(void)
{
	char dir[] = "/tmp/hs-spec-XXXXXX", old[4096];
	struct hs_spec sp;
	int fd;

	CHECK(getcwd(old, sizeof(old)) && mkdtemp(dir) && !chdir(dir),
	      "a scratch folder");
	fd = open("mine.txt", O_CREAT | O_WRONLY, 0644);
	CHECK(fd >= 0 && !close(fd), "mine.txt");
	fd = open("hotfix", O_CREAT | O_WRONLY, 0644);
	CHECK(fd >= 0 && !close(fd), "a file named hotfix");
	fd = open("mine", O_CREAT | O_WRONLY, 0644);
	CHECK(fd >= 0 && !close(fd), "a file named mine");
	CHECK(!mkdir("d.d", 0755), "a folder d.d");
	CHECK(hs_spec_cand_path("mine.txt", false) != NULL, "mine.txt");
	CHECK(!strcmp(hs_spec_cand_path("l=mine.txt", false), "mine.txt"),
	      "a label on mine.txt");
	CHECK_EQ(hs_spec_parse("mine.txt", &sp), 0);
	CHECK_EQ(sp.kind, HS_SPEC_CAND);
	/* the controls: each would be a file if the rule were "exists" */
	CHECK(hs_spec_cand_path("hotfix", false) == NULL, "the profile wins");
	CHECK(hs_spec_cand_path("mine", false) == NULL, "a bare word");
	CHECK(hs_spec_cand_path("d.d", false) == NULL, "a folder");
	CHECK(hs_spec_cand_path("nosuch.txt", false) == NULL, "missing");
	CHECK_EQ(hs_spec_parse("nosuch.txt", &sp), HS_SPEC_UNKNOWN);
	CHECK_EQ(hs_spec_parse("v6.6", &sp), 0);
	CHECK_EQ(sp.kind, HS_SPEC_PROFILE);
	unlink("mine.txt");
	unlink("hotfix");
	unlink("mine");
	rmdir("d.d");
	CHECK(!chdir(old) && !rmdir(dir), "cleaned up");
}

/* --base, else the first model beside the candidate, else the hotfix. */
static void test_base_rule(void)
{
	struct hs_spec specs[3], base;

	hs_spec_parse("./a.c", &specs[0]);
	hs_spec_parse("v6.6", &specs[1]);
	hs_spec_parse("v5.16", &specs[2]);
	hs_spec_base(specs, 3, NULL, &base);
	CHECK(!strcmp(base.name, "v6.6"), "first model: %s", base.name);
	hs_spec_base(specs, 3, hs_profile_find("mm-new"), &base);
	CHECK(!strcmp(base.name, "mm-new"), "given: %s", base.name);
	hs_spec_base(specs, 1, NULL, &base);
	CHECK(!strcmp(base.name, "hotfix"), "default: %s", base.name);
	CHECK_EQ(base.comp.divisor, HS_DIV_SAFE);
	hs_spec_parse("mvsum+u32-trunc+loop+none", &specs[1]);
	hs_spec_base(specs, 2, NULL, &base);
	CHECK(!strcmp(base.name, "mvsum+u32-trunc+loop+none"),
	      "a combination is named by its components: %s", base.name);
	CHECK_EQ(base.comp.divisor, HS_DIV_U32_TRUNC);
}

static void test_score_model(void)
{
	struct hs_input in = { .sample_us = 0, .aggr_us = 100000,
			       .nr_accesses = 3, .age = 5,
			       .weight_nr_accesses = 1, .weight_age = 1 };
	struct hs_spec_result r;
	struct hs_spec sp;
	char buf[32];

	hs_spec_parse("v6.6", &sp);
	r = hs_spec_score(&sp, &in);	/* aggr / 0 */
	CHECK(r.undef, "v6.6 divides by a sample interval of 0");
	CHECK_EQ(r.trap, 0);
	hs_spec_parse("hotfix", &sp);
	r = hs_spec_score(&sp, &in);
	CHECK(!r.undef, "the hotfix's safe divisor");
	CHECK_EQ(r.hot, hs_score(&sp.comp, &in, NULL).hot);
	CHECK(!strcmp(hs_spec_status(&sp, &r, buf, sizeof(buf)),
		      hs_status_name(&r.model)), "the model's status");
}

static void test_score_cand(void)
{
	struct hs_input in = { .sample_us = 5000, .aggr_us = 100000 };
	struct hs_spec_result r;
	struct hs_spec sp;
	char buf[32];

	hs_spec_parse("./wide.c", &sp);
	sp.cand = &wide;
	r = hs_spec_score(&sp, &in);
	CHECK(!r.undef && r.hot == 120 && r.cold == 7, "hot %d", r.hot);
	CHECK(!strcmp(hs_spec_status(&sp, &r, buf, sizeof(buf)),
		      "out-of-range"), "status");
	sp.cand = &trapping;
	hs_cand_watch_begin();
	r = hs_spec_score(&sp, &in);
	hs_cand_watch_end();
	CHECK(r.undef && r.trap == SIGFPE, "trap %d", r.trap);
	CHECK(!strcmp(hs_spec_status(&sp, &r, buf, sizeof(buf)),
		      "trap(SIGFPE)"), "status %s", buf);
}

static void test_describe(void)
{
	struct hs_spec sp;
	char buf[64];

	hs_spec_parse("v6.6", &sp);
	hs_spec_describe(&sp, buf, sizeof(buf));
	CHECK(!strcmp(buf, "raw+max-nr+loop+none"), "%s", buf);
	hs_spec_parse("./a.c", &sp);
	sp.comp = hs_profile_find("v6.6")->comp;
	hs_spec_describe(&sp, buf, sizeof(buf));
	CHECK(!strcmp(buf, "candidate, base max-nr"), "%s", buf);
}

int main(void)
{
	RUN(test_parse_kinds);
	RUN(test_parse_too_long);
	RUN(test_cand_path);
	RUN(test_cand_path_dot);
	RUN(test_base_rule);
	RUN(test_score_model);
	RUN(test_score_cand);
	RUN(test_describe);
	return CHECK_DONE();
}
