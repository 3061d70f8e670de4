/* The batch constructors' view of their numpy arguments (arrays.c). */
#ifndef SATC_PY_ARRAYS_H
#define SATC_PY_ARRAYS_H

#include "_satc.h"

enum { MAX_ARGS = 4 };

typedef struct {
    const char *name;
    PyArrayObject *arr; /* owned: as given, or stacked from a tuple of 1-D arrays */
    int inner;          /* trailing dimensions: 0 scalars, 1 vec3, 2 a 3x3 or a matrix */
    int shared;         /* one value for the batch (no leading volume dimension) */
    int in_place;       /* float32 in a layout satc reads */
    /* a tuple of three 1-D float32 arrays read in place (separate arrays) */
    const float *soa[3];
    npy_intp soa_stride, soa_n;
    PyObject *soa_refs[3];
} arg_t;

enum conv { CONV_NEAREST, CONV_AABB, CONV_MINMAX, CONV_OBB, CONV_SPHERE };

static const npy_intp V3[1] = {3}, M33[2] = {3, 3}, M44[2] = {4, 4};

#define FAIL_ARGS(args, nargs)                                                                    \
    do {                                                                                          \
        for (int k_ = 0; k_ < (nargs); k_++)                                                      \
            satc_py_arg_clear(&(args)[k_]);                                                               \
        return NULL;                                                                              \
    } while (0)

void satc_py_arg_clear(arg_t *a);
int satc_py_dtype_ok(PyArrayObject *arr, const char *name);
int satc_py_aligned4(const void *p, npy_intp s);
const char *satc_py_shape_text(PyArrayObject *arr, char *buf, size_t len);
int satc_py_tuple_kind(PyObject *obj, Py_ssize_t n);
int satc_py_ambiguous(const char *name, int n);
int satc_py_take(PyObject *obj, arg_t *a, int nd_inner, const npy_intp *inner, int allow_shared,
                 int matrix);
npy_intp satc_py_arg_rows(const arg_t *a);
npy_intp satc_py_elem_stride(const arg_t *a);
satc_vec3s satc_py_vec3_of(const arg_t *a, int j);
npy_intp satc_py_common_rows(arg_t *args, int nargs);
int satc_py_convert_all(arg_t *args, int nargs, enum conv how, npy_intp n);
BatchObject *satc_py_batch_new(const char *form);
int satc_py_batch_keep(BatchObject *bo, arg_t *args, int nargs, int converted);
int satc_py_prepare(arg_t *args, int nargs, enum conv how, npy_intp *n);
PyObject *satc_py_finish(BatchObject *bo, arg_t *args, int nargs, int conv, npy_intp n);
PyArrayObject *satc_py_take_mesh(PyObject *obj, npy_intp n, int *converted);
int satc_py_keep_names(BatchObject *bo, const char **names, int nn);
int satc_py_keep_arg(BatchObject *bo, const arg_t *a);
int satc_py_local_boxes(arg_t loc[2], PyObject *omesh, npy_intp n, const char *what,
                        PyArrayObject **mesh, npy_intp *nloc, int *conv_l, int *mesh_conv);

#endif
