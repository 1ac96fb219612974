/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jsonpath.h - for the tests: a value of a jansson tree by its dotted
 * path, "results.0.ns_per_call.median" (jsonq and test_report).
 */
#ifndef HOTSCORE_TESTS_JSONPATH_H
#define HOTSCORE_TESTS_JSONPATH_H

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* The value at @p below @v: NULL if a step is missing. */
static inline json_t *json_at(json_t *v, const char *p)
{
	char step[128], *end;
	size_t n;

	while (v && *p) {
		n = strcspn(p, ".");
		if (n >= sizeof(step))
			return NULL;
		memcpy(step, p, n);
		step[n] = '\0';
		p += n + (p[n] == '.');
		if (json_is_array(v)) {
			unsigned long i = strtoul(step, &end, 10);

			v = *end || !*step ? NULL : json_array_get(v, i);
		} else {
			v = json_object_get(v, step);
		}
	}
	return v;
}

#endif /* HOTSCORE_TESTS_JSONPATH_H */
