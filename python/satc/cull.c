/* Culls, many views, queries and group bounds: numpy outputs around the
 * satc calls, which run with the GIL released. */
#include "_satc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum out_kind { OUT_MASK, OUT_INDICES, OUT_CLASSES, OUT_BITMASK, OUT_COUNT };

static int out_kind(PyObject *obj, enum out_kind *k)
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

static BatchObject *as_batch(PyObject *o)
{
    if (!PyObject_TypeCheck(o, &satc_py_BatchType)) {
        PyErr_SetString(PyExc_TypeError,
                        "batch: expected a satc.Batch (from satc.aabbs, minmax, obbs, half_axes, "
                        "instances, spheres, trs or splats)");
        return NULL;
    }
    return (BatchObject *)o;
}

static const satc_frustum *as_frustum(PyObject *o, const char *name)
{
    if (!PyObject_TypeCheck(o, &satc_py_FrustumType)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a satc.Frustum", name);
        return NULL;
    }
    return &((FrustumObject *)o)->f;
}

/* [first, first + count) within the batch (ofirst, ocount: NULL or None for defaults). */
static int range_of(BatchObject *bo, PyObject *ofirst, PyObject *ocount, size_t *f, size_t *c)
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
static int span_args(BatchObject *bo, PyObject *omode, satc_mode *mode, PyObject *oout,
                     enum out_kind *kind, PyObject *oisa, unsigned *isa, PyObject *first,
                     PyObject *ocount, size_t *fst, size_t *cnt)
{
    if ((omode && satc_py_mode(omode, mode) < 0) || (oout && out_kind(oout, kind) < 0) ||
        satc_py_isa(oisa, isa) < 0 || range_of(bo, first, ocount, fst, cnt) < 0)
        return -1;
    return 0;
}

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

/* The status of a call's work as a Python error. */
static PyObject *call_error(satc_status st, int nomem, const char *what)
{
    if (nomem)
        return PyErr_NoMemory();
    return satc_py_status_error(st, what);
}

/* Bytes to bools: entry b holds the 8 bools of byte b, little bit order. */
static uint64_t unpack_table[256];

static void unpack_init(void)
{
    for (unsigned b = 0; b < 256; b++) {
        uint8_t v[8];
        for (int k = 0; k < 8; k++)
            v[k] = (b >> k) & 1u;
        memcpy(&unpack_table[b], v, 8);
    }
}

static void unpack_bits(const uint8_t *bits, size_t n, uint8_t *out)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        memcpy(out + i, &unpack_table[bits[i / 8]], 8);
    for (; i < n; i++)
        out[i] = (bits[i / 8] >> (i % 8)) & 1u;
}

static void capsule_free(PyObject *cap)
{
    free(PyCapsule_GetPointer(cap, "satc.buffer"));
}

/* A 1-D array of n elements of `type` owning malloc'd `buf`. */
static PyObject *own_array(void *buf, npy_intp n, int type, size_t esize)
{
    void *p = realloc(buf, n ? (size_t)n * esize : 1);
    if (p)
        buf = p;
    PyObject *arr = PyArray_SimpleNewFromData(1, &n, type, buf);
    if (!arr) {
        free(buf);
        return NULL;
    }
    PyObject *cap = PyCapsule_New(buf, "satc.buffer", capsule_free);
    if (!cap) {
        free(buf);
        Py_DECREF(arr);
        return NULL;
    }
    if (PyArray_SetBaseObject((PyArrayObject *)arr, cap) < 0) {
        Py_DECREF(arr);
        return NULL;
    }
    return arr;
}

/* One volume range's outputs of one view. */
typedef struct {
    enum out_kind kind;
    PyObject *arr;   /* mask, classes, bitmask */
    uint8_t *bits;   /* mask: the bitmask before unpacking */
    uint32_t *index; /* indices: malloc'd */
    float *t;        /* rays: malloc'd */
    satc_results r;
} outs_t;

static int outs_prepare(outs_t *o, size_t count, int want_t)
{
    npy_intp n = (npy_intp)count, nb = (npy_intp)((count + 7) / 8);
    memset(&o->r, 0, sizeof o->r);
    switch (o->kind) {
    case OUT_MASK:
        o->arr = PyArray_SimpleNew(1, &n, NPY_BOOL);
        o->bits = malloc(nb ? (size_t)nb : 1);
        if (!o->arr || !o->bits)
            goto nomem;
        o->r.bitmask = o->bits;
        break;
    case OUT_BITMASK:
        if (!(o->arr = PyArray_SimpleNew(1, &nb, NPY_UINT8)))
            return -1;
        o->r.bitmask = PyArray_DATA((PyArrayObject *)o->arr);
        break;
    case OUT_CLASSES:
        if (!(o->arr = PyArray_SimpleNew(1, &n, NPY_UINT8)))
            return -1;
        o->r.classes = PyArray_DATA((PyArrayObject *)o->arr);
        break;
    case OUT_INDICES:
        if (!(o->index = malloc(count ? count * 4 : 1)))
            goto nomem;
        o->r.indices = o->index;
        break;
    case OUT_COUNT:
        break;
    }
    if (want_t) {
        if (!o->index && !(o->index = malloc(count ? count * 4 : 1)))
            goto nomem;
        o->r.indices = o->index;
        if (!(o->t = malloc(count ? count * 4 : 1)))
            goto nomem;
    }
    return 0;
nomem:
    PyErr_NoMemory();
    return -1;
}

static void outs_clear(outs_t *o)
{
    Py_CLEAR(o->arr);
    free(o->bits);
    free(o->index);
    free(o->t);
    o->bits = NULL;
    o->index = NULL;
    o->t = NULL;
}

/* Runs without the GIL after the call: the mask's unpacking. */
static void outs_after(outs_t *o, size_t count)
{
    if (o->kind == OUT_MASK)
        unpack_bits(o->bits, count, PyArray_DATA((PyArrayObject *)o->arr));
}

/* The Python result; clears o. */
static PyObject *outs_result(outs_t *o)
{
    PyObject *res = NULL;
    if (o->kind == OUT_COUNT) {
        res = PyLong_FromSize_t(o->r.visible);
    } else if (o->kind == OUT_INDICES) {
        res = own_array(o->index, (npy_intp)o->r.visible, NPY_UINT32, 4);
        o->index = NULL;
    } else {
        res = o->arr;
        o->arr = NULL;
    }
    outs_clear(o);
    return res;
}

PyObject *satc_py_cull(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"frustum", "batch", "mode", "output", "first", "count", "isa", NULL};
    PyObject *ofr, *ob, *omode = NULL, *oout = NULL, *ocount = Py_None, *oisa = Py_None;
    PyObject *first = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OO$OOO:cull", kwl, &ofr, &ob, &omode, &oout,
                                     &first, &ocount, &oisa))
        return NULL;
    const satc_frustum *f = as_frustum(ofr, "frustum");
    BatchObject *bo = f ? as_batch(ob) : NULL;
    satc_mode mode = SATC_EXACT;
    outs_t o = {.kind = OUT_MASK};
    unsigned isa;
    size_t fst, cnt;
    if (!bo || span_args(bo, omode, &mode, oout, &o.kind, oisa, &isa, first, ocount, &fst, &cnt) < 0)
        return NULL;
    if (outs_prepare(&o, cnt, 0) < 0) {
        outs_clear(&o);
        return NULL;
    }
    satc_status st;
    satc_py_call call;
    int nomem;
    Py_BEGIN_ALLOW_THREADS
    st = satc_py_call_begin(bo, fst, cnt, &call, &nomem);
    if (st == SATC_OK)
        st = isa ? satc_cull_isa((satc_isa)isa, f, call.b, fst, cnt, mode, &o.r)
                 : satc_cull(f, call.b, fst, cnt, mode, &o.r);
    satc_py_call_end(&call);
    if (st == SATC_OK)
        outs_after(&o, cnt);
    Py_END_ALLOW_THREADS
    if (st != SATC_OK) {
        outs_clear(&o);
        return call_error(st, nomem, "cull");
    }
    return outs_result(&o);
}

/* ---- many views ---- */

/* Bit v of each of cnt words of `width` bytes into a row of bools. */
static void mask_row(const void *words, size_t width, size_t cnt, unsigned v, uint8_t *row)
{
    if (width == 1) {
        const uint8_t *w = words;
        for (size_t i = 0; i < cnt; i++)
            row[i] = (w[i] >> v) & 1u;
    } else if (width == 2) {
        const uint16_t *w = words;
        for (size_t i = 0; i < cnt; i++)
            row[i] = (w[i] >> v) & 1u;
    } else if (width == 4) {
        const uint32_t *w = words;
        for (size_t i = 0; i < cnt; i++)
            row[i] = (w[i] >> v) & 1u;
    } else {
        const uint64_t *w = words;
        for (size_t i = 0; i < cnt; i++)
            row[i] = (w[i] >> v) & 1u;
    }
}

PyObject *satc_py_cull_views(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwl[] = {"frusta", "batch", "mode", "output", "first", "count", "isa", NULL};
    PyObject *ofr, *ob, *omode = NULL, *oout = NULL, *ocount = Py_None, *oisa = Py_None;
    PyObject *first = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OO$OOO:cull_views", kwl, &ofr, &ob, &omode,
                                     &oout, &first, &ocount, &oisa))
        return NULL;
    BatchObject *bo = as_batch(ob);
    satc_mode mode = SATC_EXACT;
    enum out_kind kind = OUT_MASK;
    unsigned isa;
    size_t fst, cnt;
    if (!bo || span_args(bo, omode, &mode, oout, &kind, oisa, &isa, first, ocount, &fst, &cnt) < 0)
        return NULL;
    if (kind == OUT_BITMASK) {
        PyErr_SetString(PyExc_ValueError,
                        "output: cull_views gives 'mask', 'classes', 'indices' or 'count'");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(ofr, "frusta: expected a sequence of satc.Frustum");
    if (!seq)
        return NULL;
    Py_ssize_t nv = PySequence_Fast_GET_SIZE(seq);
    PyObject *result = NULL;
    satc_frustum *views = NULL;
    size_t *vis = NULL;
    void *words = NULL;
    uint32_t **idx = NULL;
    if (nv < 1) {
        PyErr_SetString(PyExc_ValueError, "frusta: at least one view is needed");
        goto done;
    }
    views = PyMem_Malloc((size_t)nv * sizeof *views);
    vis = PyMem_Malloc((size_t)nv * sizeof *vis);
    if (!views || !vis) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t v = 0; v < nv; v++) {
        char name[40];
        snprintf(name, sizeof name, "frusta[%zd]", v);
        const satc_frustum *f = as_frustum(PySequence_Fast_GET_ITEM(seq, v), name);
        if (!f)
            goto done;
        views[v] = *f;
    }
    npy_intp dims2[2] = {nv, (npy_intp)cnt};
    if (kind == OUT_MASK || kind == OUT_CLASSES)
        result = PyArray_SimpleNew(2, dims2, kind == OUT_MASK ? NPY_BOOL : NPY_UINT8);
    else if (kind == OUT_COUNT)
        result = PyArray_SimpleNew(1, dims2, NPY_INT64);
    else
        result = PyList_New(nv);
    if (!result)
        goto done;
    if (kind == OUT_INDICES) {
        if (!(idx = calloc((size_t)nv, sizeof *idx))) {
            PyErr_NoMemory();
            goto done;
        }
        for (Py_ssize_t v = 0; v < nv; v++)
            if (!(idx[v] = malloc(cnt ? cnt * 4 : 1))) {
                PyErr_NoMemory();
                goto done;
            }
    }
    if (kind == OUT_MASK && !(words = malloc(cnt ? cnt * 8 : 1))) {
        PyErr_NoMemory();
        goto done;
    }
    satc_status st = SATC_OK;
    char *data = kind == OUT_INDICES ? NULL : PyArray_DATA((PyArrayObject *)result);
    satc_py_call call;
    int nomem;
    Py_BEGIN_ALLOW_THREADS
    st = satc_py_call_begin(bo, fst, cnt, &call, &nomem);
    for (Py_ssize_t v0 = 0; st == SATC_OK && v0 < nv; v0 += SATC_MAX_VIEWS) {
        size_t k = (size_t)(nv - v0 < SATC_MAX_VIEWS ? nv - v0 : SATC_MAX_VIEWS);
        uint8_t *cls[SATC_MAX_VIEWS];
        satc_view_results r = {.visible = vis + v0};
        if (kind == OUT_MASK)
            r.masks = words;
        if (kind == OUT_CLASSES) {
            for (size_t v = 0; v < k; v++)
                cls[v] = (uint8_t *)data + (size_t)(v0 + (Py_ssize_t)v) * cnt;
            r.classes = cls;
        }
        if (kind == OUT_INDICES)
            r.indices = idx + v0;
        st = isa ? satc_cull_views_isa((satc_isa)isa, views + v0, k, call.b, fst, cnt, mode, &r)
                 : satc_cull_views(views + v0, k, call.b, fst, cnt, mode, &r);
        if (st != SATC_OK)
            break;
        if (kind == OUT_MASK) {
            size_t width = k <= 8 ? 1 : k <= 16 ? 2 : k <= 32 ? 4 : 8;
            for (size_t v = 0; v < k; v++)
                mask_row(words, width, cnt, (unsigned)v,
                         (uint8_t *)data + (size_t)(v0 + (Py_ssize_t)v) * cnt);
        }
    }
    satc_py_call_end(&call);
    Py_END_ALLOW_THREADS
    if (st != SATC_OK) {
        Py_CLEAR(result);
        call_error(st, nomem, "cull_views");
        goto done;
    }
    if (kind == OUT_COUNT)
        for (Py_ssize_t v = 0; v < nv; v++)
            ((int64_t *)data)[v] = (int64_t)vis[v];
    if (kind == OUT_INDICES)
        for (Py_ssize_t v = 0; v < nv; v++) {
            PyObject *a = own_array(idx[v], (npy_intp)vis[v], NPY_UINT32, 4);
            idx[v] = NULL;
            if (!a) {
                Py_CLEAR(result);
                goto done;
            }
            PyList_SET_ITEM(result, v, a);
        }
done:
    if (PyErr_Occurred())
        Py_CLEAR(result);
    free(words);
    PyMem_Free(views);
    PyMem_Free(vis);
    Py_DECREF(seq);
    if (idx) {
        for (Py_ssize_t v = 0; v < nv; v++)
            free(idx[v]);
        free(idx);
    }
    return result;
}

/* ---- queries ---- */

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
    BatchObject *bo = as_batch(ob);
    satc_mode mode = SATC_EXACT;
    outs_t o = {.kind = OUT_MASK};
    unsigned isa;
    size_t fst, cnt;
    float c[3];
    if (!bo || satc_py_vec3_arg(oc, "center", c, NULL) < 0 ||
        satc_py_num_arg(orad, "radius", &radius) < 0 ||
        span_args(bo, omode, &mode, oout, &o.kind, oisa, &isa, first, ocount, &fst, &cnt) < 0)
        return NULL;
    if (!isfinite(radius) || radius < 0) {
        PyErr_SetString(PyExc_ValueError, "radius: must be finite and >= 0");
        return NULL;
    }
    if (outs_prepare(&o, cnt, 0) < 0) {
        outs_clear(&o);
        return NULL;
    }
    satc_status st;
    satc_py_call call;
    int nomem;
    Py_BEGIN_ALLOW_THREADS
    st = satc_py_call_begin(bo, fst, cnt, &call, &nomem);
    if (st == SATC_OK)
        st = isa ? satc_query_sphere_isa((satc_isa)isa, c, (float)radius, call.b, fst, cnt, mode, &o.r)
                 : satc_query_sphere(c, (float)radius, call.b, fst, cnt, mode, &o.r);
    satc_py_call_end(&call);
    if (st == SATC_OK)
        outs_after(&o, cnt);
    Py_END_ALLOW_THREADS
    if (st != SATC_OK) {
        outs_clear(&o);
        return call_error(st, nomem, "query_sphere");
    }
    return outs_result(&o);
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
    BatchObject *bo = as_batch(ob);
    satc_mode mode = SATC_EXACT;
    outs_t o = {.kind = OUT_INDICES};
    unsigned isa;
    size_t fst, cnt, nearest = SIZE_MAX;
    float orig[3], dir[3];
    if (!bo || satc_py_vec3_arg(oo, "origin", orig, NULL) < 0 ||
        satc_py_vec3_arg(od, "dir", dir, NULL) < 0 ||
        (otmax && satc_py_num_arg(otmax, "tmax", &tmax) < 0) ||
        span_args(bo, omode, &mode, NULL, NULL, oisa, &isa, first, ocount, &fst, &cnt) < 0)
        return NULL;
    if (isnan(tmax) || tmax < 0) {
        PyErr_SetString(PyExc_ValueError, "tmax: must be >= 0 (inf for a half-line)");
        return NULL;
    }
    if (outs_prepare(&o, cnt, 1) < 0) {
        outs_clear(&o);
        return NULL;
    }
    satc_status st;
    satc_py_call call;
    int nomem;
    Py_BEGIN_ALLOW_THREADS
    st = satc_py_call_begin(bo, fst, cnt, &call, &nomem);
    if (st == SATC_OK)
        st = isa ? satc_query_ray_isa((satc_isa)isa, orig, dir, (float)tmax, call.b, fst, cnt, mode,
                                      &o.r, o.t, &nearest)
                 : satc_query_ray(orig, dir, (float)tmax, call.b, fst, cnt, mode, &o.r, o.t, &nearest);
    satc_py_call_end(&call);
    Py_END_ALLOW_THREADS
    if (st != SATC_OK) {
        outs_clear(&o);
        return call_error(st, nomem, "query_ray");
    }
    PyObject *t = own_array(o.t, (npy_intp)o.r.visible, NPY_FLOAT32, 4);
    o.t = NULL;
    PyObject *ind = outs_result(&o);
    if (!t || !ind) {
        Py_XDECREF(t);
        Py_XDECREF(ind);
        return NULL;
    }
    if (nearest == SIZE_MAX)
        return Py_BuildValue("(NNO)", ind, t, Py_None);
    return Py_BuildValue("(NNn)", ind, t, (Py_ssize_t)nearest);
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
    BatchObject *bo = as_batch(ob);
    size_t fst, cnt, size, ng;
    PyArrayObject *off;
    if (!bo || range_of(bo, NULL, ocount, &fst, &cnt) < 0 ||
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
    BatchObject *bo = as_batch(ob);
    size_t fst, cnt;
    if (!bo || range_of(bo, first, ocount, &fst, &cnt) < 0)
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

/* ---- the C library's own time for a call, for the benchmark ---- */

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
    const satc_frustum *f = as_frustum(ofr, "frustum");
    BatchObject *bo = f ? as_batch(ob) : NULL;
    satc_mode mode = SATC_EXACT;
    unsigned isa, sort = SATC_SORT_16;
    size_t fst, cnt;
    if (!bo || (omode && satc_py_mode(omode, &mode) < 0) ||
        (osort && sort_arg(osort, &sort, 1) < 0) ||
        span_args(bo, NULL, NULL, NULL, NULL, oisa, &isa, first, ocount, &fst, &cnt) < 0)
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
        call_error(st, nomem, "cull_depth");
        goto done;
    }
    size_t v = r.visible;
    PyObject *pi = own_array(idx, (npy_intp)v, NPY_UINT32, 4);
    idx = NULL;
    PyObject *pd = own_array(dep, (npy_intp)v, NPY_FLOAT32, 4);
    dep = NULL;
    PyObject *pk = Py_None, *po = Py_None;
    if (sort) {
        pk = own_array(key, (npy_intp)v, sort == SATC_SORT_16 ? NPY_UINT16 : NPY_UINT32,
                       sort == SATC_SORT_16 ? 2 : 4);
        po = own_array(order, (npy_intp)v, NPY_UINT32, 4);
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
    PyObject *pk = own_array(key, n, sort == SATC_SORT_16 ? NPY_UINT16 : NPY_UINT32,
                             sort == SATC_SORT_16 ? 2 : 4);
    PyObject *po = own_array(order, n, NPY_UINT32, 4);
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
    const satc_frustum *f = as_frustum(ofr, "frustum");
    BatchObject *bo = f ? as_batch(ob) : NULL;
    satc_mode mode;
    enum out_kind kind;
    if (!bo || satc_py_mode(omode, &mode) < 0 || out_kind(oout, &kind) < 0)
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

void satc_py_cull_init(void)
{
    unpack_init();
}
