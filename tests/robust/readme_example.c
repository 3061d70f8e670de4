#include <stdio.h>
#include <satc.h>

int main(void)
{
    /* A camera 3 units up, tilted down at a point 10 ahead, with +Y up
     * (any up not along the view will do, as with glm::lookAt): 60 degrees
     * of vertical field of view, 16:9, near 0.1, far 1000 (world units). */
    const float eye[3] = {0, 3, 0}, target[3] = {0, 0, -10}, up[3] = {0, 1, 0};
    satc_frustum frustum;
    satc_status st = satc_frustum_look_at(&frustum, eye, target, up, 1.0471976f,
                                          16.0f / 9.0f, 0.1f, 1000.0f);
    if (st != SATC_OK) {
        fprintf(stderr, "frustum: %s\n", satc_status_string(st));
        return 1;
    }

    /* What an engine holds: a column-major 4x4 world matrix per instance
     * (glm, Unity, Filament, three.js, Bevy's Affine3A) and one local box
     * shared by every instance of the mesh. Read in place, no conversion. */
    enum { N = 4 };
    const float world[N][16] = {
        {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -10, 1},    /* ahead */
        {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 10, 1},     /* behind the camera */
        {2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, -2000, 1},  /* beyond the far plane */
        {0, 0, -3, 0, 0, 1, 0, 0, 3, 0, 0, 0, -11, 0, -10, 1}, /* rotated, scaled, on the left edge */
    };
    const float local_center[3] = {0, 0, 0}, local_half[3] = {1.0f, 2.0f, 0.5f};
    satc_batch batch = {
        .form = SATC_FORM_INSTANCES,
        .instances = {.matrix = world[0],
                      .stride = sizeof world[0],
                      .layout = SATC_AFFINE_4X4_COLUMN_MAJOR,
                      /* stride 0: one local box for the whole batch */
                      .local_center = {&local_center[0], &local_center[1], &local_center[2], 0},
                      .local_half = {&local_half[0], &local_half[1], &local_half[2], 0}}};

    /* Cull them all, exactly; ask for the indices of the visible ones. */
    uint32_t visible[N];
    satc_results res = {.indices = visible};
    st = satc_cull(&frustum, &batch, 0, N, SATC_EXACT, &res);
    if (st != SATC_OK) {
        fprintf(stderr, "cull: %s\n", satc_status_string(st));
        return 1;
    }
    printf("%zu of %d instances visible (path %s):", res.visible, N,
           satc_isa_name(satc_isa_active()));
    for (size_t k = 0; k < res.visible; k++)
        printf(" %u", (unsigned)visible[k]);
    printf("\n");

    /* This example is also a test: instance 1 is behind the camera,
     * instance 2 beyond the far plane, instance 3 crosses the left plane. */
    int ok = res.visible == 2 && visible[0] == 0 && visible[1] == 3;
    printf("%d passed, %d failed\n", ok, !ok);
    return ok ? 0 : 1;
}
