import Foundation
import Testing
import Cairn

/// `Database.primaryKey(_:)`, compared with what GRDB 7.8 returns
/// (issue 51).
@Suite struct GRDBIntrospectionTests {
    func primaryKey(_ sql: String, _ table: String = "t") throws -> PrimaryKeyInfo {
        try DatabaseQueue().write { db in
            try db.execute(sql: sql)
            return try db.primaryKey(table)
        }
    }

    @Test func hiddenRowID() throws {
        let key = try primaryKey("CREATE TABLE t(name TEXT)")
        #expect(key.columns == ["rowid"])
        // No column aliases the rowid: GRDB gives nil.
        #expect(key.rowIDColumn == nil)
        #expect(key.isRowID)
        #expect(key.tableHasRowID)
    }

    @Test func hiddenRowIDWithAColumnNamedRowID() throws {
        let key = try primaryKey("CREATE TABLE t(rowid TEXT, name TEXT)")
        #expect(key.columns == ["rowid"])
        #expect(key.rowIDColumn == nil)
        #expect(key.isRowID)
    }

    @Test func integerPrimaryKey() throws {
        for sql in [
            "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)",
            "CREATE TABLE t(id integer primary key, name TEXT)",
            "CREATE TABLE t(id InTeGeR NOT NULL, name TEXT, PRIMARY KEY (id))",
        ] {
            let key = try primaryKey(sql)
            #expect(key.columns == ["id"], "\(sql)")
            #expect(key.rowIDColumn == "id", "\(sql)")
            #expect(key.tableHasRowID, "\(sql)")
            #expect(key.isRowID, "\(sql)")
        }
    }

    @Test func otherIntegerTypesAreNotAliases() throws {
        for sql in [
            "CREATE TABLE t(id INT PRIMARY KEY)",
            "CREATE TABLE t(id BIGINT PRIMARY KEY)",
            "CREATE TABLE t(id UNSIGNED INTEGER PRIMARY KEY)",
            "CREATE TABLE t(uuid TEXT PRIMARY KEY)",
        ] {
            let key = try primaryKey(sql)
            #expect(key.columns.count == 1, "\(sql)")
            #expect(key.rowIDColumn == nil, "\(sql)")
            #expect(!key.isRowID, "\(sql)")
            #expect(key.tableHasRowID, "\(sql)")
        }
    }

    @Test func compositeKey() throws {
        let key = try primaryKey("CREATE TABLE t(a INTEGER, b TEXT, PRIMARY KEY (b, a))")
        #expect(key.columns == ["b", "a"])
        #expect(key.rowIDColumn == nil)
        #expect(!key.isRowID)
        #expect(key.tableHasRowID)
    }

    @Test func withoutRowIDTables() throws {
        let text = try primaryKey("CREATE TABLE t(code TEXT PRIMARY KEY) WITHOUT ROWID")
        #expect(text.columns == ["code"])
        #expect(text.rowIDColumn == nil)
        #expect(!text.isRowID)
        #expect(!text.tableHasRowID)

        let composite = try primaryKey("CREATE TABLE t(a, b, PRIMARY KEY (a, b)) WITHOUT ROWID")
        #expect(composite.columns == ["a", "b"])
        #expect(composite.rowIDColumn == nil)
        #expect(!composite.isRowID)
        #expect(!composite.tableHasRowID)

        // A WITHOUT ROWID table has no rowid for an INTEGER PRIMARY KEY to
        // alias: the column is an ordinary key, as GRDB 7 reports it.
        let integer = try primaryKey("CREATE TABLE t(id INTEGER PRIMARY KEY) WITHOUT ROWID")
        #expect(integer.columns == ["id"])
        #expect(integer.rowIDColumn == nil)
        #expect(!integer.isRowID)
        #expect(!integer.tableHasRowID)
    }

    @Test func viewsHaveNoPrimaryKey() throws {
        #expect(throws: DatabaseError.self) {
            try primaryKey("CREATE TABLE t(id INTEGER PRIMARY KEY); CREATE VIEW v AS SELECT * FROM t", "v")
        }
    }
}
