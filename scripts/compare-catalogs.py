#!/usr/bin/env python3
"""Compare two Encore catalogs table by table, ids and times aside.

    scripts/compare-catalogs.py BEFORE.sqlite AFTER.sqlite [--examples N]

Row ids depend on the order pages were applied, so every event, venue, artist and
metro-area id (in any column, in search-index rowids and in stored snapshots) is
replaced by the source records that row holds ("songkick:34150000"), or for a metro
area made from the gazetteer, its GeoNames id. Provenance and ingest times, revisions
(taken a group of pages at a time) and runs are left out. Each table's rows are then
compared as sorted multisets over the columns both catalogs have; columns and tables
only one of them has are listed as schema differences, with how many rows set them.

Exit status 0 when every compared table is identical, 1 otherwise.
"""

import argparse
import json
import sqlite3
import sys
from collections import Counter

ENTITY_TABLES = {"event": "event", "venue": "venue", "artist": "artist", "metro_area": "metro_area"}
# Columns holding another row's id: (table, column) -> the kind of row it names.
REFERENCES = {
    ("event", "venue_id"): "venue",
    ("venue", "metro_area_id"): "metro_area",
    ("lineup", "event_id"): "event",
    ("lineup", "artist_id"): "artist",
    ("offer", "event_id"): "event",
    ("similar_artist", "similar_artist_id"): "artist",
    ("fan_plan", "event_id"): "event",
    ("fan_plan", "planned_venue_id"): "venue",
    ("fan_seen", "event_id"): "event",
    ("venue_location", "id"): "venue",
}
# Snapshot keys holding a row id.
SNAPSHOT_REFERENCES = {"venueID": "venue", "metroAreaID": "metro_area"}
# Times, revisions and autoincrement ids: they differ run to run.
IGNORED = {
    "applied_page": {"applied_at"},
    "source_record": {"id", "first_seen", "last_seen", "merged_at"},
    "event": {"revision"},
    "venue": {"revision"},
    "artist": {"revision"},
    "metro_area": {"revision"},
    "crawl_page": {"checked_at", "run_id"},
    "fan_plan": {"added_at"},
    "fan_tracked": {"added_at"},
}
# Not compared: SQLite's and GRDB's bookkeeping, the shadow tables of the search index
# and R*Tree (compared through search_index and venue_location), the catalog revision
# and the runs (times).
SKIPPED_TABLES = {"sqlite_sequence", "grdb_migrations", "catalog_revision", "run"}
SKIPPED_PREFIXES = ("search_index_", "venue_location_", "sqlite_stat")
SEARCH_KINDS = {0: "venue", 1: "artist", 2: "venue", 3: "metro_area"}


def tables(db):
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")]
    return [n for n in names if n not in SKIPPED_TABLES and not n.startswith(SKIPPED_PREFIXES)]


def columns(db, table):
    return [r[1] for r in db.execute(f'PRAGMA table_info("{table}")')]


def entity_keys(db):
    """kind -> {row id: the row's identity independent of ids}."""
    keys = {kind: {} for kind in ENTITY_TABLES}
    records = {}
    for source, kind, source_id, entity_id in db.execute(
        "SELECT source, kind, source_id, entity_id FROM source_record"
    ):
        records.setdefault((kind, entity_id), []).append(f"{source}:{source_id}")
    for (kind, entity_id), names in records.items():
        keys[kind][entity_id] = "|".join(sorted(names))
    has_geoname = "geoname_id" in columns(db, "metro_area")
    if has_geoname:
        for row_id, geoname_id, name in db.execute("SELECT id, geoname_id, name FROM metro_area"):
            keys["metro_area"].setdefault(row_id, f"geonames:{geoname_id}:{name}")
    for kind, table in ENTITY_TABLES.items():
        for (row_id,) in db.execute(f"SELECT id FROM {table}"):
            keys[kind].setdefault(row_id, f"unrecorded {kind} #{row_id}")
    return keys


def normalized_snapshot(payload, keys):
    if payload is None:
        return None
    try:
        value = json.loads(payload)
    except ValueError:
        return payload
    if isinstance(value, dict):
        for name, kind in SNAPSHOT_REFERENCES.items():
            if isinstance(value.get(name), int):
                value[name] = keys[kind].get(value[name], f"missing {kind} #{value[name]}")
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def rows(db, table, names, keys):
    """The table's rows over `names`, ids replaced, as a Counter of tuples."""
    selected = ", ".join(f'"{n}"' for n in names)
    counted = Counter()
    kinds = {n: REFERENCES.get((table, n)) for n in names}
    if table in ENTITY_TABLES:
        kinds["id"] = table
    for row in db.execute(f'SELECT {selected} FROM "{table}"'):
        values = []
        for name, value in zip(names, row):
            kind = kinds.get(name)
            if kind and value is not None:
                value = keys[kind].get(value, f"missing {kind} #{value}")
            elif table == "source_record" and name == "entity_id":
                continue  # replaced below, by kind
            elif table == "source_record" and name == "payload":
                value = normalized_snapshot(value, keys)
            elif table == "crawl_page" and name == "event_ids" and value:
                try:
                    value = sorted(keys["event"].get(i, f"missing event #{i}") for i in json.loads(value))
                    value = json.dumps(value)
                except (ValueError, TypeError):
                    pass
            values.append(value)
        if table == "source_record":
            record = dict(zip(names, row))
            values.append(keys[record["kind"]].get(record["entity_id"], "missing"))
        counted[tuple(values)] += 1
    return counted


def search_rows(db, keys):
    counted = Counter()
    for rowid, name in db.execute("SELECT rowid, name FROM search_index"):
        kind_code, entity_id = rowid % 4, rowid // 4
        kind = SEARCH_KINDS.get(kind_code)
        entity = keys[kind].get(entity_id, f"missing {kind} #{entity_id}") if kind else rowid
        counted[(kind_code, entity, name)] += 1
    return counted


# Leading columns that identify a row across the two catalogs, where ids do not.
KEY_WIDTHS = {"source_record": 3, "lineup": 2, "offer": 2, "applied_page": 2}


def changed_columns(only_before, only_after, names, width, table):
    """Rows of the same key on both sides, counted by the columns that differ."""
    shown = [n for n in names if not (table == "source_record" and n == "entity_id")]
    if table == "source_record":
        shown.append("entity_id")
    before = {row[:width]: row for row in only_before}
    after = {row[:width]: row for row in only_after}
    changed = Counter()
    for key in before.keys() & after.keys():
        differing = [shown[i] for i, (a, b) in enumerate(zip(before[key], after[key])) if a != b]
        changed[", ".join(differing)] += 1
    lines = [f"same key, {count} rows differ in: {columns}" for columns, count in changed.most_common()]
    unpaired = len(before.keys() - after.keys()), len(after.keys() - before.keys())
    if any(unpaired):
        lines.append(f"keys only before: {unpaired[0]}, only after: {unpaired[1]}")
    return lines


def describe(row, limit=160):
    text = " | ".join("∅" if v is None else str(v) for v in row)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--examples", type=int, default=3, help="rows shown for each differing table")
    args = parser.parse_args()
    before = sqlite3.connect(f"file:{args.before}?mode=ro", uri=True)
    after = sqlite3.connect(f"file:{args.after}?mode=ro", uri=True)
    before_keys, after_keys = entity_keys(before), entity_keys(after)

    differing = 0
    before_tables, after_tables = set(tables(before)), set(tables(after))
    for table in sorted(after_tables - before_tables):
        count = after.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
        print(f"schema: table {table} only in {args.after} ({count} rows)")
    for table in sorted(before_tables - after_tables):
        count = before.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
        print(f"schema: table {table} only in {args.before} ({count} rows)")

    for table in sorted(before_tables & after_tables):
        ignored = IGNORED.get(table, set())
        before_columns, after_columns = columns(before, table), columns(after, table)
        for name in after_columns:
            if name not in before_columns:
                set_count = after.execute(f'SELECT count(*) FROM "{table}" WHERE "{name}" IS NOT NULL').fetchone()[0]
                print(f"schema: column {table}.{name} only in {args.after} (set in {set_count} rows)")
        for name in before_columns:
            if name not in after_columns:
                print(f"schema: column {table}.{name} only in {args.before}")
        names = [n for n in before_columns if n in after_columns and n not in ignored]
        if table == "search_index":
            old, new = search_rows(before, before_keys), search_rows(after, after_keys)
        else:
            old, new = rows(before, table, names, before_keys), rows(after, table, names, after_keys)
        only_before, only_after = old - new, new - old
        total = sum(old.values()), sum(new.values())
        if not only_before and not only_after:
            print(f"identical: {table} ({total[1]} rows)")
            continue
        differing += 1
        print(
            f"DIFFERENT: {table}: {total[0]} rows before, {total[1]} after; "
            f"{sum(only_before.values())} only before, {sum(only_after.values())} only after"
        )
        print(f"  columns: {', '.join(names)}")
        width = KEY_WIDTHS.get(table, 1 if table in ENTITY_TABLES else 0)
        if width:
            for line in changed_columns(only_before, only_after, names, width, table):
                print(f"  {line}")
        for row in sorted(only_before, key=repr)[: args.examples]:
            print(f"  - {describe(row)}")
        for row in sorted(only_after, key=repr)[: args.examples]:
            print(f"  + {describe(row)}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
