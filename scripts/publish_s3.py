#!/usr/bin/env python3
"""Publishes what the builds changed to an S3-compatible bucket (scripts/publish-s3.sh).

    python3 scripts/publish_s3.py FEED_DIR s3://BUCKET[/PREFIX] [--endpoint-url URL]
                                  [--profile NAME] [--region NAME] [--full]

Every `encore build` appends the paths it wrote or removed to `.<name>.state/publish-pending`
beside FEED_DIR. A publish takes that list and puts exactly those files, deleting the ones
the tree no longer has, without listing the bucket:

1. style sheets, scripts and other assets (pages name them);
2. concert pages (`events/`), which the lists and feeds link;
3. everything else but the entry points;
4. `index.json` and `index.html`;
5. deletions, last, so nothing published links a file already gone.

The list being published is kept as `publish-taken`, and each finished path is added to
`publish-done`: an interrupted publish resumes where it stopped. A first publish to a
destination (or a build that could not list its changes) puts the whole tree; `--full`
also lists the bucket once and deletes what the tree does not have.

Needs botocore (installed with the AWS CLI); credentials come from the AWS CLI's usual
environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_DEFAULT_REGION or a profile).
"""
import argparse
import concurrent.futures
import fcntl
import os
import sys
import threading

CONCERT = "public, max-age=3600"
LIST = "public, max-age=300"
ASSET = "public, max-age=86400"

TYPES = {
    ".html": "text/html; charset=utf-8",
    ".json": "application/json",
    ".ics": "text/calendar; charset=utf-8",
    ".geojson": "application/geo+json",
    ".atom": "application/atom+xml",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".xml": "application/xml",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
}
ASSETS = {".css", ".js", ".svg", ".png", ".ico"}


def is_asset(path):
    """The site's style sheet, script and icon (named by their content: kept a day); not
    the per-city near-me indexes (`metros/{id}.near.js`), which change with the listings."""
    return "/" not in path and os.path.splitext(path)[1] in ASSETS
ENTRY_POINTS = {"index.json", "index.html"}


def headers(path):
    """Content-Type and Cache-Control of a file, as the recipe has always sent them."""
    extension = os.path.splitext(path)[1]
    content_type = TYPES.get(extension, "binary/octet-stream")
    if is_asset(path):
        cache = ASSET
    elif path.startswith("events/") and extension in (".html", ".json", ".ics"):
        cache = CONCERT
    else:
        cache = LIST
    return content_type, cache


def phase(path):
    if is_asset(path):
        return 0
    if path.startswith("events/"):
        return 1
    if path in ENTRY_POINTS:
        return 3
    return 2


def read_lines(path):
    try:
        with open(path, encoding="utf-8") as f:
            return [line.rstrip("\n") for line in f if line.strip()]
    except FileNotFoundError:
        return []


def take_list(state):
    """Moves the builds' list into `publish-taken` (adding to one an interrupted publish
    left), under the build lock so no build appends halfway."""
    pending = os.path.join(state, "publish-pending")
    taken = os.path.join(state, "publish-taken")
    os.makedirs(state, exist_ok=True)
    with open(os.path.join(state, "lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(pending):
            if os.path.exists(taken):
                with open(taken, "a", encoding="utf-8") as out, open(pending, encoding="utf-8") as new:
                    out.write(new.read())
                    out.flush()
                    os.fsync(out.fileno())
                os.remove(pending)
            else:
                os.rename(pending, taken)
    return set(read_lines(taken))


def every_file(feed_dir):
    for root, _, files in os.walk(feed_dir):
        for name in files:
            yield os.path.relpath(os.path.join(root, name), feed_dir).replace(os.sep, "/")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("feed_dir")
    parser.add_argument("destination")
    parser.add_argument("--endpoint-url")
    parser.add_argument("--profile")
    parser.add_argument("--region")
    parser.add_argument("--full", action="store_true", help="put every file and delete what the tree lacks (lists the bucket once)")
    parser.add_argument("--workers", type=int, default=8, help="uploads at once (default 8)")
    args = parser.parse_args()

    feed_dir = args.feed_dir.rstrip("/")
    if not os.path.isfile(os.path.join(feed_dir, "index.json")):
        sys.exit(f"error: {feed_dir} has no index.json: build the feeds first (encore build --out {feed_dir})")
    if not args.destination.startswith("s3://"):
        sys.exit(f"error: {args.destination} is no s3://BUCKET[/PREFIX]")
    bucket, _, prefix = args.destination[5:].rstrip("/").partition("/")
    prefix = prefix + "/" if prefix else ""
    parent, name = os.path.split(os.path.abspath(feed_dir))
    state = os.path.join(parent, f".{name}.state")

    import botocore.session  # here, so that --help works without it

    session = botocore.session.Session(profile=args.profile)
    client = session.create_client(
        "s3", endpoint_url=args.endpoint_url, region_name=args.region or session.get_config_variable("region") or "us-east-1"
    )

    listed = take_list(state)
    # What an interrupted publish to this destination finished (its first line names it).
    done_path = os.path.join(state, "publish-done")
    done_lines = read_lines(done_path)
    mark = "# " + args.destination
    done = set(done_lines[1:]) if done_lines[:1] == [mark] else set()
    if done_lines[:1] != [mark]:
        with open(done_path, "w", encoding="utf-8") as f:
            f.write(mark + "\n")
    published_to = os.path.join(state, "published-to")
    first_here = read_lines(published_to) != [args.destination]
    everything = args.full or first_here or "*" in listed
    if everything:
        listed = (listed - {"*"}) | set(every_file(feed_dir))
    if args.full:
        paginator = client.get_paginator("list_objects_v2")
        for page in paginator.paginate(Bucket=bucket, Prefix=prefix):
            for item in page.get("Contents", []):
                listed.add(item["Key"][len(prefix):])

    todo = sorted(path for path in listed if path not in done)
    puts = [p for p in todo if os.path.isfile(os.path.join(feed_dir, p))]
    deletes = [p for p in todo if not os.path.isfile(os.path.join(feed_dir, p))]

    done_file = open(done_path, "a", encoding="utf-8")
    record_lock = threading.Lock()
    failures = []

    def record(path, message):
        # One line at a time: threads' prints would interleave.
        with record_lock:
            done_file.write(path + "\n")
            done_file.flush()
            sys.stdout.write(message + "\n")
            sys.stdout.flush()

    def put(path):
        content_type, cache = headers(path)
        with open(os.path.join(feed_dir, path), "rb") as f:
            client.put_object(Bucket=bucket, Key=prefix + path, Body=f.read(), ContentType=content_type, CacheControl=cache)
        record(path, f"upload: {feed_dir}/{path} to s3://{bucket}/{prefix}{path}")

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.workers) as pool:
        for number in range(4):
            batch = [p for p in puts if phase(p) == number]
            futures = {pool.submit(put, p): p for p in batch}
            for future in concurrent.futures.as_completed(futures):
                if future.exception() is not None:
                    failures.append(f"{futures[future]}: {future.exception()}")
            if failures:
                break  # later phases link what failed: stop, and resume next time
    if not failures:
        for start in range(0, len(deletes), 1000):
            chunk = deletes[start : start + 1000]
            response = client.delete_objects(
                Bucket=bucket, Delete={"Objects": [{"Key": prefix + p} for p in chunk], "Quiet": True}
            )
            errors = {e["Key"][len(prefix):]: e.get("Message", e.get("Code")) for e in response.get("Errors", [])}
            for path in chunk:
                if path in errors:
                    failures.append(f"{path}: {errors[path]}")
                else:
                    record(path, f"delete: s3://{bucket}/{prefix}{path}")
    done_file.close()

    if failures:
        for failure in failures[:20]:
            print(f"error: {failure}", file=sys.stderr)
        sys.exit(f"error: {len(failures)} file(s) not published; run again to resume ({len(done)} done before this run)")
    with open(published_to, "w", encoding="utf-8") as f:
        f.write(args.destination + "\n")
    for path in (os.path.join(state, "publish-taken"), done_path):
        if os.path.exists(path):
            os.remove(path)
    print(f"published {len(puts)} file(s), deleted {len(deletes)} to {args.destination}")


if __name__ == "__main__":
    main()
