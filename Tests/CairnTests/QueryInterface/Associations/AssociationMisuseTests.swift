import Foundation
import Testing
import Cairn

/// Requests that misuse associations throw clear errors, and the default
/// names that come from English inflections.
@Suite struct AssociationMisuseTests {
    struct Person: Codable, FetchableRecord, PersistableRecord {
        static let houses = hasMany(House.self)
        static let movies = hasMany(Movie.self)
        var id: Int64
        var name: String
    }

    struct House: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var personId: Int64
    }

    struct Movie: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var personId: Int64
    }

    struct Book: TableRecord {
        // Both keys default to "person".
        static let author = belongsTo(Person.self, using: ForeignKey(["authorId"]))
        static let translator = belongsTo(Person.self, using: ForeignKey(["translatorId"]))
    }

    func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "person") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            try db.create(table: "house") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("person").notNull()
            }
            try db.create(table: "movie") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("person").notNull()
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("authorId", .integer)
                t.column("translatorId", .integer)
            }
            try Person(id: 1, name: "Arthur").insert(db)
            try House(id: 1, personId: 1).insert(db)
            try House(id: 2, personId: 1).insert(db)
            try Movie(id: 1, personId: 1).insert(db)
        }
        return dbQueue
    }

    @Test func defaultNamesFollowEnglish() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws -> Void in
            let row = try Row.fetchOne(db, Person.annotated(with: Person.houses.count, Person.movies.count))!
            #expect(row.columnNames == ["id", "name", "houseCount", "movieCount"])
            #expect(row["houseCount"] == 2)
            let prefetched = try Row.fetchOne(db, Person.including(all: Person.houses).including(all: Person.movies))!
            #expect(prefetched.prefetchedRows.keys == ["houses", "movies"])
        }
    }

    @Test func oneKeyForTwoJoinsThrows() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws -> Void in
            #expect {
                try Row.fetchAll(db, Book.including(required: Book.author).including(optional: Book.translator))
            } throws: { error in
                let message = "\(error)"
                return message.contains(#"the association key "person" is used by two associations"#)
                    && message.contains("forKey")
            }
            // Distinct keys work.
            let request = Book
                .including(required: Book.author.forKey("author"))
                .including(optional: Book.translator.forKey("translator"))
            #expect(try Row.fetchAll(db, request).isEmpty)
        }
    }

    @Test func subqueriesAreNotQualifiedByTheJoinedRequest() throws {
        struct HouseRecord: TableRecord {
            static let databaseTableName = "house"
            static let person = belongsTo(Person.self)
        }
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws -> Void in
            let movieOwners = SQLRequest<Int64>(literal: "SELECT \(Column("personId")) FROM movie")
            let request = HouseRecord
                .joining(required: HouseRecord.person)
                .filter(movieOwners.contains(Column("personId")))
            let sql = try request.makePreparedRequest(db, forSingleResult: false).statement.sql
            #expect(sql == """
                SELECT "house".* FROM "house" JOIN "person" ON "person"."id" = "house"."personId" \
                WHERE "house"."personId" IN (SELECT "personId" FROM movie)
                """)
            #expect(try Row.fetchAll(db, request).count == 2)
        }
    }

    @Test func tableAliases() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws -> Void in
            // Aliases merged both ways do not loop.
            let a = TableAlias(), b = TableAlias()
            _ = try Row.fetchAll(db, Person.aliased(a).aliased(b))
            let request = Person.aliased(b).aliased(a).filter(a[Column("id")] == 1)
            #expect(try Row.fetchAll(db, request).count == 1)
            // One alias for two tables of a request.
            let shared = TableAlias()
            let twoTables = Book
                .including(required: Book.author.forKey("author").aliased(shared))
                .including(optional: Book.translator.forKey("translator").aliased(shared))
            #expect {
                try Row.fetchAll(db, twoTables)
            } throws: { error in
                "\(error)".contains("a TableAlias names two tables of the request")
            }
        }
    }

    @Test func missingColumnOfSingleValueStillThrows() throws {
        enum Mood: String, Decodable { case happy }
        struct Record: Decodable, FetchableRecord {
            var id: Int64
            var mood: Mood
        }
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws -> Void in
            #expect {
                try Record.fetchAll(db, sql: "SELECT id, name FROM person")
            } throws: { error in
                guard let error = error as? RowDecodingError, case .keyNotFound(let key, _) = error else { return false }
                return key == .columnName("mood")
            }
        }
    }
}
