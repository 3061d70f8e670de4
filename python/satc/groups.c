/* Group bounds: the layouts, group_bounds, grouped batches, and the
 * bounds every call computes again for batches whose groups follow their
 * arrays. */
#include "_satc.h"

#include <stdlib.h>
#include <string.h>

/* ---- live group bounds ---- */

/* The group holding volume i (ngroups past the last), as satc finds it. */
static size_t group_at(const satc_groups *gs, size_t i)
{
    if (gs->size)
        return i / gs->size < gs->ngroups ? i / gs->size : gs->ngroups;
    size_t lo = 0, hi = gs->ngroups;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (gs->offsets[mid + 1] > i)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

satc_status satc_py_call_begin(const BatchObject *bo, size_t first, size_t count, satc_py_call *c,
                               int *nomem)
{
    c->b = &bo->b;
    c->scratch = NULL;
    *nomem = 0;
    if (!bo->live || !bo->b.groups || !count)
        return SATC_OK;
    const satc_groups *gs = bo->b.groups;
    size_t ng = gs->ngroups;
    c->scratch = malloc(ng ? ng * 24 : 1);
    if (!c->scratch) {
        *nomem = 1;
        return SATC_ERR_NULL;
    }
    size_t g0 = group_at(gs, first), g1 = group_at(gs, first + count - 1);
    g1 = g1 < ng ? g1 + 1 : ng;
    float *cen = c->scratch, *half = c->scratch + 3 * ng;
    satc_status st = SATC_OK;
    if (g0 < g1)
        st = satc_group_bounds_range(&bo->b, (size_t)bo->count, gs->size, gs->offsets, ng, g0,
                                     g1 - g0, cen, half);
    c->groups = *gs;
    c->groups.center = SATC_VEC3S_AOS(cen, 12);
    c->groups.half = SATC_VEC3S_AOS(half, 12);
    c->copy = bo->b;
    c->copy.groups = &c->groups;
    c->b = &c->copy;
    return st;
}

void satc_py_call_end(satc_py_call *c)
{
    free(c->scratch);
    c->scratch = NULL;
}

int satc_py_run_span(BatchObject *bo, size_t first, size_t count, satc_mode mode, unsigned isa,
                     outs_t *o, int want_t, satc_py_span_fn fn, void *ctx, const char *what)
{
    if (satc_py_outs_prepare(o, count, want_t) < 0) {
        satc_py_outs_clear(o);
        return -1;
    }
    satc_status st;
    satc_py_call call;
    int nomem;
    Py_BEGIN_ALLOW_THREADS
    st = satc_py_call_begin(bo, first, count, &call, &nomem);
    if (st == SATC_OK)
        st = fn(ctx, isa, call.b, first, count, mode, &o->r, o->t);
    satc_py_call_end(&call);
    if (st == SATC_OK && !want_t)
        satc_py_outs_after(o, count);
    Py_END_ALLOW_THREADS
    if (st != SATC_OK) {
        satc_py_outs_clear(o);
        satc_py_call_error(st, nomem, what);
        return -1;
    }
    return 0;
}

/* The status of a call's work as a Python error. */
PyObject *satc_py_call_error(satc_status st, int nomem, const char *what)
{
    if (nomem)
        return PyErr_NoMemory();
    return satc_py_status_error(st, what);
}

/* ---- group bounds ---- */

/* Group layout from size / offsets: offsets copied to uint32 into *keep. */
static int group_layout(PyObject *osize, PyObject *ooff, size_t count, size_t *size,
                        PyArrayObject **keep, size_t *ngroups)
{
    int has_size = osize && osize != Py_None, has_off = ooff && ooff != Py_None;
    if (has_size == has_off) {
        PyErr_SetString(PyExc_TypeError, "size, offsets: give exactly one of them");
        return -1;
    }
    *keep = NULL;
    if (has_size) {
        Py_ssize_t s;
        if (satc_py_index_arg(osize, "size", &s) < 0)
            return -1;
        if (s < 1) {
            PyErr_SetString(PyExc_ValueError, "size: must be >= 1");
            return -1;
        }
        *size = (size_t)s;
        *ngroups = (count + *size - 1) / *size;
        return 0;
    }
    PyArrayObject *a = (PyArrayObject *)PyArray_FROM_O(ooff);
    if (!a)
        return -1;
    if (!PyArray_ISINTEGER(a) || PyArray_NDIM(a) != 1 || PyArray_DIM(a, 0) < 1) {
        Py_DECREF(a);
        PyErr_SetString(PyExc_ValueError, "offsets: expected a 1-D integer array of G + 1 indices");
        return -1;
    }
    PyArrayObject *w = (PyArrayObject *)PyArray_FROMANY((PyObject *)a, NPY_INT64, 1, 1,
                                                        NPY_ARRAY_CARRAY | NPY_ARRAY_FORCECAST);
    Py_DECREF(a);
    if (!w)
        return -1;
    npy_intp n = PyArray_DIM(w, 0);
    PyArrayObject *u = (PyArrayObject *)PyArray_SimpleNew(1, &n, NPY_UINT32);
    if (!u) {
        Py_DECREF(w);
        return -1;
    }
    const int64_t *s = PyArray_DATA(w);
    uint32_t *d = PyArray_DATA(u);
    for (npy_intp i = 0; i < n; i++) {
        if (s[i] < 0 || s[i] > (int64_t)UINT32_MAX || (i && s[i] < s[i - 1])) {
            PyErr_Format(PyExc_ValueError, "offsets: entry %ld (%lld) is not a nondecreasing index",
                         (long)i, (long long)s[i]);
            Py_DECREF(w);
            Py_DECREF(u);
            return -1;
        }
        d[i] = (uint32_t)s[i];
    }
    Py_DECREF(w);
    *size = 0;
    *ngroups = (size_t)n - 1;
    *keep = u;
    return 0;
}

static int bounds_into(BatchObject *bo, size_t count, size_t size, PyArrayObject *off,
                       size_t ngroups, PyObject **c, PyObject **h)
{
    npy_intp dims[2] = {(npy_intp)ngroups, 3};
    *c = PyArray_SimpleNew(2, dims, NPY_FLOAT32);
    *h = PyArray_SimpleNew(2, dims, NPY_FLOAT32);
    if (!*c || !*h)
        return -1;
    satc_status st;
    const uint32_t *o = off ? PyArray_DATA(off) : NULL;
    float *pc = PyArray_DATA((PyArrayObject *)*c), *ph = PyArray_DATA((PyArrayObject *)*h);
    Py_BEGIN_ALLOW_THREADS
    st = satc_group_bounds(&bo->b, count, size, o, ngroups, pc, ph);
    Py_END_ALLOW_THREADS
    if (st != SATC_OK) {
        satc_py_status_error(st, "group_bounds");
        return -1;
    }
    return 0;
}

PyObject *satc_py_group_bounds(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"batch", "size", "offsets", "count", NULL};
    PyObject *ob, *osize = Py_None, *ooff = Py_None, *ocount = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOO:group_bounds", kwl, &ob, &osize, &ooff, &ocount))
        return NULL;
    BatchObject *bo = satc_py_as_batch(ob);
    size_t fst, cnt, size, ng;
    PyArrayObject *off;
    if (!bo || satc_py_range(bo, NULL, ocount, &fst, &cnt) < 0 ||
        group_layout(osize, ooff, cnt, &size, &off, &ng) < 0)
        return NULL;
    PyObject *c = NULL, *h = NULL;
    if (bounds_into(bo, cnt, size, off, ng, &c, &h) < 0) {
        Py_XDECREF(off);
        Py_XDECREF(c);
        Py_XDECREF(h);
        return NULL;
    }
    Py_XDECREF(off);
    return Py_BuildValue("(NN)", c, h);
}

PyObject *satc_py_grouped(PyObject *self, PyObject *args, PyObject *kw)
{
    BatchObject *src = (BatchObject *)self;
    static char *kwl[] = {"size", "offsets", "center", "half", "static", NULL};
    PyObject *osize = Py_None, *ooff = Py_None, *oc = Py_None, *oh = Py_None;
    int fixed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOOO$p:grouped", kwl, &osize, &ooff, &oc, &oh,
                                     &fixed))
        return NULL;
    size_t size, ng;
    PyArrayObject *off;
    if (group_layout(osize, ooff, (size_t)src->count, &size, &off, &ng) < 0)
        return NULL;
    if ((oc == Py_None) != (oh == Py_None)) {
        Py_XDECREF(off);
        PyErr_SetString(PyExc_TypeError, "center, half: give both bounds or neither");
        return NULL;
    }
    BatchObject *bo = PyObject_New(BatchObject, &satc_py_BatchType);
    if (!bo) {
        Py_XDECREF(off);
        return NULL;
    }
    bo->b = src->b;
    bo->count = src->count;
    bo->arrays = PyList_GetSlice(src->arrays, 0, PyList_GET_SIZE(src->arrays));
    Py_INCREF(src->converted);
    bo->converted = src->converted;
    Py_INCREF(src->form_name);
    bo->form_name = src->form_name;
    memset(&bo->groups, 0, sizeof bo->groups);
    bo->b.groups = NULL;
    bo->live = oc == Py_None && !fixed;
    bo->local = src->local;
    if (bo->b.form == SATC_FORM_TRS && bo->b.trs.local)
        bo->b.trs.local = &bo->local;
    PyObject *c = NULL, *h = NULL;
    int ok = bo->arrays != NULL;
    if (ok && off)
        ok = PyList_Append(bo->arrays, (PyObject *)off) == 0;
    if (ok && oc == Py_None) {
        ok = bounds_into(src, (size_t)src->count, size, off, ng, &c, &h) == 0;
        oc = c;
        oh = h;
    }
    Py_ssize_t nc = 0, nh = 0;
    ok = ok && satc_py_vec3_rows(oc, "center", bo, &bo->groups.center, &nc) == 0 &&
         satc_py_vec3_rows(oh, "half", bo, &bo->groups.half, &nh) == 0;
    if (ok && ((size_t)nc != ng || (size_t)nh != ng)) {
        PyErr_Format(PyExc_ValueError, "center, half: expected (%zu, 3) bounds, one per group", ng);
        ok = 0;
    }
    Py_XDECREF(c);
    Py_XDECREF(h);
    if (!ok) {
        Py_XDECREF(off);
        Py_DECREF(bo);
        return NULL;
    }
    bo->groups.size = size;
    bo->groups.offsets = off ? PyArray_DATA(off) : NULL;
    bo->groups.ngroups = ng;
    bo->b.groups = &bo->groups;
    Py_XDECREF(off);
    return (PyObject *)bo;
}

PyObject *satc_py_to_aabbs(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"batch", "first", "count", NULL};
    PyObject *ob, *ocount = Py_None;
    PyObject *first = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OO:to_aabbs", kwl, &ob, &first, &ocount))
        return NULL;
    BatchObject *bo = satc_py_as_batch(ob);
    size_t fst, cnt;
    if (!bo || satc_py_range(bo, first, ocount, &fst, &cnt) < 0)
        return NULL;
    npy_intp dims[2] = {(npy_intp)cnt, 3};
    PyObject *c = PyArray_SimpleNew(2, dims, NPY_FLOAT32), *h = PyArray_SimpleNew(2, dims, NPY_FLOAT32);
    if (!c || !h) {
        Py_XDECREF(c);
        Py_XDECREF(h);
        return NULL;
    }
    satc_status st;
    float *pc = PyArray_DATA((PyArrayObject *)c), *ph = PyArray_DATA((PyArrayObject *)h);
    Py_BEGIN_ALLOW_THREADS
    st = satc_to_aabbs(&bo->b, fst, cnt, pc, ph);
    Py_END_ALLOW_THREADS
    if (st != SATC_OK) {
        Py_DECREF(c);
        Py_DECREF(h);
        return satc_py_status_error(st, "to_aabbs");
    }
    return Py_BuildValue("(NN)", c, h);
}
