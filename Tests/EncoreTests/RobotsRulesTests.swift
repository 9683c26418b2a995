import Foundation
import Ingest
import Testing

/// robots.txt as RFC 9309 reads it, for Encore.
struct RobotsRulesTests {
    func rules(_ text: String) -> RobotsRules { RobotsRules(Data(text.utf8), agent: "Encore") }
    func allows(_ rules: RobotsRules, _ path: String) -> Bool { rules.allows(URL(string: "https://venue.example" + path)!) }

    @Test func theGroupForEncoreWinsOverTheStarGroup() {
        let robots = rules("User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nUser-agent: encore/2.0\nDisallow: /private\n")
        #expect(allows(robots, "/events/1"))
        #expect(!allows(robots, "/private/x"))
        let others = rules("User-agent: *\nDisallow: /tmp/\n\nUser-agent: Googlebot\nDisallow: /\n")
        #expect(allows(others, "/events/1") && !allows(others, "/tmp/a"))
    }

    @Test func theLongestMatchWinsAndAllowWinsATie() {
        let robots = rules("""
            User-agent: *
            Disallow: /events/
            Allow: /events/public
            Disallow: /*.pdf$
            Allow: /page
            Disallow: /page
            """)
        #expect(!allows(robots, "/events/secret"))
        #expect(allows(robots, "/events/public/1"))
        #expect(!allows(robots, "/files/program.pdf") && allows(robots, "/files/program.pdf?x=1"))
        #expect(allows(robots, "/page"), "a tie goes to Allow")
        #expect(allows(robots, "/robots.txt"))
    }

    @Test func garbageAllowsEverythingAndAnEmptyDisallowIsNoRule() {
        #expect(allows(rules("<html><body>Not found</body></html>\n\u{0}\u{1}"), "/events/1"))
        #expect(allows(rules("User-agent: *\nDisallow:\n"), "/anything"))
        #expect(!allows(RobotsRules.disallowAll, "/"))
    }
}

/// What else a robots.txt says: how long to wait between requests, and where the sitemaps are.
struct RobotsDelayAndSitemapTests {
    @Test func crawlDelayOfTheChosenGroupAndEverySitemapLineAreKept() {
        let robots = RobotsRules(Data("""
            Sitemap: https://venue.example/sitemap_index.xml
            User-agent: *
            Crawl-delay: 10
            Disallow: /private/

            User-agent: Encore
            Crawl-delay: 2.5
            Disallow: /members/
            sitemap: https://venue.example/events.xml
            Crawl-delay: soon
            """.utf8), agent: "Encore")
        #expect(robots.crawlDelay == 2.5, "Encore's group, and a delay that is no number is passed over")
        #expect(robots.sitemaps == ["https://venue.example/sitemap_index.xml", "https://venue.example/events.xml"])
        #expect(RobotsRules(Data("User-agent: *\nDisallow:\n".utf8), agent: "Encore").crawlDelay == nil)
    }
}
