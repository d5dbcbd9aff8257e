import Foundation
import Testing
import Cairn

private struct Hero: Codable, FetchableRecord, PersistableRecord, Identifiable {
    var id: Int64
    var name: String
    var score: Int
    var teamId: Int64?

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let score = Column("score")
        static let teamId = Column("teamId")
    }

    static let team = belongsTo(Squad.self, using: ForeignKey(["teamId"]))
}

private struct Squad: Codable, FetchableRecord, PersistableRecord, Identifiable {
    var id: Int64
    var name: String

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
    }

    static let heroes = hasMany(Hero.self, using: ForeignKey(["teamId"]))
}

// Refinements written once, in generic code, as apps write them.

extension FilteredRequest where Self: TypedRequest<Hero> {
    fileprivate func highScores() -> Self { filter { $0.score >= 100 } }
}

extension OrderedRequest where Self: TypedRequest<Hero> {
    fileprivate func bestFirst() -> Self { order { $0.score.desc } }
}

extension DerivableRequest<Hero> {
    fileprivate func named(_ name: String) -> Self { filter { $0.name == name } }
}

extension SelectionRequest {
    fileprivate func selectingOne() -> Self { select(SQL("1").forKey("one")) }
}

extension FilteredRequest {
    /// Untyped: applies to any filtered request.
    fileprivate func excludingNothing() -> Self { filter(true.databaseValue) }
}

extension TableRequest where Self: FilteredRequest & TypedRequest<Hero> {
    fileprivate func hero(_ id: Int64) -> Self { filter(id: id) }
}

extension AggregatingRequest where Self: TypedRequest<Hero> {
    fileprivate func groupedByTeam() -> Self { group { $0.teamId } }
}

extension JoinableRequest where RowDecoder == Hero {
    fileprivate func withTeam() -> Self { including(optional: Hero.team) }
}

/// A function generic over the protocol, not an extension.
private func namesOfTable(_ request: some TableRequest) -> String {
    request.databaseTableName
}

@Suite struct RequestProtocolsTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE squad (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE hero (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL,
                                   teamId INTEGER REFERENCES squad(id));
                INSERT INTO squad VALUES (1, 'Red'), (2, 'Blue');
                INSERT INTO hero VALUES (1, 'Arthur', 150, 1), (2, 'Barbara', 80, 1), (3, 'Craig', 120, 2), (4, 'Diane', 30, NULL);
                """)
        }
    }

    func sql(_ request: some FetchRequest) throws -> String {
        try dbQueue.read { db in try request.makePreparedRequest(db, forSingleResult: false).statement.sql }
    }

    @Test func genericRefinementsApplyToRequests() throws {
        let request = Hero.all().highScores().bestFirst()
        #expect(try sql(request) == #"SELECT * FROM "hero" WHERE "score" >= ? ORDER BY "score" DESC"#)
        #expect(try dbQueue.read { db in try request.fetchAll(db).map(\.name) } == ["Arthur", "Craig"])
        #expect(try dbQueue.read { db in try Hero.all().named("Craig").fetchOne(db)?.id } == 3)
        #expect(try dbQueue.read { db in try Hero.all().hero(2).fetchOne(db)?.name } == "Barbara")
        #expect(try dbQueue.read { db in try Hero.all().excludingNothing().fetchCount(db) } == 4)
        #expect(try dbQueue.read { db in try Row.fetchOne(db, Hero.all().selectingOne())?["one"] as Int? } == 1)
        #expect(try sql(Hero.all().groupedByTeam()) == #"SELECT * FROM "hero" GROUP BY "teamId""#)
        #expect(namesOfTable(Hero.all()) == "hero")
    }

    @Test func genericRefinementsApplyToAssociations() throws {
        // The refinements of the association apply to the joined heroes.
        let request = Squad
            .joining(required: Squad.heroes.highScores().named("Craig"))
            .order(Column("id"))
        #expect(try dbQueue.read { db in try request.fetchAll(db).map(\.name) } == ["Blue"])
        #expect(namesOfTable(Squad.heroes) == "hero")
        #expect(Squad.heroes.databaseTableName == "hero")

        let heroes = try dbQueue.read { db in
            try Hero.all().withTeam().order(Column("id")).asRequest(of: Row.self).fetchAll(db)
        }
        #expect(heroes.map { $0.scopes["squad"]?["name"] as String? } == ["Red", "Red", "Blue", nil])
    }

    @Test func whenConnectedRefinementsAskTheDatabase() throws {
        // The columns are known when the request runs.
        let request = Hero.all()
            .selectWhenConnected { db in
                try db.columns(in: "hero").filter { $0.name != "teamId" }.map { Column($0.name) }
            }
            .annotatedWhenConnected { _ in [(Column("score") * 2).forKey("double")] }
            .filterWhenConnected { db in
                Column("score") > (try Int.fetchOne(db, sql: "SELECT AVG(score) FROM hero") ?? 0)
            }
            .orderWhenConnected { _ in [Column("name").desc] }
        #expect(try sql(request) == #"SELECT "id", "name", "score", "score" * ? AS "double" FROM "hero" WHERE "score" > ? ORDER BY "name" DESC"#)
        let rows = try dbQueue.read { db in try Row.fetchAll(db, request) }
        #expect(rows.map { $0["name"] as String } == ["Craig", "Arthur"])
        #expect(rows.map { $0["double"] as Int } == [240, 300])
        #expect(rows.allSatisfy { !$0.hasColumn("teamId") })

        // Reversed, the deferred ordering is reversed too.
        #expect(try dbQueue.read { db in try request.reversed().fetchAll(db).map(\.name) } == ["Arthur", "Craig"])

        let grouped = Hero.all()
            .select(Column("teamId"), count(Column("id")).forKey("count"))
            .groupWhenConnected { _ in [Column("teamId")] }
            .havingWhenConnected { _ in count(Column("id")) > 1 }
        #expect(try sql(grouped) == #"SELECT "teamId", COUNT("id") AS "count" FROM "hero" GROUP BY "teamId" HAVING COUNT("id") > ?"#)
        #expect(try dbQueue.read { db in try Row.fetchAll(db, grouped).map { $0["teamId"] as Int64? } } == [1])
    }

    @Test func errorsOfWhenConnectedClosuresAreThrownByTheFetch() throws {
        struct Failure: Error { }
        let request = Hero.all().filterWhenConnected { _ -> any SQLExpressible in throw Failure() }
        #expect(throws: Failure.self) {
            try dbQueue.read { db in try request.fetchAll(db) }
        }
        let selection = Hero.all().selectWhenConnected { _ -> [any SQLSelectable] in throw Failure() }
        #expect(throws: Failure.self) {
            try dbQueue.read { db in try Row.fetchAll(db, selection) }
        }
    }

    /// A deferred selection in an included association counts its
    /// columns, so that the scopes of the rows are right.
    @Test func deferredSelectionOfAnIncludedAssociation() throws {
        let request = Hero
            .including(required: Hero.team.selectWhenConnected { _ in [Column("name")] })
            .order(Column("id"))
        let rows = try dbQueue.read { db in try Row.fetchAll(db, request) }
        #expect(rows.map { $0.scopes["squad"]?["name"] as String? } == ["Red", "Red", "Blue"])
        #expect(rows.map { $0["name"] as String } == ["Arthur", "Barbara", "Craig"])
    }

    @Test func databaseComponentsAreTheColumnsByDefault() throws {
        #expect(Hero.databaseComponents.score.name == "score")
        let request = Hero.filter { $0.score < 100 }.order(\.name)
        #expect(try dbQueue.read { db in try request.fetchAll(db).map(\.name) } == ["Barbara", "Diane"])
        // Closures may throw: the refinement rethrows.
        struct Failure: Error { }
        #expect(throws: Failure.self) {
            _ = try Hero.all().filter { _ -> Column in throw Failure() }
        }
        // Assignments built from the components.
        let updated = try dbQueue.write { db in
            try Hero.filter(id: 4).updateAll(db) { $0.score += 1 }
        }
        #expect(updated == 1)
        #expect(try dbQueue.read { db in try Hero.find(db, id: 4).score } == 31)
    }
}
