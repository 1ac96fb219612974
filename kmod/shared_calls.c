// SPDX-License-Identifier: GPL-2.0
/* src/bench/calls.c, compiled into the module as it is (no copy). */
#include <bench/calls.c>
