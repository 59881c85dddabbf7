// Reference counting as calls, for the static builds (scripts/cross-build compiles their board code
// with -assume-single-threaded).
//
// The Embedded Swift standard library brings its runtime as Swift code that every module compiles
// into itself, and the optimiser inlines swift_retain and swift_release (on ARM a load-exclusive /
// store-exclusive loop, the immortal check, the path to deinit) into each use. With
// -assume-single-threaded the compiler asks for the swift_nonatomic_* entry points instead, which
// the Embedded library does not define, so each use stays a call; defined here, outside the
// optimised Swift, they go on to the atomic functions. Only where the code is changes: the counts
// are still updated atomically, so the program stays correct even if it ever used a thread.
// (docs/PERFORMANCE.md, "Reference counting as calls on ARM".)
#include <stdint.h>

void *swift_retain(void *object);
void swift_release(void *object);
void *swift_retain_n(void *object, uint32_t n);
void swift_release_n(void *object, uint32_t n);
void *swift_bridgeObjectRetain(void *object);
void swift_bridgeObjectRelease(void *object);
void *swift_bridgeObjectRetain_n(void *object, int n);
void swift_bridgeObjectRelease_n(void *object, int n);

void *swift_nonatomic_retain(void *object) { return swift_retain(object); }
void swift_nonatomic_release(void *object) { swift_release(object); }
void *swift_nonatomic_retain_n(void *object, uint32_t n) { return swift_retain_n(object, n); }
void swift_nonatomic_release_n(void *object, uint32_t n) { swift_release_n(object, n); }
void *swift_nonatomic_bridgeObjectRetain(void *object) { return swift_bridgeObjectRetain(object); }
void swift_nonatomic_bridgeObjectRelease(void *object) { swift_bridgeObjectRelease(object); }
void *swift_nonatomic_bridgeObjectRetain_n(void *object, int n) { return swift_bridgeObjectRetain_n(object, n); }
void swift_nonatomic_bridgeObjectRelease_n(void *object, int n) { swift_bridgeObjectRelease_n(object, n); }
