// Embedded Swift's `Double(String)` calls this hook, which the full runtime implements and the
// Embedded one leaves to the program. Only the Embedded build compiles this file
// (scripts/cross-build); ordinary Swift has its own.
#include <locale.h>
#include <stdlib.h>

const char *_swift_stdlib_strtod_clocale(const char *nptr, double *outResult) {
    // The daemon never changes its locale from "C", so strtod parses with a '.' as ordinary Swift does.
    char *end = 0;
    *outResult = strtod(nptr, &end);
    return end;
}
