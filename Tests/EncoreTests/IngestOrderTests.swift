import Catalog
import Foundation
import GRDB
import Ingest
import Testing

/// The catalog does not depend on the order the sources arrived in: the same listings
/// ingested in any order give the same rows (ids aside).
struct IngestOrderTests {
    static let formats = ["songkick-json", "songkick-xml", "ticketmaster", "bandsintown", "jsonld", "lastfm-xml", "lastfm-json"]

    /// Every table's content, with each id replaced by what it stands for.
    static func content(_ path: String) throws -> [String: [String]] {
        let queries = [
            "metro_area": "SELECT name, country, region, latitude, longitude, timezone, url, geoname_id FROM metro_area",
            "venue": """
                SELECT v.name, v.street, v.postal_code, v.city, v.region, v.country, v.latitude, v.longitude,
                    v.coordinates_approximate, v.timezone, v.website, v.capacity, v.url, v.match_key, m.name, m.url
                FROM venue v LEFT JOIN metro_area m ON m.id = v.metro_area_id
                """,
            "artist": "SELECT name, folded_name, match_key, mbid, on_tour_until, url FROM artist",
            "event": """
                SELECT e.title, e.kind, e.status, e.local_date, e.local_time, e.timezone, e.start_utc, e.end_date,
                    v.name, v.url, e.popularity, e.age_restriction, e.url, e.note, e.unlisted_since
                FROM event e LEFT JOIN venue v ON v.id = e.venue_id
                """,
            "lineup": """
                SELECT e.title, e.local_date, e.local_time, a.name, a.mbid, l.billing, l.position
                FROM lineup l JOIN event e ON e.id = l.event_id JOIN artist a ON a.id = l.artist_id
                """,
            "similar_artist": """
                SELECT s.source, s.artist_source_id, a.name, s.rank FROM similar_artist s JOIN artist a ON a.id = s.similar_artist_id
                """,
            "source_record": "SELECT source, kind, source_id, url, content_hash FROM source_record",
            "offer": "SELECT * FROM offer",
        ]
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in
            var content: [String: [String]] = [:]
            for (table, sql) in queries {
                var rows = try Row.fetchAll(db, sql: sql).map { row in
                    row.map { "\($0.0)=\($0.1)" }.filter { !$0.hasPrefix("id=") && !$0.hasPrefix("event_id=") }
                        .joined(separator: " | ")
                }
                rows.sort()
                content[table] = rows
            }
            // Which records joined which row: the groups, named by their records.
            content["groups"] = try ["event", "venue", "artist", "metro_area"].flatMap { kind in
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT group_concat(source || ':' || source_id, ' ') FROM (
                            SELECT entity_id, source, source_id FROM source_record WHERE kind = ? ORDER BY source, source_id)
                        GROUP BY entity_id
                        """, arguments: [kind]
                ).map { kind + " " + $0 }
            }.sorted()
            return content
        }
    }

    @Test func everySourceOrderGivesTheSameCatalog() throws {
        let folders = Self.formats.map { TestSupport.fixture("sample-multi/\($0)") }
        var catalogs: [[String: [String]]] = []
        for order in [folders, folders.reversed(), [folders[6], folders[3], folders[0], folders[4], folders[2], folders[5], folders[1]]] {
            let (catalog, path) = try TestSupport.makeCatalog()
            let summary = TestSupport.ingest(order, into: catalog)
            #expect(summary.failures.isEmpty)
            catalogs.append(try Self.content(path))
        }
        #expect(catalogs[0]["event"]?.isEmpty == false)
        for other in catalogs.dropFirst() {
            let differences = Self.differences(catalogs[0], other)
            #expect(differences.isEmpty, "\(differences)")
        }
    }

    /// Songkick's concerts and Bandsintown's listings of them (`Fixtures/order`), in each
    /// order of arrival: the groups of event records.
    static func orderGroups() throws -> [[String]] {
        let songkick = TestSupport.fixture("order/songkick-concerts.json")
        let bandsintown = TestSupport.fixture("order/bandsintown-events.json")
        return try [[songkick, bandsintown], [bandsintown, songkick]].map { order in
            let (catalog, path) = try TestSupport.makeCatalog()
            let summary = TestSupport.ingest(order, into: catalog)
            #expect(summary.failures.isEmpty)
            return try Self.content(path)["groups"]?.filter { $0.hasPrefix("event ") } ?? []
        }
    }

    /// Bandsintown credits Songkick's "Thë Lünar Kings" as "The Thë Lünar Kings". Whether
    /// the two listings met used to depend on which name the artist's row had taken, so
    /// on the order of arrival; both names now have one key.
    @Test func anActCreditedWithAnExtraArticleJoinsTheConcertInEitherOrder() throws {
        for groups in try Self.orderGroups() {
            #expect(groups.contains("event bandsintown:5001 songkick:4001"))
        }
    }

    /// Bandsintown lists two shows at Björkhuset on 9 November sharing a support act with
    /// Songkick's concert there: one with no time and another headliner (first in its
    /// page), one at the concert's time with its bill. The concert is the second's in
    /// either order; Songkick last used to pick it, Songkick first left it to the first.
    @Test func aConcertJoinsTheBetterOfOneSourcesTwoListingsInEitherOrder() throws {
        for groups in try Self.orderGroups() {
            #expect(groups.contains("event bandsintown:5003 songkick:4002"))
            #expect(groups.contains("event bandsintown:5002"))
        }
    }

    /// Where two catalogs' contents differ, table by table, with a few rows of each side.
    static func differences(_ first: [String: [String]], _ second: [String: [String]]) -> [String] {
        Set(first.keys).union(second.keys).sorted().compactMap { table in
            let rows = first[table] ?? [], other = second[table] ?? []
            let missing = Set(rows).subtracting(other).sorted().prefix(3)
            let extra = Set(other).subtracting(rows).sorted().prefix(3)
            guard rows.count != other.count || !missing.isEmpty || !extra.isEmpty else { return nil }
            return "\(table): \(rows.count) rows, then \(other.count); only in the first \(missing); only in the second \(extra)"
        }
    }

    /// Songkick names metro areas; Last.fm does not. Last.fm first used to leave dozens of
    /// empty metro areas named after places near its venues.
    @Test func aSourceWithoutMetroAreasFirstLeavesNoEmptyOnes() throws {
        let songkick = TestSupport.fixture("sample-multi/songkick-json")
        let lastfm = TestSupport.fixture("sample-multi/lastfm-json")
        let (first, firstPath) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([lastfm], into: first)
        _ = TestSupport.ingest([songkick], into: first)
        let (second, secondPath) = try TestSupport.makeCatalog()
        _ = TestSupport.ingest([songkick], into: second)
        _ = TestSupport.ingest([lastfm], into: second)
        #expect(try Self.content(firstPath) == Self.content(secondPath))
        let empty = try DatabaseQueue(path: firstPath).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM metro_area m WHERE NOT EXISTS (SELECT 1 FROM venue v WHERE v.metro_area_id = m.id)")
        }
        #expect(empty == 0)
    }
}
