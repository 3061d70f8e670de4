/* The satc extension module: shared declarations of its three files
 * (module.c: frusta and the module; batch.c: numpy arrays read in place;
 * cull.c: culls, views, queries, group bounds). */
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

extern PyTypeObject satc_py_FrustumType;
extern PyTypeObject satc_py_BatchType;

/* batch.c: the batch constructors (module functions). */
PyObject *satc_py_aabbs(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_minmax(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_obbs(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_half_axes(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_instances(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_spheres(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_trs(PyObject *self, PyObject *args, PyObject *kw);
PyObject *satc_py_splats(PyObject *self, PyObject *args, PyObject *kw);

/* batch.c: a (G, 3) float32 array kept by the batch, in place when its
 * layout allows (for group bounds). */
int satc_py_vec3_rows(PyObject *obj, const char *name, BatchObject *bo, satc_vec3s *out,
                      Py_ssize_t *n);

/* cull.c: module functions. */
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
void satc_py_cull_init(void);
/* Without the GIL: the descriptor for volumes [first, first + count);
 * SATC_OK or a status (nomem: *nomem set). satc_py_call_end frees it. */
satc_status satc_py_call_begin(const BatchObject *bo, size_t first, size_t count, satc_py_call *c,
                               int *nomem);
void satc_py_call_end(satc_py_call *c);

/* module.c: errors. A ValueError "<what>: <status string>". */
PyObject *satc_py_status_error(satc_status st, const char *what);
/* The mode named by a str ("exact", "conservative"), -1 with TypeError/ValueError set. */
int satc_py_mode(PyObject *obj, satc_mode *out);
/* The path named by a str or None (0: the active one), -1 with an error set. */
int satc_py_isa(PyObject *obj, unsigned *out);
/* A number (NaN and Inf let through), TypeError naming the argument. */
int satc_py_num_arg(PyObject *obj, const char *name, double *out);
/* An integer (int, numpy integers, anything with __index__; not bool). */
int satc_py_index_arg(PyObject *obj, const char *name, Py_ssize_t *out);
/* A finite vector of 3 numbers as float (double kept in *d when not NULL). */
int satc_py_vec3_arg(PyObject *obj, const char *name, float out[3], double *d);

#endif
