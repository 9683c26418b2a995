#!/usr/bin/env bash
# Publishes a built feed tree to an S3-compatible bucket, for serving behind a CDN.
#
#     scripts/publish-s3.sh FEED_DIR s3://BUCKET[/PREFIX] [AWS CLI OPTIONS...]
#     scripts/publish-s3.sh feeds s3://encore-www --endpoint-url https://s3.example.net
#
# Uploads only the files that changed since the last publish (the AWS CLI's sync compares
# size and modification time; `encore build` keeps unchanged files as they were), each
# with its Content-Type and Cache-Control, and deletes from the bucket what the build
# removed. Credentials come from the AWS CLI's usual environment (AWS_ACCESS_KEY_ID,
# AWS_SECRET_ACCESS_KEY, AWS_DEFAULT_REGION or a profile).
#
# Cache lifetimes: a concert page (events/) changes only when that show does, so CDNs keep
# it an hour; lists, the index, search files and feeds change with every refresh and are
# kept five minutes; the style sheet and scripts a day.
set -euo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 FEED_DIR s3://BUCKET[/PREFIX] [AWS CLI OPTIONS...]" >&2
    exit 2
fi
source_dir=${1%/}
destination=${2%/}
shift 2
if [ ! -f "$source_dir/index.json" ]; then
    echo "error: $source_dir has no index.json: build the feeds first (encore build --out $source_dir)" >&2
    exit 2
fi

concert="public, max-age=3600"
list="public, max-age=300"
asset="public, max-age=86400"

# One sync per kind of file: PATTERN|CONTENT-TYPE|CACHE-CONTROL|WHERE (events, rest, all).
kinds=(
    "*.html|text/html; charset=utf-8|$concert|events"
    "*.json|application/json|$concert|events"
    "*.ics|text/calendar; charset=utf-8|$concert|events"
    "*.html|text/html; charset=utf-8|$list|rest"
    "*.json|application/json|$list|rest"
    "*.geojson|application/geo+json|$list|rest"
    "*.ics|text/calendar; charset=utf-8|$list|rest"
    "*.atom|application/atom+xml|$list|all"
    "*.css|text/css; charset=utf-8|$asset|all"
    "*.js|text/javascript; charset=utf-8|$asset|all"
)

known=()
for kind in "${kinds[@]}"; do
    IFS='|' read -r pattern type cache where <<<"$kind"
    filters=(--exclude "*")
    case $where in
        events) filters+=(--include "events/$pattern") ;;
        rest) filters+=(--include "$pattern" --exclude "events/*") ;;
        all) filters+=(--include "$pattern") ;;
    esac
    # --delete removes, among the files this pass covers, those the build no longer has.
    aws s3 sync "$source_dir" "$destination" --delete --no-progress \
        "${filters[@]}" --content-type "$type" --cache-control "$cache" "$@"
    known+=(--exclude "$pattern")
done

# Anything else the build wrote, with the bucket's default type.
aws s3 sync "$source_dir" "$destination" --delete --no-progress \
    "${known[@]}" --cache-control "$list" "$@"
