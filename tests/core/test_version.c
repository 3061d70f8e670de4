/* The version is written once per package: the header's macros
 * (generated satc_version.h), satc_version(), the shared object's name,
 * the CMake package's version file, the npm package (and its lock file)
 * and the Python package must all say what meson.build says.
 * argv[1]: meson.project_version(); argv[2]: the configured
 * satcConfigVersion.cmake; argv[3]: the source root; argv[4]: the built
 * library's path. */
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

/* How many of the first `want` lines of `path` containing `key` also hold
 * "<key><quote>version<quote>": a file's own version fields come first. */
static int versions_in(const char *root, const char *path, const char *key, char quote,
                       const char *version, int want)
{
    char full[1024], line[512], field[256];
    snprintf(full, sizeof full, "%s/%s", root, path);
    snprintf(field, sizeof field, "%s%c%s%c", key, quote, version, quote);
    FILE *f = fopen(full, "r");
    int seen = 0, same = 0;
    while (f && seen < want && fgets(line, sizeof line, f)) {
        if (strstr(line, key)) {
            seen++;
            same += strstr(line, field) != NULL;
        }
    }
    if (f)
        fclose(f);
    if (same != want)
        printf("%s: %d of its first %d version fields say %s\n", path, same, want, version);
    return same == want;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        printf("usage: test_version VERSION CMAKE_VERSION_FILE SOURCE_ROOT LIBRARY\n0 passed, 1 failed\n");
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

    const char *root = argv[3];
    check(versions_in(root, "js/package.json", "\"version\": ", '"', argv[1], 1),
          "js/package.json's version equals meson.build's");
    check(versions_in(root, "js/package-lock.json", "\"version\": ", '"', argv[1], 2),
          "js/package-lock.json's own two version fields equal meson.build's");
    check(versions_in(root, "python/pyproject.toml", "version = ", '"', argv[1], 1),
          "python/pyproject.toml's version equals meson.build's");
    check(versions_in(root, "python/meson.build", "  version: ", '\'', argv[1], 1),
          "python/meson.build's project version equals meson.build's");
    /* libsatc.so.X.Y.Z on ELF, libsatc.X.Y.Z.dylib on macOS; a static archive or a
     * Windows DLL carries no version in its name. */
    const char *lib = strrchr(argv[4], '/');
    lib = lib ? lib + 1 : argv[4];
    size_t len = strlen(lib);
    int unversioned = (len > 2 && strcmp(lib + len - 2, ".a") == 0) || strstr(lib, ".dll") != NULL;
    printf("library %s\n", lib);
    check(strstr(lib, argv[1]) != NULL || unversioned, "the shared object is named with meson.build's version");
    printf("version %s, header %d.%d.%d, satc_version() %u\n", argv[1], SATC_VERSION_MAJOR,
           SATC_VERSION_MINOR, SATC_VERSION_PATCH, satc_version());
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
