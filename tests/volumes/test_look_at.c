/*
 * Cameras aimed at a point or along a direction (satc_frustum_look_at and
 * its orthographic, direction and double variants): for random eyes,
 * targets and up vectors the frame is right-handed orthonormal, D points
 * at the target, U lies in the plane of up and D on up's side; the
 * frustum equals one built by hand from a glm-style lookAt frame; points
 * inside it are kept and points well outside culled; the double variants
 * match the float ones where the inputs agree. A zero, non-finite or
 * parallel up and a target at the eye get their status, with a status
 * string that names the cause, and nothing written.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "satc.h"
#include "vol_check.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;
static double uni(void) /* [0, 1) */
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-53;
}
static float span(double lo, double hi) { return (float)(lo + (hi - lo) * uni()); }

static double dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static double dotf(const float *a, const float *b) { return (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2]; }
static void cross(const double *a, const double *b, double *o)
{
    o[0] = a[1] * b[2] - a[2] * b[1], o[1] = a[2] * b[0] - a[0] * b[2], o[2] = a[0] * b[1] - a[1] * b[0];
}
static void unit(double *v)
{
    double l = sqrt(dot(v, v));
    v[0] /= l, v[1] /= l, v[2] /= l;
}

/* glm::lookAtRH's rows: f = normalize(target - eye), s = normalize(f x up),
 * u = s x f; the camera's x axis is s, so satc's left is -s. */
static void glm_frame(const float *eye, const float *target, const float *up, double s[3], double u[3],
                      double f[3])
{
    double upd[3] = {up[0], up[1], up[2]};
    for (int k = 0; k < 3; k++)
        f[k] = (double)target[k] - eye[k];
    unit(f);
    cross(f, upd, s);
    unit(s);
    cross(s, f, u);
}

/* A box of half size h at eye + x (-L) z + y U z + z D: the camera's view
 * space position (x right, y up, depth z) as a perspective camera sees it. */
static int kept(const satc_frustum *fr, const float *eye, const double *s, const double *u,
                const double *f, double x, double y, double z, float h, int ortho)
{
    float c[3], e[3] = {h, h, h};
    double zx = ortho ? 1 : z;
    for (int k = 0; k < 3; k++)
        c[k] = (float)(eye[k] + s[k] * x * zx + u[k] * y * zx + f[k] * z);
    satc_batch b;
    memset(&b, 0, sizeof b);
    b.form = SATC_FORM_AABB;
    b.aabb.center = SATC_VEC3S_AOS(c, 12);
    b.aabb.half = SATC_VEC3S_AOS(e, 12);
    satc_results r = {0};
    satc_status st = satc_cull(fr, &b, 0, 1, SATC_EXACT, &r);
    return st == SATC_OK ? (int)r.visible : -1;
}

/* up at least 10^-3 rad from the view direction f (unit). */
static int clear_of_view(const float *up, const double *f)
{
    double u[3] = {up[0], up[1], up[2]}, c[3];
    cross(u, f, c);
    return sqrt(dot(c, c)) >= 1e-3 * sqrt(dot(u, u));
}

static void random_up(float *up)
{
    for (int k = 0; k < 3; k++)
        up[k] = span(-2, 2);
}

static void check_frame(const satc_frustum *fr, const float *eye, const float *target, const float *up, int i)
{
    const float *L = fr->frame[0], *U = fr->frame[1], *D = fr->frame[2];
    const double tol = SATC_FRAME_TOLERANCE;
    CHECK(fabs(dotf(L, L) - 1) <= tol && fabs(dotf(U, U) - 1) <= tol && fabs(dotf(D, D) - 1) <= tol &&
              fabs(dotf(L, U)) <= tol && fabs(dotf(L, D)) <= tol && fabs(dotf(U, D)) <= tol,
          "case %d: frame orthonormal", i);
    double l[3] = {L[0], L[1], L[2]}, uu[3] = {U[0], U[1], U[2]}, x[3];
    cross(l, uu, x);
    CHECK(fabs(x[0] - D[0]) <= 3 * tol && fabs(x[1] - D[1]) <= 3 * tol && fabs(x[2] - D[2]) <= 3 * tol,
          "case %d: L x U = D (right-handed)", i);
    double s[3], u[3], f[3];
    glm_frame(eye, target, up, s, u, f);
    double worst = 0;
    for (int k = 0; k < 3; k++) {
        worst = fmax(worst, fabs(L[k] + s[k]));
        worst = fmax(worst, fabs(U[k] - u[k]));
        worst = fmax(worst, fabs(D[k] - f[k]));
    }
    CHECK(worst <= 0x1p-22, "case %d: frame within 2^-22 of glm's lookAt (%.3g)", i, worst);
    CHECK(fabs(dotf(L, up)) <= 1e-6 * sqrt(dotf(up, up)) && dotf(U, up) > 0,
          "case %d: U in the plane of up and D, on up's side", i);
}

static void test_perspective(void)
{
    for (int i = 0; i < 2000; i++) {
        float eye[3], target[3], up[3];
        for (int k = 0; k < 3; k++)
            eye[k] = span(-100, 100), target[k] = eye[k] + span(-50, 50);
        random_up(up);
        float fovy = span(0.2, 2.5), aspect = span(0.5, 3), n = span(0.05, 2), far = n * span(2, 500);
        satc_frustum fr, hand;
        satc_status st = satc_frustum_look_at(&fr, eye, target, up, fovy, aspect, n, far);
        double s[3], u[3], f[3];
        glm_frame(eye, target, up, s, u, f);
        if (!clear_of_view(up, f))
            continue; /* up almost along the view: covered below */
        CHECK(st == SATC_OK, "case %d: look_at gives %s", i, satc_status_string(st));
        if (st != SATC_OK)
            continue;
        check_frame(&fr, eye, target, up, i);
        /* The same frustum from the frame built by hand. */
        float D[3], U[3];
        for (int k = 0; k < 3; k++)
            D[k] = (float)f[k], U[k] = (float)u[k];
        CHECK(satc_frustum_perspective(&hand, eye, D, U, fovy, aspect, n, far) == SATC_OK,
              "case %d: the hand frame is accepted", i);
        CHECK(fr.kind == SATC_FRUSTUM_PERSPECTIVE && fr.x0 == hand.x0 && fr.x1 == hand.x1 &&
                  fr.y0 == hand.y0 && fr.y1 == hand.y1 && fr.n == hand.n && fr.f == hand.f &&
                  memcmp(fr.origin, eye, sizeof fr.origin) == 0,
              "case %d: slopes, near, far and apex equal the hand-built frustum's", i);
        /* Points well inside are kept, points well outside culled. */
        double ty = tan(0.5 * fovy), tx = ty * aspect, z = n + (far - n) * uni();
        double a = 2 * uni() - 1, bb = 2 * uni() - 1;
        CHECK(kept(&fr, eye, s, u, f, 0.98 * a * tx, 0.98 * bb * ty, z, 0, 0) == 1, "case %d: inside kept", i);
        double side = uni() < 0.5 ? -1 : 1;
        CHECK(kept(&fr, eye, s, u, f, side * 1.05 * tx, bb * ty, z, 0, 0) == 0, "case %d: outside along x culled", i);
        CHECK(kept(&fr, eye, s, u, f, a * tx, side * 1.05 * ty, z, 0, 0) == 0, "case %d: outside along y culled", i);
        /* The direction variant gives the same frustum. */
        float dir[3] = {(float)(f[0] * 3), (float)(f[1] * 3), (float)(f[2] * 3)};
        satc_frustum to;
        CHECK(satc_frustum_look_to(&to, eye, dir, up, fovy, aspect, n, far) == SATC_OK &&
                  fabs(to.frame[2][0] - fr.frame[2][0]) + fabs(to.frame[2][1] - fr.frame[2][1]) +
                          fabs(to.frame[2][2] - fr.frame[2][2]) <= 0x1p-21 &&
                  to.x1 == fr.x1 && to.y1 == fr.y1,
              "case %d: look_to along the same direction", i);
    }
}

static void test_orthographic(void)
{
    for (int i = 0; i < 1000; i++) {
        float eye[3], target[3], up[3];
        for (int k = 0; k < 3; k++)
            eye[k] = span(-100, 100), target[k] = eye[k] + span(-50, 50);
        random_up(up);
        double s[3], u[3], f[3];
        glm_frame(eye, target, up, s, u, f);
        if (!clear_of_view(up, f))
            continue;
        float left = span(-30, 10), right = left + span(1, 40), bottom = span(-30, 10), top = bottom + span(1, 40);
        float n = span(-5, 5), far = n + span(1, 300);
        satc_frustum fr;
        satc_status st = satc_frustum_look_at_ortho(&fr, eye, target, up, left, right, bottom, top, n, far);
        CHECK(st == SATC_OK, "ortho case %d: %s", i, satc_status_string(st));
        if (st != SATC_OK)
            continue;
        check_frame(&fr, eye, target, up, i);
        /* The box in frame coordinates: x right is -L. */
        CHECK(fr.kind == SATC_FRUSTUM_ORTHOGRAPHIC && fr.x0 == -right && fr.x1 == -left && fr.y0 == bottom &&
                  fr.y1 == top && fr.n == n && fr.f == far,
              "ortho case %d: bounds", i);
        double x = left + (right - left) * (0.02 + 0.96 * uni()), y = bottom + (top - bottom) * (0.02 + 0.96 * uni());
        double z = n + (far - n) * (0.02 + 0.96 * uni());
        CHECK(kept(&fr, eye, s, u, f, x, y, z, 0, 1) == 1, "ortho case %d: inside kept", i);
        double w = right - left;
        CHECK(kept(&fr, eye, s, u, f, uni() < 0.5 ? left - 0.05 * w : right + 0.05 * w, y, z, 0, 1) == 0,
              "ortho case %d: outside culled", i);
    }
}

/* The double variants against the float ones, where eye - O and
 * target - eye are exact: the same frame, apex and bounds, and a
 * tolerance at least the float one's. */
static void test_double(void)
{
    for (int i = 0; i < 500; i++) {
        double O[3];
        float e[3], t[3], up[3];
        for (int k = 0; k < 3; k++) {
            O[k] = 1024.0 * (double)(int)span(-1e6, 1e6);
            e[k] = (float)(int)span(-1000, 1000) / 8.0f;
            t[k] = e[k] + (float)(int)span(-400, 400) / 4.0f;
        }
        random_up(up);
        double E[3] = {O[0] + e[0], O[1] + e[1], O[2] + e[2]}, T[3] = {O[0] + t[0], O[1] + t[1], O[2] + t[2]};
        satc_frustum fd, ff, od, of;
        satc_status sf = satc_frustum_look_at(&ff, e, t, up, 1.0f, 1.5f, 0.5f, 900.0f);
        satc_status sd = satc_frustum_look_at_d(&fd, E, T, up, 1.0f, 1.5f, 0.5f, 900.0f, O);
        CHECK(sf == sd, "double case %d: same status (%d, %d)", i, sf, sd);
        if (sf == SATC_OK && sd == SATC_OK)
            CHECK(memcmp(fd.frame, ff.frame, sizeof fd.frame) == 0 && memcmp(fd.origin, ff.origin, sizeof fd.origin) == 0 &&
                      fd.x1 == ff.x1 && fd.y1 == ff.y1 && fd.tol_t >= ff.tol_t,
                  "double case %d: equals the float look_at", i);
        sf = satc_frustum_look_at_ortho(&of, e, t, up, -4, 6, -3, 5, -1, 300);
        sd = satc_frustum_look_at_ortho_d(&od, E, T, up, -4, 6, -3, 5, -1, 300, O);
        CHECK(sf == sd, "double ortho case %d: same status", i);
        if (sf == SATC_OK && sd == SATC_OK)
            CHECK(memcmp(od.frame, of.frame, sizeof od.frame) == 0 && memcmp(od.center, of.center, sizeof od.center) == 0 &&
                      memcmp(od.half, of.half, sizeof od.half) == 0 && od.tol_t >= of.tol_t,
                  "double ortho case %d: equals the float look_at_ortho", i);
    }
    /* A camera 10^7 units out, the batch origin beside it: the apex is
     * eye - O, the tolerance grows by its rounding. */
    const double E[3] = {1e7 + 0.1, 2e7 + 0.3, -3e7 + 0.7}, T[3] = {1e7 + 5, 2e7 + 1, -3e7 - 9},
                 O[3] = {1e7, 2e7, -3e7};
    const float up[3] = {0, 1, 0};
    satc_frustum fr;
    CHECK(satc_frustum_look_at_d(&fr, E, T, up, 1.0f, 1.5f, 0.5f, INFINITY, O) == SATC_OK &&
              fabs(fr.origin[0] - 0.1) < 1e-6 && fabs(fr.origin[2] - 0.7) < 1e-6 && fr.tol_t > 0,
          "a far camera relative to a near batch origin");
}

/* Degenerate input: a status that names the cause, *out unchanged. */
static void test_degenerate(void)
{
    const float eye[3] = {1, 2, 3}, fwd[3] = {0.3f, -0.4f, -2};
    float target[3] = {1.3f, 1.6f, 1};
    satc_frustum canary, fr;
    memset(&canary, 0x5a, sizeof canary);
    struct {
        float up[3];
        satc_status want;
        const char *what;
    } cases[] = {
        {{0, 0, 0}, SATC_ERR_UP, "zero up"},
        {{0.3f, -0.4f, -2}, SATC_ERR_UP, "up along the view"},
        {{-0.6f, 0.8f, 4}, SATC_ERR_UP, "up against the view"},
        {{0.3f, -0.4f, -2.0000002f}, SATC_ERR_UP, "up within 2^-20 rad of the view"},
        {{NAN, 1, 0}, SATC_ERR_NONFINITE, "NaN up"},
        {{0, INFINITY, 0}, SATC_ERR_NONFINITE, "infinite up"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        memcpy(&fr, &canary, sizeof fr);
        satc_status st = satc_frustum_look_to(&fr, eye, fwd, cases[c].up, 1, 1, 0.1f, 10);
        CHECK(st == cases[c].want && memcmp(&fr, &canary, sizeof fr) == 0, "look_to, %s: got %s", cases[c].what,
              satc_status_string(st));
        st = satc_frustum_look_at_ortho(&fr, eye, target, cases[c].up, -1, 1, -1, 1, 0, 10);
        CHECK(st == cases[c].want && memcmp(&fr, &canary, sizeof fr) == 0, "look_at_ortho, %s: got %s", cases[c].what,
              satc_status_string(st));
        const double E[3] = {1, 2, 3}, T[3] = {1.3, 1.6, 1}, O[3] = {0, 0, 0};
        if (cases[c].want == SATC_ERR_UP || c == 4) {
            st = satc_frustum_look_at_d(&fr, E, T, cases[c].up, 1, 1, 0.1f, 10, O);
            CHECK(st == cases[c].want && memcmp(&fr, &canary, sizeof fr) == 0, "look_at_d, %s: got %s",
                  cases[c].what, satc_status_string(st));
        }
    }
    const float up[3] = {0, 1, 0};
    CHECK(satc_frustum_look_at(&fr, eye, eye, up, 1, 1, 0.1f, 10) == SATC_ERR_DIRECTION &&
              memcmp(&fr, &canary, sizeof fr) == 0,
          "target at the eye");
    const float zero[3] = {0, 0, 0}, nan3[3] = {0, NAN, 0};
    CHECK(satc_frustum_look_to(&fr, eye, zero, up, 1, 1, 0.1f, 10) == SATC_ERR_DIRECTION, "zero direction");
    CHECK(satc_frustum_look_at(&fr, eye, nan3, up, 1, 1, 0.1f, 10) == SATC_ERR_NONFINITE, "NaN target");
    CHECK(satc_frustum_look_at(&fr, nan3, target, up, 1, 1, 0.1f, 10) == SATC_ERR_NONFINITE, "NaN eye");
    CHECK(satc_frustum_look_at(NULL, eye, target, up, 1, 1, 0.1f, 10) == SATC_ERR_NULL &&
              satc_frustum_look_at(&fr, eye, NULL, up, 1, 1, 0.1f, 10) == SATC_ERR_NULL &&
              satc_frustum_look_at_d(&fr, NULL, NULL, up, 1, 1, 0.1f, 10, NULL) == SATC_ERR_NULL,
          "NULL pointers");
    /* The lens is still checked. */
    CHECK(satc_frustum_look_at(&fr, eye, target, up, 1, 1, 0, 10) == SATC_ERR_NEAR &&
              satc_frustum_look_at(&fr, eye, target, up, 1, 1, 1, 0.5f) == SATC_ERR_FAR &&
              satc_frustum_look_at(&fr, eye, target, up, 4, 1, 0.1f, 10) == SATC_ERR_BOUNDS &&
              satc_frustum_look_at_ortho(&fr, eye, target, up, 1, -1, -1, 1, 0, 10) == SATC_ERR_BOUNDS &&
              satc_frustum_look_at_ortho(&fr, eye, target, up, -1, 1, -1, 1, 0, INFINITY) == SATC_ERR_FAR &&
              memcmp(&fr, &canary, sizeof fr) == 0,
          "near, far and bounds get their status");
    const char *su = satc_status_string(SATC_ERR_UP), *sd = satc_status_string(SATC_ERR_DIRECTION);
    CHECK(strstr(su, "up") && strstr(su, "parallel") && strstr(su, "zero"), "SATC_ERR_UP's string: %s", su);
    CHECK(strstr(sd, "direction") && strstr(sd, "target"), "SATC_ERR_DIRECTION's string: %s", sd);
}

/* The camera a perspective convenience refuses: up (0, 1, 0) with a view
 * tilted down. look_at takes it. */
static void test_tilted(void)
{
    const float eye[3] = {0, 10, 20}, target[3] = {0, 0, 0}, up[3] = {0, 1, 0};
    float dir[3] = {0, -10, -20};
    double l = sqrt(dotf(dir, dir));
    for (int k = 0; k < 3; k++)
        dir[k] = (float)(dir[k] / l);
    satc_frustum fr;
    CHECK(satc_frustum_perspective(&fr, eye, dir, up, 1, 1.5f, 0.1f, 100) == SATC_ERR_FRAME &&
              strstr(satc_status_string(SATC_ERR_FRAME), "look-at"),
          "satc_frustum_perspective needs an orthogonal up, and its status points to look-at");
    CHECK(satc_frustum_look_at(&fr, eye, target, up, 1, 1.5f, 0.1f, 100) == SATC_OK &&
              fr.frame[1][1] > 0.89f && fr.frame[1][2] < -0.44f,
          "look_at takes up (0, 1, 0) with a tilted view and makes it orthogonal");
}

int main(void)
{
    test_tilted();
    test_perspective();
    test_orthographic();
    test_double();
    test_degenerate();
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail != 0;
}
