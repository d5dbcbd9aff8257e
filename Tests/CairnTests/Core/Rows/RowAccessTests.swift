import Foundation
import Testing
import Cairn

/// Coalescing, data access and scopes of rows.
@Suite struct RowAccessTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
    }

    @Test func coalesce() throws {
        try dbQueue.read { db throws -> Void in
            let rows = try Row.fetchAll(db, sql: """
                SELECT 'Artie' AS nickname, 'Arthur' AS name
                UNION ALL SELECT NULL, 'Jacob'
                UNION ALL SELECT NULL, NULL
                """)
            #expect(rows.map { $0.coalesce(["nickname", "name"]) as String? } == ["Artie", "Jacob", nil])
            #expect(rows.map { $0.coalesce([Column("nickname"), Column("name")]) as String? } == ["Artie", "Jacob", nil])
            #expect(rows.map { $0.coalesce(["nickname"]) as String? } == ["Artie", nil, nil])
            #expect(rows.map { $0.coalesce(["missing", "name"]) as String? } == ["Arthur", "Jacob", nil])
            #expect(rows[0].coalesce([String]()) as String? == nil)
        }
    }

    @Test func withUnsafeData() throws {
        let data = Data("foo".utf8)
        try dbQueue.read { db throws -> Void in
            let cursor = try Row.fetchCursor(db, sql: "SELECT ? AS a, NULL AS b", arguments: [data])
            while let row = try cursor.next() {
                // The data of a cursor row is a copy, which may be kept.
                var kept: Data?
                try row.withUnsafeData(atIndex: 0) { kept = $0 }
                #expect(kept == data)
                #expect(try row.withUnsafeData(named: "a") { $0 } == data)
                #expect(try row.withUnsafeData(at: Column("a")) { $0 } == data)
                #expect(try row.withUnsafeData(named: "b") { $0 } == nil)
                #expect(try row.withUnsafeData(named: "missing") { $0 } == nil)
                #expect(throws: RowDecodingError.self) { try row.withUnsafeData(atIndex: 2) { $0 } }
            }
        }
        let row: Row = ["a": data]
        #expect(try row.withUnsafeData(atIndex: 0) { $0 } == data)
    }

    @Test func addingScopes() throws {
        try dbQueue.read { db throws -> Void in
            let adapter = ColumnMapping(["id": "id0"])
                .addingScopes(["sub": ColumnMapping(["id": "id1"]).addingScopes(["subsub": ColumnMapping(["id": "id2"])])])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 0 AS id0, 1 AS id1, 2 AS id2", adapter: adapter))
            #expect(row.unscoped == ["id": 0])
            #expect(row.scopes["sub"]?.unscoped == ["id": 1])
            #expect(row.scopes["sub"]?.scopes["subsub"] == ["id": 2])

            // A scope of the same name replaces the former one.
            let replacing = ScopeAdapter(["sub": ColumnMapping(["id": "id1"])]).addingScopes(["sub": ColumnMapping(["id": "id2"])])
            let replaced = try #require(try Row.fetchOne(db, sql: "SELECT 0 AS id0, 1 AS id1, 2 AS id2", adapter: replacing))
            #expect(replaced.scopes["sub"] == ["id": 2])
        }
    }
}
