import Foundation

/// URL- and file-system-safe names for feed files.
public enum Slug {
    /// A lower-case ASCII slug: accents dropped, anything else becomes "-". Never empty,
    /// never "." or "..", never a Windows device name, never a path separator.
    public static func make(_ name: String) -> String {
        let latin = name.applyingTransform(.toLatin, reverse: false) ?? name
        let plain = latin.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
        var slug = ""
        var pendingDash = false
        for scalar in plain.unicodeScalars {
            let isAlphanumeric = scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar))
            if isAlphanumeric {
                if pendingDash, !slug.isEmpty { slug.append("-") }
                pendingDash = false
                slug.unicodeScalars.append(scalar)
            } else {
                pendingDash = true
            }
            if slug.count >= 80 { break }
        }
        slug = slug.lowercased()
        if slug.isEmpty { slug = "item" }
        if reserved.contains(slug) { slug += "-1" }
        return slug
    }

    /// Windows device names: a file called `con.json` cannot be created there.
    static let reserved: Set<String> =
        Set(["con", "prn", "aux", "nul"]).union((1...9).flatMap { ["com\($0)", "lpt\($0)"] })

    /// Unique slugs for keyed names: when two names give the same slug, the lower key
    /// keeps it and the others get "-<key>", whatever the input order.
    public static func unique(
        _ names: [(key: Int64, name: String)], makingSlugsWith make: (String) -> String = Slug.make
    ) -> [Int64: String] {
        let sorted = names.sorted { $0.key < $1.key }
        var taken = Set<String>()
        var result: [Int64: String] = [:]
        // First pass: plain slugs by ascending key; second: suffixed ones for clashes.
        var clashes: [(Int64, String)] = []
        for (key, name) in sorted {
            let slug = make(name)
            if taken.insert(slug).inserted { result[key] = slug } else { clashes.append((key, slug)) }
        }
        for (key, slug) in clashes {
            var candidate = "\(slug)-\(key)"
            while !taken.insert(candidate).inserted { candidate += "-\(key)" }
            result[key] = candidate
        }
        return result
    }
}

/// A band page's address that no longer is its band's own: the band merged into another,
/// whose page it now leads to. The address stays published, as a page saying where it went.
public struct MovedArtistAddress: Sendable, Hashable {
    /// The old address (`artists/<slug>.json`).
    public var slug: String
    /// The address of the band it leads to now.
    public var current: String
    /// That band's name.
    public var name: String
    /// The artist the address was first given to: its old Atom feed's id.
    public var firstArtistID: Int64
    /// When it moved (the catalog's time of the merge); nil in catalogs older than the record.
    public var movedAt: UTCInstant?

    public init(slug: String, current: String, name: String, firstArtistID: Int64, movedAt: UTCInstant?) {
        self.slug = slug
        self.current = current
        self.name = name
        self.firstArtistID = firstArtistID
        self.movedAt = movedAt
    }
}
