import Foundation

/// RFC 4180 records read from a stream: quoted fields may hold commas, doubled quotes
/// and line breaks.
enum CSVRecords {
    /// The fields of one line of text.
    static func fields(of line: String) -> [String] {
        let stream = ByteStream(bytes: Array(line.utf8))
        return (try? record(stream, file: "")) ?? []
    }

    /// The next record; nil at the end of the stream.
    static func record(_ stream: ByteStream, file: String) throws(ListeningImportError) -> [String]? {
        guard stream.peek() != nil else { return nil }
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var wasQuoted = false
        while let byte = stream.next() {
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if stream.peek() == UInt8(ascii: "\"") {
                        _ = stream.next()
                        field.append(byte)
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\"") where field.isEmpty && !wasQuoted:
                quoted = true
                wasQuoted = true
            case UInt8(ascii: ","):
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
                wasQuoted = false
            case 0x0A:
                fields.append(String(decoding: field, as: UTF8.self))
                return fields
            case 0x0D:
                break
            default:
                field.append(byte)
            }
        }
        if quoted {
            throw ListeningImportError(file: file, position: stream.position, message: "the file ends inside a quoted field (truncated?)")
        }
        fields.append(String(decoding: field, as: UTF8.self))
        return fields
    }

    /// A Last.fm scrobble export as the common tools write it: `artist,album,track,date`
    /// without a header, or any columns under a header naming `artist` (and maybe
    /// `artist_mbid`). One row, one play.
    static func readScrobbles(_ stream: ByteStream, file: String, into tally: inout ListeningTally) throws(ListeningImportError) -> Int {
        var artistColumn = 0
        var mbidColumn: Int?
        var width: Int?
        var records = 0
        var first = true
        while true {
            let line = stream.line
            guard let fields = try record(stream, file: file) else { break }
            if fields.count == 1, fields[0].trimmingCharacters(in: .whitespaces).isEmpty { continue }
            if first {
                first = false
                let names = fields.map { $0.lowercased().trimmingCharacters(in: .whitespaces) }
                if let column = names.firstIndex(where: { $0 == "artist" || $0 == "artist name" || $0 == "artist_name" }) {
                    artistColumn = column
                    mbidColumn = names.firstIndex { $0 == "artist_mbid" || $0 == "artist mbid" || $0 == "artistmbid" }
                    width = fields.count
                    continue
                }
            }
            if let width, fields.count != width {
                throw ListeningImportError(
                    file: file, position: "line \(line)", message: "a row of \(fields.count) fields under a header of \(width)")
            }
            if width == nil, fields.count < 3 {
                throw ListeningImportError(
                    file: file, position: "line \(line)",
                    message: "a row of \(fields.count) field\(fields.count == 1 ? "" : "s"); scrobbles are artist,album,track,date")
            }
            let artist = fields[artistColumn].trimmingCharacters(in: .whitespaces)
            guard !artist.isEmpty else {
                throw ListeningImportError(file: file, position: "line \(line)", message: "a scrobble without an artist")
            }
            records += 1
            tally.add(name: artist, musicBrainzID: mbidColumn.map { fields[$0] }, plays: 1, milliseconds: 0)
        }
        return records
    }
}

/// An iTunes or Music app `Library.xml`: a property list whose `Tracks` dictionary
/// holds one dictionary a track, with `Artist`, `Play Count` and `Total Time`.
enum AppleMusicLibrary {
    static func read(_ stream: ByteStream, file: String, into tally: inout ListeningTally) throws(ListeningImportError) -> Int {
        var xml = StreamingXML(stream: stream, file: file)
        var topKey: String?
        var inTracks = false
        var trackDepth: Int?
        var key: String?
        var artist: String?
        var plays = 0
        var totalTime: Int64 = 0
        var records = 0
        var sawPlist = false
        while let token = try xml.next() {
            switch token {
            case .open(let name, _, let selfClosing):
                if name == "plist" { sawPlist = true }
                if name == "key" {
                    let text = try xml.elementText("key")
                    if xml.depth == 2 { topKey = text }
                    key = text
                    continue
                }
                if name == "dict" {
                    if xml.depth == 3, topKey == "Tracks" { inTracks = true }
                    if inTracks, xml.depth == 4 {
                        trackDepth = 4
                        artist = nil
                        plays = 0
                        totalTime = 0
                    }
                    continue
                }
                guard !selfClosing, let trackDepth, xml.depth == trackDepth + 1 else { continue }
                let text = try xml.elementText(name)
                switch key {
                case "Artist": artist = text
                case "Play Count":
                    guard let count = Int(text.trimmingCharacters(in: .whitespaces)), count >= 0 else {
                        throw xml.fail("Play Count \"\(text)\" is not a count")
                    }
                    plays = count
                case "Total Time": totalTime = Int64(text.trimmingCharacters(in: .whitespaces)) ?? 0
                default: break
                }
                key = nil
            case .close(let name):
                guard name == "dict" else { continue }
                if trackDepth != nil, xml.depth == 3 {
                    trackDepth = nil
                    records += 1
                    if let artist, plays > 0 {
                        tally.add(name: artist, musicBrainzID: nil, plays: plays, milliseconds: totalTime * Int64(plays))
                    }
                } else if inTracks, xml.depth == 2 {
                    inTracks = false
                }
            case .text: break
            }
        }
        guard sawPlist else { throw ListeningImportError(file: file, message: "no <plist> in the file") }
        return records
    }
}

/// A Last.fm `user.getTopArtists` response in XML: `<lfm status="ok"><topartists>`
/// with an `<artist>` each (`name`, `playcount`, `mbid`); `status="failed"` carries
/// the error.
enum LastFMTopArtistsXML {
    static func read(_ stream: ByteStream, file: String, into tally: inout ListeningTally) throws(ListeningImportError) -> Int {
        var xml = StreamingXML(stream: stream, file: file)
        var status: String?
        var name: String?
        var mbid: String?
        var plays: Int?
        var records = 0
        var sawTopArtists = false
        while let token = try xml.next() {
            switch token {
            case .open(let element, let attributes, let selfClosing):
                if element == "lfm" { status = attributes["status"] }
                if element == "topartists" { sawTopArtists = true }
                if element == "error", !selfClosing {
                    let message = try xml.elementText("error")
                    throw ListeningImportError(
                        file: file, message: "Last.fm answered error \(attributes["code"] ?? "?"): \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
                }
                guard !selfClosing, xml.depth == 4, ["name", "playcount", "mbid"].contains(element) else { continue }
                let text = try xml.elementText(element).trimmingCharacters(in: .whitespacesAndNewlines)
                switch element {
                case "name": name = text
                case "mbid": mbid = text
                default:
                    guard let count = Int(text), count >= 0 else { throw xml.fail("playcount \"\(text)\" is not a count") }
                    plays = count
                }
            case .close(let element):
                guard element == "artist", xml.depth == 2 else { continue }
                records += 1
                if let name, !name.isEmpty { tally.add(name: name, musicBrainzID: mbid, plays: plays ?? 1, milliseconds: 0) }
                name = nil
                mbid = nil
                plays = nil
            case .text: break
            }
        }
        guard status != "failed" else { throw ListeningImportError(file: file, message: "Last.fm answered status=\"failed\"") }
        guard sawTopArtists else { throw ListeningImportError(file: file, message: "no <topartists> in the Last.fm response") }
        return records
    }
}
