/* The occlusion tests' check: counts passes, prints each failure with
 * its place; main ends with "N passed, N failed". One per test program. */
#ifndef OCCL_CHECK_H
#define OCCL_CHECK_H
#include <stdio.h>

static int g_fail, g_pass;
#define CHECK(c, ...)                                                                             \
    do {                                                                                          \
        if (c) {                                                                                  \
            g_pass++;                                                                             \
        } else {                                                                                  \
            g_fail++;                                                                             \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                           \
            printf(__VA_ARGS__);                                                                  \
            printf("\n");                                                                         \
        }                                                                                         \
    } while (0)
#endif
