#!/usr/bin/env python3
# gst-vmi test: pipelines/receive-anc.sh records 10 s of picture and
# embedded audio in sync while a CPU hog keeps both cores busy.
#
#   test-av-record.py
#
# Runs, as root in a private network namespace (port 5004 free, nothing on a
# real network):
#  - a CPU hog: one busy-loop process pinned to each core (taskset), at the
#    normal priority, for the whole run;
#  - a sender (this script, --send, in a process of its own at SCHED_FIFO 10:
#    it stands for another machine, which this one's hog does not slow):
#    720p50 UYVP frames whose picture carries the frame number f in 12
#    black/white blocks, and stereo 48 kHz audio whose 960 samples of frame f
#    are all (f + 1) << 16, both stamped f x 20 ms, into st2022sink
#    clock-source=tai (its RTP timestamps: the sender's time, f x 20 ms from
#    the first when it sends every frame on time, frames-late=0);
#  - the example, pipelines/receive-anc.sh (CLOCK=tai, FRAMES=500), as its
#    header advises on a shared machine: `chrt -f 5` (VMI_AV_RX_PRIO=... to
#    try another, e.g. "nice -n -10");
# then decodes the recording and requires, exactly:
#  - every video frame carries a readable frame number, and its PTS is the
#    sender's: first PTS + (f - first f) x 20 ms;
#  - the audio under each frame is that frame's: the 960 samples from the
#    frame's PTS all read f (no sample of offset), and the audio track is
#    one unbroken run of samples;
#  - gst-discoverer-1.0 reads the file: H.264 High (4:2:0), PCM audio;
# and prints the receiver's drop counts (frames-dropped, audio-gap-samples)
# and how many frames reached the file.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.environ.get("VMI_SOURCE_ROOT",
                      os.path.join(os.path.dirname(__file__), "..", ".."))
W, H, FPS = 1280, 720, 50
FRAMES = 500                    # recorded: 10 s
SEND = FRAMES + 250             # sent: the receiver may lock on late
SPF = 48000 // FPS              # samples per frame
BITS = 12                       # frame number bits; then a 1010 marker
BLOCKS = BITS + 4
MARK = [1, 0, 1, 0]
FRAME_NS = 1000000000 // FPS
TX_PRIO = ["chrt", "-f", "10"]
RX_TIMEOUT_S = 60
RX_PRIO = os.environ.get("VMI_AV_RX_PRIO", "chrt -f 5").split()


def skip(why):
    print("SKIP:", why)
    sys.exit(77)


def uyvp_row(bits):
    """One UYVP row: BLOCKS blocks of W / BLOCKS pixels, white (Y 940)
    for a 1, black (Y 64) for a 0, U = V = 512."""
    out = bytearray()
    for b in bits:
        y = 940 if b else 64
        v = (512 << 30) | (y << 20) | (512 << 10) | y
        out += v.to_bytes(5, "big") * (W // BLOCKS // 2)
    return bytes(out)


def frame_bits(f):
    return [(f >> (BITS - 1 - i)) & 1 for i in range(BITS)] + MARK


def sender(port):
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import Gst
    Gst.init(None)
    p = Gst.parse_launch(
        "appsrc name=v is-live=true format=time max-buffers=4 block=true "
        f"caps=video/x-raw,format=UYVP,width={W},height={H},"
        f"framerate={FPS}/1 ! st2022sink name=s clock-source=tai "
        f"host=127.0.0.1 port={port} "
        "appsrc name=a is-live=true format=time max-buffers=4 block=true "
        "caps=audio/x-raw,format=S32LE,rate=48000,channels=2,"
        "layout=interleaved ! queue ! s.audio")
    v, a = p.get_by_name("v"), p.get_by_name("a")
    p.set_state(Gst.State.PLAYING)
    # both appsrcs block at 4 buffers: the sink paces them in real time
    for f in range(SEND):
        pts = f * FRAME_NS
        vb = Gst.Buffer.new_wrapped(uyvp_row(frame_bits(f)) * H)
        vb.pts, vb.duration = pts, FRAME_NS
        ab = Gst.Buffer.new_wrapped(((f + 1) << 16).to_bytes(
            4, "little", signed=True) * (2 * SPF))
        ab.pts, ab.duration = pts, FRAME_NS
        a.emit("push-buffer", ab)
        v.emit("push-buffer", vb)
    v.emit("end-of-stream")
    a.emit("end-of-stream")
    msg = p.get_bus().timed_pop_filtered(30 * Gst.SECOND,
                                         Gst.MessageType.EOS |
                                         Gst.MessageType.ERROR)
    stats = p.get_by_name("s").get_property("stats")
    print("sender:", stats.to_string() if stats else "no stats", flush=True)
    p.set_state(Gst.State.NULL)
    return 0 if msg and msg.type == Gst.MessageType.EOS else 1


def decode(path):
    """[(pts, f or None)] of the video; (first pts, samples of channel 0)
    of the audio."""
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import Gst
    Gst.init(None)
    p = Gst.parse_launch(
        f"filesrc location={path} ! qtdemux name=d "
        "d.video_0 ! queue ! h264parse ! avdec_h264 ! videoconvert ! "
        "video/x-raw,format=GRAY8 ! appsink name=vs sync=false "
        "d.audio_0 ! queue ! audioconvert ! "
        "audio/x-raw,format=S32LE,layout=interleaved ! "
        "appsink name=as sync=false")
    frames, audio, apts = [], bytearray(), []
    vs, as_ = p.get_by_name("vs"), p.get_by_name("as")
    p.set_state(Gst.State.PLAYING)
    done = set()
    while len(done) < 2:
        for name, sink in (("v", vs), ("a", as_)):
            if name in done:
                continue
            s = sink.emit("try-pull-sample", 100 * Gst.MSECOND)
            if s is None:
                if sink.get_property("eos"):
                    done.add(name)
                continue
            buf = s.get_buffer()
            ok, m = buf.map(Gst.MapFlags.READ)
            data = bytes(m.data)
            buf.unmap(m)
            if name == "v":
                st = s.get_caps().get_structure(0)
                stride = (st.get_value("width") + 3) & ~3
                row = data[stride * (H // 2):stride * (H // 2) + W]
                bits = [1 if row[int((i + 0.5) * W / BLOCKS)] > 128 else 0
                        for i in range(BLOCKS)]
                f = None
                if bits[BITS:] == MARK:
                    f = int("".join(map(str, bits[:BITS])), 2)
                frames.append((buf.pts, f))
            else:
                ch = s.get_caps().get_structure(0).get_value("channels")
                apts.append((buf.pts, len(audio) // 4))
                audio += data[::1] if ch == 1 else b"".join(
                    data[i:i + 4] for i in range(0, len(data), 4 * ch))
        msg = p.get_bus().pop_filtered(Gst.MessageType.ERROR)
        if msg:
            raise RuntimeError(msg.parse_error())
    p.set_state(Gst.State.NULL)
    samples = [int.from_bytes(audio[i:i + 4], "little", signed=True)
               for i in range(0, len(audio), 4)]
    return frames, apts, samples


def main():
    if sys.argv[1:2] == ["--send"]:
        sys.exit(sender(int(sys.argv[2])))
    if os.environ.get("VMI_AV_INNER") != "1":
        for prog in ("unshare", "taskset", "chrt"):
            if shutil.which(prog) is None:
                skip(f"needs {prog} (util-linux)")
        if os.geteuid() != 0:
            skip("needs root: a network namespace, and real-time priority "
                 "for the sender and the recorder")
        ns = ["unshare", "--net", "--fork"]
        env = dict(os.environ, VMI_AV_INNER="1")
        r = subprocess.run(ns + [sys.executable, os.path.abspath(__file__)],
                           env=env)
        sys.exit(r.returncode)
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)

    out = tempfile.mkdtemp(prefix="vmi-av-")
    mov = os.path.join(out, "av.mov")
    hogs = [subprocess.Popen(["taskset", "-c", str(c), "sh", "-c",
                              "while :; do :; done"])
            for c in range(os.cpu_count() or 1)]
    try:
        env = dict(os.environ, CLOCK="tai", FRAMES=str(FRAMES))
        if os.environ.get("VMI_BUILD_ROOT"):
            env["VMI_BUILD"] = os.environ["VMI_BUILD_ROOT"]
        rx = subprocess.Popen(RX_PRIO + [os.path.join(ROOT, "pipelines",
                                            "receive-anc.sh"), mov, "5004"],
                              env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              start_new_session=True)
        lines = []
        reader = threading.Thread(target=lambda: lines.extend(rx.stdout))
        reader.start()
        time.sleep(1)           # the receiver's socket (its first output)
        t0 = time.monotonic()
        tx = subprocess.Popen(TX_PRIO + [sys.executable,
                               os.path.abspath(__file__), "--send", "5004"],
                              stdout=subprocess.PIPE, text=True)
        try:
            rc = rx.wait(timeout=RX_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            # Ctrl-C: the recorder (-e) closes its file and says how far
            # it got
            os.killpg(rx.pid, signal.SIGINT)
            rx.wait(timeout=60)
            rc = f"none: {FRAMES} frames not received in {RX_TIMEOUT_S} s"
        t1 = time.monotonic()
        tx_out = tx.communicate(timeout=60)[0]
        reader.join()
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    log = "".join(lines)
    print(log)
    print(tx_out)
    assert rc == 0, f"receive-anc.sh exited {rc}"
    stats = re.findall(r"st2022-stats.*", log)
    print(f"recorded in {t1 - t0:.1f} s with {len(hogs)} busy loops pinned "
          "to the cores")

    d = subprocess.run(["gst-discoverer-1.0", mov], capture_output=True,
                       text=True)
    print(d.stdout)
    assert d.returncode == 0, d.stderr
    assert re.search(r"video #\d+: H\.264 \((High|Main|Constrained Baseline) "
                     r"Profile\)", d.stdout), "not H.264 4:2:0"
    assert re.search(r"audio #\d+: (Raw|Uncompressed)", d.stdout) or \
        "PCM" in d.stdout, "no PCM audio"

    frames, apts, samples = decode(mov)
    bad = [pts for pts, f in frames if f is None]
    assert not bad, f"{len(bad)} frames without a readable frame number"
    p0, f0 = frames[0]
    off = [(pts, f) for pts, f in frames
           if pts != p0 + (f - f0) * FRAME_NS]
    assert not off, f"video PTS not the sender's: {off[:5]}"
    # the audio: one run of samples from its first PTS
    a0 = apts[0][0]
    for pts, idx in apts:
        want = a0 + idx * 1000000000 // 48000
        assert abs(pts - want) <= 1, ("audio not continuous", pts, want)
    wrong = []
    for pts, f in frames:
        k = (pts - a0) * 48000 // 1000000000
        if (pts - a0) * 48000 % 1000000000:
            wrong.append((f, "frame PTS between audio samples"))
            continue
        got = set(samples[k:k + SPF])
        if got != {(f + 1) << 16}:
            wrong.append((f, sorted(x >> 16 for x in got)[:4]))
    assert not wrong, f"audio under {len(wrong)} frames is not theirs: " \
        f"{wrong[:5]}"
    nums = [f for _, f in frames]
    missing = (nums[-1] - nums[0] + 1) - len(nums)
    print(f"ok: {len(frames)} frames in the file (frames {nums[0]}-"
          f"{nums[-1]}, {missing} missing), {len(samples)} audio samples "
          f"({len(samples) / 48000:.3f} s); every frame's PTS is the "
          "sender's and the audio under it is its own")
    for s in stats[-1:]:
        m = re.search(r"frames-dropped=(?:\(guint64\))?(\d+).*"
                      r"audio-gap-samples=(?:\(guint64\))?(\d+)", s)
        if m:
            print(f"receiver: frames-dropped={m.group(1)} "
                  f"audio-gap-samples={m.group(2)}")
    shutil.rmtree(out)


if __name__ == "__main__":
    main()
