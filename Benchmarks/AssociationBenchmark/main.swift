import BenchmarkSupport
import Cairn
import Foundation
import CairnSQLiteShims

// Associations: authors and their books fetched through Cairn's
// associations (`including(all:)`, `including(required:)`, an annotation
// with the count of a to-many association), and through the raw C API of the
// same SQLite doing the same work by hand, in one process.
//
// Each author has 10 books. `--rows` is the number of books of workloads 15
// and 16 (200,000 by default: 20,000 authors). Workload 14 uses a database
// a tenth of that size (2,000 authors, 20,000 books by default): the rows/s
// column divides `--rows` by the median, so for workload 14 it is ten times
// the books actually read per second.

let options = BenchmarkOptions(defaultRows: 200_000)

/// The number of books of each author.
let booksPerAuthor = 10

/// The number of authors of the database of workloads 15 and 16.
let largeAuthorCount = max(1, options.rows / booksPerAuthor)

/// The number of authors of the database of workload 14.
let smallAuthorCount = max(1, options.rows / (booksPerAuthor * 10))

/// The largest number of author ids in one query of the raw C prefetch: the
/// same chunks as Cairn's prefetch.
let rawPrefetchChunkSize = 10_000

/// The path of the database with `authorCount` authors.
func databasePath(authorCount: Int) -> String {
    temporaryPath("cairn-association-benchmark-\(authorCount)x\(booksPerAuthor).sqlite")
}

/// Generates the database of `authorCount` authors once; later runs reuse
/// the file. The file is built under another name and moved in place at the
/// end, so that an interrupted run does not leave a partial database.
func makeDatabase(authorCount: Int) throws {
    let path = databasePath(authorCount: authorCount)
    if FileManager.default.fileExists(atPath: path) { return }
    let buildPath = path + "-building"
    for suffix in ["", "-journal", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: buildPath + suffix)
    }
    let db = try rawOpen(buildPath)
    try rawExec(db, """
        CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE book (
            id INTEGER PRIMARY KEY,
            authorId INTEGER NOT NULL REFERENCES author(id),
            title TEXT NOT NULL,
            year INTEGER NOT NULL);
        BEGIN
        """)
    let insertAuthor = try rawPrepare(db, "INSERT INTO author VALUES (?, ?)")
    for id in 1...authorCount {
        sqlite3_bind_int64(insertAuthor, 1, Int64(id))
        _ = "Author \(id)".withCString { text in
            sqlite3_bind_text(insertAuthor, 2, text, -1, _cairn_sqlite_transient())
        }
        try rawCheckDone(sqlite3_step(insertAuthor), db)
        sqlite3_reset(insertAuthor)
    }
    sqlite3_finalize(insertAuthor)
    // The books of an author are spread over the table, not contiguous.
    let insertBook = try rawPrepare(db, "INSERT INTO book VALUES (?, ?, ?, ?)")
    for id in 1...(authorCount * booksPerAuthor) {
        sqlite3_bind_int64(insertBook, 1, Int64(id))
        sqlite3_bind_int64(insertBook, 2, Int64((id - 1) % authorCount + 1))
        _ = "Book \(id)".withCString { text in
            sqlite3_bind_text(insertBook, 3, text, -1, _cairn_sqlite_transient())
        }
        sqlite3_bind_int64(insertBook, 4, Int64(1900 + id % 120))
        try rawCheckDone(sqlite3_step(insertBook), db)
        sqlite3_reset(insertBook)
    }
    sqlite3_finalize(insertBook)
    try rawExec(db, "CREATE INDEX book_authorId ON book(authorId); COMMIT")
    sqlite3_close(db)
    try FileManager.default.moveItem(atPath: buildPath, toPath: path)
}

/// An author, decoded by column index.
struct Author: FetchableRecord, TableRecord {
    /// The books of the author.
    static let books = hasMany(Book.self)
    /// The primary key.
    var id: Int64
    /// The name.
    var name: String

    /// Reads columns 0 and 1.
    init(row: Row) throws {
        id = row[0]; name = row[1]
    }

    /// Creates an author from values read with the C API.
    init(id: Int64, name: String) {
        self.id = id; self.name = name
    }
}

/// A book, decoded by column index.
struct Book: FetchableRecord, TableRecord {
    /// The author of the book.
    static let author = belongsTo(Author.self)
    /// The primary key.
    var id: Int64
    /// The foreign key to the author.
    var authorId: Int64
    /// The title.
    var title: String
    /// The publication year.
    var year: Int

    /// Reads columns 0 to 3.
    init(row: Row) throws {
        id = row[0]; authorId = row[1]; title = row[2]; year = row[3]
    }

    /// Creates a book from values read with the C API.
    init(id: Int64, authorId: Int64, title: String, year: Int) {
        self.id = id; self.authorId = authorId; self.title = title; self.year = year
    }
}

/// An author and all its books (workload 14).
struct AuthorInfo: FetchableRecord {
    /// The author.
    var author: Author
    /// The books of the author, prefetched.
    var books: [Book]

    /// Reads the author from the row, and the books from its prefetched rows.
    init(row: Row) throws {
        author = try Author(row: row)
        books = try row.decode(forKey: "books")
    }

    /// Creates the value from records built with the C API.
    init(author: Author, books: [Book]) {
        self.author = author; self.books = books
    }
}

/// A book and its author (workload 15).
struct BookInfo: FetchableRecord {
    /// The book.
    var book: Book
    /// The author of the book, joined.
    var author: Author

    /// Reads the book from the row, and the author from its scope.
    init(row: Row) throws {
        book = try Book(row: row)
        author = try row.decode(forKey: "author")
    }

    /// Creates the value from records built with the C API.
    init(book: Book, author: Author) {
        self.book = book; self.author = author
    }
}

/// An author and its number of books (workload 16).
struct AuthorCount: FetchableRecord {
    /// The author.
    var author: Author
    /// The number of books of the author.
    var bookCount: Int

    /// Reads the author from the row, and the count from its annotation.
    init(row: Row) throws {
        author = try Author(row: row)
        bookCount = row["bookCount"]
    }

    /// Creates the value from values read with the C API.
    init(author: Author, bookCount: Int) {
        self.author = author; self.bookCount = bookCount
    }
}

// The checksums are functions, not closures, for the reason given in
// FetchBenchmark: a closure of top-level code checks its executor at each
// call. They also check the counts, so that a join that loses or repeats
// rows fails even when both implementations agree.

/// The checksum of an author's values.
func authorChecksum(_ author: Author) -> Int {
    Int(author.id) &* 7 &+ author.name.utf8.count
}

/// The checksum of a book's values.
func bookChecksum(_ book: Book) -> Int {
    Int(book.id) &* 3 &+ Int(book.authorId) &+ book.year &+ book.title.utf8.count
}

/// The checksum of workload 14; throws unless each author has its books.
func checksum(_ infos: [AuthorInfo], authorCount: Int) throws -> Int {
    var sum = 0, bookCount = 0
    for info in infos {
        sum &+= authorChecksum(info.author)
        for book in info.books {
            guard book.authorId == info.author.id else { throw BenchmarkError("a book is given to another author") }
            sum &+= bookChecksum(book)
        }
        bookCount += info.books.count
    }
    guard infos.count == authorCount, bookCount == authorCount * booksPerAuthor else {
        throw BenchmarkError("including(all:): \(infos.count) authors and \(bookCount) books instead of \(authorCount) and \(authorCount * booksPerAuthor)")
    }
    return sum
}

/// The checksum of workload 15; throws unless each book has its author.
func checksum(_ infos: [BookInfo], authorCount: Int) throws -> Int {
    var sum = 0
    for info in infos {
        guard info.book.authorId == info.author.id else { throw BenchmarkError("a book is joined with another author") }
        sum &+= bookChecksum(info.book) &+ authorChecksum(info.author)
    }
    guard infos.count == authorCount * booksPerAuthor else {
        throw BenchmarkError("including(required:): \(infos.count) books instead of \(authorCount * booksPerAuthor)")
    }
    return sum
}

/// The checksum of workload 16; throws unless the counts add up.
func checksum(_ counts: [AuthorCount], authorCount: Int) throws -> Int {
    var sum = 0, bookCount = 0
    for count in counts {
        sum &+= authorChecksum(count.author) &+ count.bookCount &* 11
        bookCount += count.bookCount
    }
    guard counts.count == authorCount, bookCount == authorCount * booksPerAuthor else {
        throw BenchmarkError("annotated(with:): \(counts.count) authors and \(bookCount) books instead of \(authorCount) and \(authorCount * booksPerAuthor)")
    }
    return sum
}

/// Reads a TEXT column with the C API, from its UTF-8 bytes and length (no
/// scan for the NUL terminator), as Cairn does.
func rawText(_ statement: OpaquePointer, _ column: Int32) -> String {
    let bytes = sqlite3_column_text(statement, column)
    let count = Int(sqlite3_column_bytes(statement, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
}

/// Reads an author from the columns `offset`, `offset + 1` of a row.
func rawAuthor(_ statement: OpaquePointer, at offset: Int32) -> Author {
    Author(id: sqlite3_column_int64(statement, offset), name: rawText(statement, offset + 1))
}

/// Reads a book from the columns `offset` to `offset + 3` of a row.
func rawBook(_ statement: OpaquePointer, at offset: Int32) -> Book {
    Book(
        id: sqlite3_column_int64(statement, offset),
        authorId: sqlite3_column_int64(statement, offset + 1),
        title: rawText(statement, offset + 2),
        year: Int(sqlite3_column_int64(statement, offset + 3)))
}

/// The SQL of `Book.including(required: Book.author)`, run as is by raw C.
let joinSQL = #"SELECT "book".*, "author".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId""#

/// The SQL of `Author.annotated(with: Author.books.count)`, run as is by raw C.
let countSQL = #"SELECT "author".*, COUNT(DISTINCT "book"."id") AS "bookCount" FROM "author" "#
    + #"LEFT JOIN "book" ON "book"."authorId" = "author"."id" GROUP BY "author"."id""#

do {
    try makeDatabase(authorCount: smallAuthorCount)
    try makeDatabase(authorCount: largeAuthorCount)
    /// The raw C connection to the database of workload 14.
    let smallRawDB = try rawOpen(databasePath(authorCount: smallAuthorCount), readonly: true)
    /// The raw C connection to the database of workloads 15 and 16.
    let largeRawDB = try rawOpen(databasePath(authorCount: largeAuthorCount), readonly: true)
    /// Cairn's connection to the database of workload 14.
    let smallQueue = try DatabaseQueue(path: databasePath(authorCount: smallAuthorCount))
    /// Cairn's connection to the database of workloads 15 and 16.
    let largeQueue = try DatabaseQueue(path: databasePath(authorCount: largeAuthorCount))

    // Raw C: all authors, then their books with the ids bound as parameters
    // of an IN list, grouped by hand through a dictionary id → index. One
    // transaction around both queries, as Cairn's read runs them.
    func rawAuthorsWithBooks() throws -> Int {
        let db = smallRawDB
        try rawExec(db, "BEGIN")
        var authors: [Author] = []
        var indexes: [Int64: Int] = [:]
        let selectAuthors = try rawPrepare(db, "SELECT * FROM author")
        while sqlite3_step(selectAuthors) == SQLITE_ROW {
            let author = rawAuthor(selectAuthors, at: 0)
            indexes[author.id] = authors.count
            authors.append(author)
        }
        sqlite3_finalize(selectAuthors)
        var books = [[Book]](repeating: [], count: authors.count)
        var start = 0
        while start < authors.count {
            let end = min(start + rawPrefetchChunkSize, authors.count)
            let placeholders = repeatElement("?", count: end - start).joined(separator: ",")
            let selectBooks = try rawPrepare(db, "SELECT * FROM book WHERE authorId IN (\(placeholders))")
            for index in start..<end {
                sqlite3_bind_int64(selectBooks, Int32(index - start + 1), authors[index].id)
            }
            while sqlite3_step(selectBooks) == SQLITE_ROW {
                let book = rawBook(selectBooks, at: 0)
                guard let index = indexes[book.authorId] else {
                    sqlite3_finalize(selectBooks)
                    throw BenchmarkError("a book without its author")
                }
                books[index].append(book)
            }
            sqlite3_finalize(selectBooks)
            start = end
        }
        try rawExec(db, "COMMIT")
        var infos: [AuthorInfo] = []
        infos.reserveCapacity(authors.count)
        for index in authors.indices {
            infos.append(AuthorInfo(author: authors[index], books: books[index]))
        }
        return try checksum(infos, authorCount: smallAuthorCount)
    }

    // Raw C: the join of Cairn, each row split into a book and its author.
    func rawBooksWithAuthor() throws -> Int {
        let statement = try rawPrepare(largeRawDB, joinSQL)
        defer { sqlite3_finalize(statement) }
        var infos: [BookInfo] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            infos.append(BookInfo(book: rawBook(statement, at: 0), author: rawAuthor(statement, at: 4)))
        }
        return try checksum(infos, authorCount: largeAuthorCount)
    }

    // Raw C: the grouped join of Cairn, an author and a count per row.
    func rawAuthorsWithBookCount() throws -> Int {
        let statement = try rawPrepare(largeRawDB, countSQL)
        defer { sqlite3_finalize(statement) }
        var counts: [AuthorCount] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            counts.append(AuthorCount(author: rawAuthor(statement, at: 0), bookCount: Int(sqlite3_column_int64(statement, 2))))
        }
        return try checksum(counts, authorCount: largeAuthorCount)
    }

    /// The workloads, numbered after those of the other benchmarks.
    let workloads = [
        Workload("14 including(all:) hasMany", budget: 1.50, raw: rawAuthorsWithBooks) {
            try smallQueue.read { db in
                try checksum(
                    Author.including(all: Author.books).asRequest(of: AuthorInfo.self).fetchAll(db),
                    authorCount: smallAuthorCount)
            }
        },
        Workload("15 including(required:) belongsTo", budget: 1.40, raw: rawBooksWithAuthor) {
            try largeQueue.read { db in
                try checksum(
                    Book.including(required: Book.author).asRequest(of: BookInfo.self).fetchAll(db),
                    authorCount: largeAuthorCount)
            }
        },
        Workload("16 annotated(with: books.count)", budget: 1.10, raw: rawAuthorsWithBookCount) {
            try largeQueue.read { db in
                try checksum(
                    Author.annotated(with: Author.books.count).asRequest(of: AuthorCount.self).fetchAll(db),
                    authorCount: largeAuthorCount)
            }
        },
    ]
    BenchmarkRunner(title: "Associations (--rows = books of 15 and 16; 14 reads a tenth)", options: options).run(workloads)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
