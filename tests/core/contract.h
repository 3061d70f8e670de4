/* What test_contract's parts share: the pass/fail counts and check. */
#ifndef SATC_TEST_CONTRACT_H
#define SATC_TEST_CONTRACT_H

extern int passed, failed;

/* Counts ok as a pass, else a failure and prints the printf-style note. */
void check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The box helpers' vertices against double (test_contract_geometry.c). */
void helper_geometry(void);

#endif
