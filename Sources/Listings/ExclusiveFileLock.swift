import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One writer at a time: an exclusive `flock` on a file, held until ``release()`` or
/// until the process ends, however it ends (the kernel drops it).
public struct ExclusiveFileLock: Sendable {
    public let path: String
    private let descriptor: Int32

    /// Takes the lock; nil at once, without waiting, when another holder has it.
    public init?(path: String) throws(LockFileError) {
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw LockFileError(path: path, code: errno) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        self.path = path
        self.descriptor = descriptor
    }

    /// Takes the lock, waiting as long as another holder keeps it.
    public init(waitingFor path: String) throws(LockFileError) {
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw LockFileError(path: path, code: errno) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let code = errno
                close(descriptor)
                throw LockFileError(path: path, code: code)
            }
        }
        self.path = path
        self.descriptor = descriptor
    }

    public func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}

public struct LockFileError: Error, CustomStringConvertible {
    public let path: String
    public let code: Int32
    public var description: String { "cannot open the lock file \(path): \(String(cString: strerror(code)))" }
}
