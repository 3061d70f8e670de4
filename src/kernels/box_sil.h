/* The box setup's silhouette table (raster/setup.c and kernels/raster_setup_wide.h). */
#ifndef SATC_RASTER_BOX_SIL_H
#define SATC_RASTER_BOX_SIL_H

#include <stdint.h>

/*
 * A box's silhouette edges by its front faces (bit 2 k + si: face (k,
 * s = 1 - 2 si)): the edges along H_k between face (a, sa) and face
 * (b, sb), a = k + 1, b = k + 2 (mod 3), one of them front, in order of
 * k, sa, sb. Entry: their count (above 6 when both faces of an axis are
 * front: not drawn), then k << 3 | i | o << 6 for the edge from vertex
 * i | 1 << k to vertex i (vertex i: C plus H_j, minus H_j when bit j of
 * i is set), oriented toward C by sd, or -sd when o is set: -sa sb when
 * (a, sa) is the front face, else sa sb (docs/raster.md, Boxes).
 */
static const uint8_t box_sil[64][7] = {
    {0}, {4, 8, 76, 80, 18}, {4, 73, 13, 17, 83}, {8}, {4, 64, 4, 16, 81},
    {6, 64, 4, 8, 76, 18, 81}, {6, 64, 4, 73, 13, 16, 83}, {8}, {4, 2, 70, 82, 19},
    {6, 2, 70, 8, 76, 80, 19}, {6, 2, 70, 73, 13, 82, 17}, {8}, {8}, {8}, {8}, {8},
    {4, 0, 66, 72, 9}, {6, 0, 66, 9, 76, 80, 18}, {6, 0, 66, 72, 13, 17, 83}, {8},
    {6, 4, 66, 72, 9, 16, 81}, {6, 4, 66, 9, 76, 18, 81}, {6, 4, 66, 72, 13, 16, 83},
    {6, 4, 66, 76, 13, 18, 83}, {6, 0, 70, 72, 9, 82, 19}, {6, 0, 70, 9, 76, 80, 19},
    {6, 0, 70, 72, 13, 82, 17}, {6, 0, 70, 76, 13, 80, 17}, {8}, {6, 4, 70, 9, 76, 81, 19},
    {6, 4, 70, 72, 13, 16, 82}, {4, 4, 70, 76, 13}, {4, 68, 6, 12, 77}, {6, 68, 6, 8, 77, 80, 18},
    {6, 68, 6, 73, 12, 17, 83}, {8}, {6, 64, 6, 12, 77, 16, 81}, {6, 64, 6, 8, 77, 18, 81},
    {6, 64, 6, 73, 12, 16, 83}, {6, 64, 6, 8, 73, 18, 83}, {6, 68, 2, 12, 77, 82, 19},
    {6, 68, 2, 8, 77, 80, 19}, {6, 68, 2, 73, 12, 82, 17}, {6, 68, 2, 8, 73, 80, 17}, {8},
    {6, 64, 2, 8, 77, 81, 19}, {6, 64, 2, 73, 12, 16, 82}, {4, 64, 2, 8, 73}, {8}, {8}, {8}, {8},
    {8}, {6, 66, 6, 9, 77, 18, 81}, {6, 66, 6, 72, 12, 16, 83}, {4, 66, 6, 18, 83}, {8},
    {6, 0, 68, 9, 77, 80, 19}, {6, 0, 68, 72, 12, 82, 17}, {4, 0, 68, 80, 17}, {8},
    {4, 9, 77, 81, 19}, {4, 72, 12, 16, 82}, {0}
};

#endif
