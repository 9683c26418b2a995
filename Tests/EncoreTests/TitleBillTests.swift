import Foundation
import Ingest
import Listings
import Testing

/// Lineups read from titles (``TitleBill``) and what is no concert (``NonConcertClassifier``),
/// on the shapes real calendars, venue pages and Songkick's cancelled shows write.
struct TitleBillTests {
    @Test(arguments: [
        ("Helmet", ["Helmet"]),
        ("✓ Tim Cappello", ["Tim Cappello"]),
        ("🎯 Karrin Allyson — The Jazz Salon", ["Karrin Allyson"]),
        ("Sentinel Records with Ghost Lanes, Tide Parades, and Otis Marsh", ["Sentinel Records", "Ghost Lanes", "Tide Parades", "Otis Marsh"]),
        ("Magnetic Deserts — The Lantern Rooms", ["Magnetic Deserts"]),
        ("Tim Cappello at Show Bar at Revolution Hall", ["Tim Cappello"]),
        ("Canyon Foxes / Main Stage", ["Canyon Foxes"]),
        ("Canyon Foxes @ The Lantern Rooms", ["Canyon Foxes"]),
        ("WORLD TOUR (IRON MAIDEN)", ["IRON MAIDEN"]),
        ("Jazz Sunday - Sonder Trio", ["Sonder Trio"]),
        ("Creedence Revisited med Fortunate Sons", ["Creedence Revisited", "Fortunate Sons"]),
        ("Grace Ezra mit Otis Marsh", ["Grace Ezra", "Otis Marsh"]),
        ("Los Planetas con Uzak Kuşlar", ["Los Planetas", "Uzak Kuşlar"]),
        ("Les Orages avec Mavi Vapur", ["Les Orages", "Mavi Vapur"]),
        ("Tide Parades met Grace Ezra", ["Tide Parades", "Grace Ezra"]),
        ("DJ Storm b2b DJ Calm", ["DJ Storm", "DJ Calm"]),
        ("Voulez Vous – A Fabulous Tribute to ABBA", ["Voulez Vous"]),
        ("A TRIBUTE TO AMY – DIE Amy Winehouse Show", []),
        ("Tinseltown Rebellion Band plays Frank Zappa", ["Tinseltown Rebellion Band"]),
        ("Arktisk Filharmoni – Klangen av Nord", ["Arktisk Filharmoni"]),
        ("TILL BRÖNNER – Mit Dieter Ilg", ["TILL BRÖNNER", "Dieter Ilg"]),
        ("Mark Shilansky & Friends — Birds of a Feather Jazz Lounge", ["Mark Shilansky"]),
        ("Demons & Wizards / Faster", ["Demons & Wizards"]),
        ("Höhner 2025", ["Höhner"]),
        ("最終未来少女 1st TOUR（タイトル未定）in 大阪・バナナホール", ["最終未来少女"]),
        ("Aktiv Dödshjelp pres. av Bukta Live", ["Aktiv Dödshjelp"]),
        ("Pori Jazz presents: Ibrahim Maalouf – The Trumpets of Michel-Ange", ["Ibrahim Maalouf"]),
        ("Widespread Panic – Red Rocks Amphitheatre (Night 2 of 3)", ["Widespread Panic"]),
        ("SOLD OUT: Canyon Foxes + special guests", ["Canyon Foxes"]),
        ("Winter Concert", []),
        ("Monday Jazz Happening at Rica Bar", []),
        ("The Music of HANS ZIMMER & Others", []),
        ("Who owns Greenland? And why it's not for sale", []),
        ("Friday, May 5", []),
    ])
    func titlesBillTheirActs(title: String, acts: [String]) {
        #expect(TitleBill(title).acts == acts, "\(title)")
    }

    @Test func statusWordsMarkACancellationAndAreNoAct() {
        let bill = TitleBill("ABGESAGT – Canyon Foxes w/ Grace Ezra")
        #expect(bill.cancelled && bill.acts == ["Canyon Foxes", "Grace Ezra"])
        #expect(TitleBill("Grace Ezra at The Lantern Rooms").venue == "The Lantern Rooms")
        #expect(TitleBill("Helmet", bareNames: false).acts.isEmpty, "a bare name only where the source allows")
    }

    /// Songkick's display name of a cancelled show: "A with B at Venue (date) (CANCELLED)".
    @Test func aDisplayNameWithVenueAndDateBillsItsActs() {
        let bill = TitleBill(displayName: "Camila Cabello with PRETTYMUCH at STAPLES Center (August 7, 2020) (CANCELLED) ", venue: "STAPLES Center")
        #expect(bill.acts == ["Camila Cabello", "PRETTYMUCH"])
        #expect(bill.cancelled)
        #expect(bill.lineup.map(\.billing) == [.headline, .support])
        #expect(bill.lineup.first?.artist.sourceID == "name:camila cabello")
    }

    /// A cancelled Songkick show's performances are gone; its display name bills the acts
    /// the page knows by Songkick's id, as those artists (no second record of them).
    @Test func aCancelledSongkickShowBillsTheActsThePageKnows() throws {
        func event(_ id: Int, _ name: String, _ performances: String, status: String = "ok") -> String {
            """
            {"id": \(id), "displayName": "\(name)", "type": "Concert", "status": "\(status)",
             "start": {"date": "2027-03-0\(id)", "time": null, "datetime": null},
             "venue": {"id": 17522, "displayName": "Kulturhaus Turm", "lat": null, "lng": null, "metroArea": {"id": 28443, "displayName": "Vienna"}},
             "performance": [\(performances)]}
            """
        }
        let performance = #"{"billing": "headline", "billingIndex": 1, "artist": {"id": 102723, "displayName": "Neon Arrows"}}"#
        let json = #"{"resultsPage": {"status": "ok", "results": {"event": ["#
            + event(1, "Neon Arrows at Kulturhaus Turm (March 1, 2027)", performance) + ","
            + event(2, "Neon Arrows with Barış at Kulturhaus Turm (March 2, 2027) (CANCELLED) ", "", status: "cancelled")
            + #"]}, "perPage": 50, "page": 1, "totalEntries": 2}}"#
        let page = try SongkickJSONIngester().parse(Data(json.utf8), context: PageContext(locator: "28443-calendar-p1.json"))
        let cancelled = try #require(page.events.last)
        #expect(cancelled.status == .cancelled)
        #expect(cancelled.lineup.map(\.artist.sourceID) == ["102723"], "Barış is known by name alone: left out")
        #expect(cancelled.title == "Neon Arrows with Barış at Kulturhaus Turm (March 2, 2027)")
    }

    /// The labelled titles of `Fixtures/titles`: the headliner of at least 9 in 10 titles that
    /// name an act, the whole bill of 8 in 10, 9 in 10 non-concerts skipped by their kind,
    /// no concert skipped, and no act from 9 in 10 titles that name none.
    @Test func labelledTitlesBillTheirHeadlinerNineTimesInTen() throws {
        let text = try String(contentsOfFile: TestSupport.fixture("titles/labelled-titles.tsv"), encoding: .utf8)
        var naming = 0
        var headliners = 0
        var bills = 0
        var others = 0
        var othersByKind = 0
        var namingNone = 0
        var noAct = 0
        let classifier = NonConcertClassifier()
        for line in text.split(separator: "\n").dropFirst() {
            let columns = line.split(separator: "\t").map(String.init)
            guard columns.count == 2 else { continue }
            let (title, expected) = (columns[0], columns[1])
            if expected.hasPrefix("skip:") {
                others += 1
                if classifier.kind(title: title)?.rawValue == String(expected.dropFirst(5)) { othersByKind += 1 }
                continue
            }
            #expect(classifier.kind(title: title) == nil, "\(title) is a concert")
            let acts = TitleBill(title).acts
            if expected == "-" {
                namingNone += 1
                if acts.isEmpty { noAct += 1 }
                continue
            }
            let wanted = expected.split(separator: "|").map(String.init)
            naming += 1
            if acts.first == wanted.first { headliners += 1 }
            if acts == wanted { bills += 1 }
        }
        #expect(naming >= 50)
        #expect(Double(headliners) >= 0.9 * Double(naming), "headliner right in \(headliners) of \(naming)")
        #expect(Double(bills) >= 0.8 * Double(naming), "whole bill right in \(bills) of \(naming)")
        #expect(Double(othersByKind) >= 0.9 * Double(others), "\(othersByKind) of \(others) non-concerts skipped by kind")
        #expect(Double(noAct) >= 0.9 * Double(namingNone), "\(noAct) of \(namingNone) titles without an act")
        print("labelled titles: headliner \(headliners)/\(naming), bill \(bills)/\(naming), kinds \(othersByKind)/\(others), no act \(noAct)/\(namingNone)")
    }

    @Test func aMusicWordKeepsASoftKindAConcertButNotAFirmOne() {
        let classifier = NonConcertClassifier()
        #expect(classifier.kind(title: "Stumfilm konsert") == nil)
        #expect(classifier.kind(title: "20 JAHRE LEGER – DAS JUBILÄUMSKONZERT") == nil)
        #expect(classifier.kind(title: "THE HOOTERS – 45th Anniversary Tour") == nil)
        #expect(classifier.kind(title: "Jazz Festival 2 Day Pass") == .passes)
        #expect(classifier.kind(title: "Widespread Panic – Fox Theater", place: "Fox Theater") == nil, "a venue named in the title")
        #expect(classifier.kind(title: "The Odyssey", place: "Aurora Kino, Sal 4") == .films, "a cinema")
        #expect(classifier.kind(title: "Headhunterz vs Wildstylez (DJ set)") == nil, "DJs, not teams")
        #expect(classifier.kind(title: "Arsenal v Chelsea") == .sports)
        #expect(classifier.kind(title: "Wondere Woensdagen", categories: ["Families"], musicByCategory: true) == .other)
        #expect(classifier.kind(title: "Het Danspaleis", categories: ["Muziek"], musicByCategory: true) == nil)
        #expect(classifier.kind(title: "Avatar / Stage", categories: ["olive"]) == nil, "a colour is no category of music")
        #expect(NonConcertClassifier(keeping: [.sports]).kind(title: "Gotham FC vs Thorns (NWSL 2026)") == nil)
    }
}

/// Calendars and pages as a whole: one-act calendars, what is skipped by kind on the real
/// feeds, `keep`, and JSON-LD events without performers.
struct TitleBillFeedTests {
    static let year = DateWindow(from: LocalDate(iso: "2026-01-01")!, to: LocalDate(iso: "2026-12-31")!)!

    func realFeed(_ name: String, keeping kept: Set<NonConcertKind> = []) throws -> ListingPage {
        let root = try #require(TestSupport.realWorld("ical"))
        let data = try Data(contentsOf: URL(fileURLWithPath: root + "/" + name))
        return try ICalendarIngester().parse(data, context: PageContext(locator: name, window: Self.year, keptKinds: kept))
    }

    func titled(_ page: ListingPage, _ title: String) throws -> EventListing {
        try #require(page.events.first { $0.title == title }, "no \(title)")
    }

    /// Gig-o-Matic writes a band's gigs under its name: the band plays each, the name is no venue.
    @Test func aBandsGigOMaticCalendarBillsTheBandOnEveryGig() throws {
        let path = TestSupport.fixture("ical/band-gig-o-matic-brass-lanterns.ics")
        let page = try ICalendarIngester().parse(Data(contentsOf: URL(fileURLWithPath: path)), context: PageContext(locator: path))
        #expect(page.events.count == 4)
        #expect(page.events.allSatisfy { $0.lineup.first?.artist.name == "The Brass Lanterns" })
        #expect(page.events.allSatisfy { $0.venue?.name != "The Brass Lanterns" })
        let burren = try titled(page, "Friday at The Burren")
        #expect(burren.lineup.map(\.artist.name) == ["The Brass Lanterns"] && burren.venue?.name == "The Burren")
        #expect(try titled(page, "The Brass Lanterns with Tide Parades").lineup.map(\.artist.name) == ["The Brass Lanterns", "Tide Parades"])
        #expect(try titled(page, "Wedding").lineup.map(\.artist.name) == ["The Brass Lanterns"], "the gig's name is no act")
    }

    @Test(.enabled(if: TestSupport.realWorld("ical") != nil))
    func aTourFeedIsOneActsAndAVenueFeedIsNot() throws {
        let panic = try realFeed("widespread_panic_tour.ics")
        #expect(panic.events.count == 21, "its theatres are venues, not theatre")
        #expect(panic.events.allSatisfy { $0.lineup.map(\.artist.name) == ["Widespread Panic"] })
        let stadium = try realFeed("us_nj_sports_illustrated_stadium_sports_and_concerts.ics")
        #expect(stadium.events.allSatisfy { $0.venue?.name == "Sports Illustrated Stadium" })
        let idol = try realFeed("cn_kr_idolcal_evan_official_schedule_zh.ics")
        #expect(idol.events.map { $0.lineup.first?.artist.name } == Array(repeating: "EVAN", count: idol.events.count))
        #expect(!idol.events.isEmpty)
    }

    @Test(.enabled(if: TestSupport.realWorld("ical") != nil))
    func aStadiumsFixturesAreSkippedAndItsConcertKeepsItsAct() throws {
        let stadium = try realFeed("us_nj_sports_illustrated_stadium_sports_and_concerts.ics")
        #expect(stadium.skipped == [NonConcertKind.sports.skippedKey: 12])
        #expect(stadium.events.count == 2)
        #expect(stadium.events.allSatisfy { $0.title == "WORLD TOUR (IRON MAIDEN)" && $0.lineup.map(\.artist.name) == ["IRON MAIDEN"] })
        let kept = try realFeed("us_nj_sports_illustrated_stadium_sports_and_concerts.ics", keeping: [.sports])
        #expect(kept.events.count == 14 && kept.skipped.isEmpty, "keep = [\"sports\"]")
    }

    @Test(.enabled(if: TestSupport.realWorld("ical") != nil))
    func realFeedsSkipNonConcertsByKindAndBillTheirActs() throws {
        let castle = try realFeed("de_burg_wilhelmstein_wuerselen_castle_events.ics")
        #expect(castle.skipped[NonConcertKind.films.skippedKey] == 10)
        #expect(castle.skipped[NonConcertKind.theatre.skippedKey, default: 0] >= 20)
        #expect(try titled(castle, "TILL BRÖNNER – Mit Dieter Ilg").lineup.map(\.artist.name) == ["TILL BRÖNNER", "Dieter Ilg"])
        #expect(try titled(castle, "MARLEY‘S GHOST – A Tribute to Bob Marley").lineup.map(\.artist.name) == ["MARLEY‘S GHOST"])
        #expect(try titled(castle, "A TRIBUTE TO AMY – DIE Amy Winehouse Show").lineup.isEmpty, "no Amy Winehouse")
        #expect(!castle.events.contains { $0.title.hasPrefix("OPEN AIR KINO") || $0.title.hasPrefix("DAS DA Theater") })

        let tromso = try realFeed("no_tromso_events_aggregator.ics")
        #expect(tromso.skipped[NonConcertKind.films.skippedKey, default: 0] >= 90, "Aurora Kino's films")
        #expect(tromso.skipped[NonConcertKind.readings.skippedKey, default: 0] >= 50, "lectures, seminars, reading circles")
        #expect(tromso.skipped[NonConcertKind.sports.skippedKey] == 6, "TIL's home games")
        #expect(try titled(tromso, "Voulez Vous – A Fabulous Tribute to ABBA").lineup.map(\.artist.name) == ["Voulez Vous"])
        #expect(try titled(tromso, "Creedence StoryNight Revisited med Fortunate Sons").lineup.last?.artist.name == "Fortunate Sons")
        #expect(try titled(tromso, "Tromsø World Festival – Nai Barghouti + Tord Gustavsen + Steinar Raknes").lineup.map(\.artist.name)
            == ["Nai Barghouti", "Tord Gustavsen", "Steinar Raknes"])
        #expect(try titled(tromso, "Leprous").lineup.map(\.artist.name) == ["Leprous"])

        let dutch = try realFeed("nl_de_hallen_amsterdam_agenda.ics")
        #expect(Set(dutch.events.map(\.title)) == ["De Na-zit | vrijmibo met (vinyl) DJs", "Bands & Bites- 2TONES", "Het Danspaleis"],
                "CATEGORIES:Muziek marks the music")

        let laramie = try realFeed("us_laramie_visitlaramie_events.ics")
        #expect(laramie.skipped[NonConcertKind.sports.skippedKey] == 9)
        #expect(try titled(laramie, "George Birge - Laramie").lineup.map(\.artist.name) == ["George Birge"])

        let downbeat = try realFeed("us_la_downbeat_jazz_picks.ics")
        #expect(downbeat.skipped.isEmpty)
        let heads = downbeat.events.map { $0.lineup.first?.artist.name }
        #expect(heads.filter { $0 != nil }.count >= 52, "an act on nearly every pick")
        #expect(try titled(downbeat, "🎯 Brian Blade & The Fellowship Band — Blue Note Hollywood").lineup.first?.artist.name
            == "Brian Blade & The Fellowship Band")
        #expect(try titled(downbeat, "Ed Romero's 85th Birthday Bash — Edwin Mills").lineup.map(\.artist.name) == ["Ed Romero"])

        let idol = try realFeed("cn_kr_idolcal_evan_official_schedule_zh.ics")
        #expect(idol.skipped[NonConcertKind.online.skippedKey, default: 0] >= 15)
        #expect(idol.skipped[NonConcertKind.anniversaries.skippedKey] == 1, "生日")
    }

    @Test func aJSONLDEventWithoutPerformerBillsTheActsItsNameNames() throws {
        let json = """
            [{"@context": "https://schema.org", "@type": "Event", "name": "Early James with Ryan Sobb",
              "startDate": "2027-03-14T20:00", "performer": null, "location": {"@type": "Place", "name": "Hideout"}},
             {"@context": "https://schema.org", "@type": "Event", "name": "Bailen Two Day Pass",
              "startDate": "2027-03-15", "location": {"@type": "Place", "name": "Hideout"}},
             {"@context": "https://schema.org", "@type": "Event", "name": "Chicago Fire FC vs Inter Miami",
              "startDate": "2027-03-16", "location": {"@type": "Place", "name": "Soldier Field"}}]
            """
        let page = try JSONLDIngester().parse(Data(json.utf8), context: PageContext(locator: "hideout.json"))
        #expect(page.events.map { $0.lineup.map(\.artist.name) } == [["Early James", "Ryan Sobb"]])
        #expect(page.skipped == [NonConcertKind.passes.skippedKey: 1, NonConcertKind.sports.skippedKey: 1])
        let kept = try JSONLDIngester().parse(Data(json.utf8), context: PageContext(locator: "hideout.json", keptKinds: [.sports, .passes]))
        #expect(kept.events.count == 3)
    }
}

/// The lineup hit rate on the real feeds of `../shared/realworld/ical`, against
/// `Fixtures/titles/realworld-labels.tsv` (each kept title of the ten feeds added for issue
/// 52 and a tour feed, labelled by hand: the bill, `-` when it names no act, `x` for a
/// non-concert that is still kept, `?` when unknown).
struct RealWorldLineupTests {
    struct Rates: CustomStringConvertible {
        var naming = 0, headliners = 0, none = 0, noAct = 0, nonConcerts = 0, unlabelled = 0
        var description: String {
            "headliner right on \(headliners) of \(naming) titles that name an act; no act on \(noAct) of \(none) that name none; "
                + "\(nonConcerts) non-concerts kept; \(unlabelled) unlabelled"
        }
    }

    @Test(.enabled(if: TestSupport.realWorld("ical") != nil))
    func titlesThatNameAnActGetItsHeadlinerNineTimesInTen() throws {
        let root = try #require(TestSupport.realWorld("ical"))
        let text = try String(contentsOfFile: TestSupport.fixture("titles/realworld-labels.tsv"), encoding: .utf8)
        var labels: [String: [String: String]] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count == 3 else { continue }
            labels[columns[0], default: [:]][columns[1]] = columns[2]
        }
        var rates = Rates()
        for (file, titles) in labels.sorted(by: { $0.key < $1.key }) {
            let data = try Data(contentsOf: URL(fileURLWithPath: root + "/" + file))
            let page = try ICalendarIngester().parse(data, context: PageContext(locator: file, window: TitleBillFeedTests.year))
            var seen: Set<String> = []
            for event in page.events where seen.insert(event.title).inserted {
                guard let label = titles[event.title] else {
                    rates.unlabelled += 1
                    continue
                }
                switch label {
                case "?": continue
                case "x": rates.nonConcerts += 1
                case "-":
                    rates.none += 1
                    if event.lineup.isEmpty { rates.noAct += 1 }
                default:
                    rates.naming += 1
                    if event.lineup.first?.artist.name == label.split(separator: "|").first.map(String.init) { rates.headliners += 1 }
                }
            }
        }
        #expect(rates.naming >= 150, "\(rates)")
        #expect(Double(rates.headliners) >= 0.9 * Double(rates.naming), "\(rates)")
        #expect(rates.unlabelled <= 10, "\(rates)")
        // What is still kept of other kinds: comedians, plays, talks with no telling word.
        #expect(rates.nonConcerts <= 70, "\(rates)")
        print("real-world lineups: \(rates)")
    }
}
