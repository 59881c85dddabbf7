// The two formatting calls libgpiod 1.6 makes (a device path from a chip's name or number, a
// "major:minor" to compare with sysfs), for the static build only. musl's snprintf and asprintf
// bring its whole printf engine, floating point included: ~11 KB of every static loaderd and
// loaderctl for five format strings made of "%s" and "%u". scripts/cross-build-libraries compiles
// libgpiod with snprintf and asprintf renamed to these; Tests/StaticLibc checks them against
// musl's own. Any other conversion is refused (-1, EINVAL), never guessed.
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int loaderd_gpiod_snprintf(char *out, size_t size, const char *format, ...);
int loaderd_gpiod_asprintf(char **out, const char *format, ...);

// Formats into out (at most size bytes, always terminated when size > 0); returns the length of
// the whole result, as snprintf does, or -1 for a conversion other than %s, %u and %%.
static int format_into(char *out, size_t size, const char *format, va_list arguments) {
    size_t length = 0;
    for (const char *f = format; *f; f++) {
        char digits[12];
        const char *piece = f;
        size_t count = 1;
        if (*f == '%') {
            f++;
            if (*f == 's') {
                piece = va_arg(arguments, const char *);
                count = strlen(piece);
            } else if (*f == 'u') {
                unsigned value = va_arg(arguments, unsigned);
                char *end = digits + sizeof digits, *p = end;
                do { *--p = (char)('0' + value % 10); value /= 10; } while (value);
                piece = p;
                count = (size_t)(end - p);
            } else if (*f != '%') {
                errno = EINVAL;
                return -1;
            }
        }
        for (size_t i = 0; i < count; i++, length++)
            if (length + 1 < size) out[length] = piece[i];
    }
    if (size > 0) out[length < size ? length : size - 1] = 0;
    return (int)length;
}

int loaderd_gpiod_snprintf(char *out, size_t size, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    int length = format_into(out, size, format, arguments);
    va_end(arguments);
    return length;
}

int loaderd_gpiod_asprintf(char **out, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    int length = format_into(NULL, 0, format, arguments);
    va_end(arguments);
    if (length < 0) return -1;
    char *text = malloc((size_t)length + 1);
    if (!text) return -1;
    va_start(arguments, format);
    format_into(text, (size_t)length + 1, format, arguments);
    va_end(arguments);
    *out = text;
    return length;
}
