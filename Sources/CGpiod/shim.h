// libgpiod (Debian package libgpiod-dev). Bookworm and Raspberry Pi OS ship 1.6.x (the v1 API);
// trixie ships 2.x, whose API is different and whose header lacks GPIOD_LINE_BULK_MAX_LINES.
// Swift cannot test a C macro in `#if`, so the few operations loaderd needs (open a chip by path,
// name, number or label; request output lines together; set them all at once; release) are
// written here once per API behind one set of `loaderd_gpio_*` functions, and the Swift side
// never sees which API it runs on. Everything is `static inline` because a system library target
// has no sources of its own.
#ifndef LOADERD_CGPIOD_SHIM_H
#define LOADERD_CGPIOD_SHIM_H

#include <gpiod.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#ifdef GPIOD_LINE_BULK_MAX_LINES
#define LOADERD_GPIOD_API 1
#else
#define LOADERD_GPIOD_API 2
#endif
#include <dirent.h>

/// At most this many lines per request (libgpiod v1's limit; the kernel's is the same).
#define LOADERD_GPIO_MAX_LINES 64

/// Which step of `loaderd_gpio_request_output` failed.
enum loaderd_gpio_step {
    LOADERD_GPIO_OK = 0,
    /// The chip could not be opened (errno: ENOENT no such chip, EACCES permission, ...).
    LOADERD_GPIO_STEP_OPEN_CHIP = 1,
    /// A line offset does not exist on the chip (`offset`, `num_lines` say which and how many).
    LOADERD_GPIO_STEP_GET_LINE = 2,
    /// The request was refused (errno EBUSY: `offset` is held by `consumer`; EACCES; ...).
    LOADERD_GPIO_STEP_REQUEST = 3,
    /// Too many lines, or no memory for the handle.
    LOADERD_GPIO_STEP_ARGUMENTS = 4,
};

/// What went wrong, filled by `loaderd_gpio_request_output` when it returns NULL.
struct loaderd_gpio_failure {
    int step;
    int error;
    unsigned int offset;
    unsigned int num_lines;
    char consumer[64];
    char chip_name[64];
    char chip_label[64];
};

/// 1 or 2: the libgpiod API this build uses.
static inline int loaderd_gpiod_api(void) { return LOADERD_GPIOD_API; }

static inline void loaderd_gpio_copy(char *to, size_t size, const char *from) {
    if (!from) from = "";
    strncpy(to, from, size - 1);
    to[size - 1] = 0;
}

static inline int loaderd_gpio_is_number(const char *s) {
    if (!*s) return 0;
    for (; *s; s++) if (*s < '0' || *s > '9') return 0;
    return 1;
}

/// The number a string of digits names (one `loaderd_gpio_is_number` accepted), at most
/// UINT_MAX: no chip has that number. (strtoul here brought musl's whole integer scanner into
/// the static programs, ~2 KB, for this one loop.)
static inline unsigned int loaderd_gpio_number(const char *s) {
    unsigned long long value = 0;
    for (; *s; s++) {
        value = value * 10 + (unsigned int)(*s - '0');
        if (value > 0xffffffffu) return 0xffffffffu;
    }
    return (unsigned int)value;
}

/// Whether an open chip's label is `label`.
static inline int loaderd_gpio_label_is(struct gpiod_chip *chip, const char *label);

/// The chip whose label is `label`: each /dev/gpiochip* opened in turn, in the directory's order.
/// NULL when none has it, with errno ENOENT, or the first other error a chip could not be opened
/// with (EACCES: a chip we may not open may be the one; "permission denied" says what to fix). One
/// scan for both APIs (v2 has no lookup by label; v1's gpiod_chip_open_by_label sorts the names
/// with scandir and qsort first, ~3 KB of the static programs, where a board has one to three chips).
static inline struct gpiod_chip *loaderd_gpio_open_by_label(const char *label) {
    DIR *dir = opendir("/dev");
    if (!dir) { errno = ENOENT; return NULL; }
    char path[300] = "/dev/";
    int failure = ENOENT;
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (strncmp(e->d_name, "gpiochip", 8) != 0) continue;
        loaderd_gpio_copy(path + 5, sizeof path - 5, e->d_name);
        struct gpiod_chip *candidate = gpiod_chip_open(path);
        if (!candidate) {
            if (failure == ENOENT && errno != ENOENT) failure = errno;
            continue;
        }
        if (loaderd_gpio_label_is(candidate, label)) { closedir(dir); return candidate; }
        gpiod_chip_close(candidate);
    }
    closedir(dir);
    errno = failure;
    return NULL;
}

#if LOADERD_GPIOD_API == 1

/// The library's version, e.g. "1.6.3".
static inline const char *loaderd_gpiod_version(void) { return gpiod_version_string(); }

struct loaderd_gpio_lines {
    struct gpiod_chip *chip;
    struct gpiod_line_bulk bulk;
};

static inline int loaderd_gpio_label_is(struct gpiod_chip *chip, const char *label) {
    const char *own = gpiod_chip_label(chip);
    return own && strcmp(own, label) == 0;
}

/// Opens `chip` given as a path (`/dev/gpiochip0`), a name (`gpiochip0`), a number (`0`) or a
/// label (`pinctrl-bcm2711`): a path, name or number as gpiod_chip_open_lookup reads them, and
/// the label tried when no chip has the name, so that errors come from the best guess.
static inline struct gpiod_chip *loaderd_gpio_open_chip(const char *chip) {
    if (chip[0] == '/') return gpiod_chip_open(chip);
    if (loaderd_gpio_is_number(chip)) return gpiod_chip_open_by_number(loaderd_gpio_number(chip));
    struct gpiod_chip *c = gpiod_chip_open_by_name(chip);
    if (c || errno != ENOENT) return c;
    return loaderd_gpio_open_by_label(chip);
}

/// Opens `chip`, gets lines `offsets[0..<count]` and requests them together as outputs with
/// consumer `consumer` and initial values `initial` (one bulk request). NULL on failure, with
/// `failure` filled. Release with `loaderd_gpio_release` (lines released, chip closed).
static inline struct loaderd_gpio_lines *
loaderd_gpio_request_output(const char *chip, const unsigned int *offsets, unsigned int count,
                            const char *consumer, const int *initial, struct loaderd_gpio_failure *failure) {
    memset(failure, 0, sizeof *failure);
    if (count == 0 || count > LOADERD_GPIO_MAX_LINES) {
        failure->step = LOADERD_GPIO_STEP_ARGUMENTS; failure->error = EINVAL; return NULL;
    }
    struct loaderd_gpio_lines *h = calloc(1, sizeof *h);
    if (!h) { failure->step = LOADERD_GPIO_STEP_ARGUMENTS; failure->error = ENOMEM; return NULL; }
    errno = 0;
    h->chip = loaderd_gpio_open_chip(chip);
    if (!h->chip) {
        failure->step = LOADERD_GPIO_STEP_OPEN_CHIP; failure->error = errno ? errno : ENOENT;
        free(h); return NULL;
    }
    loaderd_gpio_copy(failure->chip_name, sizeof failure->chip_name, gpiod_chip_name(h->chip));
    loaderd_gpio_copy(failure->chip_label, sizeof failure->chip_label, gpiod_chip_label(h->chip));
    failure->num_lines = gpiod_chip_num_lines(h->chip);
    for (unsigned int i = 0; i < count; i++) {
        if (offsets[i] >= failure->num_lines) {
            failure->step = LOADERD_GPIO_STEP_GET_LINE; failure->error = EINVAL; failure->offset = offsets[i];
            gpiod_chip_close(h->chip); free(h); return NULL;
        }
    }
    gpiod_line_bulk_init(&h->bulk);
    if (gpiod_chip_get_lines(h->chip, (unsigned int *)offsets, count, &h->bulk) != 0) {
        failure->step = LOADERD_GPIO_STEP_GET_LINE; failure->error = errno; failure->offset = offsets[0];
        gpiod_chip_close(h->chip); free(h); return NULL;
    }
    if (gpiod_line_request_bulk_output(&h->bulk, consumer, initial) != 0) {
        failure->step = LOADERD_GPIO_STEP_REQUEST; failure->error = errno;
        for (unsigned int i = 0; i < count; i++) {
            struct gpiod_line *line = gpiod_line_bulk_get_line(&h->bulk, i);
            gpiod_line_update(line);
            if (gpiod_line_is_used(line)) {
                failure->offset = offsets[i];
                loaderd_gpio_copy(failure->consumer, sizeof failure->consumer, gpiod_line_consumer(line));
                break;
            }
        }
        gpiod_chip_close(h->chip); free(h); return NULL;
    }
    return h;
}

/// Sets every requested line at once (one GPIO_V2_LINE_SET_VALUES / GPIOHANDLE_SET_LINE_VALUES
/// ioctl). 0, or -1 with errno.
static inline int loaderd_gpio_set_values(struct loaderd_gpio_lines *h, const int *values) {
    return gpiod_line_set_value_bulk(&h->bulk, values);
}

/// Releases the lines and closes the chip (safe on NULL).
static inline void loaderd_gpio_release(struct loaderd_gpio_lines *h) {
    if (!h) return;
    gpiod_line_release_bulk(&h->bulk);
    gpiod_chip_close(h->chip);
    free(h);
}

#else // libgpiod 2.x

static inline const char *loaderd_gpiod_version(void) { return gpiod_api_version(); }

struct loaderd_gpio_lines {
    struct gpiod_chip *chip;
    struct gpiod_line_request *request;
    unsigned int count;
    enum gpiod_line_value values[LOADERD_GPIO_MAX_LINES];
};

static inline int loaderd_gpio_label_is(struct gpiod_chip *chip, const char *label) {
    struct gpiod_chip_info *info = gpiod_chip_get_info(chip);
    int match = info && strcmp(gpiod_chip_info_get_label(info), label) == 0;
    if (info) gpiod_chip_info_free(info);
    return match;
}

static inline struct gpiod_chip *loaderd_gpio_open_chip(const char *chip) {
    char path[300];
    if (chip[0] == '/') return gpiod_chip_open(chip);
    if (loaderd_gpio_is_number(chip)) { snprintf(path, sizeof path, "/dev/gpiochip%s", chip); return gpiod_chip_open(path); }
    snprintf(path, sizeof path, "/dev/%s", chip);
    struct gpiod_chip *c = gpiod_chip_open(path);
    if (c || errno != ENOENT) return c;
    return loaderd_gpio_open_by_label(chip);
}

static inline struct loaderd_gpio_lines *
loaderd_gpio_request_output(const char *chip, const unsigned int *offsets, unsigned int count,
                            const char *consumer, const int *initial, struct loaderd_gpio_failure *failure) {
    memset(failure, 0, sizeof *failure);
    if (count == 0 || count > LOADERD_GPIO_MAX_LINES) {
        failure->step = LOADERD_GPIO_STEP_ARGUMENTS; failure->error = EINVAL; return NULL;
    }
    struct loaderd_gpio_lines *h = calloc(1, sizeof *h);
    if (!h) { failure->step = LOADERD_GPIO_STEP_ARGUMENTS; failure->error = ENOMEM; return NULL; }
    h->count = count;
    errno = 0;
    h->chip = loaderd_gpio_open_chip(chip);
    if (!h->chip) {
        failure->step = LOADERD_GPIO_STEP_OPEN_CHIP; failure->error = errno ? errno : ENOENT;
        free(h); return NULL;
    }
    struct gpiod_chip_info *info = gpiod_chip_get_info(h->chip);
    if (info) {
        loaderd_gpio_copy(failure->chip_name, sizeof failure->chip_name, gpiod_chip_info_get_name(info));
        loaderd_gpio_copy(failure->chip_label, sizeof failure->chip_label, gpiod_chip_info_get_label(info));
        failure->num_lines = (unsigned int)gpiod_chip_info_get_num_lines(info);
        gpiod_chip_info_free(info);
    }
    for (unsigned int i = 0; i < count; i++) {
        if (offsets[i] >= failure->num_lines) {
            failure->step = LOADERD_GPIO_STEP_GET_LINE; failure->error = EINVAL; failure->offset = offsets[i];
            gpiod_chip_close(h->chip); free(h); return NULL;
        }
    }
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    struct gpiod_line_config *config = gpiod_line_config_new();
    struct gpiod_request_config *request_config = gpiod_request_config_new();
    int ok = settings && config && request_config;
    if (ok) {
        gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT);
        gpiod_request_config_set_consumer(request_config, consumer);
        for (unsigned int i = 0; i < count && ok; i++) {
            gpiod_line_settings_set_output_value(settings, initial[i] ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
            ok = gpiod_line_config_add_line_settings(config, &offsets[i], 1, settings) == 0;
        }
    }
    if (ok) h->request = gpiod_chip_request_lines(h->chip, request_config, config);
    int error = errno;
    if (request_config) gpiod_request_config_free(request_config);
    if (config) gpiod_line_config_free(config);
    if (settings) gpiod_line_settings_free(settings);
    if (!ok || !h->request) {
        failure->step = LOADERD_GPIO_STEP_REQUEST; failure->error = error ? error : ENOMEM;
        for (unsigned int i = 0; i < count; i++) {
            struct gpiod_line_info *line = gpiod_chip_get_line_info(h->chip, offsets[i]);
            if (!line) continue;
            int used = gpiod_line_info_is_used(line);
            if (used) {
                failure->offset = offsets[i];
                loaderd_gpio_copy(failure->consumer, sizeof failure->consumer, gpiod_line_info_get_consumer(line));
            }
            gpiod_line_info_free(line);
            if (used) break;
        }
        gpiod_chip_close(h->chip); free(h); return NULL;
    }
    return h;
}

static inline int loaderd_gpio_set_values(struct loaderd_gpio_lines *h, const int *values) {
    for (unsigned int i = 0; i < h->count; i++) h->values[i] = values[i] ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE;
    return gpiod_line_request_set_values(h->request, h->values);
}

static inline void loaderd_gpio_release(struct loaderd_gpio_lines *h) {
    if (!h) return;
    gpiod_line_request_release(h->request);
    gpiod_chip_close(h->chip);
    free(h);
}

#endif
#endif
