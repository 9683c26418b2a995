import Geo

/// Credits that feature a guest, "A feat. B", where the catalog knows A and B as bands of
/// their own: such a credit gets no band page (it is no band), and a concert page links
/// its acts' pages instead.
struct FeaturedCredits: Sendable {
    /// A credit's acts, in the credit's order, each with its id and name.
    let acts: [Int64: [(id: Int64, name: String)]]

    static let none = FeaturedCredits(acts: [:])

    init(acts: [Int64: [(id: Int64, name: String)]]) {
        self.acts = acts
    }

    /// The credits among `names` whose every act is one other artist there, by folded name.
    init(among names: [(id: Int64, name: String)]) {
        var byName: [String: [(id: Int64, name: String)]] = [:]
        var credits: [(id: Int64, parts: [String])] = []
        for artist in names {
            let parts = MatchKey.featuredActs(artist.name)
            if parts.isEmpty {
                byName[NameFolding.fold(artist.name), default: []].append(artist)
            } else {
                credits.append((artist.id, parts))
            }
        }
        var acts: [Int64: [(id: Int64, name: String)]] = [:]
        for credit in credits {
            let found = credit.parts.compactMap { part in byName[part].flatMap { $0.count == 1 ? $0[0] : nil } }
            if found.count == credit.parts.count { acts[credit.id] = found }
        }
        self.acts = acts
    }

    /// Band pages' slugs without the credits'.
    func bandPages(_ slugs: [Int64: String]) -> [Int64: String] {
        acts.isEmpty ? slugs : slugs.filter { acts[$0.key] == nil }
    }
}

extension FeedBuilder {
    /// Band pages' addresses of the artists named, featured credits left out.
    func bandPages(for names: [(id: Int64, name: String)]) throws -> (slugs: [Int64: String], credits: FeaturedCredits) {
        let credits = FeaturedCredits(among: names)
        return (credits.bandPages(try source.artistAddresses(for: names)), credits)
    }
}
