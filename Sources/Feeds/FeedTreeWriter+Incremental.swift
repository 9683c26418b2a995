import Foundation
import Listings

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Incremental builds: two trees and a state beside the output directory.
///
/// - `<name>/`: the live build, what readers see.
/// - `.<name>.spare/`: the build before it. A full build keeps the tree it replaced here
///   instead of deleting it. An incremental build brings the spare up to date (the files
///   the last build changed are linked from the live tree, then this build's changes are
///   written) and exchanges it with the live tree in one `renameat2(RENAME_EXCHANGE)`.
///   So readers never see a mix of two builds, and no build relinks the files that did
///   not change. Files are replaced by unlinking and creating, never written in place:
///   the two trees share the inodes of unchanged files.
/// - `.<name>.state/`: ``FeedBuildState`` (`state`), the event list entries (`entries`), and
///   `spare-dirty` while a build is changing the spare tree (an interrupted build leaves
///   it, and the next build makes a new spare from the live tree).
extension FeedTreeWriter {
    var spareDirectory: URL { sibling("spare") }
    var stateDirectory: URL { sibling("state") }
    var statePath: String { stateDirectory.appendingPathComponent("state").path }
    var entriesPath: String { stateDirectory.appendingPathComponent("entries").path }
    private var dirtyMarker: String { stateDirectory.appendingPathComponent("spare-dirty").path }

    private func sibling(_ role: String) -> URL {
        outputDirectory.deletingLastPathComponent().appendingPathComponent(".\(outputDirectory.lastPathComponent).\(role)")
    }

    /// The last build's state, when there is one this build can trust.
    func loadState() -> FeedBuildState? {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: statePath), options: .alwaysMapped),
            let state = data.withUnsafeBytes({ FeedBuildState(decoding: $0) }),
            state.liveInode != 0, Self.inode(of: outputDirectory.path) == state.liveInode
        else { return nil }
        return state
    }

    /// The day the last build's state was built on, read from the file's first bytes.
    func stateDay() -> String? {
        guard let file = FileHandle(forReadingAtPath: statePath) else { return nil }
        defer { try? file.close() }
        return (try? file.read(upToCount: 4096))?.withUnsafeBytes(FeedBuildState.day(decoding:))
    }

    /// Saves the state of the build just swapped in (written aside, then renamed).
    /// - Parameter allConcertPages: every event of `eventPages` has its three concert page
    ///   files (a full build), which `state.files` then leaves out.
    func saveState(
        _ state: FeedBuildState, spooledLists: StateSpool? = nil, spooledFiles: StateSpool? = nil, allConcertPages: Bool = false
    ) throws {
        try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        let temporary = statePath + ".new"
        try state.write(
            to: temporary, spooledLists: spooledLists, spooledFiles: spooledFiles, allConcertPages: allConcertPages)
        guard rename(temporary, statePath) == 0 else { throw FeedWriteError(path: statePath, code: errno) }
        unlink(dirtyMarker)
    }

    /// Takes `.<name>.state/lock` for one build. Two builds into one directory would
    /// exchange and rewrite each other's trees (a nightly job running into a build by
    /// hand, say), so the second one stops with ``FeedBuildInProgress`` instead. An
    /// exclusive `flock`: the kernel releases it when the process ends, however it ends.
    func lockForBuild() throws -> ExclusiveFileLock {
        try prepareStateDirectory()
        let path = stateDirectory.appendingPathComponent("lock").path
        guard let lock = try ExclusiveFileLock(path: path) else {
            throw FeedBuildInProgress(directory: outputDirectory.path, lock: path)
        }
        return lock
    }

    /// Forgets the state: the next build is a full one.
    func discardState() {
        unlink(statePath)
    }

    func prepareStateDirectory() throws {
        try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
    }

    static func inode(of path: String) -> UInt64 {
        var status = stat()
        guard lstat(path, &status) == 0 else { return 0 }
        return UInt64(status.st_ino)
    }

    /// Starts an incremental build in the spare tree, brought to the live tree's content.
    func beginIncremental(state: FeedBuildState) throws -> IncrementalStaging {
        let fileManager = FileManager.default
        let spare = spareDirectory.path
        let spareUsable = state.spareInode != 0 && Self.inode(of: spare) == state.spareInode
            && !fileManager.fileExists(atPath: dirtyMarker)
        try prepareStateDirectory()
        guard fileManager.createFile(atPath: dirtyMarker, contents: Data()) else {
            throw FeedWriteError(path: dirtyMarker, code: errno)
        }
        var staging = IncrementalStaging(writer: self, previous: state.files)
        if spareUsable {
            // The spare is the build before the live one: it lacks the last build's changes.
            for path in state.changedInLastBuild { try staging.mirrorLive(path) }
        } else {
            try? FileTreeWalk.remove(spare)
            try Self.linkCopy(outputDirectory.path, to: spare)
        }
        return staging
    }

    /// A copy of a tree whose files are hard links to the original's.
    static func linkCopy(_ source: String, to target: String) throws {
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        var folders: Set<String> = [""]
        var failure: (any Error)?
        FileTreeWalk.forEachFile(under: source) { relative in
            do {
                let folder = relative.lastIndex(of: "/").map { String(relative[..<$0]) } ?? ""
                if folders.insert(folder).inserted {
                    try FileManager.default.createDirectory(atPath: target + "/" + folder, withIntermediateDirectories: true)
                }
                guard link(source + "/" + relative, target + "/" + relative) == 0 else {
                    throw FeedWriteError(path: target + "/" + relative, code: errno)
                }
                return true
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
    }

    /// An incremental build being written into the spare tree.
    struct IncrementalStaging: FeedSink, Sendable {
        let writer: FeedTreeWriter
        /// The live build's files and hashes.
        let previous: FeedFileHashes
        /// This build's files: the live build's, changed as files are added or removed.
        private(set) var files: FeedFileHashes
        private var added: Set<String> = []
        private var written: [String: Int] = [:]
        private var removed: Set<String> = []
        private var directories: Set<String> = [""]
        private let spare: String
        private let live: String

        init(writer: FeedTreeWriter, previous: FeedFileHashes) {
            self.writer = writer
            spare = writer.spareDirectory.path
            live = writer.outputDirectory.path
            self.previous = previous
            self.files = previous
        }

        var count: Int { added.count }

        mutating func add(_ path: String, _ data: Data) throws {
            try add(contentsOf: [(path, data)])
        }

        mutating func add(contentsOf batch: [(path: String, data: Data)]) throws {
            var last: [String: Int] = [:]
            for (index, file) in batch.enumerated() {
                try FeedTree.validate(file.path)
                last[file.path] = index
            }
            let indices = last.values.sorted()
            let hashes = try FeedJSON.mapOnEveryCore(indices) { index in FeedFileHash.of(batch[index].data) }
            var changed: [Int] = []
            var unhashed: [Int] = []
            for (index, hash) in zip(indices, hashes) {
                let path = batch[index].path
                added.insert(path)
                removed.remove(path)
                files.insert(path, hash: hash)
                if written[path] != nil || !previous.contains(path) {
                    changed.append(index)
                } else if let old = previous.hash(of: path) {
                    if old != hash { changed.append(index) }
                } else {
                    unhashed.append(index)
                }
            }
            // Concert pages have no hash kept: they are compared with the live files.
            let live = self.live
            let same = try FeedJSON.mapOnEveryCore(unhashed) { index in
                FeedTreeWriter.Staging.contents(of: live + "/" + batch[index].path, equal: batch[index].data)
            }
            changed += zip(unhashed, same).filter { !$1 }.map(\.0)
            changed.sort()
            for index in changed { try makeParentDirectory(of: batch[index].path) }
            let spare = self.spare
            let sizes = try FeedJSON.mapOnEveryCore(changed) { index in
                let target = spare + "/" + batch[index].path
                unlink(target)
                try FeedTreeWriter.Staging.store(batch[index].data, at: target)
                return batch[index].data.count
            }
            for (index, size) in zip(changed, sizes) { written[batch[index].path] = size }
        }

        /// Removes a file of the live build, unless this build wrote it.
        mutating func remove(_ path: String) {
            guard !added.contains(path), files.remove(path) else { return }
            removed.insert(path)
            unlink(spare + "/" + path)
            // Folders left empty go too (a band page's further pages, say).
            var folder = (path as NSString).deletingLastPathComponent
            while !folder.isEmpty, rmdir(spare + "/" + folder) == 0 {
                directories.remove(folder)
                folder = (folder as NSString).deletingLastPathComponent
            }
        }

        /// Makes the spare tree's file at `path` the live tree's (or absent, like it).
        mutating func mirrorLive(_ path: String) throws {
            let target = spare + "/" + path
            unlink(target)
            let source = live + "/" + path
            guard access(source, F_OK) == 0 else { return }
            try makeParentDirectory(of: path)
            guard link(source, target) == 0 else { throw FeedWriteError(path: target, code: errno) }
        }

        private mutating func makeParentDirectory(of path: String) throws {
            guard let slash = path.lastIndex(of: "/") else { return }
            let folder = String(path[..<slash])
            if directories.insert(folder).inserted {
                try FileManager.default.createDirectory(atPath: spare + "/" + folder, withIntermediateDirectories: true)
            }
        }

        /// Exchanges the spare tree with the live one; returns what changed.
        func finish() throws -> (report: FeedBuildReport, changed: [String]) {
            let changed = (Array(written.keys) + Array(removed)).sorted()
            try writer.recordForPublishing(changed)
            guard FeedTreeWriter.exchange(spare, live) else { throw FeedWriteError(path: live, code: errno) }
            var report = FeedBuildReport()
            report.written = written.count
            report.bytesWritten = written.values.reduce(0, +)
            report.removed = removed.count
            report.unchanged = files.count - written.count
            return (report, changed)
        }
    }
}

/// Another build is writing the same output directory.
public struct FeedBuildInProgress: Error, CustomStringConvertible {
    public let directory: String
    public let lock: String
    public var description: String {
        "another build is writing \(directory) (it holds \(lock)); try again when it ends"
    }
}
