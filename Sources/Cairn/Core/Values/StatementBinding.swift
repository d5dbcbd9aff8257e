// `StatementBinding`: values that bind themselves to a parameter of a raw
// SQLite statement.

/// A type whose values can bind themselves to a parameter of a prepared
/// statement of the SQLite C interface.
///
/// Every ``DatabaseValueConvertible`` type is a `StatementBinding`: you
/// rarely adopt this protocol directly. It is the escape hatch for code that
/// works with a raw statement handle (``Statement/sqliteStatement``, or a
/// statement prepared with `sqlite3_prepare_v2`) and wants to bind Swift
/// values to it:
///
/// ```swift
/// try dbQueue.write { db in
///     let statement = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
///     let sqliteStatement = statement.sqliteStatement
///     var code = "Arthur".bind(to: sqliteStatement, at: 1)
///     if code == SQLITE_OK { code = 1000.bind(to: sqliteStatement, at: 2) }
///     if code == SQLITE_OK { code = sqlite3_step(sqliteStatement) }
/// }
/// ```
///
/// Statements of Cairn bind their own ``StatementArguments``: prefer them.
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/bind_blob.html>
public protocol StatementBinding {
    /// Binds the value to a parameter of a statement, and returns the result
    /// code of SQLite.
    ///
    /// - Parameters:
    ///   - sqliteStatement: A statement of the SQLite C interface that is
    ///     not running (it has been reset, or never stepped).
    ///   - index: The index of the parameter, starting at 1.
    /// - Returns: `SQLITE_OK`, or the error code of the `sqlite3_bind_*`
    ///   function: `SQLITE_RANGE` for an index out of range, `SQLITE_MISUSE`
    ///   for a running statement, `SQLITE_TOOBIG` or `SQLITE_NOMEM`.
    func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt
}

extension DatabaseValueConvertible {
    /// Binds the ``DatabaseValueConvertible/databaseValue`` of the value.
    ///
    /// The corresponding C functions are the `sqlite3_bind_*` functions.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        databaseValue.bind(to: sqliteStatement, at: index)
    }
}

// MARK: - Optional

extension Optional: StatementBinding where Wrapped: StatementBinding {
    /// Binds NULL for nil, and the wrapped value otherwise.
    ///
    /// The corresponding C function is `sqlite3_bind_null` for nil.
    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        switch self {
        case .none: return sqlite3_bind_null(sqliteStatement, index)
        case .some(let value): return value.bind(to: sqliteStatement, at: index)
        }
    }
}

// MARK: - Text and blobs

/// Binds UTF-8 text, copied by SQLite.
///
/// The corresponding C function is `sqlite3_bind_text64`.
@usableFromInline @inline(__always)
func bindText(_ string: String, to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    var string = string
    return string.withUTF8 { buffer in
        guard let base = buffer.baseAddress else {
            return sqlite3_bind_text(sqliteStatement, index, "", 0, nil)
        }
        return sqlite3_bind_text64(
            sqliteStatement, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
            sqlite3_uint64(buffer.count), SQLITE_TRANSIENT, UInt8(SQLITE_UTF8))
    }
}

/// Binds a blob, copied by SQLite (an empty blob is a zero-length blob,
/// not NULL).
///
/// The corresponding C functions are `sqlite3_bind_blob64` and
/// `sqlite3_bind_zeroblob`.
@usableFromInline @inline(__always)
func bindBlob(_ bytes: UnsafeRawBufferPointer, to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    guard let baseAddress = bytes.baseAddress else {
        return sqlite3_bind_zeroblob(sqliteStatement, index, 0)
    }
    return sqlite3_bind_blob64(sqliteStatement, index, baseAddress, sqlite3_uint64(bytes.count), SQLITE_TRANSIENT)
}
