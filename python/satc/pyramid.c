/* satc.Pyramid: a depth pyramid of one view, filled from a numpy depth
 * image (pyramid_fill.c) or drawn from occluders (batches, triangle
 * meshes). */
#include "_satc.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <structmember.h>

const satc_frustum *satc_py_as_view(PyObject *o, const char *name, const satc_pyramid **pyr)
{
    *pyr = NULL;
    if (PyObject_TypeCheck(o, &satc_py_PyramidType)) {
        *pyr = &((PyramidObject *)o)->p;
        return &(*pyr)->view;
    }
    if (PyObject_TypeCheck(o, &satc_py_FrustumType))
        return &((FrustumObject *)o)->f;
    PyErr_Format(PyExc_TypeError, "%s: expected a satc.Frustum or a satc.Pyramid, got %s", name,
                 Py_TYPE(o)->tp_name);
    return NULL;
}

static PyObject *pyr_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *kwl[] = {"frustum", "width", "height", "merge", "depth_per_texel", "test_budget", NULL};
    PyObject *of, *ow = NULL, *oh = NULL, *ob = Py_None;
    int merge = 0, per_texel = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OO$ppO:Pyramid", kwl, &of, &ow, &oh, &merge,
                                     &per_texel, &ob))
        return NULL;
    if (!PyObject_TypeCheck(of, &satc_py_FrustumType)) {
        PyErr_Format(PyExc_TypeError, "frustum: expected a satc.Frustum, got %s", Py_TYPE(of)->tp_name);
        return NULL;
    }
    const satc_frustum *f = &((FrustumObject *)of)->f;
    Py_ssize_t w = 256, h = 128;
    if ((ow && satc_py_index_arg(ow, "width", &w) < 0) || (oh && satc_py_index_arg(oh, "height", &h) < 0))
        return NULL;
    if (w < SATC_PYRAMID_MIN_WIDTH || w > SATC_PYRAMID_MAX_WIDTH) {
        PyErr_Format(PyExc_ValueError, "width: must be in %u..%u texels, got %zd", SATC_PYRAMID_MIN_WIDTH,
                     SATC_PYRAMID_MAX_WIDTH, w);
        return NULL;
    }
    if (h < SATC_PYRAMID_MIN_HEIGHT || h > SATC_PYRAMID_MAX_HEIGHT) {
        PyErr_Format(PyExc_ValueError, "height: must be in %u..%u texels, got %zd",
                     SATC_PYRAMID_MIN_HEIGHT, SATC_PYRAMID_MAX_HEIGHT, h);
        return NULL;
    }
    uint32_t budget = per_texel ? SATC_TEST_BUDGET_DEFAULT : 0u;
    if (ob != Py_None && !per_texel) {
        PyErr_SetString(PyExc_TypeError, "test_budget: only with depth_per_texel=True");
        return NULL;
    }
    if (ob != Py_None && satc_py_u32_arg(ob, "test_budget", &budget) < 0)
        return NULL;
    if (f->kind == SATC_FRUSTUM_PLANES) {
        PyErr_SetString(PyExc_ValueError,
                        "frustum: a pyramid needs a perspective or orthographic view, not planes");
        return NULL;
    }
    size_t bytes = satc_pyramid_bytes((uint32_t)w, (uint32_t)h);
    PyramidObject *o = (PyramidObject *)type->tp_alloc(type, 0);
    if (!o)
        return NULL;
    o->storage = aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (!o->storage) {
        Py_DECREF(o);
        return PyErr_NoMemory();
    }
    satc_status st = satc_pyramid_init(&o->p, f, (uint32_t)w, (uint32_t)h, o->storage, bytes);
    if (st == SATC_OK) /* kept by fill(), clear() and draws: none of them calls init */
        st = satc_pyramid_set_test(&o->p, per_texel ? SATC_TEST_DEPTH_PER_TEXEL : 0u, budget);
    if (st != SATC_OK) {
        Py_DECREF(o);
        return satc_py_status_error(st, "Pyramid: frustum");
    }
    if (merge) {
        o->coverage_bytes = satc_coverage_bytes((uint32_t)w, (uint32_t)h);
        o->coverage = aligned_alloc(64, (o->coverage_bytes + 63) / 64 * 64);
        if (!o->coverage) {
            Py_DECREF(o);
            return PyErr_NoMemory();
        }
        st = satc_coverage_clear(o->coverage, o->coverage_bytes, &o->p);
        if (st != SATC_OK) {
            Py_DECREF(o);
            return satc_py_status_error(st, "Pyramid: merge");
        }
    }
    return (PyObject *)o;
}

/* A fresh level 0 starts fresh layers: a layer left from occluders the
 * texels no longer hold would claim their coverage. */
void satc_py_pyramid_reset_coverage(PyramidObject *o)
{
    if (o->coverage)
        satc_coverage_clear(o->coverage, o->coverage_bytes, &o->p);
}

static void pyr_dealloc(PyramidObject *o)
{
    free(o->coverage);
    free(o->storage);
    Py_TYPE(o)->tp_free((PyObject *)o);
}

/* ---- occluders ---- */

static int raster_opts(const PyramidObject *self, PyObject *omin, satc_raster_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->coverage = self->coverage;
    double m = 0;
    if (omin && satc_py_num_arg(omin, "min_texels", &m) < 0)
        return -1;
    if (!(m >= 0) || !isfinite(m)) {
        PyErr_SetString(PyExc_ValueError, "min_texels: must be finite and >= 0");
        return -1;
    }
    opt->min_texels = (float)m;
    return 0;
}

static PyObject *pyr_rasterize(PyramidObject *self, PyObject *args, PyObject *kw)
{
    static char *kwl[] = {"batch", "first", "count", "min_texels", "indices", NULL};
    PyObject *ob, *ofirst = NULL, *ocount = NULL, *omin = NULL, *oidx = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OO$OO:rasterize", kwl, &ob, &ofirst, &ocount, &omin, &oidx))
        return NULL;
    BatchObject *bo = satc_py_as_batch(ob);
    size_t fst, cnt;
    satc_raster_options opt;
    if (!bo || satc_py_range(bo, ofirst, ocount, &fst, &cnt) < 0 || raster_opts(self, omin, &opt) < 0)
        return NULL;
    PyArrayObject *idx = NULL;
    if (oidx && oidx != Py_None) {
        if ((ofirst && ofirst != Py_None) || (ocount && ocount != Py_None)) {
            PyErr_SetString(PyExc_ValueError, "indices: give either indices or first/count");
            return NULL;
        }
        if (!(idx = satc_py_take_indices(oidx, "indices", 0, bo->count)))
            return NULL;
    }
    satc_status st;
    Py_BEGIN_ALLOW_THREADS
    st = idx ? satc_pyramid_rasterize_list(&self->p, &bo->b, PyArray_DATA(idx), (size_t)PyArray_DIM(idx, 0), &opt)
             : satc_pyramid_rasterize(&self->p, &bo->b, fst, cnt, &opt);
    if (st == SATC_OK)
        st = satc_pyramid_build(&self->p);
    Py_END_ALLOW_THREADS
    Py_XDECREF(idx);
    if (st != SATC_OK)
        return satc_py_status_error(st, "rasterize");
    Py_INCREF(self);
    return (PyObject *)self;
}

/* (V, 3) float32 vertices in place when rows are 3 adjacent floats with a
 * non-negative stride, else a float32 copy (rounded to nearest). */
static PyArrayObject *take_vertices(PyObject *o, size_t *stride)
{
    PyArrayObject *a = (PyArrayObject *)PyArray_FROM_O(o);
    if (!a || PyArray_DESCR(a)->kind != 'f') {
        Py_XDECREF(a);
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "vertices: expected a (V, 3) float array");
        return NULL;
    }
    if (PyArray_NDIM(a) != 2 || PyArray_DIM(a, 1) != 3) {
        Py_DECREF(a);
        PyErr_SetString(PyExc_ValueError, "vertices: expected shape (V, 3)");
        return NULL;
    }
    npy_intp rs = PyArray_DIM(a, 0) > 1 ? PyArray_STRIDE(a, 0) : 12;
    if (!(PyArray_TYPE(a) == NPY_FLOAT32 && PyArray_ISNOTSWAPPED(a) && PyArray_STRIDE(a, 1) == 4 &&
          rs >= 12 && rs % 4 == 0 && (uintptr_t)PyArray_DATA(a) % 4 == 0)) {
        PyArrayObject *c = (PyArrayObject *)PyArray_FROMANY((PyObject *)a, NPY_FLOAT32, 2, 2,
                                                            NPY_ARRAY_CARRAY | NPY_ARRAY_FORCECAST);
        Py_DECREF(a);
        if (!(a = c))
            return NULL;
        rs = 12;
    }
    *stride = (size_t)rs;
    return a;
}

/* (F, 3) indices: uint32 or uint16 in place when each row's three are
 * adjacent and rows packed, else uint32 after a range check. */
static PyArrayObject *take_faces(PyObject *o, npy_intp nv, unsigned *bits)
{
    PyArrayObject *a = (PyArrayObject *)PyArray_FROM_O(o);
    if (!a || !PyArray_ISINTEGER(a)) {
        Py_XDECREF(a);
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "faces: expected an (F, 3) integer array of vertex indices");
        return NULL;
    }
    if (PyArray_NDIM(a) != 2 || PyArray_DIM(a, 1) != 3) {
        Py_DECREF(a);
        PyErr_SetString(PyExc_ValueError, "faces: expected shape (F, 3)");
        return NULL;
    }
    int t = PyArray_TYPE(a);
    npy_intp es = t == NPY_UINT16 ? 2 : 4;
    if ((t == NPY_UINT32 || t == NPY_UINT16) && PyArray_ISNOTSWAPPED(a) && PyArray_ISCARRAY_RO(a) &&
        PyArray_STRIDE(a, 1) == es) {
        *bits = t == NPY_UINT16 ? 16 : 32;
        return a;
    }
    PyArrayObject *w = (PyArrayObject *)PyArray_FROMANY((PyObject *)a, NPY_INT64, 2, 2,
                                                        NPY_ARRAY_CARRAY | NPY_ARRAY_FORCECAST);
    Py_DECREF(a);
    if (!w)
        return NULL;
    npy_intp dims[2] = {PyArray_DIM(w, 0), 3};
    PyArrayObject *u = (PyArrayObject *)PyArray_SimpleNew(2, dims, NPY_UINT32);
    const int64_t *src = PyArray_DATA(w);
    for (npy_intp k = 0; u && k < 3 * dims[0]; k++) {
        if (src[k] < 0 || src[k] >= nv) {
            PyErr_Format(PyExc_ValueError, "faces: index %lld at (%ld, %d) is not one of the %ld vertices",
                         (long long)src[k], (long)(k / 3), (int)(k % 3), (long)nv);
            Py_CLEAR(u);
            break;
        }
        ((uint32_t *)PyArray_DATA(u))[k] = (uint32_t)src[k];
    }
    Py_DECREF(w);
    *bits = 32;
    return u;
}

static PyObject *pyr_rasterize_mesh(PyramidObject *self, PyObject *args, PyObject *kw)
{
    static char *kwl[] = {"vertices", "faces", "cull_back", "front_cw", "min_texels", NULL};
    PyObject *ov, *of = Py_None, *omin = NULL;
    int back = 0, cw = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O$ppO:rasterize_mesh", kwl, &ov, &of, &back, &cw,
                                     &omin))
        return NULL;
    satc_raster_options opt;
    if (raster_opts(self, omin, &opt) < 0)
        return NULL;
    opt.flags = (back ? SATC_RASTER_CULL_BACK : 0u) | (cw ? SATC_RASTER_FRONT_CW : 0u);
    satc_mesh m;
    memset(&m, 0, sizeof m);
    PyArrayObject *v = take_vertices(ov, &m.stride), *f = NULL;
    if (!v)
        return NULL;
    m.positions = PyArray_DATA(v);
    m.vertex_count = (size_t)PyArray_DIM(v, 0);
    if (of != Py_None) {
        if (!(f = take_faces(of, PyArray_DIM(v, 0), &m.index_bits))) {
            Py_DECREF(v);
            return NULL;
        }
        m.indices = PyArray_DATA(f);
        m.triangle_count = (size_t)PyArray_DIM(f, 0);
    } else if (m.vertex_count % 3) {
        Py_DECREF(v);
        PyErr_SetString(PyExc_ValueError, "vertices: without faces, V must be a multiple of 3");
        return NULL;
    } else {
        m.triangle_count = m.vertex_count / 3;
    }
    satc_status st;
    Py_BEGIN_ALLOW_THREADS
    st = satc_pyramid_rasterize_triangles(&self->p, &m, &opt);
    if (st == SATC_OK)
        st = satc_pyramid_build(&self->p);
    Py_END_ALLOW_THREADS
    Py_DECREF(v);
    Py_XDECREF(f);
    if (st != SATC_OK)
        return satc_py_status_error(st, st == SATC_ERR_RANGE ? "rasterize_mesh: faces" : "rasterize_mesh");
    Py_INCREF(self);
    return (PyObject *)self;
}

static PyObject *pyr_clear(PyramidObject *self, PyObject *unused)
{
    (void)unused;
    satc_pyramid_clear(&self->p);
    satc_py_pyramid_reset_coverage(self);
    Py_INCREF(self);
    return (PyObject *)self;
}

/* Level k as a read-only (rows, columns) view kept alive by the pyramid. */
static PyObject *level_view(PyramidObject *self, Py_ssize_t k)
{
    if (k < 0 || k >= (Py_ssize_t)self->p.levels) {
        PyErr_Format(PyExc_ValueError, "level: must be in 0..%u, got %zd", self->p.levels - 1, k);
        return NULL;
    }
    npy_intp dims[2] = {self->p.level_h[k], self->p.level_w[k]};
    PyObject *a = PyArray_New(&PyArray_Type, 2, dims, NPY_FLOAT32, NULL,
                              self->p.depth + self->p.level_off[k], 0, NPY_ARRAY_C_CONTIGUOUS, NULL);
    if (!a)
        return NULL;
    PyArray_CLEARFLAGS((PyArrayObject *)a, NPY_ARRAY_WRITEABLE);
    Py_INCREF(self);
    if (PyArray_SetBaseObject((PyArrayObject *)a, (PyObject *)self) < 0) {
        Py_DECREF(a);
        return NULL;
    }
    return a;
}

static PyObject *pyr_level(PyramidObject *self, PyObject *arg)
{
    Py_ssize_t k;
    if (satc_py_index_arg(arg, "level", &k) < 0)
        return NULL;
    return level_view(self, k);
}

static PyObject *pyr_depth(PyramidObject *self, void *c)
{
    (void)c;
    return level_view(self, 0);
}

static PyObject *pyr_view(PyramidObject *self, void *c)
{
    (void)c;
    FrustumObject *o = PyObject_New(FrustumObject, &satc_py_FrustumType);
    if (o)
        o->f = self->p.view;
    return (PyObject *)o;
}

static PyObject *pyr_merge(PyramidObject *self, void *c)
{
    (void)c;
    return PyBool_FromLong(self->coverage != NULL);
}

/* closure NULL: depth_per_texel; else test_budget (None without it) */
static PyObject *pyr_test(PyramidObject *self, void *budget)
{
    if (!budget || !self->p.test)
        return budget ? Py_NewRef(Py_None) : PyBool_FromLong(self->p.test != 0);
    return PyLong_FromUnsignedLong(self->p.test_budget);
}

static PyObject *pyr_repr(PyramidObject *self)
{
    return PyUnicode_FromFormat("satc.Pyramid(%u x %u texels, %u levels%s%s)", self->p.width,
                                self->p.height, self->p.levels, self->coverage ? ", merged" : "",
                                self->p.test ? ", depth per texel" : "");
}

static PyGetSetDef pyr_getset[] = {
    {"depth", (getter)pyr_depth, NULL,
     "Level 0, (height, width) float32, read-only: row 0 is the view's bottom, column 0 its left.\n"
     "A texel is a view depth beyond which everything in its rectangle is hidden (inf: nothing).",
     NULL},
    {"view", (getter)pyr_view, NULL, "The pyramid's view (a copy of the frustum it was made for).", NULL},
    {"merge", (getter)pyr_merge, NULL, "Whether draws merge within texels (Pyramid(..., merge=True)).", NULL},
    {"depth_per_texel", (getter)pyr_test, NULL,
     "Whether culls test depth per texel (Pyramid(..., depth_per_texel=True)).", NULL},
    {"test_budget", (getter)pyr_test, NULL,
     "Texel depth bounds one cull may compute (None without depth_per_texel).", (void *)"budget"},
    {NULL}};

#define PYR_U32(name, field, doc) {name, T_UINT, offsetof(PyramidObject, p.field), READONLY, doc}

static PyMemberDef pyr_members[] = {
    PYR_U32("width", width, "Level-0 columns."),
    PYR_U32("height", height, "Level-0 rows."),
    PYR_U32("levels", levels, "Number of levels, down to one texel."),
    {NULL}};

#define PYR_KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS

static PyMethodDef pyr_methods[] = {
    {"fill", PYR_KW(satc_py_pyramid_fill),
     "fill(depth, kind='linear', *, near=None, far=None, zero_to_one=False, reversed=False,\n"
     "     infinite_far=False, top_down=True, scale=None, hole=None, projection=None) -> Pyramid\n\n"
     "Replaces the pyramid by a depth image of its view (any size, spanning the whole view).\n"
     "kind 'linear': view depth along the camera axis times scale (float: 1; uint16/uint32:\n"
     "0.001, millimetres; an integer k stands for (k + 1) * scale); 'window': a depth buffer\n"
     "in [0, 1] (float, or uint16/uint32 unorm); 'ndc': z/w. window and ndc take the\n"
     "projection's near, far and conventions (zero_to_one: Direct3D/Vulkan/Metal; reversed;\n"
     "infinite_far), or instead of near, far and infinite_far the 4x4 projection matrix that\n"
     "rendered the image, projection[row, column] (a column-major list of 16: np.reshape(m,\n"
     "(4, 4)).T): its float entries bound the conversion, tighter near the far plane.\n"
     "top_down: row 0 is the image's top (image files, datasets, D3D/Vulkan);\n"
     "False for OpenGL readbacks. Holes hide nothing: NaN, the value `hole`, and for linear\n"
     "depth any value <= 0. Read in place (strides, flipped rows) unless holes or a\n"
     "conversion need one copy. The GIL is released."},
    {"rasterize", PYR_KW(pyr_rasterize),
     "rasterize(batch, first=0, count=None, *, min_texels=0, indices=None) -> Pyramid\n\n"
     "Draws volumes of a batch (any form) as occluders: each stands for the solid it bounds,\n"
     "so give volumes inside opaque geometry (a building's inner box, a wall). indices: draw\n"
     "just these volumes (a 1-D integer array, e.g. from pick_occluders) instead of a range.\n"
     "Texels only get nearer; with merge, they merge with every draw since the last clear().\n"
     "Then rebuilds the levels."},
    {"pick_occluders", PYR_KW(satc_py_pick_occluders),
     "pick_occluders(batch, max, *, min_texels=0, seen=None, first=0, count=None)\n"
     "    -> uint32 array\n\n"
     "The volumes worth drawing as occluders in this pyramid's view: those in view whose\n"
     "screen box covers at least min_texels level-0 texels, at most max of them, the largest\n"
     "on screen first. seen: strictly ascending indices visible last frame (cull(...,\n"
     "output='indices') gives them); those rank above the rest, since what was seen is in\n"
     "front and hides the most. Which occluders are drawn changes only how much is culled,\n"
     "never whether a visible volume is kept."},
    {"rasterize_mesh", PYR_KW(pyr_rasterize_mesh),
     "rasterize_mesh(vertices, faces=None, *, cull_back=False, front_cw=False, min_texels=0)\n"
     "    -> Pyramid\n\n"
     "Draws triangles inside opaque geometry: vertices (V, 3) world positions (float32 in\n"
     "place; other floats rounded to float32), faces (F, 3) vertex indices (uint32/uint16 in\n"
     "place; None: consecutive triples). cull_back skips triangles not facing the eye (closed\n"
     "meshes; counter-clockwise front faces unless front_cw)."},
    {"clear", (PyCFunction)pyr_clear, METH_NOARGS,
     "clear() -> Pyramid: every texel +inf (nothing hidden), and nothing merged yet."},
    {"level", (PyCFunction)pyr_level, METH_O,
     "level(k) -> (rows, columns) float32, read-only: level k, each texel the farthest of the\n"
     "level-0 texels it covers."},
    {NULL}};

PyTypeObject satc_py_PyramidType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "satc.Pyramid",
    .tp_basicsize = sizeof(PyramidObject),
    .tp_dealloc = (destructor)pyr_dealloc,
    .tp_repr = (reprfunc)pyr_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Pyramid(frustum, width=256, height=128, *, merge=False, depth_per_texel=False,\n"
              "        test_budget=None)\n\n"
              "A depth pyramid of one view (perspective or orthographic), width 64..2048 and\n"
              "height 32..1024 texels, every texel +inf (nothing hidden) until filled from a\n"
              "depth image or drawn from occluders. cull(), cull_views() and visibility() take\n"
              "it in place of its frustum. Do not fill it while another thread culls with it.\n"
              "merge: occluders drawn since the last clear() or fill() merge within texels\n"
              "(each texel a 4 x 4 grid of cells; a texel that several occluders cover\n"
              "together, none of them whole, takes the farthest of their depths): more is\n"
              "hidden, drawing costs more, and 12 bytes more per level-0 texel.\n"
              "depth_per_texel: culls also bound a volume's depth within texels (docs/occlusion.md,\n"
              "\"Depth per texel\"): 1-2 % fewer kept, about 1.2x a cull's time. test_budget: the\n"
              "most texel bounds per cull, 0..2**32-1 (None: 4096), then the plain test.",
    .tp_getset = pyr_getset,
    .tp_members = pyr_members,
    .tp_methods = pyr_methods,
    .tp_new = pyr_new,
};
