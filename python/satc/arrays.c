/* Batches over numpy arrays. A float32 array whose strides satc can
 * describe (non-negative multiples of 4 bytes between volumes, any
 * multiple of 4 between components, aligned, native byte order) is read
 * where it lies: C or Fortran order, slices, transposed views, fields of
 * structured records. Anything else (float64, other layouts, Python
 * sequences) is converted once, the whole batch together, to C-ordered
 * float32 arrays the batch keeps, rounded so that each float32 volume
 * contains the given one where the form allows it (see docs/python.md). */
#include "_arrays.h"

#include <math.h>
#include <string.h>
#include <structmember.h>



void satc_py_arg_clear(arg_t *a)
{
    Py_CLEAR(a->arr);
    for (int k = 0; k < 3; k++)
        Py_CLEAR(a->soa_refs[k]);
}

int satc_py_dtype_ok(PyArrayObject *arr, const char *name)
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

int satc_py_aligned4(const void *p, npy_intp s)
{
    return ((uintptr_t)p % 4u) == 0 && s % 4 == 0;
}

/* Shape text "(a, b, c)" into buf. */
const char *satc_py_shape_text(PyArrayObject *arr, char *buf, size_t len)
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
        if (satc_py_dtype_ok(c, a->name) < 0)
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
                   s == stride && satc_py_aligned4(PyArray_DATA(c), s);
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
int satc_py_tuple_kind(PyObject *obj, Py_ssize_t n)
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

int satc_py_ambiguous(const char *name, int n)
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
int satc_py_take(PyObject *obj, arg_t *a, int nd_inner, const npy_intp *inner, int allow_shared,
                int matrix)
{
    a->inner = nd_inner;
    if (obj == NULL || obj == Py_None) {
        PyErr_Format(PyExc_TypeError, "%s: an array is required", a->name);
        return -1;
    }
    if (nd_inner == 1 && PyTuple_Check(obj) && PyTuple_GET_SIZE(obj) == 3) {
        int arrays = satc_py_tuple_kind(obj, 3);
        if (arrays < 0)
            return satc_py_ambiguous(a->name, 3);
        if (arrays)
            return take_soa(obj, a);
    }
    if (PyArray_Check(obj)) {
        Py_INCREF(obj);
        a->arr = (PyArrayObject *)obj;
        if (satc_py_dtype_ok(a->arr, a->name) < 0)
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
                     satc_py_shape_text(arr, got, sizeof got));
        return -1;
    }
    a->shared = lead == 0;
    int in_place = PyArray_TYPE(arr) == NPY_FLOAT32 && PyArray_ISNOTSWAPPED(arr) &&
                   satc_py_aligned4(PyArray_DATA(arr), 0);
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

npy_intp satc_py_arg_rows(const arg_t *a)
{
    if (a->soa[0])
        return a->soa_n;
    return a->shared ? -1 : PyArray_DIM(a->arr, 0);
}

npy_intp satc_py_elem_stride(const arg_t *a)
{
    if (a->soa[0])
        return a->soa_stride;
    return (a->shared || PyArray_DIM(a->arr, 0) <= 1) ? 0 : PyArray_STRIDE(a->arr, 0);
}

/* Row j (0..2) of a vec3 argument (j = 0 for a plain vec3) as satc_vec3s. */
satc_vec3s satc_py_vec3_of(const arg_t *a, int j)
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
    v.stride = (size_t)satc_py_elem_stride(a);
    return v;
}

/* The number of volumes the arguments agree on (the matrices or centers
 * first), or -1 with ValueError. */
npy_intp satc_py_common_rows(arg_t *args, int nargs)
{
    npy_intp n = -1;
    const char *from = NULL;
    for (int k = 0; k < nargs; k++) {
        npy_intp r = satc_py_arg_rows(&args[k]);
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


/*
 * Converts every argument. The rounding keeps each float32 volume
 * containing the given one: an AABB's half extents and a sphere's radius
 * grow by the center's rounding, min rounds down and max up, an OBB's
 * extents grow by the rounding of its center and axes. Half-axis boxes and
 * instance matrices are rounded to nearest (docs/python.md).
 */
int satc_py_convert_all(arg_t *args, int nargs, enum conv how, npy_intp n)
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

BatchObject *satc_py_batch_new(const char *form)
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
int satc_py_batch_keep(BatchObject *bo, arg_t *args, int nargs, int converted)
{
    const char *names[MAX_ARGS];
    for (int k = 0; k < nargs; k++)
        names[k] = args[k].name;
    if (satc_py_keep_names(bo, names, converted ? nargs : 0) < 0)
        return -1;
    for (int k = 0; k < nargs; k++)
        if (satc_py_keep_arg(bo, &args[k]) < 0)
            return -1;
    return 0;
}

/* Common tail of the constructors: count, conversion, keep. */
int satc_py_prepare(arg_t *args, int nargs, enum conv how, npy_intp *n)
{
    *n = satc_py_common_rows(args, nargs);
    if (*n < 0)
        return -1;
    int conv = 0;
    for (int k = 0; k < nargs; k++)
        conv |= !args[k].in_place;
    if (conv && satc_py_convert_all(args, nargs, how, *n) < 0)
        return -1;
    return conv;
}

PyObject *satc_py_finish(BatchObject *bo, arg_t *args, int nargs, int conv, npy_intp n)
{
    bo->count = n;
    if (satc_py_batch_keep(bo, args, nargs, conv) < 0) {
        Py_DECREF(bo);
        bo = NULL;
    }
    for (int k = 0; k < nargs; k++)
        satc_py_arg_clear(&args[k]);
    return (PyObject *)bo;
}



/* Mesh ids: uint32 in place when aligned with a stride of 4k >= 0, other
 * integer arrays converted after a range check. */
PyArrayObject *satc_py_take_mesh(PyObject *obj, npy_intp n, int *converted)
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
        satc_py_aligned4(PyArray_DATA(m), s))
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

/* Local boxes for n volumes, after satc_py_take put local_center and
 * local_half into loc: per volume or shared (omesh None), or a (M, 3)
 * table picked by mesh ids; converted outward when not in place. */
int satc_py_local_boxes(arg_t loc[2], PyObject *omesh, npy_intp n, const char *what,
                        PyArrayObject **mesh, npy_intp *nloc, int *conv_l, int *mesh_conv)
{
    *mesh = NULL;
    if (omesh == Py_None) {
        for (int k = 0; k < 2; k++)
            if (satc_py_arg_rows(&loc[k]) >= 0 && satc_py_arg_rows(&loc[k]) != n) {
                PyErr_Format(PyExc_ValueError,
                             "%s: %ld local boxes for %ld %s (give mesh= to index a table)",
                             loc[k].name, (long)satc_py_arg_rows(&loc[k]), (long)n, what);
                return -1;
            }
        *nloc = n;
    } else {
        if (loc[0].shared || loc[1].shared) {
            PyErr_SetString(PyExc_ValueError,
                            "local_center, local_half: with mesh ids, give a (M, 3) table of local boxes");
            return -1;
        }
        if (satc_py_arg_rows(&loc[0]) != satc_py_arg_rows(&loc[1])) {
            PyErr_Format(PyExc_ValueError, "local_half: %ld rows, but local_center has %ld",
                         (long)satc_py_arg_rows(&loc[1]), (long)satc_py_arg_rows(&loc[0]));
            return -1;
        }
        *nloc = satc_py_arg_rows(&loc[0]);
        if (!(*mesh = satc_py_take_mesh(omesh, n, mesh_conv)))
            return -1;
    }
    *conv_l = !loc[0].in_place || !loc[1].in_place;
    if (*conv_l && satc_py_convert_all(loc, 2, CONV_AABB,
                                       (loc[0].shared && loc[1].shared) ? -1 : *nloc) < 0) {
        Py_CLEAR(*mesh);
        return -1;
    }
    return 0;
}

int satc_py_keep_names(BatchObject *bo, const char **names, int nn)
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

int satc_py_keep_arg(BatchObject *bo, const arg_t *a)
{
    if (a->soa[0]) {
        for (int c = 0; c < 3; c++)
            if (PyList_Append(bo->arrays, a->soa_refs[c]) < 0)
                return -1;
        return 0;
    }
    return PyList_Append(bo->arrays, (PyObject *)a->arr);
}


int satc_py_vec3_rows(PyObject *obj, const char *name, BatchObject *bo, satc_vec3s *out,
                      Py_ssize_t *n)
{
    arg_t a = {.name = name};
    if (satc_py_take(obj, &a, 1, V3, 0, 0) < 0) {
        satc_py_arg_clear(&a);
        return -1;
    }
    *n = satc_py_arg_rows(&a);
    if (!a.in_place && satc_py_convert_all(&a, 1, CONV_NEAREST, -1) < 0) {
        satc_py_arg_clear(&a);
        return -1;
    }
    *out = satc_py_vec3_of(&a, 0);
    int rc = satc_py_keep_arg(bo, &a);
    satc_py_arg_clear(&a);
    return rc;
}
