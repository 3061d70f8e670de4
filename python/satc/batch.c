/* Batches over numpy arrays. A float32 array whose strides satc can
 * describe (non-negative multiples of 4 bytes between volumes, any
 * multiple of 4 between components, aligned, native byte order) is read
 * where it lies: C or Fortran order, slices, transposed views, fields of
 * structured records. Anything else (float64, other layouts, Python
 * sequences) is converted once, the whole batch together, to C-ordered
 * float32 arrays the batch keeps, rounded so that each float32 volume
 * contains the given one where the form allows it (see docs/python.md). */
#include "_satc.h"

#include <math.h>
#include <string.h>
#include <structmember.h>

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

static void arg_clear(arg_t *a)
{
    Py_CLEAR(a->arr);
    for (int k = 0; k < 3; k++)
        Py_CLEAR(a->soa_refs[k]);
}

static int dtype_ok(PyArrayObject *arr, const char *name)
{
    PyArray_Descr *d = PyArray_DESCR(arr);
    if (d->kind == 'f' && d->elsize <= 8)
        return 0;
    PyObject *s = PyObject_Str((PyObject *)d);
    PyErr_Format(PyExc_TypeError, "%s: expected float32 or float64 values, got dtype %s", name,
                 s ? PyUnicode_AsUTF8(s) : "?");
    Py_XDECREF(s);
    return -1;
}

static int aligned4(const void *p, npy_intp s)
{
    return ((uintptr_t)p % 4u) == 0 && s % 4 == 0;
}

/* Shape text "(a, b, c)" into buf. */
static const char *shape_text(PyArrayObject *arr, char *buf, size_t len)
{
    size_t o = 0;
    o += (size_t)snprintf(buf + o, len - o, "(");
    for (int d = 0; d < PyArray_NDIM(arr) && o < len; d++)
        o += (size_t)snprintf(buf + o, len - o, d ? ", %ld" : "%ld", (long)PyArray_DIM(arr, d));
    if (o < len)
        snprintf(buf + o, len - o, PyArray_NDIM(arr) == 1 ? ",)" : ")");
    return buf;
}

/* The three 1-D arrays of a tuple stacked as (n, 3) doubles. */
static PyArrayObject *stack_soa(const arg_t *a)
{
    npy_intp dims[2] = {a->soa_n, 3};
    PyArrayObject *st = (PyArrayObject *)PyArray_SimpleNew(2, dims, NPY_DOUBLE);
    if (!st)
        return NULL;
    for (int k = 0; k < 3; k++) {
        PyArrayObject *c = (PyArrayObject *)PyArray_FROMANY(a->soa_refs[k], NPY_DOUBLE, 1, 1,
                                                            NPY_ARRAY_CARRAY | NPY_ARRAY_FORCECAST);
        if (!c) {
            Py_DECREF(st);
            return NULL;
        }
        const double *src = PyArray_DATA(c);
        double *dst = PyArray_DATA(st);
        for (npy_intp i = 0; i < a->soa_n; i++)
            dst[3 * i + k] = src[i];
        Py_DECREF(c);
    }
    return st;
}

/* A tuple of three 1-D arrays: separate x, y, z arrays. */
static int take_soa(PyObject *obj, arg_t *a)
{
    npy_intp n = -1, stride = 0;
    int all_f32 = 1;
    for (int k = 0; k < 3; k++) {
        PyObject *item = PyTuple_GET_ITEM(obj, k);
        PyArrayObject *c = (PyArrayObject *)PyArray_FROM_O(item);
        if (!c)
            return -1;
        a->soa_refs[k] = (PyObject *)c;
        if (dtype_ok(c, a->name) < 0)
            return -1;
        if (PyArray_NDIM(c) != 1 || (n >= 0 && PyArray_DIM(c, 0) != n)) {
            PyErr_Format(PyExc_ValueError,
                         "%s: a tuple of three arrays must hold 1-D arrays of one length", a->name);
            return -1;
        }
        n = PyArray_DIM(c, 0);
        npy_intp s = n > 1 ? PyArray_STRIDE(c, 0) : 0;
        if (k == 0)
            stride = s;
        all_f32 &= PyArray_TYPE(c) == NPY_FLOAT32 && PyArray_ISNOTSWAPPED(c) && s >= 0 &&
                   s == stride && aligned4(PyArray_DATA(c), s);
    }
    a->soa_n = n;
    if (all_f32) {
        for (int k = 0; k < 3; k++)
            a->soa[k] = PyArray_DATA((PyArrayObject *)a->soa_refs[k]);
        a->soa_stride = stride;
        a->in_place = 1;
        return 0;
    }
    a->arr = stack_soa(a);
    return a->arr ? 0 : -1;
}

/* A tuple of n items: 1 when every item is a numpy array of 1 dimension or
 * more (separate columns), 0 when none is a sequence (one shared value),
 * -1 otherwise: a tuple of lists could be columns or rows. */
static int tuple_kind(PyObject *obj, Py_ssize_t n)
{
    int arrays = 0, seqs = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *it = PyTuple_GET_ITEM(obj, k);
        if (PyArray_Check(it) && PyArray_NDIM((PyArrayObject *)it) >= 1)
            arrays++;
        else if (PyList_Check(it) || PyTuple_Check(it) || PyArray_Check(it))
            seqs++;
    }
    if (arrays == n)
        return 1;
    return arrays || seqs ? -1 : 0;
}

static int ambiguous(const char *name, int n)
{
    PyErr_Format(PyExc_TypeError,
                 "%s: a tuple of %d sequences that are not all numpy arrays is ambiguous: give "
                 "separate columns as a tuple of %d 1-D numpy arrays, rows as an array or a list",
                 name, n, n);
    return -1;
}

/*
 * Takes argument `obj`: an array whose trailing dimensions are `inner`
 * (nd_inner of them), after an optional leading volume dimension (absent:
 * one value shared by the batch, when allow_shared). matrix: the inner
 * 3x4 or 4x4 block must have one of the layouts satc reads.
 */
static int take(PyObject *obj, arg_t *a, int nd_inner, const npy_intp *inner, int allow_shared,
                int matrix)
{
    a->inner = nd_inner;
    if (obj == NULL || obj == Py_None) {
        PyErr_Format(PyExc_TypeError, "%s: an array is required", a->name);
        return -1;
    }
    if (nd_inner == 1 && PyTuple_Check(obj) && PyTuple_GET_SIZE(obj) == 3) {
        int arrays = tuple_kind(obj, 3);
        if (arrays < 0)
            return ambiguous(a->name, 3);
        if (arrays)
            return take_soa(obj, a);
    }
    if (PyArray_Check(obj)) {
        Py_INCREF(obj);
        a->arr = (PyArrayObject *)obj;
        if (dtype_ok(a->arr, a->name) < 0)
            return -1;
    } else {
        a->arr = (PyArrayObject *)PyArray_FROMANY(obj, NPY_DOUBLE, 0, 0, NPY_ARRAY_CARRAY);
        if (!a->arr) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s: expected an array of numbers", a->name);
            return -1;
        }
    }
    PyArrayObject *arr = a->arr;
    int nd = PyArray_NDIM(arr);
    int ok = (nd == nd_inner + 1) || (allow_shared && nd == nd_inner);
    int lead = nd - nd_inner;
    for (int d = 0; ok && d < nd_inner; d++)
        ok = PyArray_DIM(arr, lead + d) == inner[d] ||
             (matrix && d == 0 && inner[0] == 4 && PyArray_DIM(arr, lead) == 3);
    if (!ok) {
        char want[64], got[64];
        if (nd_inner == 0)
            snprintf(want, sizeof want, "(N,)%s", allow_shared ? " or a number" : "");
        else if (matrix)
            snprintf(want, sizeof want, "(N, 4, 4) or (N, 3, 4)");
        else if (nd_inner == 1)
            snprintf(want, sizeof want, "(N, 3)%s", allow_shared ? " or (3,)" : "");
        else
            snprintf(want, sizeof want, "(N, 3, 3)%s", allow_shared ? " or (3, 3)" : "");
        PyErr_Format(PyExc_ValueError, "%s: expected shape %s, got %s", a->name, want,
                     shape_text(arr, got, sizeof got));
        return -1;
    }
    a->shared = lead == 0;
    int in_place = PyArray_TYPE(arr) == NPY_FLOAT32 && PyArray_ISNOTSWAPPED(arr) &&
                   aligned4(PyArray_DATA(arr), 0);
    for (int d = 0; d < nd && in_place; d++) {
        npy_intp s = PyArray_STRIDE(arr, d);
        in_place = s % 4 == 0;
        if (d == 0 && lead && PyArray_DIM(arr, 0) > 1)
            in_place = in_place && s >= 0;
    }
    if (in_place && matrix) {
        npy_intp r = PyArray_STRIDE(arr, lead), c = PyArray_STRIDE(arr, lead + 1);
        npy_intp rows = PyArray_DIM(arr, lead);
        npy_intp outer = (!a->shared && PyArray_DIM(arr, 0) > 1) ? PyArray_STRIDE(arr, 0) : 64;
        if (rows == 4)
            in_place = (r == 16 && c == 4 && outer >= 64) || (r == 4 && c == 16 && outer >= 64);
        else
            in_place = (r == 16 && c == 4 && outer >= 48) || (r == 4 && c == 12 && outer >= 48);
    }
    a->in_place = in_place;
    return 0;
}

static npy_intp arg_rows(const arg_t *a)
{
    if (a->soa[0])
        return a->soa_n;
    return a->shared ? -1 : PyArray_DIM(a->arr, 0);
}

static npy_intp elem_stride(const arg_t *a)
{
    if (a->soa[0])
        return a->soa_stride;
    return (a->shared || PyArray_DIM(a->arr, 0) <= 1) ? 0 : PyArray_STRIDE(a->arr, 0);
}

/* Row j (0..2) of a vec3 argument (j = 0 for a plain vec3) as satc_vec3s. */
static satc_vec3s vec3_of(const arg_t *a, int j)
{
    satc_vec3s v;
    if (a->soa[0]) {
        v.x = a->soa[0];
        v.y = a->soa[1];
        v.z = a->soa[2];
    } else {
        int lead = a->shared ? 0 : 1;
        const char *p = PyArray_DATA(a->arr);
        npy_intp cs = PyArray_STRIDE(a->arr, PyArray_NDIM(a->arr) - 1);
        if (a->inner == 2)
            p += j * PyArray_STRIDE(a->arr, lead);
        v.x = (const float *)p;
        v.y = (const float *)(p + cs);
        v.z = (const float *)(p + 2 * cs);
    }
    v.stride = (size_t)elem_stride(a);
    return v;
}

/* The number of volumes the arguments agree on (the matrices or centers
 * first), or -1 with ValueError. */
static npy_intp common_rows(arg_t *args, int nargs)
{
    npy_intp n = -1;
    const char *from = NULL;
    for (int k = 0; k < nargs; k++) {
        npy_intp r = arg_rows(&args[k]);
        if (r < 0)
            continue;
        if (n >= 0 && r != n) {
            PyErr_Format(PyExc_ValueError, "%s: %ld volumes, but %s has %ld", args[k].name,
                         (long)r, from, (long)n);
            return -1;
        }
        n = r;
        from = args[k].name;
    }
    if (n < 0)
        PyErr_SetString(PyExc_ValueError,
                        "every argument is one shared value: the number of volumes is unknown");
    return n;
}

/* ---- one conversion, the whole batch: double, then float32 rounded ---- */

static float f_up(double x)
{
    float f = (float)x;
    if ((double)f < x)
        f = nextafterf(f, INFINITY);
    return f;
}

static float f_down(double x)
{
    float f = (float)x;
    if ((double)f > x)
        f = nextafterf(f, -INFINITY);
    return f;
}

/* A sum of non-negative doubles, widened past its own rounding. */
static double widen(double s)
{
    return s * (1.0 + 0x1p-50);
}

/* The argument as C-ordered doubles; per-volume rows get `n` rows
 * (a shared value repeated) when n >= 0. */
static PyArrayObject *as_double(arg_t *a, npy_intp n)
{
    PyArrayObject *d = a->soa[0] ? stack_soa(a)
                                 : (PyArrayObject *)PyArray_FROMANY((PyObject *)a->arr, NPY_DOUBLE, 0, 0,
                                                        NPY_ARRAY_CARRAY | NPY_ARRAY_FORCECAST);
    if (!d || n < 0 || !a->shared)
        return d;
    npy_intp dims[4] = {n, 0, 0, 0};
    int nd = PyArray_NDIM(d);
    for (int k = 0; k < nd; k++)
        dims[k + 1] = PyArray_DIM(d, k);
    PyArrayObject *r = (PyArrayObject *)PyArray_SimpleNew(nd + 1, dims, NPY_DOUBLE);
    if (r) {
        size_t sz = (size_t)PyArray_NBYTES(d);
        for (npy_intp i = 0; i < n; i++)
            memcpy((char *)PyArray_DATA(r) + (size_t)i * sz, PyArray_DATA(d), sz);
    }
    Py_DECREF(d);
    return r;
}

static PyArrayObject *new_f32_like(PyArrayObject *d)
{
    return (PyArrayObject *)PyArray_SimpleNew(PyArray_NDIM(d), PyArray_DIMS(d), NPY_FLOAT32);
}

/* Replaces a->arr by float32 `f` (C order) for the descriptor. */
static void adopt(arg_t *a, PyArrayObject *f)
{
    Py_XDECREF(a->arr);
    a->arr = f;
    a->soa[0] = NULL;
    a->shared = PyArray_NDIM(f) == a->inner;
    a->in_place = 1;
}

enum conv { CONV_NEAREST, CONV_AABB, CONV_MINMAX, CONV_OBB, CONV_SPHERE };

/*
 * Converts every argument. The rounding keeps each float32 volume
 * containing the given one: an AABB's half extents and a sphere's radius
 * grow by the center's rounding, min rounds down and max up, an OBB's
 * extents grow by the rounding of its center and axes. Half-axis boxes and
 * instance matrices are rounded to nearest (docs/python.md).
 */
static int convert_all(arg_t *args, int nargs, enum conv how, npy_intp n)
{
    PyArrayObject *d[MAX_ARGS] = {0}, *f[MAX_ARGS] = {0};
    int ok = 0;
    /* per-volume outputs when the rounding of one argument widens another */
    npy_intp rep = how == CONV_NEAREST ? -1 : n;
    int all_shared = 1;
    for (int k = 0; k < nargs; k++)
        all_shared &= args[k].shared;
    if (all_shared)
        rep = -1;
    for (int k = 0; k < nargs; k++) {
        if (!(d[k] = as_double(&args[k], rep)) || !(f[k] = new_f32_like(d[k])))
            goto done;
    }
    npy_intp rows = PyArray_NDIM(d[0]) == args[0].inner ? 1 : PyArray_DIM(d[0], 0);
    if (how == CONV_NEAREST) {
        for (int k = 0; k < nargs; k++) {
            const double *s = PyArray_DATA(d[k]);
            float *o = PyArray_DATA(f[k]);
            for (npy_intp i = 0; i < PyArray_SIZE(d[k]); i++)
                o[i] = (float)s[i];
        }
    } else if (how == CONV_AABB || how == CONV_MINMAX) {
        const double *a = PyArray_DATA(d[0]), *b = PyArray_DATA(d[1]);
        float *fa = PyArray_DATA(f[0]), *fb = PyArray_DATA(f[1]);
        for (npy_intp i = 0; i < 3 * rows; i++) {
            if (how == CONV_AABB) {
                fa[i] = (float)a[i];
                double d = fabs(a[i] - (double)fa[i]);
                fb[i] = f_up(d != 0 ? widen(fabs(b[i]) + d) : fabs(b[i]));
            } else if (a[i] <= b[i]) {
                fa[i] = f_down(a[i]);
                fb[i] = f_up(b[i]);
            } else {
                fa[i] = f_up(a[i]);
                fb[i] = f_down(b[i]);
            }
        }
    } else if (how == CONV_SPHERE) {
        const double *c = PyArray_DATA(d[0]), *r = PyArray_DATA(d[1]);
        float *fc = PyArray_DATA(f[0]), *fr = PyArray_DATA(f[1]);
        for (npy_intp i = 0; i < rows; i++) {
            double e = 0;
            for (int k = 0; k < 3; k++) {
                fc[3 * i + k] = (float)c[3 * i + k];
                double dk = c[3 * i + k] - (double)fc[3 * i + k];
                e += dk * dk;
            }
            fr[i] = f_up(e != 0 ? widen(fabs(r[i]) + widen(sqrt(e))) : fabs(r[i]));
        }
    } else { /* CONV_OBB: center, axes (3x3, rows A_j), extents */
        const double *c = PyArray_DATA(d[0]), *ax = PyArray_DATA(d[1]), *e = PyArray_DATA(d[2]);
        float *fc = PyArray_DATA(f[0]), *fax = PyArray_DATA(f[1]), *fe = PyArray_DATA(f[2]);
        for (npy_intp i = 0; i < rows; i++) {
            double r = 0, dc = 0;
            for (int k = 0; k < 3; k++) {
                fc[3 * i + k] = (float)c[3 * i + k];
                double t = c[3 * i + k] - (double)fc[3 * i + k];
                dc += t * t;
            }
            r = widen(sqrt(dc));
            for (int j = 0; j < 3; j++) {
                double da = 0;
                for (int k = 0; k < 3; k++) {
                    fax[9 * i + 3 * j + k] = (float)ax[9 * i + 3 * j + k];
                    double t = ax[9 * i + 3 * j + k] - (double)fax[9 * i + 3 * j + k];
                    da += t * t;
                }
                r = widen(r + fabs(e[3 * i + j]) * widen(sqrt(da)));
            }
            /* The residual r, expressed on the float axes (orthonormal
             * within 2^-20), needs at most r (1 + 2^-18) along each. */
            for (int j = 0; j < 3; j++)
                fe[3 * i + j] = f_up(r != 0 ? widen(fabs(e[3 * i + j]) + r * (1.0 + 0x1p-18))
                                            : fabs(e[3 * i + j]));
        }
    }
    for (int k = 0; k < nargs; k++) {
        adopt(&args[k], f[k]);
        f[k] = NULL;
    }
    ok = 1;
done:
    for (int k = 0; k < nargs; k++) {
        Py_XDECREF(d[k]);
        Py_XDECREF(f[k]);
    }
    return ok ? 0 : -1;
}

/* ---- the Batch object ---- */

static BatchObject *batch_new(const char *form)
{
    BatchObject *bo = PyObject_New(BatchObject, &satc_py_BatchType);
    if (!bo)
        return NULL;
    memset(&bo->b, 0, sizeof bo->b);
    memset(&bo->groups, 0, sizeof bo->groups);
    memset(&bo->local, 0, sizeof bo->local);
    bo->count = 0;
    bo->live = 0;
    bo->arrays = PyList_New(0);
    bo->converted = NULL;
    bo->form_name = PyUnicode_FromString(form);
    if (!bo->arrays || !bo->form_name) {
        Py_DECREF(bo);
        return NULL;
    }
    return bo;
}

/* Records the arrays and what was converted; consumes nothing. */
static int batch_keep(BatchObject *bo, arg_t *args, int nargs, int converted)
{
    bo->converted = PyTuple_New(converted ? nargs : 0);
    if (!bo->converted)
        return -1;
    for (int k = 0; k < nargs; k++) {
        if (converted) {
            PyObject *s = PyUnicode_FromString(args[k].name);
            if (!s)
                return -1;
            PyTuple_SET_ITEM(bo->converted, k, s);
        }
        if (args[k].soa[0]) {
            for (int c = 0; c < 3; c++)
                if (PyList_Append(bo->arrays, args[k].soa_refs[c]) < 0)
                    return -1;
        } else if (PyList_Append(bo->arrays, (PyObject *)args[k].arr) < 0) {
            return -1;
        }
    }
    return 0;
}

/* Common tail of the constructors: count, conversion, keep. */
static int prepare(arg_t *args, int nargs, enum conv how, npy_intp *n)
{
    *n = common_rows(args, nargs);
    if (*n < 0)
        return -1;
    int conv = 0;
    for (int k = 0; k < nargs; k++)
        conv |= !args[k].in_place;
    if (conv && convert_all(args, nargs, how, *n) < 0)
        return -1;
    return conv;
}

static PyObject *finish(BatchObject *bo, arg_t *args, int nargs, int conv, npy_intp n)
{
    bo->count = n;
    if (batch_keep(bo, args, nargs, conv) < 0) {
        Py_DECREF(bo);
        bo = NULL;
    }
    for (int k = 0; k < nargs; k++)
        arg_clear(&args[k]);
    return (PyObject *)bo;
}

static const npy_intp V3[1] = {3}, M33[2] = {3, 3}, M44[2] = {4, 4};

#define FAIL_ARGS(args, nargs)                                                                    \
    do {                                                                                          \
        for (int k_ = 0; k_ < (nargs); k_++)                                                      \
            arg_clear(&(args)[k_]);                                                               \
        return NULL;                                                                              \
    } while (0)

/* Two vec3 arguments (aabbs, minmax). */
static PyObject *pair_form(PyObject *args_, PyObject *kw, const char *fn, const char *n0,
                           const char *n1, satc_form form, enum conv how)
{
    static char *kw_aabb[] = {"center", "half", NULL}, *kw_mm[] = {"min", "max", NULL};
    PyObject *o0, *o1;
    char fmt[32];
    snprintf(fmt, sizeof fmt, "OO:%s", fn);
    if (!PyArg_ParseTupleAndKeywords(args_, kw, fmt, form == SATC_FORM_AABB ? kw_aabb : kw_mm, &o0,
                                     &o1))
        return NULL;
    arg_t a[2] = {{.name = n0}, {.name = n1}};
    npy_intp n;
    if (take(o0, &a[0], 1, V3, 1, 0) < 0 || take(o1, &a[1], 1, V3, 1, 0) < 0)
        FAIL_ARGS(a, 2);
    int conv = prepare(a, 2, how, &n);
    if (conv < 0)
        FAIL_ARGS(a, 2);
    BatchObject *bo = batch_new(fn);
    if (!bo)
        FAIL_ARGS(a, 2);
    bo->b.form = form;
    if (form == SATC_FORM_AABB) {
        bo->b.aabb.center = vec3_of(&a[0], 0);
        bo->b.aabb.half = vec3_of(&a[1], 0);
    } else {
        bo->b.minmax.min = vec3_of(&a[0], 0);
        bo->b.minmax.max = vec3_of(&a[1], 0);
    }
    return finish(bo, a, 2, conv, n);
}

PyObject *satc_py_aabbs(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    return pair_form(args, kw, "aabbs", "center", "half", SATC_FORM_AABB, CONV_AABB);
}

PyObject *satc_py_minmax(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    return pair_form(args, kw, "minmax", "min", "max", SATC_FORM_MINMAX, CONV_MINMAX);
}

PyObject *satc_py_obbs(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"center", "axes", "extents", NULL};
    PyObject *o[3];
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO:obbs", kwl, &o[0], &o[1], &o[2]))
        return NULL;
    arg_t a[3] = {{.name = "center"}, {.name = "axes"}, {.name = "extents"}};
    npy_intp n;
    if (take(o[0], &a[0], 1, V3, 1, 0) < 0 || take(o[1], &a[1], 2, M33, 1, 0) < 0 ||
        take(o[2], &a[2], 1, V3, 1, 0) < 0)
        FAIL_ARGS(a, 3);
    int conv = prepare(a, 3, CONV_OBB, &n);
    if (conv < 0)
        FAIL_ARGS(a, 3);
    BatchObject *bo = batch_new("obbs");
    if (!bo)
        FAIL_ARGS(a, 3);
    bo->b.form = SATC_FORM_OBB;
    bo->b.obb.center = vec3_of(&a[0], 0);
    for (int j = 0; j < 3; j++)
        bo->b.obb.axis[j] = vec3_of(&a[1], j);
    bo->b.obb.extent = vec3_of(&a[2], 0);
    return finish(bo, a, 3, conv, n);
}

PyObject *satc_py_half_axes(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"center", "axes", NULL};
    PyObject *o[2];
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO:half_axes", kwl, &o[0], &o[1]))
        return NULL;
    arg_t a[2] = {{.name = "center"}, {.name = "axes"}};
    npy_intp n;
    if (take(o[0], &a[0], 1, V3, 1, 0) < 0 || take(o[1], &a[1], 2, M33, 1, 0) < 0)
        FAIL_ARGS(a, 2);
    int conv = prepare(a, 2, CONV_NEAREST, &n);
    if (conv < 0)
        FAIL_ARGS(a, 2);
    BatchObject *bo = batch_new("half_axes");
    if (!bo)
        FAIL_ARGS(a, 2);
    bo->b.form = SATC_FORM_HALF_AXES;
    bo->b.half_axes.center = vec3_of(&a[0], 0);
    for (int j = 0; j < 3; j++)
        bo->b.half_axes.axis[j] = vec3_of(&a[1], j);
    return finish(bo, a, 2, conv, n);
}

PyObject *satc_py_spheres(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"center", "radius", NULL};
    PyObject *o[2];
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO:spheres", kwl, &o[0], &o[1]))
        return NULL;
    arg_t a[2] = {{.name = "center"}, {.name = "radius"}};
    npy_intp n;
    if (take(o[0], &a[0], 1, V3, 1, 0) < 0 || take(o[1], &a[1], 0, NULL, 1, 0) < 0)
        FAIL_ARGS(a, 2);
    int conv = prepare(a, 2, CONV_SPHERE, &n);
    if (conv < 0)
        FAIL_ARGS(a, 2);
    BatchObject *bo = batch_new("spheres");
    if (!bo)
        FAIL_ARGS(a, 2);
    bo->b.form = SATC_FORM_SPHERES;
    bo->b.spheres.center = vec3_of(&a[0], 0);
    bo->b.spheres.radius.p = PyArray_DATA(a[1].arr);
    bo->b.spheres.radius.stride = (size_t)elem_stride(&a[1]);
    return finish(bo, a, 2, conv, n);
}

/* Mesh ids: uint32 in place when aligned with a stride of 4k >= 0, other
 * integer arrays converted after a range check. */
static PyArrayObject *take_mesh(PyObject *obj, npy_intp n, int *converted)
{
    PyArrayObject *m = (PyArrayObject *)PyArray_FROM_O(obj);
    if (!m)
        return NULL;
    if (!PyArray_ISINTEGER(m)) {
        PyErr_SetString(PyExc_TypeError, "mesh: expected an integer array of mesh ids");
        Py_DECREF(m);
        return NULL;
    }
    if (PyArray_NDIM(m) != 1 || PyArray_DIM(m, 0) != n) {
        PyErr_Format(PyExc_ValueError, "mesh: expected shape (%ld,), one id per matrix", (long)n);
        Py_DECREF(m);
        return NULL;
    }
    npy_intp s = n > 1 ? PyArray_STRIDE(m, 0) : 0;
    if (PyArray_TYPE(m) == NPY_UINT32 && PyArray_ISNOTSWAPPED(m) && s >= 0 &&
        aligned4(PyArray_DATA(m), s))
        return m;
    PyArrayObject *w = (PyArrayObject *)PyArray_FROMANY((PyObject *)m, NPY_INT64, 1, 1,
                                                        NPY_ARRAY_CARRAY | NPY_ARRAY_FORCECAST);
    Py_DECREF(m);
    if (!w)
        return NULL;
    PyArrayObject *u = (PyArrayObject *)PyArray_SimpleNew(1, &n, NPY_UINT32);
    if (!u) {
        Py_DECREF(w);
        return NULL;
    }
    const int64_t *src = PyArray_DATA(w);
    uint32_t *dst = PyArray_DATA(u);
    for (npy_intp i = 0; i < n; i++) {
        if (src[i] < 0 || src[i] > (int64_t)UINT32_MAX) {
            PyErr_Format(PyExc_ValueError, "mesh: id %lld at %ld is not a 32-bit unsigned id",
                         (long long)src[i], (long)i);
            Py_DECREF(w);
            Py_DECREF(u);
            return NULL;
        }
        dst[i] = (uint32_t)src[i];
    }
    Py_DECREF(w);
    *converted = 1;
    return u;
}

PyObject *satc_py_instances(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"matrices", "local_center", "local_half", "mesh", NULL};
    PyObject *om, *oc, *oh, *omesh = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|O:instances", kwl, &om, &oc, &oh, &omesh))
        return NULL;
    arg_t m = {.name = "matrices"}, loc[2] = {{.name = "local_center"}, {.name = "local_half"}};
    PyArrayObject *mesh = NULL;
    int mesh_conv = 0;
    npy_intp n, nloc;
    if (take(om, &m, 2, M44, 0, 1) < 0 || take(oc, &loc[0], 1, V3, 1, 0) < 0 ||
        take(oh, &loc[1], 1, V3, 1, 0) < 0)
        goto fail;
    n = PyArray_DIM(m.arr, 0);
    if (omesh == Py_None) {
        /* per instance, or shared */
        for (int k = 0; k < 2; k++)
            if (arg_rows(&loc[k]) >= 0 && arg_rows(&loc[k]) != n) {
                PyErr_Format(PyExc_ValueError,
                             "%s: %ld local boxes for %ld matrices (give mesh= to index a table)",
                             loc[k].name, (long)arg_rows(&loc[k]), (long)n);
                goto fail;
            }
        nloc = n;
    } else {
        if (loc[0].shared || loc[1].shared) {
            PyErr_SetString(PyExc_ValueError,
                            "local_center, local_half: with mesh ids, give a (M, 3) table of local boxes");
            goto fail;
        }
        if (arg_rows(&loc[0]) != arg_rows(&loc[1])) {
            PyErr_Format(PyExc_ValueError, "local_half: %ld rows, but local_center has %ld",
                         (long)arg_rows(&loc[1]), (long)arg_rows(&loc[0]));
            goto fail;
        }
        nloc = arg_rows(&loc[0]);
        if (!(mesh = take_mesh(omesh, n, &mesh_conv)))
            goto fail;
    }
    int conv_m = !m.in_place, conv_l = !loc[0].in_place || !loc[1].in_place;
    if (conv_m && convert_all(&m, 1, CONV_NEAREST, n) < 0)
        goto fail;
    if (conv_l && convert_all(loc, 2, CONV_AABB, (loc[0].shared && loc[1].shared) ? -1 : nloc) < 0)
        goto fail;
    BatchObject *bo = batch_new("instances");
    if (!bo)
        goto fail;
    bo->b.form = SATC_FORM_INSTANCES;
    satc_instances *in = &bo->b.instances;
    npy_intp r = PyArray_STRIDE(m.arr, 1);
    int rows4 = PyArray_DIM(m.arr, 1) == 4;
    in->matrix = PyArray_DATA(m.arr);
    in->stride = n > 1 ? (size_t)PyArray_STRIDE(m.arr, 0) : (rows4 ? 64 : 48);
    in->layout = r == 16 ? SATC_AFFINE_ROWS
                         : (rows4 ? SATC_AFFINE_4X4_COLUMN_MAJOR : SATC_AFFINE_4X3_COLUMN_MAJOR);
    in->local_center = vec3_of(&loc[0], 0);
    in->local_half = vec3_of(&loc[1], 0);
    if (mesh) {
        in->mesh = PyArray_DATA(mesh);
        in->mesh_stride = n > 1 ? (size_t)PyArray_STRIDE(mesh, 0) : 4;
        in->mesh_count = (size_t)nloc;
    }
    bo->count = n;
    bo->converted = PyTuple_New(0);
    if (!bo->converted)
        goto fail_bo;
    /* the names of the converted arguments */
    const char *names[4];
    int nn = 0;
    if (conv_m)
        names[nn++] = "matrices";
    if (conv_l) {
        names[nn++] = "local_center";
        names[nn++] = "local_half";
    }
    if (mesh_conv)
        names[nn++] = "mesh";
    Py_SETREF(bo->converted, PyTuple_New(nn));
    if (!bo->converted)
        goto fail_bo;
    for (int k = 0; k < nn; k++) {
        PyObject *s = PyUnicode_FromString(names[k]);
        if (!s)
            goto fail_bo;
        PyTuple_SET_ITEM(bo->converted, k, s);
    }
    if (PyList_Append(bo->arrays, (PyObject *)m.arr) < 0)
        goto fail_bo;
    for (int k = 0; k < 2; k++) {
        if (loc[k].soa[0]) {
            for (int c = 0; c < 3; c++)
                if (PyList_Append(bo->arrays, loc[k].soa_refs[c]) < 0)
                    goto fail_bo;
        } else if (PyList_Append(bo->arrays, (PyObject *)loc[k].arr) < 0) {
            goto fail_bo;
        }
    }
    if (mesh && PyList_Append(bo->arrays, (PyObject *)mesh) < 0)
        goto fail_bo;
    Py_XDECREF(mesh);
    arg_clear(&m);
    arg_clear(&loc[0]);
    arg_clear(&loc[1]);
    return (PyObject *)bo;
fail_bo:
    Py_DECREF(bo);
fail:
    Py_XDECREF(mesh);
    arg_clear(&m);
    arg_clear(&loc[0]);
    arg_clear(&loc[1]);
    return NULL;
}

/* ---- TRS volumes and Gaussian splats ---- */

/* Quaternions: (N, 4) or (4,) shared, or a tuple of four 1-D float32
 * arrays. float32, uint8 and int8 are read in place when the four
 * components are adjacent, 4-byte aligned, with a non-negative volume
 * stride that is a multiple of 4; other layouts are copied (same type)
 * and other float types converted to float32. */
static PyArrayObject *take_quat(PyObject *obj, unsigned *fmt, int *conv, npy_intp *rows,
                                npy_intp *stride)
{
    PyArrayObject *a = NULL;
    *conv = 0;
    if (obj == NULL || obj == Py_None) {
        PyErr_SetString(PyExc_TypeError, "rotation: an array is required");
        return NULL;
    }
    int tk = PyTuple_Check(obj) && PyTuple_GET_SIZE(obj) == 4 ? tuple_kind(obj, 4) : 0;
    if (tk < 0) {
        ambiguous("rotation", 4);
        return NULL;
    }
    if (tk) {
        /* separate x, y, z, w arrays (fields of one record): in place when
         * they are adjacent float32 fields */
        PyArrayObject *c[4] = {0};
        int adjacent = 1;
        npy_intp n = -1;
        for (int k = 0; k < 4; k++) {
            c[k] = (PyArrayObject *)PyArray_FROM_O(PyTuple_GET_ITEM(obj, k));
            if (!c[k] || PyArray_NDIM(c[k]) != 1 || (n >= 0 && PyArray_DIM(c[k], 0) != n) ||
                PyArray_DESCR(c[k])->kind != 'f') {
                PyErr_Clear();
                PyErr_SetString(PyExc_TypeError,
                                "rotation: a tuple must hold four 1-D float arrays of one length");
                for (int j = 0; j <= k; j++)
                    Py_XDECREF(c[j]);
                return NULL;
            }
            n = PyArray_DIM(c[k], 0);
            adjacent &= PyArray_TYPE(c[k]) == NPY_FLOAT32 && PyArray_ISNOTSWAPPED(c[k]) &&
                        (char *)PyArray_DATA(c[k]) == (char *)PyArray_DATA(c[0]) + 4 * k &&
                        (n <= 1 || PyArray_STRIDE(c[k], 0) == PyArray_STRIDE(c[0], 0));
        }
        npy_intp s = n > 1 ? PyArray_STRIDE(c[0], 0) : 16;
        adjacent &= s >= 16 && aligned4(PyArray_DATA(c[0]), s);
        if (adjacent) {
            /* a (n, 4) view of the records over the first array's memory */
            npy_intp dims[2] = {n, 4}, st[2] = {s, 4};
            Py_INCREF(PyArray_DESCR(c[0]));
            a = (PyArrayObject *)PyArray_NewFromDescr(&PyArray_Type, PyArray_DESCR(c[0]), 2, dims, st,
                                                      PyArray_DATA(c[0]), 0, NULL);
            if (a) {
                Py_INCREF(c[0]);
                if (PyArray_SetBaseObject(a, (PyObject *)c[0]) < 0)
                    Py_CLEAR(a);
            }
        } else {
            npy_intp dims[2] = {n, 4};
            a = (PyArrayObject *)PyArray_SimpleNew(2, dims, NPY_FLOAT32);
            for (int k = 0; a && k < 4; k++) {
                PyArrayObject *f = (PyArrayObject *)PyArray_FROMANY((PyObject *)c[k], NPY_FLOAT32, 1, 1,
                                                                    NPY_ARRAY_CARRAY | NPY_ARRAY_FORCECAST);
                if (!f) {
                    Py_CLEAR(a);
                    break;
                }
                const float *src = PyArray_DATA(f);
                float *dst = PyArray_DATA(a);
                for (npy_intp i = 0; i < n; i++)
                    dst[4 * i + k] = src[i];
                Py_DECREF(f);
            }
            *conv = 1;
        }
        for (int k = 0; k < 4; k++)
            Py_DECREF(c[k]);
        if (!a)
            return NULL;
        *fmt = SATC_QUAT_F32;
        *rows = n;
        *stride = n > 1 ? PyArray_STRIDE(a, 0) : 0;
        return a;
    }
    if (PyArray_Check(obj)) {
        Py_INCREF(obj);
        a = (PyArrayObject *)obj;
    } else if (!(a = (PyArrayObject *)PyArray_FROMANY(obj, NPY_DOUBLE, 0, 0, NPY_ARRAY_CARRAY))) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "rotation: expected an array of numbers");
        return NULL;
    }
    PyArray_Descr *d = PyArray_DESCR(a);
    int type = PyArray_TYPE(a);
    if (type == NPY_UINT8)
        *fmt = SATC_QUAT_U8;
    else if (type == NPY_INT8)
        *fmt = SATC_QUAT_I8;
    else if (d->kind == 'f' && d->elsize <= 8)
        *fmt = SATC_QUAT_F32;
    else {
        PyObject *s = PyObject_Str((PyObject *)d);
        PyErr_Format(PyExc_TypeError,
                     "rotation: expected float32, float64, uint8 or int8 quaternions, got dtype %s",
                     s ? PyUnicode_AsUTF8(s) : "?");
        Py_XDECREF(s);
        Py_DECREF(a);
        return NULL;
    }
    int nd = PyArray_NDIM(a);
    if (!((nd == 2 || nd == 1) && PyArray_DIM(a, nd - 1) == 4)) {
        char got[64];
        PyErr_Format(PyExc_ValueError, "rotation: expected shape (N, 4) or (4,), got %s",
                     shape_text(a, got, sizeof got));
        Py_DECREF(a);
        return NULL;
    }
    npy_intp n = nd == 2 ? PyArray_DIM(a, 0) : -1;
    npy_intp vs = (nd == 2 && n > 1) ? PyArray_STRIDE(a, 0) : 0;
    int native = *fmt != SATC_QUAT_F32 || (type == NPY_FLOAT32 && PyArray_ISNOTSWAPPED(a));
    int in_place = native && PyArray_STRIDE(a, nd - 1) == d->elsize && vs >= 0 &&
                   aligned4(PyArray_DATA(a), vs);
    if (!in_place) {
        int to = *fmt == SATC_QUAT_F32 ? NPY_FLOAT32 : type;
        PyArrayObject *c = (PyArrayObject *)PyArray_FROMANY((PyObject *)a, to, 0, 0,
                                                            NPY_ARRAY_CARRAY | NPY_ARRAY_FORCECAST |
                                                                NPY_ARRAY_ENSURECOPY);
        Py_DECREF(a);
        if (!c)
            return NULL;
        a = c;
        vs = (nd == 2 && n > 1) ? PyArray_STRIDE(a, 0) : 0;
        *conv = 1;
    }
    *rows = n;
    *stride = vs;
    return a;
}

/* k, the splat cube's half size in scale units: finite and > 0. */
static int splat_k(PyObject *obj, float *out)
{
    double k = SATC_SPLAT_K_DEFAULT;
    if (obj && satc_py_num_arg(obj, "k", &k) < 0)
        return -1;
    if (!(k > 0) || !isfinite((float)k)) {
        char num[40];
        snprintf(num, sizeof num, "%.9g", k);
        PyErr_Format(PyExc_ValueError, "k: must be finite and > 0, got %s", num);
        return -1;
    }
    *out = (float)k;
    return 0;
}

static int keep_names(BatchObject *bo, const char **names, int nn)
{
    bo->converted = PyTuple_New(nn);
    if (!bo->converted)
        return -1;
    for (int k = 0; k < nn; k++) {
        PyObject *s = PyUnicode_FromString(names[k]);
        if (!s)
            return -1;
        PyTuple_SET_ITEM(bo->converted, k, s);
    }
    return 0;
}

static int keep_arg(BatchObject *bo, const arg_t *a)
{
    if (a->soa[0]) {
        for (int c = 0; c < 3; c++)
            if (PyList_Append(bo->arrays, a->soa_refs[c]) < 0)
                return -1;
        return 0;
    }
    return PyList_Append(bo->arrays, (PyObject *)a->arr);
}

PyObject *satc_py_trs(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"position", "rotation", "scale", "local_center", "local_half", "mesh",
                          "k", "log_scale", "wxyz", NULL};
    PyObject *op, *oq, *os, *oc = Py_None, *oh = Py_None, *omesh = Py_None, *k = NULL;
    int logs = 0, wxyz = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|OOO$Opp:trs", kwl, &op, &oq, &os, &oc, &oh,
                                     &omesh, &k, &logs, &wxyz))
        return NULL;
    arg_t ps[2] = {{.name = "position"}, {.name = "scale"}};
    arg_t loc[2] = {{.name = "local_center"}, {.name = "local_half"}};
    PyArrayObject *q = NULL, *mesh = NULL;
    BatchObject *bo = NULL;
    int has_local = oc != Py_None || oh != Py_None, conv_q = 0, conv_ps = 0, conv_l = 0, mesh_conv = 0;
    npy_intp n, nq, qs, nloc = 0;
    unsigned fmt = 0;
    float kf;
    if (splat_k(k, &kf) < 0)
        goto fail;
    if (has_local && (oc == Py_None || oh == Py_None)) {
        PyErr_SetString(PyExc_TypeError, "local_center, local_half: give both or neither");
        goto fail;
    }
    if (!has_local && omesh != Py_None) {
        PyErr_SetString(PyExc_TypeError, "mesh: mesh ids need local_center and local_half");
        goto fail;
    }
    if (take(op, &ps[0], 1, V3, 1, 0) < 0 || take(os, &ps[1], 1, V3, 1, 0) < 0 ||
        !(q = take_quat(oq, &fmt, &conv_q, &nq, &qs)))
        goto fail;
    if (arg_rows(&ps[0]) < 0 && arg_rows(&ps[1]) < 0 && nq >= 0) {
        n = nq;
    } else {
        if ((n = common_rows(ps, 2)) < 0)
            goto fail;
        if (nq >= 0 && nq != n) {
            PyErr_Format(PyExc_ValueError, "rotation: %ld volumes, but position and scale have %ld",
                         (long)nq, (long)n);
            goto fail;
        }
    }
    if (!ps[0].in_place || !ps[1].in_place) {
        conv_ps = 1;
        if (convert_all(ps, 2, CONV_NEAREST, -1) < 0)
            goto fail;
    }
    if (has_local) {
        if (take(oc, &loc[0], 1, V3, 1, 0) < 0 || take(oh, &loc[1], 1, V3, 1, 0) < 0)
            goto fail;
        if (omesh == Py_None) {
            for (int j = 0; j < 2; j++)
                if (arg_rows(&loc[j]) >= 0 && arg_rows(&loc[j]) != n) {
                    PyErr_Format(PyExc_ValueError,
                                 "%s: %ld local boxes for %ld volumes (give mesh= to index a table)",
                                 loc[j].name, (long)arg_rows(&loc[j]), (long)n);
                    goto fail;
                }
            nloc = n;
        } else {
            if (loc[0].shared || loc[1].shared || arg_rows(&loc[0]) != arg_rows(&loc[1])) {
                PyErr_SetString(PyExc_ValueError,
                                "local_center, local_half: with mesh ids, give two (M, 3) tables");
                goto fail;
            }
            nloc = arg_rows(&loc[0]);
            if (!(mesh = take_mesh(omesh, n, &mesh_conv)))
                goto fail;
        }
        if (!loc[0].in_place || !loc[1].in_place) {
            conv_l = 1;
            if (convert_all(loc, 2, CONV_AABB, (loc[0].shared && loc[1].shared) ? -1 : nloc) < 0)
                goto fail;
        }
    }
    if (!(bo = batch_new("trs")))
        goto fail;
    bo->b.form = SATC_FORM_TRS;
    satc_trs *t = &bo->b.trs;
    t->position = vec3_of(&ps[0], 0);
    t->scale = vec3_of(&ps[1], 0);
    t->rotation = PyArray_DATA(q);
    t->rotation_stride = (size_t)qs;
    t->format = fmt | (wxyz ? SATC_QUAT_WXYZ : 0u) | (logs ? SATC_TRS_LOG_SCALE : 0u);
    t->k = kf;
    if (has_local) {
        bo->local.center = vec3_of(&loc[0], 0);
        bo->local.half = vec3_of(&loc[1], 0);
        if (mesh) {
            bo->local.mesh = PyArray_DATA(mesh);
            bo->local.mesh_stride = n > 1 ? (size_t)PyArray_STRIDE(mesh, 0) : 4;
            bo->local.mesh_count = (size_t)nloc;
        }
        t->local = &bo->local;
    }
    bo->count = n;
    const char *names[6];
    int nn = 0;
    if (conv_ps)
        names[nn++] = "position", names[nn++] = "scale";
    if (conv_q)
        names[nn++] = "rotation";
    if (conv_l)
        names[nn++] = "local_center", names[nn++] = "local_half";
    if (mesh_conv)
        names[nn++] = "mesh";
    if (keep_names(bo, names, nn) < 0 || keep_arg(bo, &ps[0]) < 0 || keep_arg(bo, &ps[1]) < 0 ||
        PyList_Append(bo->arrays, (PyObject *)q) < 0 ||
        (has_local && (keep_arg(bo, &loc[0]) < 0 || keep_arg(bo, &loc[1]) < 0)) ||
        (mesh && PyList_Append(bo->arrays, (PyObject *)mesh) < 0))
        goto fail;
    Py_XDECREF(q);
    Py_XDECREF(mesh);
    for (int j = 0; j < 2; j++)
        arg_clear(&ps[j]), arg_clear(&loc[j]);
    return (PyObject *)bo;
fail:
    Py_XDECREF(bo);
    Py_XDECREF(q);
    Py_XDECREF(mesh);
    for (int j = 0; j < 2; j++)
        arg_clear(&ps[j]), arg_clear(&loc[j]);
    return NULL;
}

PyObject *satc_py_splats(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"records", "k", NULL};
    PyObject *orec, *k = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:splats", kwl, &orec, &k))
        return NULL;
    float kf;
    if (splat_k(k, &kf) < 0)
        return NULL;
    if (!PyArray_Check(orec)) {
        PyErr_SetString(PyExc_TypeError,
                        "records: expected a numpy array of 32-byte records (a 32-byte dtype, or "
                        "uint8 of shape (N, 32))");
        return NULL;
    }
    PyArrayObject *a = (PyArrayObject *)orec;
    int nd = PyArray_NDIM(a);
    npy_intp n, rs;
    if (nd == 1 && PyArray_DESCR(a)->elsize == 32 && PyArray_DESCR(a)->kind == 'V') {
        n = PyArray_DIM(a, 0);
    } else if (nd == 2 && PyArray_TYPE(a) == NPY_UINT8 && PyArray_DIM(a, 1) == 32) {
        n = PyArray_DIM(a, 0);
        if (n > 0 && PyArray_STRIDE(a, 1) != 1)
            goto copy;
    } else {
        char got[64];
        PyObject *s = PyObject_Str((PyObject *)PyArray_DESCR(a));
        PyErr_Format(PyExc_TypeError,
                     "records: expected a 1-D array of a 32-byte record dtype or uint8 of shape "
                     "(N, 32), got dtype %s, shape %s",
                     s ? PyUnicode_AsUTF8(s) : "?", shape_text(a, got, sizeof got));
        Py_XDECREF(s);
        return NULL;
    }
    rs = n > 1 ? PyArray_STRIDE(a, 0) : 32;
    int conv = 0;
    if (!(rs >= 32 && aligned4(PyArray_DATA(a), rs))) {
    copy:;
        /* not readable in place: one aligned copy of the bytes */
        npy_intp dims[2] = {PyArray_DIM(a, 0), 32};
        PyArrayObject *c = (PyArrayObject *)PyArray_SimpleNew(2, dims, NPY_UINT8);
        if (!c)
            return NULL;
        for (npy_intp i = 0; i < dims[0]; i++) {
            const char *src = (const char *)PyArray_DATA(a) + i * PyArray_STRIDE(a, 0);
            char *dst = (char *)PyArray_DATA(c) + 32 * i;
            if (nd == 2)
                for (int b = 0; b < 32; b++)
                    dst[b] = src[b * PyArray_STRIDE(a, 1)];
            else
                memcpy(dst, src, 32);
        }
        a = c;
        n = dims[0];
        rs = 32;
        conv = 1;
    } else {
        Py_INCREF(a);
    }
    BatchObject *bo = batch_new("trs");
    if (!bo) {
        Py_DECREF(a);
        return NULL;
    }
    const float *rec = PyArray_DATA(a);
    bo->b.form = SATC_FORM_TRS;
    bo->b.trs.position = SATC_VEC3S_AOS(rec, (size_t)(n > 1 ? rs : 0));
    bo->b.trs.scale = SATC_VEC3S_AOS(rec + 3, (size_t)(n > 1 ? rs : 0));
    bo->b.trs.rotation = (const char *)rec + 28;
    bo->b.trs.rotation_stride = (size_t)(n > 1 ? rs : 0);
    bo->b.trs.format = SATC_QUAT_U8 | SATC_QUAT_WXYZ;
    bo->b.trs.k = kf;
    bo->count = n;
    const char *names[1] = {"records"};
    int rc = keep_names(bo, names, conv) < 0 || PyList_Append(bo->arrays, (PyObject *)a) < 0;
    Py_DECREF(a);
    if (rc) {
        Py_DECREF(bo);
        return NULL;
    }
    return (PyObject *)bo;
}

int satc_py_vec3_rows(PyObject *obj, const char *name, BatchObject *bo, satc_vec3s *out,
                      Py_ssize_t *n)
{
    arg_t a = {.name = name};
    if (take(obj, &a, 1, V3, 0, 0) < 0) {
        arg_clear(&a);
        return -1;
    }
    *n = arg_rows(&a);
    if (!a.in_place && convert_all(&a, 1, CONV_NEAREST, -1) < 0) {
        arg_clear(&a);
        return -1;
    }
    *out = vec3_of(&a, 0);
    int rc = 0;
    if (a.soa[0]) {
        for (int c = 0; c < 3 && rc == 0; c++)
            rc = PyList_Append(bo->arrays, a.soa_refs[c]);
    } else {
        rc = PyList_Append(bo->arrays, (PyObject *)a.arr);
    }
    arg_clear(&a);
    return rc;
}

/* ---- type ---- */

static void batch_dealloc(BatchObject *self)
{
    Py_XDECREF(self->arrays);
    Py_XDECREF(self->converted);
    Py_XDECREF(self->form_name);
    PyObject_Free(self);
}

static Py_ssize_t batch_len(BatchObject *self)
{
    return self->count;
}

static PyObject *batch_repr(BatchObject *self)
{
    return PyUnicode_FromFormat("satc.Batch(%U, %zd volumes%s%s)", self->form_name, self->count,
                                PyTuple_GET_SIZE(self->converted) ? ", converted to float32" : "",
                                !self->b.groups ? "" : self->live ? ", grouped" : ", grouped (static)");
}

static PyObject *batch_get_groups(BatchObject *self, void *c)
{
    (void)c;
    if (!self->b.groups)
        Py_RETURN_NONE;
    return PyLong_FromSize_t(self->groups.ngroups);
}

static PyMemberDef batch_members[] = {
    {"form", T_OBJECT_EX, offsetof(BatchObject, form_name), READONLY,
     "The form: 'aabbs', 'minmax', 'obbs', 'half_axes', 'instances', 'spheres' or 'trs'."},
    {"converted", T_OBJECT_EX, offsetof(BatchObject, converted), READONLY,
     "Names of the arguments read from a float32 copy (empty: every array is read in place)."},
    {NULL}};

static PyObject *batch_get_arrays(BatchObject *self, void *c)
{
    (void)c;
    return PyList_AsTuple(self->arrays);
}

static PyGetSetDef batch_getset[] = {
    {"arrays", (getter)batch_get_arrays, NULL,
     "The arrays the batch reads, kept alive by it (a tuple: the batch's own list stays as it is).",
     NULL},
    {"ngroups", (getter)batch_get_groups, NULL, "Number of group bounds attached, or None.", NULL},
    {NULL}};

static PyMethodDef batch_methods[] = {
    {"grouped", (PyCFunction)(void (*)(void))satc_py_grouped, METH_VARARGS | METH_KEYWORDS,
     "grouped(size=None, offsets=None, center=None, half=None, *, static=False) -> Batch\n\n"
     "The same volumes with group bounds attached: consecutive volumes in groups\n"
     "of `size` (or [offsets[g], offsets[g+1])), each with a world AABB (center,\n"
     "half: (G, 3) arrays) containing its volumes. Culls skip or accept whole\n"
     "groups; answers equal the flat batch's. Without center/half, satc computes\n"
     "the bounds again in every call, for the groups of the call's range, so\n"
     "writes to the arrays are seen; static=True computes them once (faster;\n"
     "after a write, call grouped() again). Given center/half are read in place\n"
     "and must contain the volumes."},
    {NULL}};

static PySequenceMethods batch_seq = {.sq_length = (lenfunc)batch_len};

PyTypeObject satc_py_BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "satc.Batch",
    .tp_basicsize = sizeof(BatchObject),
    .tp_dealloc = (destructor)batch_dealloc,
    .tp_repr = (reprfunc)batch_repr,
    .tp_as_sequence = &batch_seq,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Bounding volumes in one of satc's forms, read from numpy arrays in place.\n\n"
              "Made by aabbs(), minmax(), obbs(), half_axes(), instances(), spheres(), trs()\n"
              "or splats(); "
              "len() is the number of volumes. The batch keeps its arrays alive: changing\n"
              "their values changes what the next cull sees (unless converted is not empty).",
    .tp_members = batch_members,
    .tp_getset = batch_getset,
    .tp_methods = batch_methods,
};
