#!/usr/bin/env bash
# Tests scripts/publish-s3.sh against a real S3 server on 127.0.0.1 (moto's server mode):
# every file lands with its type and cache lifetime; an unchanged tree uploads nothing; after
# a real change and a build, exactly the files the build listed are put, and a removed one
# deleted, without listing the bucket; a publish killed halfway resumes and leaves the
# bucket equal to the tree.
#
#     ENCORE_DB=CATALOG scripts/test-publish-s3.sh FEED_DIR
#
# FEED_DIR is a tree built from CATALOG; both are copied, not changed. ENCORE names the
# encore command (default: swift run encore). Needs `pip install awscli "moto[server]"`.
set -euo pipefail
cd "$(dirname "$0")/.."

feeds=${1:?usage: ENCORE_DB=CATALOG $0 FEED_DIR}
catalog=${ENCORE_DB:?ENCORE_DB must name the catalog FEED_DIR was built from}
read -r -a encore <<<"${ENCORE:-swift run encore}"
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
cp -a "$feeds" "$work/site"
cp "$catalog" "$work/encore.sqlite"

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

# Is the bucket the tree? Same keys, and each object's ETag the MD5 of its file.
same_as_tree() { # BUCKET
    python3 - "$work/site" "$1" "http://127.0.0.1:$port" <<'PY'
import hashlib, os, sys, botocore.session
tree, bucket, endpoint = sys.argv[1:]
client = botocore.session.Session().create_client("s3", endpoint_url=endpoint, region_name="us-east-1")
remote = {}
for page in client.get_paginator("list_objects_v2").paginate(Bucket=bucket):
    for item in page.get("Contents", []):
        remote[item["Key"]] = item["ETag"].strip('"')
local = {}
for root, _, files in os.walk(tree):
    for name in files:
        path = os.path.join(root, name)
        local[os.path.relpath(path, tree)] = hashlib.md5(open(path, "rb").read()).hexdigest()
differing = sorted(k for k in set(local) | set(remote) if local.get(k) != remote.get(k))
print("same" if not differing else f"{len(differing)} differ, like {differing[:3]}")
PY
}
check "the bucket holds the tree" "same" "$(same_as_tree encore-www)"

# A real change: a London calendar ingested, the site rebuilt (incrementally: the build's
# state is copied beside the tree by a first build of the copy).
"${encore[@]}" build --db "$work/encore.sqlite" --out "$work/site" --quiet >/dev/null
scripts/publish-s3.sh "$work/site" s3://encore-www "${endpoint[@]}" >"$work/rebuilt.log"
"${encore[@]}" ingest --db "$work/encore.sqlite" --quiet Fixtures/changes/songkick-json/metro-24426-calendar.json >/dev/null
"${encore[@]}" build --db "$work/encore.sqlite" --out "$work/site" --quiet >/dev/null
listed=$(sort -u "$work/.site.state/publish-pending" | wc -l)
# Those still in the tree are put; the others (a list page gone) deleted.
present=$(sort -u "$work/.site.state/publish-pending" | while read -r path; do [ -f "$work/site/$path" ] && echo "$path"; done | wc -l)
# A file the build removed (as a list that grew shorter does): listed, absent from the tree.
removed=$(cd "$work/site" && find . -path "./venues/*.json" -print -quit | sed 's|^\./||')
rm "$work/site/$removed" && echo "$removed" >>"$work/.site.state/publish-pending"
listings() { grep -c 'list-type=2' "$work/moto.log" || true; }
listings_before=$(listings)
scripts/publish-s3.sh "$work/site" s3://encore-www "${endpoint[@]}" >"$work/third.log"
check "the publish does not list the bucket (moto's log)" "$listings_before" "$(listings)"
check "the build listed the change" "yes" "$([ "$listed" -gt 5 ] && echo yes || echo "no ($listed)")"
check "exactly the listed files in the tree are uploaded" "$present" "$(grep -c '^upload:' "$work/third.log" || true)"
check "the index is uploaded last" "index" "$(grep '^upload:' "$work/third.log" | tail -1 | sed -E 's|.*/(index)\.[a-z]+$|\1|')"
check "the removed file is deleted, after the uploads" "delete: s3://encore-www/$removed" "$(grep -E '^(upload|delete):' "$work/third.log" | tail -1)"
check "the bucket holds the tree after the change" "same" "$(same_as_tree encore-www)"
scripts/publish-s3.sh "$work/site" s3://encore-www "${endpoint[@]}" >"$work/fourth.log"
check "a publish with nothing changed uploads nothing" "0" "$(grep -c '^upload:' "$work/fourth.log" || true)"

# Killed halfway, a publish to a new bucket resumes where it stopped.
aws "${endpoint[@]}" s3 mb s3://encore-resume >/dev/null
scripts/publish-s3.sh "$work/site" s3://encore-resume "${endpoint[@]}" --workers 2 >"$work/killed.log" 2>&1 &
publisher=$!
while [ "$(wc -l 2>/dev/null <"$work/.site.state/publish-done" || echo 0)" -lt 21 ] && kill -0 "$publisher" 2>/dev/null; do sleep 0.05; done
kill -9 "$publisher" 2>/dev/null || true
wait "$publisher" 2>/dev/null || true
before=$(($(wc -l <"$work/.site.state/publish-done") - 1))
scripts/publish-s3.sh "$work/site" s3://encore-resume "${endpoint[@]}" >"$work/resumed.log"
total=$(cd "$work/site" && find . -type f | wc -l)
resumed=$(grep -c '^upload:' "$work/resumed.log" || true)
check "the resumed publish skips what was done" "yes" "$([ "$resumed" -le $((total - before + 8)) ] && [ "$resumed" -lt "$total" ] && echo yes || echo "no ($resumed of $total, $before done)")"
check "the resumed bucket holds the tree" "same" "$(same_as_tree encore-resume)"

if [ "$failures" -gt 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
fi
echo "publish recipe: all checks passed"
