#!/usr/bin/env bash
# Times scripts/publish-s3.sh on a local S3 (moto): a first publish of a built sample world,
# a second with nothing changed, and one after 1 % of the events moved a day.
#
#     Benchmarks/publish-s3.sh [EVENTS]      (default 3000; needs awscli and moto[server],
#                                              and a release build: swift build -c release)
set -euo pipefail
cd "$(dirname "$0")/.."
events=${1:-3000}
bin=.build/release
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

$bin/encore-sample --events "$events" --out "$work/world" >/dev/null
$bin/encore --db "$work/encore.sqlite" ingest --quiet "$work/world/songkick-json" >/dev/null
$bin/encore --db "$work/encore.sqlite" build --quiet --out "$work/feeds" >/dev/null

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
moto_server -H 127.0.0.1 -p "$port" >"$work/moto.log" 2>&1 &
server=$!
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.2; done
export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing AWS_DEFAULT_REGION=us-east-1
endpoint=(--endpoint-url "http://127.0.0.1:$port")
aws "${endpoint[@]}" s3 mb s3://bench >/dev/null

seconds() { local start=$(date +%s.%N); "$@" >/dev/null; echo "$(date +%s.%N) - $start" | bc; }
first=$(seconds scripts/publish-s3.sh "$work/feeds" s3://bench "${endpoint[@]}")
second=$(seconds scripts/publish-s3.sh "$work/feeds" s3://bench "${endpoint[@]}")

# 1 % of the events a day later: their calendar pages re-ingested, the site rebuilt.
python3 - "$work/world/songkick-json" "$events" <<'PY'
import datetime, json, os, sys
folder, events = sys.argv[1], int(sys.argv[2])
left = events // 100
paths = sorted(os.path.join(root, name) for root, _, names in os.walk(folder) for name in names if name.endswith(".json"))
for path in paths:
    if left == 0: break
    page = json.load(open(path))
    results = page.get("resultsPage", {}).get("results", {}) if isinstance(page, dict) else {}
    events = results.get("event", []) if isinstance(results, dict) else []
    for event in [events] if isinstance(events, dict) else events:
        if left == 0: break
        if not isinstance(event.get("start"), dict) or not event["start"].get("date"): continue
        day = datetime.date.fromisoformat(event["start"]["date"]) + datetime.timedelta(days=1)
        event["start"]["date"] = day.isoformat()
        event["start"]["datetime"] = None
        left -= 1
    json.dump(page, open(path, "w"))
PY
$bin/encore --db "$work/encore.sqlite" ingest --quiet "$work/world/songkick-json" >/dev/null
$bin/encore --db "$work/encore.sqlite" build --quiet --out "$work/feeds" >/dev/null
files=$(sort -u "$work/.feeds.state/publish-pending" | wc -l)
changed=$(seconds scripts/publish-s3.sh "$work/feeds" s3://bench "${endpoint[@]}")
total=$(find "$work/feeds" -type f | wc -l)
printf 'first publish (%d files): %.1f s\nnothing changed: %.2f s (%.1f %%)\nafter a 1 %% change (%d files): %.2f s (%.1f %%)\n' \
    "$total" "$first" "$second" "$(echo "100 * $second / $first" | bc -l)" "$files" "$changed" "$(echo "100 * $changed / $first" | bc -l)"
