import Foundation

/// Which countries a time zone is used in, and which zones a country (or one of its
/// first-level divisions) uses, as the gazetteer's cities say: no data file of its own.
///
/// ```swift
/// let zones = gazetteer.zoneTable()
/// zones.mainCountry(of: "Europe/London")   // "GB"
/// zones.onlyZone(of: "DE")                 // "Europe/Berlin": Wacken is too small to list
/// zones.onlyZone(of: "US", region: "LA")   // "America/Chicago"
/// ```
public struct ZoneTable: Sendable {
    private var countriesByZone: [String: [String: Int]] = [:]
    private var zonesByCountry: [String: Set<String>] = [:]
    private var zonesByRegion: [String: Set<String>] = [:]

    init(rows: [(country: String, admin1: String, zone: String)]) {
        for row in rows where !row.zone.isEmpty && !row.country.isEmpty {
            countriesByZone[row.zone, default: [:]][row.country, default: 0] += 1
            zonesByCountry[row.country, default: []].insert(row.zone)
            zonesByRegion[row.country + "/" + row.admin1, default: []].insert(row.zone)
        }
    }

    /// The countries whose cities keep this zone's clock (IANA name as written).
    public func countries(in zone: String) -> Set<String> {
        Set(countriesByZone[zone]?.keys ?? [:].keys)
    }

    /// The country a zone is, when at least 95 % of its cities are in it:
    /// `Europe/Moscow` is RU's though a city of Abkhazia keeps its clock.
    public func mainCountry(of zone: String) -> String? {
        guard let counts = countriesByZone[zone], let (code, count) = counts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })
        else { return nil }
        return count * 20 >= counts.values.reduce(0, +) * 19 ? code : nil
    }

    /// The country's zone when all its cities share one (or all those of `region`, a
    /// first-level division code such as "LA"), else nil.
    public func onlyZone(of country: String, region: String? = nil) -> String? {
        if let region, let zones = zonesByRegion[country + "/" + region], zones.count == 1 { return zones.first }
        guard let zones = zonesByCountry[country], zones.count == 1 else { return nil }
        return zones.first
    }
}

extension Gazetteer {
    /// Reads every city's country, division and zone once (a few milliseconds): callers
    /// keep the table.
    public func zoneTable() -> ZoneTable {
        var rows: [(country: String, admin1: String, zone: String)] = []
        rows.reserveCapacity(count)
        for index in 0..<count {
            rows.append(countryRegionZone(at: index))
        }
        return ZoneTable(rows: rows)
    }
}
