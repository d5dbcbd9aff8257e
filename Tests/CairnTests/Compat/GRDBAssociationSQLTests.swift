import Foundation
import Testing
import Cairn

/// Association requests run the SQL GRDB 7.8 runs: ordered to-many
/// associations (direct and through a pivot) for `request(for:)` and for
/// prefetching, table aliases (automatic, user-defined, conflicting,
/// recursive), and association aggregates in selections and HAVING clauses.
/// Counts use the INTEGER PRIMARY KEY of the counted table when it has one,
/// its rowid otherwise, as GRDB 7 does (older GRDB counted rowids always).
@Suite struct GRDBAssociationSQLTests {

    // MARK: - Ordered has-many

    struct Crew: Codable, FetchableRecord, PersistableRecord, Equatable {
        static let sailors = hasMany(Sailor.self).order(Column("rank"))
        var id: Int64
        var title: String
    }
    struct Sailor: Codable, FetchableRecord, PersistableRecord, Equatable {
        var id: Int64
        var crewId: Int64
        var title: String
        var rank: Int
    }
    struct CrewRoster: Decodable, FetchableRecord, Equatable {
        var crew: Crew
        var sailors: [Sailor]
    }

    func makeCrewRecorder() throws -> GRDBSQLRecorder {
        let recorder = try GRDBSQLRecorder(schema: """
            CREATE TABLE crew (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
            CREATE TABLE sailor (id INTEGER PRIMARY KEY, crewId INTEGER NOT NULL REFERENCES crew, \
            title TEXT NOT NULL, rank INTEGER NOT NULL);
            INSERT INTO crew VALUES (1, 'North'), (2, 'South');
            INSERT INTO sailor VALUES (1, 1, 'Ann', 1), (2, 1, 'Bob', 2), (3, 1, 'Cid', 3),
                (4, 2, 'Dee', 3), (5, 2, 'Eve', 2), (6, 2, 'Fay', 1);
            """)
        return recorder
    }

    @Test func orderedHasManyRequestFor() throws {
        let recorder = try makeCrewRecorder()
        let south = Crew(id: 2, title: "South")
        #expect(try recorder.sql(of: south.request(for: Crew.sailors))
            == #"SELECT * FROM "sailor" WHERE "crewId" = 2 ORDER BY "rank""#)
        let sailors = try recorder.dbQueue.read { try south.request(for: Crew.sailors).fetchAll($0) }
        #expect(sailors.map(\.id) == [6, 5, 4])
    }

    @Test func orderedHasManyRequestForReordered() throws {
        let recorder = try makeCrewRecorder()
        let south = Crew(id: 2, title: "South")
        let request = south.request(for: Crew.sailors).order(Column("title"))
        #expect(try recorder.sql(of: request)
            == #"SELECT * FROM "sailor" WHERE "crewId" = 2 ORDER BY "title""#)
        #expect(try recorder.dbQueue.read { try request.fetchAll($0) }.map(\.id) == [4, 5, 6])
    }

    /// The statements that fetching `request` runs, and the fetched values.
    func statementsAndValues<T: FetchableRecord>(
        _ recorder: GRDBSQLRecorder, _ request: QueryInterfaceRequest<T>) throws -> ([String], [T])
    {
        var values: [T] = []
        let statements = try recorder.sql { db in values = try request.fetchAll(db) }
        return (statements, values)
    }

    @Test func orderedHasManyPrefetch() throws {
        let recorder = try makeCrewRecorder()
        let crews = Crew.orderByPrimaryKey()
        let (statements, rosters) = try statementsAndValues(
            recorder, crews.including(all: Crew.sailors).asRequest(of: CrewRoster.self))
        #expect(statements == [
            #"SELECT * FROM "crew" ORDER BY "id""#,
            #"SELECT *, "crewId" AS "grdb_crewId" FROM "sailor" WHERE "crewId" IN (1, 2) ORDER BY "rank""#,
        ])
        #expect(rosters.map { $0.sailors.map(\.id) } == [[1, 2, 3], [6, 5, 4]])

        let (reorderedStatements, reordered) = try statementsAndValues(
            recorder, crews.including(all: Crew.sailors.order(Column("title"))).asRequest(of: CrewRoster.self))
        #expect(reorderedStatements.last
            == #"SELECT *, "crewId" AS "grdb_crewId" FROM "sailor" WHERE "crewId" IN (1, 2) ORDER BY "title""#)
        #expect(reordered.map { $0.sailors.map(\.id) } == [[1, 2, 3], [4, 5, 6]])
    }

    // MARK: - Ordered has-many through a pivot

    struct Band: Codable, FetchableRecord, PersistableRecord, Equatable {
        static let seats = hasMany(Seat.self).order(Column("rank"))
        static let musicians = hasMany(Musician.self, through: seats, using: Seat.musician)
        var id: Int64
        var title: String
    }
    struct Seat: Codable, FetchableRecord, PersistableRecord {
        static let musician = belongsTo(Musician.self)
        var bandId: Int64
        var musicianId: Int64
        var rank: Int
    }
    struct Musician: Codable, FetchableRecord, PersistableRecord, Equatable {
        var id: Int64
        var title: String
    }
    struct BandLineup: Decodable, FetchableRecord {
        var band: Band
        var musicians: [Musician]
    }

    func makeBandRecorder() throws -> GRDBSQLRecorder {
        try GRDBSQLRecorder(schema: """
            CREATE TABLE band (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
            CREATE TABLE musician (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
            CREATE TABLE seat (bandId INTEGER NOT NULL REFERENCES band, \
            musicianId INTEGER NOT NULL REFERENCES musician, rank INTEGER NOT NULL, \
            PRIMARY KEY (bandId, musicianId));
            INSERT INTO band VALUES (1, 'Loud'), (2, 'Soft');
            INSERT INTO musician VALUES (1, 'Ann'), (2, 'Bob'), (3, 'Cid'), (4, 'Dee');
            INSERT INTO seat VALUES (1, 1, 1), (1, 2, 2), (1, 3, 3), (2, 2, 3), (2, 3, 2), (2, 4, 1);
            """)
    }

    @Test func orderedHasManyThroughRequestFor() throws {
        let recorder = try makeBandRecorder()
        let soft = Band(id: 2, title: "Soft")
        let request = soft.request(for: Band.musicians)
        #expect(try recorder.sql(of: request) == """
            SELECT "musician".* FROM "musician" \
            JOIN "seat" ON ("seat"."musicianId" = "musician"."id") AND ("seat"."bandId" = 2) \
            ORDER BY "seat"."rank"
            """)
        #expect(try recorder.dbQueue.read { try request.fetchAll($0) }.map(\.id) == [4, 3, 2])
    }

    @Test func orderedHasManyThroughRequestForReordered() throws {
        let recorder = try makeBandRecorder()
        let soft = Band(id: 2, title: "Soft")
        let request = soft.request(for: Band.musicians).order(Column("title"))
        #expect(try recorder.sql(of: request) == """
            SELECT "musician".* FROM "musician" \
            JOIN "seat" ON ("seat"."musicianId" = "musician"."id") AND ("seat"."bandId" = 2) \
            ORDER BY "musician"."title", "seat"."rank"
            """)
        #expect(try recorder.dbQueue.read { try request.fetchAll($0) }.map(\.id) == [2, 3, 4])
    }

    @Test func orderedHasManyThroughPrefetch() throws {
        let recorder = try makeBandRecorder()
        let bands = Band.orderByPrimaryKey()
        let (statements, lineups) = try statementsAndValues(
            recorder, bands.including(all: Band.musicians).asRequest(of: BandLineup.self))
        #expect(statements == [
            #"SELECT * FROM "band" ORDER BY "id""#,
            """
            SELECT "musician".*, "seat"."bandId" AS "grdb_bandId" FROM "musician" \
            JOIN "seat" ON ("seat"."musicianId" = "musician"."id") AND ("seat"."bandId" IN (1, 2)) \
            ORDER BY "seat"."rank"
            """,
        ])
        #expect(lineups.map { $0.musicians.map(\.id) } == [[1, 2, 3], [4, 3, 2]])

        let (reorderedStatements, reordered) = try statementsAndValues(
            recorder, bands.including(all: Band.musicians.order(Column("title"))).asRequest(of: BandLineup.self))
        #expect(reorderedStatements.last == """
            SELECT "musician".*, "seat"."bandId" AS "grdb_bandId" FROM "musician" \
            JOIN "seat" ON ("seat"."musicianId" = "musician"."id") AND ("seat"."bandId" IN (1, 2)) \
            ORDER BY "musician"."title", "seat"."rank"
            """)
        #expect(reordered.map { $0.musicians.map(\.id) } == [[1, 2, 3], [2, 3, 4]])
    }

    // MARK: - Table aliases

    /// A node has a parent node, and two links to tags.
    struct Node: TableRecord {
        static let databaseTableName = "node"
        static let parent = belongsTo(Node.self)
        static let child = hasOne(Node.self)
        static let mainTag = belongsTo(Tag.self, key: "mainTag", using: ForeignKey(["mainTagId"]))
        static let sideTag = belongsTo(Tag.self, key: "sideTag", using: ForeignKey(["sideTagId"]))
    }
    struct Tag: TableRecord {
        static let databaseTableName = "tag"
        static let mainNode = hasOne(Node.self, key: "mainNode", using: ForeignKey(["mainTagId"]))
        static let sideNode = hasOne(Node.self, key: "sideNode", using: ForeignKey(["sideTagId"]))
    }

    func makeNodeRecorder() throws -> GRDBSQLRecorder {
        try GRDBSQLRecorder(schema: """
            CREATE TABLE tag (id INTEGER PRIMARY KEY);
            CREATE TABLE node (id INTEGER PRIMARY KEY, mainTagId INTEGER REFERENCES tag, \
            sideTagId INTEGER REFERENCES tag, parentId INTEGER REFERENCES node, label TEXT);
            """)
    }

    /// The SQL of one request on a single table, aliased before, then after,
    /// its other clauses.
    func singleTableSQL(_ recorder: GRDBSQLRecorder, alias: TableAlias<Void>) throws -> [String?] {
        let label = Column("label")
        let condition = label != nil && alias[label] == "foo"
        let aliasedFirst = Node.aliased(alias).select(label).filter(key: 1).filter(condition)
            .group(label).having(label).order(label)
        let aliasedLast = Node.select(label).filter(key: 1).filter(condition)
            .group(label).having(label).order(label).aliased(alias)
        return try [recorder.sql(of: aliasedFirst), recorder.sql(of: aliasedLast)]
    }

    @Test func anonymousAliasQualifiesNothingNamedAliasQualifiesEverything() throws {
        let recorder = try makeNodeRecorder()
        let anonymous = """
            SELECT "label" FROM "node" \
            WHERE ("id" = 1) AND ("label" IS NOT NULL) AND ("label" = 'foo') \
            GROUP BY "label" HAVING "label" ORDER BY "label"
            """
        #expect(try singleTableSQL(recorder, alias: TableAlias()) == [anonymous, anonymous])
        let named = """
            SELECT "n"."label" FROM "node" "n" \
            WHERE ("n"."id" = 1) AND ("n"."label" IS NOT NULL) AND ("n"."label" = 'foo') \
            GROUP BY "n"."label" HAVING "n"."label" ORDER BY "n"."label"
            """
        #expect(try singleTableSQL(recorder, alias: TableAlias(name: "n")) == [named, named])
    }

    @Test func selfJoinNumbersTheAliases() throws {
        let recorder = try makeNodeRecorder()
        #expect(try recorder.sql(of: Node.including(required: Node.parent)) == """
            SELECT "node1".*, "node2".* FROM "node" "node1" \
            JOIN "node" "node2" ON "node2"."id" = "node1"."parentId"
            """)
        #expect(try recorder.sql(of: Node.including(required: Node.child)) == """
            SELECT "node1".*, "node2".* FROM "node" "node1" \
            JOIN "node" "node2" ON "node2"."parentId" = "node1"."id"
            """)
    }

    @Test func selfJoinTwoLevelsDown() throws {
        let recorder = try makeNodeRecorder()
        let request = Node.including(required: Node.mainTag.including(required: Tag.sideNode))
        #expect(try recorder.sql(of: request) == """
            SELECT "node1".*, "tag".*, "node2".* FROM "node" "node1" \
            JOIN "tag" ON "tag"."id" = "node1"."mainTagId" \
            JOIN "node" "node2" ON "node2"."sideTagId" = "tag"."id"
            """)
    }

    @Test func twoForeignKeysToTheSameTable() throws {
        let recorder = try makeNodeRecorder()
        let request = Node.including(required: Node.mainTag).including(required: Node.sideTag)
        #expect(try recorder.sql(of: request) == """
            SELECT "node".*, "tag1".*, "tag2".* FROM "node" \
            JOIN "tag" "tag1" ON "tag1"."id" = "node"."mainTagId" \
            JOIN "tag" "tag2" ON "tag2"."id" = "node"."sideTagId"
            """)
    }

    @Test func selfJoinsThroughTwoForeignKeys() throws {
        let recorder = try makeNodeRecorder()
        let request = Node
            .including(required: Node.mainTag.including(required: Tag.sideNode))
            .including(required: Node.sideTag.including(required: Tag.mainNode))
        #expect(try recorder.sql(of: request) == """
            SELECT "node1".*, "tag1".*, "node2".*, "tag2".*, "node3".* FROM "node" "node1" \
            JOIN "tag" "tag1" ON "tag1"."id" = "node1"."mainTagId" \
            JOIN "node" "node2" ON "node2"."sideTagId" = "tag1"."id" \
            JOIN "tag" "tag2" ON "tag2"."id" = "node1"."sideTagId" \
            JOIN "node" "node3" ON "node3"."mainTagId" = "tag2"."id"
            """)
    }

    @Test func userNamedAliasesWhereverTheyAreGiven() throws {
        let recorder = try makeNodeRecorder()
        let rootAlias = TableAlias(name: "root")
        let tagAlias = TableAlias(name: "label")
        let leafAlias = TableAlias(name: "leaf")
        let expected = """
            SELECT "root".*, "label".*, "leaf".* FROM "node" "root" \
            JOIN "tag" "label" ON "label"."id" = "root"."mainTagId" \
            JOIN "node" "leaf" ON "leaf"."sideTagId" = "label"."id"
            """
        let aliasedFirst = Node.aliased(rootAlias)
            .including(required: Node.mainTag.aliased(tagAlias)
                .including(required: Tag.sideNode.aliased(leafAlias)))
        let aliasedLast = Node
            .including(required: Node.mainTag
                .including(required: Tag.sideNode.aliased(leafAlias))
                .aliased(tagAlias))
            .aliased(rootAlias)
        #expect(try recorder.sql(of: aliasedFirst) == expected)
        #expect(try recorder.sql(of: aliasedLast) == expected)
    }

    @Test func userAliasNamedLikeAnotherTable() throws {
        let recorder = try makeNodeRecorder()
        #expect(try recorder.sql(of: Node.including(required: Node.mainTag.aliased(TableAlias(name: "node")))) == """
            SELECT "node1".*, "node".* FROM "node" "node1" \
            JOIN "tag" "node" ON "node"."id" = "node1"."mainTagId"
            """)
        #expect(try recorder.sql(of: Node.including(required: Node.mainTag.aliased(TableAlias(name: "NODE")))) == """
            SELECT "node1".*, "NODE".* FROM "node" "node1" \
            JOIN "tag" "NODE" ON "NODE"."id" = "node1"."mainTagId"
            """)
        #expect(try recorder.sql(of: Node.aliased(TableAlias(name: "tag")).including(required: Node.mainTag)) == """
            SELECT "tag".*, "tag1".* FROM "node" "tag" \
            JOIN "tag" "tag1" ON "tag1"."id" = "tag"."mainTagId"
            """)
        #expect(try recorder.sql(of: Node.aliased(TableAlias(name: "TAG")).including(required: Node.mainTag)) == """
            SELECT "TAG".*, "tag1".* FROM "node" "TAG" \
            JOIN "tag" "tag1" ON "tag1"."id" = "TAG"."mainTagId"
            """)
    }

    @Test func conditionOverSeveralAliasedTables() throws {
        let recorder = try makeNodeRecorder()
        let root = TableAlias()
        let far = TableAlias()
        let near = TableAlias()
        let label = Column("label")
        let condition = label != nil && root[label] > far[label] && near[label] == "foo"
        let expected = """
            SELECT "node1".*, "tag1".*, "node2".*, "tag2".*, "node3".* FROM "node" "node1" \
            JOIN "tag" "tag1" ON "tag1"."id" = "node1"."mainTagId" \
            JOIN "node" "node2" ON "node2"."sideTagId" = "tag1"."id" \
            JOIN "tag" "tag2" ON "tag2"."id" = "node1"."sideTagId" \
            JOIN "node" "node3" ON "node3"."mainTagId" = "tag2"."id" \
            WHERE ("node1"."label" IS NOT NULL) AND ("node1"."label" > "node3"."label") AND ("node2"."label" = 'foo')
            """
        let filteredFirst = Node.filter(condition).aliased(root)
            .including(required: Node.mainTag.including(required: Tag.sideNode.aliased(near)))
            .including(required: Node.sideTag.including(required: Tag.mainNode.aliased(far)))
        let filteredLast = Node.aliased(root)
            .including(required: Node.mainTag.including(required: Tag.sideNode.aliased(near)))
            .including(required: Node.sideTag.including(required: Tag.mainNode.aliased(far)))
            .filter(condition)
        #expect(try recorder.sql(of: filteredFirst) == expected)
        #expect(try recorder.sql(of: filteredLast) == expected)
    }

    @Test func repeatedAssociationMergesIntoOneJoin() throws {
        let recorder = try makeNodeRecorder()
        let label = Column("label")
        func merged(first: TableAlias<Void>, second: TableAlias<Void>) -> QueryInterfaceRequest<Node> {
            Node.joining(required: Node.parent.aliased(first)).filter(first[label] == "foo")
                .joining(optional: Node.parent.aliased(second)).order(second[label])
                .including(optional: Node.parent)
        }
        #expect(try recorder.sql(of: merged(first: TableAlias(), second: TableAlias())) == """
            SELECT "node1".*, "node2".* FROM "node" "node1" \
            JOIN "node" "node2" ON "node2"."id" = "node1"."parentId" \
            WHERE "node2"."label" = 'foo' ORDER BY "node2"."label"
            """)
        #expect(try recorder.sql(of: merged(first: TableAlias(name: "up"), second: TableAlias())) == """
            SELECT "node".*, "up".* FROM "node" \
            JOIN "node" "up" ON "up"."id" = "node"."parentId" \
            WHERE "up"."label" = 'foo' ORDER BY "up"."label"
            """)
        #expect(try recorder.sql(of: merged(first: TableAlias(), second: TableAlias(name: "up"))) == """
            SELECT "node".*, "up".* FROM "node" \
            JOIN "node" "up" ON "up"."id" = "node"."parentId" \
            WHERE "up"."label" = 'foo' ORDER BY "up"."label"
            """)
    }

    // MARK: - Association aggregates

    struct Club: Codable, FetchableRecord, PersistableRecord {
        static let members = hasMany(Member.self)
        static let trophies = hasMany(Trophy.self)
        static let guests = hasMany(Member.self, key: "guests")
        var id: Int64
        var title: String?
    }
    struct Member: Codable, FetchableRecord, PersistableRecord {
        static let trophies = hasMany(Trophy.self, through: belongsTo(Club.self), using: Club.trophies)
        var id: Int64
        var clubId: Int64?
        var points: Int?
    }
    /// A table without an INTEGER PRIMARY KEY: its records are counted by rowid.
    struct Trophy: Codable, FetchableRecord, PersistableRecord {
        var title: String
        var clubId: Int64?
    }
    struct ClubStats: Decodable, FetchableRecord {
        var club: Club
        var averageMemberPoints: Double?
        var memberCount: Int?
        var minMemberPoints: Int?
        var maxMemberPoints: Int?
        var memberPointsSum: Int?
    }

    func makeClubRecorder() throws -> GRDBSQLRecorder {
        try GRDBSQLRecorder(schema: """
            CREATE TABLE club (id INTEGER PRIMARY KEY, title TEXT);
            CREATE TABLE member (id INTEGER PRIMARY KEY, clubId INTEGER REFERENCES club, points INTEGER);
            CREATE TABLE trophy (title TEXT NOT NULL, clubId INTEGER REFERENCES club);
            INSERT INTO club VALUES (1, 'Red'), (2, 'Blue'), (3, 'Green');
            INSERT INTO member VALUES (1, 1, 10), (2, 1, 30), (3, 2, 5);
            INSERT INTO trophy VALUES ('Cup', 1), ('Shield', 3), ('Plate', 3);
            """)
    }

    @Test func everyDefaultAggregate() throws {
        let recorder = try makeClubRecorder()
        let request = Club
            .annotated(with: Club.members.average(Column("points")))
            .annotated(with: Club.members.count)
            .annotated(with: Club.members.min(Column("points")), Club.members.max(Column("points")))
            .annotated(with: Club.members.sum(Column("points")))
            .orderByPrimaryKey()
            .asRequest(of: ClubStats.self)
        #expect(try recorder.sql(of: request) == """
            SELECT "club".*, AVG("member"."points") AS "averageMemberPoints", \
            COUNT(DISTINCT "member"."id") AS "memberCount", \
            MIN("member"."points") AS "minMemberPoints", \
            MAX("member"."points") AS "maxMemberPoints", \
            SUM("member"."points") AS "memberPointsSum" \
            FROM "club" LEFT JOIN "member" ON "member"."clubId" = "club"."id" \
            GROUP BY "club"."id" ORDER BY "club"."id"
            """)
        let stats = try recorder.dbQueue.read { try request.fetchAll($0) }
        #expect(stats.map(\.memberCount) == [2, 1, 0])
        #expect(stats.map(\.averageMemberPoints) == [20, 5, nil])
        #expect(stats.map(\.memberPointsSum) == [40, 5, nil])
    }

    @Test func aggregateNamesFollowTheAssociationKey() throws {
        let recorder = try makeClubRecorder()
        let request = Club
            .annotated(with: Club.guests.count, Club.guests.average(Column("points")), Club.guests.sum(Column("points")))
        #expect(try recorder.sql(of: request) == """
            SELECT "club".*, COUNT(DISTINCT "member"."id") AS "guestCount", \
            AVG("member"."points") AS "averageGuestPoints", \
            SUM("member"."points") AS "guestPointsSum" \
            FROM "club" LEFT JOIN "member" ON "member"."clubId" = "club"."id" \
            GROUP BY "club"."id"
            """)
    }

    @Test func aggregatesWithCustomKeysAndExpressions() throws {
        let recorder = try makeClubRecorder()
        let points = Column("points")
        let request = Club
            .annotated(with: Club.members.average(points * points).forKey("k1"))
            .annotated(with: Club.members.count.forKey("k2"))
            .annotated(with: Club.members.max(points * 10).forKey("k3"))
            .annotated(with: Club.members.min(-points).forKey("k4"))
        #expect(try recorder.sql(of: request) == """
            SELECT "club".*, AVG("member"."points" * "member"."points") AS "k1", \
            COUNT(DISTINCT "member"."id") AS "k2", \
            MAX("member"."points" * 10) AS "k3", \
            MIN(-"member"."points") AS "k4" \
            FROM "club" LEFT JOIN "member" ON "member"."clubId" = "club"."id" \
            GROUP BY "club"."id"
            """)
    }

    @Test func twoFilteredCountsOfOneAssociation() throws {
        struct Split: Decodable, FetchableRecord {
            var lowMemberCount: Int
            var highMemberCount: Int
        }
        let recorder = try makeClubRecorder()
        let request = Club
            .annotated(with: Club.members.filter(Column("points") < 20).forKey("lowMembers").count)
            .annotated(with: Club.members.filter(Column("points") >= 20).forKey("highMembers").count)
            .orderByPrimaryKey()
            .asRequest(of: Split.self)
        #expect(try recorder.sql(of: request) == """
            SELECT "club".*, COUNT(DISTINCT "member1"."id") AS "lowMemberCount", \
            COUNT(DISTINCT "member2"."id") AS "highMemberCount" \
            FROM "club" \
            LEFT JOIN "member" "member1" ON ("member1"."clubId" = "club"."id") AND ("member1"."points" < 20) \
            LEFT JOIN "member" "member2" ON ("member2"."clubId" = "club"."id") AND ("member2"."points" >= 20) \
            GROUP BY "club"."id" ORDER BY "club"."id"
            """)
        let splits = try recorder.dbQueue.read { try request.fetchAll($0) }
        #expect(splits.map(\.lowMemberCount) == [1, 1, 0])
        #expect(splits.map(\.highMemberCount) == [1, 0, 0])
    }

    @Test func throughAssociationCount() throws {
        struct MemberTrophies: Decodable, FetchableRecord {
            var member: Member
            var trophyCount: Int
        }
        let recorder = try makeClubRecorder()
        let request = Member.annotated(with: Member.trophies.count).orderByPrimaryKey()
            .asRequest(of: MemberTrophies.self)
        #expect(try recorder.sql(of: request) == """
            SELECT "member".*, COUNT(DISTINCT "trophy"."rowid") AS "trophyCount" \
            FROM "member" \
            LEFT JOIN "club" ON "club"."id" = "member"."clubId" \
            LEFT JOIN "trophy" ON "trophy"."clubId" = "club"."id" \
            GROUP BY "member"."id" ORDER BY "member"."id"
            """)
        #expect(try recorder.dbQueue.read { try request.fetchAll($0) }.map(\.trophyCount) == [1, 1, 0])
    }

    @Test func isEmptyInSelectionAndHaving() throws {
        let recorder = try makeClubRecorder()
        let fromClub = #"FROM "club" LEFT JOIN "member" ON "member"."clubId" = "club"."id" GROUP BY "club"."id""#
        #expect(try recorder.sql(of: Club.annotated(with: Club.members.isEmpty))
            == #"SELECT "club".*, COUNT(DISTINCT "member"."id") = 0 AS "hasNoMember" "# + fromClub)
        #expect(try recorder.sql(of: Club.annotated(with: !Club.members.isEmpty))
            == #"SELECT "club".*, COUNT(DISTINCT "member"."id") > 0 "# + fromClub)
        #expect(try recorder.sql(of: Club.having(Club.members.isEmpty))
            == #"SELECT "club".* "# + fromClub + #" HAVING COUNT(DISTINCT "member"."id") = 0"#)
        #expect(try recorder.sql(of: Club.having(!Club.members.isEmpty))
            == #"SELECT "club".* "# + fromClub + #" HAVING COUNT(DISTINCT "member"."id") > 0"#)
        #expect(try recorder.sql(of: Club.having(Club.members.isEmpty == false))
            == #"SELECT "club".* "# + fromClub + #" HAVING COUNT(DISTINCT "member"."id") > 0"#)
        #expect(try recorder.dbQueue.read { try Club.having(Club.members.isEmpty).fetchCount($0) } == 1)
        #expect(try recorder.dbQueue.read { try Club.having(!Club.members.isEmpty).fetchAll($0) }.map(\.id) == [1, 2])
    }

    @Test func throughAssociationIsEmptyInHaving() throws {
        let recorder = try makeClubRecorder()
        let request = Member.having(Member.trophies.isEmpty)
        #expect(try recorder.sql(of: request) == """
            SELECT "member".* FROM "member" \
            LEFT JOIN "club" ON "club"."id" = "member"."clubId" \
            LEFT JOIN "trophy" ON "trophy"."clubId" = "club"."id" \
            GROUP BY "member"."id" \
            HAVING COUNT(DISTINCT "trophy"."rowid") = 0
            """)
        #expect(try recorder.dbQueue.read { try request.fetchAll($0) }.map(\.id) == [3])
    }

    @Test func comparisonsOfAggregates() throws {
        let recorder = try makeClubRecorder()
        let oneJoin = #"SELECT "club".* FROM "club" LEFT JOIN "member" ON "member"."clubId" = "club"."id" GROUP BY "club"."id" HAVING "#
        #expect(try recorder.sql(of: Club.having(Club.members.count == 2))
            == oneJoin + #"COUNT(DISTINCT "member"."id") = 2"#)
        #expect(try recorder.sql(of: Club.having(2 == Club.members.count))
            == oneJoin + #"2 = COUNT(DISTINCT "member"."id")"#)
        #expect(try recorder.sql(of: Club.having(Club.members.count != 2))
            == oneJoin + #"COUNT(DISTINCT "member"."id") <> 2"#)
        #expect(try recorder.sql(of: Club.having(2 <= Club.members.count))
            == oneJoin + #"2 <= COUNT(DISTINCT "member"."id")"#)
        #expect(try recorder.sql(of: Club.having(Club.members.count > Club.trophies.count)) == """
            SELECT "club".* FROM "club" \
            LEFT JOIN "member" ON "member"."clubId" = "club"."id" \
            LEFT JOIN "trophy" ON "trophy"."clubId" = "club"."id" \
            GROUP BY "club"."id" \
            HAVING COUNT(DISTINCT "member"."id") > COUNT(DISTINCT "trophy"."rowid")
            """)
        #expect(try recorder.dbQueue.read { try Club.having(Club.members.count == 2).fetchAll($0) }.map(\.id) == [1])
    }

    @Test func aggregateWithRequiredJoin() throws {
        let recorder = try makeClubRecorder()
        let request = Club
            .annotated(with: Club.members.max(Column("points")))
            .joining(required: Club.members)
            .orderByPrimaryKey()
            .asRequest(of: ClubStats.self)
        #expect(try recorder.sql(of: request) == """
            SELECT "club".*, MAX("member"."points") AS "maxMemberPoints" \
            FROM "club" JOIN "member" ON "member"."clubId" = "club"."id" \
            GROUP BY "club"."id" ORDER BY "club"."id"
            """)
        #expect(try recorder.dbQueue.read { try request.fetchAll($0) }.map(\.maxMemberPoints) == [30, 5])
    }

    @Test func aggregateWithAliasedJoinAndSQLSnippet() throws {
        let recorder = try makeClubRecorder()
        let alias = TableAlias(name: "m")
        let request = Club
            .annotated(with: Club.members.count)
            .joining(required: Club.members.aliased(alias).filter(sql: "m.points < ?", arguments: [20]))
        #expect(try recorder.sql(of: request) == """
            SELECT "club".*, COUNT(DISTINCT "m"."id") AS "memberCount" \
            FROM "club" \
            JOIN "member" "m" ON ("m"."clubId" = "club"."id") AND (m.points < 20) \
            GROUP BY "club"."id"
            """)
    }

    @Test func aggregateWithExplicitGroup() throws {
        let recorder = try makeClubRecorder()
        let request = Club.select(Column("title")).annotated(with: Club.members.count).group(Column("title"))
        #expect(try recorder.sql(of: request) == """
            SELECT "club"."title", COUNT(DISTINCT "member"."id") AS "memberCount" \
            FROM "club" LEFT JOIN "member" ON "member"."clubId" = "club"."id" \
            GROUP BY "club"."title"
            """)
    }
}
