import Foundation
import Testing
import Cairn

/// The region of a request filtered by rowid, or by an INTEGER PRIMARY KEY,
/// is limited to the rows of the filter; other requests read whole tables.
@Suite struct RowIDRegionTests {
    func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INT, email TEXT UNIQUE, teamId INT);
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE hidden (name TEXT);
                CREATE TABLE shadowed (rowid TEXT, name TEXT);
                CREATE TABLE descending (id INTEGER PRIMARY KEY DESC, name TEXT);
                CREATE TABLE textKey (code TEXT PRIMARY KEY, name TEXT);
                CREATE TABLE composite (a INT, b INT, PRIMARY KEY (a, b));
                CREATE TABLE withoutRowID (id INTEGER PRIMARY KEY, name TEXT) WITHOUT ROWID;
                CREATE VIEW playerView AS SELECT id, name FROM player;
                """)
        }
        return dbQueue
    }

    /// The description of the region of a request, or of its error.
    func description(_ request: some DatabaseRegionConvertible, _ db: Database) -> String {
        do {
            return try request.databaseRegion(db).description
        } catch {
            return "error: \(error)"
        }
    }

    @Test func primaryKeyFiltersGiveRows() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let player = Table("player")
            let columns = "player(email,id,name,score,teamId)"
            #expect(description(player.filter(key: 1), db) == columns + "[1]")
            #expect(description(player.filter(keys: [1, 2, 3]), db) == columns + "[1,2,3]")
            #expect(description(player.filter(key: ["id": 2]), db) == columns + "[2]")
            #expect(description(player.filter(keys: [["id": 2], ["id": 4]]), db) == columns + "[2,4]")
            #expect(description(player.filter(Column("id") == 1), db) == columns + "[1]")
            #expect(description(player.filter(1 == Column("id")), db) == columns + "[1]")
            #expect(description(player.filter(Column("ID") == 1), db) == columns + "[1]")
            #expect(description(player.filter(Column("rowid") == 1), db) == columns + "[1]")
            #expect(description(player.filter(Column("id") == 1 || Column("id") == 2), db)
                == columns + "[1,2]")
            #expect(description(player.filter([1, 2, 3].contains(Column("id"))), db)
                == columns + "[1,2,3]")
            // AND keeps the rows of the conditions that identify rows.
            #expect(description(player.filter(Column("id") == 1 && Column("score") > 10), db)
                == columns + "[1]")
            #expect(description(player.filter(keys: [1, 2]).filter(key: 2), db) == columns + "[2]")
            #expect(description(player.filter(Column("id") == 1.0), db) == columns + "[1]")
            // Filters that select no row read nothing.
            #expect(try player.filter(Column("id") == 1 && Column("id") == 2).databaseRegion(db).isEmpty)
            #expect(try player.filter(Column("id") == nil).databaseRegion(db).isEmpty)
            #expect(try player.filter(Column("id") == 1.5).databaseRegion(db).isEmpty)
            // Records: filter(id:) and key lookups.
            #expect(description(Player.filter(id: 1), db) == columns + "[1]")
            #expect(description(Player.filter(ids: [1, 2]), db) == columns + "[1,2]")
            // The hidden rowid.
            #expect(description(Table("hidden").filter(key: 1), db) == "hidden(ROWID,name)[1]")
        }
    }

    @Test func otherFiltersGiveWholeTables() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let player = Table("player")
            let columns = "player(email,id,name,score,teamId)"
            #expect(description(player.filter(Column("id") > 1), db) == columns)
            #expect(description(player.filter(Column("id") != 1), db) == columns)
            #expect(description(player.filter(Column("id") == 1 || Column("score") == 2), db)
                == columns)
            #expect(description(player.filter(!(Column("id") == 1)), db) == columns)
            // SQLite would convert the text to the rowid 1: not identified.
            #expect(description(player.filter(Column("id") == "1"), db) == columns)
            #expect(description(player.filter(Column("id") == Column("teamId")), db) == columns)
            // A unique key that is not the rowid.
            #expect(description(player.filter(key: ["email": "a@example.com"]), db) == columns)
            #expect(description(player.filter(sql: "id = 1"), db) == columns)
            #expect(description(player.all(), db) == columns)
            // Raw SQL is not analyzed.
            #expect(description(SQLRequest<Row>(sql: "SELECT * FROM player WHERE id = 1"), db)
                == columns)
            // Primary keys that are not the rowid.
            #expect(description(Table("descending").filter(key: 1), db) == "descending(id,name)")
            #expect(description(Table("descending").filter(Column("rowid") == 1), db)
                == "descending(ROWID,id,name)[1]")
            #expect(description(Table("textKey").filter(key: "a"), db) == "textKey(code,name)")
            #expect(description(Table("composite").filter(key: ["a": 1, "b": 2]), db)
                == "composite(a,b)")
            #expect(description(Table("withoutRowID").filter(key: 1), db)
                == "withoutRowID(id,name)")
            // A column named rowid is not the rowid.
            #expect(description(Table("shadowed").filter(Column("rowid") == "1"), db)
                == "shadowed(name,rowid)")
            // (The column and the rowid that SQLite reads have one name
            // in the region, in the case of the first one it reports.)
            // The description sorts the names as given, so the case kept
            // decides the order.
            #expect(["shadowed(name,rowid)[1]", "shadowed(rowid,name)[1]"].contains(
                description(Table("shadowed").filter(Column("oid") == 1), db).lowercased()))
            // A view reads the table it selects from, all rows.
            #expect(description(Table("playerView").filter(Column("id") == 1), db)
                == "player(id,name),playerView(id,name)")
        }
    }

    @Test func requestsThatReadTheirTableElsewhereGiveWholeTables() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let player = Table("player")
            // A subquery reads other players.
            let best = player.select(max(Column("score")))
            let request = player.filter(key: 1).filter(Column("score") == best)
            #expect(description(request, db) == "player(email,id,name,score,teamId)")
            // A join of another table keeps the rows of the filtered one.
            let team = Table("team")
            let joined = player.filter(key: 1)
                .joining(required: player.belongsTo(team, using: ForeignKey(["teamId"])))
            #expect(description(joined, db) == "player(email,id,name,score,teamId)[1],team(*)")
            // A table joined to itself reads other rows.
            let selfJoined = player.filter(key: 1)
                .joining(required: player.belongsTo(player, key: "captain", using: ForeignKey(["teamId"])))
            #expect(description(selfJoined, db) == "player(*)")
        }
    }

    /// The statement of a request limited to rows is not the cached
    /// statement of its SQL, which other requests with other arguments run.
    @Test func rowRegionsDoNotLeakToCachedStatements() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let request = Table("player").filter(key: 1)
            let sql = try request.makePreparedRequest(db).statement.sql
            #expect(try request.databaseRegion(db).description.hasSuffix("[1]"))
            let rows = try Row.fetchCursor(db, sql: sql, arguments: [2])
            #expect(rows.databaseRegion.description == "player(email,id,name,score,teamId)")
            // Outside of observations, the query interface runs the cached
            // statement of its SQL.
            #expect(try request.makePreparedRequest(db).statement.databaseRegion.description
                == "player(email,id,name,score,teamId)")
        }
    }

    /// Observation fetches record the rows of their requests, also those of
    /// key lookups.
    @Test @MainActor func observationsRecordRows() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.filePath())
        try dbQueue.write { db in
            try db.execute(sql: createPlayerTableSQL)
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur'), (2, 'Barbara')")
            // The schema queries of a cold schema cache would add the
            // tables of pragmas to the recorded region.
            _ = try db.primaryKey("player")
        }
        let regions = Locked<[String]>([])
        let observation = ValueObservation
            .tracking { db in
                [try Player.fetchOne(db, id: 1)?.name, try Player.fetchOne(db, key: 2)?.name]
            }
            .handleEvents(willTrackRegion: { region in regions.withLock { $0.append(region.description) } })
        let recorder = Recorder<[String?]>()
        let cancellable = observation.start(
            in: dbQueue, scheduling: .immediate, onError: recorder.receive(error:), onChange: recorder.receive)
        defer { cancellable.cancel() }
        #expect(recorder.values == [["Arthur", "Barbara"]])
        #expect(regions.withLock { $0 } == ["player(id,name,score)[1,2]"])
    }
}
