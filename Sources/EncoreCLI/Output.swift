import Foundation
import Listings

/// Writing results: JSON for machines (and nothing else on stdout), tables for people.
enum Output {
    static func json(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    static func line(_ text: String = "") {
        print(text)
    }

    static func error(_ text: String) {
        fflush(stdout)
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
