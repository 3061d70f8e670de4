/* The version is written once, in meson.build: the header's macros
 * (generated satc_version.h), satc_version() and the CMake package's
 * version file must all say what meson.build says.
 * argv[1]: meson.project_version(); argv[2]: the configured
 * satcConfigVersion.cmake. */
#include <stdio.h>
#include <string.h>

#include "satc.h"

static int passed, failed;

static void check(int ok, const char *what)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAIL %s\n", what);
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        printf("usage: test_version VERSION CMAKE_VERSION_FILE\n0 passed, 1 failed\n");
        return 1;
    }
    unsigned ma = 0, mi = 0, pa = 0;
    check(sscanf(argv[1], "%u.%u.%u", &ma, &mi, &pa) == 3, "meson version is MAJOR.MINOR.PATCH");
    check(ma == SATC_VERSION_MAJOR && mi == SATC_VERSION_MINOR && pa == SATC_VERSION_PATCH,
          "header macros equal meson.build's version");
    check(satc_version() == ma * 10000u + mi * 100u + pa, "satc_version() equals meson.build's version");

    char line[512], want[128];
    snprintf(want, sizeof want, "set(PACKAGE_VERSION \"%s\")", argv[1]);
    int found = 0;
    FILE *f = fopen(argv[2], "r");
    check(f != NULL, "the CMake version file exists");
    while (f && fgets(line, sizeof line, f)) { /* the first assignment is the version */
        if (strstr(line, "set(PACKAGE_VERSION \"")) {
            found = strstr(line, want) != NULL;
            break;
        }
    }
    if (f)
        fclose(f);
    check(found == 1, "satcConfigVersion.cmake first sets PACKAGE_VERSION to meson.build's version");
    printf("version %s, header %d.%d.%d, satc_version() %u\n", argv[1], SATC_VERSION_MAJOR,
           SATC_VERSION_MINOR, SATC_VERSION_PATCH, satc_version());
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
