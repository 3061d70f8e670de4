/* What checkasm's files share (checkasm.c: the paths, batches, outputs
 * and comparisons; checkasm_forms.c: every form and layout of a batch;
 * checkasm_groups.c, checkasm_early.c, checkasm_occlusion.c: the input
 * groups). */
#ifndef SATC_CHECKASM_H
#define SATC_CHECKASM_H

#include <stddef.h>
#include <stdint.h>

#include "core/internal.h"
#include "scenes.h"

#define NPATHS 6
/* PATH_EMU is AVX-512's emulated twin (x86), which dispatch uses only on
 * CPUs without AVX-512: compared here at kernel level where it would not
 * otherwise run (its API calls run the native path). PATH_SCALAR is the
 * scalar path (satc_kernels_scalar), compared with the reference
 * (satc_kernels_ref, which SATC_ISA_SCALAR runs under satc_scalar_use_ref). */
#define PATH_EMU 4
#define PATH_SCALAR 5

/* The floating-point environment of the FTZ/DAZ pass. */
#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE__))
#define HAVE_FTZ 1
typedef unsigned fpenv;
#elif defined(__aarch64__)
#define HAVE_FTZ 1
typedef uint64_t fpenv;
#else
#define HAVE_FTZ 0
typedef int fpenv;
#endif

typedef struct stats {
    uint64_t boxes, mismatches, canary;
} stats;

enum { NF = 15 };

typedef struct batch {
    float *mem[NF];
    float *a[NF]; /* 0-2 center, 3 + 3j + c axis[j][c], 12-14 extent */
    size_t n;
    satc_boxes view;
    satc_batch desc;  /* what is culled: the Eberly arrays, or a form built from them */
    const char *form; /* its name, for the reports */
} batch;

enum { NFORMV = 15, NTABLE = 7 };

typedef struct derived {
    float *rec;     /* records of the layout, n of them */
    uint32_t *mesh; /* ids, when the layout has them */
    float zero[3], lc[3], lh[3];
    float table[NTABLE][6];
    satc_local_boxes lb;
} derived;

extern stats g_total[NPATHS][2], g_group[NPATHS][2];
extern int g_passed, g_failed, g_verbose, g_reports;
extern const char *g_group_name;
extern int g_forms;
extern size_t g_forms_max;
extern size_t g_div;

/* checkasm.c */
fpenv env_enter(void);
void env_leave(fpenv old);
int path_on(int p);
const char *path_name(int p);
const satc_kernels *path_kernels(int p);
void *xmalloc(size_t n);
void batch_init(batch *b, size_t n, unsigned mis);
void batch_free(batch *b);
float *field_ptr_w(const satc_box_arrays *a, int q);
void batch_copy(batch *b, size_t at, const satc_boxes *src, size_t from, size_t n);
void batch_from(batch *b, const satc_boxes *src, size_t n, unsigned mis);
void compare_one(const char *what, const satc_frustum *f, const batch *b, size_t first, size_t count,
                 int kernels);

/* checkasm_forms.c */
size_t sized(size_t n);
int rounds(int n);
void derive(const batch *b, int v, derived *d, batch *out);
void derived_free(derived *d);
void compare_case(const char *what, const satc_frustum *f, const batch *b, size_t first, size_t count,
                  int kernels);

/* checkasm_groups.c */
size_t rnd_below(scn_rng *r, size_t n);
float bits_to_float(uint32_t u);
float special_value(scn_rng *r);
void persp_plane_point(const satc_frustum *f, double far, int p, scn_rng *r, double m[3], double q[3]);
void random_cameras(scn_rng *r, satc_camera cam[4], satc_frustum fr[4]);
void compare_subranges(const satc_frustum *f, const batch *b, scn_rng *r, int k);
void compare_slice(const char *what, const satc_frustum *f, const scn_scene *s, size_t from, size_t first,
                   size_t count, unsigned mis);
void poke_every(scn_rng *r, scn_scene *s, size_t step);
int moved_far(scn_rng *r, satc_camera c, satc_frustum *f);
void make_scene(scn_scene *s, scn_kind kind, size_t n, uint64_t seed, const double *off);
void make_boundary(scn_scene *s, const satc_camera *cam, size_t n, uint64_t seed);
void group_city(scn_rng *r);
void group_uniform(scn_rng *r);
void group_boundary(scn_rng *r);
void group_cameras(scn_rng *r);
void group_special(scn_rng *r);
void group_bits(scn_rng *r);
void exact_camera(scn_rng *r, int ortho, int kind, satc_camera *c);
void group_touching(scn_rng *r);
void group_apex(scn_rng *r);
void group_undecided(scn_rng *r);
void group_counts(scn_rng *r);

/* checkasm_early.c */
void group_overflow(scn_rng *r);
void group_early_out(scn_rng *r);
void group_early_box(scn_rng *r);
void group_flips(scn_rng *r);

/* checkasm_forms.c */
void group_forms_special(scn_rng *r);
void group_forms_bits(scn_rng *r);
void group_forms_touching(scn_rng *r);
void group_forms_overflow(scn_rng *r);
void group_forms_flips(scn_rng *r);
void group_forms_tails(scn_rng *r);
void group_planes(scn_rng *r);
void group_forms_planes(scn_rng *r);

/* checkasm_occlusion.c */
void group_occlusion(scn_rng *r);
void group_reduce(scn_rng *r);

#endif
