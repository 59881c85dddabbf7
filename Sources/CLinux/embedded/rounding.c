// The four C-library math functions the Embedded board binaries still call, so that they need no
// libm: `ceil` (the standard library sizing a Dictionary's table), `round` and `trunc` (Swift's
// `rounded()` on the few Doubles of the configuration and the clock) and `sqrt` (`squareRoot()` in
// the catalog's set-up). Loading libm.so.6 for them cost a library mapping at every start and
// ~380 KB of resident pages (docs/PERFORMANCE.md). Each is exact: the result is an integer or a
// correctly rounded square root, so it equals libm's for every input. Only the Embedded build
// compiles this file (scripts/cross-build); ordinary Swift links libm.
#include <stdint.h>

// 2^52: from here on every double is an integer (and NaN and the infinities pass through).
#define LOADERD_INTEGRAL_FROM 4503599627370496.0

double trunc(double x) {
    if (!(x > -LOADERD_INTEGRAL_FROM && x < LOADERD_INTEGRAL_FROM)) return x;
    double t = (double)(int64_t)x;
    // The conversion loses the sign of a zero (-0.5 and -0.0 both give 0); the C function keeps it.
    return t == 0 ? __builtin_copysign(0.0, x) : t;
}

double ceil(double x) {
    double t = trunc(x);
    return t < x ? t + 1 : t;
}

double round(double x) {
    double t = trunc(x);
    // x - t is exact here (|x| < 2^52, t the integer part of x): halfway cases go away from zero.
    double fraction = x - t;
    if (fraction >= 0.5) return t + 1;
    if (fraction <= -0.5) return t - 1;
    return t;
}

// Compiled with -fno-math-errno (scripts/cross-build), the builtin is the processor's square root
// instruction (sqrtsd, fsqrt, vsqrt.f64), not a call back into this function.
double sqrt(double x) { return __builtin_sqrt(x); }
