/* The wasm cross-check: the arena, the wasm32 structs, the case file
 * (format: wasm_cases.c). */
#include <stdlib.h>

#include "wasm_image.h"

/* ---- the arena and its wasm32 image ---- */

unsigned char *A;
size_t used;
uint32_t rel[8192];
unsigned nrel;

void reset(void)
{
    memset(A, 0, used);
    used = 64; /* offset 0 stays unused: it would read as NULL */
    nrel = 0;
}

/* Drops what was allocated after a mark (used, nrel). */
void back_to(size_t u, unsigned r)
{
    memset(A + u, 0, used - u);
    used = u;
    nrel = r;
}

void *alloc(size_t n)
{
    used = (used + 15) & ~(size_t)15;
    if (used + n > ARENA) {
        fprintf(stderr, "wasm_cases: arena full\n");
        exit(2);
    }
    void *p = A + used;
    used += n;
    return p;
}

uint32_t off(const void *p) { return (uint32_t)((const unsigned char *)p - A); }
void put32(void *at, uint32_t v) { memcpy(at, &v, 4); }
void putptr(void *at, const void *p)
{
    if (!p) {
        put32(at, 0);
        return;
    }
    if ((const unsigned char *)p < A || (const unsigned char *)p >= A + ARENA) {
        fprintf(stderr, "wasm_cases: pointer outside the arena\n");
        exit(2);
    }
    put32(at, off(p));
    rel[nrel++] = off(at);
}

void w_vec3s(unsigned char *at, const satc_vec3s *v)
{
    putptr(at, v->x), putptr(at + 4, v->y), putptr(at + 8, v->z);
    put32(at + 12, (uint32_t)v->stride);
}

void *w_batch(const satc_batch *b)
{
    unsigned char *w = alloc(88), *u = w + 4;
    put32(w, (uint32_t)b->form);
    switch (b->form) {
    case SATC_FORM_OBB:
        w_vec3s(u, &b->obb.center);
        for (int j = 0; j < 3; j++)
            w_vec3s(u + 16 + 16 * j, &b->obb.axis[j]);
        w_vec3s(u + 64, &b->obb.extent);
        break;
    case SATC_FORM_AABB: w_vec3s(u, &b->aabb.center), w_vec3s(u + 16, &b->aabb.half); break;
    case SATC_FORM_MINMAX: w_vec3s(u, &b->minmax.min), w_vec3s(u + 16, &b->minmax.max); break;
    case SATC_FORM_HALF_AXES:
        w_vec3s(u, &b->half_axes.center);
        for (int j = 0; j < 3; j++)
            w_vec3s(u + 16 + 16 * j, &b->half_axes.axis[j]);
        break;
    case SATC_FORM_SPHERES:
        w_vec3s(u, &b->spheres.center);
        putptr(u + 16, b->spheres.radius.p), put32(u + 20, (uint32_t)b->spheres.radius.stride);
        break;
    case SATC_FORM_INSTANCES: {
        const satc_instances *in = &b->instances;
        putptr(u, in->matrix), put32(u + 4, (uint32_t)in->stride), put32(u + 8, in->layout);
        w_vec3s(u + 12, &in->local_center), w_vec3s(u + 28, &in->local_half);
        putptr(u + 44, in->mesh), put32(u + 48, (uint32_t)in->mesh_stride);
        put32(u + 52, (uint32_t)in->mesh_count);
        break;
    }
    case SATC_FORM_TRS: {
        const satc_trs *t = &b->trs;
        w_vec3s(u, &t->position), w_vec3s(u + 16, &t->scale);
        putptr(u + 32, t->rotation), put32(u + 36, (uint32_t)t->rotation_stride);
        put32(u + 40, t->format);
        memcpy(u + 44, &t->k, 4);
        if (t->local) {
            const satc_local_boxes *l = t->local;
            unsigned char *wl = alloc(44);
            w_vec3s(wl, &l->center), w_vec3s(wl + 16, &l->half);
            putptr(wl + 32, l->mesh), put32(wl + 36, (uint32_t)l->mesh_stride);
            put32(wl + 40, (uint32_t)l->mesh_count);
            putptr(u + 48, wl);
        }
        break;
    }
    }
    if (b->groups) {
        const satc_groups *g = b->groups;
        unsigned char *wg = alloc(44);
        put32(wg, (uint32_t)g->size), putptr(wg + 4, g->offsets), put32(wg + 8, (uint32_t)g->ngroups);
        w_vec3s(wg + 12, &g->center), w_vec3s(wg + 28, &g->half);
        putptr(w + 84, wg);
    }
    return w;
}

void *w_results(const satc_results *r)
{
    unsigned char *w = alloc(16);
    putptr(w, r->bitmask), putptr(w + 4, r->classes), putptr(w + 8, r->indices);
    put32(w + 12, 0xA5A5A5A5u);
    return w;
}

/* The wasm32 satc_pyramid of native *p at w (1516 bytes): size_t is 4
 * bytes there, and the depth pointer is an arena offset. */
void w_pyramid_at(unsigned char *w, const satc_pyramid *p)
{
    size_t L = SATC_PYRAMID_MAX_LEVELS, o = sizeof p->view;
    memcpy(w, &p->view, o);
    put32(w + o, p->width), put32(w + o + 4, p->height), put32(w + o + 8, p->levels);
    for (size_t k = 0; k < L; k++) {
        put32(w + o + 12 + 4 * k, p->level_w[k]);
        put32(w + o + 12 + 4 * L + 4 * k, p->level_h[k]);
        put32(w + o + 12 + 8 * L + 4 * k, (uint32_t)p->level_off[k]);
    }
    putptr(w + o + 12 + 12 * L, p->depth);
    w_pyramid_test(w, p);
}

void w_pyramid_test(unsigned char *w, const satc_pyramid *p)
{
    size_t at = sizeof p->view + 16 + 12 * SATC_PYRAMID_MAX_LEVELS;
    put32(w + at, p->test), put32(w + at + 4, p->test_budget);
}

unsigned char *w_pyramid(const satc_pyramid *p)
{
    unsigned char *w = alloc(W_PYRAMID_BYTES);
    w_pyramid_at(w, p);
    return w;
}

/* Outputs for count volumes, prefilled: bit 0 bitmask, 1 classes, 2 indices. */
satc_results outputs(size_t count, int outs)
{
    satc_results r = {0};
    r.visible = 0xA5A5A5A5u; /* the prefill of the wasm struct's field */
    if (outs & 1)
        memset(r.bitmask = alloc((count + 7) / 8 + 1), 0xA5, (count + 7) / 8 + 1);
    if (outs & 2)
        memset(r.classes = alloc(count + 1), 0xA5, count + 1);
    if (outs & 4)
        memset(r.indices = alloc(4 * count + 4), 0xA5, 4 * count + 4);
    return r;
}

/* ---- the case file ---- */

FILE *out;
unsigned long ncases;
unsigned char *pre;
size_t pre_used;

void wr32(uint32_t v) { fwrite(&v, 4, 1, out); }
void wrstr(const char *s)
{
    wr32((uint32_t)strlen(s));
    fwrite(s, 1, strlen(s), out);
}

/* The image as the call sees it: every output filled, structs written. */
void snap(void)
{
    memcpy(pre, A, used);
    pre_used = used;
}

static uint32_t free_at[8][2];
static unsigned nfree;
void scratch_range(const void *p, size_t n)
{
    if (nfree < 8)
        free_at[nfree][0] = off(p), free_at[nfree][1] = (uint32_t)n, nfree++;
}

void emit(const char *name, const char *fn, int status, int nargs, const arg *args)
{
    wrstr(name), wrstr(fn);
    wr32((uint32_t)pre_used);
    fwrite(pre, 1, pre_used, out);
    wr32(nrel);
    fwrite(rel, 4, nrel, out);
    wr32((uint32_t)nargs);
    for (int i = 0; i < nargs; i++)
        wr32(args[i].kind), wr32(args[i].v);
    wr32((uint32_t)status);
    /* bytes whose value after the call is not an output (scratch) */
    wr32(nfree);
    for (unsigned k = 0; k < nfree; k++)
        wr32(free_at[k][0]), wr32(free_at[k][1]);
    nfree = 0;
    /* the image after the call: the runs of bytes that changed */
    size_t nruns = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass)
            wr32((uint32_t)nruns);
        for (size_t i = 0; i < pre_used;) {
            if (A[i] == pre[i]) {
                i++;
                continue;
            }
            size_t j = i;
            while (j < pre_used && A[j] != pre[j])
                j++;
            if (pass) {
                wr32((uint32_t)i), wr32((uint32_t)(j - i));
                fwrite(A + i, 1, j - i, out);
            } else {
                nruns++;
            }
            i = j;
        }
    }
    ncases++;
}
