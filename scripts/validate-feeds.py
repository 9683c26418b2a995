#!/usr/bin/env python3
"""Validates a built feed tree against the JSON Schemas in feeds/schema/.

    python3 scripts/validate-feeds.py FEED_DIR [SCHEMA_DIR]

Every file is matched to its schema by path; a file with no schema is an error, so a new
feed type cannot ship without one. The website's pages are checked for their structure
(one h1, a language, links to files of the tree) and the Atom feeds as RFC 4287
documents; the W3C validator and a feed parser check them fully (scripts/browser-test.py). Prints one line per failure and a closing
"N passed, N failed" line; exits 1 when anything failed. Needs the `jsonschema` package.
"""
import json
import os
import re
import sys
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser

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
    (r"^search/venues\.json$", "search-venues.schema.json"),
    (r"^schema/[a-z-]+\.schema\.json$", None),
    # The website and its Atom feeds: checked by check_html and check_atom.
    (r"^index\.html$", "html"),
    (r"^(metros/\d+|venues/\d+|artists/[a-z0-9-]+)(/page-\d+)?\.html$", "html"),
    (r"^events/\d+\.html$", "html"),
    (r"^users/[A-Za-z0-9._-]+/(plans|feed)\.html$", "html"),
    (r"^events/\d+\.ics$", None),
    (r"^(metros/\d+|artists/[a-z0-9-]+|users/[A-Za-z0-9._-]+/feed)\.atom$", "atom"),
    (r"^site\.[0-9a-f]{8}\.(css|js)$", None),
    (r"^favicon\.[0-9a-f]{8}\.svg$", None),
    (r"^(about|mine)\.html$", "html"),
    (r"^near\.js$", None),
    (r"^metros/\d+\.near\.js$", None),
    (r"^sitemap(-\d+)?\.xml$", None),
]


class PageOutline(HTMLParser):
    """What check_html needs of a page: its language, headings and links."""

    def __init__(self):
        super().__init__()
        self.lang = None
        self.base = None
        self.headings = []
        self.links = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.lang = attrs.get("lang")
        elif tag == "base":
            self.base = attrs.get("href")
        elif re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))
        elif tag in ("a", "link") and attrs.get("href"):
            self.links.append(attrs["href"])


def check_html(feed_dir, path, text):
    """Problems of a page: no doctype or language, not one h1, a heading level skipped,
    a link into the tree to a file that is not there."""
    if not text.startswith("<!DOCTYPE html>"):
        return "no <!DOCTYPE html>"
    page = PageOutline()
    page.feed(text)
    if not page.lang:
        return "no lang on <html>"
    if page.headings.count(1) != 1 or page.headings[0] != 1:
        return f"headings {page.headings}: one h1 first"
    for previous, heading in zip(page.headings, page.headings[1:]):
        if heading > previous + 1:
            return f"heading h{heading} after h{previous}"
    depth = path.count("/")
    if page.base != ("./" if depth == 0 else "../" * depth):
        return f"<base href> {page.base!r} is not the tree's root"
    for href in page.links:
        if re.match(r"^[a-z][a-z0-9+.-]*:", href) or href.startswith("#"):
            continue
        target = os.path.join(feed_dir, href.split("#")[0])
        if not os.path.isfile(target):
            return f"link to {href}, which the tree lacks"
    return None


ATOM = "{http://www.w3.org/2005/Atom}"


def check_atom(feed_dir, path, text):
    """Problems of an Atom feed: not RFC 4287's required elements, entries without an id,
    a title, an update time or a link to a page of the tree."""
    root = ElementTree.fromstring(text.encode("utf-8"))
    if root.tag != ATOM + "feed":
        return "root is not an Atom feed"
    for name in ("id", "title", "updated", "author"):
        if root.find(ATOM + name) is None:
            return f"feed has no {name}"
    for entry in root.findall(ATOM + "entry"):
        for name in ("id", "title", "updated", "link"):
            if entry.find(ATOM + name) is None:
                return f"entry has no {name}"
        href = entry.find(ATOM + "link").get("href")
        # Entries link from one folder deep (xml:base says so for deeper feeds).
        if not href.startswith("../") or not os.path.isfile(os.path.join(feed_dir, href[3:])):
            return f"entry links {href}, which the tree lacks"
    return None


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
            if rule in ("html", "atom"):
                with open(os.path.join(root, file), encoding="utf-8") as f:
                    problem = (check_html if rule == "html" else check_atom)(feed_dir, path, f.read())
                if problem:
                    failed += 1
                    print(f"FAIL {path}: {problem}")
                else:
                    passed += 1
                continue
            with open(os.path.join(root, file), encoding="utf-8") as f:
                document = json.load(f)
            # A band page whose band merged into another says where it went.
            if rule == "artist.schema.json" and isinstance(document, dict) and "moved_to" in document:
                rule = "artist-moved.schema.json"
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
