// The static programs' side of loaderd-media (media_client.c): the FreeType and libpng shims of the
// static build (freetype_remote.c, png_remote.c) ask their questions through it.
#ifndef LOADERD_MEDIA_CLIENT_H
#define LOADERD_MEDIA_CLIENT_H
#include <stddef.h>

#include "loaderd_media_frame.h"

/// Sends one request frame (built with loaderd_media_frame.h) and waits for the answer's frame
/// (its length removed) into `*reply` (free it). 0, or -1 with loaderd_media_problem() saying why.
/// `restartable`: the request needs nothing an earlier helper held (no face or image handle), so
/// it may be asked again of a new helper when the old one had exited for want of work.
int loaderd_media_ask(const unsigned char *request, size_t count, int restartable,
                      unsigned char **reply, size_t *reply_count);

/// loaderd_media_ask for a frame being built: finishes and frees `request`, and on success points
/// `reply` at the answer (free `*owned` when done with it). 0, or -1.
int loaderd_media_call(media_frame *request, int restartable, media_reader *reply, unsigned char **owned);

/// What went wrong with the helper itself (not found, could not start, stopped answering), as a
/// sentence; NULL when it last answered.
const char *loaderd_media_problem(void);

#endif
