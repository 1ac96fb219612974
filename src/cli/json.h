/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - the writer only; reading is jansson's (<jansson.h>).
 *
 * The reports print their JSON with fprintf(); a string, which they cannot
 * print as is, goes through json_write_string().
 */
#ifndef HOTSCORE_JSON_H
#define HOTSCORE_JSON_H

#include <stdio.h>

void json_write_string(FILE *f, const char *s);

#endif /* HOTSCORE_JSON_H */
