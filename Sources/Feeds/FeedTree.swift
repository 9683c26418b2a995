import Foundation
import Listings

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a build's files go, one at a time: a ``FeedTree`` in memory (tests), or a
/// ``FeedTreeWriter/Staging`` directory that writes each file as it is rendered, so a
/// build never holds all its files in memory.
public protocol FeedSink: SendableMetatype {
    /// Files added so far.
    var count: Int { get }
    /// Adds a file; a path added twice keeps the last bytes.
    /// - Throws: ``UnsafeFeedPath`` for a path that could leave the output directory.
    mutating func add(_ path: String, _ data: Data) throws
    /// Adds files in order, as ``add(_:_:)`` would one by one (a sink may write them
    /// on several cores).
    mutating func add(contentsOf files: [(path: String, data: Data)]) throws
}

extension FeedSink {
    public mutating func add(contentsOf files: [(path: String, data: Data)]) throws {
        for file in files { try add(file.path, file.data) }
    }
}

/// The files of one build: relative path → bytes, paths checked to stay inside the tree.
public struct FeedTree: Sendable, FeedSink {
    public private(set) var files: [String: Data] = [:]

    public init() {}

    /// Files in the tree.
    public var count: Int { files.count }

    /// Adds a file.
    /// - Throws: ``UnsafeFeedPath`` for absolute paths, `..`, empty components, backslashes
    ///   or NUL: no name from a listing can write outside the output directory.
    public mutating func add(_ path: String, _ data: Data) throws(UnsafeFeedPath) {
        try Self.validate(path)
        files[path] = data
    }

    static func validate(_ path: String) throws(UnsafeFeedPath) {
        // A byte at a time: every file of a build is checked.
        var component = 0  // bytes of the component so far
        var dots = 0  // of which dots
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "/"):
                guard component > 0, !(1...2).contains(dots) || dots != component else { throw UnsafeFeedPath(path: path) }
                (component, dots) = (0, 0)
            case UInt8(ascii: "\\"), 0:
                throw UnsafeFeedPath(path: path)
            default:
                component += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        guard component > 0, !(1...2).contains(dots) || dots != component else { throw UnsafeFeedPath(path: path) }
    }
}

public struct FeedWriteError: Error, CustomStringConvertible {
    public let path: String
    public let code: Int32
    public var description: String { "cannot write \(path): \(String(cString: strerror(code)))" }
}

public struct UnsafeFeedPath: Error, Equatable, CustomStringConvertible {
    public let path: String
    public var description: String { "refusing to write \"\(path)\": feed paths must stay inside the output directory" }
}

/// What a build did.
public struct FeedBuildReport: Sendable, Equatable {
    public var written = 0
    public var unchanged = 0
    public var removed = 0
    public var bytesWritten = 0

    public init(written: Int = 0, unchanged: Int = 0, removed: Int = 0, bytesWritten: Int = 0) {
        self.written = written
        self.unchanged = unchanged
        self.removed = removed
        self.bytesWritten = bytesWritten
    }
}

/// Writes a feed tree so that readers never see half a build.
///
/// The new build is assembled in a sibling directory (`.<name>.building`): unchanged
/// files are hard-linked from the current build, changed ones written. Then the two
/// directories are exchanged in one `renameat2(RENAME_EXCHANGE)` (Linux; `renamex_np`
/// with `RENAME_SWAP` on macOS), so the output path always names a complete build, and
/// the old one is deleted. Where no exchange primitive exists, two renames are used (the
/// path is briefly absent, but never half-written). An interrupted build leaves only the
/// sibling directory behind, which the next build clears.
public struct FeedTreeWriter: Sendable {
    public let outputDirectory: URL
    /// Top-level entries of the output directory that builds carry over untouched
    /// (`schema` in the repository's `feeds/`, where the JSON Schemas are committed).
    public let preserved: Set<String>

    public init(outputDirectory: URL, preserving preserved: Set<String> = []) {
        self.outputDirectory = outputDirectory.standardizedFileURL
        self.preserved = preserved
    }

    /// Writes a whole tree (sorted by path) through ``begin()``.
    public func write(_ tree: FeedTree) throws -> FeedBuildReport {
        var staging = try begin()
        for path in tree.files.keys.sorted() {
            try staging.add(path, tree.files[path]!)
        }
        return try staging.finish()
    }

    /// Starts a build in the sibling directory; add files, then ``Staging/finish()``.
    public func begin() throws -> Staging { try begin(spoolingIn: nil) }

    /// - Parameter spoolDirectory: where the paths and hashes of files other than concert
    ///   pages are spooled for the next state; nil when no state is kept.
    func begin(spoolingIn spoolDirectory: String?) throws -> Staging {
        let fileManager = FileManager.default
        let parent = outputDirectory.deletingLastPathComponent()
        let staging = parent.appendingPathComponent(".\(outputDirectory.lastPathComponent).building")
        try? FileTreeWalk.remove(staging.path)
        try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
        for entry in preserved.sorted() {
            let old = outputDirectory.appendingPathComponent(entry)
            guard fileManager.fileExists(atPath: old.path) else { continue }
            try fileManager.copyItem(at: old, to: staging.appendingPathComponent(entry))
        }
        return try Staging(
            writer: self, directory: staging, previous: PreviousFiles(tree: outputDirectory, preserving: preserved),
            spool: try spoolDirectory.map { try StateSpool(directory: $0) })
    }

    /// The live tree, asked file by file: a build holds nothing for each file the last
    /// one wrote, so a nightly full build over a million-event tree needs no more memory
    /// than one into an empty directory.
    struct PreviousFiles: Sendable {
        /// The live tree, open; nil when there is none.
        let directory: OpenDirectory?
        let preserved: Set<String>
        /// True when the live tree has no files of its own (none, or only carried-over entries).
        let isEmpty: Bool

        init(tree: URL, preserving preserved: Set<String>) {
            directory = try? OpenDirectory(tree.path)
            self.preserved = preserved
            var empty = true
            if directory != nil { FileTreeWalk.forEachFile(under: tree.path, skipping: preserved) { _ in empty = false; return false } }
            isEmpty = empty
        }

        /// True when the live tree has a file at `path` holding exactly `data`.
        func holds(_ path: String, _ data: Data) -> Bool {
            directory.map { Staging.contents(of: path, in: $0, equal: data) } ?? false
        }

        /// Calls `body` with the relative path of each regular file of the live tree.
        func forEachPath(_ body: (String) -> Void) {
            guard let directory else { return }
            FileTreeWalk.forEachFile(under: directory.path, skipping: preserved) { body($0); return true }
        }
    }

    /// A build being written: each file goes to disk as it is added, hard-linked from
    /// the current build when its bytes have not changed. A build holds nothing for each
    /// file it adds: the staging directory itself says what was added, the builder knows
    /// its concert pages, and the other files' hashes go to the state's spool.
    public struct Staging: FeedSink {
        let writer: FeedTreeWriter
        let directory: URL
        /// The staging directory, open: files are created relative to it, so the kernel
        /// looks up only the path inside the tree for each of them.
        private let root: OpenDirectory
        let previous: PreviousFiles
        /// Paths and hashes of the other files added, for the next state.
        let spool: StateSpool?
        public private(set) var count = 0
        /// What was written and linked so far (`removed` is counted by ``finish()``).
        private var report = FeedBuildReport()
        /// Paths written, when there is a previous build (the spare tree lacks them): without
        /// one, nothing needs the list, which would grow with the catalog.
        private var written: [String] = []
        private var directories: Set<String> = [""]

        init(writer: FeedTreeWriter, directory: URL, previous: PreviousFiles, spool: StateSpool?) throws {
            self.writer = writer
            self.directory = directory
            root = try OpenDirectory(directory.path)
            self.previous = previous
            self.spool = spool
        }

        public mutating func add(_ path: String, _ data: Data) throws {
            try add(contentsOf: [(path, data)])
        }

        /// Writes the files on every core: on this kind of disk a file costs more in the
        /// kernel (allocating and copying its pages) than rendering it.
        public mutating func add(contentsOf files: [(path: String, data: Data)]) throws {
            // A path given twice keeps its last bytes.
            var last: [String: Int] = [:]
            for (index, file) in files.enumerated() {
                try FeedTree.validate(file.path)
                try makeParentDirectory(of: file.path)
                last[file.path] = index
            }
            let pending = last.values.sorted()
            let (root, writer, previous) = (root, writer, previous)
            let outcomes = try FeedJSON.mapOnEveryCore(pending) { index in
                try Self.write(files[index].path, files[index].data, in: root, writer: writer, previous: previous)
            }
            for (index, outcome) in zip(pending, outcomes) {
                let path = files[index].path
                if let replaced = outcome.replaced {
                    // Counted once, as what its last bytes did: what the earlier ones did is undone.
                    if replaced.linked {
                        report.unchanged -= 1
                    } else {
                        report.written -= 1
                        report.bytesWritten -= replaced.size
                    }
                    count -= 1
                }
                if let bytes = outcome.bytes {
                    report.written += 1
                    report.bytesWritten += bytes
                    if !previous.isEmpty { written.append(path) }
                } else {
                    report.unchanged += 1
                }
                count += 1
                if FeedFileHashes.eventFile(path) == nil { try spool?.append(path, hash: outcome.hash) }
            }
        }

        private mutating func makeParentDirectory(of path: String) throws {
            guard let slash = path.lastIndex(of: "/") else { return }
            let folder = String(path[..<slash])
            if directories.insert(folder).inserted {
                try FileManager.default.createDirectory(
                    atPath: root.path + "/" + folder, withIntermediateDirectories: true)
            }
        }

        /// What writing a file did: the bytes written (nil: linked from the current
        /// build), their hash, and what an earlier file at the path had done.
        private struct Outcome {
            var bytes: Int?
            var hash: UInt64
            var replaced: (linked: Bool, size: Int)?
        }

        /// Writes one file, or links it from the current build when unchanged. Files are
        /// created exclusively: one already there was added earlier in this build, and is
        /// replaced (never written through, since it may be a link to the live tree's file).
        /// Touches no state, so it runs on any thread.
        private static func write(
            _ path: String, _ data: Data, in root: OpenDirectory, writer: FeedTreeWriter, previous: PreviousFiles
        ) throws -> Outcome {
            let hash = FeedFileHash.of(data)
            var replaced: (linked: Bool, size: Int)?
            func replaceEarlier() -> Bool {
                guard replaced == nil else { return false }
                var status = stat()
                guard fstatat(root.descriptor, path, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return false }
                unlinkat(root.descriptor, path, 0)
                replaced = (status.st_nlink > 1, Int(status.st_size))
                return true
            }
            let unchanged = previous.holds(path, data)
            while true {
                if unchanged, let live = previous.directory {
                    if linkat(live.descriptor, path, root.descriptor, path, 0) == 0 {
                        return Outcome(bytes: nil, hash: hash, replaced: replaced)
                    }
                    if errno == EEXIST, replaceEarlier() { continue }
                }
                if try store(data, at: path, in: root, exclusively: true) {
                    return Outcome(bytes: data.count, hash: hash, replaced: replaced)
                }
                guard replaceEarlier() else { throw FeedWriteError(path: root.path + "/" + path, code: EEXIST) }
            }
        }

        /// Swaps the staged build in; returns what changed.
        public func finish() throws -> FeedBuildReport {
            try finish(keepingPrevious: false).report
        }

        /// Swaps the staged build in. The previous build is deleted, or kept as the spare
        /// tree that the next incremental build brings up to date.
        func finish(keepingPrevious: Bool) throws -> (report: FeedBuildReport, changed: [String]) {
            var report = self.report
            // A file of the previous build not added to this one is not in the staging directory.
            var removed: [String] = []
            var status = stat()
            previous.forEachPath { path in
                if fstatat(root.descriptor, path, &status, AT_SYMLINK_NOFOLLOW) != 0 { removed.append(path) }
            }
            report.removed = removed.count
            // A previous build without files of its own is not worth keeping as the spare
            // (the next incremental build makes one): `written` was not listed for it.
            let keeps = keepingPrevious && !previous.isEmpty
            if keepingPrevious, !keeps { try? FileTreeWalk.remove(writer.spareDirectory.path) }
            let changed = Set(written).union(removed).sorted()
            // Without a previous build, `written` was not kept: the publisher takes everything.
            try writer.recordForPublishing(previous.isEmpty ? nil : changed)
            try writer.swap(in: directory, keepingPrevious: keeps)
            return (report, changed)
        }

        /// Compares a file (relative to `directory` when given) with `data`, reading it only
        /// when the sizes agree; false when there is none.
        static func contents(of path: String, in directory: OpenDirectory? = nil, equal data: Data) -> Bool {
            guard let old = FeedTreeWriter.readFile(path, in: directory, ifSize: data.count) else { return false }
            guard !data.isEmpty else { return true }
            // memcmp, not `elementsEqual`, which steps through `Data` a byte at a time:
            // comparing with the previous tree is most of a rebuild that changes little.
            return data.withUnsafeBytes { new in old.withUnsafeBytes { memcmp(new.baseAddress!, $0.baseAddress!, $0.count) == 0 } }
        }

        /// Creates a file holding `data` (replacing one there, unless `exclusively`);
        /// false when `exclusively` and a file is there.
        @discardableResult
        static func store(_ data: Data, at path: String, in directory: OpenDirectory? = nil, exclusively: Bool = false) throws
            -> Bool
        {
            let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (exclusively ? O_EXCL : O_TRUNC)
            let descriptor = openat(directory?.descriptor ?? AT_FDCWD, path, flags, 0o644)
            if descriptor < 0, exclusively, errno == EEXIST { return false }
            let fullPath = directory.map { $0.path + "/" + path } ?? path
            guard descriptor >= 0 else { throw FeedWriteError(path: fullPath, code: errno) }
            defer { close(descriptor) }
            try data.withUnsafeBytes { try writeAll($0, to: descriptor, path: fullPath) }
            return true
        }
    }

    /// Puts the staged directory in place of the output directory; the previous build
    /// is deleted or becomes the spare tree.
    func swap(in staging: URL, keepingPrevious: Bool = false) throws {
        let fileManager = FileManager.default
        let parent = outputDirectory.deletingLastPathComponent()
        if keepingPrevious { try? FileTreeWalk.remove(spareDirectory.path) }
        if fileManager.fileExists(atPath: outputDirectory.path) {
            if Self.exchange(staging.path, outputDirectory.path) {
                if keepingPrevious {
                    try fileManager.moveItem(at: staging, to: spareDirectory)
                } else {
                    try FileTreeWalk.remove(staging.path)
                }
            } else {
                let retired = parent.appendingPathComponent(".\(outputDirectory.lastPathComponent).retired")
                try? FileTreeWalk.remove(retired.path)
                try fileManager.moveItem(at: outputDirectory, to: retired)
                try fileManager.moveItem(at: staging, to: outputDirectory)
                try FileTreeWalk.remove(retired.path)
            }
        } else {
            try fileManager.moveItem(at: staging, to: outputDirectory)
        }
    }

    /// Atomically swaps two paths, when the system can.
    static func exchange(_ a: String, _ b: String) -> Bool {
        #if canImport(Glibc)
        // glibc has renameat2 (2.28+) but Swift's Glibc module does not export it.
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return false }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        let renameExchange: UInt32 = 1 << 1
        return renameat2(AT_FDCWD, a, AT_FDCWD, b, renameExchange) == 0
        #elseif canImport(Darwin)
        return renamex_np(a, b, UInt32(RENAME_SWAP)) == 0
        #else
        return false
        #endif
    }
}

/// A directory held open, closed when the last copy of its holder goes.
final class OpenDirectory: Sendable {
    let path: String
    let descriptor: Int32

    init(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FeedWriteError(path: path, code: errno) }
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}

/// Writes all of `bytes` (`write` may take them in parts).
func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws {
    var offset = 0
    while offset < bytes.count {
        let count = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        guard count > 0 else { throw FeedWriteError(path: path, code: errno) }
        offset += count
    }
}

/// POSIX `write`, named apart from ``FeedTreeWriter/write(_:)``.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

extension FeedTreeWriter {
    /// A file's bytes; nil when it cannot be read, or its size is not `expected` (when given).
    static func readFile(_ path: String, in directory: OpenDirectory? = nil, ifSize expected: Int? = nil) -> [UInt8]? {
        let descriptor = openat(directory?.descriptor ?? AT_FDCWD, path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, expected.map({ $0 == Int(status.st_size) }) ?? true else { return nil }
        let size = Int(status.st_size)
        var complete = true
        // Uninitialized: the bytes are about to be read over, zeroing them is wasted.
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var offset = 0
            while offset < size {
                let count = read(descriptor, buffer.baseAddress! + offset, size - offset)
                guard count > 0 else { break }
                offset += count
            }
            complete = offset == size
            initialized = offset
        }
        return complete ? bytes : nil
    }
}
