import ArgumentParser
import Catalog
import Foundation
import Listings

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The catalog file (default: $ENCORE_DB, else ./encore.sqlite).", valueName: "path"))
    var db: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Treat this date as today (YYYY-MM-DD; default $ENCORE_TODAY, else the clock), for reproducible output.",
            visibility: .hidden))
    var today: String?

    func validate() throws {
        if let today, LocalDate(iso: today) == nil {
            throw ValidationError("--today must be a date like 2026-11-22, not \"\(today)\".")
        }
        if today == nil, let variable = ProcessInfo.processInfo.environment["ENCORE_TODAY"], LocalDate(iso: variable) == nil {
            throw ValidationError("ENCORE_TODAY must be a date like 2026-11-22, not \"\(variable)\".")
        }
    }

    /// The catalog path: `--db`, else `$ENCORE_DB`, else `./encore.sqlite`.
    var databasePath: String {
        if let db { return db }
        if let fromEnvironment = ProcessInfo.processInfo.environment["ENCORE_DB"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return "encore.sqlite"
    }

    /// The catalog for a query: a missing file is a usage error, never a new empty catalog
    /// (which would answer "0 events" about a place it knows nothing of).
    /// - Parameter readsOnce: see `CatalogDatabase.init(path:readsOnce:now:)`.
    func openCatalog(readsOnce: Bool = false) throws -> CatalogDatabase {
        guard FileManager.default.fileExists(atPath: databasePath) else {
            throw UsageError("no catalog at \(databasePath); run `encore refresh` or `encore ingest` first (or pass --db)")
        }
        return try openOrCreateCatalog(readsOnce: readsOnce)
    }

    /// The catalog, made empty when missing: for the commands that write one (ingest,
    /// refresh, track, settings, going).
    func openOrCreateCatalog(readsOnce: Bool = false) throws -> CatalogDatabase {
        do {
            return try CatalogDatabase(path: databasePath, readsOnce: readsOnce)
        } catch {
            throw CatalogOpenError(path: databasePath, underlying: String(describing: error))
        }
    }

    /// Today's date where the user is (the system time zone).
    var currentDate: LocalDate {
        // The docs' examples and tests run on a fixed day (`ENCORE_TODAY`).
        if let text = today ?? ProcessInfo.processInfo.environment["ENCORE_TODAY"], let date = LocalDate(iso: text) { return date }
        let parts = Calendar.current.dateComponents([.year, .month, .day], from: Date())
        return LocalDate(year: parts.year!, month: parts.month!, day: parts.day!)!
    }
}

struct CatalogOpenError: Error, CustomStringConvertible {
    let path: String
    let underlying: String
    var description: String { "cannot open the catalog at \(path): \(underlying)" }
}
