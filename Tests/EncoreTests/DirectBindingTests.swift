@testable import Catalog
import GRDB
import Testing

struct DirectBindingTests {
    @Test func boundValuesReadBackAsTheyWereGivenWithEmptyTextNotNull() throws {
        let db = try DatabaseQueue()
        try db.write { db in
            try db.execute(sql: "CREATE TABLE t (a TEXT, b TEXT, c INTEGER, d REAL, e TEXT)")
            let insert = try db.cachedStatement(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?)")
            try insert.execute { binder in
                binder.bind("" as String?)
                binder.bind(nil as String?)
                binder.bind(Int64(-7) as Int64?)
                binder.bind(2.5 as Double?)
                binder.bind("Sigur Rós ☃︎" as String?)
            }
            // Arguments bound by GRDB in between must not leak into the next direct binding.
            try insert.execute(arguments: ["x", "y", 1, 1.0, "z"])
            try insert.execute { binder in
                binder.bind(nil as String?)
                binder.bind("b" as String?)
                binder.bind(nil as Int?)
                binder.bind(nil as Double?)
                binder.bind(nil as String?)
            }
            let rows = try Row.fetchAll(db, sql: "SELECT a, b, c, d, e, typeof(a) FROM t ORDER BY rowid")
            #expect(rows[0][0] as String? == "")
            #expect(rows[0][5] as String == "text")
            #expect(rows[0][1] as String? == nil)
            #expect(rows[0][2] as Int64? == -7)
            #expect(rows[0][3] as Double? == 2.5)
            #expect(rows[0][4] as String? == "Sigur Rós ☃︎")
            #expect(rows[1][0] as String? == "x")
            #expect(rows[2][0] as String? == nil)
            #expect(rows[2][1] as String? == "b")
            #expect(rows[2][2] as Int64? == nil)
            #expect(rows[2][3] as Double? == nil)
        }
    }
}
