#!/usr/bin/env bash
# Fault trials for issue 53: `encore build` runs while `encore ingest` commits into the same
# catalog, and one of the two is killed with SIGKILL at a random moment; then every path the
# published tree's JSON and HTML name must be a file of the tree (no dangling links).
#
#     Benchmarks/build-beside-ingest.sh [TRIALS] [EVENTS]   (default 20 trials, 20,000 events;
#                                                            needs a release build)
set -uo pipefail
cd "$(dirname "$0")/.."
trials=${1:-20}
events=${2:-20000}
bin=$PWD/.build/release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
$bin/encore-sample --events "$events" --out "$work/world" >/dev/null
# Half the world first, so builds have something to publish; the rest arrives during builds.
mkdir -p "$work/first" "$work/second"
i=0
for page in "$work"/world/songkick-json/*; do
    if [ $((i % 2)) -eq 0 ]; then ln -s "$page" "$work/first/"; else ln -s "$page" "$work/second/"; fi
    i=$((i + 1))
done
dangling_total=0
for trial in $(seq "$trials"); do
    rm -rf "$work/feeds" "$work/.feeds."* "$work"/encore.sqlite*
    $bin/encore --db "$work/encore.sqlite" ingest --quiet "$work/first" >/dev/null 2>&1
    $bin/encore --db "$work/encore.sqlite" build --quiet --out "$work/feeds" >/dev/null 2>&1
    $bin/encore --db "$work/encore.sqlite" ingest --quiet "$work/second" >/dev/null 2>&1 &
    ingest=$!
    $bin/encore --db "$work/encore.sqlite" build --full --quiet --out "$work/feeds" >/dev/null 2>&1 &
    build=$!
    sleep "0.$((RANDOM % 30))"
    victim=$([ $((trial % 2)) -eq 0 ] && echo "$ingest" || echo "$build")
    kill -9 "$victim" 2>/dev/null
    wait "$ingest" "$build" 2>/dev/null
    dangling=$(python3 - "$work/feeds" <<'PY'
import json, os, re, sys
tree = sys.argv[1]
path_like = re.compile(r"^(events|artists|venues|metros|users|search)/[^ ]+\.(json|html|atom|ics|geojson)$")
missing = set()
def walk(value):
    if isinstance(value, dict):
        for v in value.values(): walk(v)
    elif isinstance(value, list):
        for v in value: walk(v)
    elif isinstance(value, str) and path_like.match(value) and not os.path.exists(os.path.join(tree, value)):
        missing.add(value)
for root, _, files in os.walk(tree):
    for name in files:
        path = os.path.join(root, name)
        if name.endswith(".json"):
            walk(json.load(open(path)))
        elif name.endswith(".html"):
            for href in re.findall(r'href="?([^" >]+)', open(path).read()):
                if path_like.match(href) and not os.path.exists(os.path.join(tree, href)):
                    missing.add(href)
print(len(missing))
PY
)
    echo "trial $trial: killed $([ "$victim" = "$ingest" ] && echo ingest || echo build), dangling links: $dangling"
    dangling_total=$((dangling_total + dangling))
done
echo "dangling links in $trials trials: $dangling_total"
[ "$dangling_total" -eq 0 ]
