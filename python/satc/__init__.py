"""satc: separating-axis culling of numpy arrays of bounding volumes.

Which of these boxes can the camera see? satc answers it for whole arrays
at once, exactly, in C with SIMD, reading the arrays where they lie (no
copy for float32 in any layout numpy strides give: C or Fortran order,
slices, transposed views, fields of structured records).

    import numpy as np, satc
    cam = satc.from_intrinsics(K, R, t, 1600, 900, near=0.1)
    boxes = satc.aabbs(centers, halves)          # (N, 3) float32 arrays
    visible = satc.cull(cam, boxes)              # (N,) bool
    seen = satc.cull_views(cams, boxes)          # (cameras, N) bool, one pass

Frusta: perspective, look_at, camera, from_matrix, from_intrinsics,
from_camera_pose, from_planes, box_frustum, segment_frustum.
Batches: aabbs, minmax, obbs, half_axes, instances, spheres, trs (position,
quaternion, scale), splats (32-byte .splat records), load_ply (3DGS PLY
files, read_ply for their records); Batch.grouped attaches
group bounds. Culls: cull, cull_views, cull_depth (depths and back-to-front
order), query_sphere, query_ray, query_box, query_segment; sort_depth,
group_bounds, to_aabbs.

A volume that touches the view is never reported hidden; exact mode (the
default) keeps nothing farther than satc's documented band. Non-finite
volumes are always visible. The GIL is released during every cull, so a
thread pool can split one batch with first= and count=.
"""

from __future__ import annotations

from ._satc import (INSIDE, INTERSECTING, MAX_VIEWS, OCCLUDED, OUTSIDE, Batch, Frustum, Pyramid,
                    __version__, aabbs, box_frustum, camera, cull, cull_depth, cull_views,
                    from_matrix, from_planes, group_bounds, half_axes, instances,
                    isa, isa_runnable, minmax, obbs, perspective, query_ray,
                    query_sphere, segment_frustum, sort_depth, splats, spheres, to_aabbs,
                    trs, visibility)
from ._frusta import from_camera_pose, from_intrinsics, look_at
from ._ply import load_ply, read_ply

__all__ = [
    "Batch", "Frustum", "INSIDE", "INTERSECTING", "MAX_VIEWS", "OCCLUDED", "OUTSIDE", "Pyramid",
    "__version__", "visibility",
    "aabbs", "box_frustum", "camera", "cull", "cull_depth", "cull_views", "from_camera_pose",
    "from_intrinsics", "from_matrix", "from_planes", "group_bounds", "half_axes",
    "instances", "isa", "isa_runnable", "load_ply", "look_at", "minmax", "obbs", "perspective",
    "query_box", "query_ray", "query_segment", "query_sphere", "read_ply", "segment_frustum",
    "sort_depth", "spheres", "splats", "to_aabbs", "trs",
]


def query_box(batch: Batch, center, half, axes=None, mode: str = "exact",
              output: str = "mask", *, first: int = 0, count: int | None = None,
              isa: str | None = None):
    """Which volumes touch the box (center, half sizes, optional orthonormal
    axes as rows; None: axis-aligned)? Same outputs as cull()."""
    return cull(box_frustum(center, half, axes), batch, mode, output, first=first,
                count=count, isa=isa)


def query_segment(batch: Batch, p0, p1, mode: str = "exact", output: str = "mask", *,
                  first: int = 0, count: int | None = None, isa: str | None = None):
    """Which volumes does the segment p0-p1 touch? Same outputs as cull()."""
    return cull(segment_frustum(p0, p1), batch, mode, output, first=first, count=count,
                isa=isa)
