import GRDB

/// The schema, as append-only migrations: never edit one that has landed; add another.
///
/// Ids are `AUTOINCREMENT` so that a deleted row's id is never handed out again: feeds
/// and fans' plans refer to catalog ids, which must stay stable.
extension CatalogDatabase {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: listings, provenance, search") { db in
            try db.execute(sql: """
                CREATE TABLE metro_area (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL,
                    country TEXT,
                    region TEXT,
                    latitude REAL,
                    longitude REAL,
                    timezone TEXT,
                    url TEXT
                );
                CREATE TABLE venue (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL,
                    street TEXT,
                    postal_code TEXT,
                    city TEXT,
                    region TEXT,
                    country TEXT,
                    latitude REAL,
                    longitude REAL,
                    coordinates_approximate INTEGER NOT NULL DEFAULT 0,
                    timezone TEXT,
                    website TEXT,
                    capacity INTEGER,
                    url TEXT,
                    metro_area_id INTEGER REFERENCES metro_area(id)
                );
                CREATE INDEX venue_metro_area ON venue(metro_area_id);
                CREATE TABLE artist (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL,
                    folded_name TEXT NOT NULL,
                    mbid TEXT,
                    on_tour_until TEXT,
                    url TEXT
                );
                CREATE INDEX artist_folded_name ON artist(folded_name);
                CREATE INDEX artist_mbid ON artist(mbid) WHERE mbid IS NOT NULL;
                CREATE TABLE event (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    title TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('concert', 'festival')),
                    status TEXT NOT NULL
                        CHECK (status IN ('scheduled', 'cancelled', 'postponed', 'rescheduled')),
                    local_date TEXT NOT NULL,
                    local_time TEXT,
                    timezone TEXT,
                    start_utc TEXT,
                    end_date TEXT,
                    venue_id INTEGER REFERENCES venue(id),
                    popularity REAL,
                    age_restriction TEXT,
                    url TEXT
                );
                CREATE INDEX event_local_date ON event(local_date, local_time, id);
                CREATE INDEX event_venue_date ON event(venue_id, local_date);
                CREATE TABLE lineup (
                    event_id INTEGER NOT NULL REFERENCES event(id) ON DELETE CASCADE,
                    artist_id INTEGER NOT NULL REFERENCES artist(id),
                    billing TEXT NOT NULL CHECK (billing IN ('headline', 'support')),
                    position INTEGER NOT NULL,
                    PRIMARY KEY (event_id, artist_id)
                ) WITHOUT ROWID;
                CREATE INDEX lineup_artist ON lineup(artist_id, event_id);
                -- Keyed by the source's own artist id: a similar-artists page may arrive
                -- before any page that lists the artist itself.
                CREATE TABLE similar_artist (
                    source TEXT NOT NULL,
                    artist_source_id TEXT NOT NULL,
                    similar_artist_id INTEGER NOT NULL REFERENCES artist(id),
                    rank INTEGER NOT NULL,
                    PRIMARY KEY (source, artist_source_id, similar_artist_id)
                ) WITHOUT ROWID;
                -- Provenance: every catalog row links to the source records it came from.
                CREATE TABLE source_record (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    source TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('event', 'artist', 'venue', 'metro_area')),
                    source_id TEXT NOT NULL,
                    entity_id INTEGER NOT NULL,
                    url TEXT,
                    content_hash TEXT NOT NULL,
                    first_seen TEXT NOT NULL,
                    last_seen TEXT NOT NULL,
                    UNIQUE (source, kind, source_id)
                );
                CREATE INDEX source_record_entity ON source_record(kind, entity_id);
                -- Pages already applied, so identical content is not applied twice.
                CREATE TABLE applied_page (
                    format TEXT NOT NULL,
                    content_hash TEXT NOT NULL,
                    locator TEXT NOT NULL,
                    applied_at TEXT NOT NULL,
                    PRIMARY KEY (format, content_hash)
                ) WITHOUT ROWID;
                -- Names of artists, venues and metro areas; rowid = entity id * 4 + kind code.
                CREATE VIRTUAL TABLE search_index USING fts5(
                    name, tokenize = 'unicode61 remove_diacritics 2'
                );
                """)
        }
        migrator.registerMigration("v2: venue locations in an R*Tree, gazetteer links") { db in
            try db.execute(sql: """
                -- Points stored as degenerate boxes; triggers keep it in step with venue.
                CREATE VIRTUAL TABLE venue_location USING rtree(id, min_lat, max_lat, min_lng, max_lng);
                INSERT INTO venue_location
                    SELECT id, latitude, latitude, longitude, longitude FROM venue WHERE latitude IS NOT NULL;
                CREATE TRIGGER venue_location_insert AFTER INSERT ON venue WHEN NEW.latitude IS NOT NULL
                BEGIN
                    INSERT INTO venue_location VALUES (NEW.id, NEW.latitude, NEW.latitude, NEW.longitude, NEW.longitude);
                END;
                CREATE TRIGGER venue_location_update AFTER UPDATE OF latitude, longitude ON venue
                BEGIN
                    DELETE FROM venue_location WHERE id = OLD.id;
                    INSERT INTO venue_location SELECT NEW.id, NEW.latitude, NEW.latitude, NEW.longitude, NEW.longitude
                        WHERE NEW.latitude IS NOT NULL;
                END;
                CREATE TRIGGER venue_location_delete AFTER DELETE ON venue
                BEGIN
                    DELETE FROM venue_location WHERE id = OLD.id;
                END;
                -- The gazetteer city (GeoNames id) a metro area or venue belongs to.
                ALTER TABLE metro_area ADD COLUMN geoname_id INTEGER;
                ALTER TABLE venue ADD COLUMN geoname_id INTEGER;
                CREATE INDEX metro_area_geoname ON metro_area(geoname_id);
                CREATE INDEX metro_area_position ON metro_area(latitude, longitude);
                """)
        }
        migrator.registerMigration("v3: merging across sources, offers, explanations") { db in
            try db.execute(sql: """
                -- What each record said, so merged rows can be rebuilt from all their sources.
                ALTER TABLE source_record ADD COLUMN payload TEXT;
                -- Name keys (MatchKey) under which spellings from different sources meet.
                ALTER TABLE artist ADD COLUMN match_key TEXT NOT NULL DEFAULT '';
                ALTER TABLE venue ADD COLUMN match_key TEXT NOT NULL DEFAULT '';
                CREATE INDEX artist_match_key ON artist(match_key);
                CREATE INDEX venue_match_key ON venue(match_key);
                CREATE TABLE offer (
                    event_id INTEGER NOT NULL REFERENCES event(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    source TEXT NOT NULL,
                    url TEXT,
                    price_min REAL,
                    price_max REAL,
                    currency TEXT,
                    status TEXT,
                    on_sale TEXT,
                    PRIMARY KEY (event_id, position)
                ) WITHOUT ROWID;
                -- Why a record was linked to a row another source created: `encore explain`.
                CREATE TABLE merge_decision (
                    kind TEXT NOT NULL,
                    entity_id INTEGER NOT NULL,
                    source TEXT NOT NULL,
                    source_id TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    decided_at TEXT NOT NULL,
                    PRIMARY KEY (kind, source, source_id)
                ) WITHOUT ROWID;
                CREATE INDEX merge_decision_entity ON merge_decision(kind, entity_id);
                """)
        }
        migrator.registerMigration("v4: fans' lists") { db in
            try db.execute(sql: """
                -- Fans' data lives beside the listings; ingestion never touches it.
                CREATE TABLE fan (
                    name TEXT PRIMARY KEY,
                    home_label TEXT,
                    home_latitude REAL,
                    home_longitude REAL,
                    radius_km REAL NOT NULL DEFAULT 50,
                    feed_mode TEXT NOT NULL DEFAULT 'all' CHECK (feed_mode IN ('all', 'tracked', 'tracked-artists'))
                );
                -- ref: artist or venue id; the GeoNames id for a city.
                CREATE TABLE fan_tracked (
                    fan TEXT NOT NULL REFERENCES fan(name),
                    kind TEXT NOT NULL CHECK (kind IN ('artist', 'venue', 'city')),
                    ref INTEGER NOT NULL,
                    name TEXT NOT NULL,
                    latitude REAL,
                    longitude REAL,
                    added_at TEXT NOT NULL,
                    PRIMARY KEY (fan, kind, ref)
                ) WITHOUT ROWID;
                -- The event's date and venue when the plan was made, to notice a move.
                CREATE TABLE fan_plan (
                    fan TEXT NOT NULL REFERENCES fan(name),
                    event_id INTEGER NOT NULL REFERENCES event(id),
                    planned_date TEXT NOT NULL,
                    planned_venue_id INTEGER,
                    added_at TEXT NOT NULL,
                    PRIMARY KEY (fan, event_id)
                ) WITHOUT ROWID;
                CREATE TABLE fan_seen (
                    fan TEXT NOT NULL REFERENCES fan(name),
                    event_id INTEGER NOT NULL,
                    PRIMARY KEY (fan, event_id)
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v5: run log and crawl state") { db in
            try db.execute(sql: """
                -- A run left 'running' was killed; the next run starts a new one.
                CREATE TABLE run (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    started_at TEXT NOT NULL,
                    ended_at TEXT,
                    status TEXT NOT NULL,
                    summary TEXT NOT NULL
                );
                -- Per page URL (secrets removed): validators for conditional requests.
                CREATE TABLE crawl_page (
                    url_key TEXT PRIMARY KEY,
                    etag TEXT,
                    last_modified TEXT,
                    total_pages INTEGER,
                    checked_at TEXT NOT NULL
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v6: listing lifecycle, resumable crawls") { db in
            try db.execute(sql: """
                -- Which event records each crawled listing (a metro calendar, an artist's
                -- events) showed, and for how many complete crawls in a row a record has been
                -- missing from it.
                CREATE TABLE listing_membership (
                    source TEXT NOT NULL,
                    scope TEXT NOT NULL,
                    source_id TEXT NOT NULL,
                    missed_crawls INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (source, scope, source_id)
                ) WITHOUT ROWID;
                CREATE INDEX listing_membership_record ON listing_membership(source, source_id);
                -- Set when every source that listed an upcoming event stopped listing it.
                ALTER TABLE event ADD COLUMN unlisted_since TEXT;
                -- A page's event records, so a page answered 304 still counts toward its
                -- listing, and the run that fetched it, so a killed run's pages are not
                -- fetched again by the run that resumes it.
                ALTER TABLE crawl_page ADD COLUMN event_ids TEXT;
                ALTER TABLE crawl_page ADD COLUMN run_id INTEGER;
                """)
        }
        migrator.registerMigration("v7: covering index for listing membership") { db in
            // Without the missed-crawl count in the index, SQLite preferred the primary key
            // and scanned a source's whole membership once per event of every crawl.
            try db.execute(sql: """
                DROP INDEX listing_membership_record;
                CREATE INDEX listing_membership_record ON listing_membership(source, source_id, missed_crawls);
                """)
        }
        migrator.registerMigration("v8: radius and metro queries answered from indexes") { db in
            try db.execute(sql: """
                -- Everything a venue-and-window query filters and sorts on, so it never reads
                -- the event table itself.
                DROP INDEX event_venue_date;
                CREATE INDEX event_venue_window ON event(venue_id, local_date, local_time, end_date, unlisted_since);
                -- The longest an event lasts, in days (an upper bound: it never shrinks). Lets
                -- a window query seek on local_date >= window start - max_days.
                CREATE TABLE event_span_bound (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    max_days INTEGER NOT NULL
                );
                INSERT INTO event_span_bound VALUES (1, COALESCE((
                    SELECT MAX(CAST(ceil(julianday(end_date) - julianday(local_date)) AS INTEGER))
                    FROM event WHERE end_date IS NOT NULL), 0));
                CREATE TRIGGER event_span_insert AFTER INSERT ON event WHEN NEW.end_date IS NOT NULL
                BEGIN
                    UPDATE event_span_bound SET max_days = MAX(max_days,
                        COALESCE(CAST(ceil(julianday(NEW.end_date) - julianday(NEW.local_date)) AS INTEGER), 0));
                END;
                CREATE TRIGGER event_span_update AFTER UPDATE OF local_date, end_date ON event
                    WHEN NEW.end_date IS NOT NULL
                BEGIN
                    UPDATE event_span_bound SET max_days = MAX(max_days,
                        COALESCE(CAST(ceil(julianday(NEW.end_date) - julianday(NEW.local_date)) AS INTEGER), 0));
                END;
                """)
        }
        migrator.registerMigration("v9: the event span bound kept by the applier, not by triggers") { db in
            // A statement that fires a trigger runs in a statement journal, and inside a
            // page's savepoint that journal copies every database page the statement
            // touches: the insert trigger made each new event cost several plain inserts.
            // `PageApplier.write(_:into:)` is the only place events are written.
            try db.execute(sql: """
                DROP TRIGGER event_span_insert;
                DROP TRIGGER event_span_update;
                """)
        }
        migrator.registerMigration("v10: venue locations kept by the applier, not by triggers") { db in
            // The same statement journals as v9's: the insert trigger made each new venue
            // cost several times its own insert. `PageApplier.locate(venue:)` keeps the
            // R*Tree in step with venue; nothing deletes venues.
            try db.execute(sql: """
                DROP TRIGGER venue_location_insert;
                DROP TRIGGER venue_location_update;
                DROP TRIGGER venue_location_delete;
                """)
        }
        migrator.registerMigration("v11: revisions, so feed builds can find what changed") { db in
            // Every write transaction that applies listings takes the next revision and
            // stamps the rows it writes with it. A feed build remembers the revision it
            // read; rows stamped later are what the next build must render again.
            try db.execute(sql: """
                CREATE TABLE catalog_revision (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    value INTEGER NOT NULL
                );
                INSERT INTO catalog_revision VALUES (1, 1);
                ALTER TABLE event ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;
                ALTER TABLE venue ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;
                ALTER TABLE artist ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;
                ALTER TABLE metro_area ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;
                """)
        }
        migrator.registerMigration("v12: CHECK constraints an insert can test without a temporary table") { db in
            // SQLite 3.40 tests `x IN (a, b, c)` of a CHECK by building a temporary B-tree of
            // the list on every insert and update (two items are rewritten as `=` ... `OR`):
            // on event and source_record, the hottest tables of an ingest. The same
            // constraints, spelt as comparisons, by SQLite's create-copy-drop-rename.
            try rebuildTable("event", db, as: """
                CREATE TABLE new_event (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    title TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('concert', 'festival')),
                    status TEXT NOT NULL CHECK (
                        status = 'scheduled' OR status = 'cancelled' OR status = 'postponed' OR status = 'rescheduled'),
                    local_date TEXT NOT NULL,
                    local_time TEXT,
                    timezone TEXT,
                    start_utc TEXT,
                    end_date TEXT,
                    venue_id INTEGER REFERENCES venue(id),
                    popularity REAL,
                    age_restriction TEXT,
                    url TEXT,
                    unlisted_since TEXT,
                    revision INTEGER NOT NULL DEFAULT 1
                );
                """, indexes: """
                CREATE INDEX event_local_date ON event(local_date, local_time, id);
                CREATE INDEX event_venue_window ON event(venue_id, local_date, local_time, end_date, unlisted_since);
                """)
            try rebuildTable("source_record", db, as: """
                CREATE TABLE new_source_record (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    source TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind = 'event' OR kind = 'artist' OR kind = 'venue' OR kind = 'metro_area'),
                    source_id TEXT NOT NULL,
                    entity_id INTEGER NOT NULL,
                    url TEXT,
                    content_hash TEXT NOT NULL,
                    first_seen TEXT NOT NULL,
                    last_seen TEXT NOT NULL,
                    payload TEXT,
                    UNIQUE (source, kind, source_id)
                );
                """, indexes: "CREATE INDEX source_record_entity ON source_record(kind, entity_id);")
        }
        migrator.registerMigration("v13: rows found by revision without a scan") { db in
            // A feed build asks what changed since its last revision: without these, each
            // build read every event, venue and artist row to find the few that changed.
            // Revisions only grow, so an ingest appends to these indexes' right edge.
            try db.execute(sql: """
                CREATE INDEX event_revision ON event(revision);
                CREATE INDEX venue_revision ON venue(revision);
                CREATE INDEX artist_revision ON artist(revision);
                CREATE INDEX metro_area_revision ON metro_area(revision);
                """)
        }
        migrator.registerMigration("v14: no index on the event date alone") { db in
            // Every query by date goes through a venue (`event_venue_window`), an artist
            // (`lineup_artist`) or ids; none read this index, and each event an ingest
            // wrote paid for an entry at a random place in it.
            try db.execute(sql: "DROP INDEX event_local_date")
        }
        migrator.registerMigration("v15: merge reasons on the records they explain") { db in
            // A merge wrote its reason as a row of its own, keyed like the record it
            // explains and indexed once more by row: two B-tree inserts more for every
            // record that joined another source's row.
            // The entity index gains the source: "has this row a record from this
            // source?" is asked for every candidate of a merge, and is now answered from
            // the index alone.
            try db.execute(sql: """
                ALTER TABLE source_record ADD COLUMN merge_reason TEXT;
                ALTER TABLE source_record ADD COLUMN merged_at TEXT;
                UPDATE source_record SET merge_reason = m.reason, merged_at = m.decided_at
                FROM merge_decision m
                WHERE m.kind = source_record.kind AND m.source = source_record.source
                    AND m.source_id = source_record.source_id;
                DROP TABLE merge_decision;
                DROP INDEX source_record_entity;
                CREATE INDEX source_record_entity ON source_record(kind, entity_id, source);
                """)
        }
        migrator.registerMigration("v16: venues found by their address") { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, street, postal_code FROM venue WHERE street IS NOT NULL OR postal_code IS NOT NULL ORDER BY id")
            for row in rows {
                try SearchIndex.setAddress(db, venue: row[0], street: row[1], postalCode: row[2], isNew: true)
            }
        }
        migrator.registerMigration("v17: a note on events") { db in
            // What a source says about a show beyond its facts (an iCalendar DESCRIPTION's
            // first line): "Doors 19:00, first act 20:00." Events stored before have none
            // until a source's page is applied again.
            try db.execute(sql: "ALTER TABLE event ADD COLUMN note TEXT")
        }
        migrator.registerMigration("v18: festival slots") { db in
            // An act's day and time on a festival's bill, when a source listed its set.
            // The partial index finds the festivals a set may belong to without reading
            // a venue's other events.
            try db.execute(sql: """
                ALTER TABLE lineup ADD COLUMN slot_date TEXT;
                ALTER TABLE lineup ADD COLUMN slot_time TEXT;
                CREATE INDEX event_festival ON event(venue_id, local_date) WHERE end_date IS NOT NULL;
                """)
        }
        migrator.registerMigration("v19: each source's rank, as it declared it") { db in
            // Sources declare their rank in their own folder of Ingest, and each page
            // records its source's here. The catalog's records before this migration are
            // ranked as the catalog ranked them then.
            try db.execute(sql: """
                CREATE TABLE source (
                    name TEXT PRIMARY KEY,
                    rank INTEGER NOT NULL,
                    sells_tickets INTEGER NOT NULL DEFAULT 0
                ) WITHOUT ROWID;
                INSERT INTO source (name, rank, sells_tickets)
                    SELECT DISTINCT source, CASE source
                        WHEN 'ticketmaster' THEN 0 WHEN 'songkick' THEN 1 WHEN 'seatgeek' THEN 2
                        WHEN 'bandsintown' THEN 3 WHEN 'jsonld' THEN 4 WHEN 'ical' THEN 5 WHEN 'lastfm' THEN 5
                        WHEN 'geonames' THEN 9 ELSE 6 END, source = 'ticketmaster'
                    FROM source_record;
                -- The catalog's own metro areas, made from the gazetteer: any source overrides them.
                INSERT OR IGNORE INTO source (name, rank, sells_tickets) VALUES ('geonames', 9, 0);
                """)
        }
        migrator.registerMigration("v20: band pages' addresses, kept once published") { db in
            try db.execute(sql: """
                -- An artist's band page address (its slug), given by the first build that
                -- publishes it and never given to another artist. A merged artist's address
                -- stays, pointing at the artist it joined (not current).
                CREATE TABLE artist_address (
                    slug TEXT PRIMARY KEY,
                    artist_id INTEGER NOT NULL,
                    is_current INTEGER NOT NULL DEFAULT 1
                ) WITHOUT ROWID;
                CREATE INDEX artist_address_artist ON artist_address(artist_id);
                """)
        }
        migrator.registerMigration("v21: a moved band page says when it moved and whose it was") { db in
            try db.execute(sql: """
                -- The artist an address was given to (its old Atom feed's id), and when a
                -- merge moved it to another artist (the redirect page's and feed's time).
                ALTER TABLE artist_address ADD COLUMN first_artist_id INTEGER;
                ALTER TABLE artist_address ADD COLUMN moved_at TEXT;
                UPDATE artist_address SET first_artist_id = artist_id;
                """)
        }
        migrator.registerMigration("v22: when a show last changed for its fans") { db in
            // When a show was last cancelled, postponed, moved or re-timed, and how: Atom
            // entries are dated by it, so feed readers show the change (issue 50). Shows
            // stored before have none until they change again.
            try db.execute(sql: """
                ALTER TABLE event ADD COLUMN changed_at TEXT;
                ALTER TABLE event ADD COLUMN change TEXT;
                """)
        }
        migrator.registerMigration("v23: discovery: listening, names followed before the catalog knows them, hidden artists, similarity scores") { db in
            try db.execute(sql: """
                -- A similar-artist list's match (0 to 1) where the source gives one (Last.fm's
                -- match, ListenBrainz's score over its list's best). Lists of sources that name
                -- the artist by MusicBrainz id or name are keyed `mbid:…` or `name:<folded>`.
                ALTER TABLE similar_artist ADD COLUMN score REAL;
                CREATE INDEX similar_artist_key ON similar_artist(artist_source_id);
                -- What a fan listens to (`encore track import`), summed per artist; name_key is
                -- the folded name, artist_id the catalog artist it matched when imported.
                CREATE TABLE fan_listened (
                    fan TEXT NOT NULL REFERENCES fan(name),
                    name_key TEXT NOT NULL,
                    name TEXT NOT NULL,
                    mbid TEXT,
                    plays INTEGER NOT NULL,
                    ms_played INTEGER NOT NULL,
                    artist_id INTEGER,
                    PRIMARY KEY (fan, name_key)
                ) WITHOUT ROWID;
                -- Artists followed by name before any source listed them: a refresh crawls the
                -- names, and a catalog artist of that folded name counts as followed.
                CREATE TABLE fan_followed_name (
                    fan TEXT NOT NULL REFERENCES fan(name),
                    name_key TEXT NOT NULL,
                    name TEXT NOT NULL,
                    mbid TEXT,
                    added_at TEXT NOT NULL,
                    PRIMARY KEY (fan, name_key)
                ) WITHOUT ROWID;
                -- Artists a fan does not want recommended.
                CREATE TABLE fan_hidden (
                    fan TEXT NOT NULL REFERENCES fan(name),
                    artist_id INTEGER NOT NULL,
                    name TEXT NOT NULL,
                    PRIMARY KEY (fan, artist_id)
                ) WITHOUT ROWID;
                """)
        }
        return migrator
    }

    /// Replaces `table` by the one `createSQL` makes as `new_<table>` (the same columns in
    /// the same order), by SQLite's procedure for changes ALTER TABLE cannot make (section 7
    /// of https://www.sqlite.org/lang_altertable.html): create, copy, drop, rename, then
    /// the table's indexes again. Foreign keys are off during a migration and checked
    /// at its end. The AUTOINCREMENT counter is carried over, so no id is handed out twice.
    private static func rebuildTable(_ table: String, _ db: Database, as createSQL: String, indexes: String) throws {
        let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = ?", arguments: [table])
        try db.execute(sql: createSQL)
        try db.execute(sql: "INSERT INTO new_\(table) SELECT * FROM \(table)")
        try db.execute(sql: "DROP TABLE \(table)")
        try db.execute(sql: "ALTER TABLE new_\(table) RENAME TO \(table)")
        try db.execute(sql: indexes)
        if let sequence {
            try db.execute(sql: "DELETE FROM sqlite_sequence WHERE name = ?", arguments: [table])
            try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", arguments: [table, sequence])
        }
    }

    /// Takes the next catalog revision for the write transaction `db` is in.
    static func nextRevision(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(
            db.cachedStatement(sql: "UPDATE catalog_revision SET value = value + 1 WHERE id = 1 RETURNING value"))!
    }
}

/// Codes that pack an entity kind into the search index's rowid.
enum SearchKindCode: Int64 {
    /// A venue's street and postal code, so it is found by its address too.
    case venueAddress = 0
    case artist = 1, venue = 2, metroArea = 3

    func rowID(for entityID: Int64) -> Int64 { entityID * 4 + rawValue }

    static func decode(rowID: Int64) -> (SearchKindCode, Int64)? {
        guard let kind = SearchKindCode(rawValue: rowID % 4) else { return nil }
        return (kind, rowID / 4)
    }
}
