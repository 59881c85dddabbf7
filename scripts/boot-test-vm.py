#!/usr/bin/env python3
"""One boot of the boot-test guest under qemu, recorded (stdlib only; called by scripts/boot-test).

While the guest boots, QMP `screendump` takes a screenshot every --interval seconds; each is
classified at once (scripts/boot-test-screen.py) and only a summary line per frame plus a few PNGs
are kept, so a boot costs a few MB instead of hundreds. The serial console (autologin root on
ttyS0, set up by scripts/boot-test) waits for the boot to finish, then runs the commands of
--commands, each between @@@BEGIN/@@@END markers, and powers the guest off.

Writes to --out: frames.tsv (host seconds since qemu start, class, progress, digest), serial.log,
cmd-NAME.txt per command, shoot-NAME.ppm per "shoot-NAME" line of --commands (a screendump at
that moment), clock.txt (host time at which the guest's /proc/uptime was read, so
frames can be put on the guest's clock), first-splash.png, last.png, and a PNG per class change.
"""
import argparse, json, os, socket, subprocess, sys, threading, time

sys.dont_write_bytecode = True  # no __pycache__ left in scripts/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
screen = __import__("boot-test-screen")


class Serial:
    """The guest's ttyS0 over qemu's stdio: a reader thread keeps everything in a buffer."""

    def __init__(self, proc, log):
        self.proc, self.log, self.buf, self.lock = proc, log, b"", threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            data = os.read(self.proc.stdout.fileno(), 65536)
            if not data:
                return
            self.log.write(data)
            self.log.flush()
            with self.lock:
                self.buf += data

    def wait_for(self, needle, timeout, start=0):
        """Index just past `needle` in the output (searched from `start`), or None on timeout."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                i = self.buf.find(needle, start)
            if i >= 0:
                return i + len(needle)
            if self.proc.poll() is not None:
                return None
            time.sleep(0.05)
        return None

    def send(self, line):
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def run(self, name, command, timeout):
        """Runs `command` in the guest's shell; returns its output (without the markers)."""
        # printf builds the markers, so the echoed command line never matches them.
        with self.lock:
            start = len(self.buf)
        self.send(f"printf '@@@%s\\n' BEGIN-{name}; {command}; printf '@@@%s rc=%s\\n' END-{name} $?")
        b = self.wait_for(f"@@@BEGIN-{name}\r\n".encode(), timeout, start) or self.wait_for(f"@@@BEGIN-{name}\n".encode(), 1, start)
        if b is None:
            return None
        e = self.wait_for(f"@@@END-{name}".encode(), timeout, b)
        if e is None:
            return None
        with self.lock:
            return self.buf[b:e - len(f"@@@END-{name}")].decode(errors="replace").replace("\r\n", "\n")


class Shooter:
    """Screenshots over QMP every `interval` seconds until stopped."""

    def __init__(self, path, out, interval, t0):
        self.out, self.interval, self.t0 = out, interval, t0
        self.stop = threading.Event()
        self.rows, self.last_class, self.saved_splash, self.saved_at = [], None, False, 0.0
        self.dump = f"/dev/shm/boot-test-{os.getpid()}.ppm"
        self.lock = threading.Lock()  # the periodic loop and shoot() share the QMP connection
        for _ in range(100):
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(path)
                break
            except OSError:
                time.sleep(0.05)
        self.f = self.sock.makefile("rwb")
        self._read()  # greeting
        self._cmd({"execute": "qmp_capabilities"})
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _read(self):
        while True:
            line = self.f.readline()
            if not line:
                raise EOFError
            msg = json.loads(line)
            if "event" not in msg:
                return msg

    def _cmd(self, obj):
        with self.lock:
            self.f.write(json.dumps(obj).encode() + b"\n")
            self.f.flush()
            return self._read()

    def shoot(self, path):
        """One screendump kept whole (PPM) at `path`, between the periodic ones."""
        try:
            return "return" in self._cmd({"execute": "screendump", "arguments": {"filename": path}})
        except (OSError, EOFError, ValueError):
            return False

    def _loop(self):
        next_t = time.monotonic()
        while not self.stop.is_set():
            t = time.monotonic() - self.t0
            try:
                reply = self._cmd({"execute": "screendump", "arguments": {"filename": self.dump}})
            except (OSError, EOFError, ValueError):
                return  # qemu has gone
            if "return" in reply:
                self._frame(t)
            next_t += self.interval
            self.stop.wait(max(0.0, next_t - time.monotonic()))

    def _frame(self, t):
        try:
            img = screen.read_ppm(self.dump)
        except (OSError, ValueError):
            return
        info = screen.classify(img)
        row = (t, info["class"], info["progress"], info["digest"])
        self.rows.append(row)
        # Keep the pictures worth looking at: every class change, the first splash, the last, and
        # one every 5 s.
        if (info["class"] != self.last_class or (info["class"] == "splash" and not self.saved_splash)
                or t - self.saved_at >= 5):
            screen.write_png(img, os.path.join(self.out, f"frame-{t:07.2f}-{info['class']}.png"))
            self.saved_splash |= info["class"] == "splash"
            self.saved_at = t
        self.last_class = info["class"]
        self.last_img = img

    def finish(self):
        self.stop.set()
        self.thread.join(timeout=10)
        with open(os.path.join(self.out, "frames.tsv"), "w") as f:
            for t, c, p, d in self.rows:
                f.write(f"{t:.3f}\t{c}\t{'' if p is None else f'{p:.1f}'}\t{d}\n")
        if getattr(self, "last_img", None):
            screen.write_png(self.last_img, os.path.join(self.out, "last.png"))
        try:
            os.unlink(self.dump)
        except OSError:
            pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    # 0.15 s: the completed bar is on screen for 0.2 s at the end (Finishing.swift), and every
    # 0.3 s caught it in only about two boots of three.
    ap.add_argument("--interval", type=float, default=0.15)
    ap.add_argument("--boot-timeout", type=float, default=300)
    ap.add_argument("--settle", type=float, default=4, help="seconds to watch the screen after boot")
    ap.add_argument("--commands", required=True, help="file: NAME<TAB>COMMAND per line")
    ap.add_argument("qemu", nargs=argparse.REMAINDER, help="-- qemu-system-x86_64 and its arguments")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    qmp = os.path.join(a.out, "qmp.sock")
    argv = [x for x in a.qemu if x != "--"] + ["-qmp", f"unix:{qmp},server=on,wait=off",
                                               "-display", "none", "-monitor", "none", "-serial", "stdio"]
    t0 = time.monotonic()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    serial = Serial(proc, open(os.path.join(a.out, "serial.log"), "wb"))
    shooter = Shooter(qmp, a.out, a.interval, t0)
    ok = True
    try:
        # The autologin shell on ttyS0 prints a prompt ending in "# ".
        if serial.wait_for(b"root@", a.boot_timeout) is None:
            print("boot-test-vm: no root shell on the serial console", file=sys.stderr)
            ok = False
            return 1
        serial.send("export TERM=dumb PAGER=cat SYSTEMD_PAGER= SYSTEMD_COLORS=0; stty -echo")
        serial.run("wait", "systemctl is-system-running --wait", a.boot_timeout)
        # The guest's clock against ours: uptime read now, host time noted as the answer arrives.
        up = serial.run("uptime", "cat /proc/uptime", 30)
        with open(os.path.join(a.out, "clock.txt"), "w") as f:
            f.write(f"{time.monotonic() - t0:.3f} {up.split()[0] if up else 'nan'}\n")
        time.sleep(a.settle)
        marks = open(os.path.join(a.out, "marks.tsv"), "w")
        for line in open(a.commands):
            if not line.strip() or line.startswith("#"):
                continue
            name, command = line.rstrip("\n").split("\t", 1)
            marks.write(f"{name}\t{time.monotonic() - t0:.3f}\n")
            if name == "sleep":
                time.sleep(float(command))
                continue
            if name.startswith("shoot-"):  # a screendump kept whole, for a pixel comparison
                shooter.shoot(os.path.join(a.out, f"{name}.ppm"))
                continue
            out = serial.run(name, command, 120)
            with open(os.path.join(a.out, f"cmd-{name}.txt"), "w") as f:
                f.write(out if out is not None else "@@@TIMEOUT\n")
        # The shutdown splash is recorded too: the screenshots go on until qemu exits.
        marks.write(f"poweroff\t{time.monotonic() - t0:.3f}\n")
        marks.close()
        serial.send("systemctl poweroff")
        try:
            proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            ok = False
    finally:
        shooter.finish()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
