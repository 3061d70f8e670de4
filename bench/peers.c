/* The builds of the peer baselines (bench/meson.build compiles
 * baseline_filament.c, baseline_bevy.c and cglm's batch once per
 * instruction set): which exist, their flags, and whether this CPU runs
 * them (the library's own CPU check). */
#include <stddef.h>

#include "baselines.h"

#ifndef SATC_BENCH_FILAMENT_CC
#define SATC_BENCH_FILAMENT_CC "the build's compiler"
#endif

#define PEER(isa, fl, satc_path)                                                                                 \
    {#isa, fl, SATC_BENCH_FILAMENT_CC, satc_path, fb_filament_arvo_##isa, fb_filament_cull_##isa,             \
     fb_bevy_batch_##isa, bl_cglm_batch_##isa}

#define AVX512_FLAGS "-O3 -mavx512f -mavx512vl -mavx512dq -mavx512bw"

/* The AVX-512 path is runnable emulated (from AVX2) on CPUs without
 * AVX-512; the peer builds are native code and need the CPU itself. */
static int cpu_has_avx512(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw");
#else
    return 0;
#endif
}

const fb_peer *fb_peer_get(int which)
{
    unsigned run = satc_isa_runnable();
#if defined(SATC_BENCH_PEER_AVX2)
    static const fb_peer p2 = PEER(avx2, "-O3 -mavx2", SATC_ISA_AVX2);
    if (which == PB_AVX2)
        return run & SATC_ISA_AVX2 ? &p2 : NULL;
#elif defined(SATC_BENCH_PEER_BASE)
    static const fb_peer pb = PEER(base, "-O3 (the project's target flags)", SATC_ISA_SCALAR);
    if (which == PB_AVX2)
        return &pb;
#endif
#if defined(SATC_BENCH_PEER_AVX512)
    static const fb_peer p5 = PEER(avx512, AVX512_FLAGS, SATC_ISA_AVX512);
    if (which == PB_AVX512)
        return run & SATC_ISA_AVX512 && cpu_has_avx512() ? &p5 : NULL;
#endif
    (void)run, (void)which;
    return NULL;
}

const fb_peer *fb_peer_for(satc_isa isa)
{
    for (int w = PB_COUNT - 1; w >= 0; w--) {
        const fb_peer *p = fb_peer_get(w);
        if (p && p->isa == isa)
            return p;
    }
    for (int w = PB_COUNT - 1; w >= 0; w--)
        if (fb_peer_get(w))
            return fb_peer_get(w);
    return NULL;
}
