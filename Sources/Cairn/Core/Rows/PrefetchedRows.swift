// The rows that `including(all:)` prefetches, as the rows of their parents
// hold them.
//
// A prefetch query returns the children of many parents. Copying each child
// into a `Row` object with an array of its own costs two allocations per
// child, and as many frees: most of the cost of a prefetch. Instead, the
// values of all rows of one query are copied into chunks of values (a
// `PrefetchedRowSet`), and the parents refer to ranges of it. `Row` objects
// are made when someone asks for them (`row.prefetchedRows[key]`) or when a
// record decodes from them (`row.decode(forKey:)`, see
// `PrefetchedRowIterator`), as views on their chunk: one small object per
// row, without a copy of its values.

/// The values of the rows of one prefetch query, row after row, in arrays
/// of a fixed number of rows (chunks).
///
/// Chunks, rather than one array: appending to one large array copies it
/// again and again as it grows, and large allocations go to the system
/// (`mmap`) and come back with fresh pages at each fetch. A chunk holds
/// about a thousand values (24 KB), and is allocated once at its size.
///
/// Unchecked Sendable: the chunks are ``RowValues``, which the standard
/// library does not let declare `Sendable`, and which are never changed
/// once `fetch(_:)` made them.
struct PrefetchedValues: @unchecked Sendable {
    /// The names of the columns, shared by all rows.
    let columnNames: [String]

    /// The values, `rowsPerChunk` rows of `columnNames.count` values per
    /// chunk (the last chunk may hold fewer).
    let chunks: [RowValues]

    /// The number of rows of each chunk but the last.
    let rowsPerChunk: Int

    /// The number of rows.
    let rowCount: Int

    /// The chunk of a row, and the index of its first value in the chunk.
    ///
    /// - Precondition: `row < rowCount`.
    @inline(__always)
    func location(ofRow row: Int) -> (chunk: Int, offset: Int) {
        let chunk = row / rowsPerChunk
        return (chunk, (row - chunk * rowsPerChunk) * columnNames.count)
    }

    /// The value of a column of a row.
    ///
    /// - Precondition: `row < rowCount`, `column < columnNames.count`.
    @inline(__always)
    func value(row: Int, column: Int) -> DatabaseValue {
        let (chunk, offset) = location(ofRow: row)
        return chunks[chunk][offset + column]
    }

    /// A new view on a row.
    ///
    /// - Precondition: `row < rowCount`.
    func makeRow(_ row: Int) -> Row {
        let (chunk, offset) = location(ofRow: row)
        return Row(prefetchedColumnNames: columnNames, values: chunks[chunk], offset: offset)
    }

    /// The number of rows of a chunk, for a number of columns.
    static func rowsPerChunk(columnCount: Int) -> Int {
        max(1, 1024 / max(columnCount, 1))
    }

    /// Runs a statement and copies the values of all its rows.
    ///
    /// - Parameter statement: A statement whose arguments are set.
    /// - Throws: A ``DatabaseError``.
    static func fetch(_ statement: Statement) throws -> PrefetchedValues {
        var state = try DatabaseCursorState(statement: statement, arguments: nil, oneShot: true)
        defer { state.finish() }
        let columnCount = statement.uncheckedColumnCount
        let rowsPerChunk = rowsPerChunk(columnCount: columnCount)
        var chunks: [RowValues] = []
        var rowCount = 0
        var isDone = false
        while !isDone {
            // Each chunk is allocated once, and its values are initialized
            // in place.
            let capacity = rowsPerChunk * columnCount
            let firstRow = rowCount
            let chunk = try RowValues.make(capacity: capacity) { header, elements in
                for _ in 0..<rowsPerChunk {
                    guard try state.step() else {
                        isDone = true
                        return
                    }
                    // The header counts what is initialized, should a later
                    // step throw. At most rowsPerChunk rows of columnCount
                    // values: within the capacity.
                    Row.initializeValues(
                        from: state.sqliteStatement, count: columnCount,
                        at: elements + header.count, header: &header)
                    rowCount += 1
                }
            }
            // Rows without columns have a chunk too: makeRow finds one.
            if rowCount > firstRow { chunks.append(chunk) }
        }
        return PrefetchedValues(columnNames: statement.columnNames, chunks: chunks, rowsPerChunk: rowsPerChunk, rowCount: rowCount)
    }
}

/// The rows of one prefetch query, and the order that groups them by
/// parent.
///
/// Immutable once built, so that the views on it can be sent anywhere. A
/// row made from the set keeps its chunk of values alive, as an
/// `ArraySlice` keeps its array.
@usableFromInline
final class PrefetchedRowSet: Sendable {
    /// The values of the rows.
    let values: PrefetchedValues

    /// The row numbers (0 for the first row of the query), grouped by
    /// parent: a parent refers to a range of this array.
    let order: [Int32]

    /// Creates a set.
    ///
    /// - Precondition: `order` holds row numbers of `values`.
    init(values: PrefetchedValues, order: [Int32]) {
        self.values = values
        self.order = order
    }
}

/// The rows prefetched for one parent and one association key: an array of
/// rows, or a range of the order of a ``PrefetchedRowSet``.
@usableFromInline
struct PrefetchedRows: Sendable {
    @usableFromInline
    enum Storage: Sendable {
        /// Rows made one by one (prefetches whose rows have scopes or
        /// prefetched rows of their own).
        case rows([Row])
        /// A range of `set.order`.
        case set(PrefetchedRowSet, Range<Int>)
    }

    @usableFromInline
    let storage: Storage

    /// No rows.
    static let empty = PrefetchedRows(.rows([]))

    /// Creates the prefetched rows of one parent.
    init(_ storage: Storage) {
        self.storage = storage
    }

    /// The number of rows.
    @usableFromInline
    var count: Int {
        switch storage {
        case .rows(let rows): return rows.count
        case .set(_, let range): return range.count
        }
    }

    /// The rows, made as views on the set when needed.
    var rows: [Row] {
        switch storage {
        case .rows(let rows):
            return rows
        case let .set(set, range):
            return set.order[range].map { set.values.makeRow(Int($0)) }
        }
    }

    /// An iterator over the rows, for decoding records (see
    /// ``PrefetchedRowIterator``).
    @usableFromInline
    func makeRowIterator() -> PrefetchedRowIterator {
        PrefetchedRowIterator(self)
    }
}

/// Iterates prefetched rows for decoding records from them, without the
/// `[Row]` array of ``PrefetchedRows/rows``: the rows of a
/// ``PrefetchedRowSet`` are made one at a time, as views on their chunk of
/// values (one small object each, no copy of the values).
///
/// Each row gets a view of its own, which never changes: a record may keep
/// its row, or a weak or unowned reference to it, or send it to another
/// task. (Moving one view from row to row when nothing else seems to
/// reference it is not safe: weak and unowned references do not count.)
@usableFromInline
struct PrefetchedRowIterator {
    /// The rows, when they are not views on a set.
    private let array: [Row]
    /// The set, when the rows are views on it.
    private let set: PrefetchedRowSet?
    private var position: Int
    private let end: Int

    init(_ rows: PrefetchedRows) {
        switch rows.storage {
        case .rows(let array):
            self.array = array
            set = nil
            position = 0
            end = array.count
        case let .set(set, range):
            array = []
            self.set = set
            position = range.lowerBound
            end = range.upperBound
        }
    }

    /// The next row, or nil at the end.
    @usableFromInline
    mutating func next() -> Row? {
        guard position < end else { return nil }
        defer { position += 1 }
        guard let set else { return array[position] }
        return set.values.makeRow(Int(set.order[position]))
    }
}

/// The rows prefetched for a row, and for its scopes.
struct PrefetchedRowsTree: Sendable {
    /// The prefetched rows of the row, by association key, in the order
    /// they were set. A short array rather than a dictionary: a row has one
    /// or two keys, and comparing a short key costs less than hashing it.
    private var entries: [(key: String, rows: PrefetchedRows)] = []

    /// The prefetched rows of the scopes of the row, keyed by scope name.
    var scopes: [String: PrefetchedRowsTree] = [:]

    /// The association keys of the rows of the row itself.
    var keys: [String] { entries.map(\.key) }

    /// The rows of a key, for the row itself.
    subscript(_ key: String) -> PrefetchedRows? {
        for entry in entries where entry.key == key {
            return entry.rows
        }
        return nil
    }

    /// Sets the rows of `key`, for the scope at `path` (empty for the row
    /// itself).
    mutating func set(_ prefetched: PrefetchedRows, forKey key: String, scopePath path: ArraySlice<String>) {
        guard let first = path.first else {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                entries[index].rows = prefetched
            } else {
                entries.append((key, prefetched))
            }
            return
        }
        scopes[first, default: PrefetchedRowsTree()].set(prefetched, forKey: key, scopePath: path.dropFirst())
    }

    /// Whether two trees hold equal rows for the same keys (the scopes are
    /// compared by the rows that hold them).
    static func rowsAreEqual(_ lhs: PrefetchedRowsTree?, _ rhs: PrefetchedRowsTree?) -> Bool {
        let lhs = lhs?.entries ?? [], rhs = rhs?.entries ?? []
        guard lhs.count == rhs.count else { return false }
        for entry in lhs {
            guard let other = rhs.first(where: { $0.key == entry.key }),
                  other.rows.count == entry.rows.count,
                  other.rows.rows == entry.rows.rows
            else { return false }
        }
        return true
    }
}
