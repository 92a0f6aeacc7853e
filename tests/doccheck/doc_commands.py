# gst-vmi docs test, second half: runs the documents' commands verbatim.
# Called by tests/doccheck/test-docs.py --commands BUILD_DIR [FILE[:LINE]...].
#
# What is run: in README.md, docs/*.md, pipelines/README.md and
# examples/README.md every fenced block tagged sh, and every untagged block
# whose first line starts with a command (gst-launch-1.0, scripts/...,
# vmi-pace, ...); a usage synopsis ("[--option ...]") is not a command. In
# gst/** every element doc block's example launch lines
# ("|[ ... ]|"; one without a caption runs together with the next, as the
# vmisink/vmisrc pair "and in another process").
#
# How: each document is one shell session (blocks in order; `cd` and files
# carry over, as for a user typing them), as root in a private network and
# mount namespace: lo, veth interfaces eth0 (192.0.2.10/24, the default
# route) and eth1 (198.51.100.10/24), their peers up and unaddressed, a
# private /tmp, /run/netns and /run/dpdk, and an Xvfb display. Sessions run
# side by side, two at a time (VMI_DOC_JOBS), except that one judging a
# real-time stream (the demo, the soak) runs alone, and no two that measure
# the host's timing, and no two that build, overlap (Scheduler);
# each session's output is printed whole, in the documents' order. Nothing
# reaches a real network and port 5004 is free, so the commands run as
# written. For AF_PACKET blocks (transport=packet, one interface named for
# both ends) each veth's peer returns what it receives. Each
# gst-launch-1.0 / gst-play-1.0 typed in a block runs as in a terminal of its own: the next command is typed once it
# plays. A block's pipelines get 5 s, then Ctrl-C (SIGINT; -e pipelines
# finish their files); a pipeline that ends by itself must end first. A
# receiver example (st2022src, vmisrc) whose block has no sender gets one
# from the test (a 720p50 test pattern to the same address and port, or a
# vmisink on the same socket), started first and named in the output.
#
# Success: every command of the block exits 0 (a pipeline stopped with
# Ctrl-C included), no pipeline prints ERROR, no receiver reports that no
# datagram arrived on a port the block sends to, and each file a block records (location=*.mp4/.mov)
# holds a video stream gst-discoverer-1.0 can read.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import glob
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time

SKIP = re.compile(r"^\*Not run by the docs test: (.+?)\*\s*$")
# in an element's doc block: the same words on the line before its |[
SKIP_C = re.compile(r"^\*?Not run by the docs test: (.+?)\*?\s*$")
# the first word of a command line
COMMAND = re.compile(
    r"^(?:[A-Z_][A-Z0-9_]*=\S*\s+)*"
    r"(gst-[\w.-]+|scripts/\S+|pipelines/\S+|build/\S+|tools/\S+|vmi-[\w-]+"
    r"|\.|sudo|ip|curl|jq|python3|/usr/bin/python3|tshark|mkdir|cd|"
    r"debootstrap|git|unshare|echo|setcap|for)(?=\s|$)")
RUN_S = 5           # a block's pipelines play this long before Ctrl-C
STOP_S = 60         # then have this long to stop (-e: encoders drain)
DOC_TIMEOUT_S = 900
JOBS = 2            # sessions at a time (VMI_DOC_JOBS; see Scheduler)
# sessions that must not run beside others (Scheduler): "alone", a
# real-time stream judged by what arrives (the demo's loopback, the soak);
# "timed", a measurement of the host's timing (a test program or benchmark
# judging rates, as pa-controlled's figures; vmi-jitter)
ALONE = re.compile(r"(?<![\w/-])(scripts/(demo|soak|load-test)|"
                   r"pipelines/loopback\S*)(?=\s|$|;)")
TIMED = re.compile(r"(?<![\w/-])(build/tests/\S+|build/bench/\S+|"
                   r"vmi-jitter\S*|\S*vmi-jitter-experiments\S*|"
                   r"scripts/bench)(?=\s|$|;)")
# "build": a session that builds the shared tree
BUILDS = re.compile(r"(?<![\w/-])(vmi_build|scripts/demo)(?=\s|$|;)")

PRELUDE = r'''
__vmi_S=$VMI_DOC_STATE
ip link set lo up
for i in 0 1; do
  ip link add eth$i type veth peer name eth${i}peer
  ip link set eth${i}peer up && ip link set eth$i up
done
ip addr add 192.0.2.10/24 dev eth0 && ip addr add 198.51.100.10/24 dev eth1
ip route add default via 192.0.2.1 dev eth0
# a checkout or build under /tmp (a clone in /tmp/X) stays at its path in
# the private /tmp: held open across the mount, bound back from the fd
__vmi_i=20
for __vmi_d in $VMI_DOC_KEEP; do
  eval "exec $__vmi_i< \"\$__vmi_d\""; __vmi_i=$((__vmi_i + 1))
done
mount -t tmpfs tmpfs /tmp && mkdir -p /run/netns && \
  mount -t tmpfs tmpfs /run/netns
__vmi_i=20
for __vmi_d in $VMI_DOC_KEEP; do
  mkdir -p "$__vmi_d" &&
    mount --no-canonicalize --bind /proc/self/fd/$__vmi_i "$__vmi_d"
  eval "exec $__vmi_i<&-"; __vmi_i=$((__vmi_i + 1))
done
# DPDK's runtime directory (/var/run/dpdk/PREFIX, a lock per --file-prefix)
# is the session's own: sessions run side by side, and documents name
# their prefixes
mkdir -p /run/dpdk 2> /dev/null && mount -t tmpfs tmpfs /run/dpdk
# -displayfd: the display number, written once the server accepts clients
# (disowned: not one of the blocks' jobs; the session's end kills it)
Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp \
  3> "$__vmi_S/display" > "$__vmi_S/xvfb.log" 2>&1 < /dev/null &
disown
# (at load 13 it took over the 10 s this waited before: DISPLAY was ":"
# and every video sink of the session failed, the session run again too)
for i in $(seq 600); do [ -s "$__vmi_S/display" ] && break; sleep 0.1; done
[ -s "$__vmi_S/display" ] ||
  echo "(the session's Xvfb gave no display number in 60 s)"
export DISPLAY=:$(cat "$__vmi_S/display")
# and one picture shown, before any block runs
__vmi_x=0
for i in $(seq 40); do
  gst-launch-1.0 -q videotestsrc num-buffers=1 ! ximagesink \
    > /dev/null 2>&1 && { __vmi_x=1; break; }
  sleep 0.5
done
[ $__vmi_x = 1 ] ||
  echo "(the session's Xvfb on $DISPLAY showed no picture in 40 tries)"
__vmi_blk=0
__vmi_n=0
__vmi_err () {
  echo "exit $1: $2" >> "$__vmi_S/errors.$__vmi_blk"
}
set -E
trap '__vmi_err $? "$BASH_COMMAND"' ERR

# a program typed into a terminal of its own: started, and the next command
# typed once it plays (or has ended); one that ends by itself (num-buffers)
# is waited for, as at a prompt. Ctrl-C reaches it as in a terminal (bash
# would have a background job ignore it).
__vmi_start () {
  local label=$1; shift
  local finite=
  case " $* " in *" num-buffers="*) finite=1 ;; esac
  __vmi_n=$((__vmi_n + 1))
  local n=$__vmi_blk.$__vmi_n
  printf '%s%s\n' "$label" "$*" > "$__vmi_S/cmd.$n"
  ( trap - ERR
    env --default-signal=INT "$@" > "$__vmi_S/out.$n" 2>&1 < /dev/null &
    echo $! > "$__vmi_S/pid.$n"
    wait $!
    echo $? > "$__vmi_S/rc.$n" ) > /dev/null 2>&1 &
  local i
  for i in $(seq 3000); do
    [ -e "$__vmi_S/rc.$n" ] && break
    [ -z "$finite" ] && [ "$i" -gt 200 ] && break
    [ -z "$finite" ] && grep -qE '^New clock|^Now playing' "$__vmi_S/out.$n" \
      2>/dev/null && break
    sleep 0.1
  done
}
gst-launch-1.0 () { __vmi_start "" gst-launch-1.0 "$@"; }
gst-play-1.0 () { __vmi_start "" gst-play-1.0 "$@"; }
__vmi_companion () { __vmi_start "(the test's sender) " "$@"; }
# typed once the block's pipelines play (a pipeline started with & in the
# block, e.g. the NMOS node whose API curl asks)
__vmi_settle () {
  local i f n
  for i in $(seq 200); do
    n=0
    for f in "$__vmi_S"/out.$__vmi_blk.*; do
      [ -e "$f" ] || continue
      [ -e "$__vmi_S/rc.${f#$__vmi_S/out.}" ] && continue
      grep -qE '^New clock|^Now playing' "$f" || n=$((n + 1))
    done
    [ "$n" = 0 ] && break
    sleep 0.1
  done
}
curl () {
  __vmi_settle
  # and a second more, as a user types (the node's API starts at PLAYING)
  [ -e "$__vmi_S/settled.$__vmi_blk" ] || { sleep 1; : > "$__vmi_S/settled.$__vmi_blk"; }
  command curl "$@"
}

# AF_PACKET examples name one interface for sender and receiver (two hosts
# on one network): each veth's peer sends back what it receives, so eth0 and
# eth1 hear their own frames as if from the wire
__vmi_reflect () {
  local i
  for i in 0 1; do
    if [ "$1" = on ]; then
      tc qdisc add dev eth${i}peer ingress
      tc filter add dev eth${i}peer parent ffff: protocol all u32 \
        match u32 0 0 action mirred egress redirect dev eth${i}peer
    else
      tc qdisc del dev eth${i}peer ingress
    fi
  done
}

__vmi_block_begin () {
  echo "=== block $1"
  __vmi_blk=$1
  __vmi_n=0
  : > "$__vmi_S/errors.$1"
}
__vmi_running () {
  local f n
  for f in "$__vmi_S"/pid.$__vmi_blk.*; do
    [ -e "$f" ] || continue
    n=${f#$__vmi_S/pid.}
    [ -e "$__vmi_S/rc.$n" ] || echo "$n"
  done
}
# waits up to $1 s for the block's pipelines to end
__vmi_wait_running () {
  local t
  for t in $(seq $(($1 * 10))); do
    [ -z "$(__vmi_running)" ] && break
    sleep 0.1
  done
}
# sends signal $1 to the block's running pipelines, newest first, and notes
# them in $2
__vmi_signal_running () {
  local n
  for n in $(__vmi_running | sort -t. -k2,2nr); do
    echo "$n" >> "$__vmi_S/$2.$__vmi_blk"
    kill -"$1" "$(cat "$__vmi_S/pid.$n")" 2>/dev/null
  done
}
__vmi_block_end () {
  local t n
  trap - ERR
  __vmi_wait_running "$VMI_DOC_RUN"
  __vmi_signal_running INT interrupted
  __vmi_wait_running "$VMI_DOC_STOP"
  __vmi_signal_running KILL hung
  # the block's own background jobs (cmd &): a bounded wait, then Ctrl-C
  for t in $(seq $((VMI_DOC_RUN * 10))); do
    [ -z "$(jobs -pr)" ] && break
    sleep 0.1
  done
  for n in $(jobs -pr); do kill -INT "$n" 2>/dev/null; done
  wait
  echo done > "$__vmi_S/done.$__vmi_blk"
  trap '__vmi_err $? "$BASH_COMMAND"' ERR
}
'''


class Block:
    def __init__(self, source, line, text, skip=None):
        self.source, self.line, self.text, self.skip = source, line, text, skip

    def where(self):
        return f"{self.source}:{self.line}"


def joined(text):
    """The block's lines with backslash continuations joined, comments and
    blank lines left out."""
    out = []
    for ln in text.replace("\\\n", " ").splitlines():
        s = ln.strip()
        if s and not s.startswith("#"):
            out.append(s)
    return out


def is_commands(info, text):
    lines = joined(text)
    if not lines:
        return False
    if any(" [--" in ln for ln in lines):
        return False            # a usage synopsis
    if info in ("sh", "shell", "bash"):
        return True
    return info == "" and COMMAND.match(lines[0]) is not None


def markdown_blocks(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        text = f.read()
    out = []
    for m in re.finditer(r"^```(\w*)\n(.*?)^```", text, re.M | re.S):
        if not is_commands(m.group(1), m.group(2)):
            continue
        line = text[:m.start()].count("\n") + 1
        before = text[:m.start()].rstrip("\n").splitlines()
        skip = SKIP.match(before[-1]) if before else None
        out.append(Block(rel, line, m.group(2),
                         skip.group(1) if skip else None))
    return out


def source_blocks(root):
    out = []
    files = sorted(glob.glob(os.path.join(root, "gst", "**", "*.c"),
                             recursive=True))
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            src = f.read()
        rel = os.path.relpath(path, root)
        for c in re.finditer(r"/\*\*\s*\n\s*\* SECTION:element-.*?\*/", src,
                             re.S):
            body = re.sub(r"^\s*\* ?", "", c.group(0), flags=re.M)
            pending = None
            for m in re.finditer(r"\|\[\n(.*?)^\]\|([^\n]*)$", body,
                                 re.M | re.S):
                line = src[:c.start()].count("\n") + \
                    body[:m.start()].count("\n") + 1
                before = body[:m.start()].rstrip("\n").splitlines()
                skip = SKIP_C.match(before[-1]) if before else None
                if pending is None:
                    pending = Block(rel, line, m.group(1),
                                    skip.group(1) if skip else None)
                else:
                    pending.text += m.group(1)
                if m.group(2).strip() or m.end() >= len(body):
                    out.append(pending)
                    pending = None
            if pending is not None:
                out.append(pending)
    return out


def prop(cmd, name, default=None):
    m = re.search(r"(?<![\w-])" + re.escape(name) + r"=(\S+)", cmd)
    return m.group(1) if m else default


def companions(block):
    """Senders for receiver examples whose block has none."""
    lines = joined(block.text)
    text = " ".join(lines)
    out = []
    if re.search(r"st2022src|st2022://", text) and "st2022sink" not in text:
        for ln in lines:
            if not re.search(r"st2022src|st2022://", ln) or \
                    "sdp-file=" in ln:
                continue
            addr = prop(ln, "address", "127.0.0.1")
            port = prop(ln, "port", "5004")
            uri = re.search(r"st2022://@([\d.]+):(\d+)", ln)
            if uri:
                addr, port = uri.groups()
            if addr == "0.0.0.0":
                addr = "127.0.0.1"
            sink = f"st2022sink host={addr} port={port}"
            for p in ("multicast-iface", "transport", "iface"):
                if prop(ln, p):
                    sink += f" {p}={prop(ln, p)}"
            if prop(ln, "secondary-address"):
                sink += f" secondary-host={prop(ln, 'secondary-address')}"
                if prop(ln, "secondary-multicast-iface"):
                    sink += " secondary-multicast-iface=" + \
                        prop(ln, "secondary-multicast-iface")
            c = ("gst-launch-1.0 videotestsrc is-live=true ! "
                 "video/x-raw,format=UYVP,width=1280,height=720,"
                 f"framerate=50/1 ! {sink}")
            if c not in out:
                out.append(c)
    if "vmisrc" in text and "vmisink" not in text:
        path = prop(text, "socket-path", "/tmp/vmi.sock")
        out.append("gst-launch-1.0 videotestsrc is-live=true ! "
                   "video/x-raw,format=UYVP,width=1920,height=1080,"
                   f"framerate=60/1 ! vmisink socket-path={path}")
    return out


def recordings(block):
    return sorted(set(re.findall(r"location=(\S+\.(?:mp4|mov))",
                                 block.text)))


def scratch_dir(root, build, where):
    if os.path.exists(where):
        shutil.rmtree(where)
    os.makedirs(where)
    for name in os.listdir(root):
        if name in ("build", ".git") or name.startswith("."):
            continue
        os.symlink(os.path.join(root, name), os.path.join(where, name))
    os.symlink(build, os.path.join(where, "build"))
    state = os.path.join(where, ".vmi-doc")
    os.makedirs(state)
    return state


def run_session(root, build, name, blocks, base):
    """Runs one document's runnable blocks in one shell session; returns
    the state directory and whether the session finished."""
    where = os.path.join(base, re.sub(r"[^\w.-]", "_", name))
    state = scratch_dir(root, build, where)
    script = [PRELUDE, f"cd {shlex.quote(where)}"]
    for i, b in enumerate(blocks):
        script.append(f"__vmi_block_begin {i}")
        reflect = "transport=packet" in b.text
        if reflect:
            script.append("__vmi_reflect on")
        for c in companions(b):
            script.append("__vmi_companion " + c)
        script.append(b.text.rstrip("\n"))
        script.append(f"__vmi_block_end {i}")
        if reflect:
            script.append("__vmi_reflect off")
    env = dict(os.environ)
    for k in list(env):
        if k.startswith(("GST_", "MESON_")) or k in ("VMI_SOURCE_ROOT",):
            del env[k]
    env.update({
        "VMI_BUILD": build,
        "GST_PLUGIN_PATH_1_0": os.path.join(build, "gst"),
        "GST_REGISTRY_1_0": os.path.join(where, ".vmi-doc", "registry.bin"),
        "PATH": os.path.join(build, "tools") + ":" + env.get("PATH", ""),
        "VMI_DOC_STATE": state, "VMI_DOC_RUN": str(RUN_S),
        "VMI_DOC_STOP": str(STOP_S),
    })
    # the top directories under /tmp that the session must still see
    keep = sorted({"/tmp/" + os.path.realpath(d)[5:].split("/")[0]
                   for d in (where, build, root)
                   if os.path.realpath(d).startswith("/tmp/")})
    env["VMI_DOC_KEEP"] = " ".join(keep)
    ns = ["unshare", "--net", "--mount", "--fork"]
    if os.geteuid() != 0:
        ns.append("--map-root-user")
    with open(os.path.join(state, "session.out"), "w") as log:
        p = subprocess.Popen(ns + ["bash", "-c", "\n".join(script)],
                             cwd=where, env=env, stdout=log,
                             stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL,
                             start_new_session=True)
        finished = True
        try:
            p.wait(timeout=DOC_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            finished = False
        # whatever the session left behind (Xvfb, a stray job)
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait()
    return state, finished


def slurp(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return ""


def judge(state, i, block, where):
    """Problems of block i (empty: it succeeded), and what it ran."""
    problems = []
    if not os.path.exists(os.path.join(state, f"done.{i}")):
        return ["did not finish (the session stopped here)"], []
    for ln in slurp(os.path.join(state, f"errors.{i}")).splitlines():
        problems.append("command failed: " + ln)
    ran = []
    sent_ports = set()
    for ln in joined(block.text) + companions(block):
        if "st2022sink" in ln:
            sent_ports.add(prop(ln.split("st2022sink", 1)[1], "port", "5004"))
    interrupted = slurp(os.path.join(state, f"interrupted.{i}")).split()
    hung = slurp(os.path.join(state, f"hung.{i}")).split()
    for f in sorted(glob.glob(os.path.join(state, f"cmd.{i}.*")),
                    key=lambda p: int(p.rsplit(".", 1)[1])):
        n = f.split("cmd.", 1)[1]
        cmd = slurp(f).strip()
        out = slurp(os.path.join(state, f"out.{n}"))
        rc = slurp(os.path.join(state, f"rc.{n}")).strip()
        how = "stopped with Ctrl-C" if n in interrupted else "ended"
        ran.append(f"  {cmd}\n    {how}, exit {rc or '?'}")
        bad = []
        if n in hung:
            bad.append("did not stop within %d s of Ctrl-C" % STOP_S)
        elif rc != "0" and not (n in interrupted and rc == "130" and
                                cmd.startswith("gst-play-1.0")):
            # gst-play-1.0 has no Ctrl-C handler: SIGINT ends it (130)
            bad.append(f"exit status {rc}")
        bad += [ln for ln in out.splitlines() if ln.startswith("ERROR")]
        # a receiver that hears nothing where the block (or the test)
        # sends; one waiting on a port nothing here sends to (until
        # connected, as the NMOS example's) waits as the doc says
        for ln in out.splitlines():
            m = re.search(r"no ST 2022-6 datagram on \S+:(\d+)", ln)
            if m and m.group(1) in sent_ports:
                bad.append(ln)
        if bad:
            problems.append(f"{cmd}:\n      " + "\n      ".join(bad) +
                            "\n    its output:\n" +
                            "".join("      " + ln + "\n"
                                    for ln in out.splitlines()[-40:]))
    for rec in recordings(block):
        path = rec if os.path.isabs(rec) else os.path.join(where, rec)
        if path.startswith("/tmp/"):
            continue            # the session's private /tmp is gone
        d = subprocess.run(["gst-discoverer-1.0", path], capture_output=True,
                           text=True)
        if d.returncode != 0 or not re.search(r"video( #\d+)?:", d.stdout):
            problems.append(f"recording {rec}: gst-discoverer-1.0 finds no "
                            f"video: {d.stdout.strip()[-300:]} "
                            f"{d.stderr.strip()[-300:]}")
        else:
            ran.append(f"  recording {rec}: "
                       + " ".join(ln.strip() for ln in d.stdout.splitlines()
                                  if re.search(r"(video|audio)( #\d+)?:|"
                                               r"Duration", ln)))
    return problems, ran


def session_report(root, build, name, runnable, base):
    """Runs one session and judges its blocks: (what to print, failures)."""
    out = []
    failed = 0
    t0 = time.monotonic()
    state, finished = run_session(root, build, name, runnable, base)
    where = os.path.dirname(state)
    # Xvfb on a loaded machine now and then refuses a video sink's
    # connection ("Could not open display"): that alone is the test
    # machine's, not the document's; the session runs once more
    judged = [judge(state, i, b, where)[0] for i, b in enumerate(runnable)]
    lines = [ln for probs in judged for pr in probs
             for ln in pr.splitlines()
             if ln.strip().startswith(("ERROR", "exit status"))]
    if finished and lines and all(
            "Could not open display" in ln or
            "Could not initialise X output" in ln or
            "doesn't want to preroll" in ln or
            ln.strip() == "exit status 255" for ln in lines):
        out.append(f"  ({name}: the X server refused a video sink; "
                   "running the session again)")
        state, finished = run_session(root, build, name, runnable, base)
    for i, b in enumerate(runnable):
        problems, ran = judge(state, i, b, where)
        out.append(f"{'FAIL' if problems else 'ok'} {b.where()}")
        out.append("\n".join(ran))
        for p in problems:
            out.append("  " + p)
        if problems:
            failed += 1
            log = slurp(os.path.join(state, "session.out"))
            part = log.split(f"=== block {i}\n", 1)[-1].split(
                "=== block ", 1)[0].splitlines()
            if part:
                out.append("  what the block printed (last 30 lines):")
                out.append("".join("    " + ln + "\n"
                                   for ln in part[-30:]).rstrip("\n"))
    if not finished:
        out.append(f"FAIL {name}: the session did not end within "
                   f"{DOC_TIMEOUT_S} s")
        failed += 1
    if failed:
        out.append(f"  session log: {os.path.join(state, 'session.out')}")
    out.append(f"  ({name}: {time.monotonic() - t0:.0f} s)")
    return "\n".join(out), failed


def resources(blocks):
    """What a session must not share with another one running at the same
    time (see Scheduler)."""
    text = "\n".join(" ".join(joined(b.text)) for b in blocks)
    out = set()
    if ALONE.search(text):
        out.add("alone")
    if TIMED.search(text):
        out.add("timed")
    if BUILDS.search(text):
        out.add("build")
    return out


class Scheduler:
    """Runs the sessions JOBS at a time. Each session is isolated already
    (its own network and mount namespace: /tmp, /run/netns, /run/dpdk,
    the X display, the scratch directory and the registry are its own), so
    what two sessions share is the CPUs and the build tree:
     - "alone": a session whose commands judge a real-time stream carried
       by threads of normal priority (the demo's loopback, the soak's
       counters) runs with no other beside it, as all did before;
     - "timed": a session that measures the host's timing (pa-controlled's
       figures, whose transmit thread is SCHED_FIFO and which repeats a
       starved run; vmi-jitter) runs beside light sessions only, never
       beside another timed one;
     - "build": a session that builds the shared tree (a no-op after meson
       test's build) runs beside no other that does.
    A worker starts the first session in the given order whose class lets
    it run now (the timed ones come first: they are the longest)."""

    def __init__(self, jobs, sessions, run):
        self.cv = threading.Condition()
        self.todo = list(range(len(sessions)))
        self.sessions, self.run = sessions, run
        self.held = set()
        self.running = 0
        self.results = {}
        self.threads = [threading.Thread(target=self.worker, daemon=True)
                        for _ in range(max(1, jobs))]

    def startable(self, res):
        if "alone" in self.held:
            return False
        if "alone" in res and self.running:
            return False
        return not (res & self.held)

    def next_session(self):
        for k in self.todo:
            if self.startable(self.sessions[k][2]):
                self.todo.remove(k)
                self.held |= self.sessions[k][2]
                self.running += 1
                return k
        return None

    def worker(self):
        while True:
            with self.cv:
                k = None
                while self.todo and k is None:
                    k = self.next_session()
                    if k is None:
                        self.cv.wait()
                if k is None:
                    return
            try:
                res = self.run(*self.sessions[k][:2])
            except Exception as e:  # a harness bug: a failure, not a hang
                res = (f"FAIL {self.sessions[k][0]}: {e!r}", 1)
            with self.cv:
                self.held -= self.sessions[k][2]
                self.running -= 1
                self.results[k] = res
                self.cv.notify_all()

    def start(self):
        for t in self.threads:
            t.start()

    def result(self, k):
        with self.cv:
            while k not in self.results:
                self.cv.wait()
            return self.results[k]


def main(root, docs, build, only):
    build = os.path.abspath(build)
    if shutil.which("unshare") is None or shutil.which("Xvfb") is None:
        print("SKIP: the docs commands need unshare (util-linux) and Xvfb "
              "(xvfb, scripts/install-deps)")
        return 77
    probe = subprocess.run(["unshare", "--net", "--mount", "--fork"] +
                           ([] if os.geteuid() == 0 else
                            ["--map-root-user"]) + ["true"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        print("SKIP: cannot make a private network namespace here "
              f"(unshare: {probe.stderr.strip()})")
        return 77
    sessions = {}
    for rel in docs:
        sessions.setdefault(rel, []).extend(markdown_blocks(root, rel))
    for b in source_blocks(root):
        # each element's doc block is a session of its own
        sessions.setdefault(b.where(), []).append(b)

    def wanted(b):
        return not only or any(b.where() == o or b.source == o
                               for o in only)
    base = os.path.join(build, "tests", "doccheck", "doc-commands")
    jobs = int(os.environ.get("VMI_DOC_JOBS", JOBS))
    listed = []         # (name, skip lines, index of its run or None)
    runs = []           # (name, runnable blocks, resources)
    ran_n = skipped = 0
    for name, blocks in sessions.items():
        blocks = [b for b in blocks if wanted(b)]
        skips = [f"SKIP {b.where()}: {b.skip}" for b in blocks if b.skip]
        skipped += len(skips)
        runnable = [b for b in blocks if not b.skip]
        ran_n += len(runnable)
        listed.append((name, skips, len(runs) if runnable else None))
        if runnable:
            runs.append((name, runnable, resources(runnable)))
    order = sorted(range(len(runs)),
                   key=lambda k: ("timed" not in runs[k][2],
                                  "alone" not in runs[k][2]))
    sched = Scheduler(jobs, [runs[k] for k in order],
                      lambda name, blocks: session_report(
                          root, build, name, blocks, base))
    print(f"{len(runs)} session(s), {jobs} at a time; each one's output "
          "when it has ended, in the documents' order", flush=True)
    t0 = time.monotonic()
    sched.start()
    failed = 0
    for name, skips, k in listed:
        for ln in skips:
            print(ln)
        if k is None:
            continue
        text, f = sched.result(order.index(k))
        failed += f
        print(text, flush=True)
    print(f"{ran_n} block(s) run, {failed} failed, {skipped} not run "
          f"(reasons above), {time.monotonic() - t0:.0f} s")
    return 1 if failed else 0
