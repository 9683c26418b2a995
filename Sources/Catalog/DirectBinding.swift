import GRDB
import GRDBSQLite

/// Binds a statement's parameters straight to SQLite, in order.
///
/// Applying a page runs a handful of inserts per event; building GRDB's
/// `StatementArguments` for each (an array of existential values, each bound through a
/// protocol) cost as much as SQLite's own work on them.
struct ParameterBinder {
    private let statement: SQLiteStatement
    private var index: Int32 = 0

    fileprivate init(statement: SQLiteStatement) {
        self.statement = statement
    }

    mutating func bind(_ value: String?) {
        index += 1
        guard var value else {
            sqlite3_bind_null(statement, index)
            return
        }
        value.withUTF8 { bytes in
            if let start = bytes.baseAddress, !bytes.isEmpty {
                _ = sqlite3_bind_text(statement, index, start, Int32(bytes.count), Self.transient)
            } else {
                // A null pointer would bind NULL, not the empty string.
                _ = sqlite3_bind_text(statement, index, "", 0, Self.transient)
            }
        }
    }

    mutating func bind(_ value: Int64?) {
        index += 1
        if let value { sqlite3_bind_int64(statement, index, value) } else { sqlite3_bind_null(statement, index) }
    }

    mutating func bind(_ value: Int?) {
        bind(value.map(Int64.init))
    }

    mutating func bind(_ value: Double?) {
        index += 1
        if let value { sqlite3_bind_double(statement, index, value) } else { sqlite3_bind_null(statement, index) }
    }

    mutating func bind(_ value: DatabaseValue) {
        switch value.storage {
        case .null: bind(nil as Int64?)
        case let .int64(integer): bind(integer)
        case let .double(double): bind(double)
        case let .string(string): bind(string)
        case let .blob(data):
            index += 1
            data.withUnsafeBytes { bytes in
                _ = sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), Self.transient)
            }
        }
    }

    /// SQLite copies the bytes before `bind` returns (`SQLITE_TRANSIENT`).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

extension Statement {
    /// Executes the statement with parameters bound by `bind`, in the order of the SQL.
    ///
    /// Every parameter must be bound: earlier bindings are cleared first, and GRDB is told
    /// there are no arguments, so it only resets the statement before stepping it.
    func execute(binding bind: (inout ParameterBinder) -> Void) throws {
        self.bind(bind)
        try execute()
    }

    /// The first column of the first row as an integer (nil when there is no row or it
    /// is NULL), with parameters bound as ``execute(binding:)`` binds them: merging a
    /// record asks a few such questions an act.
    func fetchInt64(binding bind: (inout ParameterBinder) -> Void) throws -> Int64? {
        self.bind(bind)
        return try Int64.fetchOne(self)
    }

    /// Binds every parameter with `bind` (see ``execute(binding:)``).
    func bind(_ bind: (inout ParameterBinder) -> Void) {
        setUncheckedArguments(StatementArguments())
        var binder = ParameterBinder(statement: sqliteStatement)
        bind(&binder)
    }
}
