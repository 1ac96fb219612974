/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - what the reports add to jansson, which writes all their JSON
 * (and reads it): strings from any bytes, and a whole document at once.
 * Documents written as they go use struct hs_json_stream
 * (<hotscore/damo_write.h>).
 */
#ifndef HOTSCORE_JSON_H
#define HOTSCORE_JSON_H

#include <stdio.h>

#include <jansson.h>

json_t *json_text(const char *s);
int json_write_doc(FILE *f, json_t *doc, size_t flags);
void json_write_string(FILE *f, const char *s);

#endif /* HOTSCORE_JSON_H */
