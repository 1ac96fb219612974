/* SPDX-License-Identifier: GPL-2.0 */
/*
 * internal.h - what the files of src/verify/ share and nothing outside
 * uses: the comparisons of two evaluations and the status codes the
 * tallies are kept in.  The public API is <hotscore/verify.h>.
 */
#ifndef HOTSCORE_VERIFY_INTERNAL_H
#define HOTSCORE_VERIFY_INTERNAL_H

#include <hotscore/verify.h>

bool hs_eval_same(const struct hs_eval *a, const struct hs_eval *b);
bool hs_eval_violates(const struct hs_eval *e, enum hs_invariant inv,
		      bool *checked);
unsigned int hs_status_code(const struct hs_result *r);
unsigned int hs_pair_code(const struct hs_result *a, const struct hs_result *b);

#endif /* HOTSCORE_VERIFY_INTERNAL_H */
