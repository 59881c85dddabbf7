#!/bin/bash
# dracut module: loaderd as the boot splash from the initramfs. Install the directory as
# /usr/lib/dracut/modules.d/90loaderd/, then `dracut -f` (README "Starting from the initramfs").
#
# dracut's initramfs runs systemd, so loaderd runs there as the same units as in the real root:
# loaderd.service, started with PID 1 at sysinit.target (initrd-service.conf: it waits for its
# display itself, and draws the moment the kernel makes the device node), and loaderd.socket. At the switch
# to the real root PID 1 serializes its units and picks them up again: loaderd.service stays active
# with the same process and socket, the real root's unit is not started a second time, and no
# frame is lost. IgnoreOnIsolate=yes (both units) keeps the isolate to initrd-switch-root.target
# from stopping them; loaderd marks its argv[0] with '@' when /etc/initrd-release exists, so the
# SIGTERM systemd sends to every process left from the initrd at the switch spares it; and
# initrd-service.conf lets it follow PID 1 into the real root. scripts/boot-test boots this
# (variant dracut).

check() {
    require_binaries /usr/local/bin/loaderd || return 1
    return 0
}

# dracut's drm module puts the display drivers in, so /dev/fb0 exists in the initramfs (as for
# Plymouth's module).
depends() {
    echo drm
}

install() {
    inst_multiple /usr/local/bin/loaderd /usr/local/bin/loaderctl /etc/loaderd/loaderd.toml
    inst_rules /etc/udev/rules.d/60-loaderd.rules
    inst_simple /etc/systemd/system/loaderd.service "$systemdsystemunitdir/loaderd.service"
    inst_simple /etc/systemd/system/loaderd.socket "$systemdsystemunitdir/loaderd.socket"
    inst_simple "$moddir/initrd.conf" "$systemdsystemunitdir/loaderd.socket.d/initrd.conf"
    inst_simple "$moddir/initrd-service.conf" "$systemdsystemunitdir/loaderd.service.d/initrd.conf"
    # The sandbox's ExecStopPost and the socket's group.
    inst_multiple -o /bin/sh /bin/systemctl
    grep -q '^loaderd:' /etc/group && grep '^loaderd:' /etc/group >> "$initdir/etc/group"
    $SYSTEMCTL -q --root "$initdir" add-wants sysinit.target loaderd.service
    $SYSTEMCTL -q --root "$initdir" add-wants sockets.target loaderd.socket
}
