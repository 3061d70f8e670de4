/* The goals switch shared by every benchmark program (see goals.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "goals.h"

static int goals_on;

void bench_goals_init(int *argc, char **argv)
{
    const char *env = getenv("SATC_BENCH_GOALS");
    goals_on = env && env[0] && strcmp(env, "0") != 0;
    int k = 1;
    for (int i = 1; i < *argc; i++) {
        if (!strcmp(argv[i], "--goals"))
            goals_on = 1;
        else
            argv[k++] = argv[i];
    }
    argv[k] = NULL;
    *argc = k;
}

int bench_goals_on(void) { return goals_on; }

void bench_goals_heading(const char *section)
{
    if (goals_on)
        printf("\n== project goals: %s (PASS = reached, MISS = not yet; not test results) ==\n", section);
}

/* Goal lines keep to 120 columns like the tables: a longer one goes on
 * over indented lines, broken at spaces. */
enum { GOAL_COLUMNS = 120, GOAL_INDENT = 4 };

static void line(const char *word, const char *tag, const char *fmt, va_list ap)
{
    char text[1024];
    int k = snprintf(text, sizeof text, "%s [%s] ", word, tag);
    vsnprintf(text + k, sizeof text - (size_t)k, fmt, ap);
    const char *p = text;
    size_t width = GOAL_COLUMNS;
    while (strlen(p) > width) {
        size_t cut = width;
        while (cut > 0 && p[cut] != ' ')
            cut--;
        if (cut == 0) /* one word longer than the line: leave it whole */
            break;
        size_t end = cut;
        while (end > 0 && p[end - 1] == ' ')
            end--;
        printf("%.*s\n%*s", (int)end, p, GOAL_INDENT, "");
        p += cut;
        while (*p == ' ')
            p++;
        width = GOAL_COLUMNS - GOAL_INDENT;
    }
    printf("%s\n", p);
}

void bench_goal(int met, const char *tag, const char *fmt, ...)
{
    if (!goals_on)
        return;
    va_list ap;
    va_start(ap, fmt);
    line(met ? "PASS" : "MISS", tag, fmt, ap);
    va_end(ap);
}

void bench_goal_bound(const char *tag, const char *fmt, ...)
{
    if (!goals_on)
        return;
    va_list ap;
    va_start(ap, fmt);
    line("BOUND", tag, fmt, ap);
    va_end(ap);
}

void bench_goals_hint(void)
{
    if (!goals_on)
        printf("\n(bench/README.md explains every table and column.)\n");
}

int bench_quick_env(void)
{
    const char *env = getenv("SATC_BENCH_QUICK");
    return env && env[0] && strcmp(env, "0") != 0;
}

int bench_usage(const char *arg, const char *prog, const char *usage)
{
    int help = !strcmp(arg, "--help") || !strcmp(arg, "-h");
    FILE *f = help ? stdout : stderr;
    if (!help)
        fprintf(f, "%s: unknown option '%s'\n", prog, arg);
    fprintf(f, usage, prog);
    return help ? 0 : 2;
}

int bench_quick_args(int argc, char **argv, const char *usage, int *quick)
{
    *quick = bench_quick_env();
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick"))
            return bench_usage(argv[i], argv[0], usage);
        *quick = 1;
    }
    return -1;
}
