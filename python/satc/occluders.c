/* Occluder choice from Python: Pyramid.pick_occluders (the largest
 * volumes in view, those seen last frame first) and the index lists
 * Pyramid.rasterize draws. */
#include "_satc.h"

#include <math.h>
#include <stdlib.h>

PyArrayObject *satc_py_take_indices(PyObject *o, const char *name, int ascending, Py_ssize_t limit)
{
    PyArrayObject *a = (PyArrayObject *)PyArray_FROM_O(o);
    if (!a || !(PyArray_ISINTEGER(a) || PyArray_SIZE(a) == 0) || PyArray_NDIM(a) != 1) {
        int shape = a && PyArray_ISINTEGER(a);
        Py_XDECREF(a);
        PyErr_Clear();
        PyErr_Format(shape ? PyExc_ValueError : PyExc_TypeError, "%s: expected a 1-D array of volume indices",
                     name);
        return NULL;
    }
    PyArrayObject *w = (PyArrayObject *)PyArray_FROMANY((PyObject *)a, NPY_INT64, 1, 1,
                                                        NPY_ARRAY_CARRAY | NPY_ARRAY_FORCECAST);
    Py_DECREF(a);
    if (!w)
        return NULL;
    npy_intp n = PyArray_DIM(w, 0);
    PyArrayObject *u = (PyArrayObject *)PyArray_SimpleNew(1, &n, NPY_UINT32);
    const int64_t *src = PyArray_DATA(w);
    for (npy_intp k = 0; u && k < n; k++) {
        if (src[k] < 0 || src[k] >= (int64_t)limit || src[k] > (int64_t)UINT32_MAX) {
            PyErr_Format(PyExc_ValueError, "%s: index %lld at %ld is not one of the batch's %zd volumes",
                         name, (long long)src[k], (long)k, limit);
            Py_CLEAR(u);
        } else if (ascending && k && src[k] <= src[k - 1]) {
            PyErr_Format(PyExc_ValueError, "%s: indices must be strictly ascending (%lld at %ld after %lld)",
                         name, (long long)src[k], (long)k, (long long)src[k - 1]);
            Py_CLEAR(u);
        } else {
            ((uint32_t *)PyArray_DATA(u))[k] = (uint32_t)src[k];
        }
    }
    Py_DECREF(w);
    return u;
}

PyObject *satc_py_pick_occluders(PyObject *self_, PyObject *args, PyObject *kw)
{
    PyramidObject *self = (PyramidObject *)self_;
    static char *kwl[] = {"batch", "max", "min_texels", "seen", "first", "count", NULL};
    PyObject *ob, *omax, *omin = NULL, *oseen = NULL, *ofirst = NULL, *ocount = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$OOOO:pick_occluders", kwl, &ob, &omax, &omin, &oseen,
                                     &ofirst, &ocount))
        return NULL;
    BatchObject *bo = satc_py_as_batch(ob);
    size_t fst, cnt;
    Py_ssize_t max;
    double mt = 0;
    if (!bo || satc_py_range(bo, ofirst, ocount, &fst, &cnt) < 0 ||
        satc_py_index_arg(omax, "max", &max) < 0 || (omin && satc_py_num_arg(omin, "min_texels", &mt) < 0))
        return NULL;
    if (max < 0) {
        PyErr_Format(PyExc_ValueError, "max: must be >= 0, got %zd", max);
        return NULL;
    }
    if (!(mt >= 0) || !isfinite(mt)) {
        PyErr_SetString(PyExc_ValueError, "min_texels: must be finite and >= 0");
        return NULL;
    }
    PyArrayObject *seen = NULL;
    if (oseen && oseen != Py_None && !(seen = satc_py_take_indices(oseen, "seen", 1, bo->count)))
        return NULL;
    size_t room = (size_t)max < cnt ? (size_t)max : cnt;
    uint32_t *idx = malloc((room ? room : 1) * sizeof *idx);
    float *area = malloc((room ? room : 1) * sizeof *area);
    if (!idx || !area) {
        free(idx), free(area), Py_XDECREF(seen);
        return PyErr_NoMemory();
    }
    const uint32_t *prev = seen ? PyArray_DATA(seen) : NULL;
    size_t nprev = seen ? (size_t)PyArray_DIM(seen, 0) : 0, got = 0;
    satc_status st;
    Py_BEGIN_ALLOW_THREADS
    st = satc_occluders_pick_first(&self->p, &bo->b, fst, cnt, prev, nprev, (float)mt, room, idx, area, &got);
    Py_END_ALLOW_THREADS
    free(area);
    Py_XDECREF(seen);
    if (st != SATC_OK) {
        free(idx);
        return satc_py_status_error(st, "pick_occluders");
    }
    return satc_py_own_array(idx, (npy_intp)got, NPY_UINT32, sizeof *idx);
}
