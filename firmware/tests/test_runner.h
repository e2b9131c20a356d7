/*
 * A tiny test runner: TEST(name) defines a test, CHECK(condition) and CHECK_TEXT(actual, expected)
 * record failures with their line, RUN(name) runs one, and FINISH() prints "N passed, N failed"
 * and returns the exit status (0 when nothing failed).
 */
#ifndef PANEL_TEST_RUNNER_H
#define PANEL_TEST_RUNNER_H

#include <stdio.h>
#include <string.h>

static int tests_passed;
static int tests_failed;
static int current_failed;

#define TEST(name) static void name(void)

#define CHECK(condition)                                                                      \
    do {                                                                                      \
        if (!(condition)) {                                                                   \
            printf("  %s:%d: check failed: %s\n", __FILE__, __LINE__, #condition);           \
            current_failed = 1;                                                               \
        }                                                                                     \
    } while (0)

#define CHECK_TEXT(actual, expected)                                                          \
    do {                                                                                      \
        const char *actual_text = (actual);                                                   \
        const char *expected_text = (expected);                                               \
        if (strcmp(actual_text, expected_text) != 0) {                                        \
            printf("  %s:%d: expected \"%s\", got \"%s\"\n", __FILE__, __LINE__,             \
                   expected_text, actual_text);                                               \
            current_failed = 1;                                                               \
        }                                                                                     \
    } while (0)

#define RUN(name)                                                                             \
    do {                                                                                      \
        current_failed = 0;                                                                   \
        name();                                                                               \
        if (current_failed) {                                                                 \
            printf("FAIL %s\n", #name);                                                       \
            tests_failed++;                                                                   \
        } else {                                                                              \
            tests_passed++;                                                                   \
        }                                                                                     \
    } while (0)

#define FINISH()                                                                              \
    (printf("%d passed, %d failed\n", tests_passed, tests_failed), tests_failed == 0 ? 0 : 1)

#endif
