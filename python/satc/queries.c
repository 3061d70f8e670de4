/* Queries (a sphere, a ray), depths and back-to-front order, and the C
 * library's own time for the benchmark. */
#include "_satc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- queries ---- */

typedef struct sphere_ctx {
    const float *c;
    float radius;
} sphere_ctx;

static satc_status sphere_span(void *ctx, unsigned isa, const satc_batch *b, size_t fst, size_t cnt,
                               satc_mode mode, satc_results *r, float *t)
{
    const sphere_ctx *x = ctx;
    (void)t;
    return isa ? satc_query_sphere_isa((satc_isa)isa, x->c, x->radius, b, fst, cnt, mode, r)
               : satc_query_sphere(x->c, x->radius, b, fst, cnt, mode, r);
}

typedef struct ray_ctx {
    const float *orig, *dir;
    float tmax;
    size_t *nearest;
} ray_ctx;

static satc_status ray_span(void *ctx, unsigned isa, const satc_batch *b, size_t fst, size_t cnt,
                            satc_mode mode, satc_results *r, float *t)
{
    const ray_ctx *x = ctx;
    return isa ? satc_query_ray_isa((satc_isa)isa, x->orig, x->dir, x->tmax, b, fst, cnt, mode, r, t,
                                    x->nearest)
               : satc_query_ray(x->orig, x->dir, x->tmax, b, fst, cnt, mode, r, t, x->nearest);
}

PyObject *satc_py_query_sphere(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"batch", "center", "radius", "mode", "output", "first", "count", "isa", NULL};
    PyObject *ob, *oc, *orad, *omode = NULL, *oout = NULL, *ocount = Py_None, *oisa = Py_None;
    double radius;
    PyObject *first = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|OO$OOO:query_sphere", kwl, &ob, &oc, &orad,
                                     &omode, &oout, &first, &ocount, &oisa))
        return NULL;
    BatchObject *bo = satc_py_as_batch(ob);
    satc_mode mode = SATC_EXACT;
    outs_t o = {.kind = OUT_MASK};
    unsigned isa;
    size_t fst, cnt;
    float c[3];
    if (!bo || satc_py_vec3_arg(oc, "center", c, NULL) < 0 ||
        satc_py_num_arg(orad, "radius", &radius) < 0 ||
        satc_py_span_args(bo, omode, &mode, oout, &o.kind, oisa, &isa, first, ocount, &fst, &cnt) < 0)
        return NULL;
    if (!isfinite(radius) || radius < 0) {
        PyErr_SetString(PyExc_ValueError, "radius: must be finite and >= 0");
        return NULL;
    }
    sphere_ctx x = {c, (float)radius};
    if (satc_py_run_span(bo, fst, cnt, mode, isa, &o, 0, sphere_span, &x, "query_sphere") < 0)
        return NULL;
    return satc_py_outs_result(&o);
}

PyObject *satc_py_query_ray(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"batch", "origin", "dir", "tmax", "mode", "first", "count", "isa", NULL};
    PyObject *ob, *oo, *od, *otmax = NULL, *omode = NULL, *ocount = Py_None, *oisa = Py_None;
    double tmax = INFINITY;
    PyObject *first = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|OO$OOO:query_ray", kwl, &ob, &oo, &od, &otmax,
                                     &omode, &first, &ocount, &oisa))
        return NULL;
    BatchObject *bo = satc_py_as_batch(ob);
    satc_mode mode = SATC_EXACT;
    outs_t o = {.kind = OUT_INDICES};
    unsigned isa;
    size_t fst, cnt, nearest = SIZE_MAX;
    float orig[3], dir[3];
    if (!bo || satc_py_vec3_arg(oo, "origin", orig, NULL) < 0 ||
        satc_py_vec3_arg(od, "dir", dir, NULL) < 0 ||
        (otmax && satc_py_num_arg(otmax, "tmax", &tmax) < 0) ||
        satc_py_span_args(bo, omode, &mode, NULL, NULL, oisa, &isa, first, ocount, &fst, &cnt) < 0)
        return NULL;
    if (isnan(tmax) || tmax < 0) {
        PyErr_SetString(PyExc_ValueError, "tmax: must be >= 0 (inf for a half-line)");
        return NULL;
    }
    ray_ctx x = {orig, dir, (float)tmax, &nearest};
    if (satc_py_run_span(bo, fst, cnt, mode, isa, &o, 1, ray_span, &x, "query_ray") < 0)
        return NULL;
    PyObject *t = satc_py_own_array(o.t, (npy_intp)o.r.visible, NPY_FLOAT32, 4);
    o.t = NULL;
    PyObject *ind = satc_py_outs_result(&o);
    if (!t || !ind) {
        Py_XDECREF(t);
        Py_XDECREF(ind);
        return NULL;
    }
    if (nearest == SIZE_MAX)
        return Py_BuildValue("(NNO)", ind, t, Py_None);
    return Py_BuildValue("(NNn)", ind, t, (Py_ssize_t)nearest);
}

/* ---- depth keys and back-to-front order ---- */

/* sort=None, 16 or 32 as SATC_SORT_*. */
static int sort_arg(PyObject *o, unsigned *out, int allow_none)
{
    if (o == NULL || o == Py_None) {
        if (allow_none) {
            *out = SATC_SORT_NONE;
            return 0;
        }
    } else if (!PyBool_Check(o) && PyIndex_Check(o)) {
        Py_ssize_t v;
        if (satc_py_index_arg(o, "sort", &v) == 0 && (v == 16 || v == 32)) {
            *out = v == 16 ? SATC_SORT_16 : SATC_SORT_32;
            return 0;
        }
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "sort: expected 16 or 32%s, got %R",
                     allow_none ? " or None" : "", o);
        return -1;
    }
    PyErr_Format(PyExc_TypeError, "sort: expected 16 or 32%s", allow_none ? " or None" : "");
    return -1;
}

PyObject *satc_py_cull_depth(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"frustum", "batch", "mode", "sort", "first", "count", "isa", NULL};
    PyObject *ofr, *ob, *omode = NULL, *osort = NULL, *ocount = Py_None, *oisa = Py_None;
    PyObject *first = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OO$OOO:cull_depth", kwl, &ofr, &ob, &omode,
                                     &osort, &first, &ocount, &oisa))
        return NULL;
    const satc_frustum *f = satc_py_as_frustum(ofr, "frustum");
    BatchObject *bo = f ? satc_py_as_batch(ob) : NULL;
    satc_mode mode = SATC_EXACT;
    unsigned isa, sort = SATC_SORT_16;
    size_t fst, cnt;
    if (!bo || (omode && satc_py_mode(omode, &mode) < 0) ||
        (osort && sort_arg(osort, &sort, 1) < 0) ||
        satc_py_span_args(bo, NULL, NULL, NULL, NULL, oisa, &isa, first, ocount, &fst, &cnt) < 0)
        return NULL;
    if (f->kind == SATC_FRUSTUM_PLANES) {
        PyErr_SetString(PyExc_ValueError,
                        "frustum: depths need a perspective or orthographic frustum, not planes");
        return NULL;
    }
    size_t sb = satc_depth_scratch_bytes(cnt, sort);
    if (sb == SIZE_MAX)
        return PyErr_NoMemory();
    size_t c1 = cnt ? cnt : 1;
    uint32_t *idx = malloc(c1 * 4), *order = sort ? malloc(c1 * 4) : NULL;
    float *dep = malloc(c1 * 4);
    void *key = sort ? malloc(c1 * (sort == SATC_SORT_16 ? 2 : 4)) : NULL;
    void *scratch = malloc(sb ? sb : 1);
    PyObject *res = NULL;
    if (!idx || !dep || !scratch || (sort && (!order || !key))) {
        PyErr_NoMemory();
        goto done;
    }
    satc_results r = {.indices = idx};
    satc_depth_results d = {.depth = dep, .sort = sort, .sorted = order, .scratch = scratch,
                            .scratch_bytes = sb};
    if (sort == SATC_SORT_16)
        d.key16 = key;
    else if (sort == SATC_SORT_32)
        d.key32 = key;
    satc_status st;
    satc_py_call call;
    int nomem;
    Py_BEGIN_ALLOW_THREADS
    st = satc_py_call_begin(bo, fst, cnt, &call, &nomem);
    if (st == SATC_OK)
        st = isa ? satc_cull_depth_isa((satc_isa)isa, f, call.b, fst, cnt, mode, &r, &d)
                 : satc_cull_depth(f, call.b, fst, cnt, mode, &r, &d);
    satc_py_call_end(&call);
    Py_END_ALLOW_THREADS
    if (st != SATC_OK) {
        satc_py_call_error(st, nomem, "cull_depth");
        goto done;
    }
    size_t v = r.visible;
    PyObject *pi = satc_py_own_array(idx, (npy_intp)v, NPY_UINT32, 4);
    idx = NULL;
    PyObject *pd = satc_py_own_array(dep, (npy_intp)v, NPY_FLOAT32, 4);
    dep = NULL;
    PyObject *pk = Py_None, *po = Py_None;
    if (sort) {
        pk = satc_py_own_array(key, (npy_intp)v, sort == SATC_SORT_16 ? NPY_UINT16 : NPY_UINT32,
                       sort == SATC_SORT_16 ? 2 : 4);
        po = satc_py_own_array(order, (npy_intp)v, NPY_UINT32, 4);
        key = order = NULL;
    } else {
        Py_INCREF(pk);
        Py_INCREF(po);
    }
    if (pi && pd && pk && po)
        res = PyTuple_Pack(4, pi, pd, pk, po);
    Py_XDECREF(pi);
    Py_XDECREF(pd);
    Py_XDECREF(pk);
    Py_XDECREF(po);
done:
    free(idx);
    free(dep);
    free(key);
    free(order);
    free(scratch);
    return res;
}

PyObject *satc_py_sort_depth(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"depth", "indices", "sort", NULL};
    PyObject *od, *oi, *osort = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O:sort_depth", kwl, &od, &oi, &osort))
        return NULL;
    unsigned sort = SATC_SORT_16;
    if (osort && sort_arg(osort, &sort, 0) < 0)
        return NULL;
    PyArrayObject *d = NULL, *ix = NULL;
    PyObject *res = NULL;
    void *key = NULL, *scratch = NULL;
    uint32_t *order = NULL;
    PyObject *oa = PyArray_FROM_O(od);
    if (!oa || PyArray_DESCR((PyArrayObject *)oa)->kind != 'f') {
        Py_XDECREF(oa);
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "depth: expected a 1-D array of floats");
        return NULL;
    }
    d = (PyArrayObject *)PyArray_FROMANY(oa, NPY_FLOAT32, 1, 1, NPY_ARRAY_CARRAY | NPY_ARRAY_FORCECAST);
    Py_DECREF(oa);
    if (!d) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "depth: expected a 1-D array");
        return NULL;
    }
    oa = PyArray_FROM_O(oi);
    if (!oa || !PyArray_ISINTEGER((PyArrayObject *)oa) || PyArray_NDIM((PyArrayObject *)oa) != 1) {
        Py_XDECREF(oa);
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "indices: expected a 1-D integer array");
        goto done;
    }
    npy_intp n = PyArray_DIM(d, 0);
    if (PyArray_DIM((PyArrayObject *)oa, 0) != n) {
        PyErr_Format(PyExc_ValueError, "indices: %ld values, but depth has %ld",
                     (long)PyArray_DIM((PyArrayObject *)oa, 0), (long)n);
        Py_DECREF(oa);
        goto done;
    }
    /* every index checked to fit a uint32, then converted */
    int uns = PyArray_ISUNSIGNED((PyArrayObject *)oa);
    PyArrayObject *w = (PyArrayObject *)PyArray_FROMANY(oa, uns ? NPY_UINT64 : NPY_INT64, 1, 1,
                                                        NPY_ARRAY_CARRAY | NPY_ARRAY_FORCECAST);
    Py_DECREF(oa);
    if (!w)
        goto done;
    ix = (PyArrayObject *)PyArray_SimpleNew(1, &n, NPY_UINT32);
    for (npy_intp i = 0; ix && i < n; i++) {
        uint64_t u = uns ? ((const uint64_t *)PyArray_DATA(w))[i] : 0;
        int64_t v = uns ? 0 : ((const int64_t *)PyArray_DATA(w))[i];
        if (uns ? u > UINT32_MAX : (v < 0 || v > (int64_t)UINT32_MAX)) {
            PyErr_Format(PyExc_ValueError, "indices: value at %ld does not fit a uint32", (long)i);
            Py_CLEAR(ix);
            break;
        }
        ((uint32_t *)PyArray_DATA(ix))[i] = uns ? (uint32_t)u : (uint32_t)v;
    }
    Py_DECREF(w);
    if (!ix)
        goto done;
    size_t sb = satc_depth_scratch_bytes((size_t)n, sort), c1 = n ? (size_t)n : 1;
    key = malloc(c1 * (sort == SATC_SORT_16 ? 2 : 4));
    order = malloc(c1 * 4);
    scratch = malloc(sb && sb != SIZE_MAX ? sb : 1);
    if (!key || !order || !scratch || sb == SIZE_MAX) {
        PyErr_NoMemory();
        goto done;
    }
    satc_status st;
    Py_BEGIN_ALLOW_THREADS
    st = satc_sort_depth(PyArray_DATA(d), PyArray_DATA(ix), (size_t)n, sort,
                         sort == SATC_SORT_16 ? key : NULL, sort == SATC_SORT_32 ? key : NULL, order,
                         scratch, sb);
    Py_END_ALLOW_THREADS
    if (st != SATC_OK) {
        satc_py_status_error(st, "sort_depth");
        goto done;
    }
    PyObject *pk = satc_py_own_array(key, n, sort == SATC_SORT_16 ? NPY_UINT16 : NPY_UINT32,
                             sort == SATC_SORT_16 ? 2 : 4);
    PyObject *po = satc_py_own_array(order, n, NPY_UINT32, 4);
    key = order = NULL;
    if (pk && po)
        res = PyTuple_Pack(2, pk, po);
    Py_XDECREF(pk);
    Py_XDECREF(po);
done:
    Py_XDECREF(d);
    Py_XDECREF(ix);
    free(key);
    free(order);
    free(scratch);
    return res;
}

/* The calling thread's CPU time, as the benchmark times the Python side. */
static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

PyObject *satc_py_time_c_cull(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"frustum", "batch", "mode", "output", "reps", NULL};
    PyObject *ofr, *ob, *omode, *oout, *oreps;
    Py_ssize_t reps;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOO:_time_c_cull", kwl, &ofr, &ob, &omode, &oout,
                                     &oreps) ||
        satc_py_index_arg(oreps, "reps", &reps) < 0)
        return NULL;
    const satc_frustum *f = satc_py_as_frustum(ofr, "frustum");
    BatchObject *bo = f ? satc_py_as_batch(ob) : NULL;
    satc_mode mode;
    enum out_kind kind;
    if (!bo || satc_py_mode(omode, &mode) < 0 || satc_py_out_kind(oout, &kind) < 0)
        return NULL;
    if (reps < 1 || kind == OUT_MASK) {
        PyErr_SetString(PyExc_ValueError, "reps >= 1, output 'bitmask', 'indices', 'classes' or 'count'");
        return NULL;
    }
    size_t n = (size_t)bo->count;
    void *buf = malloc(n ? n * 4 : 1);
    double *t = malloc((size_t)reps * sizeof *t);
    if (!buf || !t) {
        free(buf);
        free(t);
        return PyErr_NoMemory();
    }
    satc_results r = {0};
    if (kind == OUT_BITMASK)
        r.bitmask = buf;
    else if (kind == OUT_CLASSES)
        r.classes = buf;
    else if (kind == OUT_INDICES)
        r.indices = buf;
    satc_status st = SATC_OK;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t k = 0; k < reps && st == SATC_OK; k++) {
        double t0 = now_ns();
        st = satc_cull(f, &bo->b, 0, n, mode, &r);
        t[k] = now_ns() - t0;
    }
    Py_END_ALLOW_THREADS
    free(buf);
    if (st != SATC_OK) {
        free(t);
        return satc_py_status_error(st, "_time_c_cull");
    }
    PyObject *l = PyList_New(reps);
    for (Py_ssize_t k = 0; l && k < reps; k++)
        PyList_SET_ITEM(l, k, PyFloat_FromDouble(t[k]));
    free(t);
    return l;
}
