// Drives the CGpiod shim (Sources/CGpiod/shim.h) against whichever libgpiod it is compiled with,
// 1.6 or 2.x: the same source proves both APIs. Built and run by scripts/gpiod2-test.
//
//   gpiod-shim-test API -                       chip-free checks only (the API picked, errors)
//   gpiod-shim-test API NAME LABEL NLINES BASE  also a real chip: open it by path, name, number
//                                               and label, drive lines, read them back
//
// Values are read back through the kernel, not through libgpiod: /sys/kernel/debug/gpio lists
// every requested line with its consumer and "out hi" / "out lo" (the chip driver's own get()).
// BASE is the chip's global GPIO number base there (/sys/class/gpio/gpiochipN/base).
// Prints "ok - ..." / "not ok - ..." per check and "N passed, N failed"; exit 1 on any failure.
#include "../../Sources/CGpiod/shim.h"
#include <stdio.h>

static int passed, failed;

static void check(int ok, const char *what, const char *detail) {
    if (ok) passed++; else failed++;
    printf("%s - %s%s%s\n", ok ? "ok" : "not ok", what, detail && *detail ? ": " : "", detail ? detail : "");
}

static const char *describe(const struct loaderd_gpio_failure *f) {
    static char text[256];
    snprintf(text, sizeof text, "step %d, errno %d (%s), offset %u, lines %u, consumer '%s', chip '%s' [%s]",
             f->step, f->error, strerror(f->error), f->offset, f->num_lines, f->consumer, f->chip_name, f->chip_label);
    return text;
}

// What the kernel says about global line `gpio`: 1 out hi, 0 out lo, -1 not requested / not
// found, -2 requested but not an output or by another consumer than `consumer`.
static int kernel_value(int gpio, const char *consumer) {
    FILE *f = fopen("/sys/kernel/debug/gpio", "r");
    if (!f) return -3;
    char line[512];
    int result = -1;
    while (fgets(line, sizeof line, f)) {
        int n;
        if (sscanf(line, " gpio-%d ", &n) != 1 || n != gpio) continue;
        if (!strstr(line, consumer)) result = -2;
        else if (strstr(line, " out hi")) result = 1;
        else if (strstr(line, " out lo")) result = 0;
        else result = -2;
        break;
    }
    fclose(f);
    return result;
}

static void chip_free_checks(int api) {
    char detail[128];
    snprintf(detail, sizeof detail, "compiled against API %d, libgpiod %s", loaderd_gpiod_api(), loaderd_gpiod_version());
    check(loaderd_gpiod_api() == api, "the shim picked the expected libgpiod API", detail);
    check(loaderd_gpiod_version()[0] == '0' + api, "the library version matches the API", loaderd_gpiod_version());

    const char *missing[] = {"no-such-chip", "/dev/gpiochip97", "97", "gpiochip97"};
    unsigned int offsets[65] = {0};
    int values[65] = {0};
    for (unsigned i = 0; i < sizeof missing / sizeof *missing; i++) {
        struct loaderd_gpio_failure f;
        struct loaderd_gpio_lines *h = loaderd_gpio_request_output(missing[i], offsets, 1, "loaderd", values, &f);
        char what[128];
        snprintf(what, sizeof what, "'%s' is no such chip (ENOENT at open)", missing[i]);
        check(!h && f.step == LOADERD_GPIO_STEP_OPEN_CHIP && f.error == ENOENT, what, describe(&f));
        loaderd_gpio_release(h);
    }
    struct loaderd_gpio_failure f;
    struct loaderd_gpio_lines *h = loaderd_gpio_request_output("gpiochip0", offsets, 65, "loaderd", values, &f);
    check(!h && f.step == LOADERD_GPIO_STEP_ARGUMENTS && f.error == EINVAL, "65 lines are refused before opening anything", describe(&f));
    loaderd_gpio_release(h);
}

// Requests lines 5, 0, 2 (out of order on purpose: values follow the caller's order) through
// `spec`, checks the initial values, sets others, releases.
static void drive(const char *spec, int base) {
    const unsigned int offsets[3] = {5, 0, 2};
    const int initial[3] = {1, 0, 1}, next[3] = {0, 1, 1};
    char what[160], detail[160];
    struct loaderd_gpio_failure f;
    struct loaderd_gpio_lines *h = loaderd_gpio_request_output(spec, offsets, 3, "loaderd", initial, &f);
    snprintf(what, sizeof what, "'%s' opens and lines 5,0,2 are requested as outputs", spec);
    check(h != NULL, what, h ? "" : describe(&f));
    if (!h) return;
    int got[3];
    for (int i = 0; i < 3; i++) got[i] = kernel_value(base + (int)offsets[i], "loaderd");
    snprintf(what, sizeof what, "'%s': initial values 1,0,1 reach the chip", spec);
    snprintf(detail, sizeof detail, "kernel reports %d,%d,%d", got[0], got[1], got[2]);
    check(got[0] == 1 && got[1] == 0 && got[2] == 1, what, detail);
    int rc = loaderd_gpio_set_values(h, next);
    for (int i = 0; i < 3; i++) got[i] = kernel_value(base + (int)offsets[i], "loaderd");
    snprintf(what, sizeof what, "'%s': set 0,1,1 in one call reaches the chip", spec);
    snprintf(detail, sizeof detail, "rc %d, kernel reports %d,%d,%d", rc, got[0], got[1], got[2]);
    check(rc == 0 && got[0] == 0 && got[1] == 1 && got[2] == 1, what, detail);
    loaderd_gpio_release(h);
    for (int i = 0; i < 3; i++) got[i] = kernel_value(base + (int)offsets[i], "loaderd");
    snprintf(what, sizeof what, "'%s': release frees the lines", spec);
    snprintf(detail, sizeof detail, "kernel reports %d,%d,%d (-1: not requested)", got[0], got[1], got[2]);
    check(got[0] == -1 && got[1] == -1 && got[2] == -1, what, detail);
}

static void chip_checks(const char *name, const char *label, unsigned int lines, int base) {
    char spec[96];
    snprintf(spec, sizeof spec, "/dev/%s", name);
    drive(spec, base);
    drive(name, base);
    drive(name + strlen("gpiochip"), base); // the number
    drive(label, base);

    // An offset past the end: named, with the chip's size, before any request.
    unsigned int beyond[2] = {1, lines};
    int values[2] = {0, 0};
    struct loaderd_gpio_failure f;
    struct loaderd_gpio_lines *h = loaderd_gpio_request_output(name, beyond, 2, "loaderd", values, &f);
    check(!h && f.step == LOADERD_GPIO_STEP_GET_LINE && f.offset == lines && f.num_lines == lines
          && strcmp(f.chip_name, name) == 0 && strcmp(f.chip_label, label) == 0,
          "a line past the end is named with the chip's name, label and size", describe(&f));
    loaderd_gpio_release(h);

    // A line held by another consumer: EBUSY, with that line and its holder.
    unsigned int held[1] = {3}, wanted[2] = {1, 3};
    struct loaderd_gpio_lines *holder = loaderd_gpio_request_output(name, held, 1, "other-holder", values, &f);
    check(holder != NULL, "another consumer holds line 3", holder ? "" : describe(&f));
    h = loaderd_gpio_request_output(name, wanted, 2, "loaderd", values, &f);
    check(!h && f.step == LOADERD_GPIO_STEP_REQUEST && f.error == EBUSY && f.offset == 3
          && strcmp(f.consumer, "other-holder") == 0,
          "requesting lines 1,3 fails with EBUSY naming line 3 and 'other-holder'", describe(&f));
    loaderd_gpio_release(h);
    check(kernel_value(base + 1, "loaderd") == -1, "the failed request left line 1 free", "");
    loaderd_gpio_release(holder);
    h = loaderd_gpio_request_output(name, wanted, 2, "loaderd", values, &f);
    check(h != NULL, "once released, lines 1,3 can be requested", h ? "" : describe(&f));
    loaderd_gpio_release(h);
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 6) {
        fprintf(stderr, "usage: %s API - | %s API NAME LABEL NLINES BASE\n", argv[0], argv[0]);
        return 2;
    }
    int api = atoi(argv[1]);
    chip_free_checks(api);
    if (argc == 6) chip_checks(argv[2], argv[3], (unsigned)atoi(argv[4]), atoi(argv[5]));
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
