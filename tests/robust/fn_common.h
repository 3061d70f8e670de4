/*
 * Shared by the false-negative tests (test_findings, test_hunt): the
 * caller's floating-point mode, volumes given as parallelepipeds in three
 * box forms, culling them on every path and mode, and the double/long
 * double truth they are checked against (independent of satc's method).
 */
#ifndef FN_COMMON_H
#define FN_COMMON_H

#include <stddef.h>

#include "satc.h"

/* ---- flush-to-zero / denormals-are-zero ---- */

/* Sets (on != 0) or clears FTZ and DAZ (x86 MXCSR; AArch64 FPCR.FZ) and
 * returns the previous control word; fn_fp_restore puts it back. Returns
 * the word unchanged on targets without such a mode (fn_fp_has_ftz 0). */
unsigned long long fn_fp_set(int on);
void fn_fp_restore(unsigned long long word);
int fn_fp_has_ftz(void);

/* ---- volumes ---- */

/* The parallelepiped C + sum_j t_j e_j A_j, |t_j| <= 1 (floats as given),
 * with a witness: parameters t of a point the truth test accepts. */
typedef struct fn_vol {
    float c[3];
    float a[3][3]; /* a[j] = A_j, any length */
    float e[3];
    double t[3];
    float rad; /* sphere form: set by fn_want / fn_sphere_radius */
} fn_vol;

/* Sets v->rad: the distance from C to the OBB witness, rounded up. */
void fn_sphere_radius(fn_vol *v);

/* Forms a volume is presented in: OBB (A_j, e_j), half axes (fl(e_j A_j)),
 * instance matrices (columns fl(e_j A_j), unit local half extents), and
 * for volumes whose axes are the world axes, AABB (center, e_j); and the
 * sphere about C through the OBB witness (radius rounded up). */
enum { FN_OBB, FN_HALF, FN_INST, FN_AABB, FN_SPHERE, FN_NFORMS };
extern const char *const fn_form_name[FN_NFORMS];
/* 1 when v's axes are exactly +-the world axes in order (AABB form). */
int fn_world_axes(const fn_vol *v);

/* The witness point of v in form `form`, world coordinates in double. */
void fn_witness(const fn_vol *v, int form, double p[3]);

/* ---- truth ---- */

/* Largest plane excess of world point p against camera c (> 0 outside),
 * each plane's function divided by the 1-norm of its frame normal, so the
 * value is a distance up to a factor sqrt(3). Double precision. */
double fn_excess(const satc_camera *c, const double p[3]);
/* The magnitude the excess is relative to: |p - E|_1 + the camera's size. */
double fn_scale(const satc_camera *c, const double p[3]);

/* ---- culling ---- */

/* Culls the n volumes (those with want[i] set) in form `form` on path isa
 * in mode m with FTZ/DAZ `ftz`, and returns how many wanted ones were
 * reported hidden (false negatives); -1 on a status other than SATC_OK.
 * The first few misses are printed with `tag`. */
long fn_cull_check(const satc_frustum *f, const fn_vol *v, const unsigned char *want, size_t n,
                   int form, satc_isa isa, satc_mode m, int ftz, const char *tag);

/* A camera printed with misses when FN_DEBUG is set (or NULL). */
extern const satc_camera *fn_debug_cam;

/* Every runnable path x both modes x FTZ off/on (where it exists) x every
 * form: total false negatives (a status other than OK counts as one). */
long fn_check_all(const satc_frustum *f, const fn_vol *v, const unsigned char *want, size_t n,
                  const char *tag);

/* The wanted mask for v against camera c: the witness of each form has
 * excess <= slack * fn_scale (slack may be negative: strictly inside).
 * want[i] bit k set when form k's witness qualifies. Returns how many
 * volumes have every bit. */
size_t fn_want(const satc_camera *c, fn_vol *v, size_t n, double slack,
               unsigned char *want);

/* ---- matrices (fn_matrix.c) ---- */

#define FN_NCONVS 9
/* Every depth convention, column- and row-major. */
extern const unsigned fn_convs[FN_NCONVS];
/* glm perspective(fovy, aspect, n, fa) x lookAt(eye, at) in double for
 * conventions conv (reversed and infinite variants included). */
void fn_view_proj(double fovy, double aspect, double n, double fa, const double eye[3],
                  const double at[3], unsigned conv, double M[4][4]);
/* glm ortho(l, r, b, t, n, fa) x lookAt(eye, at). */
void fn_view_ortho(double l, double r, double b, double t, double n, double fa,
                   const double eye[3], const double at[3], unsigned conv, double M[4][4]);
/* M rounded to float as mf[row][col] and the array satc reads; 0 when
 * an entry is not finite. */
int fn_round_matrix(const double M[4][4], unsigned conv, float mf[4][4], float arr[16]);
/* Solves mf x = b in long double; 0 when singular. */
int fn_solve4(const float mf[4][4], const long double b[4], long double x[4]);
/* Point p inside the float matrix's clip volume with a 2^-50 margin. */
int fn_in_clip(const float mf[4][4], const double p[3], unsigned conv);

/* Random helpers (splitmix64). */
typedef struct fn_rng {
    unsigned long long s;
} fn_rng;
unsigned long long fn_next(fn_rng *r);
double fn_unif(fn_rng *r, double lo, double hi);
/* A random rotation, rows orthonormal in double. */
void fn_rotation(fn_rng *r, double R[3][3]);
/* A float frame (L, U, D) from R's rows that satc accepts. */
void fn_frame(const double R[3][3], satc_camera *c);
/* world = E + x L + y U + z D (double, frame of c). */
void fn_to_world(const satc_camera *c, const double q[3], double w[3]);

/* 2^u, u uniform in [lo_exp, hi_exp). */
double fn_logu(fn_rng *r, double lo_exp, double hi_exp);
/* Frame point q on the boundary of c's frustum: on a face (1 coordinate
 * pinned), an edge (2) or a corner (3), at a random depth; nrm gets the
 * sum of the pinned planes' outward frame normals. */
void fn_boundary_point(fn_rng *r, const satc_camera *c, double q[3], double nrm[3]);
/* A volume whose witness is world point P: random rotation (sometimes
 * skewed), half-axis lengths s 2^[lo, hi) (some 0), as unit axes with
 * extents, long axes with extent 1, or with a component snapped to 0 or a
 * subnormal; P is a vertex, edge, face or interior point, and the box
 * extends away from world direction nw (mostly) or towards it. */
void fn_volume_at(fn_rng *r, double s, double lo, double hi, const double P[3], const double nw[3],
                  fn_vol *v);

#endif
