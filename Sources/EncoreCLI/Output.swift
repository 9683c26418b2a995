import Foundation
import Listings

/// Writing results: JSON for machines (and nothing else on stdout), tables for people.
enum Output {
    static func json(_ value: some Encodable) throws {
        FileHandle.standardOutput.write(Data((try encodedJSON(value) + "\n").utf8))
    }

    /// Pretty JSON with sorted keys; empty arrays and objects as `[]` and `{}` (Foundation
    /// writes them over three lines). Raw newlines only occur between tokens, since
    /// newlines inside strings are escaped, so the replacement cannot touch values.
    static func encodedJSON(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        return text
            .replacingOccurrences(of: #"\[\n\s*\n\s*\]"#, with: "[]", options: .regularExpression)
            .replacingOccurrences(of: #"\{\n\s*\n\s*\}"#, with: "{}", options: .regularExpression)
    }

    /// Writes straight to the file descriptor (no stdio buffer), so stdout and stderr
    /// lines come out in the order they were written.
    static func line(_ text: String = "") {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// The catalog id in `#269`, as `search` and the namesake lists print them; nil for a
    /// name (`311` is a band).
    static func catalogID(_ text: String) -> Int64? {
        guard text.hasPrefix("#") else { return nil }
        return Int64(text.dropFirst())
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Columns padded to their widest cell; the last column is not padded.
    static func table(_ rows: [[String]]) -> String {
        guard let columns = rows.map(\.count).max(), columns > 0 else { return "" }
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// One table row for an event: date, time, status, title, where.
    static func eventRow(_ event: EventDetail) -> [String] {
        let time = event.start.localTime.map { String($0.description.prefix(5)) } ?? "--:--"
        let status = event.status == .scheduled ? "" : event.status.rawValue.uppercased()
        var place = event.venue?.name ?? "venue unknown"
        if let city = event.venue?.city ?? event.metroArea?.name { place += ", " + city }
        return ["#\(event.id)", event.start.localDate.description, time, status, event.title, place]
    }
}
