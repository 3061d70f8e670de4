/* Runtime selection of a path (dav1d-style): CPU flags detected once,
 * masked by the user's mask, SATC_ISA picking one within the mask; then an early-return
 * cascade from the best path down to scalar. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "../core/internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define SATC_X86 1
#endif
#if defined(__aarch64__)
#define SATC_ARM64 1
#endif
/* WebAssembly: the build sets it per module (src/wasm/meson.build). There
 * is no cpuid: the loader instantiates the SIMD128 module only where the
 * engine validates SIMD128, so inside it the path is native. */
#ifndef SATC_HAVE_SIMD128
#define SATC_HAVE_SIMD128 0
#endif
/* A build whose scalar path is only a fallback (the SIMD128 wasm module)
 * may run the reference instead: the same bits, and the width-1 kernels
 * (37 KB gzip of wasm) are left out by the linker. */
#ifndef SATC_SCALAR_AS_REF
#define SATC_SCALAR_AS_REF 0
#endif

unsigned satc_isa_compiled(void)
{
    unsigned m = SATC_ISA_SCALAR;
#if SATC_HAVE_SSE41
    m |= SATC_ISA_SSE41;
#endif
#if SATC_HAVE_AVX2
    m |= SATC_ISA_AVX2;
#endif
#if SATC_HAVE_NEON
    m |= SATC_ISA_NEON;
#endif
#if SATC_HAVE_AVX512
    m |= SATC_ISA_AVX512;
#endif
#if SATC_HAVE_SIMD128
    m |= SATC_ISA_SIMD128;
#endif
    return m;
}

#if SATC_X86
static unsigned detect_x86(void)
{
    unsigned a, b, c, d, m = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    if (c & bit_SSE4_1)
        m |= SATC_ISA_SSE41;
    /* AVX needs OSXSAVE and the OS saving XMM and YMM state (XCR0 bits 1, 2). */
    if ((c & bit_OSXSAVE) && (c & bit_AVX)) {
        unsigned lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        if ((lo & 6u) == 6u && __get_cpuid_max(0, NULL) >= 7) {
            __cpuid_count(7, 0, a, b, c, d);
            if (b & bit_AVX2)
                m |= SATC_ISA_AVX2;
            /* AVX-512 also needs the OS saving opmask and ZMM state (XCR0 5-7). */
            const unsigned v4 = bit_AVX512F | bit_AVX512VL | bit_AVX512DQ | bit_AVX512BW;
#if !defined(SATC_NO_NATIVE_AVX512) /* a test build: AVX-512 runs its emulated twin */
            if ((b & v4) == v4 && (lo & 0xE6u) == 0xE6u)
                m |= SATC_ISA_AVX512;
#endif
        }
    }
    return m;
}
#endif

/* CPUID is slow (a VM exit under virtualisation), and every batch asks
 * which paths are runnable: detect once. The value never changes, so
 * racing first calls store the same word. */
static _Atomic unsigned native_cache = 0;

unsigned satc_isa_native(void)
{
    unsigned m = atomic_load_explicit(&native_cache, memory_order_relaxed);
    if (m)
        return m;
    m = SATC_ISA_SCALAR;
#if SATC_X86
    m |= detect_x86() & satc_isa_compiled();
#elif SATC_ARM64
    m |= SATC_ISA_NEON & satc_isa_compiled();
#endif
    m |= SATC_ISA_SIMD128 & satc_isa_compiled();
    atomic_store_explicit(&native_cache, m, memory_order_relaxed);
    return m;
}

/* Paths of another architecture run through SIMDe's portable code. */
unsigned satc_isa_runnable(void)
{
    unsigned foreign = 0;
#if SATC_X86
    /* AVX-512 has an emulated twin for CPUs without it. */
    foreign = SATC_ISA_NEON | (SATC_HAVE_AVX512_EMU ? SATC_ISA_AVX512 : 0u);
#elif SATC_ARM64
    foreign = SATC_ISA_SSE41 | SATC_ISA_AVX2 | SATC_ISA_AVX512;
#else
    foreign = SATC_ISA_SSE41 | SATC_ISA_AVX2 | SATC_ISA_AVX512 | SATC_ISA_NEON;
#endif
    return satc_isa_native() | (satc_isa_compiled() & foreign);
}

const char *satc_isa_name(satc_isa isa)
{
    switch (isa) {
    case SATC_ISA_SCALAR: return "scalar";
    case SATC_ISA_SSE41: return "sse41";
    case SATC_ISA_AVX2: return "avx2";
    case SATC_ISA_NEON: return "neon";
    case SATC_ISA_AVX512: return "avx512";
    case SATC_ISA_SIMD128: return "simd128";
    }
    return "unknown";
}

const satc_kernels *satc_kernels_named(satc_isa isa, satc_status *st)
{
    unsigned v = (unsigned)isa;
    if (!v || (v & (v - 1)) || (v & ~(unsigned)SATC_ISA_ALL)) {
        *st = SATC_ERR_FLAGS;
        return NULL;
    }
    const satc_kernels *k = satc_kernels_for(isa);
    *st = k ? SATC_OK : SATC_ERR_ISA;
    return k;
}

static _Atomic int scalar_ref = 0;

void satc_scalar_use_ref(int on) { atomic_store(&scalar_ref, on != 0); }

const satc_kernels *satc_kernels_for(satc_isa isa)
{
    if (!(satc_isa_runnable() & (unsigned)isa))
        return NULL;
    switch (isa) {
    case SATC_ISA_SCALAR:
#if SATC_SCALAR_AS_REF
        return &satc_kernels_ref;
#else
        return atomic_load_explicit(&scalar_ref, memory_order_relaxed) ? &satc_kernels_ref
                                                                       : &satc_kernels_scalar;
#endif
#if SATC_HAVE_SSE41
    case SATC_ISA_SSE41: return &satc_kernels_sse41;
#endif
#if SATC_HAVE_AVX2
    case SATC_ISA_AVX2: return &satc_kernels_avx2;
#endif
#if SATC_HAVE_NEON
    case SATC_ISA_NEON: return &satc_kernels_neon;
#endif
#if SATC_HAVE_SIMD128
    case SATC_ISA_SIMD128: return &satc_kernels_simd128;
#endif
#if SATC_HAVE_AVX512
    case SATC_ISA_AVX512:
#if SATC_HAVE_AVX512_EMU
        if (!(satc_isa_native() & SATC_ISA_AVX512))
            return &satc_kernels_avx512_emu;
#endif
        return &satc_kernels_avx512;
#endif
    default: return NULL;
    }
}

/*
 * Per-operation choices of the default path. On some CPUs a 512-bit
 * kernel is slower than the 256-bit one for an operation (the benchmark's
 * dispatch section, satc_bench_dispatch, times every path on every main
 * row); there the default path, AVX-512, runs that operation on the AVX2
 * kernels. An entry names a vendor, a family and a model (0: every model
 * of the family), and two operation sets: one for calls on fewer than
 * SATC_DISPATCH_LARGE volumes (whose data may sit in cache) and one for
 * larger calls, which stream from memory. CPUs not listed run AVX-512
 * throughout.
 */
static const struct {
    char vendor[13];
    unsigned family, model, small, large;
} narrow_ops[] = {
    /* Intel family 6 model A7h: from memory, the 4x4-matrix and
     * half-axis culls run 12-24 % faster on AVX2 and the group bounds
     * 9-20 % (but spheres', 1.4x faster on AVX-512); in cache AVX-512 leads (matrices by
     * 1.4x). The shared-frame views stay: AVX2 leads by 7-11 % on
     * spatially ordered boxes, AVX-512 by 24 % on shuffled ones. */
    {"GenuineIntel", 0x06, 0xA7, 0,
     SATC_OP_CULL(SATC_FORM_INSTANCES) | SATC_OP_CULL(SATC_FORM_HALF_AXES) | SATC_OP_BOUNDS},
};

unsigned satc_dispatch_ops_for(const char *vendor, unsigned family, unsigned model, int large)
{
    for (size_t i = 0; vendor && i < sizeof narrow_ops / sizeof narrow_ops[0]; i++)
        if (narrow_ops[i].vendor[0] && narrow_ops[i].family == family &&
            (!narrow_ops[i].model || narrow_ops[i].model == model) &&
            !strcmp(narrow_ops[i].vendor, vendor))
            return large ? narrow_ops[i].large : narrow_ops[i].small;
    return 0;
}

/* internal.h states it; the table above is keyed the same way. */
int satc_cpu_signature(char vendor[13], unsigned *family, unsigned *model)
{
    memset(vendor, 0, 13);
    *family = *model = 0;
#if SATC_X86
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return 0;
    memcpy(vendor, &b, 4), memcpy(vendor + 4, &d, 4), memcpy(vendor + 8, &c, 4);
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    *family = (a >> 8) & 15u, *model = (a >> 4) & 15u;
    if (*family == 15u)
        *family += (a >> 20) & 255u;
    if (*family >= 6u)
        *model |= ((a >> 16) & 15u) << 4;
    return 1;
#else
    return 0;
#endif
}

/* This CPU's entries, by satc_cpu_signature. Read once, as the flags are
 * (CPUID is a VM exit under virtualisation); bit 31 marks it read. Small
 * calls' ops in the low 16 bits, large calls' in the high
 * (SATC_OP_ALL < 2^15). */
static unsigned cpu_ops(int large)
{
    static _Atomic unsigned cache = 0;
    unsigned ops = atomic_load_explicit(&cache, memory_order_relaxed);
    if (!ops) {
        char vendor[13];
        unsigned family, model;
        if (satc_cpu_signature(vendor, &family, &model))
            ops = satc_dispatch_ops_for(vendor, family, model, 0) |
                  satc_dispatch_ops_for(vendor, family, model, 1) << 16;
        ops |= 0x80000000u;
        atomic_store_explicit(&cache, ops, memory_order_relaxed);
    }
    return (large ? ops >> 16 : ops) & SATC_OP_ALL;
}

/* 0 = not chosen yet. Choosing is idempotent, so racing first calls agree. */
static _Atomic unsigned user_mask = ~0u;
static _Atomic unsigned active = 0;
static _Atomic unsigned narrow = 0;          /* satc_dispatch_narrow */
static _Atomic unsigned ops_override = ~0u;  /* satc_dispatch_override */

/* The path, and in *nar the operations the default table takes from
 * AVX2 (only for AVX-512 chosen automatically, AVX2 native and allowed). */
static satc_isa choose(unsigned *nar)
{
    /* The mask bounds both: SATC_ISA picks within it. */
    unsigned mask = atomic_load(&user_mask);
    *nar = 0;
#if defined(__wasm__)
    const char *env = NULL; /* no environment on the web (and no WASI import for it) */
#else
    const char *env = getenv("SATC_ISA");
#endif
    if (env) {
        for (unsigned isa = SATC_ISA_SCALAR; isa <= SATC_ISA_SIMD128; isa <<= 1) {
            if (!strcmp(env, satc_isa_name((satc_isa)isa)) && (satc_isa_runnable() & mask & isa))
                return (satc_isa)isa;
        }
    }
    unsigned m = satc_isa_native() & mask;
    if ((m & SATC_ISA_AVX512) && (m & SATC_ISA_AVX2)) {
        unsigned o = atomic_load(&ops_override);
        *nar = o == ~0u ? cpu_ops(0) | cpu_ops(1) << 16 : (o & SATC_OP_ALL) * 0x10001u;
    }
    if (m & SATC_ISA_SIMD128)
        return SATC_ISA_SIMD128;
    if (m & SATC_ISA_AVX512)
        return SATC_ISA_AVX512;
    if (m & SATC_ISA_AVX2)
        return SATC_ISA_AVX2;
    if (m & SATC_ISA_SSE41)
        return SATC_ISA_SSE41;
    if (m & SATC_ISA_NEON)
        return SATC_ISA_NEON;
    return SATC_ISA_SCALAR;
}

/* Publishes a choice: the narrowed operations before the path, so a
 * reader that sees the path sees them (any pairing gives the same bits). */
static unsigned select_path(void)
{
    unsigned nar, a = (unsigned)choose(&nar);
    atomic_store_explicit(&narrow, a == SATC_ISA_AVX512 ? nar : 0u, memory_order_release);
    atomic_store_explicit(&active, a, memory_order_release);
    return a;
}

satc_isa satc_isa_active(void)
{
    unsigned a = atomic_load_explicit(&active, memory_order_acquire);
    if (!a)
        a = select_path();
    return (satc_isa)a;
}

satc_status satc_isa_set_mask(unsigned mask)
{
    if (mask & ~(unsigned)SATC_ISA_ALL)
        return SATC_ERR_FLAGS;
    atomic_store(&user_mask, mask | SATC_ISA_SCALAR);
    select_path();
    return SATC_OK;
}

unsigned satc_dispatch_narrow(int large)
{
    satc_isa_active();
    return atomic_load_explicit(&narrow, memory_order_acquire) >> (large ? 16 : 0) & SATC_OP_ALL;
}

void satc_dispatch_override(unsigned ops)
{
    atomic_store(&ops_override, ops);
    select_path();
}

#if SATC_HAVE_AVX512 && SATC_HAVE_AVX2
/* The AVX-512 table with the operations `ops` from the AVX2 table. */
static void compose(satc_kernels *t, unsigned ops)
{
    const satc_kernels *w = &satc_kernels_avx512, *n = &satc_kernels_avx2;
    *t = *w;
    for (int f = 1; f <= SATC_NFORMS; f++) {
        if (ops & SATC_OP_CULL(f))
            memcpy(t->fn[f], n->fn[f], sizeof t->fn[f]);
        if (ops & SATC_OP_MULTI)
            t->multi[f] = n->multi[f];
    }
    for (int f = 1; f <= SATC_NFORMS; f++)
        if (ops & (f == SATC_FORM_SPHERES ? SATC_OP_BOUNDS_SPHERES : SATC_OP_BOUNDS))
            t->bounds[f] = n->bounds[f];
    if (ops & SATC_OP_SOA)
        t->soa = n->soa;
}
#endif

const satc_kernels *satc_kernels_default_n(size_t count)
{
    satc_isa a = satc_isa_active();
#if SATC_HAVE_AVX512 && SATC_HAVE_AVX2
    /* One composed table per size class, rebuilt when its operation set
     * changes, by the first caller that sees it (state 1 while building:
     * others run the AVX-512 table meanwhile, whose bits are the same). */
    static satc_kernels mixed[2];
    static _Atomic unsigned mixed_ops[2], mixed_state[2]; /* 0 none, 1 building, 2 ready */
    int large = count >= SATC_DISPATCH_LARGE;
    unsigned ops = satc_dispatch_narrow(large);
    if (a == SATC_ISA_AVX512 && ops) {
        if (atomic_load_explicit(&mixed_state[large], memory_order_acquire) == 2 &&
            atomic_load_explicit(&mixed_ops[large], memory_order_relaxed) == ops)
            return &mixed[large];
        unsigned idle = atomic_load(&mixed_state[large]);
        if (idle != 1 && atomic_compare_exchange_strong(&mixed_state[large], &idle, 1u)) {
            compose(&mixed[large], ops);
            atomic_store_explicit(&mixed_ops[large], ops, memory_order_relaxed);
            atomic_store_explicit(&mixed_state[large], 2u, memory_order_release);
            return &mixed[large];
        }
    }
#else
    (void)count;
#endif
    return satc_kernels_for(a);
}
