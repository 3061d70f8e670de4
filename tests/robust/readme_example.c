#include <stdio.h>
#include <satc.h>

int main(void)
{
    /* A camera at the origin looking down -Z with +Y up: 60 degrees of
     * vertical field of view, 16:9, near 0.1, far 1000 (world units). */
    const float eye[3] = {0, 0, 0}, dir[3] = {0, 0, -1}, up[3] = {0, 1, 0};
    satc_frustum frustum;
    satc_status st = satc_frustum_perspective(&frustum, eye, dir, up, 1.0471976f,
                                              16.0f / 9.0f, 0.1f, 1000.0f);
    if (st != SATC_OK) {
        fprintf(stderr, "frustum: %s\n", satc_status_string(st));
        return 1;
    }

    /* Boxes from a center, a rotation quaternion (x, y, z, w) and half
     * extents, stored as a structure of arrays. */
    enum { N = 4 };
    const float centers[N][3] = {{0, 0, -10}, {0, 0, 10}, {0, 0, -2000}, {-11, 0, -10}};
    const float quat[4] = {0.0f, 0.3826834f, 0.0f, 0.9238795f}; /* 45 degrees about Y */
    const float half[3] = {1.0f, 2.0f, 0.5f};
    satc_box_arrays arrays;
    if (satc_box_arrays_alloc(&arrays, N) != SATC_OK)
        return 1;
    for (size_t i = 0; i < N; i++) {
        satc_obb box;
        satc_obb_from_quat(&box, centers[i], quat, half);
        satc_box_arrays_set(&arrays, i, &box);
    }

    /* Cull them all; ask for the indices of the visible boxes. */
    satc_boxes boxes = satc_box_arrays_view(&arrays);
    uint32_t visible[N];
    satc_results res = {.indices = visible};
    st = satc_cull_batch(&frustum, &boxes, 0, N, SATC_EXACT, &res);
    if (st != SATC_OK) {
        fprintf(stderr, "cull: %s\n", satc_status_string(st));
        return 1;
    }
    printf("%zu of %d boxes visible (path %s):", res.visible, N,
           satc_isa_name(satc_isa_active()));
    for (size_t k = 0; k < res.visible; k++)
        printf(" %u", (unsigned)visible[k]);
    printf("\n");
    satc_box_arrays_free(&arrays);

    /* This example is also a test: box 1 is behind the camera, box 2
     * beyond the far plane, box 3 crosses the left plane. */
    int ok = res.visible == 2 && visible[0] == 0 && visible[1] == 3;
    printf("%d passed, %d failed\n", ok, !ok);
    return ok ? 0 : 1;
}
