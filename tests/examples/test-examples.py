#!/usr/bin/env python3
# gst-vmi test: runs an example application (examples/st2022-app.c or .py)
# and requires its exact output: every burst's frames sent and received,
# the receiver restarted between bursts, an error reported with exit 1.
#
#   test-examples.py PROGRAM [ARGS...]   (e.g. python3 st2022-app.py)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import re
import subprocess
import sys

FRAMES, BURSTS = 3, 2
PACKETS = FRAMES * 2249         # 720p59.94: 2249 datagrams per frame


def main():
    prog = sys.argv[1:]
    run = subprocess.run(prog + ["--frames", str(FRAMES), "--bursts",
                                 str(BURSTS), "--timeout", "120"],
                         capture_output=True, text=True)
    print(run.stdout, run.stderr)
    assert run.returncode == 0, run.returncode
    port = re.match(r"receiving on 127\.0\.0\.1 port (\d+)\n", run.stdout)
    assert port, run.stdout
    p = port.group(1)
    want = [f"receiving on 127.0.0.1 port {p}"]
    for b in range(1, BURSTS + 1):
        if b > 1:
            want.append(f"reconnecting the receiver on port {p}")
        want += [
            f"burst {b}/{BURSTS}: sending {FRAMES} frames to 127.0.0.1:{p}",
            f"burst {b}/{BURSTS}: sender done: frames={FRAMES} "
            f"packets={PACKETS}",
            f"burst {b}/{BURSTS}: stream stopped: received {FRAMES} of "
            f"{FRAMES} frames (packets={PACKETS} lost=0)",
        ]
    want += ["st2022-stats messages: yes", "ok"]
    assert run.stdout.splitlines() == want, (run.stdout, want)

    # an address that is not this host's: the error message, exit 1
    bad = subprocess.run(prog + ["--address", "192.0.2.77"],
                         capture_output=True, text=True)
    assert bad.returncode == 1, (bad.returncode, bad.stdout, bad.stderr)
    assert bad.stderr.startswith("error from rx-src: cannot bind to "
                                 "192.0.2.77 port 0: Cannot assign requested "
                                 "address (not an address of this host: set "
                                 "address to one of its addresses, a "
                                 "multicast group or 0.0.0.0)\n"), bad.stderr


if __name__ == "__main__":
    main()
