#!/usr/bin/env python3
# gst-vmi: an independent DNS-SD advertiser for tests/nmos/test-nmos-dnssd.c:
# python3-zeroconf (what AMWA's NMOS Testing Tool advertises its mock
# registries with) publishing IS-04 Registration APIs on 127.0.0.1 (the
# test runs in a network namespace of its own, loopback multicast on).
# Commands on stdin, one a line, each answered on stdout:
#   add NAME TYPE PORT PRI API_VER API_PROTO   -> "added NAME"
#   remove NAME                                -> "removed NAME"
# TYPE: register (_nmos-register._tcp) or registration (the legacy type).
# Prints "ready" once started; exits 77 (skip) without zeroconf.
import socket
import sys

try:
    from zeroconf import IPVersion, ServiceInfo, Zeroconf
except ImportError:
    print("no-zeroconf", flush=True)
    sys.exit(77)


def main():
    zc = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
    services = {}
    print("ready", flush=True)
    for line in sys.stdin:
        w = line.split()
        if not w:
            continue
        if w[0] == "add":
            name, typ, port, pri, ver, proto = w[1:7]
            stype = "_nmos-%s._tcp.local." % typ
            info = ServiceInfo(
                stype, "%s.%s" % (name, stype),
                addresses=[socket.inet_aton("127.0.0.1")], port=int(port),
                properties={"pri": pri, "api_ver": ver, "api_proto": proto,
                            "api_auth": "false"},
                server="%s.local." % name)
            if typ == "register":
                # no probing: the names are the test's own
                zc.register_service(info, cooperating_responders=True)
            else:
                # the legacy type is longer than RFC 6763's 15 octets:
                # zeroconf >= 0.51 takes strict=False (as AMWA's tool
                # passes), Debian 12's 0.47 refuses it in
                # register_service(); its responder answers for it all the
                # same once the service is in its registry
                try:
                    zc.register_service(info, strict=False)
                except TypeError:
                    zc.loop.call_soon_threadsafe(zc.registry.async_add, info)
            services[name] = info
            print("added", name, flush=True)
        elif w[0] == "remove":
            info = services.pop(w[1])
            if info.type.startswith("_nmos-register."):
                zc.unregister_service(info)
            else:
                zc.loop.call_soon_threadsafe(zc.registry.async_remove, info)
            print("removed", w[1], flush=True)
    zc.close()


main()
