#!/usr/bin/env python3
"""What is on the guest's screen, from a QMP `screendump` PPM (stdlib only; used by boot-test-vm.py).

A frame is one of:
  black   nearly every pixel black (a console being set up, a blank VT, a splash not yet drawn)
  text    anything else without a progress bar: the VGA text mode of the BIOS, the kernel
          console (fbcon) and the login prompt. These use only the 16 VGA palette colours.
  splash  a capsule (loaderd's bar and track: a long horizontal shape with rounded ends),
          whatever its colours (a full white bar on black is palette colours only)
  other   such colours without a capsule: the firmware's logo, another splash
For a splash, `progress` is the bar's fill in percent: along the bar's middle row (the longest
horizontal run of non-background pixels), the share of
pixels that have the fill colour. The fill is the brighter of the bar's two colours (the shipped
`bar` loader: white on a 35 % white track); a bar of one colour is full when it is bright.

Run as `boot-test-screen.py FILE.ppm` to print the classification of one screenshot.
"""
import hashlib, struct, sys, zlib

# The kernel console's 16 colours (components 0x00, 0x55, 0xAA, 0xFF; brown is AA5500) and the same
# through the VGA DAC's 6 bits, as qemu draws the BIOS's text mode (0x00, 0x54, 0xA8, 0xFC).
PALETTE = {bytes((r, g, b)) for levels in ((0x00, 0x55, 0xAA, 0xFF), (0x00, 0x54, 0xA8, 0xFC))
           for r in levels for g in levels for b in levels}


def read_ppm(path):
    """(width, height, RGB bytes) of a binary PPM (P6, maxval 255) as qemu writes it."""
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P6" or fields[3] != b"255":
        raise ValueError(f"{path}: not an 8-bit P6 PPM")
    w, h = int(fields[1]), int(fields[2])
    pixels = data[pos + 1:pos + 1 + w * h * 3]
    if len(pixels) != w * h * 3:
        raise ValueError(f"{path}: short PPM")
    return w, h, pixels


def write_png(img, path):
    w, h, px = img
    raw = b"".join(b"\0" + px[y * w * 3:(y + 1) * w * 3] for y in range(h))
    chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))


def luma(c):
    return c[0] * 3 + c[1] * 6 + c[2]  # 0..2550


def find_bar(img, background, rows):
    """(y, x0, x1): the longest horizontal run of non-background pixels on the given rows, at
    least 4 % of the width; None when there is none. A capsule's longest run is its middle row;
    text has only short runs."""
    w, h, px = img
    best = None
    for y in rows:
        row = px[y * w * 3:(y + 1) * w * 3]
        x = 0
        while x < w:
            if row[x * 3:x * 3 + 3] == background:
                x += 1
                continue
            start = x
            while x < w and row[x * 3:x * 3 + 3] != background:
                x += 1
            if x - start >= max(8, w // 25) and (best is None or x - start > best[2] - best[1]):
                best = (y, start, x)
    return best


def is_capsule(img, bar, background):
    """Whether the shape around the run is a capsule (rounded ends: near its ends it holds much
    less ink than in the middle), which a firmware logo's box or a picture is not. Ink, not
    height: at a small size the anti-aliased end of a capsule covers nearly as many rows as its
    middle, only faintly (the shipped bar at scale 2 is 8 canvas rows high)."""
    w, h, px = img
    y, x0, x1 = bar

    def column(x):
        rows, ink = 0, 0
        for dy in (-1, 1):
            yy = y if dy < 0 else y + 1
            while 0 <= yy < h and px[(yy * w + x) * 3:(yy * w + x) * 3 + 3] != background:
                c = px[(yy * w + x) * 3:(yy * w + x) * 3 + 3]
                rows += 1
                ink += abs(luma(c) - luma(background))
                yy += dy
        return rows, ink
    middle_rows, _ = column((x0 + x1) // 2)
    if middle_rows < 3:
        return False
    # Thinner at the ends (a large capsule), or fainter at an end than one bar height further in,
    # past the rounding, where the colour is the same (the fill or the track).
    if max(column(x0)[0], column(x1 - 1)[0]) <= middle_rows * 0.7:
        return True
    inside = min(middle_rows, (x1 - x0) // 4)
    return (column(x0)[1] <= column(x0 + inside)[1] * 0.7
            or column(x1 - 1)[1] <= column(x1 - 1 - inside)[1] * 0.7)


def bar_progress(img, bar, background):
    w, h, px = img
    y, x0, x1 = bar
    row = px[y * w * 3:(y + 1) * w * 3]
    counts = {}
    for x in range(x0, x1):
        c = row[x * 3:x * 3 + 3]
        counts[c] = counts.get(c, 0) + 1
    main = sorted((n, c) for c, n in counts.items() if n >= (x1 - x0) * 0.03)
    colours = [c for _, c in main[-2:]]
    if not colours:
        return None
    if len(colours) == 1:
        return 100.0 if luma(colours[0]) >= 1600 else 0.0
    fill = max(colours, key=luma)
    # Pixels nearer the fill than the track count as fill (the anti-aliased edge splits).
    other = min(colours, key=luma)
    mid = (luma(fill) + luma(other)) / 2
    n = sum(1 for x in range(x0, x1) if luma(row[x * 3:x * 3 + 3]) >= mid)
    return 100.0 * n / (x1 - x0)


def classify(img):
    w, h, px = img
    # A 1-in-4 sample in each direction is enough for the colour statistics.
    counts = {}
    for y in range(0, h, 4):
        row = px[y * w * 3:(y + 1) * w * 3]
        for x in range(0, w * 3, 12):
            c = row[x:x + 3]
            counts[c] = counts.get(c, 0) + 1
    total = sum(counts.values())
    background = max(counts, key=counts.get)
    dark = sum(n for c, n in counts.items() if max(c) < 16)
    digest = hashlib.md5(px).hexdigest()[:12]
    info = {"class": "text", "progress": None, "digest": digest, "size": (w, h)}
    if dark >= total * 0.998:
        info["class"] = "black"
        return info
    off_palette = sum(n for c, n in counts.items() if c not in PALETTE)
    # Palette colours only is text, unless it is a capsule: the bar at 100 % is white on black,
    # both palette colours, with too few anti-aliased edge pixels to tell it by its colours.
    info["class"] = "other" if off_palette >= total * 0.002 else "text"
    # The bar: rows where the sample saw much that is not background (pure Python walking every
    # pixel of every row would take longer than the interval between screenshots).
    rows = []
    for y in range(0, h, 4):
        row = px[y * w * 3:(y + 1) * w * 3]
        if sum(1 for x in range(0, w * 3, 12) if row[x:x + 3] != background) >= w // 100:
            rows.append(y)
    # The sample's rows can miss a thin bar's middle row (at scale 2 the shipped bar is 16 rows
    # high): look at every row near them, so the longest run found is the middle one.
    rows = sorted({y + d for y in rows for d in range(-3, 4) if 0 <= y + d < h})
    bar = find_bar(img, background, rows)
    if bar and is_capsule(img, bar, background):
        info["class"] = "splash"
        info["progress"] = bar_progress(img, bar, background)
    return info


if __name__ == "__main__":
    for path in sys.argv[1:]:
        print(path, classify(read_ppm(path)))
