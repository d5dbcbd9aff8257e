import Dispatch
import Foundation
import Testing
import Cairn

// Code written the way a companion library of GRDB uses the underscored
// declarations: only `import Cairn`, generic code over `_ValueReducer`,
// custom row adapters over `_RowLayout`, joins from `_SQLAssociation`.

// MARK: - Fixtures

private struct UnderscoredAuthor: Codable, Equatable, FetchableRecord, TableRecord {
    static let databaseTableName = "author"
    static let books = hasMany(UnderscoredBook.self)
    var id: Int64
    var name: String
}

private struct UnderscoredBook: Codable, Equatable, FetchableRecord, TableRecord {
    static let databaseTableName = "book"
    static let author = belongsTo(UnderscoredAuthor.self)
    var id: Int64
    var authorId: Int64?
    var title: String
}

private func makeLibrary(_ kind: WriterKind, in directory: TemporaryDirectory) throws -> any DatabaseWriter {
    let writer = try kind.make(path: directory.filePath())
    try writer.write { db in
        try db.execute(sql: """
            CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), title TEXT NOT NULL);
            CREATE TABLE word (value TEXT);
            INSERT INTO author VALUES (1, 'Ann'), (2, 'Bob');
            INSERT INTO book VALUES (1, 1, 'Ash'), (2, 1, 'Birch'), (3, NULL, 'Cedar');
            INSERT INTO word VALUES ('b'), ('a'), ('b');
            """)
    }
    return writer
}

// MARK: - A reducer written against _ValueReducer

/// Counts the rows of a table, and delivers how many were added since the
/// previous value (the first value is the count itself).
private struct GrowthReducer: ValueReducer {
    struct Fetcher: _ValueReducerFetcher {
        let table: String
        func fetch(_ db: Database) throws -> Int {
            try Table(table).fetchCount(db)
        }
    }

    let table: String
    var previous: Int?

    func _makeFetcher() -> Fetcher { Fetcher(table: table) }

    mutating func _value(_ fetched: Int) throws -> Int? {
        defer { previous = fetched }
        guard let previous else { return fetched }
        return fetched == previous ? nil : fetched - previous
    }
}

/// A generic helper of a companion library: runs one fetch and one
/// reduction of any reducer, on a reader.
private func reduceOnce<R: _ValueReducer>(_ reducer: inout R, in reader: some DatabaseReader) throws -> R.Value? {
    let fetcher = reducer._makeFetcher()
    let fetched = try reader.read { db in try fetcher.fetch(db) }
    return try reducer._value(fetched)
}

/// A generic helper of a companion library: starts any observation with
/// `_add`, the entry point of GRDB's readers. The values of every reducer
/// are `Sendable`: no extra constraint is needed.
private func record<R: ValueReducer>(
    _ observation: ValueObservation<R>,
    in reader: some DatabaseReader,
    queue: DispatchQueue) -> (Recorder<R.Value>, AnyDatabaseCancellable)
{
    let recorder = Recorder<R.Value>()
    let cancellable = reader._add(
        observation: observation.handleEvents(didFail: { recorder.receive(error: $0) }),
        scheduling: .async(onQueue: queue),
        onChange: { recorder.receive($0) })
    return (recorder, cancellable)
}

/// A custom row adapter written for GRDB: it implements
/// `_layoutedAdapter(from:)` only, with a built-in adapter.
private struct TitleAsNameAdapter: RowAdapter {
    func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
        try ColumnMapping(["name": "title"])._layoutedAdapter(from: layout)
    }
}

/// An adapter that implements neither requirement.
private struct EmptyHandedAdapter: RowAdapter { }

/// Generic code of a companion library over database cursors: the SQL
/// and the current element of any cursor, after one step.
private func firstElement<C: DatabaseCursor>(of cursor: C) throws -> (sql: String, element: C.Element)? {
    guard try cursor.next() != nil else { return nil }
    let element = try cursor._element(sqliteStatement: cursor._statement.sqliteStatement)
    cursor._isDone = true
    return (cursor._statement.sql, element)
}

/// A function of a companion library that returns an opaque cursor.
private func titles(_ db: Database) throws -> some DatabaseCursor<String> {
    try String.fetchCursor(db, sql: "SELECT title FROM book ORDER BY id")
}

@Suite struct UnderscoredAPITests {
    let directory: TemporaryDirectory
    let queue = DispatchQueue(label: "test.underscored")

    init() throws {
        directory = try TemporaryDirectory()
    }

    // MARK: Reducers

    @Test(arguments: WriterKind.allCases)
    func customReducerFetchesAndReduces(kind: WriterKind) throws {
        let writer = try makeLibrary(kind, in: directory)
        var reducer = GrowthReducer(table: "book")
        #expect(try reduceOnce(&reducer, in: writer) == 3)
        #expect(try reduceOnce(&reducer, in: writer) == nil)
        try writer.write { db in try db.execute(sql: "INSERT INTO book (title) VALUES ('Date'), ('Elm')") }
        #expect(try reduceOnce(&reducer, in: writer) == 2)
    }

    @Test(arguments: WriterKind.allCases)
    func builtInReducersHaveFetchers(kind: WriterKind) throws {
        let writer = try makeLibrary(kind, in: directory)
        // The fetchers of the built-in reducers are named by companion
        // libraries: these are their types.
        func fetcherTypeName<R: _ValueReducer>(_ type: R.Type) -> String { "\(R.Fetcher.self)" }
        #expect(fetcherTypeName(ValueReducers.Fetch<Int>.self).hasSuffix("_Fetcher"))
        #expect(fetcherTypeName(ValueReducers.Trace<ValueReducers.Fetch<Int>>.self).hasSuffix("_Fetcher"))
        #expect(fetcherTypeName(ValueReducers.Map<ValueReducers.Fetch<Int>, String>.self).hasSuffix("_Fetcher"))
        // A mapped, deduplicated, traced observation: its reducer chain is
        // run through `_add`.
        let observation = ValueObservation
            .tracking { db in try UnderscoredBook.fetchCount(db) }
            .map { $0 * 10 }
            .removeDuplicates()
            .handleEvents(willFetch: { })
        let (recorder, cancellable) = record(observation, in: writer, queue: queue)
        #expect(recorder.wait { $0 == [30] })
        try writer.write { db in try db.execute(sql: "UPDATE book SET title = 'Ashes' WHERE id = 1") }
        try writer.write { db in try db.execute(sql: "INSERT INTO book (title) VALUES ('Fir')") }
        #expect(recorder.wait { $0 == [30, 40] })
        cancellable.cancel()
    }

    @Test(arguments: WriterKind.allCases)
    func addReportsErrorsToDidFail(kind: WriterKind) throws {
        let writer = try makeLibrary(kind, in: directory)
        let observation = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT * FROM missing")
        }
        let (recorder, cancellable) = record(observation, in: writer, queue: queue)
        #expect(recorder.waitForError() is DatabaseError)
        #expect(recorder.values.isEmpty)
        cancellable.cancel()
    }

    // MARK: Cursors

    @Test func cursorsExposeStatementAndElement() throws {
        let writer = try makeLibrary(.queue, in: directory)
        try writer.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT id, title FROM book ORDER BY id")
            let sqliteStatement = rows._statement.sqliteStatement
            #expect(rows._statement.sql == "SELECT id, title FROM book ORDER BY id")
            // No current row before the first step.
            #expect(throws: DatabaseError.self) { try rows._element(sqliteStatement: sqliteStatement) }
            let row = try #require(try rows.next())
            #expect(try rows._element(sqliteStatement: sqliteStatement)["title"] as String == "Ash")
            #expect(row["id"] as Int64 == 1)
            #expect(!rows._isDone)

            let values = try String.fetchCursor(db, sql: "SELECT title FROM book ORDER BY id")
            _ = try values.next()
            #expect(try values._element(sqliteStatement: values._statement.sqliteStatement) == "Ash")
            // Another statement is refused.
            #expect(throws: DatabaseError.self) { try values._element(sqliteStatement: sqliteStatement) }

            let slow = try DatabaseValueCursor<DatabaseValue>.self == type(of: Table<DatabaseValue>("book").fetchCursor(db))
            #expect(slow)

            let records = try UnderscoredBook.fetchCursor(db, sql: "SELECT * FROM book ORDER BY id")
            _ = try records.next()
            let book = try records._element(sqliteStatement: records._statement.sqliteStatement)
            #expect(book.title == "Ash")
        }
    }

    @Test func settingIsDoneEndsTheIteration() throws {
        let writer = try makeLibrary(.queue, in: directory)
        try writer.read { db in
            let cursor = try UnderscoredBook.fetchCursor(db, sql: "SELECT * FROM book ORDER BY id")
            #expect(try cursor.next()?.title == "Ash")
            cursor._isDone = true
            #expect(cursor._isDone)
            #expect(try cursor.next() == nil)
            // A cursor does not start again.
            cursor._isDone = false
            #expect(cursor._isDone)
            #expect(try cursor.next() == nil)
            // The statement was reset: it runs again from the start.
            #expect(try String.fetchAll(db, sql: "SELECT title FROM book ORDER BY id") == ["Ash", "Birch", "Cedar"])

            let values = try Int64.fetchCursor(db, sql: "SELECT id FROM book ORDER BY id")
            values._isDone = true
            #expect(try values.next() == nil)
            #expect(throws: DatabaseError.self) { try values._element(sqliteStatement: values._statement.sqliteStatement) }
        }
    }

    @Test func databaseCursorHasAPrimaryAssociatedType() throws {
        let writer = try makeLibrary(.queue, in: directory)
        try writer.read { db in
            let cursor = try titles(db)
            #expect(try Array(cursor) == ["Ash", "Birch", "Cedar"])
            let erased: any DatabaseCursor<UnderscoredBook> = try UnderscoredBook.fetchCursor(db, sql: "SELECT * FROM book")
            #expect(try erased.next()?.id == 1)
            let first = try #require(try firstElement(of: UnderscoredBook.fetchCursor(db, sql: "SELECT * FROM book ORDER BY id")))
            #expect(first.sql == "SELECT * FROM book ORDER BY id")
            #expect(first.element.title == "Ash")
            #expect(try firstElement(of: Row.fetchCursor(db, sql: "SELECT 1 WHERE 0")) == nil)

            let anyCursor: some Cursor<Int64> = try Int64.fetchCursor(db, sql: "SELECT id FROM author")
            #expect(try Array(anyCursor) == [1, 2])
        }
    }

    // MARK: Row adapters

    @Test func customAdapterThroughRowLayout() throws {
        let writer = try makeLibrary(.queue, in: directory)
        try writer.read { db in
            let sql = "SELECT id, title FROM book WHERE id = 2"
            let row = try #require(try Row.fetchOne(db, sql: sql, adapter: TitleAsNameAdapter()))
            #expect(row["name"] as String == "Birch")
            #expect(row.count == 1)
            #expect(row.unadapted["id"] as Int64 == 2)

            // In a scope, and through a request.
            let scoped = try #require(try Row.fetchOne(db, sql: sql, adapter: ScopeAdapter(["renamed": TitleAsNameAdapter()])))
            #expect(scoped.scopes["renamed"]?["name"] as String? == "Birch")
            let request = SQLRequest<Row>(sql: sql).adapted { _ in TitleAsNameAdapter() }
            #expect(try Row.fetchOne(db, request)?["name"] as String? == "Birch")

            // The adapter that implements nothing throws instead of
            // looping.
            #expect(throws: DatabaseError.self) { try Row.fetchOne(db, sql: sql, adapter: EmptyHandedAdapter()) }
        }
    }

    @Test func layoutsOfStatementsAndMappings() throws {
        let writer = try makeLibrary(.queue, in: directory)
        try writer.read { db in
            let statement = try db.makeStatement(sql: "SELECT 1 AS a, 2 AS B, 3 AS c")
            #expect(statement._layoutColumns.map(\.0) == [0, 1, 2])
            #expect(statement._layoutColumns.map(\.1) == ["a", "B", "c"])
            #expect(statement._layoutIndex(ofColumn: "b") == 1)

            // A suffix, then a mapping over the suffix: the indexes of the
            // mapping are indexes of the statement.
            let suffix = try SuffixRowAdapter(fromIndex: 1)._layoutedAdapter(from: statement)._mapping
            #expect(suffix._layoutColumns.map(\.0) == [1, 2])
            #expect(suffix._layoutIndex(ofColumn: "C") == 1)
            #expect(suffix._layoutIndex(ofColumn: "a") == nil)
            let mapped = try ColumnMapping(["x": "c"])._layoutedAdapter(from: suffix)
            #expect(mapped._mapping._layoutColumns.map(\.0) == [2])
            #expect(mapped._mapping._layoutColumns.map(\.1) == ["x"])
            #expect(mapped._scopes.isEmpty)

            // Scopes.
            let scoped = try ScopeAdapter(["tail": SuffixRowAdapter(fromIndex: 2)])._layoutedAdapter(from: statement)
            #expect(scoped._mapping._layoutColumns.count == 3)
            #expect(scoped._scopes["tail"]?._mapping._layoutColumns.map(\.0) == [2])

            // A missing column throws.
            #expect(throws: DatabaseError.self) { try ColumnMapping(["x": "missing"])._layoutedAdapter(from: statement) }
        }
    }

    // MARK: Associations

    @Test func joinsFromAssociationDefinitions() throws {
        let writer = try makeLibrary(.queue, in: directory)
        try writer.read { db in
            func sql(_ request: QueryInterfaceRequest<UnderscoredBook>) throws -> String {
                try request.makePreparedRequest(db).statement.sql
            }
            let author = UnderscoredBook.author._sqlAssociation
            #expect(try sql(UnderscoredBook.all()._including(required: author)) == sql(UnderscoredBook.including(required: UnderscoredBook.author)))
            #expect(try sql(UnderscoredBook.all()._including(optional: author)) == sql(UnderscoredBook.including(optional: UnderscoredBook.author)))
            #expect(try sql(UnderscoredBook.all()._joining(required: author)) == sql(UnderscoredBook.joining(required: UnderscoredBook.author)))
            #expect(try sql(UnderscoredBook.all()._joining(optional: author)) == sql(UnderscoredBook.joining(optional: UnderscoredBook.author)))

            let required = try Row.fetchAll(db, UnderscoredBook.all()._including(required: author).order(Column("id")))
            #expect(required.count == 2)
            #expect(required.first?.scopes["author"]?["name"] as String? == "Ann")

            let prefetched = try Row.fetchAll(db, UnderscoredAuthor.all()
                ._including(all: UnderscoredAuthor.books._sqlAssociation).order(Column("id")))
            #expect(prefetched.map { $0.prefetchedRows["books"]?.count } == [2, 0])

            // On an association: the books of authors of books.
            let nested = UnderscoredBook.author._including(all: UnderscoredAuthor.books._sqlAssociation)
            let rows = try Row.fetchAll(db, UnderscoredBook.including(required: nested).order(Column("id")))
            #expect(rows.count == 2)

            // The definition of an association is settable.
            var writtenBy = UnderscoredBook.author
            writtenBy._sqlAssociation = UnderscoredBook.author.forKey("writer")._sqlAssociation
            let withWriter = try Row.fetchAll(db, UnderscoredBook.including(required: writtenBy).order(Column("id")))
            #expect(withWriter.first?.scopes["writer"]?["name"] as String? == "Ann")

            let alias = TableAlias()
            let aliased = UnderscoredBook.all()._aliased(alias).filter(alias[Column("title")] == "Birch")
            #expect(try aliased.fetchAll(db).map(\.id) == [2])
        }
    }

    // MARK: Table<RowDecoder>

    @Test(arguments: WriterKind.allCases)
    func genericTableRequests(kind: WriterKind) throws {
        let writer = try makeLibrary(kind, in: directory)
        try writer.read { db in
            let authors = Table<UnderscoredAuthor>("author")
            #expect(try authors.all().fetchAll(db).map(\.name) == ["Ann", "Bob"])
            #expect(try authors.filter(Column("name") == "Bob").fetchOne(db)?.id == 2)
            #expect(try authors.fetchCount(db) == 2)
            #expect(try authors.order([Column("name").desc]).fetchAll(db).map(\.id) == [2, 1])
            #expect(try authors.select(Column("name"), as: String.self).order(Column("id")).fetchAll(db) == ["Ann", "Bob"])
            #expect(try Table("author").select([Column("id")], as: Int64.self).fetchSet(db) == [1, 2])
            let annotated = try Table("author").annotated(with: [(Column("id") * 10).forKey("tenfold")]).fetchAll(db)
            #expect(annotated.map { $0["tenfold"] as Int64 } == [10, 20])

            // Rows of plain values.
            let words = Table<String>("word")
            #expect(try words.fetchAll(db) == ["b", "a", "b"])
            #expect(try words.fetchSet(db) == ["a", "b"])
            #expect(try words.fetchOne(db) == "b")
            let cursor: FastDatabaseValueCursor<String> = try words.fetchCursor(db)
            #expect(try Array(cursor) == ["b", "a", "b"])
            #expect(try Table<String?>("word").fetchAll(db) == ["b", "a", "b"])
            #expect(try Table<DatabaseValue>("word").fetchCursor(db).next() == "b".databaseValue)
            #expect(try Table("word").fetchAll(db).count == 3)
        }
    }
}
