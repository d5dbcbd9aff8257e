internal import CairnSQLiteShims

/// A raw SQLite connection handle: the `sqlite3 *` of the C interface.
///
/// See ``Database/sqliteConnection``. The handle belongs to Cairn: do not
/// close it, and use it only inside a database access.
public typealias SQLiteConnection = OpaquePointer

/// A raw SQLite prepared statement handle: the `sqlite3_stmt *` of the C
/// interface.
///
/// See ``Statement/sqliteStatement``. The handle belongs to Cairn: do not
/// finalize it, and use it only inside a database access.
public typealias SQLiteStatement = OpaquePointer

/// The `SQLITE_TRANSIENT` destructor: SQLite copies the bound bytes before the
/// bind call returns.
@usableFromInline
let SQLITE_TRANSIENT = _cairn_sqlite_transient()
