/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_report.h - what the reporters of `hotscore bench` share
 * (bench_report.c); each format is a file of src/cli/report/.
 */
#ifndef HOTSCORE_CLI_BENCH_REPORT_H
#define HOTSCORE_CLI_BENCH_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report/layout.h"

struct bench;
struct bench_result;
struct hs_estimate;

/* How the bench's text wraps: long words cut, hard spaces kept. */
#define BENCH_WRAP (LAYOUT_CUT | LAYOUT_NBSP)

const char *sig3(char *buf, size_t size, double x);
const char *sig3_range(char *buf, size_t size, double v, double lo,
		       double hi, const char *sep);
double tsc_cycles(uint64_t mt);
const char *plural(unsigned long long n, const char *one, const char *many);
const char *verdict_of(const struct bench_result *r);
const char *check_of(const struct bench_result *r);
bool per_region(const struct bench_result *r);
const char *estimate_text(char *buf, size_t size,
			  const struct bench_result *r,
			  const struct hs_estimate *e);
const struct bench_result *empty_of(const struct bench *b,
				    const struct bench_result *r);
uint64_t kj_rounds(const struct bench *b, const struct bench_result *r);

void print_nonpositive(struct bench *b, FILE *f);
void print_interval_note(const struct bench *b, FILE *f);
void print_budget(const struct bench *b, FILE *f);
void print_aa(const struct bench *b, FILE *f);
void print_door(const struct bench *b, FILE *f);
void print_differs(const struct bench *b, FILE *f);
void print_accuracy(struct bench *b, FILE *f);

#endif /* HOTSCORE_CLI_BENCH_REPORT_H */
