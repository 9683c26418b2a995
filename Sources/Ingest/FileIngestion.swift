import Foundation
import Listings

/// Ingests files and directories of saved responses, one page per file.
///
/// Pages are read one at a time (never a whole crawl in memory) in a stable order
/// (paths sorted), each applied in its own transaction. A page that fails is reported
/// and skipped; the others still land.
public struct FileIngestion: Sendable {
    public var registry: IngesterRegistry
    /// The `--format` to use for every file; nil to detect each file's format.
    public var format: String?
    /// For similar-artist pages whose file name does not say which artist they are for.
    public var similarToArtist: String?
    /// Places venues and fills time zones; nil leaves pages as the source gave them.
    public var enrichment: GeoEnrichment?

    /// File name endings read when walking a directory; a file named explicitly is
    /// always read.
    public static let listingExtensions: Set<String> = ["json", "jsonld", "xml", "html", "htm"]

    public init(
        registry: IngesterRegistry = .standard, format: String? = nil, similarToArtist: String? = nil,
        enrichment: GeoEnrichment? = nil
    ) {
        self.registry = registry
        self.format = format
        self.similarToArtist = similarToArtist
        self.enrichment = enrichment
    }

    /// Ingests every page under `paths` into `sink`.
    /// - Parameter progress: called after each page with the page's locator and result.
    public func ingest(
        paths: [String], into sink: any ListingSink,
        progress: (String, Result<PageOutcome, IngestError>) -> Void = { _, _ in }
    ) -> IngestSummary {
        var summary = IngestSummary()
        for path in paths {
            let files: [String]
            do {
                files = try Self.listingFiles(at: path)
            } catch {
                summary.record(error)
                progress(path, .failure(error))
                continue
            }
            for file in files {
                let result = ingestFile(file, into: sink)
                switch result {
                case .success(let outcome): summary.record(outcome)
                case .failure(let error): summary.record(error)
                }
                progress(file, result)
            }
        }
        return summary
    }

    /// Reads, parses and applies one file.
    public func ingestFile(_ file: String, into sink: any ListingSink) -> Result<PageOutcome, IngestError> {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            return .failure(IngestError(locator: file, reason: .unreadable(error.localizedDescription)))
        }
        return ingest(data: data, locator: file, into: sink)
    }

    /// Parses and applies one page of bytes that came from `locator`.
    public func ingest(data: Data, locator: String, into sink: any ListingSink) -> Result<PageOutcome, IngestError> {
        let ingester: any Ingester
        if let format {
            guard let named = registry.ingester(named: format) else {
                return .failure(IngestError(locator: locator, reason: .unrecognizedFormat))
            }
            ingester = named
        } else {
            guard let detected = registry.detect(ContentSample(data)) else {
                return .failure(IngestError(locator: locator, reason: .unrecognizedFormat))
            }
            ingester = detected
        }
        var hasher = ContentHasher()
        data.withUnsafeBytes { hasher.combine(buffer: $0) }
        hasher.combine(similarToArtist)
        let pageHash = hasher.hexDigest
        do {
            if try sink.hasApplied(pageHash: pageHash, format: ingester.format) {
                return .success(PageOutcome(skippedAsUnchanged: true))
            }
            let context = PageContext(locator: locator, similarToArtist: similarToArtist)
            var page = try ingester.parse(data, context: context)
            if let enrichment { page = enrichment.enrich(page) }
            var outcome = try sink.apply(page, pageHash: pageHash, format: ingester.format)
            outcome.recordsSkipped = page.skipped
            return .success(outcome)
        } catch let error as IngestError {
            return .failure(error)
        } catch {
            return .failure(IngestError(locator: locator, reason: .catalogFailure(String(describing: error))))
        }
    }

    /// Like ``ingest(data:locator:into:)``, but always parses, so a crawler learns the
    /// page's paging and listings even when the page itself is unchanged.
    public func ingestPage(data: Data, locator: String, into sink: any ListingSink)
        -> (result: Result<PageOutcome, IngestError>, page: ListingPage?)
    {
        guard let format, let ingester = registry.ingester(named: format) else {
            return (.failure(IngestError(locator: locator, reason: .unrecognizedFormat)), nil)
        }
        var hasher = ContentHasher()
        data.withUnsafeBytes { hasher.combine(buffer: $0) }
        let pageHash = hasher.hexDigest
        do {
            var page = try ingester.parse(data, context: PageContext(locator: locator, similarToArtist: similarToArtist))
            if let enrichment { page = enrichment.enrich(page) }
            if try sink.hasApplied(pageHash: pageHash, format: format) {
                return (.success(PageOutcome(skippedAsUnchanged: true)), page)
            }
            var outcome = try sink.apply(page, pageHash: pageHash, format: format)
            outcome.recordsSkipped = page.skipped
            return (.success(outcome), page)
        } catch let error as IngestError {
            return (.failure(error), nil)
        } catch {
            return (.failure(IngestError(locator: locator, reason: .catalogFailure(String(describing: error)))), nil)
        }
    }

    /// The files to read for one command-line path: the file itself, or every listing
    /// file below a directory, sorted by path, hidden files skipped.
    public static func listingFiles(at path: String) throws(IngestError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw IngestError(locator: path, reason: .unreadable("no such file or directory"))
        }
        guard isDirectory.boolValue else { return [path] }
        guard let enumerator = FileManager.default.enumerator(atPath: path) else {
            throw IngestError(locator: path, reason: .unreadable("cannot list the directory"))
        }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") {
                enumerator.skipDescendants()
                continue
            }
            let ext = (name as NSString).pathExtension.lowercased()
            guard listingExtensions.contains(ext) else { continue }
            let full = (path as NSString).appendingPathComponent(relative)
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDir), !isDir.boolValue {
                files.append(full)
            }
        }
        return files.sorted()
    }
}
