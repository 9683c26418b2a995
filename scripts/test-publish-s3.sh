#!/usr/bin/env bash
# Tests scripts/publish-s3.sh against a real S3 server on 127.0.0.1 (moto's server mode)
# with the real AWS CLI: every file lands with its type and cache lifetime, an unchanged
# tree uploads nothing, a changed file is uploaded alone and a removed one is deleted.
#
#     scripts/test-publish-s3.sh FEED_DIR      (a built tree; it is copied, not changed)
#
# Needs `pip install awscli "moto[server]"`.
set -euo pipefail
cd "$(dirname "$0")/.."

feeds=${1:?usage: $0 FEED_DIR}
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
cp -a "$feeds" "$work/site"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
moto_server -H 127.0.0.1 -p "$port" >"$work/moto.log" 2>&1 &
server=$!
for _ in $(seq 50); do
    curl -s -o /dev/null "http://127.0.0.1:$port/" && break
    sleep 0.2
done

export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing AWS_DEFAULT_REGION=us-east-1
endpoint=(--endpoint-url "http://127.0.0.1:$port")
aws "${endpoint[@]}" s3 mb s3://encore-www >/dev/null

failures=0
check() { # DESCRIPTION, EXPECTED, ACTUAL
    if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAIL: $1: expected '$2', got '$3'"; failures=$((failures + 1)); fi
}
head_field() { # KEY, FIELD
    aws "${endpoint[@]}" s3api head-object --bucket encore-www --key "$1" --query "$2" --output text
}

scripts/publish-s3.sh "$work/site" s3://encore-www "${endpoint[@]}" >"$work/first.log"
files=$(cd "$work/site" && find . -type f | wc -l)
objects=$(aws "${endpoint[@]}" s3 ls s3://encore-www --recursive | wc -l)
check "every file is uploaded once" "$files" "$objects"
check "uploads on the first publish" "$files" "$(grep -c '^upload:' "$work/first.log")"

# The first file of a kind (no `| head`: under pipefail, its early exit fails the pipe).
first() { (cd "$work/site" && find . "$@" -print -quit | sed 's|^\./||'); }
event=$(first -path "./events/*.json")
metro=$(first -path "./metros/*.geojson")
check "index.json type" "application/json" "$(head_field index.json ContentType)"
check "index.json cache" "public, max-age=300" "$(head_field index.json CacheControl)"
check "$event type" "application/json" "$(head_field "$event" ContentType)"
check "$event cache" "public, max-age=3600" "$(head_field "$event" CacheControl)"
check "$metro type" "application/geo+json" "$(head_field "$metro" ContentType)"
for kind in html atom ics css js; do
    sample=$(first -name "*.$kind" -not -path "./events/*")
    [ -n "$sample" ] || continue
    case $kind in
        html) expected="text/html; charset=utf-8" ;;
        atom) expected="application/atom+xml" ;;
        ics) expected="text/calendar; charset=utf-8" ;;
        css) expected="text/css; charset=utf-8" ;;
        js) expected="text/javascript; charset=utf-8" ;;
    esac
    check "$sample type" "$expected" "$(head_field "$sample" ContentType)"
done

scripts/publish-s3.sh "$work/site" s3://encore-www "${endpoint[@]}" >"$work/second.log"
check "an unchanged tree uploads nothing" "0" "$(grep -c '^upload:' "$work/second.log" || true)"

# A refresh changes one file and removes another.
sleep 1
python3 - "$work/site/index.json" <<'PY'
import json, sys
path = sys.argv[1]
document = json.load(open(path))
document["generated_by_test"] = True
json.dump(document, open(path, "w"))
PY
rm "$work/site/$event"
scripts/publish-s3.sh "$work/site" s3://encore-www "${endpoint[@]}" >"$work/third.log"
check "only the changed file is uploaded" "1" "$(grep -c '^upload:' "$work/third.log" || true)"
check "the changed file is index.json" "1" "$(grep -c '^upload: .*index.json to s3://encore-www/index.json' "$work/third.log" || true)"
check "the removed file is deleted" "1" "$(grep -c "^delete: s3://encore-www/$event" "$work/third.log" || true)"
check "the bucket holds the tree" "$((files - 1))" "$(aws "${endpoint[@]}" s3 ls s3://encore-www --recursive | wc -l)"

if [ "$failures" -gt 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
fi
echo "publish recipe: all checks passed"
