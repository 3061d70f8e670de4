/*
 * Sets of volumes for the form tests, held as canonical floats per volume,
 * and the engine layouts they are written into (arrays, float3 arrays,
 * records with odd strides and offsets, matrices of every layout, local
 * boxes shared, per instance or by mesh id). Every layout of a set holds
 * the same floats, so every layout must give the same answer.
 */
#ifndef FM_MAKE_H
#define FM_MAKE_H

#include <stddef.h>
#include <stdint.h>

#include "forms_geom.h"
#include "robust_util.h"
#include "satc.h"

/* Canonical fields of volume i (FM_NF floats):
 *  OBB       0-2 center, 3 + 3j + k axis A_j, 12-14 extents
 *  AABB      0-2 center, 3-5 half extents
 *  MINMAX    0-2 min, 3-5 max
 *  HALF_AXES 0-2 center, 3 + 3j + k half axis H_j
 *  INSTANCES 0-11 matrix rows 0-2 (r * 4 + c), 12-14 local center,
 *            15-17 local half (the instance's, whatever the layout), 18-21
 *            bottom row (never read: garbage)
 *  SPHERES   0-2 center, 3 radius */
#define FM_NF 22
#define FM_TABLE 5

typedef enum fm_setkind { FM_OBB, FM_AABB, FM_MINMAX, FM_HALF, FM_INST_SHARED, FM_INST_TABLE, FM_SPH, FM_NSETS } fm_setkind;

typedef struct fm_set {
    fm_setkind kind;
    satc_form form;
    size_t n;
    float (*v)[FM_NF];
    uint32_t *mesh;            /* instances: ids into table */
    float table[FM_TABLE][6];  /* local center, half */
    size_t ntable;
} fm_set;

/* Number of layouts, and layout k's name, set kind and whether it reads
 * mesh ids / a shared local box. */
int fm_nlayouts(void);
const char *fm_layout_name(int k);
fm_setkind fm_layout_set(int k);
int fm_layout_mesh(int k);
int fm_layout_shared(int k);

/* Where layouts are written: the heap (the bytes before `first` and in
 * record gaps hold NaN patterns), or one guarded mapping per stream whose
 * last read byte ends at a PROT_NONE page (FM_GUARD_END) or whose element
 * `first` starts right after one (FM_GUARD_START). */
typedef enum fm_where { FM_HEAP, FM_GUARD_END, FM_GUARD_START } fm_where;
typedef struct fm_mem {
    fm_where where;
    int n;
    void *heap[24];
    rb_guard g[24];
} fm_mem;
#define FM_MEM(where) {(where), 0, {0}, {{0}}}

/* Floats of each 4x4 column-major matrix a layout may be read (the guard
 * page follows the last one's): 16 by default. satc.h says only rows 0-2
 * are read, so 15 should do; the SIMD loaders read m[15] (test
 * forms_guard_cm44, which sets 15, fails: see tests/forms/meson.build). */
extern int fm_cm44_read;

/* Writes volumes [first, first + count) of s in layout k; fills *b.
 * Returns 0, or -1 when memory failed. Free with fm_mem_free. */
int fm_build(const fm_set *s, int k, fm_mem *m, size_t first, size_t count, satc_batch *b);
void fm_mem_free(fm_mem *m);

/* Allocation of a set of n volumes (zeroed); fm_set_free frees. */
int fm_set_alloc(fm_set *s, fm_setkind kind, size_t n);
void fm_set_free(fm_set *s);
/* A copy of a set (same n). */
int fm_set_copy(fm_set *dst, const fm_set *src);

/* Volume i of s in double (what its floats describe). */
void fm_geometry(const fm_set *s, size_t i, fg_vol *out);

/* The canonical fields of its form that a volume's answer depends on:
 * per-volume fields, in order; returns their number. */
int fm_read_fields(fm_setkind kind, int fields[FM_NF]);

/* Fills s with volumes around cam's frustum: near its faces, edges and
 * corners, sizes relative to the local scale, with every adversarial
 * feature of the form (negative and zero sizes, shear, singular maps,
 * long axes, volumes 1e6 away). */
void fm_fill(fm_set *s, const satc_camera *cam, rb_rng *r);

/* The same boxes in Eberly form where one exists (twin[i] = 1); spheres
 * and sheared or singular boxes have none. o must hold s->n volumes. */
void fm_obb_twin(const fm_set *s, fm_set *o, uint8_t *twin);

#endif
