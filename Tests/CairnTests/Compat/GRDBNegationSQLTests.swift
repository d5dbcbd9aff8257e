import Foundation
import Testing
import Cairn

/// The SQL of negated expressions is GRDB's: the negation of an operator
/// with an opposite is that operator, and `NOT` wraps the others.
@Suite struct GRDBNegationSQLTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE t (id INTEGER PRIMARY KEY, a INT, b INT, name TEXT);
                INSERT INTO t VALUES (1, 1, 2, 'Arthur'), (2, NULL, 3, 'barbara'), (3, 3, 3, NULL);
                """)
        }
    }

    func whereClause(_ predicate: some SQLExpressible) throws -> String {
        try dbQueue.read { db throws in
            let sql = try Table("t").filter(predicate).makePreparedRequest(db, forSingleResult: false).statement.sql
            return String(sql.dropFirst(#"SELECT * FROM "t" WHERE "#.count))
        }
    }

    /// The ids that a predicate and its negation select: a negation never
    /// changes which rows match, only how the SQL says it.
    func ids(_ predicate: some SQLExpressible) throws -> [Int64] {
        try dbQueue.read { db in
            try Int64.fetchAll(db, Table("t").select(Column("id")).filter(predicate).order(Column("id")))
        }
    }

    @Test func comparisonsNegateToTheirOpposite() throws {
        #expect(try whereClause(!(Column("a") == 1)) == #""a" <> ?"#)
        #expect(try whereClause(!(Column("a") != 1)) == #""a" = ?"#)
        #expect(try whereClause(!(Column("a") == nil)) == #""a" IS NOT NULL"#)
        #expect(try whereClause(!(Column("a") != nil)) == #""a" IS NULL"#)
        #expect(try whereClause(!(Column("a") != (nil as Int?))) == #""a" IS NULL"#)
        #expect(try whereClause(!(Column("a") != DatabaseValue.null)) == #""a" IS NULL"#)
        #expect(try whereClause(!(Column("a") === 1)) == #""a" IS NOT ?"#)
        #expect(try whereClause(!(Column("a") !== 1)) == #""a" IS ?"#)
        #expect(try ids(!(Column("a") == 1)) == [3])
        #expect(try ids(!(Column("a") != nil)) == [2])
    }

    @Test func likeInBetweenAndExistsNegateToTheirOpposite() throws {
        #expect(try whereClause(!Column("name").like("a%")) == #""name" NOT LIKE ?"#)
        #expect(try whereClause(!(!Column("name").like("a%"))) == #""name" LIKE ?"#)
        #expect(try whereClause(!([1, 2].contains(Column("a")))) == #""a" NOT IN (?, ?)"#)
        #expect(try whereClause(!((1...3).contains(Column("a")))) == #""a" NOT BETWEEN ? AND ?"#)
        let others = Table("t").filter(Column("b") > 2)
        #expect(try whereClause(others.exists()) == #"EXISTS (SELECT * FROM "t" WHERE "b" > ?)"#)
        #expect(try whereClause(!others.exists()) == #"NOT EXISTS (SELECT * FROM "t" WHERE "b" > ?)"#)
        #expect(try whereClause(!(!others.exists())) == #"EXISTS (SELECT * FROM "t" WHERE "b" > ?)"#)
        #expect(try whereClause(others.exists() && Column("a") == 1)
            == #"(EXISTS (SELECT * FROM "t" WHERE "b" > ?)) AND ("a" = ?)"#)
        #expect(try ids(!Column("name").like("a%")) == [2])
        #expect(try ids(!Table("t").filter(Column("b") > 5).exists()) == [1, 2, 3])
    }

    @Test func otherExpressionsAreWrappedInNot() throws {
        #expect(try whereClause(!Column("a")) == #"NOT "a""#)
        #expect(try whereClause(!(Column("a") > 1)) == #"NOT ("a" > ?)"#)
        #expect(try whereClause(!(Column("a") == 1 && Column("b") == 2)) == #"NOT (("a" = ?) AND ("b" = ?))"#)
        // A double negation stays: it turns any value into 0 or 1.
        #expect(try whereClause(!(!Column("a"))) == #"NOT (NOT "a")"#)
    }

    @Test func collatedComparisonsKeepTheirCollation() throws {
        let comparison = (Column("name") == "arthur").collating(.nocase)
        #expect(try whereClause(comparison) == #""name" = ? COLLATE NOCASE"#)
        #expect(try whereClause(!comparison) == #""name" <> ? COLLATE NOCASE"#)
        #expect(try ids(!comparison) == [2])
    }

    @Test func booleanConstantsNegateToTheOtherConstant() throws {
        try dbQueue.read { db throws in
            #expect(try Bool.fetchOne(db, Table("t").select(!true.databaseValue).limit(1)) == false)
            #expect(try Bool.fetchOne(db, Table("t").select(!0.databaseValue).limit(1)) == true)
        }
        #expect(try whereClause(!DatabaseValue.null) == "NULL")
        #expect(try whereClause(!2.databaseValue) == "NOT ?")
    }
}
