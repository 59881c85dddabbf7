// The static loaderd-media (the ARMv6 build, scripts/cross-build): FreeType and libpng are linked
// in, not loaded. The FreeType shim (Sources/CFreeType/freetype_dlopen.c), compiled with
// LOADERD_MEDIA_LINKED, asks these functions instead of dlopen and dlsym, and they answer from a
// table of the linked functions it uses; libpng's are called directly.
#include <stddef.h>
#include <string.h>
#include <ft2build.h>
#include FT_FREETYPE_H

void *loaderd_linked_dlopen(const char *file, int mode);
void *loaderd_linked_dlsym(void *library, const char *name);
int loaderd_linked_dlclose(void *library);
int loaderd_png_available(void);

static const struct { const char *name; void (*function)(void); } freetype[] = {
    {"FT_Init_FreeType", (void (*)(void))FT_Init_FreeType},
    {"FT_New_Face", (void (*)(void))FT_New_Face},
    {"FT_Set_Pixel_Sizes", (void (*)(void))FT_Set_Pixel_Sizes},
    {"FT_Done_Face", (void (*)(void))FT_Done_Face},
    {"FT_Done_FreeType", (void (*)(void))FT_Done_FreeType},
    {"FT_Get_Char_Index", (void (*)(void))FT_Get_Char_Index},
    {"FT_Load_Glyph", (void (*)(void))FT_Load_Glyph},
    {"FT_Get_Kerning", (void (*)(void))FT_Get_Kerning},
};

static char linked;  // the one "library": its address is the handle

void *loaderd_linked_dlopen(const char *file, int mode) {
    (void)file; (void)mode;
    return &linked;
}

void *loaderd_linked_dlsym(void *library, const char *name) {
    if (library != &linked) return NULL;
    for (size_t i = 0; i < sizeof freetype / sizeof freetype[0]; i++)
        if (strcmp(freetype[i].name, name) == 0) return (void *)freetype[i].function;
    return NULL;
}

int loaderd_linked_dlclose(void *library) { return library == &linked ? 0 : -1; }

int loaderd_png_available(void) { return 1; }
