import Foundation
import Testing

/// `encore ingest --country/--place/--time-zone`: the operator's word on where saved pages are.
struct IngestPlaceHintCLITests {
    @Test func aCountryGivenToIngestPlacesAnAmbiguousTown() throws {
        let file = TestSupport.fixture("places/town-arts-centre.ics")
        let plain = try CLIScratch()
        #expect(try plain.encore(["ingest", file]).status == 0)
        #expect(try plain.encore(["explain", "1"]).stdout.contains("Place: city Windsor, CA from the address"))

        let hinted = try CLIScratch()
        let run = try hinted.encore(["ingest", "--country", "United Kingdom", file])
        #expect(run.status == 0, "\(run.stderr)")
        let explained = try hinted.encore(["explain", "1"]).stdout
        #expect(explained.contains("Place: city Windsor, GB from the address (the city's centre); zone Europe/London, the venue's"), "\(explained)")
    }

    @Test func anUnknownCountryOrZoneIsRefusedWithHowToFixIt() throws {
        let scratch = try CLIScratch()
        let file = TestSupport.fixture("places/town-arts-centre.ics")
        let country = try scratch.encore(["ingest", "--country", "Atlantis", file])
        #expect(country.status != 0 && country.stderr.contains("like GB"))
        let zone = try scratch.encore(["ingest", "--time-zone", "CEST", file])
        #expect(zone.status != 0 && zone.stderr.contains("like Europe/London"))
    }
}
