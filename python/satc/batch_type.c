/* The satc.Batch type. */
#include "_satc.h"

#include <structmember.h>

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
