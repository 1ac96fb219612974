// SPDX-License-Identifier: GPL-2.0
/*
 * test_simd.c - HOTSCORE_SIMD: which batch scorer a value picks, and what
 * the refusal says.  hs_simd_choose() takes the CPU's features as bits, so
 * every CPU is tested here, with or without AVX2 or AVX-512: "avx512" on a
 * CPU that lacks part of it must say what is missing, not that the value
 * is unknown.
 */
#include <stdlib.h>
#include <string.h>

#include <hotscore/simd.h>

#include "check.h"

#define ALL	HS_CPU_AVX512_ALL
#define AVX2	HS_CPU_AVX2
#define NEEDS	"; use auto or scalar"
#define NO_AVX2	"HOTSCORE_SIMD=avx2: this CPU lacks AVX2; use auto or scalar"
#define UNKNOWN	": give auto, scalar, avx2 or avx512"

/* @value on a CPU with @cpu: return code, choice and message. */
static void expect(const char *value, unsigned int cpu, int rc,
		   enum hs_fast_impl impl, const char *msg)
{
	enum hs_fast_impl got = HS_NR_FAST_IMPLS;
	char err[256] = "";
	int r = hs_simd_choose(value, cpu, &got, err, sizeof(err));

	CHECK(r == rc, "'%s' on %#x: returned %d, want %d (%s)",
	      value ? value : "(unset)", cpu, r, rc, err);
	CHECK(got == impl, "'%s' on %#x: %s, want %s",
	      value ? value : "(unset)", cpu, hs_fast_impl_name(got),
	      hs_fast_impl_name(impl));
	CHECK(!strcmp(err, msg), "'%s' on %#x:\n    '%s'\n want '%s'",
	      value ? value : "(unset)", cpu, err, msg);
}

/* Unset, empty, auto and scalar are never refused. */
static void test_choose_accepted(void)
{
	expect(NULL, ALL, 0, HS_FAST_AVX512, "");
	expect("", ALL, 0, HS_FAST_AVX512, "");
	expect("auto", ALL, 0, HS_FAST_AVX512, "");
	expect("auto", ALL & ~HS_CPU_AVX512VL, 0, HS_FAST_SCALAR, "");
	expect(NULL, 0, 0, HS_FAST_SCALAR, "");
	expect("scalar", ALL, 0, HS_FAST_SCALAR, "");
	expect("scalar", 0, 0, HS_FAST_SCALAR, "");
	expect("avx512", ALL, 0, HS_FAST_AVX512, "");
	/* features the scorer does not use change nothing */
	expect("avx512", ALL | 1u << 20, 0, HS_FAST_AVX512, "");
}

/* AVX2 without AVX-512 (most AMD CPUs before Zen 4): auto takes avx2. */
static void test_choose_avx2(void)
{
	expect(NULL, AVX2, 0, HS_FAST_AVX2, "");
	expect("auto", AVX2, 0, HS_FAST_AVX2, "");
	expect("auto", AVX2 | HS_CPU_BMI1 | HS_CPU_BMI2, 0, HS_FAST_AVX2, "");
	/* all of AVX-512 or none of it: a part is not enough */
	expect("auto", AVX2 | (ALL & ~HS_CPU_AVX512VBMI), 0, HS_FAST_AVX2, "");
	expect("auto", AVX2 | ALL, 0, HS_FAST_AVX512, "");
	expect("avx2", AVX2, 0, HS_FAST_AVX2, "");
	/* avx2 insists, also where AVX-512 would be chosen */
	expect("avx2", AVX2 | ALL, 0, HS_FAST_AVX2, "");
	expect("scalar", AVX2, 0, HS_FAST_SCALAR, "");
	expect("auto", HS_CPU_BMI1 | HS_CPU_BMI2, 0, HS_FAST_SCALAR, "");
}

/* avx512 on a CPU without (all of) it: what is missing, by name. */
static void test_choose_cpu_lacks(void)
{
	expect("avx512", ALL & ~HS_CPU_AVX512VBMI, -1, HS_FAST_SCALAR,
	       "HOTSCORE_SIMD=avx512: this CPU lacks AVX-512 VBMI" NEEDS);
	expect("avx512", HS_CPU_AVX512F | HS_CPU_AVX512CD | HS_CPU_AVX512VL,
	       -1, HS_FAST_SCALAR,
	       "HOTSCORE_SIMD=avx512: this CPU lacks AVX-512 BW and VBMI" NEEDS);
	expect("avx512", HS_CPU_AVX512F, -1, HS_FAST_SCALAR,
	       "HOTSCORE_SIMD=avx512: this CPU lacks AVX-512 CD, BW, VL and VBMI" NEEDS);
	expect("avx512", ALL & ~HS_CPU_AVX512F, -1, HS_FAST_SCALAR,
	       "HOTSCORE_SIMD=avx512: this CPU lacks AVX-512 F" NEEDS);
	expect("avx512", 0, -1, HS_FAST_SCALAR,
	       "HOTSCORE_SIMD=avx512: this CPU lacks AVX-512" NEEDS);
	/* the choice it falls back to is still the best the CPU runs */
	expect("avx512", AVX2, -1, HS_FAST_AVX2,
	       "HOTSCORE_SIMD=avx512: this CPU lacks AVX-512" NEEDS);
	expect("avx2", 0, -1, HS_FAST_SCALAR, NO_AVX2);
	expect("avx2", HS_CPU_BMI1 | HS_CPU_BMI2, -1, HS_FAST_SCALAR, NO_AVX2);
	/* no real CPU, but the masks are independent */
	expect("avx2", ALL, -1, HS_FAST_AVX512, NO_AVX2);
}

/* An unknown value is a typo whatever the CPU: the same message. */
static void test_choose_unknown(void)
{
	enum hs_fast_impl got;
	char longv[300], err[256];

	expect("bogus", ALL, -1, HS_FAST_AVX512,
	       "HOTSCORE_SIMD=bogus" UNKNOWN);
	expect("bogus", 0, -1, HS_FAST_SCALAR, "HOTSCORE_SIMD=bogus" UNKNOWN);
	expect("AVX512", 0, -1, HS_FAST_SCALAR, "HOTSCORE_SIMD=AVX512" UNKNOWN);
	expect("avx512 ", ALL, -1, HS_FAST_AVX512,
	       "HOTSCORE_SIMD=avx512 " UNKNOWN);
	expect("AVX2", AVX2, -1, HS_FAST_AVX2, "HOTSCORE_SIMD=AVX2" UNKNOWN);
	expect("sse2", 0, -1, HS_FAST_SCALAR, "HOTSCORE_SIMD=sse2" UNKNOWN);

	/* a long value is cut so that the reason still fits the line */
	memset(longv, 'x', sizeof(longv) - 1);
	longv[sizeof(longv) - 1] = '\0';
	CHECK(hs_simd_choose(longv, 0, &got, err, sizeof(err)) == -1,
	      "long value accepted");
	CHECK(strstr(err, UNKNOWN) != NULL, "reason cut: %s", err);
	/* and "hotscore CMD: " before it leaves the line within 100 columns */
	CHECK(strlen(err) <= 80, "%zu bytes: %s", strlen(err), err);
}

/* No buffer: the choice alone. */
static void test_choose_no_buffer(void)
{
	enum hs_fast_impl got;

	CHECK(hs_simd_choose("avx512", 0, &got, NULL, 0) == -1,
	      "avx512 without AVX-512 accepted");
	CHECK(got == HS_FAST_SCALAR, "fell back to %s", hs_fast_impl_name(got));
	CHECK(hs_simd_choose("bogus", ALL, &got, NULL, 0) == -1,
	      "bogus accepted");
	CHECK(got == HS_FAST_AVX512, "fell back to %s", hs_fast_impl_name(got));
	CHECK(hs_simd_choose("avx2", 0, &got, NULL, 0) == -1,
	      "avx2 without AVX2 accepted");
	CHECK(got == HS_FAST_SCALAR, "fell back to %s", hs_fast_impl_name(got));
}

/*
 * This CPU: the choices agree with its features.  The library reads no
 * environment: HOTSCORE_SIMD set here changes nothing it does.
 */
static void test_this_cpu(void)
{
	unsigned int cpu = hs_cpu_features();
	bool has = (cpu & ALL) == ALL, has2 = cpu & AVX2;
	enum hs_fast_impl got;
	char err[256] = "";
	int rc;

	CHECK(hs_fast_impl_supported(HS_FAST_AVX512) == has,
	      "supported %d, features %#x", hs_fast_impl_supported(HS_FAST_AVX512),
	      cpu);
	CHECK(hs_fast_impl_supported(HS_FAST_AVX2) == has2,
	      "supported %d, features %#x", hs_fast_impl_supported(HS_FAST_AVX2),
	      cpu);
	CHECK(hs_fast_impl_supported(HS_FAST_SCALAR), "no scalar scorer");
	CHECK(!hs_fast_impl_supported(HS_NR_FAST_IMPLS), "a scorer past the last");
	setenv("HOTSCORE_SIMD", "scalar", 1);
	rc = hs_simd_choose("avx512", cpu, &got, err, sizeof(err));
	if (has)
		CHECK(rc == 0 && got == HS_FAST_AVX512, "rc %d, %s: %s", rc,
		      hs_fast_impl_name(got), err);
	else
		CHECK(rc == -1 && strstr(err, "this CPU lacks AVX-512"),
		      "rc %d: %s", rc, err);
	rc = hs_simd_choose("avx2", cpu, &got, err, sizeof(err));
	CHECK(has2 ? rc == 0 && got == HS_FAST_AVX2 :
		     rc == -1 && !strcmp(err, NO_AVX2),
	      "avx2: rc %d, %s: %s", rc, hs_fast_impl_name(got), err);
	CHECK(hs_simd_choose(NULL, cpu, &got, NULL, 0) == 0 &&
	      got == (has ? HS_FAST_AVX512 : has2 ? HS_FAST_AVX2 :
		      HS_FAST_SCALAR),
	      "auto despite the environment: %s", hs_fast_impl_name(got));
	unsetenv("HOTSCORE_SIMD");
}

/* The choice as a function pointer: the portable one is hs_fast_batch(). */
static void test_batch_for(void)
{
	CHECK(hs_fast_batch_for(HS_FAST_SCALAR) == hs_fast_batch,
	      "scalar is not hs_fast_batch()");
	CHECK(hs_fast_batch_for(HS_FAST_AVX512) != hs_fast_batch,
	      "avx512 is hs_fast_batch()");
	CHECK(hs_fast_batch_for(HS_FAST_AVX2) != hs_fast_batch,
	      "avx2 is hs_fast_batch()");
	CHECK(hs_fast_batch_for(HS_FAST_AVX2) !=
	      hs_fast_batch_for(HS_FAST_AVX512), "avx2 is avx512");
}

/* Each name as HOTSCORE_SIMD spells it, and a value that names none. */
static void test_names(void)
{
	CHECK(!strcmp(hs_fast_impl_name(HS_FAST_SCALAR), "scalar"), "scalar");
	CHECK(!strcmp(hs_fast_impl_name(HS_FAST_AVX2), "avx2"), "avx2");
	CHECK(!strcmp(hs_fast_impl_name(HS_FAST_AVX512), "avx512"), "avx512");
	CHECK(!strcmp(hs_fast_impl_name(HS_NR_FAST_IMPLS), "?"), "none");
}

/* The flags by their /proc/cpuinfo names, in a fixed order, cut to fit. */
static void test_flag_names(void)
{
	char buf[160];

	hs_cpu_flag_names(0, buf, sizeof(buf));
	CHECK(!strcmp(buf, "none"), "no flag: '%s'", buf);
	hs_cpu_flag_names(HS_CPU_AVX512F | HS_CPU_AVX2 | HS_CPU_BMI2, buf,
			  sizeof(buf));
	CHECK(!strcmp(buf, "avx2 bmi2 avx512f"), "'%s'", buf);
	hs_cpu_flag_names(ALL | HS_CPU_AVX2 | HS_CPU_BMI1 | HS_CPU_BMI2, buf,
			  sizeof(buf));
	CHECK(!strcmp(buf, "avx2 bmi1 bmi2 avx512f avx512cd avx512bw avx512vl avx512vbmi"),
	      "'%s'", buf);
	hs_cpu_flag_names(HS_CPU_AVX2 | HS_CPU_BMI1, buf, 8);
	CHECK(!strcmp(buf, "avx2 bm"), "cut: '%s'", buf);
}

int main(void)
{
	RUN(test_choose_accepted);
	RUN(test_choose_avx2);
	RUN(test_choose_cpu_lacks);
	RUN(test_choose_unknown);
	RUN(test_choose_no_buffer);
	RUN(test_this_cpu);
	RUN(test_batch_for);
	RUN(test_names);
	RUN(test_flag_names);
	return CHECK_DONE();
}
