"""The MAX7219 peer: the LinkedIn frame on a 64x8 MAX7219 chain driven by luma.led_matrix, for
instruction counts and time beside loaderd's (scripts/peer-luma.sh, docs/PERFORMANCE.md).

    python3 luma-linkedin.py MODULES FRAMES [--dump T]

Draws one warm-up frame, then FRAMES frames 1/60 s apart, as Benchmarks/Tools/FrameCost does for
`max7219:linkedin`: the monochrome design (track unlit, the half-width fill lit, clipped to the
track's rounded rectangle), its centre sweeping on cubic-bezier(0.6, 0, 0.4, 1) over 0.85 s and
back, in loaderd's layout for a bar on a strip (the whole chain, corner radius half its height).
Each frame is drawn with PIL on one 1-bit image kept for the run and handed to luma's `max7219`
device, whose serial interface is luma's `noop` (the bytes are built and handed over, not sent).
Kept deliberately cheap, so that the ratio is not flattered: one image and one ImageDraw for the
whole run rather than luma's per-frame `canvas()`, the clip as an intersection worked out by hand,
and the timing curve by six Newton steps rather than cairo-linkedin.c's bisection.
Prints the time per frame (CLOCK_MONOTONIC) and a checksum; `--dump T` prints the frame at T
microseconds as rows of '#' and '.' instead.
"""
import sys
import time

from luma.core.interface.serial import noop
from luma.led_matrix.device import max7219
from PIL import Image, ImageDraw


def bezier(x1, y1, x2, y2, x):
    """y of cubic-bezier(x1, y1, x2, y2) at x, by Newton's method on the curve's parameter."""
    t = x
    for _ in range(6):
        u = 1 - t
        bx = 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t
        dx = 3 * u * u * x1 + 6 * u * t * (x2 - x1) + 3 * t * t * (1 - x2)
        if dx == 0:
            break
        t = min(1.0, max(0.0, t - (bx - x) / dx))
    u = 1 - t
    return 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t


def main():
    if len(sys.argv) not in (3, 5):
        sys.exit("usage: luma-linkedin.py MODULES FRAMES [--dump T]")
    modules, frames = int(sys.argv[1]), int(sys.argv[2])
    dump = int(sys.argv[4]) if len(sys.argv) == 5 else None
    device = max7219(noop(), cascaded=modules)
    width, height = device.width, device.height
    # loaderd's layout for a bar on a strip (Layout.stretch, as cairo-linkedin.c): the whole
    # chain, the corner radius 5 design units of a height of 10.
    ax, ay, w, h = 0, 0, width, height
    radius = round(5 * h / 10)

    image = Image.new(device.mode, device.size)
    draw = ImageDraw.Draw(image)

    def frame(t):
        d = 850000
        c = t % (2 * d)
        fraction = bezier(0.6, 0, 0.4, 1, c / d if c <= d else (2 * d - c) / d)
        centre, half = ax + w * fraction, w / 2
        left, right = max(ax, round(centre - half / 2)), min(ax + w, round(centre + half / 2))
        draw.rectangle((0, 0, width - 1, height - 1), fill=0)
        if right - left >= 1:
            r = min(radius, (right - left) // 2)
            draw.rounded_rectangle((left, ay, right - 1, ay + h - 1), radius=r, fill=1)
        device.display(image)

    if dump is not None:
        frame(dump)
        for y in range(height):
            print("".join("#" if image.getpixel((x, y)) else "." for x in range(width)))
        return
    checksum = 0
    frame(0)
    start = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
    for i in range(frames):
        frame(i * 16667)
        checksum += image.getpixel(((i * 7) % width, height // 2))
    elapsed = time.clock_gettime_ns(time.CLOCK_MONOTONIC) - start
    per = elapsed // frames if frames else 0
    print(f"luma {width}x{height} {frames} frames, {per} ns/frame, checksum {checksum}")


main()
