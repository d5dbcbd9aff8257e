import Foundation
import Testing
import Cairn

/// Columns of an enum, as GRDB users declare them.
private enum Columns: String, ColumnExpression {
    case a, b, flags, name
}

extension SQLExpression {
    static var rowIDForTest: SQLExpression { Column.rowID.sqlExpression }
}

/// The operators of the query interface, declared on SQLSpecificExpressible,
/// ColumnExpression and AssociationAggregate, and the functions around them.
@Suite struct SQLOperatorsTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE t (id INTEGER PRIMARY KEY, a INT, b INT, flags INT, name TEXT);
                INSERT INTO t VALUES (1, 1, 1, 5, 'x'), (2, 1, 2, 6, 'y'), (3, NULL, 3, 0, NULL);
                """)
        }
    }

    /// The WHERE clause of a filter given as any SQLExpressible value, as
    /// `filter(_:)` takes it.
    func whereClause(_ predicate: some SQLExpressible) throws -> String {
        try dbQueue.read { db throws in
            let sql = try Table("t").filter(predicate).makePreparedRequest(db, forSingleResult: false).statement.sql
            return String(sql.dropFirst(#"SELECT * FROM "t" WHERE "#.count))
        }
    }

    func ids(_ predicate: some SQLExpressible) throws -> [Int64] {
        try dbQueue.read { db in try Int64.fetchAll(db, Table("t").select(Column("id")).filter(predicate).order(Column("id"))) }
    }

    @Test func comparingTwoColumnsBuildsSQL() throws {
        // Column is Hashable: the comparison must still be SQL, not false.
        #expect(try whereClause(Column("a") == Column("b")) == #""a" = "b""#)
        #expect(try whereClause(Column("a") != Column("b")) == #""a" <> "b""#)
        #expect(try ids(Column("a") == Column("b")) == [1])
        #expect(try ids(Column("a") != Column("b")) == [2])
        // A Swift comparison where a Bool is expected.
        let same: Bool = Column("a") == Column("a")
        #expect(same)
        #expect(Set([Column("a"), Column("a")]).count == 1)
        // Columns of other types.
        #expect(try whereClause(Columns.a == Column("b")) == #""a" = "b""#)
        #expect(try whereClause(Column("a") != Columns.b) == #""a" <> "b""#)
        #expect(try whereClause(Columns.a == SQLExpression.rowIDForTest) == #""a" = "rowid""#)
    }

    @Test func equalityWithValuesNilAndBooleans() throws {
        #expect(try whereClause(Columns.name == nil) == #""name" IS NULL"#)
        #expect(try whereClause(nil != Columns.name) == #""name" IS NOT NULL"#)
        #expect(try whereClause(Columns.a == true) == #""a" = ?"#)
        // As GRDB: a boolean on the left goes to the right.
        #expect(try whereClause(false == Columns.a) == #""a" = ?"#)
        #expect(try whereClause(Columns.a != false) == #""a" <> ?"#)
        #expect(try ids(Columns.a == true) == [1, 2])
        #expect(try whereClause(Columns.name === "x") == #""name" IS ?"#)
        #expect(try whereClause(Columns.name !== nil) == #""name" IS NOT NULL"#)
        #expect(try whereClause(Columns.a === Columns.b) == #""a" IS "b""#)
        let optional: Int? = nil
        #expect(try whereClause(Columns.a == optional) == #""a" IS NULL"#)
    }

    @Test func comparisonLogicAndArithmetic() throws {
        #expect(try whereClause(Columns.a < 2 && 1 <= Columns.b || !(Columns.b > Columns.a))
            == #"(("a" < ?) AND (? <= "b")) OR (NOT ("b" > "a"))"#)
        #expect(try ids(Columns.b >= 2 && Columns.b - 1 == Columns.a) == [2])
        #expect(try ids((Columns.a + Columns.b) * 2 == 6) == [2])
        #expect(try ids(-Columns.b == -3) == [3])
        #expect(try ids(Columns.b / 2 == 1) == [2, 3])
        #expect(try ids((Columns.a ?? 10) == 10) == [3])
    }

    @Test func bitwiseOperators() throws {
        #expect(try whereClause(Columns.flags & 4 != 0) == #"("flags" & ?) <> ?"#)
        #expect(try ids(Columns.flags & 4 != 0) == [1, 2])
        #expect(try ids((Columns.flags | 1) == 7) == [2])
        #expect(try ids((Columns.flags << 1) == 10) == [1])
        #expect(try ids((Columns.flags >> 1) == 3) == [2])
        #expect(try ids(~Columns.flags == -7) == [2])
        #expect(try ids(1 & Columns.flags == 1) == [1])
        // Associative: flattened.
        #expect(try whereClause(Columns.flags & Columns.a & Columns.b) == #""flags" & "a" & "b""#)
    }

    @Test func joinedOperators() throws {
        let none: [SQLExpression] = []
        try dbQueue.read { db throws in
            func value(_ expression: SQLExpression) throws -> Int? {
                try Int.fetchOne(db, Table("t").select(expression).limit(1))
            }
            #expect(try value(none.joined(operator: .bitwiseAnd)) == -1)
            #expect(try value(none.joined(operator: .bitwiseOr)) == 0)
            #expect(try value([Column("flags"), 12.databaseValue.sqlExpression].joined(operator: .bitwiseAnd)) == 4)
            #expect(try value([Column("flags"), 2.databaseValue.sqlExpression].joined(operator: .bitwiseOr)) == 7)
        }
        // The former name of the operator type keeps working.
        let op: SQLExpression.AssociativeOperator = .and
        #expect(op == SQLExpression.AssociativeBinaryOperator.and)
        #expect(SQLExpression.AssociativeBinaryOperator.bitwiseAnd != .bitwiseOr)
    }

    @Test func compoundAssignments() throws {
        try dbQueue.write { db throws in
            _ = try Table("t").filter(key: 1).updateAll(db, Columns.flags |= 8, Columns.b += 10)
            #expect(try Row.fetchOne(db, sql: "SELECT flags, b FROM t WHERE id = 1") == ["flags": 13, "b": 11])
            _ = try Table("t").filter(key: 1).updateAll(db, Columns.flags &= 6, Columns.b <<= 1)
            #expect(try Row.fetchOne(db, sql: "SELECT flags, b FROM t WHERE id = 1") == ["flags": 4, "b": 22])
        }
    }

    @Test func columnExpressionMembers() throws {
        try dbQueue.read { db throws in
            let detached = try Table("t").select(Column("id").forKey("x")).order(Columns.name.detached)
                .makePreparedRequest(db, forSingleResult: false).statement.sql
            #expect(detached == #"SELECT "id" AS "x" FROM "t" ORDER BY "name""#)
        }
        func rowIDExpression() -> some SQLExpressible { .rowID }
        func rowIDColumn() -> some ColumnExpression { .rowID }
        #expect(try whereClause(rowIDExpression()) == #""rowid""#)
        #expect(rowIDColumn().name == "rowid")
    }

    @Test func aggregatesWithFilter() throws {
        try dbQueue.read { db throws in
            func sql(_ expression: SQLExpression) throws -> String {
                try Table("t").select(expression).makePreparedRequest(db, forSingleResult: false).statement.sql
            }
            #expect(try sql(sum(Columns.b, filter: Columns.a == 1)) == #"SELECT SUM("b") FILTER (WHERE "a" = ?) FROM "t""#)
            #expect(try Int.fetchOne(db, Table("t").select(sum(Columns.b, filter: Columns.a == 1))) == 3)
            #expect(try Double.fetchOne(db, Table("t").select(total(Columns.b, filter: Columns.a == 2))) == 0)
            #expect(try Int?.fetchOne(db, Table("t").select(sum(Columns.b, filter: Columns.a == 2))) == .some(nil))
            #expect(try Double.fetchOne(db, Table("t").select(average(Columns.b, filter: Columns.a == 1))) == 1.5)
            #expect(try Int.fetchOne(db, Table("t").select(min(Columns.b, filter: Columns.flags > 0))) == 1)
            #expect(try Int.fetchOne(db, Table("t").select(max(Columns.b, filter: Columns.flags > 0))) == 2)
            // An operand: parenthesized.
            #expect(try Int.fetchOne(db, Table("t").select(max(Columns.b, filter: Columns.flags > 0) + 1)) == 3)
        }
    }

    @Test func scalarMinAndMax() throws {
        try dbQueue.read { db throws in
            let request = Table("t").select(max(Columns.b, Columns.a, 2), min(Columns.b, 2)).filter(key: 3)
            let sql = try request.makePreparedRequest(db, forSingleResult: false).statement.sql
            #expect(sql == #"SELECT MAX("b", "a", ?), MIN("b", ?) FROM "t" WHERE "id" = ?"#)
            let row = try #require(try Row.fetchOne(db, Table("t").select(max(Columns.b, 2, 1), min(Columns.b, 2)).filter(key: 3)))
            #expect(row[0] == 3.databaseValue && row[1] == 2.databaseValue)
        }
        // Swift's functions are untouched.
        #expect(min(3, 2) == 2 && max(1, 2, 3) == 3)
    }

    @Test func dateModifiersAreExpressions() throws {
        try dbQueue.read { db throws in
            let literal: SQL = "SELECT DATETIME(\("2020-01-01 10:00:00"), \(SQLDateModifier.day(1)), \(SQLDateModifier.startOfDay))"
            #expect(try String.fetchOne(db, SQLRequest(literal: literal)) == "2020-01-02 00:00:00")
            #expect(try String.fetchOne(db, Table("t").select(SQLDateModifier.hour(-2)).limit(1)) == "-2 hours")
        }
    }

    @Test func optionalSelectionsAndOrderings() throws {
        try dbQueue.read { db throws in
            let some: Column? = Column("name")
            let none: Column? = nil
            let sql = try Table("t").select(some, none).order(none, some)
                .makePreparedRequest(db, forSingleResult: false).statement.sql
            #expect(sql == #"SELECT "name", NULL FROM "t" ORDER BY NULL, "name""#)
        }
    }
}
