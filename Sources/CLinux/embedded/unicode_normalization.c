// The three lookups behind Unicode normalization, for the static build only, answering "nothing
// to normalize" for every scalar. The Embedded standard library compares and hashes a non-ASCII
// String through its NFC form, and its tables for that (libswiftUnicodeDataTables' decomposition,
// composition and combining-class data) are 22.7 KB of every static loaderd. The daemon compares
// only names and keywords, which are ASCII by definition (loaders, displays, config keys,
// commands, boot modes); text it shows (messages) is drawn, never compared. With these answers a
// String equals another when its scalars are the same (as C's strcmp would say), "e" + U+0301
// no longer equals "é", and hashing agrees with equality, so dictionaries keyed by text stay
// correct (conjoining Hangul jamo no longer equal the syllable they spell, either).
// Grapheme breaking, which the message line uses, keeps its own tables. Tests/CrossFrames checks
// the shipped behaviour on every target; ordinary Swift (the host build) keeps full Unicode.
#include <stdint.h>

uint16_t _swift_stdlib_getNormData(uint32_t scalar);
uint32_t _swift_stdlib_getDecompositionEntry(uint32_t scalar);
uint32_t _swift_stdlib_getComposition(uint32_t x, uint32_t y);
extern const uint8_t *const _swift_stdlib_nfd_decompositions;

// The decompositions' strings, which the standard library reads only for an entry that matched
// (none does): one empty string.
static const uint8_t no_decompositions[1] = {0};
const uint8_t *const _swift_stdlib_nfd_decompositions = no_decompositions;

// Combining class 0, NFC and NFD quick checks "yes": every scalar is its own normal form.
uint16_t _swift_stdlib_getNormData(uint32_t scalar) {
    (void)scalar;
    return 0;
}

// No decomposition: an entry whose scalar (its low 18 bits) never matches the one asked about,
// which is only ever a scalar from U+00C0 up.
uint32_t _swift_stdlib_getDecompositionEntry(uint32_t scalar) {
    (void)scalar;
    return 0;
}

// No primary composite for any pair.
uint32_t _swift_stdlib_getComposition(uint32_t x, uint32_t y) {
    (void)x; (void)y;
    return UINT32_MAX;
}
