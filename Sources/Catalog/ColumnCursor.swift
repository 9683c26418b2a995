import GRDB
import GRDBSQLite
import Listings

/// A cursor that decodes each step straight from SQLite's column accessors.
///
/// GRDB's `Row` decoding is generic and, across module boundaries, resolves type metadata
/// at run time for every value; on the query paths fans wait for (radius, metro and event
/// details) that cost more than SQLite itself. GRDB's own row cursor steps the statement;
/// columns are read by index from the row it stands on, so the SQL's column order is the
/// contract between a query and its `decode` closure.
final class ColumnCursor<Element> {
    private let rows: RowCursor
    private let statement: SQLiteStatement
    private let decode: (Columns) throws -> Element

    init(_ statement: Statement, arguments: StatementArguments, decode: @escaping (Columns) throws -> Element) throws {
        rows = try Row.fetchCursor(statement, arguments: arguments)
        self.statement = statement.sqliteStatement
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
        self.statement = statement.sqliteStatement
        self.decode = decode
    }

    func next() throws -> Element? {
        guard try rows.next() != nil else { return nil }
        return try decode(Columns(statement: statement))
    }

    /// All remaining elements.
    func all() throws -> [Element] {
        var elements: [Element] = []
        while let element = try next() { elements.append(element) }
        return elements
    }

    /// The current row's columns, valid only inside `decode`.
    struct Columns {
        fileprivate let statement: SQLiteStatement

        func isNull(_ index: Int32) -> Bool { sqlite3_column_type(statement, index) == SQLITE_NULL }
        func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(statement, index) }
        func int(_ index: Int32) -> Int { Int(sqlite3_column_int64(statement, index)) }
        func double(_ index: Int32) -> Double { sqlite3_column_double(statement, index) }
        func bool(_ index: Int32) -> Bool { sqlite3_column_int64(statement, index) != 0 }
        func databaseValue(_ index: Int32) -> DatabaseValue { DatabaseValue(sqliteStatement: statement, index: index) }

        func text(_ index: Int32) -> String {
            withBytes(index) { String(decoding: $0, as: UTF8.self) }
        }

        /// Calls `body` with the column's bytes (none for null), without copying them.
        func withBytes<T>(_ index: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
            guard let bytes = sqlite3_column_text(statement, index) else {
                return try body(UnsafeBufferPointer(start: nil, count: 0))
            }
            return try body(UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, index))))
        }

        /// Whether the column holds exactly this text, compared without making a String.
        func hasText(_ index: Int32, _ text: String) -> Bool {
            var text = text
            return !isNull(index) && text.withUTF8 { expected in withBytes(index) { $0.elementsEqual(expected) } }
        }

        /// The case whose raw value the column holds, compared without making a String;
        /// `fallback` for anything else.
        func value<Value: RawRepresentable & CaseIterable>(_ index: Int32, else fallback: Value) -> Value
        where Value.RawValue == String {
            guard !isNull(index) else { return fallback }
            return withBytes(index) { bytes in Value.allCases.first { $0.rawValue.utf8.elementsEqual(bytes) } ?? fallback }
        }

        /// A `YYYY-MM-DD` column as a date, parsed in place.
        func localDate(_ index: Int32) -> LocalDate? {
            isNull(index) ? nil : withBytes(index) { LocalDate(isoUTF8: $0) }
        }

        func optionalInt64(_ index: Int32) -> Int64? { isNull(index) ? nil : int64(index) }
        func optionalInt(_ index: Int32) -> Int? { isNull(index) ? nil : int(index) }
        func optionalDouble(_ index: Int32) -> Double? { isNull(index) ? nil : double(index) }
        func optionalText(_ index: Int32) -> String? { isNull(index) ? nil : text(index) }
    }
}
