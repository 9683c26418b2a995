#!/usr/bin/env python3
"""Validates a built feed tree against the JSON Schemas in feeds/schema/.

    python3 scripts/validate-feeds.py FEED_DIR [SCHEMA_DIR]

Every file is matched to its schema by path; a file with no schema is an error, so a new
feed type cannot ship without one. Prints one line per failure and a closing
"N passed, N failed" line; exits 1 when anything failed. Needs the `jsonschema` package.
"""
import json
import os
import re
import sys

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

RULES = [
    (r"^index\.json$", "index.schema.json"),
    (r"^metros/\d+\.json$", "metro.schema.json"),
    (r"^metros/\d+/page-\d+\.json$", "metro.schema.json"),
    (r"^metros/\d+\.geojson$", "metro-geojson.schema.json"),
    (r"^artists/[a-z0-9-]+\.json$", "artist.schema.json"),
    (r"^artists/[a-z0-9-]+/page-\d+\.json$", "artist.schema.json"),
    (r"^venues/\d+\.json$", "venue.schema.json"),
    (r"^venues/\d+/page-\d+\.json$", "venue.schema.json"),
    (r"^events/\d+\.json$", "event.schema.json"),
    (r"^users/[A-Za-z0-9._-]+/plans\.json$", "user-plans.schema.json"),
    (r"^users/[A-Za-z0-9._-]+/feed\.json$", "user-feed.schema.json"),
    (r"^users/[A-Za-z0-9._-]+/plans\.ics$", None),
    (r"^search/artists\.json$", "search-artists.schema.json"),
    (r"^schema/[a-z-]+\.schema\.json$", None),
]


def main():
    feed_dir = sys.argv[1]
    schema_dir = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "feeds", "schema")
    schemas = {}
    registry = Registry()
    for name in sorted(os.listdir(schema_dir)):
        if name.endswith(".schema.json"):
            with open(os.path.join(schema_dir, name), encoding="utf-8") as f:
                schema = json.load(f)
            schemas[name] = schema
            registry = registry.with_resource(schema["$id"], Resource.from_contents(schema))
    passed = failed = 0
    for root, _, files in os.walk(feed_dir):
        for file in sorted(files):
            path = os.path.relpath(os.path.join(root, file), feed_dir)
            rule = next((schema for pattern, schema in RULES if re.match(pattern, path)), "missing")
            if rule == "missing":
                print(f"FAIL {path}: no schema covers this file")
                failed += 1
                continue
            if rule is None:
                passed += 1
                continue
            with open(os.path.join(root, file), encoding="utf-8") as f:
                document = json.load(f)
            validator = Draft202012Validator(schemas[rule], registry=registry)
            errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
            if errors:
                failed += 1
                first = errors[0]
                print(f"FAIL {path} ({rule}): {'/'.join(map(str, first.path))}: {first.message}")
            else:
                passed += 1
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
