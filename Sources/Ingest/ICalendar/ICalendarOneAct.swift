import Foundation

/// Whether a calendar is one act's own (a band's Gig-o-Matic export, a tour feed, an
/// idol's schedule): its `X-WR-CALNAME` then names the act playing every entry, not a
/// venue.
///
/// Evidence, from the feed itself:
/// - a band tool made it (`PRODID` of Gig-o-Matic, BandHelper...);
/// - or the name (less "Tour", "Gigs", "Schedule", "官方日程"...) is in at least 2 in 5
///   entries' `SUMMARY` ("Widespread Panic – Red Rocks Amphitheatre");
/// - or the entries are at different places (`LOCATION` varies) and their summaries
///   name no act in at least 7 in 10 ("Wedding reception", "活动 · 个人出道 Showcase").
///
/// A name with "at" or a venue's word ("Hall", "Club", "Stadium") is a venue's calendar.
struct ICalendarOneAct {
    /// Band tools whose feeds are one band's gigs.
    static let bandTools = ["gig-o-matic", "bandhelper", "band helper", "bandsintown for artists", "gigwell", "artistgrowth"]

    /// The act of a one-act calendar, or nil.
    /// - Parameter entries: the `VEVENT`s kept as performances (not skipped as other kinds).
    static func act(of calendar: ICalendarComponent, entries: [ICalendarComponent]) -> String? {
        guard let raw = calendar.property("X-WR-CALNAME")?.text, let name = candidate(raw) else { return nil }
        let producer = (calendar.property("PRODID")?.text ?? "").lowercased()
        if bandTools.contains(where: { producer.contains($0) }) { return name }
        guard entries.count >= 2 else { return nil }
        let summaries = entries.map { String(($0.property("SUMMARY")?.text ?? "").prefix(TitleBill.longestReadForActs)) }
        let lowerName = name.lowercased()
        let naming = summaries.filter { $0.lowercased().contains(lowerName) }.count
        if naming * 5 >= summaries.count * 2 { return name }
        let places = entries.compactMap { entry -> String? in
            let place = entry.property("LOCATION")?.text.split(separator: ",").first?.trimmingCharacters(in: .whitespaces).lowercased()
            return place?.isEmpty == false ? place : nil
        }
        let distinct = Set(places).count
        guard places.count * 2 >= entries.count, distinct >= 2, distinct * 2 >= places.count else { return nil }
        let namingActs = summaries.filter { !TitleBill($0).acts.isEmpty }.count
        return namingActs * 10 <= summaries.count * 3 ? name : nil
    }

    /// Words of a calendar's name that say it is a list, not part of the act's name.
    static let listWords: Set<String> = [
        "tour", "tours", "tour dates", "dates", "gigs", "gig", "shows", "concerts", "calendar", "schedule", "events", "live", "termine",
        "konzerte", "konserter", "keikat", "official", "upcoming", "agenda", "kalender", "calendario", "dates de tournée", "tourdaten",
        "官方日程", "日程", "行程", "スケジュール", "일정", "公式",
    ]
    /// Words that make a name a venue's or a place's.
    static let venueWords: Set<String> = [
        "hall", "club", "bar", "stadium", "arena", "theatre", "theater", "venue", "kulturhus", "kulturhuset", "burg", "church", "kirke",
        "pub", "café", "cafe", "lounge", "room", "rooms", "center", "centre", "house", "hallen", "haus", "huset", "museum", "library",
        "park", "amphitheatre", "amphitheater", "ballroom", "tavern", "saloon", "opera", "concertgebouw", "philharmonie", "castle",
        "festival", "city", "county", "university",
    ]

    /// "Widespread Panic Tour" → "Widespread Panic"; "EVAN · 官方日程" → "EVAN"; nil for a
    /// name that is a venue's, a list's or empty.
    static func candidate(_ raw: String) -> String? {
        var name = TitleBill.withoutParentheses(TitleBill.collapsed(raw))
        if name.lowercased().contains(" at ") || name.contains("@") { return nil }
        for separator in [" · ", " — ", " – ", " - ", " | ", ": ", "・"] {
            if let range = name.range(of: separator) { name = String(name[..<range.lowerBound]) }
        }
        var words = name.split(separator: " ").map(String.init)
        while let last = words.last, listWords.contains(last.lowercased()) || last == "'s" { words.removeLast() }
        while let first = words.first, listWords.contains(first.lowercased()) { words.removeFirst() }
        name = words.joined(separator: " ")
        for suffix in ["'s", "’s"] where name.hasSuffix(suffix) { name = String(name.dropLast(suffix.count)) }
        for word in ["官方日程", "日程", "スケジュール", "일정"] where name.hasSuffix(word) { name = String(name.dropLast(word.count)) }
        name = name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 60, words.count <= 6 else { return nil }
        let lower = TitleText(name).words
        if lower.contains(where: { venueWords.contains(String($0)) }) { return nil }
        if TitleBill.readsLikeEventName(name) || TitleBill.isNotAnAct(name) { return nil }
        return name
    }
}
