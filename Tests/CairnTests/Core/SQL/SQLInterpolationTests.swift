import Foundation
import Testing
import Cairn

private struct InterpolatedPlayer: TableRecord {
    static let databaseTableName = "player"
}

private enum CodingColumns: String, CodingKey, ColumnExpression {
    case score
}

/// `SQLInterpolation`: what SQL literals interpolate.
@Suite struct SQLInterpolationTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INT)")
            try db.execute(sql: "INSERT INTO player VALUES (1, 'Arthur', 100), (2, 'Barbara', 200)")
        }
    }

    func build(_ literal: SQL) throws -> (sql: String, arguments: StatementArguments) {
        try dbQueue.read { db in try literal.build(db) }
    }

    @Test func theInterpolationIsAPublicType() {
        var interpolation = SQLInterpolation(literalCapacity: 10, interpolationCount: 1)
        interpolation.appendLiteral("SELECT ")
        interpolation.appendInterpolation(1)
        let literal = SQL(stringInterpolation: interpolation)
        #expect(!literal.isEmpty)
        // SQL.StringInterpolation is the same type.
        let same: SQL.StringInterpolation.Type = SQLInterpolation.self
        #expect(same == SQLInterpolation.self)
    }

    @Test func identifiersLiteralsAndStrings() throws {
        let condition: SQL = "score > \(150)"
        let word = "Barbara Smith".split(separator: " ")[0]
        let (sql, arguments) = try build("SELECT * FROM \(identifier: "player") WHERE \(condition) AND name = \(word)")
        #expect(sql == #"SELECT * FROM "player" WHERE score > ? AND name = ?"#)
        #expect(arguments == [150, "Barbara"])
        #expect(try build("SELECT \(identifier: "weird \"name\"")").sql == #"SELECT "weird ""name""""#)
    }

    @Test func expressionsSelectionsAndOrderings() throws {
        let expression: (any SQLExpressible)? = Column("score")
        let noExpression: (any SQLExpressible)? = nil
        #expect(try build("SELECT \(expression), \(noExpression)").sql == #"SELECT "score", NULL"#)
        #expect(try build("SELECT \(AllColumns()) FROM player").sql == "SELECT * FROM player")
        let selection: (any SQLSelectable)? = Column("name").forKey("n")
        #expect(try build("SELECT \(selection) FROM player").sql == #"SELECT "name" AS "n" FROM player"#)
        let noSelection: (any SQLSelectable)? = nil
        #expect(try build("SELECT \(noSelection)").sql == "SELECT NULL")
        let ordering: any SQLOrderingTerm = Column("score").desc
        #expect(try build("ORDER BY \(ordering), \(Column("name").asc)").sql == #"ORDER BY "score" DESC, "name" ASC"#)
        #expect(try build("SELECT \(Column("score") + 1)").sql == #"SELECT "score" + ?"#)
        #expect(try build("SELECT \(CodingColumns.score)").sql == #"SELECT "score""#)
        let key: any CodingKey = CodingColumns.score
        #expect(try build("SELECT \(key)").sql == #"SELECT "score""#)
    }

    @Test func sequences() throws {
        #expect(try build("WHERE id IN \([1, 2])").sql == "WHERE id IN (?,?)")
        #expect(try build("WHERE a IN \([Column("b"), Column("c")])").sql == #"WHERE a IN ("b","c")"#)
        let mixed: [any SQLExpressible] = [Column("b"), 2]
        let (sql, arguments) = try build("WHERE a IN \(mixed)")
        #expect(sql == #"WHERE a IN ("b",?)"#)
        #expect(arguments == [2])
        let empty: [Column] = []
        #expect(try build("WHERE a IN \(empty)").sql == "WHERE a IN (SELECT NULL WHERE NULL)")
        // Data is one value, not a list of bytes.
        #expect(try build("SELECT \(Data([1, 2]))").sql == "SELECT ?")
    }

    /// An empty sequence is an empty subquery: `IN` matches no row, and
    /// `NOT IN` matches all rows (with `(NULL)`, both would match none).
    @Test func emptySequences() throws {
        let noIDs: [Int64] = []
        let noColumns: [Column] = []
        #expect(try build("WHERE id IN \(noIDs)").sql == "WHERE id IN (SELECT NULL WHERE NULL)")
        #expect(try build("WHERE id NOT IN \(noColumns)").sql == "WHERE id NOT IN (SELECT NULL WHERE NULL)")
        #expect(try build("WHERE id IN \(noIDs)").arguments.isEmpty)
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY); INSERT INTO t VALUES (1), (NULL)")
            #expect(try Int.fetchAll(db, SQLRequest<Int>(literal: "SELECT id FROM t WHERE id IN \(noIDs)")) == [])
            #expect(try Int.fetchAll(db, SQLRequest<Int>(literal: "SELECT id FROM t WHERE id NOT IN \(noIDs) ORDER BY id")) == [1, 2])
            #expect(try Int.fetchAll(db, SQLRequest<Int>(literal: "SELECT id FROM t WHERE id NOT IN \(noColumns) ORDER BY id")) == [1, 2])
        }
    }

    @Test func tablesAndCollations() throws {
        let recordType: any TableRecord.Type = InterpolatedPlayer.self
        let record: any TableRecord = InterpolatedPlayer()
        #expect(try build("SELECT * FROM \(recordType)").sql == #"SELECT * FROM "player""#)
        #expect(try build("SELECT * FROM \(tableOf: record)").sql == #"SELECT * FROM "player""#)
        #expect(try build("SELECT * FROM \(Table("player"))").sql == #"SELECT * FROM "player""#)
        #expect(try build("ORDER BY name COLLATE \(Database.CollationName.nocase)").sql == "ORDER BY name COLLATE NOCASE")
        #expect(try build("ORDER BY name COLLATE \(DatabaseCollation.localizedCompare)").sql
            == "ORDER BY name COLLATE \(DatabaseCollation.localizedCompare.name)")
        try dbQueue.read { db throws in
            let names = try String.fetchAll(db, SQLRequest<String>(literal: "SELECT name FROM \(Table("player")) ORDER BY \(Column("score").desc)"))
            #expect(names == ["Barbara", "Arthur"])
        }
    }

    @Test func literalsFromExpressionsAndJoinedCollections() throws {
        let literal = SQL(Column("score") * 2)
        #expect(try build(literal).sql == #""score" * ?"#)
        try dbQueue.read { db throws in
            #expect(try Int.fetchAll(db, Table("player").select(literal).order(Column("id"))) == [200, 400])
        }
        let columns: [SQL] = ["id", "name"]
        #expect(try build("SELECT \(literal: columns.joined(separator: ", ")) FROM player").sql == "SELECT id, name FROM player")
        #expect(try build(columns.joined()).sql == "idname")
        // Any sequence still joins.
        #expect(try build(AnySequence(columns).joined(separator: "+")).sql == "id+name")
    }
}
