/* The satc extension module: shared declarations. Files, top to bottom
 * (each calls only those below it): module.c (frusta, the module table);
 * cull.c, queries.c, occlusion.c; groups.c and pyramid.c; batch.c and
 * trs.c (batch constructors) over arrays.c (numpy arrays read in place);
 * outs.c (outputs) and args.c (arguments, errors); batch_type.c. */
#ifndef SATC_PY_H
#define SATC_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL satc_py_ARRAY_API
#ifndef SATC_PY_MODULE
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include <satc.h>

/* satc.Frustum: a built satc_frustum (plain data, copied freely). */
typedef struct {
    PyObject_HEAD
    satc_frustum f;
} FrustumObject;

/* satc.Batch: a satc_batch over numpy memory, the arrays kept alive. */
typedef struct {
    PyObject_HEAD
    satc_batch b;
    satc_groups groups;  /* b.groups points here when grouped */
    satc_local_boxes local; /* b.trs.local points here for TRS volumes with local boxes */
    Py_ssize_t count;    /* volumes in the batch */
    PyObject *arrays;    /* list: every array the descriptor points into */
    PyObject *converted; /* tuple of the argument names read from a float32 copy */
    PyObject *form_name; /* str */
    int live;            /* group bounds satc computed: recomputed by every call */
} BatchObject;

/* The batch descriptor one call reads: for live group bounds, a copy whose
 * bounds of the groups over the call's range are computed again from the
 * arrays (in scratch owned by the call, so threads never share them). */
typedef struct {
    const satc_batch *b;
    satc_batch copy;
    satc_groups groups;
    float *scratch;
} satc_py_call;

/* satc.Pyramid: a depth pyramid of one view over storage it owns. */
typedef struct {
    PyObject_HEAD
    satc_pyramid p;
    float *storage;
    void *coverage; /* merged coverage of the draws (NULL: not merged) */
    size_t coverage_bytes;
} PyramidObject;
/* pyramid_fill.c: Pyramid.fill. */
PyObject *satc_py_pyramid_fill(PyramidObject *self, PyObject *args, PyObject *kw);
/* Empties the merged-coverage layers (when the pyramid has them) after
 * level 0 was replaced. */
void satc_py_pyramid_reset_coverage(PyramidObject *o);

extern PyTypeObject satc_py_FrustumType;
extern PyTypeObject satc_py_PyramidType;
extern PyTypeObject satc_py_BatchType;

/* batch.c, trs.c: the batch constructors (module functions). */
PyObject *satc_py_aabbs(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_minmax(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_obbs(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_half_axes(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_instances(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_spheres(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_trs(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_splats(PyObject *self, PyObject *args, PyObject *kw);

/* arrays.c: a (G, 3) float32 array kept by the batch, in place when its
 * layout allows (for group bounds). */
int satc_py_vec3_rows(PyObject *obj, const char *name, BatchObject *bo, satc_vec3s *out,
                      Py_ssize_t *n);

/* cull.c, queries.c, groups.c: module functions. */
PyObject *satc_py_cull(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_cull_views(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_query_sphere(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_query_ray(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_group_bounds(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_grouped(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_to_aabbs(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_cull_depth(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_sort_depth(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_time_c_cull(PyObject *self, PyObject *args, PyObject *kw);
/* Without the GIL: the descriptor for volumes [first, first + count);
 * SATC_OK or a status (nomem: *nomem set). satc_py_call_end frees it. */
satc_status satc_py_call_begin(const BatchObject *bo, size_t first, size_t count, satc_py_call *c,
                               int *nomem);
void satc_py_call_end(satc_py_call *c);

/* args.c: errors. A ValueError "<what>: <status string>". */
PyObject *satc_py_status_error(satc_status st, const char *what);
/* The mode named by a str ("exact", "conservative"), -1 with TypeError/ValueError set. */
int satc_py_mode(PyObject *obj, satc_mode *out);
/* The path named by a str or None (0: the active one), -1 with an error set. */
int satc_py_isa(PyObject *obj, unsigned *out);
/* A number (NaN and Inf let through), TypeError naming the argument. */
int satc_py_num_arg(PyObject *obj, const char *name, double *out);
/* An integer (int, numpy integers, anything with __index__; not bool). */
int satc_py_index_arg(PyObject *obj, const char *name, Py_ssize_t *out);
/* An integer in 0..2^32-1: TypeError or ValueError naming the argument. */
int satc_py_u32_arg(PyObject *obj, const char *name, uint32_t *out);
/* A finite vector of 3 numbers as float (double kept in *d when not NULL). */
int satc_py_vec3_arg(PyObject *obj, const char *name, float out[3], double *d);
/* A 4x4 array of finite numbers, m[4 r + c] = element (r, c) as float
 * (row-major): TypeError or ValueError naming the argument. */
int satc_py_matrix4_arg(PyObject *obj, const char *name, float m[16]);

/* args.c: the other shared arguments. */
enum out_kind { OUT_MASK, OUT_INDICES, OUT_CLASSES, OUT_BITMASK, OUT_COUNT };
int satc_py_finite_arg(PyObject *obj, const char *name, double *out, int allow_inf);
PyObject *satc_py_isa_set(unsigned mask);
int satc_py_out_kind(PyObject *obj, enum out_kind *k);
BatchObject *satc_py_as_batch(PyObject *o);
const satc_frustum *satc_py_as_frustum(PyObject *o, const char *name);
int satc_py_range(BatchObject *bo, PyObject *ofirst, PyObject *ocount, size_t *f, size_t *c);
int satc_py_span_args(BatchObject *bo, PyObject *omode, satc_mode *mode, PyObject *oout,
                      enum out_kind *kind, PyObject *oisa, unsigned *isa, PyObject *first,
                      PyObject *ocount, size_t *fst, size_t *cnt);

/* outs.c: one volume range's outputs of one view. */
typedef struct {
    enum out_kind kind;
    PyObject *arr;   /* mask, classes, bitmask */
    uint8_t *bits;   /* mask: the bitmask before unpacking */
    uint32_t *index; /* indices: malloc'd */
    float *t;        /* rays: malloc'd */
    satc_results r;
} outs_t;
void satc_py_outs_init(void);
PyObject *satc_py_own_array(void *buf, npy_intp n, int type, size_t esize);
int satc_py_outs_prepare(outs_t *o, size_t count, int want_t);
void satc_py_outs_clear(outs_t *o);
void satc_py_outs_after(outs_t *o, size_t count);
PyObject *satc_py_outs_result(outs_t *o);

/* groups.c: a call's status as a Python error (MemoryError when nomem). */
PyObject *satc_py_call_error(satc_status st, int nomem, const char *what);
/* One call of a single-view function over volumes [first, first + count)
 * of a batch, without the GIL: fn(ctx, isa, b, first, count, mode, r, t)
 * is satc's function (isa 0: the default path). */
typedef satc_status (*satc_py_span_fn)(void *ctx, unsigned isa, const satc_batch *b, size_t first,
                                       size_t count, satc_mode mode, satc_results *r, float *t);
/* Prepares o (want_t: the t array too), runs fn with the group bounds of
 * the batch and, without t, fills o's output from its counts; 0, or -1 with the
 * Python error set (what: the call's name) and o cleared. */
int satc_py_run_span(BatchObject *bo, size_t first, size_t count, satc_mode mode, unsigned isa,
                     outs_t *o, int want_t, satc_py_span_fn fn, void *ctx, const char *what);


/* pyramid.c: a view argument: a Frustum, or a Pyramid (*pyr set, else NULL). */
const satc_frustum *satc_py_as_view(PyObject *o, const char *name, const satc_pyramid **pyr);

/* occluders.c: 1-D volume indices below limit (a batch's count) as
 * uint32, strictly ascending when asked; NULL with a TypeError or
 * ValueError naming the argument. And Pyramid.pick_occluders. */
PyArrayObject *satc_py_take_indices(PyObject *o, const char *name, int ascending, Py_ssize_t limit);
PyObject *satc_py_pick_occluders(PyObject *self, PyObject *args, PyObject *kw);

/* occlusion.c: module functions. */
PyObject *satc_py_visibility(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_time_c_occlusion(PyObject *self, PyObject *args, PyObject *kw);

#endif
