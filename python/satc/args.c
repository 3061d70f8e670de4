/* Arguments every function shares: numbers, integers, vectors, modes,
 * paths, outputs, the batch and frustum objects, ranges of a batch;
 * and the errors that name them. */
#include "_satc.h"

#include <math.h>
#include <string.h>

PyObject *satc_py_status_error(satc_status st, const char *what)
{
    PyErr_Format(PyExc_ValueError, "%s: %s", what, satc_status_string(st));
    return NULL;
}

int satc_py_mode(PyObject *obj, satc_mode *out)
{
    if (!PyUnicode_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "mode: expected 'exact' or 'conservative'");
        return -1;
    }
    const char *s = PyUnicode_AsUTF8(obj);
    if (!s)
        return -1;
    if (!strcmp(s, "exact"))
        *out = SATC_EXACT;
    else if (!strcmp(s, "conservative"))
        *out = SATC_CONSERVATIVE;
    else {
        PyErr_Format(PyExc_ValueError, "mode: expected 'exact' or 'conservative', got '%s'", s);
        return -1;
    }
    return 0;
}

static const struct {
    const char *name;
    unsigned bit;
} isa_names[] = {{"scalar", SATC_ISA_SCALAR}, {"sse41", SATC_ISA_SSE41}, {"avx2", SATC_ISA_AVX2},
                 {"avx512", SATC_ISA_AVX512}, {"neon", SATC_ISA_NEON}};

int satc_py_isa(PyObject *obj, unsigned *out)
{
    *out = 0;
    if (obj == NULL || obj == Py_None)
        return 0;
    const char *s = PyUnicode_Check(obj) ? PyUnicode_AsUTF8(obj) : NULL;
    if (!s) {
        PyErr_SetString(PyExc_TypeError, "isa: expected a path name or None");
        return -1;
    }
    for (size_t k = 0; k < sizeof isa_names / sizeof isa_names[0]; k++)
        if (!strcmp(s, isa_names[k].name)) {
            *out = isa_names[k].bit;
            if (!(satc_isa_runnable() & *out)) {
                PyErr_Format(PyExc_ValueError, "isa: path '%s' is not runnable here", s);
                return -1;
            }
            return 0;
        }
    PyErr_Format(PyExc_ValueError, "isa: unknown path '%s'", s);
    return -1;
}

int satc_py_num_arg(PyObject *obj, const char *name, double *out)
{
    double v = PyUnicode_Check(obj) || PyBytes_Check(obj) ? -1.0 : PyFloat_AsDouble(obj);
    if (v == -1.0 && (PyErr_Occurred() || PyUnicode_Check(obj) || PyBytes_Check(obj))) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: expected a number, got %s", name, Py_TYPE(obj)->tp_name);
        return -1;
    }
    *out = v;
    return 0;
}

int satc_py_matrix4_arg(PyObject *obj, const char *name, float m[16])
{
    PyArrayObject *a =
        (PyArrayObject *)PyArray_FROMANY(obj, NPY_DOUBLE, 2, 2, NPY_ARRAY_CARRAY | NPY_ARRAY_FORCECAST);
    if (!a) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: expected a 4x4 array of numbers", name);
        return -1;
    }
    if (PyArray_DIM(a, 0) != 4 || PyArray_DIM(a, 1) != 4) {
        Py_DECREF(a);
        PyErr_Format(PyExc_ValueError, "%s: expected shape (4, 4)", name);
        return -1;
    }
    const double *v = PyArray_DATA(a);
    for (int k = 0; k < 16; k++) {
        m[k] = (float)v[k];
        if (!isfinite(m[k])) {
            Py_DECREF(a);
            PyErr_Format(PyExc_ValueError, "%s: element (%d, %d) is not finite", name, k / 4, k % 4);
            return -1;
        }
    }
    Py_DECREF(a);
    return 0;
}

int satc_py_index_arg(PyObject *obj, const char *name, Py_ssize_t *out)
{
    if (PyBool_Check(obj) || !PyIndex_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected an integer, got %s", name, Py_TYPE(obj)->tp_name);
        return -1;
    }
    PyObject *i = PyNumber_Index(obj);
    Py_ssize_t v = i ? PyLong_AsSsize_t(i) : -1;
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s: %R is out of range", name, i ? i : obj);
        Py_XDECREF(i);
        return -1;
    }
    Py_DECREF(i);
    *out = v;
    return 0;
}

int satc_py_u32_arg(PyObject *obj, const char *name, uint32_t *out)
{
    Py_ssize_t v;
    if (satc_py_index_arg(obj, name, &v) < 0)
        return -1;
    if (v < 0 || (uint64_t)v > UINT32_MAX) {
        PyErr_Format(PyExc_ValueError, "%s: must be in 0..%u, got %zd", name, UINT32_MAX, v);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

int satc_py_finite_arg(PyObject *obj, const char *name, double *out, int allow_inf)
{
    if (satc_py_num_arg(obj, name, out) < 0)
        return -1;
    if (isnan(*out) || (!allow_inf && isinf(*out))) {
        PyErr_Format(PyExc_ValueError, "%s: must be finite, got %R", name, obj);
        return -1;
    }
    return 0;
}

int satc_py_vec3_arg(PyObject *obj, const char *name, float out[3], double *d)
{
    PyArrayObject *a =
        (PyArrayObject *)PyArray_FROMANY(obj, NPY_DOUBLE, 1, 1, NPY_ARRAY_CARRAY | NPY_ARRAY_FORCECAST);
    if (!a) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: expected 3 numbers", name);
        return -1;
    }
    if (PyArray_DIM(a, 0) != 3) {
        PyErr_Format(PyExc_ValueError, "%s: expected 3 numbers, got %ld", name,
                     (long)PyArray_DIM(a, 0));
        Py_DECREF(a);
        return -1;
    }
    const double *v = PyArray_DATA(a);
    for (int k = 0; k < 3; k++) {
        if (!isfinite(v[k]) || !isfinite((float)v[k])) {
            char num[40];
            snprintf(num, sizeof num, "%.9g", v[k]);
            PyErr_Format(PyExc_ValueError, "%s: must be finite (float32), got %s at index %d", name,
                         num, k);
            Py_DECREF(a);
            return -1;
        }
        out[k] = (float)v[k];
        if (d)
            d[k] = v[k];
    }
    Py_DECREF(a);
    return 0;
}

PyObject *satc_py_isa_set(unsigned mask)
{
    PyObject *l = PyList_New(0);
    for (size_t k = 0; l && k < sizeof isa_names / sizeof isa_names[0]; k++)
        if (mask & isa_names[k].bit) {
            PyObject *s = PyUnicode_FromString(isa_names[k].name);
            if (!s || PyList_Append(l, s) < 0) {
                Py_XDECREF(s);
                Py_DECREF(l);
                return NULL;
            }
            Py_DECREF(s);
        }
    return l;
}


int satc_py_out_kind(PyObject *obj, enum out_kind *k)
{
    static const char *names[] = {"mask", "indices", "classes", "bitmask", "count"};
    const char *s = obj && PyUnicode_Check(obj) ? PyUnicode_AsUTF8(obj) : NULL;
    for (int i = 0; s && i < 5; i++)
        if (!strcmp(s, names[i])) {
            *k = (enum out_kind)i;
            return 0;
        }
    PyErr_SetString(s ? PyExc_ValueError : PyExc_TypeError,
                    "output: expected 'mask', 'indices', 'classes', 'bitmask' or 'count'");
    return -1;
}

BatchObject *satc_py_as_batch(PyObject *o)
{
    if (!PyObject_TypeCheck(o, &satc_py_BatchType)) {
        PyErr_SetString(PyExc_TypeError,
                        "batch: expected a satc.Batch (from satc.aabbs, minmax, obbs, half_axes, "
                        "instances, spheres, trs or splats)");
        return NULL;
    }
    return (BatchObject *)o;
}

const satc_frustum *satc_py_as_frustum(PyObject *o, const char *name)
{
    if (!PyObject_TypeCheck(o, &satc_py_FrustumType)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a satc.Frustum", name);
        return NULL;
    }
    return &((FrustumObject *)o)->f;
}

/* [first, first + count) within the batch (ofirst, ocount: NULL or None for defaults). */
int satc_py_range(BatchObject *bo, PyObject *ofirst, PyObject *ocount, size_t *f, size_t *c)
{
    Py_ssize_t first = 0;
    if (ofirst && ofirst != Py_None && satc_py_index_arg(ofirst, "first", &first) < 0)
        return -1;
    if (first < 0 || first > bo->count) {
        PyErr_Format(PyExc_ValueError, "first: %zd is outside the batch of %zd volumes", first,
                     bo->count);
        return -1;
    }
    Py_ssize_t count = bo->count - first;
    if (ocount && ocount != Py_None) {
        if (satc_py_index_arg(ocount, "count", &count) < 0)
            return -1;
        if (count < 0 || count > bo->count - first) {
            PyErr_Format(PyExc_ValueError,
                         "count: %zd volumes from %zd pass the batch's %zd volumes", count, first,
                         bo->count);
            return -1;
        }
    }
    *f = (size_t)first;
    *c = (size_t)count;
    return 0;
}

/* The arguments the culls and queries share, checked in this order: mode
 * and output (each when given), the path, then [first, first + count). */
int satc_py_span_args(BatchObject *bo, PyObject *omode, satc_mode *mode, PyObject *oout,
                     enum out_kind *kind, PyObject *oisa, unsigned *isa, PyObject *first,
                     PyObject *ocount, size_t *fst, size_t *cnt)
{
    if ((omode && satc_py_mode(omode, mode) < 0) || (oout && satc_py_out_kind(oout, kind) < 0) ||
        satc_py_isa(oisa, isa) < 0 || satc_py_range(bo, first, ocount, fst, cnt) < 0)
        return -1;
    return 0;
}
