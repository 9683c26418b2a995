import GRDB
import GRDBSQLite
import Listings

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A cursor that decodes each step straight from SQLite's column accessors.
///
/// GRDB's `Row` decoding is generic and, across module boundaries, resolves type metadata
/// at run time for every value; on the query paths fans wait for (radius, metro and event
/// details) that cost more than SQLite itself. Columns are read by index, so the SQL's
/// column order is the contract between a query and its `decode` closure.
final class ColumnCursor<Element>: DatabaseCursor {
    var _isDone = false
    let _statement: Statement
    private let decode: (Columns) throws -> Element

    init(_ statement: Statement, arguments: StatementArguments, decode: @escaping (Columns) throws -> Element) throws {
        try statement.setArguments(arguments)
        _statement = statement
        self.decode = decode
    }

    func _element(sqliteStatement: SQLiteStatement) throws -> Element {
        try decode(Columns(statement: sqliteStatement))
    }

    /// All remaining elements.
    func all() throws -> [Element] {
        var elements: [Element] = []
        while let element = try next() { elements.append(element) }
        return elements
    }

    /// The current row's columns, valid only inside `decode`.
    struct Columns {
        let statement: SQLiteStatement

        func isNull(_ index: Int32) -> Bool { sqlite3_column_type(statement, index) == SQLITE_NULL }
        func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(statement, index) }
        func int(_ index: Int32) -> Int { Int(sqlite3_column_int64(statement, index)) }
        func double(_ index: Int32) -> Double { sqlite3_column_double(statement, index) }
        func bool(_ index: Int32) -> Bool { sqlite3_column_int64(statement, index) != 0 }

        func text(_ index: Int32) -> String {
            guard let bytes = sqlite3_column_text(statement, index) else { return "" }
            let count = Int(sqlite3_column_bytes(statement, index))
            return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }

        /// Whether the column holds exactly `text`, compared without making a String.
        func equals(_ index: Int32, _ text: StaticString) -> Bool {
            guard let bytes = sqlite3_column_text(statement, index) else { return false }
            let count = Int(sqlite3_column_bytes(statement, index))
            return count == text.utf8CodeUnitCount && memcmp(bytes, text.utf8Start, count) == 0
        }

        func eventStatus(_ index: Int32) -> EventStatus {
            if equals(index, "scheduled") { return .scheduled }
            if equals(index, "cancelled") { return .cancelled }
            if equals(index, "postponed") { return .postponed }
            if equals(index, "rescheduled") { return .rescheduled }
            return .scheduled
        }

        /// A `YYYY-MM-DD` column as a date, parsed in place.
        func localDate(_ index: Int32) -> LocalDate? {
            guard let bytes = sqlite3_column_text(statement, index), sqlite3_column_bytes(statement, index) == 10,
                bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-")
            else { return nil }
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for offset in range {
                    let digit = bytes[offset] &- UInt8(ascii: "0")
                    guard digit < 10 else { return nil }
                    value = value * 10 + Int(digit)
                }
                return value
            }
            guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
            return LocalDate(year: year, month: month, day: day)
        }

        func optionalInt64(_ index: Int32) -> Int64? { isNull(index) ? nil : int64(index) }
        func optionalInt(_ index: Int32) -> Int? { isNull(index) ? nil : int(index) }
        func optionalDouble(_ index: Int32) -> Double? { isNull(index) ? nil : double(index) }
        func optionalText(_ index: Int32) -> String? { isNull(index) ? nil : text(index) }
    }
}
