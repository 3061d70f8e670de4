/*
 * Path selection: SATC_ISA and satc_isa_set_mask (satc.h: the active path
 * is "the best native path allowed by the mask or forced by the
 * environment variable SATC_ISA=scalar|sse41|avx2|neon, read once at
 * first use"). The choice is made once per process, so each case runs in a
 * fresh child (fork before this process makes any satc call that selects
 * a path; the child sets the environment, then makes its first call).
 *  - SATC_ISA=<path> forces every runnable path, emulated ones included;
 *    satc_cull_batch then equals satc_cull_batch_isa on that path.
 *  - An unknown or unavailable value is ignored: the automatic choice.
 *  - The mask bounds SATC_ISA: a path the mask leaves out is not chosen
 *    (satc_isa_set_mask(0) gives scalar whatever SATC_ISA says).
 *  - Without SATC_ISA the choice is the best native path (AVX2 > SSE4.1 >
 *    NEON > scalar); satc_isa_set_mask restricts it (scalar always
 *    allowed), rejects unknown bits with SATC_ERR_FLAGS and leaves the
 *    choice alone then.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "robust_util.h"

#define N 300

static satc_frustum frustum;
static rb_batch batch;

/* The best native path within mask, as the header orders them. */
static satc_isa best(unsigned mask)
{
    unsigned m = satc_isa_native() & (mask | SATC_ISA_SCALAR);
    if (m & SATC_ISA_AVX512)
        return SATC_ISA_AVX512;
    if (m & SATC_ISA_AVX2)
        return SATC_ISA_AVX2;
    if (m & SATC_ISA_SSE41)
        return SATC_ISA_SSE41;
    if (m & SATC_ISA_NEON)
        return SATC_ISA_NEON;
    return SATC_ISA_SCALAR;
}

/* satc_cull_batch equals satc_cull_batch_isa(expect) in both modes. */
static int dispatched_is(satc_isa expect)
{
    int ok = 1;
    for (int mode = 0; mode < 2; mode++) {
        uint8_t a[N], b[N];
        satc_results ra = {NULL, a, NULL, 0}, rb = {NULL, b, NULL, 0};
        ok &= satc_cull_batch(&frustum, &batch.v, 0, N, (satc_mode)mode, &ra) == SATC_OK;
        ok &= satc_cull_batch_isa(expect, &frustum, &batch.v, 0, N, (satc_mode)mode, &rb) == SATC_OK;
        ok &= ra.visible == rb.visible && !memcmp(a, b, N);
    }
    return ok;
}

/* Child process bodies: exit status 0 = as expected. Each prints why not. */
static int child_env(const char *value, satc_isa expect)
{
    if (value)
        setenv("SATC_ISA", value, 1);
    else
        unsetenv("SATC_ISA");
    satc_isa a = satc_isa_active();
    if (a != expect) {
        printf("  SATC_ISA=%s: active %s, expected %s\n", value ? value : "(unset)",
               satc_isa_name(a), satc_isa_name(expect));
        return 1;
    }
    /* Read once: changing the variable later changes nothing. */
    setenv("SATC_ISA", "scalar", 1);
    if (satc_isa_active() != expect || !dispatched_is(expect)) {
        printf("  SATC_ISA=%s: choice not stable or satc_cull_batch not on %s\n",
               value ? value : "(unset)", satc_isa_name(expect));
        return 1;
    }
    return 0;
}

static int child_mask(void)
{
    unsetenv("SATC_ISA");
    int bad = 0;
    const unsigned masks[] = {0u,
                              SATC_ISA_SCALAR,
                              SATC_ISA_SSE41,
                              SATC_ISA_AVX2,
                              SATC_ISA_NEON,
                              SATC_ISA_AVX512,
                              SATC_ISA_SSE41 | SATC_ISA_NEON,
                              SATC_ISA_AVX2 | SATC_ISA_AVX512,
                              SATC_ISA_SCALAR | SATC_ISA_SSE41 | SATC_ISA_AVX2 | SATC_ISA_NEON,
                              SATC_ISA_SCALAR | SATC_ISA_SSE41 | SATC_ISA_AVX2 | SATC_ISA_NEON |
                                  SATC_ISA_AVX512};
    for (size_t k = 0; k < sizeof masks / sizeof masks[0]; k++) {
        satc_status st = satc_isa_set_mask(masks[k]);
        satc_isa a = satc_isa_active();
        if (st != SATC_OK || a != best(masks[k]) || !dispatched_is(a)) {
            printf("  mask 0x%x: status %d, active %s, expected %s\n", masks[k], (int)st,
                   satc_isa_name(a), satc_isa_name(best(masks[k])));
            bad = 1;
        }
    }
    satc_isa_set_mask(SATC_ISA_SCALAR);
    const unsigned junk[] = {64u, 0x100u, 0x80000000u, SATC_ISA_AVX2 | 128u}; /* 32: simd128 */
    for (size_t k = 0; k < sizeof junk / sizeof junk[0]; k++) {
        satc_status st = satc_isa_set_mask(junk[k]);
        if (st != SATC_ERR_FLAGS || satc_isa_active() != SATC_ISA_SCALAR) {
            printf("  mask 0x%x: status %d (want SATC_ERR_FLAGS), active %s\n", junk[k], (int)st,
                   satc_isa_name(satc_isa_active()));
            bad = 1;
        }
    }
    satc_isa_set_mask(SATC_ISA_SCALAR | SATC_ISA_SSE41 | SATC_ISA_AVX2 | SATC_ISA_NEON |
                      SATC_ISA_AVX512);
    if (satc_isa_active() != best(~0u)) {
        printf("  full mask again: active %s\n", satc_isa_name(satc_isa_active()));
        bad = 1;
    }
    return bad;
}

/* SATC_ISA=value (a runnable path) picks within the mask: a mask
 * without it gives the best native path the mask allows. */
static int child_env_mask(const char *value, satc_isa isa)
{
    setenv("SATC_ISA", value, 1);
    int bad = 0;
    const unsigned masks[] = {0u, isa, ~(unsigned)isa & 31u, 31u};
    for (size_t k = 0; k < sizeof masks / sizeof masks[0]; k++) {
        satc_isa want = (masks[k] & isa) || isa == SATC_ISA_SCALAR ? isa : best(masks[k]);
        satc_status st = satc_isa_set_mask(masks[k]);
        if (st != SATC_OK || satc_isa_active() != want || !dispatched_is(want)) {
            printf("  SATC_ISA=%s, mask 0x%x: active %s, expected %s\n", value, masks[k],
                   satc_isa_name(satc_isa_active()), satc_isa_name(want));
            bad = 1;
        }
    }
    return bad;
}

/* Runs body in a child; returns its exit status (or 128 + signal). */
static int in_child(int (*body)(const char *, satc_isa), const char *value, satc_isa expect)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return 99;
    if (pid == 0) {
        int r = body ? body(value, expect) : child_mask();
        fflush(stdout);
        _exit(r);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid)
        return 99;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

int main(void)
{
    rb_rng rng = {0x697361ull};
    float eye[3] = {0.5f, 0.5f, 0.5f};
    satc_camera cam;
    rb_camera_persp(&cam, &rng, eye, 0.3f, 80.0f);
    if (satc_frustum_from_camera(&frustum, &cam) != SATC_OK || rb_batch_alloc(&batch, N))
        return 2;
    rb_fill_near(&batch, N, &rng, &cam);
    /* The masks below select nothing; they only describe this machine. */
    unsigned runnable = satc_isa_runnable();
    satc_isa automatic = best(~0u);
    printf("runnable 0x%x, native 0x%x, automatic choice %s\n", runnable, satc_isa_native(),
           satc_isa_name(automatic));

    for (unsigned isa = SATC_ISA_SCALAR; isa <= SATC_ISA_AVX512; isa <<= 1) {
        const char *name = satc_isa_name((satc_isa)isa);
        satc_isa expect = (runnable & isa) ? (satc_isa)isa : automatic;
        int r = in_child(child_env, name, expect);
        rb_check(r == 0, "SATC_ISA=%s (child status %d)", name, r);
        printf("SATC_ISA=%-7s -> %s\n", name, satc_isa_name(expect));
        if (runnable & isa) {
            r = in_child(child_env_mask, name, (satc_isa)isa);
            rb_check(r == 0, "SATC_ISA=%s within satc_isa_set_mask (child status %d)", name, r);
        }
    }
    const char *ignored[] = {"", "avx-512", "AVX2", "sse4.1", "bogus"};
    for (size_t k = 0; k < sizeof ignored / sizeof ignored[0]; k++) {
        int r = in_child(child_env, ignored[k], automatic);
        rb_check(r == 0, "SATC_ISA=\"%s\" must be ignored (child status %d)", ignored[k], r);
    }
    int r = in_child(child_env, NULL, automatic);
    rb_check(r == 0, "SATC_ISA unset (child status %d)", r);
    r = in_child(NULL, NULL, automatic);
    rb_check(r == 0, "satc_isa_set_mask (child status %d)", r);
    rb_batch_free(&batch);
    return rb_finish();
}
