// The static programs' side of loaderd-media (media_client.c): the FreeType and libpng shims of the
// static build (freetype_remote.c, png_remote.c) ask their questions through it.
#ifndef LOADERD_MEDIA_CLIENT_H
#define LOADERD_MEDIA_CLIENT_H
#include <stddef.h>

#include "loaderd_media_frame.h"

/// Sends one request frame (built with loaderd_media_frame.h) and waits for the answer's frame
/// (its length removed) into `*reply` (free it). 0, or -1 with loaderd_media_problem() saying why.
/// `for_generation`: 0 for a question that needs nothing an earlier helper held (it may then be
/// asked again of a new helper when the old one had exited for want of work); else the
/// generation (loaderd_media_generation) of the helper that holds the face or image it names,
/// and it fails at once when that helper is gone.
int loaderd_media_ask(const unsigned char *request, size_t count, unsigned for_generation,
                      unsigned char **reply, size_t *reply_count);

/// loaderd_media_ask for a frame being built: finishes and frees `request`, and on success points
/// `reply` at the answer (free `*owned` when done with it). 0, or -1.
int loaderd_media_call(media_frame *request, unsigned for_generation, media_reader *reply, unsigned char **owned);

/// Which helper answers now (it counts from 1), or 0 with none running: a face or image opened
/// by one is asked for with its number.
unsigned loaderd_media_generation(void);

/// What went wrong with the helper itself (not found, could not start, stopped answering), as a
/// sentence; NULL while none has failed since the last helper started.
const char *loaderd_media_problem(void);

#endif
