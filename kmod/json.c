// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - the module's results, one JSON object a line (schema
 * hotscore-kmod-1), through a small writer that tracks the commas and
 * escapes the strings: the kernel has no jansson, and no key or comma is
 * spelled by hand elsewhere in the module.  bench --import reads the lines
 * back with jansson.
 */
#include <linux/kernel.h>

#include "kmod.h"

/* A string's characters, escaped as JSON needs: \", \\ and \u00XX. */
static void put_escaped(const char *s)
{
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			kmod_out("\\%c", c);
		else if (c < 0x20)
			kmod_out("\\u%04x", c);
		else
			kmod_out("%c", c);
	}
}

/* The separator and the key of the next member or element. */
static void next(struct kmod_json *j, const char *key)
{
	if (j->nr[j->depth - 1]++)
		kmod_out(",");
	if (key) {
		kmod_out("\"");
		put_escaped(key);
		kmod_out("\":");
	}
}

/**
 * kmod_json_begin() - start a line: its object, with its schema member.
 * @j:		the writer.
 */
void kmod_json_begin(struct kmod_json *j)
{
	j->depth = 1;
	j->nr[0] = 0;
	kmod_out("{");
	kmod_json_str(j, "schema", "hotscore-kmod-1");
}

/**
 * kmod_json_end() - end the line's object, and the line.
 * @j:		the writer; any list opened is closed first.
 */
void kmod_json_end(struct kmod_json *j)
{
	while (j->depth > 1)
		kmod_json_list_end(j);
	kmod_out("}\n");
	j->depth = 0;
}

/**
 * kmod_json_str() - a string member.
 * @j:		the writer.
 * @key:	its name.
 * @s:		its value, escaped here.
 */
void kmod_json_str(struct kmod_json *j, const char *key, const char *s)
{
	next(j, key);
	kmod_out("\"");
	put_escaped(s);
	kmod_out("\"");
}

/**
 * kmod_json_u64() - a number member, or a list element when @key is NULL.
 * @j:		the writer.
 * @key:	its name, or NULL in a list.
 * @v:		its value.
 */
void kmod_json_u64(struct kmod_json *j, const char *key, u64 v)
{
	next(j, key);
	kmod_out("%llu", v);
}

/**
 * kmod_json_list() - open a list member; kmod_json_u64(j, NULL, v) adds
 * to it.
 * @j:		the writer.
 * @key:	its name.
 */
void kmod_json_list(struct kmod_json *j, const char *key)
{
	next(j, key);
	kmod_out("[");
	if (j->depth < KMOD_JSON_DEPTH)
		j->nr[j->depth++] = 0;
}

/**
 * kmod_json_list_end() - close the list opened last.
 * @j:		the writer.
 */
void kmod_json_list_end(struct kmod_json *j)
{
	if (j->depth > 1) {
		j->depth--;
		kmod_out("]");
	}
}
