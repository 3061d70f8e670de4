/* Project goals: the figures satc's developers aim at, printed by every
 * benchmark program only on request (`--goals` or SATC_BENCH_GOALS=1), so
 * the default output holds measurements only. A goal line reads
 *
 *   PASS [tag] what it measures: the goal    the figure
 *   MISS [tag] ...                           (goal not reached on this run)
 *   BOUND [tag] what it measures: the figure; the bound this run measured
 *
 * BOUND replaces a goal the same run shows no code can reach (for example
 * a time below the read of the bytes it must read). None of them is a test
 * result: a benchmark's exit status never depends on them. A goal longer
 * than 120 columns goes on over lines indented by 4. */
#ifndef SATC_BENCH_GOALS_H
#define SATC_BENCH_GOALS_H

/* Reads the switch: `--goals` anywhere in argv (removed from it, so the
 * program's own parser never sees it), or SATC_BENCH_GOALS set to
 * anything but "" or "0". Call once at the start of main. */
void bench_goals_init(int *argc, char **argv);

/* Nonzero when goal lines are wanted. */
int bench_goals_on(void);

/* Prints a section heading for goal lines (once per section), when on. */
void bench_goals_heading(const char *section);

/* One goal line, when on: "PASS [tag] " or "MISS [tag] " then the text
 * (printf format); a newline is added. */
void bench_goal(int met, const char *tag, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A goal that this run shows unreachable, when on: "BOUND [tag] " then
 * the text, which gives the figure and the bound instead of the goal. */
void bench_goal_bound(const char *tag, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The closing line when the goals are off: where the tables are explained
 * (only satc_bench prints it, so a run of every program shows it once). */
void bench_goals_hint(void);

/* Nonzero when SATC_BENCH_QUICK is set to anything but "" or "0": every
 * program then runs as with --quick (fewer samples and sizes), so that
 * `SATC_BENCH_QUICK=1 meson test -C build --benchmark` is a short run. */
int bench_quick_env(void);

/* For an argument a program does not take: with --help or -h, the usage
 * text (a printf format whose one %s is the program's name) on stdout and
 * 0; else "unknown option" and the usage on stderr and 2. main returns
 * what it returns, so a mistyped option never runs the whole benchmark. */
int bench_usage(const char *arg, const char *prog, const char *usage);

/* The arguments of a program that takes only --quick (after
 * bench_goals_init): *quick set by it or by bench_quick_env; returns -1
 * when main goes on, else bench_usage's status for the first other
 * argument. */
int bench_quick_args(int argc, char **argv, const char *usage, int *quick);

#endif
