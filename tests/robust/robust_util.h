/*
 * Small helpers shared by the robustness tests: a pass/fail tally, a
 * seeded generator, the runnable paths, random boxes around a camera, one
 * call of satc_cull_batch_isa with every output form, and memory that ends
 * (or starts) at an inaccessible page.
 */
#ifndef RB_UTIL_H
#define RB_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "satc.h"

/* ---- tally: every program ends with "N passed, N failed" ---- */

/* Counts one check; prints the message (printf format) when it fails,
 * the first 30 failures only. Returns ok. */
int rb_check(int ok, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Prints the closing line and returns the exit status. */
int rb_finish(void);
/* Failures so far. */
long rb_failures(void);
/* Quick run: SATC_TEST_QUICK set, not empty and not starting with '0'. */
int rb_quick(void);

/* ---- generator (splitmix64) ---- */

typedef struct rb_rng {
    uint64_t s;
} rb_rng;

uint64_t rb_next(rb_rng *r);
/* Uniform in [lo, hi). */
double rb_uniform(rb_rng *r, double lo, double hi);

/* ---- paths ---- */

/* The runnable paths, scalar first; returns how many (<= 4). */
int rb_paths(satc_isa out[8]);

/* ---- cameras and boxes ---- */

/* A symmetric perspective camera at eye looking along a random direction
 * (seeded), 60 degrees vertical, 16:9, n, f (f may be INFINITY). */
void rb_camera_persp(satc_camera *cam, rb_rng *r, const float eye[3], float n, float f);
/* An orthographic camera: the box [-w, w] x [-h, h] x [n, f] in its frame. */
void rb_camera_ortho(satc_camera *cam, rb_rng *r, const float eye[3], float w, float h, float n,
                     float f);

/* A unit quaternion, uniformly random. */
void rb_random_quat(rb_rng *r, float q[4]);

/* A box with random rotation near cam's frustum: inside, outside, or
 * across its boundary, sizes from 0.01 to about 50. */
void rb_box_near(rb_rng *r, const satc_camera *cam, satc_obb *out);

/* ---- one cull with every output form ---- */

/* Outputs of one call, owned by the caller. */
typedef struct rb_out {
    uint8_t *bitmask;  /* (count + 7) / 8 bytes */
    uint8_t *classes;  /* count bytes */
    uint32_t *indices; /* count entries */
    size_t visible;
} rb_out;

/* Heap outputs for count boxes (count may be 0). */
void rb_out_alloc(rb_out *o, size_t count);
void rb_out_free(rb_out *o);

/* The scalar path with all three forms; aborts the program on an error
 * status (the reference must work). */
void rb_reference(const satc_frustum *f, const satc_boxes *b, size_t first, size_t count,
                  satc_mode mode, rb_out *o);

/* Checks that the forms of one result agree: bit j == (class j != 0),
 * indices are the set bits in order (absolute: + first), visible is their
 * number, bitmask bits past count are 0. Returns 1 when consistent. */
int rb_consistent(const rb_out *o, size_t first, size_t count);

/* ---- guarded memory ---- */

/* A mapping of whole pages with one PROT_NONE page after (at_end) or
 * before (!at_end) the readable ones. */
typedef struct rb_guard {
    void *map;
    size_t len;
    unsigned char *lo; /* first readable byte */
    unsigned char *hi; /* one past the last readable byte */
} rb_guard;

/* Room for `bytes` readable bytes; returns 0 on success. */
int rb_guard_alloc(rb_guard *g, size_t bytes, int at_end);
void rb_guard_free(rb_guard *g);
/* Where an object of `bytes` bytes starts so that it ends at the guard
 * (at_end) or starts right after it (!at_end). */
void *rb_guard_place(const rb_guard *g, size_t bytes);

/* Describes what is being tested, for the fault handler's message. */
void rb_set_context(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* A SIGSEGV/SIGBUS handler that prints the context and exits 1. */
void rb_catch_faults(void);

/* ---- boxes as arrays ---- */

/* Writable structure-of-arrays storage for count boxes (heap). */
typedef struct rb_batch {
    satc_box_arrays a;
    satc_boxes v;
    size_t count;
} rb_batch;

int rb_batch_alloc(rb_batch *b, size_t count);
void rb_batch_free(rb_batch *b);
void rb_batch_set(rb_batch *b, size_t i, const satc_obb *box);
/* Boxes 0 .. count - 1 of b drawn by rb_box_near around cam. */
void rb_fill_near(rb_batch *b, size_t count, rb_rng *r, const satc_camera *cam);
/* Field k of box i, fields numbered center 0-2, axis 3-11 (A_j component c
 * at 3 + 3j + c), extent 12-14. */
float *rb_field(const satc_box_arrays *a, int k, size_t i);
const char *rb_field_name(int k);

#endif
