/* The outputs of culls and queries as numpy arrays: masks unpacked from
 * bits, index arrays owning satc's buffers. */
#include "_satc.h"

#include <stdlib.h>
#include <string.h>

/* Bytes to bools: entry b holds the 8 bools of byte b, little bit order. */
static uint64_t unpack_table[256];

void satc_py_outs_init(void)
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
PyObject *satc_py_own_array(void *buf, npy_intp n, int type, size_t esize)
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


int satc_py_outs_prepare(outs_t *o, size_t count, int want_t)
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

void satc_py_outs_clear(outs_t *o)
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
void satc_py_outs_after(outs_t *o, size_t count)
{
    if (o->kind == OUT_MASK)
        unpack_bits(o->bits, count, PyArray_DATA((PyArrayObject *)o->arr));
}

/* The Python result; clears o. */
PyObject *satc_py_outs_result(outs_t *o)
{
    PyObject *res = NULL;
    if (o->kind == OUT_COUNT) {
        res = PyLong_FromSize_t(o->r.visible);
    } else if (o->kind == OUT_INDICES) {
        res = satc_py_own_array(o->index, (npy_intp)o->r.visible, NPY_UINT32, 4);
        o->index = NULL;
    } else {
        res = o->arr;
        o->arr = NULL;
    }
    satc_py_outs_clear(o);
    return res;
}
