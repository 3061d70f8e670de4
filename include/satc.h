/*
 * satc — separating-axis culling of oriented bounding boxes against view
 * frusta, many boxes per call, with SIMD.
 *
 * Coordinates are world units. Every box test is camera-relative: the
 * frustum origin E is subtracted from a box center first, so precision
 * depends on the distance to the camera, not to the world origin.
 *
 * Contract (every path: scalar, SSE4.1, AVX2, AVX-512, NEON, bit-for-bit identical):
 *
 *  - Never a false negative. A volume that touches the frustum in exact
 *    real arithmetic (applied to the float values given) is never reported
 *    outside, in either mode, for any finite volume of any form
 *    (orthonormal axes or not, any axis lengths, subnormal components),
 *    with flush-to-zero / denormals-are-zero on or off. Near-touching
 *    volumes are reported visible by the float tests: each adds the tolerance
 *        SATC_EPSILON * K * |M|_1 * S + SATC_TINY
 *    along its axis M, and rounding moves a computed separation by at most
 *    (12 + 4.5 K) u |M|_1 S, u = 2^-24 (docs/error-bound.md derives this
 *    bound for every quantity and axis class; SATC_EPSILON = 18 u exceeds
 *    it). So a volume is culled only when, along some separating axis M,
 *    the projections are apart by more than (SATC_EPSILON * K - (12 +
 *    4.5 K) u) |M|_1 S >= 1.5 u K |M|_1 S; as a distance the tolerance
 *    is at most
 *    sqrt(3) * (SATC_EPSILON * K * S + SATC_TINY / |M|_1);
 *    S = |dx|+|dy|+|dz| + sum_j |H_j|_1 + 2^-100: the camera-relative
 *    center in the frustum frame, and the frame components of the box's
 *    half-axis vectors H_j (e_j A_j for an OBB; h_j times a world axis for
 *    an AABB; M_i's columns times the local half extents for an
 *    instance, plus sum |M_i,rk lc_k| over the local center's products,
 *    which may cancel against the translation), so long axes count by
 *    their length; for a sphere sum_j |H_j|_1 is 2 r. K = 1 + max|x slope|
 *    + max|y slope| for a perspective frustum, 1 for an orthographic one
 *    (whose tolerance adds SATC_EPSILON times the frustum box's own size,
 *    |center|_1 + |half|_1, in tol_t), 2 for a plane volume
 *    (SATC_FRUSTUM_PLANES: its frame is the world axes about its origin).
 *    The band absorbs float rounding; the
 *    2^-100 and SATC_TINY terms absorb underflow, so distances below about
 *    2^-100 world units are not resolved. A frustum's constant term tol_t
 *    (for a frustum built in a batch's frame from a double camera, the
 *    rounding of its origin) is added to SATC_EPSILON * K * S. Under
 *    denormals-are-zero a subnormal input reads as 0 (a box moved by less
 *    than 2^-126 times its size), so answers may differ between
 *    floating-point modes, but
 *    only for volumes within this band: neither mode culls a touching one.
 *    Frusta from satc_frustum_from_matrix contain the float matrix's own
 *    clip volume; satc_obb_from_matrix boxes contain the mapped local box.
 *  - Exact mode's second stage: a volume that exact mode's float tests
 *    keep while one of their decisions (a plane, or any separating axis)
 *    lies within twice its tolerance of culling is decided again in
 *    double from the stored floats, with the same axes, by one scalar
 *    routine every path calls (so the bits stay identical). It is culled
 *    only when, along one of those axes M, the double-precision
 *    separation exceeds (2^-40 Q + tol_t + 2 dev R) |M|_1 + 2^-110 |M|_1,
 *    Q the sum of the magnitudes involved (camera-relative and world
 *    center, origin, half axes, the frustum's vertices), R = |delta|_1 +
 *    sum_j |H_j|_1 and dev >= ||F F^T - I|| how far the frame rows are
 *    from orthonormal (about 2^-23 for a frame rounded from double), with
 *    the slopes widened by 2^-24 (1 + 2^-20) of themselves (each builder
 *    rounds a slope once: a camera's l/n, a perspective's tan(fovy/2)
 *    times aspect).
 *    So exact mode never culls a touching volume, and culls near-touching
 *    ones the float tolerance would keep once they are apart by more than
 *    that: on the benchmark's boundary scene it keeps none farther than
 *    1e-4 + 1e-6 scale in any form (tests/core/fp_forms,
 *    tests/robust/test_band; docs/error-bound.md §11). An orthographic
 *    frustum's tol_t (its size term) is kept in full.
 *  - Exact mode reports no box visible whose Euclidean distance to the
 *    frustum exceeds SATC_EXACT_BAND * K * (S + F) = 2^-16 K (S + F),
 *    F = n * K for a perspective frustum and |center|_1 + |half|_1 of the
 *    frustum box (in frame coordinates, K = 1) for an orthographic one, and
 *    F = max |V - E|_1 over the vertices V of a bounded plane volume, K = 2
 *    (checked against double-precision oracles in tests/core/test_oracle.c,
 *    whose largest measured ratio is 2^-18.7, and tests/volumes; proved per
 *    axis, not as a distance: docs/error-bound.md).
 *  - Non-finite boxes: a box with any NaN or +-Inf field, or whose
 *    camera-relative magnitude S reaches SATC_MAX_MAGNITUDE, is never
 *    culled: it is reported visible, class SATC_INTERSECTING, in every mode
 *    and on every path.
 *  - Box axes should be unit length and mutually orthogonal within
 *    SATC_AXIS_TOLERANCE (either handedness). Other axes describe a
 *    parallelepiped: it is still never culled when it touches the frustum,
 *    but exact mode's false-positive band assumes the precondition.
 *  - Nothing is allocated, locked or written globally on the culling path;
 *    calls are reentrant, and threads may cull disjoint ranges of one
 *    batch at once.
 */
#ifndef SATC_H
#define SATC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* SATC_VERSION_MAJOR, _MINOR, _PATCH: the version of this header, from
 * meson.build (satc_version.h is generated by the build). */
#include "satc_version.h"

/** Symbol visibility for the shared library. */
#if defined(_WIN32) && defined(SATC_BUILDING_DLL)
#define SATC_API __declspec(dllexport)
#elif defined(__GNUC__)
#define SATC_API __attribute__((visibility("default")))
#else
#define SATC_API
#endif

/** Relative tolerance of the culling decision (see the contract above):
 * 18 u = 1.125 * 2^-20, u = 2^-24, from the forward error bound of
 * docs/error-bound.md (every computed test quantity is within
 * (12 + 4 K) u |M|_1 S of its exact value, and 12 + 4 K < 18 K). */
#define SATC_EPSILON 1.0728836059570312e-06f
/** Absolute part of the culling tolerance along an axis (see above): 2^-120. */
#define SATC_TINY 7.52316384526264e-37f
/** Exact mode's false-positive band (see above): 2^-16 (16 times tighter
 * than the 2^-12 of satc 0.2 with SATC_EPSILON = 2^-16). */
#define SATC_EXACT_BAND 1.52587890625e-05
/** Allowed deviation of box axes from orthonormal: |A_i.A_j| and ||A_i|-1|, 2^-20. */
#define SATC_AXIS_TOLERANCE 9.5367431640625e-07
/** Allowed deviation of a camera frame (L, U, D) from right-handed orthonormal, 2^-20. */
#define SATC_FRAME_TOLERANCE 9.5367431640625e-07
/** Boxes whose camera-relative magnitude S reaches this (2^40, about
 * 1.1e12 world units) are never culled. Below it, a product of three
 * magnitudes (a face normal H_j x H_k dotted with the center, 12 S^3)
 * stays below the float range: no separating-axis sum overflows. */
#define SATC_MAX_MAGNITUDE 1099511627776.0f
/** Largest |slope| (bound / n) of a perspective frustum: 2^20. */
#define SATC_MAX_SLOPE 1048576.0f

/** Status codes. SATC_OK is 0; every error is negative. */
typedef enum satc_status {
    SATC_OK = 0,
    SATC_ERR_NULL = -1,      /**< a required pointer is NULL */
    SATC_ERR_NONFINITE = -2, /**< a frustum parameter is NaN or Inf (other than an allowed infinite far) */
    SATC_ERR_NEAR = -3,      /**< perspective near distance n <= 0 */
    SATC_ERR_FAR = -4,       /**< f <= n, an infinite far on an orthographic frustum, or exact mode on an unbounded plane volume */
    SATC_ERR_BOUNDS = -5,    /**< l0 >= l1, u0 >= u1, a slope beyond SATC_MAX_SLOPE, or a plane volume empty or degenerate */
    SATC_ERR_FRAME = -6,     /**< L, U, D not right-handed orthonormal within SATC_FRAME_TOLERANCE */
    SATC_ERR_MATRIX = -7,    /**< matrix is not a perspective or orthographic view-projection */
    SATC_ERR_FLAGS = -8,     /**< unknown mode, ISA or convention bits */
    SATC_ERR_RANGE = -9,     /**< first + count overflows, or an index exceeds UINT32_MAX */
    SATC_ERR_ISA = -10,      /**< the requested ISA is not compiled in or not supported by this CPU */
    SATC_ERR_NOMEM = -11,    /**< allocation failed (satc_box_arrays_alloc only) */
    SATC_ERR_BOX = -12,      /**< box helper input is not a box: non-finite, min > max, zero quaternion, singular or sheared matrix */
    SATC_ERR_LAYOUT = -13,   /**< batch descriptor invalid: unknown matrix layout, a stride smaller than its record, misaligned pointer or stride */
    SATC_ERR_PYRAMID = -14,  /**< a depth pyramid not set up by satc_pyramid_init, or made for another view than the one culled */
    SATC_ERR_UP = -15,       /**< look-at: the up vector is zero or within SATC_FRAME_TOLERANCE radians of the view direction */
    SATC_ERR_DIRECTION = -16 /**< look-at: the view direction is zero (the target is the eye) */
} satc_status;

/** Short English description of a status code; never NULL. */
SATC_API const char *satc_status_string(satc_status s);

/** Library version as MAJOR*10000 + MINOR*100 + PATCH. */
SATC_API unsigned satc_version(void);

/* ------------------------------------------------------------------ */
/* Frusta                                                               */
/* ------------------------------------------------------------------ */

/** Frustum kinds (satc_frustum.kind). */
#define SATC_FRUSTUM_PERSPECTIVE 1u
#define SATC_FRUSTUM_ORTHOGRAPHIC 2u
#define SATC_FRUSTUM_PLANES 3u /**< a convex volume given by planes (satc_frustum_from_planes) */

/** Most planes of a SATC_FRUSTUM_PLANES volume. */
#define SATC_MAX_PLANES 16
/** Room for the vertices of a plane volume (a 3-polytope of 16 faces has at most 28). */
#define SATC_MAX_PLANE_VERTS 32
/** Room for the distinct edge directions of a plane volume (at most 42 for 16 faces). */
#define SATC_MAX_PLANE_EDGES 48

/**
 * A frustum precomputed for culling. Build it with one of the
 * satc_frustum_* functions once per frame; treat every field as read-only.
 * It holds the frame (Eberly §3), the bounds as slopes, and the constants of
 * the separating-axis tests shared by all boxes. No pointers: copy freely.
 */
typedef struct satc_frustum {
    uint32_t kind;        /**< SATC_FRUSTUM_PERSPECTIVE, SATC_FRUSTUM_ORTHOGRAPHIC or SATC_FRUSTUM_PLANES */
    uint32_t infinite;    /**< 1 when the far plane is at infinity (perspective only) */
    float origin[3];      /**< E, world units */
    float frame[3][3];    /**< rows L, U, D (unit, right-handed) */
    float x0, x1;         /**< perspective: slopes l0/n, l1/n along L; orthographic: bounds along L */
    float y0, y1;         /**< the same along U */
    float n, f;           /**< near and far distances along D (f may be +Inf for perspective) */
    float dx, dy;         /**< perspective: x0 - x1 and y0 - y1 (negative) */
    float eps_k;          /**< tolerance per unit of S: SATC_EPSILON * K (perspective), SATC_EPSILON (orthographic) */
    float center[3];      /**< orthographic: center of the frustum box in frame coordinates */
    float half[3];        /**< orthographic: half sizes of the frustum box */
    float tol_t;          /**< constant part of the tolerance: an orthographic frustum's
                               size term, plus the rounding of the origin for
                               satc_frustum_from_camera_d, and for
                               satc_frustum_from_matrix what its apex and the matrix's
                               float planes add (so SATC_INSIDE stays inside them);
                               0 for other perspective frusta */
    float f_in;           /**< far depth SATC_INSIDE tests against (f, +Inf when infinite):
                               for satc_frustum_from_matrix, where the matrix's own
                               far plane first meets the frustum's edges (also when f
                               is +Inf but the float matrix still has a far plane;
                               0 when nothing can be classified inside) */

    /* SATC_FRUSTUM_PLANES only (satc_frustum_from_planes; 0 for the other
     * kinds). Coordinates are relative to origin along the world axes
     * (frame is the identity), so precision depends on the distance to
     * the volume, not to the world origin. */
    uint32_t nplanes;                          /**< 1 .. SATC_MAX_PLANES */
    uint32_t nverts;                           /**< vertices; 0 when the volume is unbounded */
    uint32_t nedges;                           /**< distinct edge directions of a bounded volume */
    float margin2;                             /**< twice the margin: SATC_INSIDE needs this much */
    float plane[SATC_MAX_PLANES][4];           /**< unit normal n, offset w: inside n.(X-E) + w >= 0
                                                    (already moved out by the margin) */
    float vert[SATC_MAX_PLANE_VERTS][3];       /**< vertices V - E, rounded to nearest */
    float edge[SATC_MAX_PLANE_EDGES][3];       /**< unit edge directions (one per parallel class) */
} satc_frustum;

/**
 * A camera in Eberly's form ("Intersection of a Box and a Frustum"), generalised: origin E; left, up
 * and direction vectors L, U, D (right-handed orthonormal within
 * SATC_FRAME_TOLERANCE, so L x U = D); bounds [l0, l1] along L and
 * [u0, u1] along U.
 *  - Perspective: the bounds lie on the near plane D.(X-E) = n; symmetric
 *    frusta have l0 = -l1, u0 = -u1. 0 < n < f; f may be +INFINITY.
 *  - Orthographic: the frustum is the box l0<=L.(X-E)<=l1,
 *    u0<=U.(X-E)<=u1, n<=D.(X-E)<=f, with n < f finite (n may be <= 0).
 */
typedef struct satc_camera {
    float origin[3];
    float left[3];
    float up[3];
    float dir[3];
    float l0, l1;
    float u0, u1;
    float n, f;
    int orthographic; /**< 0: perspective, nonzero: orthographic */
} satc_camera;

/**
 * Builds a frustum from a camera. Returns SATC_OK, or SATC_ERR_NULL,
 * SATC_ERR_NONFINITE, SATC_ERR_NEAR, SATC_ERR_FAR, SATC_ERR_BOUNDS,
 * SATC_ERR_FRAME. On error *out is left unchanged.
 */
SATC_API satc_status satc_frustum_from_camera(satc_frustum *out, const satc_camera *cam);

/**
 * A camera whose origin is in double (large worlds: Unreal 5, Godot's
 * double builds); the other fields as in satc_camera.
 */
typedef struct satc_camera_d {
    double origin[3];
    float left[3];
    float up[3];
    float dir[3];
    float l0, l1;
    float u0, u1;
    float n, f;
    int orthographic; /**< 0: perspective, nonzero: orthographic */
} satc_camera_d;

/**
 * The frustum of cam for volumes stored relative to a batch origin O (a
 * tile, a sector, a floating origin): a volume whose stored center is c
 * stands for the world point O + c. E - O is computed once, in double, and
 * rounded to float; the rounding (and that of the double subtraction) goes
 * into the frustum's constant tolerance term, so no volume touching the
 * exact frustum is culled at any distance from the world origin, while
 * precision depends only on the distance between camera and O: the term
 * is about K 2^-24 |E - O|_1 (0.6 mm with E 10 km from O, in metres), so
 * keep O near the camera or the batch.
 * Returns what satc_frustum_from_camera returns, and SATC_ERR_NONFINITE
 * for a non-finite origin or batch_origin, SATC_ERR_BOUNDS when E - O
 * exceeds SATC_MAX_MAGNITUDE. On error *out is unchanged.
 */
SATC_API satc_status satc_frustum_from_camera_d(satc_frustum *out, const satc_camera_d *cam,
                                                const double batch_origin[3]);

/**
 * Convenience: a symmetric perspective camera looking along dir with up
 * vector up (both unit and orthogonal within SATC_FRAME_TOLERANCE),
 * vertical field of view fovy in radians (0 < fovy < pi), aspect =
 * width/height > 0, 0 < n < f (f may be +INFINITY). Same status codes as
 * satc_frustum_from_camera, and SATC_ERR_BOUNDS when the near-plane bounds
 * n tan(fovy/2) (times aspect) are not normal floats: beyond FLT_MAX, or
 * below FLT_MIN (a subnormal bound would carry a relative error far
 * beyond the tolerance into the slopes). The slopes are tan(fovy/2)
 * aspect and tan(fovy/2), computed in double and rounded once to float.
 * With a world up such as (0, 1, 0) and a tilted view, up is not
 * orthogonal to dir (SATC_ERR_FRAME): use satc_frustum_look_to, or
 * satc_frustum_look_at with a target point, which build the frame.
 */
SATC_API satc_status satc_frustum_perspective(satc_frustum *out, const float eye[3],
                                              const float dir[3], const float up[3],
                                              float fovy, float aspect, float n, float f);

/**
 * A symmetric perspective camera at eye looking at the point target, the
 * way glm::lookAt and three.js's Object3D.lookAt aim one: up is any vector
 * not parallel to the view direction (its length does not matter; (0, 1, 0)
 * for a Y-up world). The frame is built in double and rounded once to float:
 * D = (target - eye) / |target - eye|, L = up x D normalised (the camera's
 * left), U = D x L (up made orthogonal to D), a right-handed orthonormal
 * frame with L x U = D. fovy: vertical field of view in radians, 0 < fovy <
 * pi; aspect = width / height > 0; 0 < n < f, f may be +INFINITY. The
 * frustum is the one satc_frustum_perspective builds from (eye, D, U), so
 * every guarantee of the library holds for that float frame.
 * Returns SATC_OK, SATC_ERR_NULL, SATC_ERR_NONFINITE (a NaN or infinite
 * input, up included), SATC_ERR_DIRECTION (target == eye), SATC_ERR_UP (up
 * zero, or within SATC_FRAME_TOLERANCE radians of +-D: the roll is then
 * undefined), or a status of satc_frustum_perspective (SATC_ERR_NEAR,
 * SATC_ERR_FAR, SATC_ERR_BOUNDS). On error *out is unchanged.
 */
SATC_API satc_status satc_frustum_look_at(satc_frustum *out, const float eye[3],
                                          const float target[3], const float up[3], float fovy,
                                          float aspect, float n, float f);

/**
 * satc_frustum_look_at with a view direction instead of a target point
 * (DirectX's LookTo): dir is any nonzero vector, normalised here in double;
 * up as for satc_frustum_look_at. Same status codes, SATC_ERR_DIRECTION for
 * a zero dir.
 */
SATC_API satc_status satc_frustum_look_to(satc_frustum *out, const float eye[3], const float dir[3],
                                          const float up[3], float fovy, float aspect, float n,
                                          float f);

/**
 * An orthographic camera at eye looking at target (glm::ortho x glm::lookAt,
 * three.js's OrthographicCamera aimed with lookAt): the frame as in
 * satc_frustum_look_at; the view box spans left < right along the camera's
 * x axis (pointing right, -L), bottom < top along U, and n < f along D (both
 * finite; n may be <= 0), all in world units from eye. Returns what
 * satc_frustum_look_at returns, SATC_ERR_BOUNDS for left >= right or bottom
 * >= top, SATC_ERR_FAR for f <= n or an infinite f. On error *out is
 * unchanged. For a direction d, pass target = eye + d.
 */
SATC_API satc_status satc_frustum_look_at_ortho(satc_frustum *out, const float eye[3],
                                                const float target[3], const float up[3],
                                                float left, float right, float bottom, float top,
                                                float n, float f);

/**
 * satc_frustum_look_at for a camera in double (large worlds) against
 * volumes stored relative to batch_origin O, as satc_frustum_from_camera_d
 * does it: the view direction target - eye is taken in double, eye - O is
 * rounded to float once and its rounding enters the frustum's constant
 * tolerance term, so no volume touching the exact frustum is culled.
 * Returns what satc_frustum_look_at returns, and SATC_ERR_BOUNDS when a
 * component of eye - O exceeds SATC_MAX_MAGNITUDE. On error *out is
 * unchanged.
 */
SATC_API satc_status satc_frustum_look_at_d(satc_frustum *out, const double eye[3],
                                            const double target[3], const float up[3], float fovy,
                                            float aspect, float n, float f,
                                            const double batch_origin[3]);

/**
 * satc_frustum_look_at_ortho for a camera in double against volumes stored
 * relative to batch_origin, as satc_frustum_look_at_d. Same status codes as
 * satc_frustum_look_at_ortho and satc_frustum_look_at_d.
 */
SATC_API satc_status satc_frustum_look_at_ortho_d(satc_frustum *out, const double eye[3],
                                                  const double target[3], const float up[3],
                                                  float left, float right, float bottom,
                                                  float top, float n, float f,
                                                  const double batch_origin[3]);

/** Matrix conventions for satc_frustum_from_matrix (bit flags). */
#define SATC_MATRIX_COLUMN_MAJOR 0u  /**< m[c*4 + r] is element (r, c) (OpenGL, glm) */
#define SATC_MATRIX_ROW_MAJOR 1u     /**< m[r*4 + c] is element (r, c) */
#define SATC_DEPTH_NEG_ONE_TO_ONE 0u /**< clip z/w in [-1, 1] (OpenGL) */
#define SATC_DEPTH_ZERO_TO_ONE 2u    /**< clip z/w in [0, 1] (Direct3D, Vulkan, Metal) */
#define SATC_DEPTH_REVERSED 4u       /**< near maps to the far end of the range (reversed Z) */
#define SATC_DEPTH_INFINITE_FAR 8u   /**< the projection has no far plane */

/**
 * Builds a frustum from a 4x4 view-projection matrix M, clip = M (x,y,z,1)^T
 * (a row-vector engine, v' = v M, stores M^T: pass its array as column-major).
 * The planes follow RTR 22.14.1; the frame, apex and bounds are recovered
 * for the exact test. The clip volume must be a right frustum or box,
 * possibly off-center: the x and y rows perpendicular across D and the z
 * row parallel to the w row, within SATC_FRAME_TOLERANCE; oblique near
 * planes and sheared views are rejected (SATC_ERR_MATRIX). A perspective
 * matrix made with near > far gives SATC_ERR_FAR. The frustum contains
 * the float matrix's own clip volume evaluated exactly (what the GPU
 * draws with it): its vertices are solved from the matrix and the depths
 * and bounds rounded outward about the rounded apex and frame; when a
 * vertex lies at or behind the rounded apex (a near plane below the
 * apex's float resolution) the result is SATC_ERR_NEAR. A float far
 * plane tilts (by about 2^-24 f / n of its depth), so f may lie a little
 * beyond the matrix's far plane near the far corners; f_in holds the
 * nearest depth of that plane within the frustum (also when the far
 * plane is too far for culling, f = +Inf, or the projection is flagged
 * infinite but its float rows still clip), and SATC_INSIDE is decided
 * against f_in. The apex is placed behind the float side planes (moved
 * back along the view's center line by about the rounding of the apex
 * over the slopes: cameras far from the origin), so the slopes stay
 * those of the matrix, and tol_t covers what the frustum adds beside
 * them: INSIDE means inside every plane of what the matrix clips.
 * Returns SATC_OK,
 * SATC_ERR_NULL, SATC_ERR_FLAGS (unknown bits), SATC_ERR_NONFINITE,
 * SATC_ERR_MATRIX, SATC_ERR_NEAR, or a status of satc_frustum_from_camera
 * for the recovered camera.
 */
SATC_API satc_status satc_frustum_from_matrix(satc_frustum *out, const float m[16],
                                              unsigned conventions);

/* ------------------------------------------------------------------ */
/* Boxes                                                                */
/* ------------------------------------------------------------------ */

/**
 * A batch of oriented boxes as a structure of arrays in Eberly's
 * center-axis-extent form: box i has center
 * (center[0][i], center[1][i], center[2][i]), unit axes A_j with
 * components axis[j][0..2][i], and half extents extent[j][i] (their
 * magnitude is used: a negative extent means the same box as |e|).
 * The arrays are the caller's; satc only reads them, any alignment.
 */
typedef struct satc_boxes {
    const float *center[3];
    const float *axis[3][3];
    const float *extent[3];
} satc_boxes;

/** One box in array-of-structures form, as the helpers produce it. */
typedef struct satc_obb {
    float center[3];
    float axis[3][3]; /**< axis[j] is the unit vector A_j */
    float extent[3];  /**< half extents along A_0, A_1, A_2 */
} satc_obb;

/** Writable arrays for a batch (what satc_box_arrays_alloc hands out). */
typedef struct satc_box_arrays {
    float *center[3];
    float *axis[3][3];
    float *extent[3];
    size_t capacity; /**< number of boxes each array holds */
    void *block;     /**< the allocation behind the arrays, or NULL if the caller's */
} satc_box_arrays;

/**
 * Allocates 15 arrays of `capacity` floats, each 64-byte aligned, in one
 * block. Returns SATC_OK, SATC_ERR_NULL, SATC_ERR_RANGE (size overflow) or
 * SATC_ERR_NOMEM. Free with satc_box_arrays_free.
 */
SATC_API satc_status satc_box_arrays_alloc(satc_box_arrays *out, size_t capacity);

/** Frees what satc_box_arrays_alloc allocated; NULL or zeroed arrays are a no-op. */
SATC_API void satc_box_arrays_free(satc_box_arrays *a);

/** The read-only view of writable arrays, for satc_cull_batch. */
SATC_API satc_boxes satc_box_arrays_view(const satc_box_arrays *a);

/**
 * Stores box `b` at index i. Returns SATC_OK, SATC_ERR_NULL, or
 * SATC_ERR_RANGE when i >= a->capacity.
 */
SATC_API satc_status satc_box_arrays_set(const satc_box_arrays *a, size_t i, const satc_obb *b);

/** Reads box i of a batch into *out (no range check possible: i must be valid). */
SATC_API satc_status satc_boxes_get(const satc_boxes *b, size_t i, satc_obb *out);

/**
 * Box from an axis-aligned box [min, max]: axes are the world axes.
 * Returns SATC_OK, SATC_ERR_NULL, or SATC_ERR_BOX (non-finite, or
 * min > max on some axis; min == max gives a zero extent).
 */
SATC_API satc_status satc_obb_from_aabb(satc_obb *out, const float min[3], const float max[3]);

/**
 * Box from a center, a rotation quaternion q = (x, y, z, w) and half
 * extents >= 0. q is normalised first (in double). Returns SATC_OK,
 * SATC_ERR_NULL, or SATC_ERR_BOX (non-finite, zero quaternion, negative
 * extent).
 */
SATC_API satc_status satc_obb_from_quat(satc_obb *out, const float center[3], const float q[4],
                                        const float half[3]);

/**
 * Box from a world matrix (4x4 affine, column-major m[c*4 + r] unless
 * SATC_MATRIX_ROW_MAJOR is in `conventions`, x' = M x) applied to a local
 * axis-aligned box [lmin, lmax]. Scale is folded into the extents (negative
 * scale allowed); the linear part must be invertible and free of shear
 * (columns orthogonal within SATC_AXIS_TOLERANCE - 2^-23 relative to
 * their lengths, so that the float axes written, unit within 2^-23, are
 * orthogonal within SATC_AXIS_TOLERANCE). The extents are rounded
 * outward: the box contains the mapped
 * local box, whatever the rounding of its center and axes. Returns
 * SATC_OK, SATC_ERR_NULL, SATC_ERR_FLAGS, or SATC_ERR_BOX.
 */
SATC_API satc_status satc_obb_from_matrix(satc_obb *out, const float m[16], unsigned conventions,
                                          const float lmin[3], const float lmax[3]);

/* ------------------------------------------------------------------ */
/* Query volumes: a box or a segment against a batch                    */
/* ------------------------------------------------------------------ */

/**
 * An orthographic frustum is a box, so a query box against a batch (an
 * area-of-effect or trigger volume, a light's or decal's box, a selection
 * box) is a cull with this frustum: every form, output, path and
 * satc_cull_views (several query boxes in one pass) apply. Exact mode is
 * the 15-axis box-box test (Gomez; RTR 22.13.5), conservative mode the
 * query box's 6 face planes; the contract and band are the orthographic
 * frustum's. An axis-aligned query box has the world axes.
 *
 * The axes must be orthonormal within SATC_FRAME_TOLERANCE (either
 * handedness: the box is symmetric); extents >= 0 (0 gives a rectangle, a
 * segment or a point), at most SATC_MAX_MAGNITUDE, and |center|_1 too.
 * Returns SATC_OK, SATC_ERR_NULL, SATC_ERR_NONFINITE (a NaN or infinite
 * field), SATC_ERR_BOUNDS (a negative or huge extent or center),
 * SATC_ERR_FRAME; on error *out is unchanged.
 */
SATC_API satc_status satc_frustum_from_box(satc_frustum *out, const satc_obb *box);

/**
 * A segment p0-p1 as a query (line of sight, a picking ray clipped to the
 * scene, a projectile's step): the box of zero width along it, its frame
 * built in double from p0 (the frustum's origin, so p0 is not rounded);
 * the orthographic tolerance covers rounding the frame to float. Exact
 * mode is then the segment-box separating-axis
 * test (the box's 3 face axes and the 3 cross products with the
 * segment are among the 15 axes of the thin box); p0 = p1 is a point query.
 * Returns SATC_OK, SATC_ERR_NULL, SATC_ERR_NONFINITE, SATC_ERR_BOUNDS
 * (|p0|_1 + length beyond SATC_MAX_MAGNITUDE); on error *out is unchanged.
 */
SATC_API satc_status satc_frustum_from_segment(satc_frustum *out, const float p0[3],
                                               const float p1[3]);

/**
 * A convex view volume given by planes (engines pass 5 to 12+: a frustum
 * without its far plane, a portal's clipped frustum, a light's volume, a
 * half-space): the points X with a*x + b*y + c*z + d >= 0 for every plane
 * (a, b, c, d) = planes[k], in world units; (a, b, c) points inward and
 * need not be unit. The volume is culled like any frustum, by satc_cull
 * and satc_cull_views (mixed with other kinds), every form and path.
 *
 * Conservative mode tests the planes (RTR 22.10: a box's extent on each
 * normal); exact mode runs the full separating-axis test of the volume
 * against each box (its face normals, the box's 3 face normals and the
 * cross products of the box's edges with the volume's edge directions;
 * RTR 22.13), with the vertices and edge directions derived here in
 * double from every pair and triple of planes (RTR 22.16: three planes
 * meet in a point). Spheres get the plane test in both modes (their
 * exact distance to a polytope is not implemented; never a false
 * negative, some false positives near edges and corners).
 *
 * Margin m >= 0 (world units): the planes are moved outward by m, so a
 * volume is culled only when it is more than m (plus the tolerance)
 * outside, and classified SATC_INSIDE only when it is at least m inside
 * every plane. With one plane (a half-space) the three classes are RTR
 * 22.10's: SATC_OUTSIDE below -m (negative side), SATC_INSIDE above +m
 * (positive side), SATC_INTERSECTING crossing the band [-m, m].
 *
 * Tolerance: the contract's, with K = 2 (unit normals: |n|_1 <= sqrt 3)
 * and a constant term tol_t = 2 SATC_EPSILON F + 2^-40 (|E|_1 + max_k
 * |d_k| / |(a_k, b_k, c_k)| + m), F the largest |V - E|_1 over the
 * vertices and |w| over the stored planes (offsets about E): it covers
 * rounding the normals, offsets and vertices to float (each within 2^-24
 * relative) and the double work here; see src/volumes/planes.c.
 *
 * A Bevy-style frustum without a far plane (camera at the origin looking
 * down -Z, 90 degrees wide, near 0.1): unbounded, conservative mode only.
 *
 *     const float bevy[5][4] = {{0, 0, -1, -0.1f},               // near: -z >= 0.1
 *                               {1, 0, -1, 0}, {-1, 0, -1, 0},   // left, right: |x| <= -z
 *                               {0, 1, -1, 0}, {0, -1, -1, 0}};  // bottom, top
 *     satc_frustum f;
 *     satc_status st = satc_frustum_from_planes(&f, bevy, 5, 0.0f);
 *     // st == SATC_OK; satc_cull(&f, b, 0, n, SATC_CONSERVATIVE, &r) works,
 *     // SATC_EXACT returns SATC_ERR_FAR. Add a far plane {0, 0, 1, 100}
 *     // (z >= -100) and exact mode works too.
 *
 * Returns SATC_OK, or on error leaves *out unchanged and returns:
 * SATC_ERR_NULL (out or planes NULL), SATC_ERR_RANGE (nplanes 0 or above
 * SATC_MAX_PLANES), SATC_ERR_NONFINITE (a NaN or infinite coefficient or
 * margin), SATC_ERR_BOUNDS (a negative margin; a zero normal; an empty
 * volume; a vertex or plane beyond SATC_MAX_MAGNITUDE from the volume's
 * origin; more vertices than SATC_MAX_PLANE_VERTS, which only nearly
 * coincident planes produce). Planes within 2^-20 radians of parallel
 * are not intersected (their meeting point is not defined in float):
 * exact mode then tests a slightly larger volume, or counts it unbounded,
 * and never culls a touching box; a volume all of whose normals are that
 * close to one line is the interval between its planes (SATC_ERR_BOUNDS
 * when they leave none). Whether the
 * volume is bounded is recorded (nverts > 0): satc_cull and
 * satc_cull_views return SATC_ERR_FAR for exact mode on an unbounded
 * volume (like an infinite far plane where one is not allowed), because
 * the caller may well build one volume for both modes; conservative mode
 * takes any nonempty volume.
 */
SATC_API satc_status satc_frustum_from_planes(satc_frustum *out, const float planes[][4],
                                              size_t nplanes, float margin);

/* ------------------------------------------------------------------ */
/* Box forms: the bounds engines already store, read in place          */
/* ------------------------------------------------------------------ */

/**
 * A stream of 3-vectors read in place: element i is
 * (x[i], y[i], z[i]) where each component pointer advances by `stride`
 * bytes per element. One type covers every layout:
 *  - separate arrays (structure of arrays): three pointers, stride
 *    sizeof(float) (SATC_VEC3S_SOA);
 *  - float3 / vec4 arrays and records: x, y, z = the fields' addresses in
 *    element 0, stride = the record size (SATC_VEC3S_AOS);
 *  - one value for the whole batch: stride 0.
 * Pointers must be float-aligned and the stride a multiple of 4 bytes
 * (else SATC_ERR_LAYOUT). satc reads only the described floats of the
 * elements in the range culled.
 */
typedef struct satc_vec3s {
    const float *x, *y, *z;
    size_t stride; /**< bytes between consecutive elements; 0: one shared value */
} satc_vec3s;

/** A stream of floats: element i at (const char *)p + i * stride. */
typedef struct satc_floats {
    const float *p;
    size_t stride; /**< bytes; 0: one shared value */
} satc_floats;

/** Three separate float arrays. */
#define SATC_VEC3S_SOA(px, py, pz) ((satc_vec3s){(px), (py), (pz), sizeof(float)})
/** Consecutive x, y, z at p (a float *), one element every `stride` bytes. */
#define SATC_VEC3S_AOS(p, stride) ((satc_vec3s){(p), (p) + 1, (p) + 2, (stride)})

/** Box forms (satc_batch.form). */
typedef enum satc_form {
    /** Eberly's center, three unit axes, three half extents. */
    SATC_FORM_OBB = 1,
    /** World axis-aligned box: center and half extents (Unity, Filament, Unreal). */
    SATC_FORM_AABB = 2,
    /** World axis-aligned box: two opposite corners (Godot, Jolt, three.js). */
    SATC_FORM_MINMAX = 3,
    /** Center and three half-axis vectors (scale folded in; any lengths; a
     * parallelepiped when they are not orthogonal). */
    SATC_FORM_HALF_AXES = 4,
    /** An affine world matrix per instance applied to a local axis-aligned
     * box (Bevy, three.js, Filament, instancing). */
    SATC_FORM_INSTANCES = 5,
    /** Bounding spheres: center and radius. */
    SATC_FORM_SPHERES = 6,
    /** Position, rotation quaternion and scale per volume, applied to a
     * local box or to a Gaussian splat's k sigma box (satc_trs). */
    SATC_FORM_TRS = 7
} satc_form;

/** SATC_FORM_OBB: extent holds the three half extents (a negative extent
 * means its magnitude); axis[j] the unit vector A_j. */
typedef struct satc_obbs {
    satc_vec3s center;
    satc_vec3s axis[3];
    satc_vec3s extent;
} satc_obbs;

/** SATC_FORM_AABB: half extents (a negative one means its magnitude). */
typedef struct satc_aabbs {
    satc_vec3s center;
    satc_vec3s half;
} satc_aabbs;

/** SATC_FORM_MINMAX: the box spanned by two corners (their order per axis
 * does not matter). An "empty" box stored as +Inf / -Inf is non-finite:
 * it is never culled (see the contract). */
typedef struct satc_minmax {
    satc_vec3s min;
    satc_vec3s max;
} satc_minmax;

/** SATC_FORM_HALF_AXES: the box { C + s0 H0 + s1 H1 + s2 H2 : |s_j| <= 1 }. */
typedef struct satc_half_axes {
    satc_vec3s center;
    satc_vec3s axis[3]; /**< H_j, world units, any length (zero too) */
} satc_half_axes;

/** Matrix layouts of SATC_FORM_INSTANCES (satc_instances.layout). Only the
 * affine part is read (rows 0..2); the bottom row is taken as (0, 0, 0, 1). */
typedef enum satc_affine {
    /** 16 floats, element (r, c) at m[c*4 + r]: glm mat4, Unity float4x4,
     * Filament mat4f, three.js Matrix4.elements, and Bevy's Affine3A
     * (three columns padded to 16 bytes, then the translation). */
    SATC_AFFINE_4X4_COLUMN_MAJOR = 0,
    /** Rows of 4 floats, element (r, c) at m[r*4 + c]: a 4x4 row-major matrix,
     * or a 3x4 row-major one (12 floats, stride >= 48). */
    SATC_AFFINE_ROWS = 1,
    /** 12 floats, four columns of three, element (r, c) at m[c*3 + r]
     * (glm mat4x3). */
    SATC_AFFINE_4X3_COLUMN_MAJOR = 2
} satc_affine;

/**
 * SATC_FORM_INSTANCES: instance i is the local box [lc - lh, lc + lh]
 * mapped by x' = M_i x (any affine map: rotation, non-uniform or negative
 * scale, shear; a singular map gives a flat box, still culled correctly).
 * The local box of instance i is element k of local_center / local_half,
 * where k = i, or k = mesh[i] when `mesh` is not NULL (a table of
 * mesh_count local boxes indexed by a 32-bit id per instance; an id >=
 * mesh_count makes that instance non-finite: never culled). Give the
 * local streams stride 0 for one local box shared by the batch.
 */
typedef struct satc_instances {
    const float *matrix; /**< instance 0's matrix */
    size_t stride;       /**< bytes between matrices: >= 64 (4x4 column-major), 48 (rows, 4x3) */
    satc_affine layout;
    satc_vec3s local_center;
    satc_vec3s local_half; /**< a negative half extent means its magnitude */
    const uint32_t *mesh;  /**< optional per-instance index into the local boxes */
    size_t mesh_stride;    /**< bytes between ids (a multiple of 4) */
    size_t mesh_count;     /**< number of local boxes the ids index */
} satc_instances;

/** Quaternion encodings of SATC_FORM_TRS (satc_trs.format): one of the
 * three types, optionally or'ed with SATC_QUAT_WXYZ and SATC_TRS_LOG_SCALE. */
#define SATC_QUAT_F32 0u  /**< four floats */
#define SATC_QUAT_U8 1u   /**< four bytes b, component (b - 128) / 128: the 32-byte `.splat` record */
#define SATC_QUAT_I8 2u   /**< four signed bytes b, component b / 127 */
#define SATC_QUAT_WXYZ 4u /**< stored w first (w, x, y, z), as `.splat` and PLY splats; else (x, y, z, w) */
#define SATC_TRS_LOG_SCALE 8u /**< the scales are natural logs (PLY splats): exp applied */

/** The local box of a splat batch, in units of its scale (satc_trs.k = 0). */
#define SATC_SPLAT_K_DEFAULT 3.0f

/** Exp of satc_trs's log scales: a relative error below this (2^-22)
 * against the exact exp, on every path (satc_expf). */
#define SATC_EXP_REL_ERROR 2.384185791015625e-07

/** Local boxes of SATC_FORM_TRS volumes, as satc_instances holds them:
 * the box of volume i is element k of center / half, k = i, or k =
 * mesh[i] when mesh is not NULL (an id >= mesh_count makes the volume
 * non-finite: never culled); stride 0 shares one box. */
typedef struct satc_local_boxes {
    satc_vec3s center;
    satc_vec3s half;      /**< a negative half extent means its magnitude */
    const uint32_t *mesh; /**< optional per-volume index into the boxes */
    size_t mesh_stride;   /**< bytes between ids (a multiple of 4) */
    size_t mesh_count;    /**< number of boxes the ids index */
} satc_local_boxes;

/**
 * SATC_FORM_TRS: volume i is the local box [lc - lh, lc + lh] mapped by
 * x' = p_i + R(q_i) diag(s_i) x: a position, a rotation quaternion and a
 * scale per volume (glTF nodes, three.js Object3D, Unity and Bevy
 * transforms, Gaussian splats), read in place.
 *
 *  - rotation: q_i = (x, y, z, w) need not be unit: R(q) is the rotation
 *    of q / |q|, computed without a square root as I + (2 / |q|^2) (...)
 *    in float, one expression on every path. Bytes decode as the formats
 *    say; a common factor does not change R, so the division by 128 or
 *    127 is never done. A quaternion whose squared norm, summed in float
 *    as ((x^2 + y^2) + z^2) + w^2, is NaN, infinite or outside
 *    [2^-64, 2^64] (the zero quaternion, a byte record (128, 128, 128,
 *    128)) makes the volume non-finite: never culled, class
 *    SATC_INTERSECTING, on every path.
 *  - scale: s_i, or with SATC_TRS_LOG_SCALE exp(s_i) (the log scales of
 *    PLY splats) computed by satc_expf, the same bits on every path; a
 *    negative scale mirrors.
 *  - local box: `local` (shared, per volume or from a mesh table, as the
 *    instance form has them), or with local NULL the cube [-k, k]^3: a
 *    Gaussian splat's k sigma box, k = SATC_SPLAT_K_DEFAULT when 0.
 *
 * Conservative mode tests a splat cube (local NULL) as its ball, center p
 * and radius k sqrt(s_0^2 + s_1^2 + s_2^2): every corner of the box lies
 * on it whatever the rotation (no rotation is built; a few more splats
 * near the frustum's edges are kept); plane volumes and local boxes get
 * the box itself.
 * Exact mode tests the box of the exact R(q) and exp: the float tiers
 * widen their tolerance by the rounding of R and exp (S grows by
 * pl + 16 T, pl = sum_r sum_k |m_rk lc_k| as for an instance and T =
 * sum_j |m_j|_1 (|lc_j| + |lh_j|), m_j the float columns of R diag(s)),
 * and the second stage builds R from q in double. So a TRS volume that
 * touches the view is never culled, and exact mode's band is the other
 * forms'.
 *
 * A `.splat` file (32-byte records: position float3, linear scale
 * float3, RGBA bytes, rotation bytes w, x, y, z) read in place:
 *
 *     satc_batch b = {.form = SATC_FORM_TRS,
 *                     .trs = {.position = SATC_VEC3S_AOS(rec, 32),
 *                             .scale = SATC_VEC3S_AOS(rec + 3, 32),
 *                             .rotation = (const char *)rec + 28, .rotation_stride = 32,
 *                             .format = SATC_QUAT_U8 | SATC_QUAT_WXYZ}};
 */
typedef struct satc_trs {
    satc_vec3s position;
    satc_vec3s scale;
    const void *rotation;   /**< volume 0's quaternion, 4-byte aligned */
    size_t rotation_stride; /**< bytes between quaternions, a multiple of 4 (0: one shared) */
    unsigned format;        /**< SATC_QUAT_F32, _U8 or _I8, optionally | SATC_QUAT_WXYZ | SATC_TRS_LOG_SCALE */
    float k;                /**< half size of the splat cube in scale units (local NULL); 0: 3 */
    const satc_local_boxes *local; /**< NULL: the splat cube [-k, k]^3 */
} satc_trs;

/**
 * The exp satc_trs applies to log scales, for callers that want its bits:
 * exp(x) within SATC_EXP_REL_ERROR relative, the same bits on every path
 * and platform (a fixed polynomial in float, no libm). x below -87 gives
 * exp(-87) (above the true value: the box only grows); x from about 88.7
 * gives +Inf; NaN gives NaN.
 */
SATC_API float satc_expf(float x);

/** SATC_FORM_SPHERES: a negative radius means its magnitude. */
typedef struct satc_spheres {
    satc_vec3s center;
    satc_floats radius;
} satc_spheres;

/**
 * A batch of bounding volumes in one of the forms above, read in place:
 * set `form` and the member of that name. Plain data describing the
 * caller's memory; satc never writes it.
 *
 *     satc_batch b = {.form = SATC_FORM_AABB,
 *                     .aabb = {SATC_VEC3S_AOS(&rec[0].center[0], sizeof rec[0]),
 *                              SATC_VEC3S_AOS(&rec[0].extents[0], sizeof rec[0])}};
 */
typedef struct satc_batch {
    satc_form form;
    union {
        satc_obbs obb;
        satc_aabbs aabb;
        satc_minmax minmax;
        satc_half_axes half_axes;
        satc_instances instances;
        satc_spheres spheres;
        satc_trs trs;
    };
    /** Optional group bounds (satc_groups); NULL culls every volume on its own. */
    const struct satc_groups *groups;
} satc_batch;

/**
 * Group bounds of a batch (Unity's chunk bounds, a BVH's leaves, a grid's
 * cells): consecutive volumes form groups, each with a world AABB that
 * contains all of them. Attached to a batch (satc_batch.groups), they
 * apply to every cull of it (satc_cull, satc_cull_views, query volumes,
 * every form and path): per view, a group whose bound is outside a plane
 * by more than twice the largest tolerance any volume inside the bound
 * can have is culled whole without reading its volumes; a group whose
 * bound is inside every plane by that margin is visible whole, class
 * SATC_INSIDE, without reading them; the other groups' volumes are culled
 * one by one. The margin is what makes the answer the flat cull's: the
 * flat plane test of a volume inside a culled bound also culls it, and of
 * a volume inside an accepted bound also finds it inside every plane (the
 * plane test's rounding is below the tolerance, see the contract), so
 * visibility and classes equal the flat cull's bit for bit, on every path.
 * The decisions are made in double per group and view (RTR 22.14.1:
 * hierarchical culling).
 *
 * Precondition: each bound contains its group's volumes (as satc_to_aabbs
 * or satc_group_bounds compute them; when some volumes move,
 * satc_group_bounds_dirty or satc_group_bounds_range recompute their
 * groups only). A volume with a NaN or infinite
 * field is in no bound: give its group a non-finite bound (the helpers
 * do) and the group is culled volume by volume, so the volume stays
 * visible. A bound with a NaN, an infinite or a negative field, or so
 * large that a volume inside it could reach SATC_MAX_MAGNITUDE, is never
 * decided whole.
 *
 * For SATC_FORM_INSTANCES, a volume's tolerance also grows with its local
 * center's offset (|M lc|), which a world bound does not show: groups are
 * decided when the local box is shared or comes from a mesh table of at
 * most 65536 entries (the largest |lc_k| / |lh_k| among them bounds it);
 * with a local box per instance, every volume is culled alone.
 *
 * Group g holds volumes [g * size, (g + 1) * size) when size > 0, else
 * [offsets[g], offsets[g + 1]) (offsets nondecreasing; empty groups
 * allowed). Volumes of a cull's range outside every group are culled one
 * by one.
 */
typedef struct satc_groups {
    size_t size;             /**< volumes per group, or 0 to use offsets */
    const uint32_t *offsets; /**< size == 0: ngroups + 1 nondecreasing volume indices */
    size_t ngroups;          /**< number of groups */
    satc_vec3s center;       /**< world center of group g's bound */
    satc_vec3s half;         /**< world half size of group g's bound (>= 0) */
} satc_groups;

/** The batch descriptor of Eberly arrays (satc_boxes: separate float arrays). */
SATC_API satc_batch satc_batch_from_boxes(const satc_boxes *b);

/**
 * World AABBs of groups of a batch's volumes, for satc_groups: group g
 * (as satc_groups defines it from size, offsets and ngroups) gets a float
 * AABB containing every one of its volumes' satc_to_aabbs boxes:
 * center[3 g + k], half[3 g + k] (float3 arrays: SATC_VEC3S_AOS(center,
 * 12)). Built at the speed of a read of the volumes on the SIMD paths
 * (each 32 volumes' float box, then one outward widening per group of
 * 2^-21 times the group's coordinate magnitude, about 0.5 mm at 1 km), and
 * bit for bit the same on every path (satc_isa_active picks the path). A
 * group holding a volume with a NaN or infinite field (or a mesh id past
 * the table) gets center NaN and half +Inf (culled volume by volume); an
 * empty group gets center 0 and half 0. Reads volumes [0, count) only:
 * groups are cut at count (a last group of fixed size may be short).
 * Returns SATC_OK, SATC_ERR_NULL (b, or center or half with ngroups > 0,
 * or offsets with size 0), SATC_ERR_FLAGS (unknown form), SATC_ERR_RANGE
 * (ngroups * size overflows), SATC_ERR_LAYOUT (offsets decreasing, or a
 * stream of b); on error nothing is written.
 */
SATC_API satc_status satc_group_bounds(const satc_batch *b, size_t count, size_t size,
                                       const uint32_t *offsets, size_t ngroups, float *center,
                                       float *half);

/**
 * satc_group_bounds for groups [first_group, first_group + group_count)
 * only (after their volumes moved: a server's range of moving entities):
 * writes center[3 g + k] and half[3 g + k] for those g, the same bits
 * satc_group_bounds writes for them, and nothing else; the arrays keep
 * room for all ngroups (they are indexed by group). The layout arguments
 * are satc_group_bounds's; only the updated groups' offsets are read.
 * Costs about group_count / ngroups of a full call. Returns SATC_OK (also
 * for group_count 0), the statuses of satc_group_bounds, and
 * SATC_ERR_RANGE when the range passes ngroups or overflows; on error
 * nothing is written.
 */
SATC_API satc_status satc_group_bounds_range(const satc_batch *b, size_t count, size_t size,
                                             const uint32_t *offsets, size_t ngroups,
                                             size_t first_group, size_t group_count,
                                             float *center, float *half);

/**
 * satc_group_bounds for the groups marked in the bit mask `dirty` only:
 * group g is recomputed when bit g % 64 of dirty[g / 64] is set
 * ((ngroups + 63) / 64 words; bits at and past ngroups are ignored), with
 * the same bits satc_group_bounds writes for it; the other groups'
 * entries are left as they are. A game server sets the bit of an
 * entity's group when it moves (dirty[(i / size) / 64] |= 1ull << (i /
 * size) % 64) and clears the mask after the call. Only the marked
 * groups' offsets are read. Returns SATC_OK, SATC_ERR_NULL (dirty NULL
 * with ngroups > 0, or as satc_group_bounds), the other statuses of
 * satc_group_bounds; on error nothing is written.
 */
SATC_API satc_status satc_group_bounds_dirty(const satc_batch *b, size_t count, size_t size,
                                             const uint32_t *offsets, size_t ngroups,
                                             const uint64_t *dirty, float *center, float *half);

/**
 * World AABBs of volumes [first, first + count) of batch b, any form
 * (Arvo's OBB-to-AABB conversion: the half size along world axis k is
 * sum_j |H_j . e_k|): center[3 j + k] and half[3 j + k] for volume
 * first + j, float3 arrays ready for a SATC_FORM_AABB batch
 * (SATC_VEC3S_AOS(center, 12), SATC_VEC3S_AOS(half, 12)). Computed in
 * double; the center is rounded to nearest and the half size upward past
 * that rounding, so every AABB contains its volume. A volume with a NaN or
 * infinite field, or a mesh id past the table, gets center NaN and half
 * +Inf: never culled, like the volume itself. Returns SATC_OK,
 * SATC_ERR_NULL (b, or center or half with count > 0), SATC_ERR_FLAGS
 * (unknown form), SATC_ERR_RANGE (first + count overflows),
 * SATC_ERR_LAYOUT; on error nothing is written.
 */
SATC_API satc_status satc_to_aabbs(const satc_batch *b, size_t first, size_t count, float *center,
                                   float *half);

/* ------------------------------------------------------------------ */
/* Culling                                                              */
/* ------------------------------------------------------------------ */

/** Culling modes. */
typedef enum satc_mode {
    /** The six-plane test of RTR 22.10.2 / 22.14.3: never culls a visible
     * box; may keep a few boxes near the frustum's edges and corners that
     * are outside. */
    SATC_CONSERVATIVE = 0,
    /** The full separating-axis test (Eberly's, and the
     * box-box test for orthographic frusta): no false positives beyond SATC_EXACT_BAND. */
    SATC_EXACT = 1
} satc_mode;

/** Classification bytes (RTR 22.14). */
#define SATC_OUTSIDE 0u      /**< culled */
#define SATC_INTERSECTING 1u /**< visible, crosses the frustum's boundary (or non-finite) */
#define SATC_INSIDE 2u       /**< visible, entirely inside every plane with margin */

/**
 * Where satc_cull_batch writes; every pointer may be NULL (not wanted).
 * Positions are relative to `first`; index values are absolute.
 */
typedef struct satc_results {
    /** ceil(count/8) bytes; bit j%8 of byte j/8 is 1 when box first+j is
     * visible. Bits past count in the last byte are written 0. Threads
     * sharing one bitmask must split the batch at multiples of 8. */
    uint8_t *bitmask;
    /** count bytes: SATC_OUTSIDE, SATC_INTERSECTING or SATC_INSIDE for
     * box first+j. Asking for classes costs the inside test. */
    uint8_t *classes;
    /** room for count entries: the absolute indices of the visible boxes,
     * increasing. Requires first + count - 1 <= UINT32_MAX. */
    uint32_t *indices;
    /** out: number of visible boxes in the range (always written). */
    size_t visible;
} satc_results;

/**
 * Culls volumes [first, first + count) of batch `b` (any form) against
 * frustum `f` in `mode`, with the path chosen at first use (see
 * satc_isa_active). Reads nothing outside the described fields of that
 * range and writes nothing outside the results' ranges; outputs must not
 * overlap the inputs or each other. Every form follows the contract at
 * the top of this header (non-finite volumes are never culled).
 * Exact mode per form: boxes of every form get the full separating-axis
 * test of the parallelepiped they describe (face normals are the cross
 * products of its edge vectors); spheres get the exact sphere-frustum
 * test (visible when the center's distance to the frustum is at most the
 * radius). Conservative mode is the plane test for every form.
 * Returns SATC_OK, SATC_ERR_NULL (f, b or out NULL, or, with count > 0, a
 * pointer the form reads is NULL), SATC_ERR_FLAGS (unknown mode or form,
 * or f not a built frustum), SATC_ERR_FAR (exact mode on an unbounded
 * SATC_FRUSTUM_PLANES volume), SATC_ERR_LAYOUT (see satc_vec3s and
 * satc_instances), SATC_ERR_RANGE (first + count overflows, or indices
 * wanted past UINT32_MAX); with batch.groups (satc_groups), also
 * SATC_ERR_NULL (neither size nor offsets, or a bound stream NULL),
 * SATC_ERR_LAYOUT (a bound stream misaligned, offsets decreasing) and
 * SATC_ERR_RANGE (ngroups * size overflows). On error nothing is written.
 */
SATC_API satc_status satc_cull(const satc_frustum *f, const satc_batch *b, size_t first,
                               size_t count, satc_mode mode, satc_results *out);

/**
 * satc_cull on Eberly arrays (satc_boxes), as before version 0.2:
 * satc_cull with satc_batch_from_boxes(boxes). Same status codes (NULL
 * boxes: SATC_ERR_NULL).
 */
SATC_API satc_status satc_cull_batch(const satc_frustum *f, const satc_boxes *boxes, size_t first,
                                     size_t count, satc_mode mode, satc_results *out);

/* ------------------------------------------------------------------ */
/* Many views in one pass                                               */
/* ------------------------------------------------------------------ */

/** Largest number of views satc_cull_views takes. */
#define SATC_MAX_VIEWS 64

/**
 * Where satc_cull_views writes; every pointer may be NULL (not wanted).
 * Positions are relative to `first`; index values are absolute.
 */
typedef struct satc_view_results {
    /** count words, one per volume, of the smallest unsigned type of 8,
     * 16, 32 or 64 bits that holds nviews bits (uint8_t for up to 8 views,
     * uint16_t up to 16, uint32_t up to 32, else uint64_t), aligned for
     * that type: bit v is 1 when the volume is visible in view v. Bits at
     * and above nviews are 0. */
    void *masks;
    /** nviews pointers; indices[v] (each may be NULL) has room for count
     * entries: the increasing indices of the volumes visible in view v.
     * Requires first + count - 1 <= UINT32_MAX. */
    uint32_t *const *indices;
    /** nviews pointers; classes[v] (each may be NULL) has room for count
     * class bytes of view v (costs the inside test for that view). */
    uint8_t *const *classes;
    /** nviews counts: the number of volumes visible in each view. */
    size_t *visible;
} satc_view_results;

/**
 * Culls volumes [first, first + count) of batch `b` against nviews frusta
 * (1 .. SATC_MAX_VIEWS; perspective and orthographic mixed, each with its
 * own bounds, reversed-Z or infinite far) in one pass over the batch:
 * every volume is read from memory once, then tested against each view in
 * cache. View v's bit, indices and classes equal satc_cull of that frustum
 * alone bit for bit, on every path. Work shared between views (SIMD
 * paths, two views or more, batches without satc_groups, every form):
 * the world box of each 32 consecutive volumes and of each 1024 is built
 * once for all views (RTR 22.14.1); each view culls or accepts whole
 * boxes with a margin of twice the largest tolerance in them (as for
 * satc_groups, so its bits and classes stay its own cull's) and runs its
 * kernel on the other volumes only. With satc_groups (every path), each
 * view decides each group's bound once, after the unions of the groups of
 * each 1024 and each 16384 volumes (a view far from most of the batch,
 * a player on a large map, skips it in a few decisions): per group, the
 * views it may touch and those it lies inside; a group outside every
 * view is not read, and each view runs its kernel only on the groups it
 * left undecided. Batches whose neighbours in memory
 * are neighbours in space gain most; where the boxes decide under a
 * quarter of the volumes, the pass stops building them (trying again
 * every 32nd chunk) and instead transposes records and float3 arrays
 * once for all views and loads each volume once for orthographic views
 * with one origin and frame, bit for bit (a light's cascades built in
 * its frame), in sets of 4. The call uses about 55 KB of stack (64
 * views, with or without groups). Returns SATC_OK, SATC_ERR_NULL
 * (views, b or out NULL, or a stream of b with count > 0), SATC_ERR_FLAGS
 * (unknown mode or form, a view not built by satc), SATC_ERR_FAR (exact
 * mode with an unbounded SATC_FRUSTUM_PLANES view), SATC_ERR_RANGE
 * (nviews 0 or above SATC_MAX_VIEWS, first + count overflows, indices past
 * UINT32_MAX), SATC_ERR_LAYOUT; on error nothing is written.
 */
SATC_API satc_status satc_cull_views(const satc_frustum *views, size_t nviews, const satc_batch *b,
                                     size_t first, size_t count, satc_mode mode,
                                     satc_view_results *out);

/* ------------------------------------------------------------------ */
/* Occlusion: a depth pyramid and the hierarchical-Z test in the cull   */
/* ------------------------------------------------------------------ */

/*
 * A volume the frustum keeps may still be hidden behind opaque geometry.
 * satc tests it against a depth pyramid of one view (hierarchical Z:
 * Greene, Kass and Miller 1993) in the same pass as the frustum test.
 *
 * Contract: when every level-0 texel of the pyramid holds a valid bound
 * (see satc_pyramid), satc never reports as occluded a volume any point
 * of which lies in the view in front of the opaque surfaces those bounds
 * stand for. A volume reaching the near plane (nearest view depth <= n,
 * the camera inside it included) is never occluded, nor one with a NaN
 * or infinite field. docs/occlusion.md proves it for every form and path
 * and says what a depth readback of an earlier frame does and does not
 * guarantee.
 */

/** Smallest and largest level-0 sizes of a pyramid, texels. */
#define SATC_PYRAMID_MIN_WIDTH 64u
#define SATC_PYRAMID_MIN_HEIGHT 32u
#define SATC_PYRAMID_MAX_WIDTH 2048u
#define SATC_PYRAMID_MAX_HEIGHT 1024u
/** Most levels of a pyramid (2048 texels halve 11 times down to 1). */
#define SATC_PYRAMID_MAX_LEVELS 12

/** Class byte of a volume the frustum keeps and the pyramid hides
 * (satc_cull_occluded). Not visible: its bit and index are not written. */
#define SATC_OCCLUDED 3u

/**
 * A depth pyramid tied to one view: caller-owned storage, no allocation.
 * Set up by satc_pyramid_init; treat every field as read-only except the
 * texels of level 0, which a writer (satc_pyramid_fill, satc's occluder
 * rasterizer, or the caller) fills before satc_pyramid_build reduces
 * them into the other levels.
 *
 * Level 0 holds width x height texels, row by row: texel (i, j), column
 * i in [0, width), row j in [0, height), is depth[j * width + i]. It
 * covers the directions (a, b) of the view, with, in exact arithmetic on
 * the view's stored floats and w = (x1 - x0) / width,
 * h = (y1 - y0) / height,
 *     x1 - (i + 1) w <= a <= x1 - i w,    y0 + j h <= b <= y0 + (j + 1) h,
 * where for a point X, d = X - E in the view's frame (L, U, D):
 *  - perspective: a = L.d / D.d and b = U.d / D.d (slopes), D.d > 0;
 *  - orthographic: a = L.d and b = U.d (positions).
 * L points left and U up, so column 0 is the image's left edge and row 0
 * its bottom row: a depth image read back from OpenGL or WebGL (row 0 at
 * the bottom) maps texel for pixel; images whose row 0 is the top
 * (Direct3D, Vulkan, Metal, WebGPU) say so with SATC_IMAGE_TOP_DOWN.
 *
 * A texel's value T is valid when every point X of the view whose
 * direction (a, b) lies in the texel's closed rectangle and whose view
 * depth D.d exceeds T is hidden: the segment from the eye to X (the
 * line of sight along D for an orthographic view) meets an opaque surface
 * at a view depth in [n, T]. T is an upper bound of the occluding depth
 * over the WHOLE texel, in world units along D (view depth, not
 * distance). +Inf, and NaN, mean nothing is known: such a texel never
 * hides anything. The least of two valid values is valid, so writers
 * combine by taking the minimum; a writer never raises a texel.
 *
 * Level k >= 1 holds level_w[k] x level_h[k] texels, level_w[k] =
 * ceil(width / 2^k), at depth + level_off[k]; its texel (i, j) is the
 * largest level-0 value (NaN counting as +Inf) over level-0 columns
 * [i 2^k, (i + 1) 2^k) and rows [j 2^k, (j + 1) 2^k) (those that exist):
 * the farthest depth over its footprint. satc_pyramid_build computes it.
 */
typedef struct satc_pyramid {
    satc_frustum view;   /**< a copy of the view (perspective or orthographic) */
    uint32_t width;      /**< level-0 columns, SATC_PYRAMID_MIN_WIDTH .. MAX_WIDTH */
    uint32_t height;     /**< level-0 rows, SATC_PYRAMID_MIN_HEIGHT .. MAX_HEIGHT */
    uint32_t levels;     /**< number of levels, down to one texel (2 .. SATC_PYRAMID_MAX_LEVELS) */
    uint32_t level_w[SATC_PYRAMID_MAX_LEVELS]; /**< columns of level k */
    uint32_t level_h[SATC_PYRAMID_MAX_LEVELS]; /**< rows of level k */
    size_t level_off[SATC_PYRAMID_MAX_LEVELS]; /**< first texel of level k (floats from depth) */
    float *depth;        /**< the caller's storage: every level, level 0 first */
    unsigned test;       /**< occlusion test options (SATC_TEST_*), 0 after satc_pyramid_init;
                              set by satc_pyramid_set_test */
    uint32_t test_budget; /**< texel depth bounds per cull call (SATC_TEST_DEPTH_PER_TEXEL) */
} satc_pyramid;

/**
 * Bytes of storage a width x height pyramid needs (all its levels, 4
 * bytes per texel; about 4/3 of level 0), or 0 when the size is outside
 * SATC_PYRAMID_MIN_* .. SATC_PYRAMID_MAX_* (any size in that range,
 * powers of two or not). Storage must be float-aligned; 64-byte alignment
 * is best.
 */
SATC_API size_t satc_pyramid_bytes(uint32_t width, uint32_t height);

/**
 * Sets up pyramid *p of width x height texels over `view` (a frustum
 * from satc_frustum_from_camera, satc_frustum_perspective or
 * satc_frustum_from_matrix: perspective or orthographic; for a matrix,
 * build the view from the same matrix that renders the depth) in the
 * caller's `storage` of `bytes` bytes, and sets every texel of every
 * level to +Inf (nothing occludes). The pyramid keeps a copy of the
 * view; culls with it use that copy.
 * Returns SATC_OK, SATC_ERR_NULL (p, view or storage NULL),
 * SATC_ERR_FLAGS (view not a built perspective or orthographic frustum:
 * plane volumes have no image), SATC_ERR_RANGE (a size out of range),
 * SATC_ERR_LAYOUT (bytes < satc_pyramid_bytes(width, height), or storage
 * not float-aligned); on error nothing is written.
 */
SATC_API satc_status satc_pyramid_init(satc_pyramid *p, const satc_frustum *view, uint32_t width,
                                       uint32_t height, float *storage, size_t bytes);

/**
 * Occlusion test option (satc_pyramid_set_test): where a texel is not
 * nearer than a volume's nearest depth, bound the volume's least view
 * depth within that texel's directions instead, and accept the texel when
 * its value is nearer than that bound. A volume seen obliquely (a
 * building along the line of sight, the ground under it) is farther than
 * its nearest depth over most of its rectangle, so more volumes are
 * occluded; the guarantee stays the same (docs/occlusion.md, "Depth per
 * texel"). A texel is bounded only when its value lies within
 * SATC_TEST_MARGIN of the volume's depth range past its nearest depth,
 * and only for a volume the plain test leaves undecided on such texels
 * alone: at most SATC_TEST_TEXELS per volume and the call's budget; each
 * bound costs about as much as a few dozen texel reads. On the demo city
 * the occlusion part of the call runs about 1.3x the instructions of the
 * plain test (the whole call about 1.2x) and keeps 1-2 % fewer volumes.
 */
#define SATC_TEST_DEPTH_PER_TEXEL 1u
/** Largest texel value bounded, as a fraction of the volume's depth
 * range (farthest minus nearest view depth) past its nearest depth. */
#define SATC_TEST_MARGIN 0.4
/** Most texels bounded per volume. */
#define SATC_TEST_TEXELS 16u
/** A budget of texel bounds per cull call that one call over the demo
 * city (100,000 buildings, docs/occlusion.md) does not reach; it caps the
 * time the option adds to a call at about 4096 bounds. */
#define SATC_TEST_BUDGET_DEFAULT 4096u

/**
 * Sets the occlusion test options of pyramid *p: `flags` 0 (the plain
 * test, the default) or SATC_TEST_DEPTH_PER_TEXEL; `budget` the most texel
 * depth bounds one cull call computes over all its volumes and group
 * bounds (satc_cull_occluded, its _isa twin; per view in
 * satc_cull_views_occluded), in volume order, so every path spends it alike
 * and gives the same bits; once spent, the call goes on with the plain
 * test (budget 0: the plain test throughout), so when it runs out the
 * results depend on how a range is split into calls. Units: the budget
 * counts texel bounds, each one texel of one volume (or group bound).
 * A NaN texel is never bounded; a volume with a NaN or infinite field is
 * never tested (see the contract above). The test only reads these
 * fields: threads may share the pyramid.
 * Returns SATC_OK, SATC_ERR_NULL, SATC_ERR_PYRAMID (p not set up by
 * satc_pyramid_init), SATC_ERR_FLAGS (other bits in flags); on error
 * nothing is written.
 */
SATC_API satc_status satc_pyramid_set_test(satc_pyramid *p, unsigned flags, uint32_t budget);

/** Sets every texel of every level to +Inf. Returns SATC_OK, SATC_ERR_NULL
 * or SATC_ERR_PYRAMID (p not set up by satc_pyramid_init). */
SATC_API satc_status satc_pyramid_clear(satc_pyramid *p);

/**
 * Computes levels 1 .. levels - 1 from level 0 (each texel the largest of
 * the up to 4 below it, NaN as +Inf), the same bits on every path. Call
 * after level 0 changes. Returns SATC_OK, SATC_ERR_NULL or
 * SATC_ERR_PYRAMID.
 */
SATC_API satc_status satc_pyramid_build(satc_pyramid *p);

/** Pixel formats of a depth image (satc_depth_image.format). */
typedef enum satc_depth_format {
    /** float window depth in [0, 1], as a float depth buffer reads back
     * (OpenGL maps NDC z in [-1, 1] to (z + 1) / 2; Direct3D, Vulkan,
     * Metal and WebGPU store NDC z in [0, 1] as is). */
    SATC_DEPTH_FORMAT_FLOAT = 1,
    /** float NDC depth z/w itself, in the projection's range: [-1, 1]
     * (SATC_DEPTH_NEG_ONE_TO_ONE) or [0, 1] (SATC_DEPTH_ZERO_TO_ONE). */
    SATC_DEPTH_FORMAT_FLOAT_NDC = 2,
    /** float view depth along D in world units (a linear depth target);
     * +Inf where nothing was drawn. */
    SATC_DEPTH_FORMAT_LINEAR = 3,
    /** uint16_t window depth k / 65535. */
    SATC_DEPTH_FORMAT_UNORM16 = 4,
    /** uint32_t whose low 24 bits are the window depth k / (2^24 - 1), the
     * high 8 ignored (Direct3D D24_UNORM_S8_UINT, Vulkan X8_D24). */
    SATC_DEPTH_FORMAT_UNORM24 = 5,
    /** uint32_t whose high 24 bits are the window depth, the low 8 ignored
     * (OpenGL GL_UNSIGNED_INT_24_8 readbacks). */
    SATC_DEPTH_FORMAT_UNORM24_HIGH = 6,
    /** uint32_t window depth k / (2^32 - 1). */
    SATC_DEPTH_FORMAT_UNORM32 = 7
} satc_depth_format;

/** satc_depth_image.conventions: row 0 of the image is its top row
 * (Direct3D, Vulkan, Metal, WebGPU readbacks); without it row 0 is the
 * bottom row (OpenGL, WebGL). */
#define SATC_IMAGE_TOP_DOWN 16u

/**
 * A depth image of the pyramid's view as a GPU rendered it: the image
 * spans the view's whole [x0, x1] x [y0, y1], pixel (px, py) the
 * fraction [px / width, (px + 1) / width] of it from the left edge and
 * [py / height, (py + 1) / height] from the bottom (from the top with
 * SATC_IMAGE_TOP_DOWN). Any size, unrelated to the pyramid's.
 */
typedef struct satc_depth_image {
    const void *data;          /**< row 0's first pixel; aligned for the pixel type */
    uint32_t width, height;    /**< pixels, 1 .. 65536 each */
    size_t row_bytes;          /**< bytes from one row to the next (>= width * pixel size) */
    satc_depth_format format;
    /** The projection that wrote the depth, as satc_frustum_from_matrix
     * takes it: SATC_DEPTH_NEG_ONE_TO_ONE or SATC_DEPTH_ZERO_TO_ONE,
     * optionally SATC_DEPTH_REVERSED and SATC_DEPTH_INFINITE_FAR; plus
     * SATC_IMAGE_TOP_DOWN. Only SATC_IMAGE_TOP_DOWN is read for
     * SATC_DEPTH_FORMAT_LINEAR. */
    unsigned conventions;
    /** The projection's near and far distances (world units, the values
     * its matrix was made from, see satc_pyramid_fill; far is ignored
     * with SATC_DEPTH_INFINITE_FAR, neither is read for
     * SATC_DEPTH_FORMAT_LINEAR nor by satc_pyramid_fill_matrix).
     * Perspective: 0 < near < far; orthographic: near < far. The
     * pyramid's view says which of the two the projection is. */
    float near_z, far_z;
} satc_depth_image;

/**
 * Fills level 0 of pyramid *p from a depth image, then builds the other
 * levels (satc_pyramid_build). Each pixel's value gives an upper bound
 * of the view depth of any surface the GPU may have stored as that
 * value, rounded up to float. The bound holds when
 *  - the projection's depth (z row) entries lie within 2^-21 relative of
 *    the exact ones for near_z and far_z (float entries, even computed in
 *    float in a few operations; with SATC_DEPTH_INFINITE_FAR the constant
 *    entry is the exact 0 or +-1 that infinite projections use);
 *    satc_pyramid_fill_matrix takes the matrix's own entries instead;
 *  - the GPU evaluates clip z within 2^-23 relative of its terms, z / w
 *    and OpenGL's window transform (z + 1) / 2 within 2^-23 relative, and
 *    stores a value within one unit of the format of the result (unorm:
 *    k +- 1; float: the adjacent float; SATC_DEPTH_FORMAT_LINEAR: the
 *    next float up of the stored view depth).
 * The depth is solved as d = Q / (z - P) (orthographic: (z - P) / Q) from
 * z itself, never from 1 - z, so reversed float depth keeps its relative
 * precision to depth / near of 1e12 and beyond. A pixel holding the far
 * end exactly (the clear value: 1, or 0 reversed) or beyond, and a value
 * whose bound does not exist (the rounding above reaches the far end:
 * depths the format cannot tell from the far plane; reversed [-1, 1]
 * depth beyond about 2^23 near distances), become +Inf. Values nearer
 * than the near end count as the near end. docs/occlusion.md gives the
 * bound's size. Level-0 texel (i, j) then takes the largest of these
 * over the pixels whose centers enclose the texel's closed rectangle:
 * every point of it lies between two pixel centers taken (a texel edge
 * within 1/256 of a pixel of a center, more for large images and
 * off-center views, also takes the next one: the difference between the
 * projection and a view rounded outward by satc_frustum_from_matrix).
 *
 * A depth buffer holds the nearest surface at each pixel's sample point
 * only: the result is a valid pyramid (see satc_pyramid) for surfaces
 * that cover every point of each pixel they are sampled at, up to the
 * rounding stated above. Geometry thinner than a pixel between samples,
 * and anything that moved since the image was rendered, are not covered:
 * docs/occlusion.md says what a readback of an earlier frame guarantees.
 *
 * Returns SATC_OK, SATC_ERR_NULL (p, img or img->data NULL),
 * SATC_ERR_PYRAMID, SATC_ERR_FLAGS (unknown format or convention bits,
 * SATC_DEPTH_INFINITE_FAR with an orthographic view), SATC_ERR_RANGE (a
 * size 0 or above 65536), SATC_ERR_LAYOUT (row_bytes too small, data
 * misaligned), SATC_ERR_NONFINITE (a NaN pixel; a non-finite near, or far
 * when far is read), SATC_ERR_NEAR, SATC_ERR_FAR (near or far not as
 * stated above; neither is read for SATC_DEPTH_FORMAT_LINEAR); on error
 * nothing is written.
 */
SATC_API satc_status satc_pyramid_fill(satc_pyramid *p, const satc_depth_image *img);

/**
 * satc_pyramid_fill with the depth coefficients read from `proj`, the
 * float projection matrix that rendered the image (view space to clip,
 * without the view: its z and w rows have no x or y terms), instead of
 * derived from img->near_z and img->far_z (not read, nor
 * SATC_DEPTH_INFINITE_FAR: the matrix says). The other conventions of
 * img still apply (range, SATC_DEPTH_REVERSED, SATC_IMAGE_TOP_DOWN).
 * The bound then holds for that matrix's entries exactly, which is
 * tighter near the far plane and does not depend on how the caller
 * rounded near and far. `layout`: SATC_MATRIX_COLUMN_MAJOR or
 * SATC_MATRIX_ROW_MAJOR. Perspective pyramids need w = m32 z_view
 * (m32 != 0, m33 = 0), orthographic ones w = m33 > 0 (m32 = 0).
 * Returns what satc_pyramid_fill returns, and SATC_ERR_NULL (proj
 * NULL), SATC_ERR_FLAGS (layout bits other than SATC_MATRIX_ROW_MAJOR),
 * SATC_ERR_NONFINITE (a non-finite entry), SATC_ERR_MATRIX (x or y terms
 * in the z or w row, a w row that does not fit the pyramid's view, or a
 * depth that does not grow toward the far end as the conventions say),
 * SATC_ERR_NEAR (the near end of the range at no positive depth); on
 * error nothing is written.
 */
SATC_API satc_status satc_pyramid_fill_matrix(satc_pyramid *p, const satc_depth_image *img,
                                              const float proj[16], unsigned layout);

/**
 * satc_cull against the pyramid's view p->view, then the hierarchical-Z
 * test of every volume the frustum keeps, in the same pass: volumes
 * [first, first + count) of batch `b` (any form, with or without
 * satc_groups), either mode. A kept volume is occluded when every texel
 * over a conservative screen rectangle of it (boxes: their projected
 * corners, spheres: a bound tangent to them; rounded outward, clipped to
 * the view) is nearer than its nearest view depth (computed rounded
 * toward the eye), read from the level where the rectangle spans at most
 * 4 x 4 texels down to level 0 within a read budget (docs/occlusion.md);
 * with SATC_TEST_DEPTH_PER_TEXEL set on the pyramid (satc_pyramid_set_test),
 * some texels may instead be nearer than a lower bound of the volume's
 * depth within their directions.
 * Occluded volumes are not visible: no bit, no index, not counted in
 * out->visible; class SATC_OCCLUDED. The other volumes get exactly the
 * bits, classes and indices of satc_cull(&p->view, ...).
 * `occluded` (NULL: not wanted): ceil(count / 8) bytes, bit j%8 of byte
 * j/8 set when volume first + j is SATC_OCCLUDED (bits past count 0);
 * *noccluded (NULL: not wanted) gets their number.
 * Groups: a group whose bound the frustum keeps and the pyramid hides is
 * occluded whole without reading its volumes (class SATC_OCCLUDED for
 * each, whatever the frustum would say of it).
 * Every path gives the scalar reference's bits. The pyramid is only read:
 * threads may cull disjoint ranges against one pyramid at once.
 * Returns what satc_cull returns, and SATC_ERR_NULL (p NULL),
 * SATC_ERR_PYRAMID (p not set up by satc_pyramid_init, or test options
 * satc_pyramid_set_test would not set); on error nothing is written.
 */
SATC_API satc_status satc_cull_occluded(const satc_pyramid *p, const satc_batch *b, size_t first,
                                        size_t count, satc_mode mode, satc_results *out,
                                        uint8_t *occluded, size_t *noccluded);

/**
 * satc_cull_views with occlusion: view v is tested against pyramids[v]
 * after its frustum, as satc_cull_occluded does for one view; class
 * SATC_OCCLUDED in classes[v], the view's bit and index dropped. Without
 * satc_groups, each view's outputs equal satc_cull_occluded with its
 * pyramid, bit for bit (the test options' budget is per view). With satc_groups, the views pass decides group
 * bounds against the frusta only and the pyramids test the volumes one
 * by one (so a group satc_cull_occluded hides whole may keep here a
 * volume the pyramid does not hide alone). pyramids[v] NULL: view v is
 * frustum only. A non-NULL pyramids[v] must have been made for views[v]
 * (the same frustum, compared field by field), else SATC_ERR_PYRAMID.
 * Returns what satc_cull_views returns, and SATC_ERR_NULL (pyramids
 * NULL), SATC_ERR_PYRAMID; on error nothing is written.
 */
SATC_API satc_status satc_cull_views_occluded(const satc_frustum *views,
                                              const satc_pyramid *const *pyramids, size_t nviews,
                                              const satc_batch *b, size_t first, size_t count,
                                              satc_mode mode, satc_view_results *out);

/* ------------------------------------------------------------------ */
/* Instruction-set paths                                                */
/* ------------------------------------------------------------------ */

/** Paths (bit flags). */
typedef enum satc_isa {
    SATC_ISA_SCALAR = 1, /**< the reference; defines every answer */
    SATC_ISA_SSE41 = 2,  /**< 4 boxes per register */
    SATC_ISA_AVX2 = 4,   /**< 8 boxes per register */
    SATC_ISA_NEON = 8,   /**< 4 boxes per register */
    SATC_ISA_AVX512 = 16, /**< 16 boxes per register: AVX-512 F, VL, DQ and BW (x86-64-v4),
                              native when CPUID and XGETBV report them and the ZMM state;
                              on an x86 CPU without them it runs emulated (from AVX2)
                              when built with -Davx512_emu=enabled */
    SATC_ISA_SIMD128 = 32 /**< 4 boxes per register: WebAssembly SIMD128 (-msimd128, no
                              relaxed SIMD), compiled only into the satc-simd128.wasm module;
                              always runnable there (the loader picks that module only
                              where WebAssembly.validate accepts SIMD128) */
} satc_isa;

/** Paths compiled into this library, emulated ones included (bit mask). */
SATC_API unsigned satc_isa_compiled(void);

/** Paths this CPU can run: native ones it supports, plus emulated ones (bit mask). */
SATC_API unsigned satc_isa_runnable(void);

/** Paths that run natively (not through SIMDe emulation) on this CPU. */
SATC_API unsigned satc_isa_native(void);

/**
 * The path satc_cull_batch uses, chosen at first use (thread-safe) and
 * again by each satc_isa_set_mask: the path named by the environment
 * variable SATC_ISA=scalar|sse41|avx2|avx512|neon|simd128 (read at each
 * choice; WebAssembly has no environment, so there only the mask) when it
 * is runnable (emulated ones too) and allowed by the mask; otherwise the
 * best native path the mask allows (SIMD128 in the SIMD128 module). The mask always wins:
 * satc_isa_set_mask(0) gives scalar whatever SATC_ISA says. When the
 * automatic choice is AVX-512 and AVX2 is native and allowed, the CPUs
 * listed in docs/platforms.md (x86 vendor, family and model, read once)
 * run the operations listed there on the AVX2 kernels, for calls of the
 * sizes listed; the answers are the same bits. SATC_ISA=avx512 runs
 * AVX-512 throughout.
 */
SATC_API satc_isa satc_isa_active(void);

/**
 * Restricts automatic selection to the paths in `mask` (scalar is always
 * allowed) and re-selects; process-wide, thread-safe, meant for start-up.
 * Returns SATC_OK or SATC_ERR_FLAGS.
 */
SATC_API satc_status satc_isa_set_mask(unsigned mask);

/** Name of one path ("scalar", "sse41", "avx2", "avx512", "neon", "simd128"), or "unknown". */
SATC_API const char *satc_isa_name(satc_isa isa);

/**
 * satc_cull on an explicitly chosen path (one bit of satc_isa).
 * Returns SATC_ERR_ISA when that path is not runnable here, else as
 * satc_cull.
 */
SATC_API satc_status satc_cull_isa(satc_isa isa, const satc_frustum *f, const satc_batch *b,
                                   size_t first, size_t count, satc_mode mode, satc_results *out);

/** satc_cull_views on an explicitly chosen path (SATC_ERR_ISA when not runnable here). */
SATC_API satc_status satc_cull_views_isa(satc_isa isa, const satc_frustum *views, size_t nviews,
                                         const satc_batch *b, size_t first, size_t count,
                                         satc_mode mode, satc_view_results *out);

/** satc_cull_occluded on an explicitly chosen path (SATC_ERR_ISA when not runnable here). */
SATC_API satc_status satc_cull_occluded_isa(satc_isa isa, const satc_pyramid *p,
                                            const satc_batch *b, size_t first, size_t count,
                                            satc_mode mode, satc_results *out, uint8_t *occluded,
                                            size_t *noccluded);

/** satc_cull_batch on an explicitly chosen path: satc_cull_isa on Eberly arrays. */
SATC_API satc_status satc_cull_batch_isa(satc_isa isa, const satc_frustum *f,
                                         const satc_boxes *boxes, size_t first, size_t count,
                                         satc_mode mode, satc_results *out);

/* ------------------------------------------------------------------ */
/* Depth keys and back-to-front order (splat renderers)                 */
/* ------------------------------------------------------------------ */

/** The bits of every NaN depth satc_cull_depth writes (one quiet NaN,
 * whatever NaN the path's arithmetic produced). */
#define SATC_DEPTH_NAN_BITS 0x7FC00000u

/** Orders of the visible indices (satc_depth_results.sort). */
#define SATC_SORT_NONE 0u /**< no sorted output */
#define SATC_SORT_16 1u   /**< by the 16-bit key: counting, or by its low then its high byte (stable) */
#define SATC_SORT_32 2u   /**< by the exact float depth (the 32-bit key), three radix passes (stable) */

/**
 * Depth outputs of satc_cull_depth (each pointer may be NULL: not
 * wanted). A volume's depth is the view depth of its center, D.(c - E)
 * (world units along the view direction from the frustum's origin), in
 * float as the culling loaders compute it, the same bits on every path
 * (NaN, written as the bits SATC_DEPTH_NAN_BITS, for a volume whose
 * center is not finite or whose quaternion, mesh id or field makes the
 * loaders' center NaN; a splat cube's center is its position, whatever
 * its quaternion).
 *  - key32: the depth's order as an unsigned integer (larger is farther;
 *    -0 as +0; NaN above +Inf, as the farthest);
 *  - key16: floor((d - lo) * s) in double with s = 65535 / (hi - lo)
 *    rounded once (s = 0 when hi = lo), lo and hi the least and greatest
 *    finite depth of the call's visible volumes, clamped to [0, 65535]
 *    (the farthest finite depth may get 65534); NaN and +Inf 65535,
 *    -Inf 0 (what splat viewers quantise by).
 * sorted: the visible indices back to front, by decreasing key (sort
 * SATC_SORT_16: key16; SATC_SORT_32: key32), equal keys in increasing
 * index order.
 */
typedef struct satc_depth_results {
    float *depth;     /**< room for count: depth[k] belongs to volume indices[k] */
    uint16_t *key16;  /**< room for count: key16[k] belongs to volume indices[k] */
    uint32_t *key32;  /**< room for count: key32[k] belongs to volume indices[k] */
    uint32_t *sorted; /**< room for count: the visible indices back to front */
    unsigned sort;    /**< SATC_SORT_16 or SATC_SORT_32 when sorted is wanted */
    void *scratch;    /**< satc_depth_scratch_bytes(count, sort) bytes, 8-byte aligned */
    size_t scratch_bytes;
} satc_depth_results;

/** Scratch bytes satc_cull_depth and satc_sort_depth need for count
 * volumes with order `sort` (0 when count is 0, and for a sort other
 * than SATC_SORT_NONE, SATC_SORT_16 or SATC_SORT_32, which those calls
 * reject); SIZE_MAX on overflow. */
SATC_API size_t satc_depth_scratch_bytes(size_t count, unsigned sort);

/**
 * satc_cull, then for the visible volumes their depths, keys and the
 * back-to-front order (satc_depth_results): what a splat renderer feeds
 * its draw every frame, from one pass over the batch (the depth of each
 * chunk of 1024 volumes is taken right after its cull, from cache).
 * out->indices is required when d asks for anything; depth and keys come
 * in the order of out->indices. Every output is the same bits on every
 * path. f must be perspective or orthographic. Returns what satc_cull
 * returns, and SATC_ERR_NULL (d NULL, or outputs without out->indices,
 * or scratch NULL or shorter than satc_depth_scratch_bytes),
 * SATC_ERR_FLAGS (a plane volume, or an unknown sort); on error nothing
 * is written.
 */
SATC_API satc_status satc_cull_depth(const satc_frustum *f, const satc_batch *b, size_t first,
                                     size_t count, satc_mode mode, satc_results *out,
                                     satc_depth_results *d);

/** satc_cull_depth on an explicitly chosen path (one bit of satc_isa;
 * SATC_ERR_FLAGS for none or several, SATC_ERR_ISA when not runnable). */
SATC_API satc_status satc_cull_depth_isa(satc_isa isa, const satc_frustum *f, const satc_batch *b,
                                         size_t first, size_t count, satc_mode mode,
                                         satc_results *out, satc_depth_results *d);

/**
 * The keys and back-to-front order of n volumes whose depths the caller
 * holds (a second call after satc_cull, or depths of its own): depth[k]
 * belongs to volume indices[k]; key16, key32 and sorted (each may be
 * NULL) as satc_depth_results defines them, over these n (equal keys
 * keep the order of indices: increasing index when indices increase, as
 * satc_cull writes them). Scratch as
 * satc_depth_scratch_bytes(n, sort). Returns SATC_OK, SATC_ERR_NULL
 * (depth or indices NULL with n > 0, or the scratch missing or short),
 * SATC_ERR_FLAGS (an unknown sort, or sorted without one), SATC_ERR_RANGE
 * (n above UINT32_MAX); on error nothing is written.
 */
SATC_API satc_status satc_sort_depth(const float *depth, const uint32_t *indices, size_t n,
                                     unsigned sort, uint16_t *key16, uint32_t *key32,
                                     uint32_t *sorted, void *scratch, size_t scratch_bytes);

/* ------------------------------------------------------------------ */
/* Query volumes: a sphere or a ray against a batch                     */
/* ------------------------------------------------------------------ */

/** Relative tolerance of the sphere and ray queries' exact tests (run in
 * double on the stored floats): 2^-40. See satc_query_sphere and
 * satc_query_ray for the magnitudes it multiplies. */
#define SATC_QUERY_TOLERANCE 9.094947017729282e-13

/**
 * Which volumes of batch `b`, [first, first + count), any form, touch the
 * ball of `center` and `radius` (world units)? An area of effect, a
 * proximity or hearing radius, a sphere trigger. Outputs as satc_cull:
 * bitmask, class bytes, increasing absolute indices, visible (the number
 * of hits, always written on success).
 *
 * Conservative mode: the cull against the ball's bounding cube, its six
 * face planes (RTR 22.14.3): never drops a touching volume, may keep
 * volumes near the cube's edges and corners. Exact mode: the same
 * candidates, each then decided in double on its
 * stored floats (RTR 22.13.2, Arvo's closest point, for boxes of every
 * form as the parallelepiped they describe; RTR 22.13.1 for spheres:
 * centers within r + r2). A volume is kept when its Euclidean distance to
 * `center` is at most
 *     radius + SATC_QUERY_TOLERANCE * Q,
 *     Q = |center|_1 + |c|_1 + |center - c|_1 + sum_j |H_j|_1 + radius
 *         (for a sphere of radius r2, 2 r2 instead of sum_j |H_j|_1),
 * c the volume's center and H_j its half-axis vectors in world units (an
 * instance's c counts the terms of M c_local + t): touching (distance
 * exactly `radius`) is always a hit, on every path, in both modes.
 * Exact mode keeps nothing farther than radius + 2 SATC_QUERY_TOLERANCE Q
 * from `center` for volumes whose half axes are orthogonal (AABB,
 * min/max, spheres, OBBs, instances without shear; checked against a
 * double oracle in tests/queries/test_rays.c); a sheared or flat
 * parallelepiped is never dropped when it touches, and its band grows
 * with its condition (a volume is dropped only on a proven lower bound
 * of its distance, the separating plane through the closest point found:
 * Arvo's clamp, then active sets when that point is not conclusive).
 * Classes: SATC_INSIDE when the whole volume lies within
 * radius - SATC_QUERY_TOLERANCE Q of `center` (every vertex, or
 * |center - c| + r2), else SATC_INTERSECTING; asking for classes in
 * conservative mode costs the double geometry of the kept volumes.
 * Non-finite volumes (a NaN or infinite field, a mesh id past the table)
 * are always kept, SATC_INTERSECTING; every finite volume gets the exact
 * test in double however far it is (SATC_MAX_MAGNITUDE bounds only the
 * query: |center|_1 and radius). Radius 0 is a point query.
 * Every path gives the scalar reference's bits: the refinement is one
 * scalar code shared by all paths.
 * Returns SATC_OK, SATC_ERR_NULL (center or out NULL, or as satc_cull),
 * SATC_ERR_NONFINITE (center or radius NaN or infinite), SATC_ERR_BOUNDS
 * (radius < 0, radius or |center|_1 beyond SATC_MAX_MAGNITUDE),
 * SATC_ERR_FLAGS, SATC_ERR_LAYOUT, SATC_ERR_RANGE as satc_cull; on error
 * nothing is written.
 */
SATC_API satc_status satc_query_sphere(const float center[3], float radius, const satc_batch *b,
                                       size_t first, size_t count, satc_mode mode,
                                       satc_results *out);

/** satc_query_sphere on an explicitly chosen path (one bit of satc_isa;
 * SATC_ERR_FLAGS for none or several, SATC_ERR_ISA when not runnable). */
SATC_API satc_status satc_query_sphere_isa(satc_isa isa, const float center[3], float radius,
                                           const satc_batch *b, size_t first, size_t count,
                                           satc_mode mode, satc_results *out);

/**
 * Which volumes of batch `b`, [first, first + count), any form, does the
 * ray origin + t dir, 0 <= t <= tmax, touch, which does it enter first,
 * and where? Picking, line of sight, a projectile's step. tmax may be
 * +INFINITY (a half-line); dir need not be unit (t is then in units of
 * |dir|: the world distance is t |dir|); dir = 0 or tmax = 0 is a point
 * query at origin. Outputs as satc_cull (class SATC_INTERSECTING for
 * every hit, never SATC_INSIDE), plus, each optional (NULL: not wanted):
 *  - t: room for count floats; t[k] is the entry parameter of the k-th
 *    hit in increasing index order (the volume indices[k]): the smallest
 *    t at which the ray is in the volume, 0 when origin is in it,
 *    computed in double and rounded to nearest float (it may round to
 *    +Inf for a tiny dir). NaN for a non-finite volume; in conservative
 *    mode, +Inf for a kept volume the exact test finds the ray misses.
 *  - nearest: the absolute index of the hit with the smallest t (ties go
 *    to the smaller index; NaN and +Inf never count), or SIZE_MAX when
 *    there is none. Written on success even when count is 0.
 *
 * Candidates come from a cull every path runs: a hair-thin perspective
 * frustum around the ray (slopes +-2^-20, apex just behind origin, far
 * plane past tmax or at infinity), whose band is relative to each
 * volume's distance as a camera's is; a segment shorter than
 * |origin|_1 / 768, a zero dir or tmax 0 takes the segment query instead
 * (the segment-box test's six axes among the thin box's fifteen, see
 * satc_frustum_from_segment; a finite ray whose |origin|_1 plus length
 * would pass SATC_MAX_MAGNITUDE stops there). Conservative mode
 * reports the candidates of that frustum's planes. Exact mode
 * decides each of them in double on the whole
 * [0, tmax] by the slab method (RTR 22.7): per slab normal N of the
 * volume (a box's face normals, plus edge normals for flat ones; a
 * sphere by its chord), the ray is clipped to
 *     |N.(x - c)| <= sum_j |N.H_j| + SATC_QUERY_TOLERANCE |N|_1 Q,
 *     Q = |origin|_1 + |c|_1 + |origin - c|_1 + |tf| |dir|_1 + |w|_1 + sum_j |H_j|_1,
 * tf the parameter of the foot of the perpendicular from c and w the
 * foot minus c (a sphere of radius r2: |x - c| <= r2 + SATC_QUERY_TOLERANCE
 * (Q + 2 r2), Q without the H term).
 * A volume the ray touches is always a hit, on every path, in both modes
 * (grazing rays, rays along a face, rays starting inside or on a face);
 * exact mode keeps no volume of orthogonal half axes farther than
 * 3 SATC_QUERY_TOLERANCE Q from the ray, and t is the entry into the
 * volume grown by that much (at most that far before the true entry,
 * divided by the sine of the angle between the ray and the face it
 * enters). Non-finite volumes are always hits (t NaN). Every path gives
 * the scalar reference's bits.
 * Returns SATC_OK, SATC_ERR_NULL (origin, dir or out NULL, or as
 * satc_cull), SATC_ERR_NONFINITE (NaN or infinite origin or dir, NaN
 * tmax), SATC_ERR_BOUNDS (tmax < 0, |origin|_1 >= SATC_MAX_MAGNITUDE),
 * SATC_ERR_FLAGS, SATC_ERR_LAYOUT, SATC_ERR_RANGE as satc_cull; on error
 * nothing is written.
 */
SATC_API satc_status satc_query_ray(const float origin[3], const float dir[3], float tmax,
                                    const satc_batch *b, size_t first, size_t count,
                                    satc_mode mode, satc_results *out, float *t, size_t *nearest);

/** satc_query_ray on an explicitly chosen path (one bit of satc_isa;
 * SATC_ERR_FLAGS for none or several, SATC_ERR_ISA when not runnable). */
SATC_API satc_status satc_query_ray_isa(satc_isa isa, const float origin[3], const float dir[3],
                                        float tmax, const satc_batch *b, size_t first,
                                        size_t count, satc_mode mode, satc_results *out, float *t,
                                        size_t *nearest);

/* ------------------------------------------------------------------ */
/* Occluder rasterizer: types                                           */
/* ------------------------------------------------------------------ */

/* Rasterizer flags (satc_raster_options.flags). */
/** Triangles: skip back faces (for closed meshes: their front faces hide
 * everything the back faces would). Faster, never less safe; without it
 * every triangle is drawn from both sides. */
#define SATC_RASTER_CULL_BACK 1u
/** Triangles: front faces wind clockwise seen from outside (default:
 * counter-clockwise, the outward normal (v1 - v0) x (v2 - v0)). */
#define SATC_RASTER_FRONT_CW 2u

/**
 * Options of the occluder rasterizer; a NULL pointer means all defaults
 * (every field 0).
 */
typedef struct satc_raster_options {
    unsigned flags;   /**< SATC_RASTER_* bits */
    /** Occluders whose screen rectangle (the bounding rectangle of their
     * part beyond the near plane, clipped to the view) spans fewer level-0
     * texels than this are skipped: small occluders cover few whole
     * texels and cost their setup. Per triangle for meshes, per volume for
     * batches (per front face for a volume reaching the near plane).
     * 0 draws everything; >= 0, finite. */
    float min_texels;
    /** Tile: only level-0 rows [row0, row1) are read or written, so threads
     * can draw into disjoint row ranges of one pyramid at once. row1 = 0
     * means the last row (the pyramid's height). */
    uint32_t row0, row1;
    /** Merged coverage (NULL: none, the texels as described at
     * satc_pyramid_rasterize, bit for bit): a buffer of
     * satc_coverage_bytes(width, height) bytes, 4-byte aligned, set up by
     * satc_coverage_clear for this pyramid. With it, texels that several
     * occluders cover together, none of them whole, are written too: each
     * texel keeps two working layers, each the cells of its 4 x 4 grid
     * covered whole by its occluders since it was emptied and the farthest
     * depth bound among them; when a layer's cells, or the two layers'
     * together, fill the texel, it takes the least of its value and that
     * depth (the two: the farther). Draws with the same
     * buffer merge: batches, lists and meshes drawn by separate calls,
     * and tiles of rows drawn by threads at once (each writes exactly the
     * whole draw's bits, layers included, on its rows). Every value
     * written is still a valid bound. */
    void *coverage;
} satc_raster_options;

/**
 * Bytes of the merged-coverage buffer (satc_raster_options.coverage) of
 * a width x height pyramid: a small header and 12 bytes per level-0
 * texel; 0 when satc_pyramid_bytes(width, height) is 0.
 */
SATC_API size_t satc_coverage_bytes(uint32_t width, uint32_t height);

/**
 * Empties every texel's working layers in `coverage` (bytes bytes, 4-byte
 * aligned) and ties the buffer to pyramid *p: its size and a copy of
 * its view. Call it with satc_pyramid_init or satc_pyramid_clear, before
 * the frame's first draw with the buffer: a layer left from another set
 * of occluders would claim their coverage. The rasterizer refuses a
 * buffer cleared for another size or view (SATC_ERR_LAYOUT).
 * Returns SATC_OK, SATC_ERR_NULL (coverage or p NULL), SATC_ERR_PYRAMID
 * (p not set up by satc_pyramid_init), SATC_ERR_LAYOUT (bytes below
 * satc_coverage_bytes(p->width, p->height), or coverage not 4-byte
 * aligned); on error nothing is written.
 */
SATC_API satc_status satc_coverage_clear(void *coverage, size_t bytes, const satc_pyramid *p);

/**
 * An indexed triangle mesh read in place: triangle t has vertices
 * indices[3t], indices[3t + 1], indices[3t + 2] (or 3t, 3t + 1, 3t + 2
 * without indices); vertex k's position is the 3 floats at
 * (const char *)positions + k * stride, in world units, or in model
 * space mapped by `matrix` (x' = M x, the affine part of a matrix in one
 * of satc_affine's layouts) when that is not NULL.
 */
typedef struct satc_mesh {
    const float *positions; /**< vertex 0's x; y and z follow it */
    size_t stride;          /**< bytes between vertices: >= 12, a multiple of 4 */
    size_t vertex_count;    /**< vertices the indices may name */
    const void *indices;    /**< uint16_t or uint32_t, 3 per triangle; NULL: none */
    unsigned index_bits;    /**< 16 or 32 (ignored without indices) */
    size_t triangle_count;
    const float *matrix;    /**< NULL: world space */
    satc_affine layout;     /**< the matrix's layout */
} satc_mesh;

/**
 * Draws occluders into level 0 of pyramid *p: volumes [first, first +
 * count) of batch b, any form, each standing for the solid it bounds
 * (boxes of every form; a sphere by its inscribed cube, radius / sqrt 3
 * lowered by 2^-20). The box drawn lies inside the volume described:
 * roundings (a TRS rotation or log scale) shrink it, never grow it.
 * Occluders must lie inside opaque geometry: a building's inner box, a
 * wall, a terrain block.
 *
 * Inner-conservative: a texel takes a volume's depth only where the
 * volume covers the texel's whole closed rectangle with surface at view
 * depth >= n, and then the farthest view depth (world units along D)
 * that surface reaches over the rectangle, rounded up; the texel keeps
 * the least of that and its value (a NaN texel counts as +Inf). So every
 * value written is a valid bound in the sense of satc_pyramid: along
 * every line of sight through the texel the volume's surface is met at a
 * view depth in [n, value]. A box entirely beyond the near plane covers
 * through its silhouette, its depth the farthest of its front faces'
 * planes over the texel; a box reaching the near plane (or containing
 * the eye) draws only its front faces' parts beyond it. The tests are
 * linear in the texel's corners and computed in double with error bounds,
 * then rounded so the float fill errs toward less coverage and more depth
 * (docs/raster.md proves it); the fill runs on the active path
 * (satc_isa_active), the same bits on every path.
 *
 * A box whose screen rectangle already holds, in every texel, a depth no
 * farther than its nearest point is skipped after a read of that
 * rectangle (it could change nothing: the bits are those of drawing it),
 * so drawing near occluders first costs less; satc_occluders_pick ranks
 * largest on screen first, a good proxy (docs/occlusion.md).
 *
 * Only level 0 changes: call satc_pyramid_build once every writer is done.
 * Volumes with a NaN or infinite field, an instance's mesh id past its
 * table, degenerate or flat-but-not-exactly-flat boxes, and volumes whose
 * camera-relative size reaches SATC_MAX_MAGNITUDE are skipped (they draw
 * nothing, which is always safe), and so are TRS volumes with a zero
 * scale; any other box with one zero half axis is drawn as the rectangle
 * it is. opt (may be NULL): flags (only triangles use them), min_texels,
 * and a tile of rows: threads may draw disjoint row ranges of one pyramid
 * at once, each writing exactly the whole draw's bits on its rows.
 *
 * Returns SATC_OK, SATC_ERR_NULL (p NULL; b NULL; a stream of b NULL with
 * count > 0), SATC_ERR_PYRAMID (p not set up by satc_pyramid_init),
 * SATC_ERR_FLAGS (unknown form or flag), SATC_ERR_BOUNDS (min_texels
 * negative, NaN or infinite), SATC_ERR_RANGE (first + count overflows; a
 * tile past the pyramid's rows or with row0 > row1), SATC_ERR_LAYOUT (as
 * satc_cull; opt->coverage misaligned or not cleared for this pyramid's
 * size and view); on error nothing is written.
 */
SATC_API satc_status satc_pyramid_rasterize(satc_pyramid *p, const satc_batch *b, size_t first,
                                            size_t count, const satc_raster_options *opt);

/**
 * satc_pyramid_rasterize for the volumes indices[0..n) of batch b, drawn
 * in that order (an index may repeat; drawing twice changes nothing):
 * the occluders satc_occluders_pick chose, or any list. The same texels
 * as satc_pyramid_rasterize over those volumes, on every path.
 *
 * Every index is read before anything is drawn. Returns what
 * satc_pyramid_rasterize returns, and SATC_ERR_NULL (indices NULL with
 * n > 0); the batch is checked as for a range [0, largest index]. On
 * error nothing is written.
 */
SATC_API satc_status satc_pyramid_rasterize_list(satc_pyramid *p, const satc_batch *b,
                                                 const uint32_t *indices, size_t n,
                                                 const satc_raster_options *opt);

/**
 * Chooses occluders for pyramid *p: among volumes [first, first + count)
 * of batch b that p's view keeps (the conservative frustum test of
 * satc_cull), the at most `max` whose screen rectangle is largest, for
 * satc_pyramid_rasterize_list. Drawing every building costs a setup and
 * a fill each; the few largest on screen hide nearly as much (see
 * docs/occlusion.md for figures).
 *
 * A volume's rank is the area, in level-0 texels of p, of the screen
 * rectangle the occlusion test of satc_cull_occluded computes for it
 * (the bounding rectangle of its projection, widened by the rounding
 * margins, clipped to the image); a volume reaching the near plane ranks
 * as the whole image (width x height), one with a non-finite nearest
 * depth is not picked. Volumes ranking below min_texels are not picked.
 * The picked indices go to indices[0..*npicked), largest area first
 * (equal areas: lower index first), their areas to areas[0..*npicked).
 * With max equal to count, every volume kept is ranked: the cheap way to
 * draw them all with satc_pyramid_rasterize_list, which then sets up only
 * what the view keeps, largest first, and skips the boxes behind.
 * The answer is the same on every path. No allocation: the ranking lives
 * in the caller's arrays (when they hold at least twice what is picked,
 * their entries past *npicked serve as scratch and are left unspecified).
 * Groups (satc_groups) are ignored: every volume is ranked on its own.
 *
 * max: capacity of indices and areas (0: nothing picked). min_texels:
 * >= 0, finite.
 * Returns SATC_OK, SATC_ERR_NULL (npicked NULL; indices or areas NULL
 * with max > 0; b NULL), SATC_ERR_PYRAMID (p not set up by
 * satc_pyramid_init), SATC_ERR_BOUNDS (min_texels negative, NaN or
 * infinite), SATC_ERR_FLAGS (unknown form), SATC_ERR_RANGE (first +
 * count overflows, or an index would pass UINT32_MAX), SATC_ERR_LAYOUT
 * (as satc_cull); on error nothing is written.
 */
SATC_API satc_status satc_occluders_pick(const satc_pyramid *p, const satc_batch *b, size_t first,
                                         size_t count, float min_texels, size_t max,
                                         uint32_t *indices, float *areas, size_t *npicked);

/**
 * satc_occluders_pick with a first set of candidates, typically what was
 * visible last frame (the visible indices satc_cull_occluded wrote): the
 * volumes seen are in front of the rest, so they hide the most per
 * occluder drawn, and a large volume hidden behind another is not drawn
 * for nothing. Among volumes [first, first + count) that p's view keeps,
 * those listed in prev[0..nprev) rank above every other (largest area
 * first, as satc_occluders_pick ranks them); the others fill what is
 * left of `max`, largest first. Indices of prev outside [first, first +
 * count) are ignored, so threads splitting a batch may share one list.
 * nprev 0: the same answer as satc_occluders_pick.
 *
 * The answer never depends on prev for correctness: any occluder set
 * gives a valid pyramid. Only which occluders are drawn changes, so a
 * stale or empty list costs culling efficiency, never a wrong result.
 *
 * prev: strictly ascending volume indices (satc_cull's order).
 * Returns what satc_occluders_pick returns, and SATC_ERR_NULL (prev NULL
 * with nprev > 0), SATC_ERR_RANGE (prev not strictly ascending); on
 * error nothing is written.
 */
SATC_API satc_status satc_occluders_pick_first(const satc_pyramid *p, const satc_batch *b,
                                               size_t first, size_t count, const uint32_t *prev,
                                               size_t nprev, float min_texels, size_t max,
                                               uint32_t *indices, float *areas,
                                               size_t *npicked);

/**
 * Draws the triangles of mesh *m into level 0 of pyramid *p, each a
 * surface inside opaque geometry (a wall's quad, an occlusion mesh), with
 * the inner-conservative rule of satc_pyramid_rasterize applied per
 * triangle: texels wholly covered by one triangle's part beyond the near
 * plane take its farthest depth over them (a triangle crossing the near
 * plane or the eye's plane is clipped there, never wrapped around). A
 * triangle and the one drawn before it (with SATC_RASTER_CULL_BACK, any
 * of the 7 drawn before it; decided over the whole view, so a row tile
 * pairs the same triangles as the whole draw) sharing an edge (two vertices with
 * bit-identical positions, as a quad's two triangles in most meshes),
 * both beyond the near plane and not folded over that edge on screen,
 * also cover the texels their edge splits, taking the farther of their
 * two planes' depths. Other shared edges and vertices are not merged: a
 * texel split there takes no depth, so large triangles cover best.
 * Triangles are drawn from both sides unless SATC_RASTER_CULL_BACK
 * (closed meshes; winding per SATC_RASTER_FRONT_CW) skips those not
 * provably facing the eye.
 * Triangles with a NaN or infinite coordinate (after the model matrix),
 * degenerate ones (collinear vertices, or the eye in their plane) and
 * those beyond SATC_MAX_MAGNITUDE from the eye are skipped; with
 * opt->min_texels, so are triangles whose screen rectangle is smaller.
 * Only level 0 changes (then satc_pyramid_build).
 *
 * Every index is checked before anything is drawn. Returns SATC_OK (also
 * for triangle_count 0), SATC_ERR_NULL (p or m NULL, positions NULL with
 * triangles), SATC_ERR_PYRAMID, SATC_ERR_FLAGS (index_bits not 16 or 32
 * with indices, an unknown flag), SATC_ERR_BOUNDS (min_texels as above),
 * SATC_ERR_RANGE (an index >= vertex_count; without indices, 3 *
 * triangle_count > vertex_count; a bad tile), SATC_ERR_LAYOUT (stride
 * below 12 or not a multiple of 4, positions, indices or matrix
 * misaligned, an unknown matrix layout); on error nothing is written.
 */
SATC_API satc_status satc_pyramid_rasterize_triangles(satc_pyramid *p, const satc_mesh *m,
                                                      const satc_raster_options *opt);

#ifdef __cplusplus
}
#endif

#endif /* SATC_H */
