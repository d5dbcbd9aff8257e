import Foundation
import Testing
import Cairn

/// Association keys, merging rules, self joins, DerivableRequest
/// extensions, and the other refinements of the associations guide.
@Suite struct AssociationRefinementTests {
    struct Employee: Codable, FetchableRecord, PersistableRecord, Hashable {
        static let subordinates = hasMany(Employee.self, key: "subordinates")
        static let manager = belongsTo(Employee.self, key: "manager")
        var id: Int64
        var managerId: Int64?
        var name: String
        enum Columns {
            static let id = Column(CodingKeys.id)
            static let name = Column(CodingKeys.name)
        }
    }

    struct Parent: Codable, FetchableRecord, PersistableRecord {
        static let children = hasMany(Child.self)
        static let kittens = hasMany(Child.self).forKey("kittens")
        var id: Int64
    }

    struct Child: Codable, FetchableRecord, PersistableRecord {
        static let parent = belongsTo(Parent.self)
        var id: Int64
        var parentId: Int64
        var name: String
        enum Columns {
            static let id = Column(CodingKeys.id)
            static let name = Column(CodingKeys.name)
        }
    }

    func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "employee") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("manager", inTable: "employee", onDelete: .setNull)
                t.column("name", .text).notNull()
            }
            try Employee(id: 1, managerId: nil, name: "Boss").insert(db)
            try Employee(id: 2, managerId: 1, name: "Alice").insert(db)
            try Employee(id: 3, managerId: 1, name: "Bob").insert(db)
            try Employee(id: 4, managerId: 2, name: "Carol").insert(db)
            try db.create(table: "parent") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "child") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("parent").notNull()
                t.column("name", .text).notNull()
            }
            try Parent(id: 1).insert(db)
            try Parent(id: 2).insert(db)
            try Child(id: 1, parentId: 1, name: "a").insert(db)
            try Child(id: 2, parentId: 1, name: "b").insert(db)
        }
        return dbQueue
    }

    func sql(_ db: Database, _ request: some FetchRequest) throws -> String {
        try request.makePreparedRequest(db, forSingleResult: false).statement.sql
    }

    /// `unordered()` removes the ordering of the request and of the
    /// associations it joins, includes or prefetches, as in GRDB; the
    /// stable order stays.
    @Test func unorderedRemovesTheOrderingOfAssociations() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws -> Void in
            let byName = Parent.children.order(Column("name").desc)
            let join = #"SELECT "parent".*, "child".* FROM "parent" JOIN "child" ON "child"."parentId" = "parent"."id""#
            #expect(try sql(db, Parent.including(required: byName).order(Column("id")).unordered()) == join)
            #expect(try sql(db, Parent.including(required: byName.reversed()).reversed().unordered()) == join)
            #expect(try sql(db, Parent.including(required: byName.unordered())) == join)
            #expect(try sql(db, Parent.joining(required: byName).unordered().withStableOrder())
                == #"SELECT "parent".* FROM "parent" JOIN "child" ON "child"."parentId" = "parent"."id" ORDER BY "parent"."id", "child"."id""#)
            // A new ordering after unordered() applies.
            #expect(try sql(db, Parent.including(required: byName).unordered().order(Column("id").desc))
                == join + #" ORDER BY "parent"."id" DESC"#)
            // Prefetched associations are unordered too: the prefetched
            // children come in the order SQLite gives, here by id.
            let parent = try #require(try Row.fetchOne(db, Parent.including(all: byName).filter(Column("id") == 1).unordered()))
            let names = parent.prefetchedRows["children"]?.map { $0["name"] as String }
            #expect(names == ["a", "b"])
        }
    }

    @Test func reversedOrderings() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws -> Void in
            let join = #"SELECT "parent".*, "child".* FROM "parent" JOIN "child" ON "child"."parentId" = "parent"."id""#
            func order(_ request: QueryInterfaceRequest<Parent>) throws -> String {
                let sql = try sql(db, request)
                #expect(sql.hasPrefix(join))
                return String(sql.dropFirst(join.count))
            }
            let byName = Parent.children.order(Column("name"))
            // An association reversed: its terms, not the request's.
            #expect(try order(Parent.including(required: byName.reversed())) == #" ORDER BY "child"."name" DESC"#)
            // Reversed twice: as written.
            #expect(try order(Parent.including(required: byName.reversed().reversed())) == #" ORDER BY "child"."name""#)
            // An association without ordering gets none when reversed.
            #expect(try order(Parent.including(required: Parent.children.reversed())) == "")
            // The request reversed: all terms, a DESC term becomes ASC.
            let descending = Parent.children.order(Column("name").desc, Column("id"))
            #expect(try order(Parent.including(required: descending).order(Column("id")).reversed())
                == #" ORDER BY "parent"."id" DESC, "child"."name" ASC, "child"."id" DESC"#)
            // Reversed request and reversed association cancel out.
            #expect(try order(Parent.including(required: byName.reversed()).order(Column("id")).reversed())
                == #" ORDER BY "parent"."id" DESC, "child"."name""#)
            // A reversed request without ordering stays unordered; the
            // terms of its joined tables are reversed.
            #expect(try order(Parent.including(required: byName).reversed()) == #" ORDER BY "child"."name" DESC"#)
            #expect(try order(Parent.including(required: Parent.children).reversed()) == "")
            // order(_:) replaces the reversal too.
            #expect(try order(Parent.including(required: byName).reversed().order(Column("id")))
                == #" ORDER BY "parent"."id", "child"."name""#)
            // The fetched rows follow.
            let names = try Row.fetchAll(db, Parent.including(required: byName.reversed())).map { $0.scopes["child"]!["name"] as String }
            #expect(names == ["b", "a"])
        }
    }

    @Test func selfJoins() throws {
        struct EmployeeInfo: FetchableRecord, Decodable {
            var employee: Employee
            var manager: Employee?
            var subordinates: Set<Employee>
        }
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws -> Void in
            let request = Employee
                .including(optional: Employee.manager)
                .including(all: Employee.subordinates)
                .order(\.id)
            #expect(try sql(db, request) == """
                SELECT "employee1".*, "employee2".* FROM "employee" "employee1" \
                LEFT JOIN "employee" "employee2" ON "employee2"."id" = "employee1"."managerId" \
                ORDER BY "employee1"."id"
                """)
            let infos = try EmployeeInfo.fetchAll(db, request)
            #expect(infos.map(\.manager?.name) == [nil, "Boss", "Boss", "Alice"])
            #expect(infos.map { $0.subordinates.map(\.name).sorted() } == [["Alice", "Bob"], ["Carol"], [], []])
        }
    }

    @Test func prefetchBehindJoinedAssociation() throws {
        struct EmployeeInfo: FetchableRecord, Decodable {
            var employee: Employee
            var colleagues: [Employee]
        }
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws -> Void in
            // The subordinates of each employee's manager: the manager is
            // joined, not included, and the prefetch query joins it again.
            let request = Employee
                .joining(optional: Employee.manager
                    .including(all: Employee.subordinates.order(\.id).forKey("colleagues")))
                .order(\.id)
            let infos = try EmployeeInfo.fetchAll(db, request)
            #expect(infos.map(\.employee.name) == ["Boss", "Alice", "Bob", "Carol"])
            #expect(infos.map { $0.colleagues.map(\.name) } == [[], ["Alice", "Bob"], ["Alice", "Bob"], ["Carol"]])
        }
    }

    @Test func regionsOfPrefetchingRequests() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws -> Void in
            let request = Parent.including(all: Parent.children.select(Column("name")))
            // The statement of the request reads the prefetched table too,
            // for observations.
            let region = try request.makePreparedRequest(db, forSingleResult: false).statement.databaseRegion
            #expect(region.description == "child(name,parentId),parent(*)")
            #expect(try request.databaseRegion(db).description == region.description)
            // The cached statement of the plain request is left alone.
            let plain = try Parent.all().makePreparedRequest(db, forSingleResult: false).statement.databaseRegion
            #expect(plain.description == "parent(*)")
        }
    }

    @Test func associationKeys() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws -> Void in
            // A to-many association included as one record: singular keys.
            let row = try Row.fetchOne(db, Parent.including(required: Parent.children).order(Column("id")))!
            #expect(row.scopes.names == ["child"])
            let kitten = try Row.fetchOne(db, Parent.including(required: Parent.kittens).order(Column("id")))!
            #expect(kitten.scopes.names == ["kitten"])
            // Prefetched: plural keys, as given.
            let prefetched = try Row.fetchOne(db, Parent.including(all: Parent.children).order(Column("id")))!
            #expect(prefetched.prefetchedRows.keys == ["children"])
            let kittens = try Row.fetchOne(db, Parent.including(all: Parent.kittens).order(Column("id")))!
            #expect(kittens.prefetchedRows.keys == ["kittens"])
        }
    }

    @Test func allColumnsExcluding() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws -> Void in
            let plain = Child.select(.allColumns(excluding: ["NAME"])).order(\.id)
            #expect(try plain.makePreparedRequest(db, forSingleResult: false).statement.sql
                == #"SELECT "id", "parentId" FROM "child" ORDER BY "id""#)
            let joined = Child
                .select(.allColumns(excluding: ["parentId"]))
                .including(required: Child.parent.select(.allColumns))
                .order(\.id)
            #expect(try joined.makePreparedRequest(db, forSingleResult: false).statement.sql == """
                SELECT "child"."id", "child"."name", "parent".* FROM "child" \
                JOIN "parent" ON "parent"."id" = "child"."parentId" ORDER BY "child"."id"
                """)
            let row = try Row.fetchOne(db, joined)!
            #expect(row.unscoped == ["id": 1, "name": "a"])
            #expect(row.scopes["parent"] == ["id": 1])
        }
    }

    @Test func keysWithDigits() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws -> Void in
            // A to-many key included as one record is singular, digits kept.
            let request = Parent
                .including(optional: Parent.children.filter(key: 1).forKey("children1"))
                .including(optional: Parent.children.filter(key: 2).forKey("kids2"))
                .order(Column("id"))
            let row = try Row.fetchOne(db, request)!
            #expect(Set(row.scopes.names) == ["child1", "kid2"])
            #expect(row.scopes["kid2"]!["name"] == "b")
        }
    }

    @Test func mergingRules() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws -> Void in
            // including wins over joining, required over optional, all
            // filters apply, the last ordering wins.
            let request = Parent
                .including(optional: Parent.children.filter { $0.name != "x" }.order(\.name))
                .joining(required: Parent.children.filter { $0.name != "y" }.order(\.id))
            #expect(try sql(db, request) == """
                SELECT "parent".*, "child".* FROM "parent" \
                JOIN "child" ON ("child"."parentId" = "parent"."id") AND ("child"."name" <> ?) AND ("child"."name" <> ?) \
                ORDER BY "child"."id"
                """)
            #expect(try Row.fetchAll(db, request).count == 2)
        }
    }

    @Test func derivableRequestExtensions() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws -> Void in
            // One extension serves requests and associations.
            let names = try Child.all().named("a").fetchAll(db).map(\.name)
            #expect(names == ["a"])
            let parents = try Parent.joining(required: Parent.children.named("b")).fetchAll(db)
            #expect(parents.map(\.id) == [1])
            // Keys, on associations.
            let byKey = Parent.including(required: Parent.children.filter(key: 2))
            #expect(try sql(db, byKey).contains(#"AND ("child"."id" = ?)"#))
            #expect(try Row.fetchOne(db, byKey)!.scopes["child"]!["name"] == "b")
            // none() on associations.
            #expect(try Parent.joining(required: Parent.children.none()).fetchCount(db) == 0)
        }
    }

    @Test func requestForThroughSeveralTables() throws {
        struct A: TableRecord, EncodableRecord {
            static let b = belongsTo(B.self)
            static let d = hasOne(D.self, through: hasOne(C.self, through: b, using: B.c), using: C.d)
            var bId: Int64
            func encode(to container: inout PersistenceContainer) { container["bId"] = bId }
        }
        struct B: TableRecord { static let c = belongsTo(C.self) }
        struct C: TableRecord { static let d = belongsTo(D.self) }
        struct D: TableRecord { }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "d") { t in t.autoIncrementedPrimaryKey("id"); t.column("name", .text) }
            try db.create(table: "c") { t in t.autoIncrementedPrimaryKey("id"); t.belongsTo("d") }
            try db.create(table: "b") { t in t.autoIncrementedPrimaryKey("id"); t.belongsTo("c") }
            try db.create(table: "a") { t in t.autoIncrementedPrimaryKey("id"); t.belongsTo("b") }
            try db.execute(sql: """
                INSERT INTO d (id, name) VALUES (1, 'd1'), (2, 'd2');
                INSERT INTO c (id, dId) VALUES (1, 2);
                INSERT INTO b (id, cId) VALUES (1, 1);
                """)
            let request = A(bId: 1).request(for: A.d)
            #expect(try sql(db, request) == """
                SELECT "d".* FROM "d" \
                JOIN "c" ON "c"."dId" = "d"."id" \
                JOIN "b" ON ("b"."cId" = "c"."id") AND ("b"."id" = ?)
                """)
            #expect(try Row.fetchOne(db, request)?["name"] == "d2")
        }
    }

    @Test func prefetchedRowsTakePartInEquality() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws -> Void in
            let plain = try Row.fetchOne(db, Parent.all().order(Column("id")))!
            let prefetched = try Row.fetchOne(db, Parent.including(all: Parent.children).order(Column("id")))!
            #expect(plain.unscoped == prefetched.unscoped)
            #expect(plain != prefetched)
        }
    }

    @Test func textOfJoinedRows() throws {
        // ASCII and non-ASCII text read through scopes, and text that is
        // not valid UTF-8, which does not decode as a String.
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws -> Void in
            try db.execute(sql: "UPDATE child SET name = ? WHERE id = 1", arguments: ["é\u{1F600}-long enough to be read in words"])
            try db.execute(sql: "UPDATE child SET name = CAST(X'41FF42' AS TEXT) WHERE id = 2")
            let rows = try Row.fetchAll(db, Parent.including(required: Parent.children).order(sql: "child.id"))
            #expect(rows[0].scopes["child"]!["name"] == "é\u{1F600}-long enough to be read in words")
            #expect(throws: RowDecodingError.self) {
                try rows[1].scopes["child"]!.decode(String.self, forColumn: "name")
            }
            let cursor = try Row.fetchCursor(db, Parent.including(required: Parent.children).order(sql: "child.id"))
            let first = try cursor.next()!
            #expect(first.scopes["child"]!["name"] as String == "é\u{1F600}-long enough to be read in words")
            let second = try cursor.next()!
            #expect(throws: RowDecodingError.self) {
                try second.scopes["child"]!.decode(String.self, forColumn: "name")
            }
        }
    }
}

extension DerivableRequest<AssociationRefinementTests.Child> {
    /// The children with a name.
    func named(_ name: String) -> Self {
        filter { $0.name == name }
    }
}
