import ArgumentParser
import Catalog
import Foundation
import Geo
import Listings

extension TrackedKind: ExpressibleByArgument {}

/// What `encore track` is given: something to follow, or listening exports to import.
enum TrackTarget: String, ExpressibleByArgument, CaseIterable {
    case artist, venue, city
    case `import`

    var kind: TrackedKind? { TrackedKind(rawValue: rawValue) }
}

extension Encore {
    struct Track: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Follow an artist, a venue or a city, or the artists you listen to.",
            discussion: """
                `encore track artist --from-file bands.txt` imports a list: one name per line, or a \
                CSV file with an "artist" column. Names that match no catalog artist are reported \
                (exit status 1); the others are tracked.

                `encore track import FILE...` reads listening exports (Spotify YourLibrary.json, \
                StreamingHistory_music_*.json and Streaming_History_Audio_*.json; Last.fm scrobble CSV \
                and user.getTopArtists XML or JSON; ListenBrainz listens; an Apple Music Library.xml), \
                told apart by content, and follows the artists listened to most (--top, default 100). \
                A file that cannot be read changes nothing (exit status 2).
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var fan: FanOptions

        @Argument(help: "artist, venue, city, or import (listening exports).")
        var target: TrackTarget

        @Argument(help: "The name (a place for cities, e.g. \"Columbus, OH\"); for import, the export files.")
        var names: [String] = []

        @Option(name: .customLong("from-file"), help: ArgumentHelp("Import artist names from a file.", valueName: "file"))
        var file: String?

        @Option(help: "import: follow the N artists listened to most.")
        var top: Int = 100

        @Option(name: .customLong("min-plays"), help: "import: only artists played at least N times (default 1).")
        var minPlays: Int = 1

        @Flag(name: .customLong("dry-run"), help: "import: show what would be followed, follow nothing.")
        var dryRun = false

        @Flag(help: "import: print JSON instead of a table.")
        var json = false

        var name: String? { names.first }
        var kind: TrackedKind { target.kind ?? .artist }

        func validate() throws {
            if target == .import {
                if names.isEmpty { throw ValidationError("Give the export files: `encore track import FILE...`.") }
                if file != nil { throw ValidationError("--from-file goes with `track artist`; `track import` takes the files as arguments.") }
                if top < 1 { throw ValidationError("--top must be at least 1; got \(top).") }
                if minPlays < 1 { throw ValidationError("--min-plays must be at least 1; got \(minPlays).") }
                return
            }
            if top != 100 || minPlays != 1 || dryRun || json {
                throw ValidationError("--top, --min-plays, --dry-run and --json go with `encore track import FILE...`.")
            }
            if names.count > 1 { throw ValidationError("Give one NAME (quote a name with spaces: \"Sala Apolo\").") }
            if (name == nil) == (file == nil) { throw ValidationError("Give a NAME or --from-file FILE (one of them).") }
            if file != nil, kind != .artist { throw ValidationError("--from-file imports artists only: `encore track artist --from-file FILE`.") }
        }

        func run() throws {
            let catalog = try global.openOrCreateCatalog()
            if target == .import {
                return try ListeningImport(files: names, top: top, minPlays: minPlays, dryRun: dryRun, json: json, fan: fan)
                    .run(catalog: catalog)
            }
            if let file { return try importArtists(from: file, into: catalog) }
            let item = try Tracking.resolve(kind, name!, in: catalog, today: global.currentDate)
            let added = try catalog.track(user: fan.name, item)
            Output.line(added ? "Tracking \(kind.rawValue) \(item.name)." : "Already tracking \(kind.rawValue) \(item.name).")
        }

        private func importArtists(from file: String, into catalog: CatalogDatabase) throws {
            let text: String
            do {
                text = try String(contentsOfFile: file, encoding: .utf8)
            } catch {
                throw UsageError("cannot read \(file): \(error.localizedDescription)")
            }
            let names = ArtistListFile.names(in: text)
            var missing: [String] = []
            var added = 0
            for name in names {
                guard let artist = try catalog.artists(named: name, today: global.currentDate).first else {
                    missing.append(name)
                    continue
                }
                if try catalog.track(user: fan.name, TrackedItem(kind: .artist, id: artist.id, name: artist.name)) { added += 1 }
            }
            Output.line("Tracked \(added) new artist\(added == 1 ? "" : "s") from \(names.count) name\(names.count == 1 ? "" : "s") in \(file).")
            guard !missing.isEmpty else { return }
            for name in missing {
                let suggestions = try catalog.artistSuggestions(for: name, limit: 3)
                Output.error("not found: \(name)" + (suggestions.isEmpty ? "" : " (did you mean " + suggestions.joined(separator: ", ") + "?)"))
            }
            throw ReportedFailure()
        }
    }

    struct Untrack: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop following an artist, a venue or a city.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var fan: FanOptions

        @Argument(help: "artist, venue or city.")
        var kind: TrackedKind

        @Argument(help: "The name, as tracked.")
        var name: String

        func run() throws {
            let catalog = try global.openCatalog()
            let tracked = try catalog.tracked(user: fan.name).filter { $0.kind == kind }
            let folded = NameFolding.fold(name)
            let match = tracked.first { NameFolding.fold($0.name) == folded }
                ?? (try? Tracking.resolve(kind, name, in: catalog, today: global.currentDate)).flatMap { item in
                    tracked.first { $0.id == item.id }
                }
            guard let match, try catalog.untrack(user: fan.name, kind: kind, id: match.id) else {
                Output.error("\(fan.name) does not track \(kind.rawValue) \"\(name)\"; see `\(fan.command("encore tracked"))`.")
                throw ReportedFailure()
            }
            Output.line("No longer tracking \(kind.rawValue) \(match.name).")
        }
    }

    struct Tracked: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the artists, venues and cities a fan follows.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var fan: FanOptions

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        func run() throws {
            let catalog = try global.openCatalog()
            let items = try catalog.tracked(user: fan.name)
            if json { return try Output.json(items) }
            // Followed from listening before any source listed them.
            let waiting = try catalog.followedNamesNotInCatalog(user: fan.name)
            if items.isEmpty && waiting.isEmpty {
                return Output.line("\(fan.name) tracks nothing yet; try `\(fan.command("encore track artist NAME"))`.")
            }
            Output.line(Output.table(
                items.map { [$0.kind.rawValue, "#\($0.id)", $0.name] } + waiting.map { ["artist", "(not in the catalog yet)", $0] }))
        }
    }
}

/// Turning what a fan typed into something to track.
enum Tracking {
    static func resolve(_ kind: TrackedKind, _ name: String, in catalog: CatalogDatabase, today: LocalDate) throws -> TrackedItem {
        switch kind {
        case .artist:
            guard let artist = try catalog.artists(named: name, today: today).first else {
                let suggestions = try catalog.artistSuggestions(for: name)
                throw NotInCatalog(
                    "no artist named \"\(name)\" in the catalog"
                        + (suggestions.isEmpty ? "" : "; did you mean " + suggestions.map { "\"\($0)\"" }.joined(separator: ", ") + "?"))
            }
            return TrackedItem(kind: .artist, id: artist.id, name: artist.name)
        case .venue:
            guard let venue = try catalog.venues(named: name).first else {
                throw NotInCatalog("no venue named \"\(name)\" in the catalog; try `encore search \(name)`")
            }
            return TrackedItem(kind: .venue, id: venue.id, name: venue.name, latitude: venue.latitude, longitude: venue.longitude)
        case .city:
            let place = try Places.resolve(name, in: catalog, today: today)
            guard let city = place.city else { throw UsageError("track a city by name, e.g. \"Bilbao\" or \"Columbus, OH\"") }
            return TrackedItem(
                kind: .city, id: Int64(city.geonameID), name: place.label, latitude: city.coordinate.latitude,
                longitude: city.coordinate.longitude)
        }
    }
}

/// Artist lists fans import: one name per line, or CSV with an "artist" column.
enum ArtistListFile {
    static func names(in text: String) -> [String] {
        let lines = text.split(whereSeparator: \.isNewline).map { String($0) }
        guard let header = lines.first else { return [] }
        let headerFields = csvFields(header).map { $0.lowercased().trimmingCharacters(in: .whitespaces) }
        if headerFields.count > 1 || headerFields.first == "artist",
            let column = headerFields.firstIndex(where: { $0 == "artist" || $0 == "artist name" || $0 == "name" })
        {
            return lines.dropFirst().compactMap { line in
                let fields = csvFields(line)
                guard column < fields.count else { return nil }
                let name = fields[column].trimmingCharacters(in: .whitespaces)
                return name.isEmpty ? nil : name
            }
        }
        return lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// RFC 4180 fields of one line: quoted fields may hold commas and doubled quotes.
    static func csvFields(_ line: String) -> [String] {
        var fields: [String] = []
        var current = ""
        var quoted = false
        var iterator = Array(line).makeIterator()
        while let character = iterator.next() {
            if quoted {
                if character == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" { current.append("\"") } else {
                            quoted = false
                            if next == "," { fields.append(current); current = "" } else { current.append(next) }
                        }
                    } else {
                        quoted = false
                    }
                } else {
                    current.append(character)
                }
            } else if character == "\"" && current.isEmpty {
                quoted = true
            } else if character == "," {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }
}
