import Foundation
import Geo
import Listings

/// The listening exports `encore track import` reads, told apart by content.
public enum ListeningExportKind: String, Sendable, CaseIterable {
    case spotifyLibrary = "Spotify library (YourLibrary.json)"
    case spotifyHistory = "Spotify streaming history"
    case spotifyExtendedHistory = "Spotify extended streaming history"
    case lastfmScrobbles = "Last.fm scrobbles (CSV)"
    case lastfmTopArtists = "Last.fm top artists"
    case listenBrainz = "ListenBrainz listens"
    case appleMusicLibrary = "Apple Music / iTunes library"
    /// `[]`: a history with nothing in it.
    case empty = "empty export"

    /// The kind of export that starts with these bytes; nil when it is none of them.
    static func detect(head bytes: [UInt8]) -> ListeningExportKind? {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        guard start < bytes.count else { return nil }
        let head = String(decoding: bytes[start...], as: UTF8.self)
        func has(_ key: String) -> Bool { head.contains("\"\(key)\"") }
        switch bytes[start] {
        case UInt8(ascii: "<"):
            if head.contains("<plist") || head.contains("DOCTYPE plist") { return .appleMusicLibrary }
            if head.contains("<topartists") || (head.contains("<lfm") && !head.contains("<similarartists")) { return .lastfmTopArtists }
            return nil
        case UInt8(ascii: "["):
            if has("master_metadata_album_artist_name") || has("ms_played") { return .spotifyExtendedHistory }
            if has("artistName") || has("msPlayed") { return .spotifyHistory }
            if has("track_metadata") { return .listenBrainz }
            if head.dropFirst().drop(while: { $0.isWhitespace }).first == "]" { return .empty }
            return nil
        case UInt8(ascii: "{"):
            if has("topartists") { return .lastfmTopArtists }
            if has("track_metadata") { return .listenBrainz }
            if has("tracks") && (has("albums") || has("artists") || has("bannedTracks")) { return .spotifyLibrary }
            if has("error") && has("message") { return .lastfmTopArtists }
            return nil
        default:
            let firstLine = head.prefix { $0 != "\n" && $0 != "\r" }
            return CSVRecords.fields(of: String(firstLine)).count >= 3 ? .lastfmScrobbles : nil
        }
    }
}

/// Listening summed per artist across export files. Spellings meet under Encore's name
/// key (``NameFolding``) and under MusicBrainz ids: two spellings with one id are one
/// artist. A Spotify stream counts as a play from 30 seconds on (Spotify's own rule);
/// its time counts in any case.
public struct ListeningTally: Sendable {
    public struct FileSummary: Sendable, Hashable {
        public var file: String
        public var kind: ListeningExportKind
        public var records: Int
    }

    private var artists: [ListenedArtist] = []
    private var byName: [String: Int] = [:]
    private var byMBID: [String: Int] = [:]
    /// Names as written, to their entry: exports repeat names far more than they vary.
    private var byWrittenName: [String: Int] = [:]
    public private(set) var files: [FileSummary] = []

    public init() {}

    /// Everyone listened to, most played first (then longest played, then by name).
    public var ranked: [ListenedArtist] {
        artists.filter { $0.plays > 0 || $0.millisecondsPlayed > 0 }.sorted {
            ($0.plays, $0.millisecondsPlayed) != ($1.plays, $1.millisecondsPlayed)
                ? ($0.plays, $0.millisecondsPlayed) > ($1.plays, $1.millisecondsPlayed)
                : ($0.name, $0.musicBrainzID ?? "") < ($1.name, $1.musicBrainzID ?? "")
        }
    }

    /// The acts a credit names, when it names several: "A feat. B", "A & B", "A, B & C"
    /// (the separators ``TitleBill`` splits bills on, and "&" and "," between two).
    public static func credits(of name: String) -> [String] {
        let parts = TitleBill.split(name).flatMap { $0.components(separatedBy: " & ") }.flatMap { $0.components(separatedBy: ", ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return parts.count > 1 ? parts : []
    }

    /// ``ranked`` with each entry's credits filled in, the first `limit` of them. An
    /// artist never played for 30 seconds was not listened to (skipped tracks).
    public func ranked(limit: Int, minimumPlays: Int = 1) -> [ListenedArtist] {
        ranked.lazy.filter { $0.plays >= max(1, minimumPlays) }.prefix(limit).map { artist in
            var artist = artist
            artist.credits = Self.credits(of: artist.name)
            return artist
        }
    }

    mutating func add(name rawName: String, musicBrainzID: String?, plays: Int, milliseconds: Int64) {
        let mbid = musicBrainzID.map { $0.lowercased().trimmingCharacters(in: .whitespaces) }.flatMap { Self.isMBID($0) ? $0 : nil }
        if mbid == nil, let index = byWrittenName[rawName] {
            artists[index].plays += plays
            artists[index].millisecondsPlayed += milliseconds
            return
        }
        let name = rawName.trimmingCharacters(in: .whitespacesAndNewlines)
        let key = NameFolding.fold(name)
        guard !key.isEmpty else { return }
        let index: Int
        if let mbid, let known = byMBID[mbid] {
            index = known
        } else if let known = byName[key], mbid == nil || artists[known].musicBrainzID == nil || artists[known].musicBrainzID == mbid {
            index = known
        } else {
            index = artists.count
            artists.append(ListenedArtist(name: name, musicBrainzID: nil, plays: 0))
        }
        if let mbid {
            byMBID[mbid] = index
            if artists[index].musicBrainzID == nil { artists[index].musicBrainzID = mbid }
        }
        if byName[key] == nil { byName[key] = index }
        if mbid == nil { byWrittenName[rawName] = index }
        artists[index].plays += plays
        artists[index].millisecondsPlayed += milliseconds
    }

    static func isMBID(_ text: String) -> Bool {
        text.utf8.count == 36 && text.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12]
            && text.allSatisfy { $0 == "-" || $0.isHexDigit }
    }

    /// Reads one export file whole, streaming; on an error nothing of the file is kept.
    public mutating func read(file: String) throws(ListeningImportError) {
        let stream = try ByteStream(path: file)
        try read(stream, name: file)
    }

    /// Reads an export already in memory (tests, a browser upload).
    public mutating func read(bytes: [UInt8], name: String) throws(ListeningImportError) {
        try read(ByteStream(bytes: bytes), name: name)
    }

    private mutating func read(_ stream: ByteStream, name file: String) throws(ListeningImportError) {
        guard let kind = ListeningExportKind.detect(head: stream.head(64 * 1024)) else {
            throw ListeningImportError(
                file: file,
                message: "not a listening export Encore reads (Spotify YourLibrary.json or streaming history, a Last.fm "
                    + "scrobble CSV or top artists, ListenBrainz listens, an Apple Music Library.xml)")
        }
        var copy = self
        var records = 0
        switch kind {
        case .empty: break
        case .spotifyExtendedHistory, .spotifyHistory, .listenBrainz, .lastfmTopArtists, .spotifyLibrary:
            if kind == .lastfmTopArtists, stream.head(64).contains(UInt8(ascii: "<")) {
                records = try LastFMTopArtistsXML.read(stream, file: file, into: &copy)
            } else {
                var handler = ListeningJSONRecords(kind: kind, tally: copy, file: file)
                var reader = StreamingJSON(stream: stream, file: file, keys: handler.keys)
                try reader.readAll(into: &handler)
                try handler.finish()
                copy = handler.tally
                records = handler.records
            }
        case .lastfmScrobbles: records = try CSVRecords.readScrobbles(stream, file: file, into: &copy)
        case .appleMusicLibrary: records = try AppleMusicLibrary.read(stream, file: file, into: &copy)
        }
        copy.files.append(FileSummary(file: file, kind: kind, records: records))
        self = copy
    }
}

/// The records of the JSON exports, field by field as the stream passes them.
struct ListeningJSONRecords: StreamingJSONHandler {
    let kind: ListeningExportKind
    var tally: ListeningTally
    let file: String
    var records = 0
    private var name: String?
    private var mbid: String?
    private var milliseconds: Int64 = 0
    private var plays: Int?
    private var errorCode: String?
    private var errorMessage: String?

    init(kind: ListeningExportKind, tally: ListeningTally, file: String) {
        self.kind = kind
        self.tally = tally
        self.file = file
    }

    var keys: [String] {
        switch kind {
        case .spotifyExtendedHistory: ["master_metadata_album_artist_name", "ms_played"]
        case .spotifyHistory: ["artistName", "msPlayed"]
        case .listenBrainz: ["track_metadata", "artist_name", "additional_info", "artist_mbids", "mbid_mapping"]
        case .lastfmTopArtists: ["topartists", "artist", "name", "playcount", "mbid", "error", "message"]
        case .spotifyLibrary: ["tracks", "artist", "artists", "name"]
        default: []
        }
    }

    mutating func scalar(_ value: JSONScalar, path: [Int]) throws(ListeningImportError) {
        switch (kind, path) {
        case (.spotifyExtendedHistory, [0]), (.spotifyHistory, [0]), (.listenBrainz, [0, 1]), (.lastfmTopArtists, [0, 1, 2]),
            (.spotifyLibrary, [0, 1]), (.spotifyLibrary, [2, 3]):
            name = value.text
        case (.spotifyExtendedHistory, [1]), (.spotifyHistory, [1]):
            milliseconds = Int64(value.number ?? 0)
        case (.listenBrainz, [0, 2, 3]), (.listenBrainz, [0, 4, 3]), (.lastfmTopArtists, [0, 1, 4]):
            if mbid == nil { mbid = value.text }
        case (.lastfmTopArtists, [0, 1, 3]):
            guard let count = value.number, count >= 0, count == count.rounded() else {
                throw ListeningImportError(file: file, message: "artist #\(records + 1): playcount is not a count")
            }
            plays = Int(count)
        case (.lastfmTopArtists, [5]): errorCode = value.text
        case (.lastfmTopArtists, [6]): errorMessage = value.text
        default: break
        }
    }

    mutating func objectEnded(path: [Int]) throws(ListeningImportError) {
        switch (kind, path) {
        case (.spotifyExtendedHistory, []), (.spotifyHistory, []), (.listenBrainz, []), (.lastfmTopArtists, [0, 1]),
            (.spotifyLibrary, [0]), (.spotifyLibrary, [2]):
            break
        default: return
        }
        if kind == .lastfmTopArtists, path.isEmpty { return }
        defer {
            name = nil
            mbid = nil
            milliseconds = 0
            plays = nil
        }
        if kind == .listenBrainz, path.isEmpty, name == nil {
            throw ListeningImportError(file: file, message: "listen #\(records + 1) has no track_metadata.artist_name")
        }
        records += 1
        // Podcasts and audiobooks in a Spotify history have no artist.
        guard let name, !name.isEmpty else { return }
        let played: Int
        switch kind {
        case .spotifyExtendedHistory, .spotifyHistory: played = milliseconds >= 30_000 ? 1 : 0
        default: played = plays ?? 1
        }
        tally.add(name: name, musicBrainzID: mbid, plays: played, milliseconds: milliseconds)
    }

    func finish() throws(ListeningImportError) {
        if let errorCode {
            throw ListeningImportError(file: file, message: "Last.fm answered error \(errorCode): \(errorMessage ?? "no message")")
        }
    }
}
