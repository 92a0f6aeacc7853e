#!/usr/bin/env python3
# gst-vmi example (Python, PyGObject): the same application as
# st2022-app.c. A receiver (st2022src ! fakesink) and, burst after burst, a
# sender (videotestsrc ! capsfilter ! st2022sink) built with the GStreamer
# API; `stats` read, `st2022-stats` and error messages handled; when the
# stream stops (st2022src's `st2022-timeout` message) the receiver is
# restarted on the same port and receives the next stream.
#
#   st2022-app.py [--frames N] [--bursts B] [--address A] [--timeout S]
#
# Exit status: 0 when every burst's frames all arrived, 1 on an error
# message, 3 when --timeout seconds passed.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import argparse
import sys
import threading

import gi
gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402


class App:
    def __init__(self, args):
        self.args = args
        self.loop = GLib.MainLoop()
        self.status = 0
        self.burst = 0
        self.tx = None
        self.rx_silent = False
        self.stats_messages = 0
        self.received = 0
        self.lock = threading.Lock()

        self.rx = Gst.Pipeline.new("receiver")
        self.rx_src = Gst.ElementFactory.make("st2022src", "rx-src")
        sink = Gst.ElementFactory.make("fakesink", None)
        if self.rx_src is None or sink is None:
            sys.exit("st2022src or fakesink missing: is GST_PLUGIN_PATH set "
                     "to the build's gst/ directory?")
        self.rx_src.set_property("address", args.address)
        self.rx_src.set_property("port", 0)      # ephemeral, read back
        self.rx_src.set_property("timeout", 200 * Gst.MSECOND)
        self.rx_src.set_property("stats-interval", 100)
        sink.set_property("sync", False)
        self.rx.add(self.rx_src)
        self.rx.add(sink)
        self.rx_src.link(sink)
        self.rx_src.get_static_pad("src").add_probe(
            Gst.PadProbeType.BUFFER, self.count_frame)
        bus = self.rx.get_bus()
        bus.add_signal_watch()
        bus.connect("message", self.on_rx_message)

    def count_frame(self, pad, info):
        with self.lock:
            self.received += 1
        return Gst.PadProbeReturn.OK

    @staticmethod
    def stat(element, field):
        ok, v = element.get_property("stats").get_uint64(field)
        return v if ok else 0

    def fail(self, msg):
        err, dbg = msg.parse_error()
        print(f"error from {msg.src.get_name()}: {err.message}",
              file=sys.stderr)
        if dbg:
            print(f"  ({dbg})", file=sys.stderr)
        self.status = 1
        self.loop.quit()

    def start_burst(self):
        self.burst += 1
        a = self.args
        self.tx = Gst.Pipeline.new("sender")
        src = Gst.ElementFactory.make("videotestsrc", None)
        capsf = Gst.ElementFactory.make("capsfilter", None)
        sink = Gst.ElementFactory.make("st2022sink", "tx-sink")
        src.set_property("num-buffers", a.frames)
        capsf.set_property("caps", Gst.Caps.from_string(
            "video/x-raw,format=UYVP,width=1280,height=720,"
            "framerate=60000/1001"))
        sink.set_property("host", a.address)
        sink.set_property("port", self.port)
        for e in (src, capsf, sink):
            self.tx.add(e)
        src.link(capsf)
        capsf.link(sink)
        bus = self.tx.get_bus()
        bus.add_signal_watch()
        bus.connect("message", self.on_tx_message)
        print(f"burst {self.burst}/{a.bursts}: sending {a.frames} frames "
              f"to {a.address}:{self.port}", flush=True)
        self.tx.set_state(Gst.State.PLAYING)

    def on_tx_message(self, bus, msg):
        if msg.type == Gst.MessageType.ERROR:
            self.fail(msg)
        elif msg.type == Gst.MessageType.EOS:
            sink = self.tx.get_by_name("tx-sink")
            print(f"burst {self.burst}/{self.args.bursts}: sender done: "
                  f"frames={self.stat(sink, 'frames')} "
                  f"packets={self.stat(sink, 'packets')}", flush=True)
            bus.remove_signal_watch()
            self.tx.set_state(Gst.State.NULL)
            self.tx = None
            self.finish_burst()

    def on_rx_message(self, bus, msg):
        if msg.type == Gst.MessageType.ERROR:
            self.fail(msg)
        elif msg.type == Gst.MessageType.ELEMENT:
            s = msg.get_structure()
            if s.has_name("st2022-stats"):
                self.stats_messages += 1
            elif s.has_name("st2022-timeout"):
                # signal-lost: FALSE while no stream was ever seen
                ok, lost = s.get_boolean("signal-lost")
                if ok and lost:
                    self.rx_silent = True
                    self.finish_burst()

    def finish_burst(self):
        if self.tx is not None or not self.rx_silent:
            return
        a = self.args
        with self.lock:
            got = self.received
        print(f"burst {self.burst}/{a.bursts}: stream stopped: received "
              f"{got} of {a.frames} frames "
              f"(packets={self.stat(self.rx_src, 'packets')} "
              f"lost={self.stat(self.rx_src, 'packets-lost')})", flush=True)
        if got != a.frames:
            self.status = 1
        if self.burst == a.bursts or self.status:
            self.loop.quit()
            return
        print(f"reconnecting the receiver on port {self.port}", flush=True)
        self.rx.set_state(Gst.State.NULL)
        with self.lock:
            self.received = 0
        self.rx_silent = False
        if self.rx.set_state(Gst.State.PLAYING) == \
                Gst.StateChangeReturn.FAILURE:
            print("cannot restart the receiver", file=sys.stderr)
            self.status = 1
            self.loop.quit()
            return
        self.start_burst()

    def on_watchdog(self):
        print("timed out", file=sys.stderr)
        self.status = 3
        self.loop.quit()
        return False

    def run(self):
        if self.rx.set_state(Gst.State.PLAYING) == \
                Gst.StateChangeReturn.FAILURE:
            msg = self.rx.get_bus().pop_filtered(Gst.MessageType.ERROR)
            if msg:
                self.fail(msg)
            self.rx.set_state(Gst.State.NULL)
            return 1
        self.port = self.rx_src.get_property("port")
        print(f"receiving on {self.args.address} port {self.port}",
              flush=True)
        self.start_burst()
        GLib.timeout_add_seconds(self.args.timeout, self.on_watchdog)
        self.loop.run()
        print("st2022-stats messages: "
              f"{'yes' if self.stats_messages else 'none'}")
        if self.tx is not None:
            self.tx.set_state(Gst.State.NULL)
        self.rx.set_state(Gst.State.NULL)
        print("ok" if self.status == 0 else "FAILED", flush=True)
        return self.status


def main():
    p = argparse.ArgumentParser(
        description="st2022sink/st2022src embedded in an application")
    p.add_argument("--frames", "-n", type=int, default=5)
    p.add_argument("--bursts", "-b", type=int, default=3)
    p.add_argument("--address", "-a", default="127.0.0.1")
    p.add_argument("--timeout", "-t", type=int, default=60)
    args = p.parse_args()
    Gst.init(None)
    sys.exit(App(args).run())


if __name__ == "__main__":
    main()
