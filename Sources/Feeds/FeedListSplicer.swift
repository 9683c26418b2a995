import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lists of the last build whose events all kept their places, brought up to date by
/// swapping bytes instead of reading them again from the catalog.
///
/// A cancelled show stays where it was in every list (its list key, ``RenderedEvents/listKey(of:)``,
/// did not change), and feed JSON is compact, so its entry is the same bytes wherever it
/// sits. The new page of such a list is the last build's file with each changed entry's
/// old bytes (still in the entry store, at the last build's location) replaced by the new
/// ones; a metro area's map the same with pins; the HTML pages and Atom feed the same
/// with their entries (an Atom entry only where the feed shows it). A list whose owner
/// changed, or that an event joined or left, is rendered whole instead.
///
/// Reads the live tree and the sealed store only, so any thread may splice.
struct FeedListSplicer: @unchecked Sendable {
    let previous: FeedBuildState
    let store: RenderedEvents
    let liveDirectory: String

    /// The files of `owner`'s list with the entries (and pins) of `changed` swapped:
    /// only files with a swapped entry; nil when a file is not as the last build left it
    /// (changed by hand) or an entry is missing, and the list must be rendered instead.
    func splice(_ owner: FeedListOwner, changed: Set<Int64>) -> [(path: String, data: Data)]? {
        guard let record = previous.lists[owner] else { return nil }
        let slug = previous.slugs[owner.id]
        let paths = FeedBuilder.pagePaths(of: owner, pages: record.pages, slug: slug)
        guard !paths.isEmpty else { return nil }
        let htmlPaths = paths.map(SiteHTML.htmlPath)
        let mapPath: String? = if case .metroArea(let id) = owner { "metros/\(id).geojson" } else { nil }
        let atomPath = FeedBuilder.atomPath(of: owner, slug: slug)
        var swaps: [String: [(old: [UInt8], new: [UInt8])]] = [:]
        var atomSwaps: [(old: [UInt8], new: [UInt8])] = []
        for (index, id) in record.events.enumerated() where changed.contains(id) {
            guard let oldLocation = previous.entries[id], let old = store.record(at: oldLocation), let new = store.record(id)
            else { return nil }
            let (oldEntry, newEntry, oldPin, newPin) = (Array(old.entry), Array(new.entry), Array(old.pin), Array(new.pin))
            let (oldHTML, newHTML, oldAtom, newAtom) = (Array(old.html), Array(new.html), Array(old.atom), Array(new.atom))
            // Band pages show recent past shows on their first page, after the upcoming ones.
            let page = index < record.upcoming ? index / FeedBuilder.pageSize : 0
            guard page < paths.count else { return nil }
            if oldEntry != newEntry { swaps[paths[page], default: []].append((oldEntry, newEntry)) }
            if oldHTML != newHTML { swaps[htmlPaths[page], default: []].append((oldHTML, newHTML)) }
            if let mapPath, oldPin != newPin { swaps[mapPath, default: []].append((oldPin, newPin)) }
            if index < record.upcoming, oldAtom != newAtom { atomSwaps.append((oldAtom, newAtom)) }
        }
        var files: [(path: String, data: Data)] = []
        func read(_ path: String) -> [UInt8]? {
            // Read, not mapped: mapping and unmapping thousands of files cost more than the copy.
            guard let old = FeedTreeWriter.readFile(liveDirectory + "/" + path),
                old.withUnsafeBytes({ FeedFileHash.of($0) }) == previous.files.hash(of: path)
            else { return nil }
            return old
        }
        for (path, pairs) in swaps.sorted(by: { $0.key < $1.key }) {
            guard let old = read(path), let new = old.withUnsafeBytes({ Self.swapping(pairs, in: $0) }) else { return nil }
            files.append((path, new))
        }
        if let atomPath, !atomSwaps.isEmpty {
            // A feed shows only its newest entries: the others have nothing to swap.
            guard let old = read(atomPath) else { return nil }
            let new = old.withUnsafeBytes { old in
                let shown = atomSwaps.filter { swap in swap.old.withUnsafeBytes { Self.firstOffset(of: $0, in: old) } != nil }
                return shown.isEmpty ? nil : Self.swapping(shown, in: old)
            }
            if let new { files.append((atomPath, new)) }
        }
        return files
    }

    /// `bytes` with each pair's old bytes replaced by its new ones; nil unless each old
    /// value occurs in `bytes`, without overlapping another.
    static func swapping(_ pairs: [(old: [UInt8], new: [UInt8])], in bytes: UnsafeRawBufferPointer) -> Data? {
        var found: [(offset: Int, pair: Int)] = []
        for (index, pair) in pairs.enumerated() {
            guard pair.old.count > 0 else { return nil }
            let offset = pair.old.withUnsafeBytes { firstOffset(of: $0, in: bytes) }
            guard let offset else { return nil }
            found.append((offset, index))
        }
        found.sort { $0.offset < $1.offset }
        var data = Data(capacity: bytes.count + pairs.reduce(0) { $0 + $1.new.count - $1.old.count })
        var position = 0
        for (offset, index) in found {
            guard offset >= position else { return nil }
            data.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[position..<offset]))
            data.append(contentsOf: pairs[index].new)
            position = offset + pairs[index].old.count
        }
        data.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[position...]))
        return data
    }

    /// Where `needle` first occurs in `haystack` (memchr for its first byte, then memcmp;
    /// Glibc's `memmem` is not visible to Swift).
    static func firstOffset(of needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer) -> Int? {
        guard let needleStart = needle.baseAddress, let base = haystack.baseAddress, needle.count > 0 else { return nil }
        let first = Int32(needle[0])
        var start = 0
        while start + needle.count <= haystack.count {
            guard let hit = memchr(base + start, first, haystack.count - needle.count - start + 1) else { return nil }
            let offset = UnsafeRawPointer(hit) - base
            if memcmp(hit, needleStart, needle.count) == 0 { return offset }
            start = offset + 1
        }
        return nil
    }
}
