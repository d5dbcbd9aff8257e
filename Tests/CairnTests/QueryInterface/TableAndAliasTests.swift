import Foundation
import Testing
import Cairn

private struct Writer: Codable, FetchableRecord, PersistableRecord, Identifiable {
    static let databaseTableName = "writer"
    var id: Int64
    var name: String

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
    }
}

/// Table's requests and associations, table aliases, type-erased requests,
/// and the errors of records not found.
@Suite struct TableAndAliasTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE writer (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE novel (id INTEGER PRIMARY KEY, writerId INTEGER REFERENCES writer(id), title TEXT NOT NULL);
                CREATE TABLE tag (code TEXT PRIMARY KEY, label TEXT) WITHOUT ROWID;
                INSERT INTO writer VALUES (1, 'Herman'), (2, 'Jules'), (3, 'Virginia');
                INSERT INTO novel VALUES (1, 1, 'Moby-Dick'), (2, 2, 'Michel Strogoff'), (3, 2, 'Vingt mille lieues'), (4, NULL, 'Anonymous');
                INSERT INTO tag VALUES ('a', 'A');
                """)
        }
    }

    func sql(_ request: some FetchRequest) throws -> String {
        try dbQueue.read { db in try request.makePreparedRequest(db, forSingleResult: false).statement.sql }
    }

    @Test func tablesDeclareAssociationsAndJoinThem() throws {
        let writers = Table("writer")
        let novels = Table("novel")
        let novelWriter = novels.belongsTo(writers)
        let writerNovels = writers.hasMany(novels)
        let firstNovel = writers.hasOne(novels, key: "firstNovel")

        let joined = try dbQueue.read { db in
            try novels.including(required: novelWriter).order(Column("id")).fetchAll(db)
        }
        #expect(joined.map { $0.scopes["writer"]?["name"] as String? } == ["Herman", "Jules", "Jules"])

        let optional = try dbQueue.read { db in try novels.including(optional: novelWriter).fetchCount(db) }
        #expect(optional == 4)
        let withNovels = try dbQueue.read { db in try writers.joining(required: writerNovels).distinct().fetchCount(db) }
        #expect(withNovels == 2)
        let withoutNovels = try dbQueue.read { db in
            try writers.joining(optional: writerNovels.forKey("n")).filter(sql: "novel.id IS NULL").fetchAll(db)
        }
        #expect(withoutNovels.map { $0["name"] as String } == ["Virginia"])
        let counts = try dbQueue.read { db in
            try writers.annotated(with: writerNovels.count).orderByPrimaryKey().fetchAll(db)
        }
        #expect(counts.map { $0["novelCount"] as Int } == [1, 2, 0])
        let prefetched = try dbQueue.read { db in
            try writers.including(all: writerNovels).orderByPrimaryKey().fetchAll(db)
        }
        #expect(prefetched.map { $0.prefetchedRows["novels"]?.count } == [1, 2, 0])
        let annotated = try dbQueue.read { db in
            try novels.annotated(withRequired: novelWriter.select(Column("name").forKey("writerName")))
                .order(literal: "novel.id").fetchAll(db)
        }
        #expect(annotated.map { $0["writerName"] as String } == ["Herman", "Jules", "Jules"])
        // Jules has two novels: a has-one association to them joins both.
        #expect(try dbQueue.read { db in try writers.including(optional: firstNovel).fetchCount(db) } == 4)
        let lazy = try dbQueue.read { db in try writers.having(writerNovels.isEmpty).fetchAll(db) }
        #expect(lazy.map { $0["name"] as String } == ["Virginia"])

        // From a table to a record type, and through a pivot.
        let typedWriter = novels.belongsTo(Writer.self)
        #expect(try dbQueue.read { db in try novels.joining(required: typedWriter).fetchCount(db) } == 3)
        let tags = Table("tag")
        let novelTags = novels.hasMany(tags, using: ForeignKey(["code"], to: ["title"]))
        let writerTags = writers.hasMany(Row.self, through: writerNovels, using: novelTags)
        #expect(try dbQueue.read { db in try writers.including(all: writerTags).fetchCount(db) } == 3)
        _ = writers.hasOne(Row.self, through: firstNovel, using: novels.belongsTo(writers))
    }

    @Test func tablesSelectAndSort() throws {
        let writers = Table("writer")
        #expect(try sql(writers.select(literal: "name")) == #"SELECT name FROM "writer""#)
        #expect(try dbQueue.read { db in try writers.select(literal: "MAX(id)", as: Int.self).fetchOne(db) } == 3)
        #expect(try dbQueue.read { db in try writers.select(sql: "name", as: String.self).order(Column("id")).fetchAll(db) }
                == ["Herman", "Jules", "Virginia"])
        #expect(try dbQueue.read { db in try writers.selectPrimaryKey(as: Int64.self).fetchAll(db) } == [1, 2, 3])
        #expect(try dbQueue.read { db in try Table<Writer>("writer").selectID().fetchAll(db) } == [1, 2, 3])
        #expect(try sql(writers.orderByPrimaryKey()) == #"SELECT * FROM "writer" ORDER BY "id""#)
        #expect(try sql(writers.order(literal: "name DESC")) == #"SELECT * FROM "writer" ORDER BY name DESC"#)
    }

    @Test func tableUpdatesWithComponents() throws {
        let table = Table<Writer>("writer")
        let count = try dbQueue.write { db in
            try table.updateAll(db) { $0.name.set(to: "x") }
        }
        #expect(count == 3)
        let names = try dbQueue.write { db in
            try table.updateAll(db, assignments: { [$0.name.set(to: "y")] })
            return try String.fetchAll(db, sql: "SELECT name FROM writer")
        }
        #expect(names == ["y", "y", "y"])
    }

    @Test func aliasesQualifyExpressionsOrderingsAndSelections() throws {
        let alias = TableAlias(name: "w")
        let request = Writer.aliased(alias)
            .select(alias[Column("name")], alias[Column("id") + 1].forKey("next"), alias["id"])
            .filter(alias[Column("id") > 1])
            .order(alias[Column("name").desc])
        #expect(try sql(request)
            == #"SELECT "w"."name", "w"."id" + ? AS "next", "w"."id" FROM "writer" "w" WHERE "w"."id" > ? ORDER BY "w"."name" DESC"#)
        let rows = try dbQueue.read { db in try Row.fetchAll(db, request) }
        #expect(rows.map { $0["next"] as Int } == [4, 3])
        #expect(try sql(Writer.aliased(alias).select(alias[AllColumns()])) == #"SELECT "w".* FROM "writer" "w""#)

        // Typed aliases: dynamic members from the record's components.
        let typed = TableAlias(for: Writer.self)
        let novels = Table("novel")
        let writer = novels.belongsTo(Writer.self)
        let named = try dbQueue.read { db in
            try novels.joining(required: writer.aliased(typed)).filter(typed.name == "Jules").fetchCount(db)
        }
        #expect(named == 2)
    }

    @Test func aliasExistsTellsWhetherAnOptionalJoinFoundARow() throws {
        let novels = Table("novel")
        let writer = novels.belongsTo(Writer.self)
        let alias = TableAlias<Writer>()
        let request = novels.joining(optional: writer.aliased(alias)).filter(!alias.exists)
        #expect(try dbQueue.read { db in try request.fetchAll(db).map { $0["title"] as String } } == ["Anonymous"])
        // A table without rowid: its primary key columns.
        let tagAlias = TableAlias(name: "t")
        let tags = Table("tag").aliased(tagAlias).filter(tagAlias.exists)
        let tagsSQL = try sql(tags)
        #expect(tagsSQL == #"SELECT "t".* FROM "tag" "t" WHERE "t"."code" IS NOT NULL"#)
        // An alias used by no request cannot tell.
        let unused = TableAlias<Writer>()
        #expect(throws: DatabaseError.self) {
            try dbQueue.read { db in try Writer.filter(unused.exists).fetchAll(db) }
        }
    }

    @Test func aliasesAreEqualWhenTheyNameTheSameTable() {
        let a = TableAlias(), b = TableAlias()
        #expect(a == a)
        #expect(a != b)
        #expect(Set<TableAliasBase>([a, a, b]).count == 2)
        // Two aliases given to the same table of a request merge.
        _ = Writer.aliased(a).aliased(b)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
    }

    @Test func typeErasedRequests() throws {
        func request(best: Bool) -> AnyFetchRequest<Writer> {
            best ? AnyFetchRequest(Writer.filter(id: 2)) : AnyFetchRequest(SQLRequest<Writer>(sql: "SELECT * FROM writer"))
        }
        #expect(try dbQueue.read { db in try request(best: true).fetchAll(db).map(\.name) } == ["Jules"])
        #expect(try dbQueue.read { db in try request(best: false).fetchCount(db) } == 3)
        #expect(try dbQueue.read { db in try request(best: true).asRequest(of: Row.self).fetchOne(db)?["name"] as String? } == "Jules")
        #expect(try dbQueue.read { db in try request(best: true).databaseRegion(db).tableNames } == ["writer"])
        // As a subquery.
        let names = try dbQueue.read { db in
            try String.fetchAll(db, Writer.select(Column("name")).filter(Column("id") == AnyFetchRequest(Writer.select(max(Column("id"))))))
        }
        #expect(names == ["Virginia"])
    }

    @Test func recordNotFoundErrors() throws {
        try dbQueue.read { db in
            let byKey = Writer.recordNotFound(db, key: 42)
            #expect("\(byKey)" == "Key not found in table writer: [id:42]")
            let byID = Writer.recordNotFound(db, id: 43)
            #expect("\(byID)" == "Key not found in table writer: [id:43]")
            #expect("\(Writer.recordNotFound(key: ["name": "Bob"]))" == "Key not found in table writer: [name:\"Bob\"]")
            let record = Writer(id: 7, name: "Nobody")
            #expect("\(record.recordNotFound(db))" == "Key not found in table writer: [id:7]")
            // A table that does not exist: the error of the schema.
            struct Ghost: TableRecord { }
            #expect(Ghost.recordNotFound(db, key: 1) is DatabaseError)
        }
    }
}
