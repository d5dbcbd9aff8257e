import CairnSQLite

/// The prepared statements that a connection keeps, keyed by their SQL and
/// by who asked for them (see ``Kind``): one cache, with one way of looking
/// a statement up (``Database/cachedStatement(sql:kind:)``).
///
/// Two kinds are bounded, each by a capacity of its own, so that neither
/// evicts the other's statements: the implicit statements (those that
/// Cairn prepares for the user's SQL strings), by
/// ``Configuration/implicitStatementCacheCapacity`` (zero turns their
/// caching off), and the generated statements (the SQL that Cairn writes
/// for requests and records), by ``generatedCapacity``. When a bounded kind
/// has as many statements as its capacity, its least recently used one
/// leaves the cache. The explicit statements (the user's
/// ``Database/cachedStatement(sql:)``) and the internal ones (a fixed set of
/// SQL strings) are not bounded. A lookup compares the SQL with the few
/// entries returned last (immediate for the same string), and hashes it
/// otherwise; the eviction scans the entries, and only happens when a
/// statement is prepared, which costs far more.
///
/// Beside this cache, the connection keeps the last INSERT statement of
/// each record type (`RecordInsertCache`, in the opaque
/// `Database.recordCaches` slot, since records are a layer above): an
/// insert finds it by record type without building its SQL. Its statements
/// are generated statements of this cache, and
/// ``Database/clearStatementCache()`` clears both.
///
/// The cache is used on the thread of the current access only, as the rest
/// of the connection's state, and no access to it stays open across a call
/// into SQLite: statements are prepared between a lookup and an insertion.
struct StatementCache {
    /// Who asked for a statement: statements of the same SQL but of
    /// different kinds are different entries.
    enum Kind: UInt8 {
        /// ``Database/cachedStatement(sql:)``: the statements of the user,
        /// which keep their arguments.
        case explicit
        /// The statements that Cairn prepares for SQL strings
        /// (``Database/execute(sql:arguments:)``, `fetchOne(db, sql:)`, SQL
        /// and query interface requests): bounded, and they release their
        /// arguments after each use.
        case implicit
        /// The SQL that Cairn generates for requests and records (the
        /// lookups, updates, deletions and inserts of records, counts,
        /// prefetches, upserts): bounded by ``generatedCapacity``, since
        /// their SQL varies with tables, columns and the number of keys.
        /// Cairn sets their arguments at each use.
        case generated
        /// The statements of a fixed set of SQL strings of Cairn's own
        /// work (transactions, schema version, `query_only`): Cairn may
        /// leave their arguments undefined.
        case `internal`
    }

    /// The maximum number of generated statements.
    static let generatedCapacity = 128

    /// A cached statement, and what the cache keeps beside it.
    ///
    /// The statement refers to its entry (``Statement/cacheEntry``) while it
    /// is in the cache; the entry may keep a row of the statement, which
    /// refers to the statement. ``release(_:)`` breaks both cycles when the
    /// entry has left the cache.
    final class Entry {
        let statement: Statement
        /// When the cache last returned the statement (see
        /// ``StatementCache/recent``).
        var lastUse: UInt64 = 0
        /// The row of the last fetch of one record from the statement, kept
        /// for the next one (see ``Row/reusableRow(of:)``). Dropped when the
        /// columns of the statement change (see
        /// ``Statement/columnsChangedByReprepare()``).
        var reusableRow: Row?

        init(statement: Statement) {
            self.statement = statement
        }
    }

    private struct Key: Hashable {
        var sql: String
        var kind: Kind
    }

    /// A recently returned entry, with its key.
    private struct Recent {
        var key: Key
        var entry: Entry
    }

    private var entries: [Key: Entry] = [:]
    /// The entries returned last, the newest first, at most
    /// ``recentCount``: a loop that runs a few SQL strings (a transaction's
    /// BEGIN, a query and its COMMIT) finds them by comparing strings,
    /// which is immediate for the same literal, without hashing the SQL.
    /// The ``Entry/lastUse`` of an entry is set when it leaves this list:
    /// the recent entries are never the least recently used ones.
    private var recent: [Recent] = []
    private static let recentCount = 4
    /// Counts the uses, to tell the least recently used entry.
    private var clock: UInt64 = 0
    /// The number of implicit entries.
    private var implicitCount = 0
    /// The number of generated entries.
    private var generatedCount = 0
    /// The maximum number of implicit entries.
    let implicitCapacity: Int

    init(implicitCapacity: Int) {
        self.implicitCapacity = max(0, implicitCapacity)
        recent.reserveCapacity(Self.recentCount)
    }

    /// Whether statements of `kind` are cached.
    func caches(_ kind: Kind) -> Bool {
        kind != .implicit || implicitCapacity > 0
    }

    /// The cached statement of `sql` and `kind`, marked as used.
    @inline(__always)
    mutating func statement(sql: String, kind: Kind) -> Statement? {
        for index in recent.indices where recent[index].key.kind == kind && recent[index].key.sql == sql {
            return recent[index].entry.statement
        }
        return lookUp(sql: sql, kind: kind)
    }

    /// The slow path of ``statement(sql:kind:)``: a hashed lookup.
    private mutating func lookUp(sql: String, kind: Kind) -> Statement? {
        let key = Key(sql: sql, kind: kind)
        guard let entry = entries[key] else { return nil }
        makeRecent(entry, key: key)
        return entry.statement
    }

    private mutating func makeRecent(_ entry: Entry, key: Key) {
        if recent.count == Self.recentCount {
            clock &+= 1
            recent.removeLast().entry.lastUse = clock
        }
        recent.insert(Recent(key: key, entry: entry), at: 0)
    }

    private mutating func forgetRecent(_ entry: Entry) {
        recent.removeAll { $0.entry === entry }
    }

    /// The maximum number of entries of a bounded kind; nil for the kinds
    /// that are not bounded.
    private func capacity(of kind: Kind) -> Int? {
        switch kind {
        case .implicit: return implicitCapacity
        case .generated: return Self.generatedCapacity
        case .explicit, .internal: return nil
        }
    }

    /// The number of entries of a bounded kind.
    private func count(of kind: Kind) -> Int {
        kind == .implicit ? implicitCount : generatedCount
    }

    private mutating func addToCount(of kind: Kind, _ delta: Int) {
        switch kind {
        case .implicit: implicitCount += delta
        case .generated: generatedCount += delta
        case .explicit, .internal: break
        }
    }

    /// Caches a statement, in place of the former statement of the same SQL
    /// and kind; evicts the least recently used statement of a bounded kind
    /// when the kind has as many as its capacity.
    ///
    /// - Precondition: ``caches(_:)`` is true for `kind`, and the statement
    ///   is in no cache.
    /// - Returns: The entries that left the cache, for ``release(_:)``
    ///   once the mutation of the cache has ended.
    mutating func insert(_ statement: Statement, sql: String, kind: Kind) -> [Entry] {
        let key = Key(sql: sql, kind: kind)
        var left: [Entry] = []
        if let replaced = entries[key] {
            forgetRecent(replaced)
            left.append(replaced)
        } else if let capacity = capacity(of: kind) {
            if count(of: kind) >= capacity, let oldest = leastRecentlyUsedKey(of: kind),
               let evicted = entries.removeValue(forKey: oldest)
            {
                addToCount(of: kind, -1)
                forgetRecent(evicted)
                left.append(evicted)
            }
            addToCount(of: kind, 1)
        }
        let entry = Entry(statement: statement)
        entries[key] = entry
        statement.cacheEntry = entry
        makeRecent(entry, key: key)
        return left
    }

    /// Removes every statement.
    ///
    /// - Returns: The entries that left the cache, for ``release(_:)``
    ///   once the mutation of the cache has ended.
    mutating func removeAll() -> [Entry] {
        let left = Array(entries.values)
        entries.removeAll()
        recent.removeAll(keepingCapacity: true)
        implicitCount = 0
        generatedCount = 0
        return left
    }

    /// Breaks the cycles of entries that left the cache: they keep no row,
    /// and their statements no entry. Called after the mutation of the
    /// cache has ended, since dropping a row or a statement may finalize
    /// a statement, and SQLite may then call the trace function of the
    /// user.
    static func release(_ entries: [Entry]) {
        for entry in entries {
            entry.reusableRow = nil
            if entry.statement.cacheEntry === entry {
                entry.statement.cacheEntry = nil
            }
        }
    }

    /// The entry of `kind` used least recently: one of the recent entries,
    /// whose ``Entry/lastUse`` is not current, only when all entries of the
    /// kind are recent.
    private func leastRecentlyUsedKey(of kind: Kind) -> Key? {
        var oldest: (key: Key, lastUse: UInt64)?
        for (key, entry) in entries where key.kind == kind && !recent.contains(where: { $0.entry === entry }) {
            if oldest.map({ entry.lastUse < $0.lastUse }) ?? true {
                oldest = (key, entry.lastUse)
            }
        }
        if let oldest { return oldest.key }
        // The oldest of the recent entries.
        return recent.last { $0.key.kind == kind }?.key
    }
}

extension Database {
    /// The statement of `sql` from the connection's cache, for `kind`,
    /// preparing and caching it the first time.
    ///
    /// A cached statement is never given to two users at once: when the
    /// cached one is running (a cursor iterates it, or a Swift function
    /// called by it runs the same SQL), a new statement is prepared, and not
    /// cached. A statement prepared before a schema change is prepared
    /// again, so that what Cairn read from it (columns, region, effects) is
    /// current. Implicit statements release their arguments after each use
    /// (``Statement/releaseArgumentsAfterImplicitUse()``), so that the cache
    /// does not keep large values alive.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, empty, or holds
    ///   several statements.
    @inline(__always)
    func cachedStatement(sql: String, kind: StatementCache.Kind) throws -> Statement {
        preconditionInsideAccess()
        if let statement = state.statementCache.statement(sql: sql, kind: kind), !statement.isRunning,
           statement.schemaGeneration == state.schemaCache.generation
        {
            return statement
        }
        return try prepareCachedStatement(sql: sql, kind: kind)
    }

    /// The slow path of ``cachedStatement(sql:kind:)``: the cached
    /// statement is missing, running, or prepared before a schema change.
    @inline(never)
    private func prepareCachedStatement(sql: String, kind: StatementCache.Kind) throws -> Statement {
        if let statement = state.statementCache.statement(sql: sql, kind: kind), statement.isRunning {
            // Not cached: the cached one serves again once it is done.
            return try makeStatement(sql: sql)
        }
        // Missing, or prepared before a schema change.
        guard state.statementCache.caches(kind) else {
            return try makeStatement(sql: sql)
        }
        // No access to the cache is open while SQLite prepares: the
        // preparation may call back into Swift (the authorizer, the
        // initializers of FTS5 tokenizers).
        let statement = try makeStatement(sql: sql, prepareFlags: UInt32(SQLITE_PREPARE_PERSISTENT))
        cache(statement, sql: sql, kind: kind)
        return statement
    }

    /// Caches a statement just prepared for `sql`, when statements of
    /// `kind` are cached; returns whether it was cached.
    @discardableResult
    func cache(_ statement: Statement, sql: String, kind: StatementCache.Kind) -> Bool {
        guard state.statementCache.caches(kind) else { return false }
        if kind == .implicit {
            statement.releasesArgumentsAfterUse = true
        }
        let left = state.statementCache.insert(statement, sql: sql, kind: kind)
        StatementCache.release(left)
        return true
    }

    /// The cached implicit statement of `sql`, if it can be used now: not
    /// running, and prepared with the current schema. Nil otherwise: then
    /// nothing is prepared.
    @inline(__always)
    func reusableImplicitStatement(sql: String) -> Statement? {
        // The cache is the connection's: only its access thread touches it.
        preconditionInsideAccess()
        guard let statement = state.statementCache.statement(sql: sql, kind: .implicit),
              !statement.isRunning,
              statement.schemaGeneration == state.schemaCache.generation
        else { return nil }
        return statement
    }

    /// Returns a statement for `sql`, one of the user's SQL strings, from
    /// the bounded cache of implicit statements (see
    /// ``StatementCache/Kind/implicit``).
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, empty, or holds
    ///   several statements.
    @usableFromInline
    func implicitStatement(sql: String) throws -> Statement {
        try cachedStatement(sql: sql, kind: .implicit)
    }

    /// Returns a statement for SQL that Cairn generated (for a request or a
    /// record), from the bounded cache of generated statements (see
    /// ``StatementCache/Kind/generated``). Its arguments are those of its
    /// last use: set them before running it.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, empty, or holds
    ///   several statements.
    func generatedStatement(sql: String) throws -> Statement {
        try cachedStatement(sql: sql, kind: .generated)
    }
}

extension Statement {
    /// Whether the statement runs now: a cursor iterates it, or it is
    /// executing (a Swift function that it calls runs SQL). A cache then
    /// gives a new statement rather than this one.
    var isRunning: Bool {
        isIteratedByCursor || sqlite3_stmt_busy(sqliteStatement) != 0
    }
}
