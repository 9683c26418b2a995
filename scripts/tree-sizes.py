#!/usr/bin/env python3
"""Bytes and file counts of a built feed tree by kind (top folder and extension).

    python3 scripts/tree-sizes.py FEED_DIR [OTHER_FEED_DIR] [--events N]

With two trees, prints them side by side; with --events, bytes per event too.
"""
import os
import sys
from collections import defaultdict


def sizes(root):
    kinds = defaultdict(lambda: [0, 0])
    for folder, _, files in os.walk(root):
        relative = os.path.relpath(folder, root)
        top = "." if relative == "." else relative.split(os.sep)[0]
        for name in files:
            extension = os.path.splitext(name)[1] or name
            kind = kinds[(top, extension)]
            kind[0] += 1
            kind[1] += os.lstat(os.path.join(folder, name)).st_size
    return kinds


def main(arguments):
    events = None
    if "--events" in arguments:
        at = arguments.index("--events")
        events = int(arguments[at + 1])
        del arguments[at:at + 2]
    if not 1 <= len(arguments) <= 2:
        sys.exit(__doc__)
    trees = [sizes(root) for root in arguments]
    keys = sorted(set().union(*trees), key=lambda key: -max(tree.get(key, [0, 0])[1] for tree in trees))

    def cell(kind):
        files, size = kind
        per_event = f" {size / events / 1000:6.2f} KB/ev" if events else ""
        return f"{files:>9,} {size / 1e6:9.1f} MB{per_event}"

    header = "".join(f" | {os.path.basename(os.path.normpath(root)):>{35 if events else 22}}" for root in arguments)
    print(f"{'kind':<20}{header}")
    for key in keys + [("all", "")]:
        if key == ("all", ""):
            row = [[sum(k[0] for k in tree.values()), sum(k[1] for k in tree.values())] for tree in trees]
        else:
            row = [tree.get(key, [0, 0]) for tree in trees]
        print(f"{key[0] + ' ' + key[1]:<20}" + "".join(" | " + cell(kind) for kind in row))


if __name__ == "__main__":
    main(sys.argv[1:])
