#!/usr/bin/env python3
# gst-vmi test: the documentation names only what exists.
#
#   tests/doccheck/test-docs.py
#
# Reads README.md, docs/*.md, pipelines/README.md and examples/README.md
# (VMI_SOURCE_ROOT) and fails, listing every finding, when one of them
#  - links a file that is not in the repository, or a #section its target
#    has no heading for;
#  - names a `path` of the repository (gst/..., tests/..., scripts/...) that
#    does not exist;
#  - cites "FILE.md §N" or "FILE.md, *Section*" that FILE.md does not have;
#  - quotes a message (*"..."*) whose fixed wording is in no string of the
#    sources;
#  - lists in a property table or in design.md's property list a property
#    the element does not have, or design.md leaves one out;
#  - lists in design.md's format table a format the core's table lacks, or
#    leaves one out;
# and when anything in the repository still points at the design notes that
# live outside it.
#
#   tests/doccheck/test-docs.py --commands BUILD_DIR [FILE[:LINE]...]
#
# Runs, verbatim, every command block of those documents (fenced blocks
# tagged sh, or untagged ones whose first line starts with a command) and
# every element doc block's example launch line (gst/**.c, "|[ ... ]|"),
# and fails when one does not succeed. See run_commands() for how a block is
# run (a private network namespace with eth0/eth1, a private /tmp, Xvfb, a
# bounded run) and what counts as success. A block the docs test cannot run
# says so, visibly, on the line before it in the document:
#   *Not run by the docs test: REASON.*
# (in an element's doc block: the same words on the line before its "|[")
# and the test prints the reason.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import glob
import os
import re
import subprocess
import sys

ROOT = os.environ.get("VMI_SOURCE_ROOT",
                      os.path.join(os.path.dirname(__file__), "..", ".."))
ELEMENTS = ("st2022sink", "st2022src", "vmi10to8", "vmisink", "vmisrc")
# top-level directories whose paths docs may name
TREE = ("gst/", "tests/", "scripts/", "pipelines/", "tools/", "docs/",
        "bench/", "examples/")
problems = []


def docs():
    files = ["README.md", "pipelines/README.md", "examples/README.md"]
    files += sorted(os.path.relpath(p, ROOT)
                    for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))
    return [f for f in files if os.path.exists(os.path.join(ROOT, f))]


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def slug(heading):
    """GitHub's anchor for a heading."""
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def headings(text):
    return [m.group(1) for m in re.finditer(r"^#+\s+(.*?)\s*$", text, re.M)]


def prose(text):
    """The text outside fenced code blocks."""
    return re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)


def check_links(rel, text):
    for m in re.finditer(r"\]\(([^)\s]+)\)", prose(text)):
        target = m.group(1)
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(ROOT, os.path.dirname(rel),
                                             path)) if path else \
            os.path.join(ROOT, rel)
        if not os.path.exists(full):
            problems.append(f"{rel}: link to {target}: no such file")
            continue
        if anchor and full.endswith(".md"):
            anchors = [slug(h) for h in headings(read(os.path.relpath(
                full, ROOT)))]
            if anchor not in anchors:
                problems.append(f"{rel}: link to {target}: no such section")


def check_paths(rel, text):
    for m in re.finditer(r"`([^`\s]+)`", text):
        tok = m.group(1).rstrip(".,:;")
        if not tok.startswith(TREE) or re.search(r"[<>*{}$|]|\.\.\.|…", tok):
            continue
        path = tok.split(":")[0].split("(")[0]
        # foo.[ch]: either; a built program: its source
        alts = [path.replace(".[ch]", ".c"), path.replace(".[ch]", ".h")] \
            if ".[ch]" in path else [path, path + ".c", path + ".py",
                                     path + ".sh"]
        if not any(os.path.exists(os.path.join(ROOT, a)) for a in alts):
            problems.append(f"{rel}: names `{tok}`: no such file")


def section_names(text):
    """Headings and bold paragraph leads (**Pads and queues.**)."""
    names = [re.sub(r"^[\d.]+\s*", "", h).strip() for h in headings(text)]
    names += [m.group(1).rstrip(".") for m in
              re.finditer(r"\*\*([^*]+?)\*\*", text)]
    return [n.lower() for n in names]


def resolve(rel, name):
    """A .md named in @rel: next to it, from the root, or in docs/."""
    for t in (os.path.join(os.path.dirname(rel), name), name,
              os.path.join("docs", name)):
        t = os.path.normpath(t)
        if os.path.exists(os.path.join(ROOT, t)):
            return t
    return None


def check_sections(rel, text):
    for m in re.finditer(r"([\w./-]+\.md)\s*§\s*(\d+)", text):
        target = resolve(rel, m.group(1))
        if target is None:
            problems.append(f"{rel}: cites {m.group(0)}: no such file")
            continue
        if not any(re.match(rf"{m.group(2)}[.\s]", h)
                   for h in headings(read(target))):
            problems.append(f"{rel}: cites {m.group(0)}: no section "
                            f"{m.group(2)}")
    for m in re.finditer(r"([\w./-]+\.md)[,:]?\s+\*([^*\"]+)\*", text):
        target = resolve(rel, m.group(1))
        if target is None:
            continue
        cited = re.sub(r"\s+", " ", m.group(2)).strip().lower()
        if not any(n == cited or n.startswith(cited + " ")
                   for n in section_names(read(target))):
            problems.append(f"{rel}: cites {m.group(1)} *{m.group(2)}*: "
                            "no such section")


def source_strings():
    """Every C string of the sources, adjacent literals joined, printf
    conversions turned into breaks (NUL)."""
    out = []
    files = []
    for d in ("gst", "tools"):
        files += glob.glob(os.path.join(ROOT, d, "**", "*.[ch]"),
                           recursive=True)
    lit = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
    for f in files:
        with open(f, encoding="utf-8", errors="replace") as fh:
            src = fh.read()
        src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
        # a run of literals, possibly with format macros between them
        for run in re.finditer(
                r'"(?:[^"\\\n]|\\.)*"(?:\s*(?:[A-Z_0-9]+\s*)?'
                r'"(?:[^"\\\n]|\\.)*")*', src):
            parts = []
            for piece in re.split(r'"\s*[A-Z_0-9]+\s*"', run.group(0)):
                parts.append("".join(lit.findall('"' + piece.strip('"') +
                                                 '"')))
            s = "\0".join(parts)
            s = s.replace('\\"', '"').replace("\\n", " ")
            s = re.sub(r"%[-+ #0-9.*]*(?:hh|h|ll|l|z|j|t|L)?[a-zA-Z]", "\0",
                       s)
            # a conversion spelt with a macro (%" G_GUINT64_FORMAT ")
            s = s.replace("%\0", "\0")
            out.append(re.sub(r"[ \t]+", " ", s))
    return out


def check_messages(rel, text, pieces, words):
    """A quoted message is the sources' when their fixed pieces (the text
    between printf conversions) cover nearly all of its wording: the words
    that also occur in the sources, values and names aside."""
    for m in re.finditer(r'\*"(.+?)"\*', text, re.S):
        quote = re.sub(r"\s+", " ", m.group(1)).replace("...", "…")
        covered = [False] * len(quote)
        for p in pieces:
            i = quote.find(p)
            while i >= 0:
                covered[i:i + len(p)] = [True] * len(p)
                i = quote.find(p, i + 1)
        # a part cut short with "…": inside one piece, or a piece's start
        # at the end of the part
        q = quote
        for seg in re.finditer(r"[^…]+", q):
            part = seg.group(0).rstrip()
            if len(part.strip(" ,;:")) >= 8 and any(part.strip(" ,;:") in p
                                                   for p in pieces):
                covered[seg.start():seg.start() + len(part)] = \
                    [True] * len(part)
                continue
            if seg.end() >= len(q):
                continue
            for p in pieces:
                i = part.find(p[:12])
                if i >= 0 and p.startswith(part[i:]):
                    covered[seg.start() + i:seg.start() + len(part)] = \
                        [True] * (len(part) - i)
        total = hit = 0
        for w in re.finditer(r"\S+", quote):
            # placeholders (N, PATH) and values are not wording
            if w.group(0) not in words or re.fullmatch(r"[A-Z]+",
                                                       w.group(0)):
                continue
            total += len(w.group(0))
            hit += sum(covered[w.start():w.end()])
        if total and hit < 0.75 * total:
            problems.append(f"{rel}: quotes a message the sources do not "
                            f"print ({100 * hit // total}% of its wording "
                            f"found): \"{quote[:90]}\"")


def element_properties():
    """Each element's own properties (not its base classes'), from the
    plugin in the build tree."""
    code = r"""
import gi, json
gi.require_version('Gst', '1.0')
from gi.repository import Gst, GObject
Gst.init(None)
out = {}
for f in %r:
    e = Gst.ElementFactory.make(f, None)
    if e is not None:
        out[f] = [p.name for p in GObject.list_properties(e)
                  if p.owner_type.name.startswith(('GstSt2022', 'GstVmi'))]
print(json.dumps(out))
""" % (ELEMENTS,)
    py = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else \
        sys.executable
    run = subprocess.run([py, "-c", code], capture_output=True, text=True)
    if run.returncode != 0:
        print("SKIP property checks: PyGObject is missing "
              "(python3-gi, scripts/install-deps):", run.stderr.strip())
        return None
    import json
    return json.loads(run.stdout)


def check_properties(props):
    # property tables: | `name` | ... under an element's heading
    for rel in ("docs/elements.md",):
        element = None
        for line in read(rel).splitlines():
            h = re.match(r"#+\s+(\w+)", line)
            if h:
                element = h.group(1) if h.group(1) in props else None
                continue
            cell = re.match(r"\|\s*(`[^|]+)\|", line)
            if element is None or not cell:
                continue
            for name in re.findall(r"`([a-z][a-z0-9-]*)`", cell.group(1)):
                if name not in props[element]:
                    problems.append(f"{rel}: {element} has no property "
                                    f"`{name}`")
    # design.md's list, both ways
    text = read("docs/design.md")
    sec = text.split("## Properties", 1)[1].split("\n## ", 1)[0]
    for m in re.finditer(r"^- `(\w+)`: (.*?)(?=^- |\n\n)", sec, re.M | re.S):
        element, listed = m.group(1), set(re.findall(r"`([a-z0-9-]+)`",
                                                     m.group(2)))
        if element not in props:
            problems.append(f"docs/design.md: no element {element}")
            continue
        for name in sorted(listed - set(props[element])):
            problems.append(f"docs/design.md: {element} has no property "
                            f"`{name}`")
        for name in sorted(set(props[element]) - listed):
            problems.append(f"docs/design.md: {element}'s property `{name}` "
                            "is missing from the property list")
    for element in props:
        if not re.search(rf"^- `{element}`:", sec, re.M):
            problems.append(f"docs/design.md: {element} is missing from the "
                            "property list")


def check_formats():
    core = re.findall(r'^\s*[A-Z0-9_]+\s*\(\s*"([^"]+)"',
                      read("gst/st2022/st2022-format.c"), re.M)
    text = read("docs/design.md")
    sec = text.split("## Formats", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\| (\d\S*) \|", sec, re.M)
    for f in sorted(set(listed) - set(core)):
        problems.append(f"docs/design.md: format {f} is not in "
                        "gst/st2022/st2022-format.c")
    for f in sorted(set(core) - set(listed)):
        problems.append(f"docs/design.md: format {f} of "
                        "gst/st2022/st2022-format.c is missing from the table")


def check_outside_notes():
    """Nothing points at the design notes kept outside the repository."""
    name = "DESIGN" + ".md"
    pat = re.compile(r"\bDESIGN(\.md)?\s*§|\b" + re.escape(name))
    for d in ("README.md", "docs", "tests", "gst", "tools",
              "scripts", "pipelines", "examples", "bench"):
        full = os.path.join(ROOT, d)
        files = [full] if os.path.isfile(full) else \
            glob.glob(os.path.join(full, "**", "*"), recursive=True)
        for f in files:
            if not os.path.isfile(f) or "/corpus/" in f:
                continue
            try:
                with open(f, encoding="utf-8") as fh:
                    for i, line in enumerate(fh, 1):
                        if pat.search(line):
                            problems.append(
                                f"{os.path.relpath(f, ROOT)}:{i}: points at "
                                "the design notes outside the repository: "
                                "point into docs/ instead")
            except UnicodeDecodeError:
                continue


CORES = ("st2022", "anc", "pacing", "sdp", "convert", "pool", "nmos")


def layer(rel):
    """The layer of a file under gst/ (docs/design.md, "Source layout"):
    0 a pure-C core, 1 a transport, 2 GStreamer code (elements, glue)."""
    parts = rel.split("/")
    if parts[1] == "transport":
        return 1
    if parts[1] in CORES and not parts[-1].startswith("gst"):
        return 0
    return 2


def check_layers():
    """docs/design.md's dependency rule: no file includes a header of a
    layer above its own, nothing outside gst/transport/dpdk includes
    rte_*.h, and no folder holds more than a quarter of gst/'s lines."""
    files = [os.path.relpath(f, ROOT) for f in
             glob.glob(os.path.join(ROOT, "gst", "**", "*.[ch]"),
                       recursive=True)]
    where = {}
    for rel in files:
        where.setdefault(os.path.basename(rel), []).append(rel)
    lines = {}
    inc = re.compile(r'^#\s*include\s+([<"])([^">]+)[">]', re.M)
    for rel in files:
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            src = f.read()
        parts = rel.split("/")
        folder = "/".join(parts[1:3]) if parts[1:3] == ["transport", "dpdk"] \
            else (parts[1] if len(parts) > 2 else "gst")
        lines[folder] = lines.get(folder, 0) + src.count("\n")
        for kind, name in inc.findall(src):
            if kind == "<":
                if layer(rel) < 2 and name.startswith("gst/"):
                    problems.append(f"{rel}: a core or transport includes "
                                    f"<{name}>")
                if name.startswith("rte_") and folder != "transport/dpdk":
                    problems.append(f"{rel}: includes <{name}> outside "
                                    "gst/transport/dpdk")
                continue
            targets = where.get(os.path.basename(name), [])
            if len(targets) != 1:
                continue
            target = targets[0]
            # the one edge upward, named in docs/design.md: the elements
            # start and stop the NMOS node through its glue
            if target == "gst/nmos/gstst2022nmos.h" and \
                    rel.startswith("gst/st2022-elements/"):
                continue
            if layer(target) > layer(rel) or (
                    target.startswith("gst/st2022-elements/") and
                    not rel.startswith(("gst/st2022-elements/",
                                        "gst/nmos/gstst2022nmos."))):
                problems.append(f"{rel}: includes {name} ({target}), a "
                                "layer above it (docs/design.md, "
                                "\"Source layout\")")
    total = sum(lines.values())
    for folder, n in sorted(lines.items()):
        if 4 * n > total:
            problems.append(f"gst/{folder}: {n} of gst/'s {total} lines, "
                            "more than a quarter (docs/design.md, "
                            "\"Source layout\")")


def main():
    strings = source_strings()
    words = set()
    pieces = set()
    for s in strings:
        words.update(s.replace("\0", " ").split())
        pieces.update(p for p in s.split("\0") if len(p.strip()) >= 8)
    for rel in docs():
        text = read(rel)
        check_links(rel, text)
        check_paths(rel, text)
        check_sections(rel, text)
        check_messages(rel, text, pieces, words)
    props = element_properties()
    if props is not None:
        check_properties(props)
    check_formats()
    check_outside_notes()
    check_layers()
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} problem(s)")
        sys.exit(1)
    print(f"ok: {len(docs())} documents")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--commands"]:
        import importlib.util
        spec = importlib.util.spec_from_file_location(
            "doc_commands", os.path.join(os.path.dirname(
                os.path.abspath(__file__)), "doc_commands.py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        sys.exit(mod.main(ROOT, docs(), sys.argv[2], sys.argv[3:]))
    main()
