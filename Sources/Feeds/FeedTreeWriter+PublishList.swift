import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What changed for a publisher: `.<name>.state/publish-pending`, the paths each build
/// wrote or removed, one a line, appended until a publisher takes the list
/// (`scripts/publish-s3.sh`), so it puts and deletes exactly those without listing a
/// bucket. A path in the list that the tree no longer has is a deletion. A build that
/// cannot list its changes (the first, into an empty directory) writes `*`: publish
/// everything.
///
/// A build appends before it swaps its tree in: killed between the two, the list names
/// files the live tree still has in their old bytes, which a publisher uploads again
/// (harmless), and the next build lists them again. Appended after the swap, a kill
/// would lose changes.
extension FeedTreeWriter {
    public var publishListPath: String { stateDirectory.appendingPathComponent("publish-pending").path }

    /// Appends a build's changes; nil: it does not know them (publish everything).
    func recordForPublishing(_ changed: [String]?) throws {
        // Builds keep a state directory (`write(to:)`); a bare tree written without one
        // (tests, tools) has no publisher to tell.
        if let changed, changed.isEmpty { return }
        guard FileManager.default.fileExists(atPath: stateDirectory.path) else { return }
        let path = publishListPath
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FeedWriteError(path: path, code: errno) }
        defer { close(descriptor) }
        var text = changed.map { $0.joined(separator: "\n") } ?? "*"
        text += "\n"
        try text.utf8CString.withUnsafeBytes { bytes in
            try writeAll(UnsafeRawBufferPointer(rebasing: bytes.dropLast()), to: descriptor, path: path)
        }
        guard fsync(descriptor) == 0 else { throw FeedWriteError(path: path, code: errno) }
    }
}
