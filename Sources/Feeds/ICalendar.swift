import Foundation
import Listings

/// RFC 5545 calendars of a fan's plans, to import into calendar apps.
///
/// Timed events are written in UTC (`DTSTART:20261204T193000Z`) when the instant is
/// known, which every client places correctly without time-zone definitions; otherwise
/// as the venue's floating local time. Events without a time are all-day
/// (`VALUE=DATE`). A timed event is given three hours. Reminders go only on timed shows
/// that are not cancelled (a cancelled one stays, as `STATUS:CANCELLED`). Output is
/// deterministic: the caller passes the DTSTAMP.
public enum ICalendar {
    public static func calendar(name: String, events: [EventDetail], stamp: UTCInstant, reminderMinutes: Int? = nil) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Encore//Encore concert plans//EN", "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH", "X-WR-CALNAME:" + escape(name),
        ]
        for event in events {
            lines.append("BEGIN:VEVENT")
            lines += identity(of: event, stamp: stamp)
            if let venue = event.venue {
                lines.append("LOCATION:" + escape(place(of: venue)))
                if let lat = venue.latitude, let lng = venue.longitude { lines.append("GEO:\(lat);\(lng)") }
            }
            if let url = event.sources.first(where: { $0.url != nil })?.url { lines.append("URL:" + url) }
            let headline = event.lineup.filter { $0.billing == .headline }.map(\.name)
            let support = event.lineup.filter { $0.billing == .support }.map(\.name)
            var description: [String] = []
            if !headline.isEmpty { description.append("Headline: " + headline.joined(separator: ", ")) }
            if !support.isEmpty { description.append("Support: " + support.joined(separator: ", ")) }
            if !description.isEmpty { lines.append("DESCRIPTION:" + escape(description.joined(separator: "\n"))) }
            lines.append(status(of: event))
            // A reminder counts back from the start: an all-day entry starts at midnight,
            // so it would ring the evening before; a cancelled show needs none.
            if let reminderMinutes, event.start.utc != nil || event.start.localTime != nil, event.status != .cancelled {
                lines += [
                    "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:" + escape(event.title),
                    "TRIGGER:-PT\(reminderMinutes)M", "END:VALARM",
                ]
            }
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// A calendar of one event, for a concert page's "Add to calendar": RFC 5545's
    /// required properties and what calendar apps show (title, time, place, link, status
    /// when not confirmed). There is one for every concert, so the plans calendar's extras
    /// (a calendar name, position, lineup) are left out.
    public static func event(_ event: EventDetail, stamp: UTCInstant) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Encore//EN", "METHOD:PUBLISH", "BEGIN:VEVENT"]
        lines += identity(of: event, stamp: stamp)
        if let venue = event.venue { lines.append("LOCATION:" + escape(place(of: venue))) }
        if let url = event.sources.first(where: { $0.url != nil })?.url { lines.append("URL:" + url) }
        if event.status != .scheduled, event.status != .rescheduled { lines.append(status(of: event)) }
        lines += ["END:VEVENT", "END:VCALENDAR"]
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// UID, DTSTAMP, DTSTART, DTEND and SUMMARY.
    private static func identity(of event: EventDetail, stamp: UTCInstant) -> [String] {
        var lines = ["UID:event-\(event.id)@encore.invalid", "DTSTAMP:" + compact(stamp)]
        if let utc = event.start.utc {
            lines.append("DTSTART:" + compact(utc))
            lines.append("DTEND:" + compact(UTCInstant(secondsSinceEpoch: utc.secondsSinceEpoch + 3 * 3600)))
        } else if let time = event.start.localTime {
            let start = UTCInstant(date: event.start.localDate, time: time, utcOffsetSeconds: 0)
            lines.append("DTSTART:" + compact(start).dropLast())
            lines.append("DTEND:" + compact(UTCInstant(secondsSinceEpoch: start.secondsSinceEpoch + 3 * 3600)).dropLast())
        } else {
            lines.append("DTSTART;VALUE=DATE:" + basic(event.start.localDate))
            lines.append("DTEND;VALUE=DATE:" + basic((event.endDate ?? event.start.localDate).adding(days: 1)))
        }
        lines.append("SUMMARY:" + escape(event.title))
        return lines
    }

    private static func place(of venue: VenueSummary) -> String {
        [venue.name, venue.city, venue.country].compactMap { $0 }.joined(separator: ", ")
    }

    private static func status(of event: EventDetail) -> String {
        switch event.status {
        case .cancelled: "STATUS:CANCELLED"
        case .postponed: "STATUS:TENTATIVE"
        case .scheduled, .rescheduled: "STATUS:CONFIRMED"
        }
    }

    /// "3h", "90m", "1d" → minutes; nil for anything else, zero or negative.
    public static func parseReminder(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard let unit = trimmed.last, let number = Int(trimmed.dropLast()), number > 0 else { return nil }
        switch unit {
        case "m": return number
        case "h": return number * 60
        case "d": return number * 24 * 60
        default: return nil
        }
    }

    /// TEXT escaping (RFC 5545 §3.3.11), a byte at a time: there is a calendar for every
    /// concert, and titles with a comma are common.
    static func escape(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ",") || $0 == 0x0A || $0 == 0x0D })
        else { return text }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(utf8.count + 8)
        var previousWasReturn = false
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","):
                escaped.append(UInt8(ascii: "\\"))
                escaped.append(byte)
            // A line break, "\n" or "\r\n", becomes the two characters \n.
            case 0x0A:
                if previousWasReturn { escaped.removeLast() }
                escaped.append(UInt8(ascii: "\\"))
                escaped.append(UInt8(ascii: "n"))
            default: escaped.append(byte)
            }
            previousWasReturn = byte == 0x0D
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// Folds a content line at 75 octets without splitting a UTF-8 character.
    static func fold(_ line: String) -> String {
        let utf8 = line.utf8
        guard utf8.count > 75 else { return line }
        var folded: [UInt8] = []
        folded.reserveCapacity(utf8.count + utf8.count / 25 + 3)
        var octets = 0
        for byte in utf8 {
            // A line breaks only before a character's first byte (never before 10xxxxxx).
            if byte & 0xC0 != 0x80 {
                let size = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                if octets + size > 75 {
                    folded.append(0x0D)
                    folded.append(0x0A)
                    folded.append(UInt8(ascii: " "))
                    octets = 1
                }
            }
            folded.append(byte)
            octets += 1
        }
        return String(decoding: folded, as: UTF8.self)
    }

    private static func compact(_ instant: UTCInstant) -> String {
        String(decoding: instant.description.utf8.filter { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: ":") }, as: UTF8.self)
    }

    private static func basic(_ date: LocalDate) -> String {
        String(decoding: date.description.utf8.filter { $0 != UInt8(ascii: "-") }, as: UTF8.self)
    }
}
