#!/usr/bin/env bash
# Publishes a built feed tree to an S3-compatible bucket, for serving behind a CDN.
#
#     scripts/publish-s3.sh FEED_DIR s3://BUCKET[/PREFIX] [--endpoint-url URL] [--profile NAME]
#                           [--region NAME] [--full]
#     scripts/publish-s3.sh feeds s3://encore-www --endpoint-url https://s3.example.net
#
# Puts exactly the files the builds since the last publish wrote, and deletes the ones
# they removed, from the list `encore build` keeps beside the tree: no listing of the
# bucket, nothing uploaded when nothing changed. Assets first, then concert pages, then
# the lists and feeds that link them, the index last, deletions after everything; an
# interrupted publish resumes where it stopped. The first publish to a bucket puts the
# whole tree; --full also deletes what the tree does not have. Credentials come from the
# AWS CLI's usual environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
# AWS_DEFAULT_REGION or a profile); needs botocore (pip install awscli).
#
# Cache lifetimes: a concert page (events/) changes only when that show does, so CDNs keep
# it an hour; lists, the index, search files and feeds change with every refresh and are
# kept five minutes; the style sheet and scripts a day. (scripts/publish_s3.py)
set -euo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 FEED_DIR s3://BUCKET[/PREFIX] [--endpoint-url URL] [--profile NAME] [--region NAME] [--full]" >&2
    exit 2
fi
exec python3 "$(dirname "$0")/publish_s3.py" "$@"
