import Foundation
import GRDB
import Listings

/// A cursor whose `decode` closure reads each row's columns by index, so the SQL's column
/// order is the contract between a query and its closure.
///
/// It reads through GRDB's `Row`: a reader of SQLite's column accessors showed no
/// measurable gain, on the queries fans wait for or on a bulk load (BENCHMARKS.md).
final class ColumnCursor<Element> {
    private let rows: RowCursor
    private let decode: (Columns) throws -> Element

    init(_ statement: Statement, arguments: StatementArguments, decode: @escaping (Columns) throws -> Element) throws {
        rows = try Row.fetchCursor(statement, arguments: arguments)
        self.decode = decode
    }

    /// A cursor over `statement` with its parameters bound by `bind` (see
    /// `Statement.execute(binding:)`): the lookups an ingest makes for every record.
    init(
        _ statement: Statement, binding bind: (inout ParameterBinder) -> Void,
        decode: @escaping (Columns) throws -> Element
    ) throws {
        statement.bind(bind)
        // No arguments: GRDB resets the statement and keeps what `bind` bound.
        rows = try Row.fetchCursor(statement)
        self.decode = decode
    }

    func next() throws -> Element? {
        guard let row = try rows.next() else { return nil }
        return try decode(Columns(row: row))
    }

    /// All remaining elements.
    func all() throws -> [Element] {
        var elements: [Element] = []
        while let element = try next() { elements.append(element) }
        return elements
    }

    /// The current row's columns.
    struct Columns {
        fileprivate let row: Row

        func isNull(_ index: Int32) -> Bool { row.hasNull(atIndex: Int(index)) }
        func int64(_ index: Int32) -> Int64 { row[Int(index)] }
        func int(_ index: Int32) -> Int { row[Int(index)] }
        func double(_ index: Int32) -> Double { row[Int(index)] }
        func bool(_ index: Int32) -> Bool { row[Int(index)] }
        func databaseValue(_ index: Int32) -> DatabaseValue { row[Int(index)] }
        func text(_ index: Int32) -> String { row[Int(index)] ?? "" }

        /// Calls `body` with the column's bytes (none for null), without copying them.
        func withBytes<T>(_ index: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) throws -> T {
            try row.withUnsafeData(atIndex: Int(index)) { data in
                guard let data else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
                return try data.withUnsafeBytes { try body($0.bindMemory(to: UInt8.self)) }
            }
        }

        /// Whether the column holds exactly this text.
        func hasText(_ index: Int32, _ text: String) -> Bool { (row[Int(index)] as String?) == text }

        /// The case whose raw value the column holds; `fallback` for anything else.
        func value<Value: RawRepresentable & CaseIterable>(_ index: Int32, else fallback: Value) -> Value
        where Value.RawValue == String {
            (row[Int(index)] as String?).flatMap(Value.init(rawValue:)) ?? fallback
        }

        /// A `YYYY-MM-DD` column as a date.
        func localDate(_ index: Int32) -> LocalDate? { (row[Int(index)] as String?).flatMap { LocalDate(iso: $0) } }

        func optionalInt64(_ index: Int32) -> Int64? { row[Int(index)] }
        func optionalInt(_ index: Int32) -> Int? { row[Int(index)] }
        func optionalDouble(_ index: Int32) -> Double? { row[Int(index)] }
        func optionalText(_ index: Int32) -> String? { row[Int(index)] }
    }
}
