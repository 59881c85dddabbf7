#ifndef LOADERD_CLINUX_H
#define LOADERD_CLINUX_H
// Small C shim for what Swift cannot reach directly: ioctl request numbers built by macros and
// kernel structs. Every symbol is prefixed `loaderd_` and each has a comment saying why it exists.
#include "CLinuxSPI.h"
#endif
