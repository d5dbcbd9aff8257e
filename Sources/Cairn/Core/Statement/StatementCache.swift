import CairnSQLite

/// A cache of prepared statements keyed by their SQL: the bounded cache of
/// the statements that Cairn prepares for SQL strings
/// (``Database/execute(sql:arguments:)``, `fetchOne(db, sql:)`, SQL and
/// query interface requests), and the unbounded caches of
/// ``Database/cachedStatement(sql:)`` and of Cairn's internal statements.
/// When a bounded cache is full, the least recently used statement leaves
/// it.
///
/// The capacity of the bounded cache is
/// ``Configuration/implicitStatementCacheCapacity``; zero turns it off. The
/// other caches have a capacity of `Int.max`. A lookup compares the SQL
/// with the last statement returned (immediate for the same string), and
/// hashes it otherwise; the eviction scans the entries, and only happens
/// when a statement is prepared, which costs far more.
///
/// The cache is used on the thread of the current access only, as the rest
/// of the connection's state.
struct StatementCache {
    private var entries: [String: Statement] = [:]
    /// The entry returned last: a loop that runs the same SQL string finds
    /// it by comparing strings, which is immediate for the same literal,
    /// without hashing the SQL.
    private var mostRecent: (sql: String, statement: Statement)?
    /// Counts the uses, to tell the least recently used entry.
    private var clock: UInt64 = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The cached statement of `sql`, marked as used.
    @inline(__always)
    mutating func statement(sql: String) -> Statement? {
        if let mostRecent, mostRecent.sql == sql {
            clock &+= 1
            mostRecent.statement.lastCacheUse = clock
            return mostRecent.statement
        }
        guard let statement = entries[sql] else { return nil }
        clock &+= 1
        statement.lastCacheUse = clock
        mostRecent = (sql, statement)
        return statement
    }

    /// Caches a statement, in place of the former statement of the same SQL;
    /// evicts the least recently used statement when the cache is full.
    mutating func insert(_ statement: Statement, sql: String) {
        guard capacity > 0 else { return }
        if entries.count >= capacity && entries[sql] == nil {
            if let oldest = entries.min(by: { $0.value.lastCacheUse < $1.value.lastCacheUse })?.key {
                entries.removeValue(forKey: oldest)?.didLeaveConnectionCache()
            }
        }
        clock &+= 1
        statement.lastCacheUse = clock
        if let replaced = entries.updateValue(statement, forKey: sql), replaced !== statement {
            replaced.didLeaveConnectionCache()
        }
        statement.isInConnectionCache = true
        mostRecent = (sql, statement)
    }

    mutating func removeAll() {
        for statement in entries.values {
            statement.didLeaveConnectionCache()
        }
        entries.removeAll()
        mostRecent = nil
    }
}

extension Statement {
    /// Called when the statement leaves a cache of its connection: it keeps
    /// no row any longer (see ``reusableRow``).
    func didLeaveConnectionCache() {
        isInConnectionCache = false
        reusableRow = nil
    }
}

extension Database {
    /// The cached statement of `sql`, if it can be used now: not running,
    /// and prepared with the current schema.
    @inline(__always)
    func reusableImplicitStatement(sql: String) -> Statement? {
        // The cache is the connection's: only its access thread touches it.
        preconditionInsideAccess()
        guard let statement = implicitStatementCache.statement(sql: sql),
              !statement.isIteratedByCursor,
              sqlite3_stmt_busy(statement.sqliteStatement) == 0,
              statement.schemaGeneration == schemaCache.generation
        else { return nil }
        return statement
    }

    /// Returns a statement for `sql` from the bounded cache of statements
    /// that Cairn prepares on its own, preparing and caching it the first
    /// time (see ``StatementCache``).
    ///
    /// A cached statement is never given to two users at once: when the
    /// cached one is running (a cursor iterates it, or a Swift function
    /// called by it runs the same SQL), a new statement is prepared, and not
    /// cached. A statement prepared before a schema change is prepared again.
    /// Statements of this cache release their arguments after each use
    /// (``Statement/releaseArgumentsAfterImplicitUse()``), so that the cache
    /// does not keep large values alive.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, empty, or holds
    ///   several statements.
    @usableFromInline
    func implicitStatement(sql: String) throws -> Statement {
        preconditionInsideAccess()
        if let statement = implicitStatementCache.statement(sql: sql) {
            if statement.isIteratedByCursor || sqlite3_stmt_busy(statement.sqliteStatement) != 0 {
                return try makeStatement(sql: sql)
            }
            if statement.schemaGeneration == schemaCache.generation {
                return statement
            }
            // Prepared before a schema change: prepared again below, so that
            // what Cairn read from it (columns, region, effects) is current.
        }
        guard implicitStatementCache.capacity > 0 else {
            return try makeStatement(sql: sql)
        }
        let statement = try makeStatement(sql: sql, prepareFlags: UInt32(SQLITE_PREPARE_PERSISTENT))
        statement.releasesArgumentsAfterUse = true
        implicitStatementCache.insert(statement, sql: sql)
        return statement
    }
}
