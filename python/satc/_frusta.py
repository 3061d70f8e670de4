"""Frusta from what cameras, vision datasets and scene code hold."""

from __future__ import annotations

import math

import numpy as np

from . import _satc


def _outward(lo: float, hi: float) -> tuple[float, float]:
    """float32 bounds that contain [lo, hi] (rounded away from each other)."""
    flo, fhi = np.float32(lo), np.float32(hi)
    if float(flo) > lo:
        flo = np.nextafter(flo, np.float32(-np.inf))
    if float(fhi) < hi:
        fhi = np.nextafter(fhi, np.float32(np.inf))
    return float(flo), float(fhi)


def _matrix(value, name: str, shape: tuple[int, ...]) -> np.ndarray:
    try:
        a = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected an array of numbers") from None
    if a.shape != shape:
        raise ValueError(f"{name}: expected shape {shape}, got {a.shape}")
    bad = np.argwhere(~np.isfinite(a))
    if len(bad):
        at = tuple(int(i) for i in bad[0])
        raise ValueError(f"{name}: must be finite, got {a[at]} at index {at[0] if len(at) == 1 else at}")
    return a


def look_at(eye, target, up, fovy: float, aspect: float, near: float,
            far: float = math.inf) -> _satc.Frustum:
    """A perspective camera at `eye` looking at `target`, `up` roughly up
    (made orthogonal to the view direction here, in double); fovy the
    vertical field of view in radians, aspect = width / height."""
    e = _matrix(eye, "eye", (3,))
    d = _matrix(target, "target", (3,)) - e
    u = _matrix(up, "up", (3,))
    if not np.any(d):
        raise ValueError("target: must differ from eye")
    d /= np.linalg.norm(d)
    u = u - np.dot(u, d) * d
    if np.linalg.norm(u) < 1e-9 * max(1.0, np.linalg.norm(up)):
        raise ValueError("up: must not be parallel to the view direction")
    u /= np.linalg.norm(u)
    return _satc.perspective(e, d, u, fovy, aspect, near, far)


def from_intrinsics(K, R, t, width: float, height: float, near: float,
                    far: float = math.inf, *, batch_origin=None) -> _satc.Frustum:
    """The view volume of a pinhole camera as vision datasets give it.

    K: 3x3 intrinsics [[fx, 0, cx], [0, fy, cy], [0, 0, 1]] (pixels; no skew).
    R, t: extrinsics, world to camera: x_cam = R @ x_world + t, the camera
    looking along +z with x right and y down in the image (OpenCV, KITTI,
    nuScenes, Waymo's camera frames after their axis change).
    width, height: the image in pixels; a point is in view when its
    projection (u, v) = (fx x/z + cx, fy y/z + cy) lies in [0, width] x
    [0, height] and near <= z <= far (far may be inf).
    batch_origin: when the volumes are stored relative to a point (a tile, a
    log's first pose), give it: the camera is placed relative to it in double.

    The bounds are rounded outward to float32, and the camera position
    -R^T t goes through satc's double camera (its rounding enters the
    tolerance), so no volume in view of the double camera is culled.
    """
    K = _matrix(K, "K", (3, 3))
    R = _matrix(R, "R", (3, 3))
    t = _matrix(t, "t", (3,))
    if K[2, 2] == 0:
        raise ValueError("K: K[2, 2] must not be 0")
    K = K / K[2, 2]
    if K[1, 0] != 0 or K[2, 0] != 0 or K[2, 1] != 0:
        raise ValueError("K: expected an upper-triangular intrinsics matrix")
    if K[0, 1] != 0:
        raise ValueError("K: a skewed camera (K[0, 1] != 0) is not supported")
    fx, fy, cx, cy = K[0, 0], K[1, 1], K[0, 2], K[1, 2]
    if fx <= 0 or fy <= 0:
        raise ValueError("K: focal lengths fx, fy must be > 0")
    for name, v in (("width", width), ("height", height)):
        if not (math.isfinite(v) and v > 0):
            raise ValueError(f"{name}: must be finite and > 0")
    if not (math.isfinite(near) and near > 0):
        raise ValueError("near: must be finite and > 0")
    if not (far > near):
        raise ValueError("far: must be > near")
    if np.max(np.abs(R @ R.T - np.eye(3))) > 2.0 ** -21 or np.linalg.det(R) < 0:
        raise ValueError("R: not a rotation (orthonormal, determinant +1)")
    origin = -R.T @ t
    # satc's frame: L = -x (image left), U = -y (image up), D = z, so a
    # pyramid's column 0 is the image's left edge and row 0 its bottom row
    l0, l1 = _outward(near * (cx - width) / fx, near * cx / fx)
    u0, u1 = _outward(near * (cy - height) / fy, near * cy / fy)
    return _satc.camera(origin, -R[0], -R[1], R[2], (l0, l1, u0, u1), near, far,
                        batch_origin=batch_origin)


def from_camera_pose(K, rotation, position, width: float, height: float, near: float,
                     far: float = math.inf, *, batch_origin=None) -> _satc.Frustum:
    """from_intrinsics for a camera given by its pose: `rotation` the 3x3
    camera-to-world rotation (its columns are the camera's x right, y down,
    z forward axes in world coordinates) and `position` the camera centre,
    as datasets store sensor poses (nuScenes' calibrated_sensor and
    ego_pose chained, Waymo's extrinsic, ARKit/COLMAP poses)."""
    Rc = _matrix(rotation, "rotation", (3, 3))
    p = _matrix(position, "position", (3,))
    R = Rc.T
    return from_intrinsics(K, R, -R @ p, width, height, near, far, batch_origin=batch_origin)
