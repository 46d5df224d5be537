#!/usr/bin/env python3
"""Fails when a source file includes a header of a layer above its own.

The runtime's folders are layers, bottom to top (runtime/CMakeLists.txt's
PYGRAPH_RT_LAYERS).  A file may include headers of its own layer and of
layers below; a quoted include must name its folder ("graphs/indirect.h")
or be a public header of one of the --public folders.  A header whose name
ends in _internal.h is its folder's alone: no other folder may include it.  An include that
names no known layer is a violation too, so a header cannot slip past the
order by being found through another include path.

  utils/check_layers.py --layers common,port,...,cuda [--public DIR] SRC
"""
import argparse
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def violations(src, layers, public):
    rank = {name: i for i, name in enumerate(layers)}
    found = []
    for f in sorted(src.rglob("*.[ch]")):
        folder = f.relative_to(src).parts[0]
        if folder not in rank:
            found.append(f"{f}: folder '{folder}' is no layer ({', '.join(layers)})")
            continue
        for n, line in enumerate(f.read_text(errors="replace").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            name = m.group(1)
            if "/" not in name:
                if name not in public:
                    found.append(f"{f}:{n}: include \"{name}\" names no layer folder")
                continue
            target = name.split("/")[0]
            if target not in rank:
                found.append(f"{f}:{n}: include \"{name}\": '{target}' is no layer")
            elif not (src / name).is_file():
                found.append(f"{f}:{n}: include \"{name}\": no such file under {src}")
            elif name.endswith("_internal.h") and target != folder:
                found.append(f"{f}:{n}: {folder}/ includes \"{name}\", private to {target}/")
            elif rank[target] > rank[folder]:
                found.append(f"{f}:{n}: {folder}/ includes \"{name}\" from the layer above "
                             f"({target}/ is above {folder}/)")
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--layers", required=True, help="comma-separated, bottom first")
    ap.add_argument("--public", action="append", default=[],
                    help="folder of public headers includable by name")
    ap.add_argument("src", type=pathlib.Path)
    a = ap.parse_args()
    public = {p.name for d in a.public for p in pathlib.Path(d).glob("*") if p.is_file()}
    found = violations(a.src, a.layers.split(","), public)
    for v in found:
        print(v)
    print(f"check_layers: {len(found)} include(s) against the layer order under {a.src}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
