/* cull and cull_views: numpy outputs around the satc calls, which run
 * with the GIL released. */
#include "_satc.h"

#include <stdlib.h>
#include <string.h>

typedef struct cull_ctx {
    const satc_frustum *f;
    const satc_pyramid *pyr;
} cull_ctx;

static satc_status cull_span(void *ctx, unsigned isa, const satc_batch *b, size_t fst, size_t cnt,
                             satc_mode mode, satc_results *r, float *t)
{
    const cull_ctx *x = ctx;
    (void)t;
    if (x->pyr)
        return isa ? satc_cull_occluded_isa((satc_isa)isa, x->pyr, b, fst, cnt, mode, r, NULL, NULL)
                   : satc_cull_occluded(x->pyr, b, fst, cnt, mode, r, NULL, NULL);
    return isa ? satc_cull_isa((satc_isa)isa, x->f, b, fst, cnt, mode, r) : satc_cull(x->f, b, fst, cnt, mode, r);
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
    const satc_pyramid *pyr;
    const satc_frustum *f = satc_py_as_view(ofr, "frustum", &pyr);
    BatchObject *bo = f ? satc_py_as_batch(ob) : NULL;
    satc_mode mode = SATC_EXACT;
    outs_t o = {.kind = OUT_MASK};
    unsigned isa;
    size_t fst, cnt;
    if (!bo || satc_py_span_args(bo, omode, &mode, oout, &o.kind, oisa, &isa, first, ocount, &fst, &cnt) < 0)
        return NULL;
    cull_ctx x = {f, pyr};
    if (satc_py_run_span(bo, fst, cnt, mode, isa, &o, 0, cull_span, &x, "cull") < 0)
        return NULL;
    return satc_py_outs_result(&o);
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
    BatchObject *bo = satc_py_as_batch(ob);
    satc_mode mode = SATC_EXACT;
    enum out_kind kind = OUT_MASK;
    unsigned isa;
    size_t fst, cnt;
    if (!bo || satc_py_span_args(bo, omode, &mode, oout, &kind, oisa, &isa, first, ocount, &fst, &cnt) < 0)
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
    const satc_pyramid **pyrs = NULL;
    int any_pyr = 0;
    size_t *vis = NULL;
    void *words = NULL;
    uint32_t **idx = NULL;
    if (nv < 1) {
        PyErr_SetString(PyExc_ValueError, "frusta: at least one view is needed");
        goto done;
    }
    views = PyMem_Malloc((size_t)nv * sizeof *views);
    vis = PyMem_Malloc((size_t)nv * sizeof *vis);
    pyrs = PyMem_Malloc((size_t)nv * sizeof *pyrs);
    if (!views || !vis || !pyrs) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t v = 0; v < nv; v++) {
        char name[40];
        snprintf(name, sizeof name, "frusta[%zd]", v);
        const satc_frustum *f = satc_py_as_view(PySequence_Fast_GET_ITEM(seq, v), name, &pyrs[v]);
        if (!f)
            goto done;
        views[v] = *f;
        any_pyr |= pyrs[v] != NULL;
    }
    if (any_pyr && isa) {
        PyErr_SetString(PyExc_ValueError, "isa: cull_views with pyramids runs on the active path only");
        goto done;
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
        if (any_pyr)
            st = satc_cull_views_occluded(views + v0, pyrs + v0, k, call.b, fst, cnt, mode, &r);
        else
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
        satc_py_call_error(st, nomem, "cull_views");
        goto done;
    }
    if (kind == OUT_COUNT)
        for (Py_ssize_t v = 0; v < nv; v++)
            ((int64_t *)data)[v] = (int64_t)vis[v];
    if (kind == OUT_INDICES)
        for (Py_ssize_t v = 0; v < nv; v++) {
            PyObject *a = satc_py_own_array(idx[v], (npy_intp)vis[v], NPY_UINT32, 4);
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
    PyMem_Free(pyrs);
    PyMem_Free(vis);
    Py_DECREF(seq);
    if (idx) {
        for (Py_ssize_t v = 0; v < nv; v++)
            free(idx[v]);
        free(idx);
    }
    return result;
}
