/*
 * One cull with canary-guarded outputs, and the cross-path comparison
 * the form tests share: every runnable path and every output kind must
 * give the scalar reference's bytes, and write nothing else.
 */
#ifndef FR_RUN_H
#define FR_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "satc.h"

enum { FR_BITS = 1, FR_CLASSES = 2, FR_INDICES = 4, FR_ALL = 7 };
enum { FR_PAD = 32, FR_CANARY = 0xA5 };

/* Outputs of one call, each with FR_PAD canary bytes on both sides. */
typedef struct fr_out {
    uint8_t *bits, *classes;
    uint32_t *idx;
    uint8_t *mem[3];
    size_t count, visible;
    satc_status st;
} fr_out;

void fr_out_init(fr_out *o, size_t count);
void fr_out_free(fr_out *o);
/* satc_cull_isa with the outputs in `kinds`; visible preset to a canary. */
void fr_cull(fr_out *o, satc_isa isa, const satc_frustum *f, const satc_batch *b, size_t first,
             size_t count, satc_mode mode, unsigned kinds);
/* 1 when no byte outside the written outputs changed (kinds: those asked
 * for; an output not asked for must be untouched entirely). */
int fr_intact(const fr_out *o, unsigned kinds, size_t nidx);
/* Visible bit / class of position j. */
int fr_bit(const fr_out *o, size_t j);

/* Runnable paths, scalar first. */
int fr_paths(satc_isa out[8]);

/* Every path x output kind x mode against the scalar reference; the
 * reference (FR_ALL) of each mode is left in ref[mode]. what names the
 * case in failure messages. Returns the failures. */
long fr_check_paths(const char *what, const satc_frustum *f, const satc_batch *b, size_t first,
                    size_t count, fr_out ref[2]);

#endif
