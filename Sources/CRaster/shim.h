// librsvg (with Cairo) draws a frame's SVG; giflib writes animated GIFs. Debian:
// librsvg2-dev (pkg-config librsvg-2.0, which brings cairo) and libgif-dev.
#include <librsvg/rsvg.h>
#include <cairo.h>
#include <gif_lib.h>
