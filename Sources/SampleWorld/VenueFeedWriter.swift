import Foundation

/// The iCalendar feed a gig guide would publish of the world's venue pages: one `VEVENT`
/// per JSON-LD event block, with its `@id` as `UID`, the start in UTC (or a date), the
/// venue as `LOCATION` and `GEO`, and `STATUS:CANCELLED` for a cancelled show. Served by
/// ``SampleAPIServer`` beside the pages it is made from, so a crawl can read both.
enum VenueFeedWriter {
    /// - Parameter pages: the venue pages' bytes, in a stable order.
    static func feed(of pages: [Data]) -> Data {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Encore sample//Gig guide//EN", "CALSCALE:GREGORIAN",
            "X-WR-CALNAME:Gig guide",
        ]
        for page in pages {
            for event in blocks(in: page) { lines += vevent(event) }
        }
        lines.append("END:VCALENDAR")
        return Data(lines.flatMap(folded).map { $0 + "\r\n" }.joined().utf8)
    }

    /// The JSON objects of a page's `application/ld+json` blocks (written by ``JSONLDWriter``).
    static func blocks(in page: Data) -> [[String: Any]] {
        let text = String(decoding: page, as: UTF8.self)
        let opening = "<script type=\"application/ld+json\">"
        return text.components(separatedBy: opening).dropFirst().compactMap { part in
            guard let end = part.range(of: "</script>") else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(part[..<end.lowerBound].utf8))) as? [String: Any]
        }
    }

    static func vevent(_ event: [String: Any]) -> [String] {
        guard let id = event["@id"] as? String, let start = event["startDate"] as? String else { return [] }
        var lines = ["BEGIN:VEVENT", "UID:" + id, "DTSTAMP:20260101T000000Z"]
        let date = start.prefix(10).replacingOccurrences(of: "-", with: "")
        if start.count > 10, let utc = utcStamp(start) {
            lines.append("DTSTART:" + utc)
        } else {
            lines.append("DTSTART;VALUE=DATE:" + date)
            if let end = event["endDate"] as? String, let last = dayAfter(String(end.prefix(10))) {
                lines.append("DTEND;VALUE=DATE:" + last)
            }
        }
        lines.append("SUMMARY:" + escaped(event["name"] as? String ?? ""))
        if let location = event["location"] as? [String: Any] {
            let address = location["address"] as? [String: Any] ?? [:]
            let parts = [location["name"], address["streetAddress"], address["addressLocality"], address["addressCountry"]]
                .compactMap { $0 as? String }
            lines.append("LOCATION:" + parts.map(escaped).joined(separator: "\\, "))
            if let geo = location["geo"] as? [String: Any], let latitude = geo["latitude"] as? Double,
                let longitude = geo["longitude"] as? Double
            {
                lines.append("GEO:\(latitude);\(longitude)")
            }
        }
        if let url = event["url"] as? String { lines.append("URL:" + url) }
        let cancelled = (event["eventStatus"] as? String)?.hasSuffix("EventCancelled") == true
        lines.append(cancelled ? "STATUS:CANCELLED" : "STATUS:CONFIRMED")
        lines.append("END:VEVENT")
        return lines
    }

    /// `2026-12-03T20:30:00+01:00` → `20261203T193000Z`.
    static func utcStamp(_ text: String) -> String? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        guard let date = formatter.date(from: text) else { return nil }
        let utc = ISO8601DateFormatter()
        utc.formatOptions = [.withYear, .withMonth, .withDay, .withTime]
        utc.timeZone = TimeZone(identifier: "UTC")
        return utc.string(from: date) + "Z"
    }

    static func dayAfter(_ iso: String) -> String? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        guard let date = formatter.date(from: iso) else { return nil }
        formatter.dateFormat = "yyyyMMdd"
        return formatter.string(from: date.addingTimeInterval(86_400))
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ";", with: "\\;")
            .replacingOccurrences(of: ",", with: "\\,").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// A content line folded at 75 octets, as RFC 5545 asks (never inside a character).
    static func folded(_ line: String) -> [String] {
        var result: [String] = []
        var current = ""
        var octets = 0
        for character in line {
            let size = character.utf8.count
            if octets + size > (result.isEmpty ? 75 : 74) {
                result.append(current)
                current = ""
                octets = 0
            }
            current.append(character)
            octets += size
        }
        result.append(current)
        return result.enumerated().map { $0.offset == 0 ? $0.element : " " + $0.element }
    }
}
