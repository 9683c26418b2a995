import Foundation
import Listings
import Synchronization

/// Ingests files and directories of saved responses, one page per file.
///
/// Pages are read one at a time (never a whole crawl in memory) in a stable order
/// (paths sorted). Each page lands whole or not at all: a page that fails is reported
/// and skipped, and the others still land. Pages commit in groups (``groupPages``,
/// ``groupDuration``); a page that fails is undone alone (see the catalog's
/// `withPageGroup`).
public struct FileIngestion: Sendable {
    public var registry: IngesterRegistry
    /// The `--format` to use for every file; nil to detect each file's format.
    public var format: String?
    /// For similar-artist pages whose file name does not say which artist they are for.
    public var similarToArtist: String?
    /// Places venues and fills time zones; nil leaves pages as the source gave them.
    public var enrichment: GeoEnrichment?
    /// The dates recurring listings are expanded over (see ``PageContext/window``).
    public var window: DateWindow?
    /// Kinds of non-concerts kept (a source's `keep`; see ``PageContext/keptKinds``).
    public var keptKinds: Set<NonConcertKind> = []
    /// What the operator said about where the source's events are (see ``PlaceEvidence``).
    public var sourceHint = PlaceEvidence()

    public init(
        registry: IngesterRegistry = .standard, format: String? = nil, similarToArtist: String? = nil,
        enrichment: GeoEnrichment? = nil, window: DateWindow? = nil
    ) {
        self.registry = registry
        self.format = format
        self.similarToArtist = similarToArtist
        self.enrichment = enrichment
        self.window = window
    }

    /// Ingests every page under `paths` into `sink`.
    ///
    /// Pages are read, parsed and applied one at a time, in path order.
    /// - Parameter progress: called after each page with the page's locator and result.
    public func ingest(
        paths: [String], into sink: any ListingSink,
        progress: (String, Result<PageOutcome, IngestError>) -> Void = { _, _ in }
    ) -> IngestSummary {
        var summary = IngestSummary()
        var files: [String] = []
        for path in paths {
            do {
                files += try Self.listingFiles(at: path, extensions: registry.fileExtensions)
            } catch {
                summary.record(error)
                progress(path, .failure(error))
            }
        }
        var pages = ReadAhead(ingestion: self, files: files)
        applyInGroups(files, from: { pages.next(checkingAgainst: $0) }, into: sink, summary: &summary, progress: progress)
        return summary
    }

    /// Hands out the prepared pages of `files` in path order, parsing the next few on
    /// another core while the catalog applies these: an operator's first bulk load then
    /// spends the time of the slower of the two, not of both.
    ///
    /// Pages are read ahead only while they turn out new. A page already applied is
    /// found by its hash before it is parsed, so an unchanged re-ingest parses nothing,
    /// and a page read ahead is checked again in the group that applies it.
    struct ReadAhead {
        let ingestion: FileIngestion
        var queued: ArraySlice<String>
        /// Pages read ahead, ready to hand out.
        var ready: ArraySlice<PreparedPage> = []
        /// The pages being read ahead after `ready`.
        var reading: Batch?
        /// False once a page read ahead turned out already applied.
        var readingPays = true
        static let batchSize = 16

        init(ingestion: FileIngestion, files: [String]) {
            self.ingestion = ingestion
            self.queued = files[...]
        }

        /// The pages of one read ahead; `done` is left once they are in `pages`.
        final class Batch: Sendable {
            let done = DispatchGroup()
            let pages = Mutex<[PreparedPage]>([])
        }

        mutating func next(checkingAgainst group: any PageGroup) -> PreparedPage? {
            if let prepared = ready.popFirst() {
                guard case .page(let page, let hash, let format) = prepared else { return prepared }
                do {
                    // A page met twice in one run: the group may have applied it since.
                    if try group.hasApplied(pageHash: hash, format: format) {
                        readingPays = false
                        return .alreadyApplied(locator: page.locator)
                    }
                } catch {
                    return .failed(IngestError(locator: page.locator, reason: .catalogFailure(String(describing: error))))
                }
                return prepared
            }
            if let batch = reading {
                batch.done.wait()
                ready = batch.pages.withLock { $0 }[...]
                reading = nil
                if readingPays { readAhead() }
                return next(checkingAgainst: group)
            }
            guard let file = queued.popFirst() else { return nil }
            let prepared = ingestion.prepare(file: file, checkingAgainst: group)
            if case .page = prepared {
                readingPays = true
                readAhead()
            }
            return prepared
        }

        /// Starts parsing the next batch of files on another thread.
        private mutating func readAhead() {
            let files = Array(queued.prefix(Self.batchSize))
            guard !files.isEmpty else { return }
            queued.removeFirst(files.count)
            let batch = Batch()
            let ingestion = ingestion
            DispatchQueue.global().async(group: batch.done) {
                let pages = files.map { ingestion.prepare(file: $0, checkingAgainst: nil) }
                batch.pages.withLock { $0 = pages }
            }
            reading = batch
        }
    }

    /// Applies the pages of `files`, prepared by `next` in the same order inside the group
    /// that applies them, in groups.
    private func applyInGroups(
        _ files: [String], from next: (any PageGroup) -> PreparedPage?, into sink: any ListingSink,
        summary: inout IngestSummary, progress: (String, Result<PageOutcome, IngestError>) -> Void
    ) {
        var remaining = files[...]
        while !remaining.isEmpty {
            // Results are reported once their group has committed: until then a page
            // that applied cleanly has not landed.
            var results: [(file: String, result: Result<PageOutcome, IngestError>)] = []
            do {
                try sink.withPageGroup { group in
                    let opened = ContinuousClock.now
                    while let file = remaining.first {
                        guard let prepared = next(group) else { return }
                        remaining.removeFirst()
                        results.append((file, try apply(prepared, into: group)))
                        if results.count >= Self.groupPages || ContinuousClock.now - opened >= Self.groupDuration { return }
                    }
                }
            } catch {
                let reason = IngestError.Reason.catalogFailure("not committed: \(error)")
                for index in results.indices where (try? results[index].result.get()) != nil {
                    results[index].result = .failure(IngestError(locator: results[index].file, reason: reason))
                }
            }
            for (file, result) in results {
                switch result {
                case .success(let outcome): summary.record(outcome)
                case .failure(let error): summary.record(error)
                }
                progress(file, result)
            }
        }
    }

    /// Pages are committed in groups of at most this many pages or this long a time, so a
    /// run killed midway loses at most one group's work (and nothing that was there before).
    /// The time is what bounds a group: a Bandsintown page holds a few events, and a
    /// group of a few hundred such pages committed (writing the same index pages again)
    /// too often to be cheap.
    public static let groupPages = 4000
    public static let groupDuration = Duration.seconds(1)

    /// Reads, parses and applies one file.
    public func ingestFile(_ file: String, into sink: any ListingSink) -> Result<PageOutcome, IngestError> {
        apply(into: sink, locator: file) { group in prepare(file: file, checkingAgainst: group) }
    }

    /// Parses and applies one page of bytes that came from `locator`.
    public func ingest(data: Data, locator: String, into sink: any ListingSink) -> Result<PageOutcome, IngestError> {
        apply(into: sink, locator: locator) { group in prepare(data: data, locator: locator, checkingAgainst: group) }
    }

    /// A page made ready for the catalog: parsed and enriched, or known to be already
    /// applied, or failed.
    enum PreparedPage: Sendable {
        case page(ListingPage, hash: String, format: String)
        case alreadyApplied(locator: String)
        case failed(IngestError)

        var locator: String {
            switch self {
            case .page(let page, _, _): page.locator
            case .alreadyApplied(let locator): locator
            case .failed(let error): error.locator
            }
        }
    }

    /// - Parameter applied: asked whether the page was applied before it is parsed; nil
    ///   to parse it whatever (the caller asks before applying it).
    func prepare(file: String, checkingAgainst applied: (any PageGroup)?) -> PreparedPage {
        let data: Data
        do {
            // Known to be a file: without the hint, making the URL asks the file system.
            data = try Data(contentsOf: URL(fileURLWithPath: file, isDirectory: false))
        } catch {
            return .failed(IngestError(locator: file, reason: .unreadable(error.localizedDescription)))
        }
        return prepare(data: data, locator: file, checkingAgainst: applied)
    }

    func prepare(data: Data, locator: String, checkingAgainst applied: (any PageGroup)?) -> PreparedPage {
        let ingester: any Ingester
        let sample = ContentSample(data)
        if let unsupported = UnsupportedFormat.of(sample) {
            return .failed(IngestError(locator: locator, reason: .unsupportedFormat(unsupported.name)))
        }
        if let format {
            guard let named = registry.ingester(named: format) else {
                return .failed(IngestError(locator: locator, reason: .unrecognizedFormat))
            }
            ingester = named
        } else {
            guard let detected = registry.detect(sample) else {
                return .failed(IngestError(locator: locator, reason: .unrecognizedFormat))
            }
            ingester = detected
        }
        let context = PageContext(locator: locator, similarToArtist: similarToArtist, window: window, keptKinds: keptKinds, sourceHint: sourceHint)
        let pageHash = Self.pageHash(data, context, readsWindow: ingester.readsWindow)
        do {
            // Asked in the group that applies the page: it sees the pages the group
            // applied before, so a page met twice in a run is parsed once.
            if let applied, try applied.hasApplied(pageHash: pageHash, format: ingester.format) {
                return .alreadyApplied(locator: locator)
            }
            let repair = UTF8Repair.repaired(data)
            var page = try ingester.parse(repair?.data ?? data, context: context)
            if let repair { page.skipped[UTF8Repair.reason, default: 0] += repair.replaced }
            try NameControlCharacters.clean(&page)
            TextLengthCaps.apply(&page)
            page.placeEvidence.adoptHint(context.sourceHint)
            if let enrichment { page = enrichment.enrich(page) }
            page.computeContentHashes()
            return .page(page, hash: pageHash, format: ingester.format)
        } catch let error as IngestError {
            return .failed(error)
        } catch {
            return .failed(IngestError(locator: locator, reason: .catalogFailure(String(describing: error))))
        }
    }

    /// Prepares and applies one page in a group of its own.
    func apply(
        into sink: any ListingSink, locator: String, _ prepare: (any PageGroup) -> PreparedPage
    ) -> Result<PageOutcome, IngestError> {
        do {
            return try sink.withPageGroup { group in try apply(prepare(group), into: group) }
        } catch {
            return .failure(IngestError(locator: locator, reason: .catalogFailure(String(describing: error))))
        }
    }

    /// Applies one prepared page inside a group; throws only when the whole group was undone.
    func apply(_ prepared: PreparedPage, into group: any PageGroup)
        throws(PageGroupRolledBack) -> Result<PageOutcome, IngestError>
    {
        switch prepared {
        case .failed(let error):
            return .failure(error)
        case .alreadyApplied:
            return .success(PageOutcome(skippedAsUnchanged: true))
        case .page(let page, let hash, let format):
            do {
                var outcome = try group.apply(page, pageHash: hash, format: format)
                outcome.recordsSkipped = page.skipped
                outcome.warnings = page.warnings
                return .success(outcome)
            } catch let error as PageGroupRolledBack {
                throw error
            } catch let error as IngestError {
                return .failure(error)
            } catch {
                return .failure(IngestError(locator: page.locator, reason: .catalogFailure(String(describing: error))))
            }
        }
    }

    /// What tells a page already applied from a new one: its bytes, and the artist they
    /// are similar to when they are a similar-artists list (which only the request says).
    static func pageHash(_ data: Data, _ context: PageContext, readsWindow: Bool = false) -> String {
        var hasher = ContentHasher()
        data.withUnsafeBytes { hasher.combine(buffer: $0) }
        hasher.combine(context.similarArtistTarget)
        if readsWindow, let window = context.window { hasher.combine("window \(window.from) \(window.to)") }
        // What a source keeps changes what its pages say.
        if !context.keptKinds.isEmpty { hasher.combine("keep " + context.keptKinds.sorted().map(\.rawValue).joined(separator: ",")) }
        // A page read with another hint may land elsewhere: it is another page.
        if !context.sourceHint.isEmpty { hasher.combine("hint \(context.sourceHint)") }
        return hasher.hexDigest
    }

    /// Like ``ingest(data:locator:into:)``, but always parses, so a crawler learns the
    /// page's paging and listings even when the page itself is unchanged.
    public func ingestPage(data: Data, locator: String, into sink: any ListingSink)
        -> (result: Result<PageOutcome, IngestError>, page: ListingPage?)
    {
        guard let format, let ingester = registry.ingester(named: format) else {
            return (.failure(IngestError(locator: locator, reason: .unrecognizedFormat)), nil)
        }
        let context = PageContext(locator: locator, similarToArtist: similarToArtist, window: window, keptKinds: keptKinds, sourceHint: sourceHint)
        let pageHash = Self.pageHash(data, context, readsWindow: ingester.readsWindow)
        var page: ListingPage
        do {
            let repair = UTF8Repair.repaired(data)
            page = try ingester.parse(repair?.data ?? data, context: context)
            if let repair { page.skipped[UTF8Repair.reason, default: 0] += repair.replaced }
            try NameControlCharacters.clean(&page)
            TextLengthCaps.apply(&page)
            page.placeEvidence.adoptHint(context.sourceHint)
        } catch {
            return (.failure(error), nil)
        }
        let enriched = enrichment.map { $0.enrich(page) } ?? page
        let result = apply(into: sink, locator: locator) { group in
            do {
                return try group.hasApplied(pageHash: pageHash, format: format)
                    ? .alreadyApplied(locator: locator) : .page(enriched, hash: pageHash, format: format)
            } catch {
                return .failed(IngestError(locator: locator, reason: .catalogFailure(String(describing: error))))
            }
        }
        return (result, enriched)
    }

    /// The files to read for one command-line path: the file itself, or every listing
    /// file below a directory, sorted by path, hidden files skipped.
    /// - Parameter extensions: the file name endings read when walking a directory (a
    ///   file named explicitly is always read).
    public static func listingFiles(
        at path: String, extensions: Set<String> = IngesterRegistry.standard.fileExtensions
    ) throws(IngestError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw IngestError(locator: path, reason: .unreadable("no such file or directory"))
        }
        guard isDirectory.boolValue else { return [path] }
        guard let walker = FileManager.default.enumerator(atPath: path) else {
            throw IngestError(locator: path, reason: .unreadable("cannot list the directory"))
        }
        let root = path.hasSuffix("/") ? String(path.dropLast()) : path
        var files: [String] = []
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") {
                walker.skipDescendants()
                continue
            }
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex,
                extensions.contains(name[name.index(after: dot)...].lowercased())
            else { continue }
            // Follows a link: a link to a file is read (the walker never enters a link to a folder).
            let full = root + "/" + relative
            var entryIsDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: full, isDirectory: &entryIsDirectory), !entryIsDirectory.boolValue {
                files.append(full)
            }
        }
        return files.sorted()
    }
}
