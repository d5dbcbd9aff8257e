import Foundation

/// An FTS5 auxiliary function written in Swift: a function of full-text
/// queries, such as the built-in `bm25()`, `highlight()` and `snippet()`,
/// that reads the matches of the current row.
///
/// Register it in each connection with ``Database/add(auxiliaryFunction:)``
/// (or ``Configuration/prepareDatabase(_:)``), then call it in the queries
/// of any FTS5 table, with the table as its first argument:
///
/// ```swift
/// // The number of matches in the row.
/// let matchCount = FTS5AuxiliaryFunction("match_count") { context, arguments in
///     try context.instanceCount()
/// }
/// dbQueue.add(auxiliaryFunction: matchCount)
///
/// let rows = try dbQueue.read { db in
///     try Row.fetchAll(db, sql: """
///         SELECT title, match_count(document) AS count
///         FROM document WHERE document MATCH ?
///         """, arguments: ["sqlite"])
/// }
/// ```
///
/// The function receives a ``FTS5AuxiliaryContext``, which exposes the
/// FTS5 extension API for the current row, and the arguments that follow
/// the table name. It returns a value (nil for NULL). An error it throws
/// stops the statement, which throws that error. A query leaves the
/// transaction usable; a statement that writes rolls it back, so that no
/// half of the statement is ever committed.
///
/// Related SQLite documentation: <https://www.sqlite.org/fts5.html#custom_auxiliary_functions>
public struct FTS5AuxiliaryFunction: Sendable {
    /// The name of the function in SQL.
    public let name: String
    let function: @Sendable (FTS5AuxiliaryContext, [DatabaseValue]) throws -> (any DatabaseValueConvertible)?

    /// Creates an auxiliary function.
    ///
    /// - Parameters:
    ///   - name: The name of the function in SQL. A function registered
    ///     later with the same name replaces this one (and the built-in
    ///     functions, such as `bm25`).
    ///   - function: The function: it receives the context of the current
    ///     row, and the SQL arguments that follow the table name; it
    ///     returns the value of the call. It may run on any thread that
    ///     uses the connection (the readers of a pool run it in parallel).
    public init(
        _ name: String,
        function: @escaping @Sendable (_ context: FTS5AuxiliaryContext, _ arguments: [DatabaseValue]) throws
            -> (any DatabaseValueConvertible)?)
    {
        self.name = name
        self.function = function
    }
}

/// An occurrence of a phrase of the query in the current row: the phrase,
/// the column, and the position of its first token in the column.
public struct FTS5PhraseInstance: Hashable, Sendable {
    /// The index of the phrase in the query, from 0.
    public var phrase: Int
    /// The index of the column, from 0.
    public var column: Int
    /// The position of the phrase's first token in the column, counted in
    /// tokens from 0.
    public var offset: Int

    /// Creates an instance.
    public init(phrase: Int, column: Int, offset: Int) {
        self.phrase = phrase
        self.column = column
        self.offset = offset
    }
}

/// What an auxiliary function knows of the query and of the current row:
/// the FTS5 extension API (`Fts5ExtensionApi`), in Swift.
///
/// A context is valid during the call of the function that received it
/// (or of the `queryPhrase(_:_:)` body that received it): afterwards, its
/// methods throw a ``DatabaseError`` with `SQLITE_MISUSE`.
///
/// Column indexes count from 0, in the order of the table definition.
/// Phrase indexes count from 0, in the order of the query: the query
/// `sqlite AND "full text"` has two phrases, `sqlite` and `full text`.
///
/// Related SQLite documentation: <https://www.sqlite.org/fts5.html#custom_auxiliary_functions_api_reference>
public final class FTS5AuxiliaryContext {
    private var api: UnsafePointer<Fts5ExtensionApi>?
    private var fts: OpaquePointer?

    /// The callback errors of the connection, where the errors of the
    /// Swift tokenizers that FTS5 runs for ``tokens(in:locale:)`` go.
    let connectionErrors: CallbackErrorStash

    init(api: UnsafePointer<Fts5ExtensionApi>, fts: OpaquePointer, connectionErrors: CallbackErrorStash) {
        self.api = api
        self.fts = fts
        self.connectionErrors = connectionErrors
    }

    /// Points the context at another call (a context is reused when the
    /// previous call did not keep it).
    func reset(api: UnsafePointer<Fts5ExtensionApi>, fts: OpaquePointer) {
        self.api = api
        self.fts = fts
    }

    /// Ends the validity of the context.
    func invalidate() {
        api = nil
        fts = nil
    }

    /// The API and context of the current call.
    ///
    /// - Throws: A ``DatabaseError`` when the call is over.
    private func current() throws -> (api: UnsafePointer<Fts5ExtensionApi>, fts: OpaquePointer) {
        guard let api, let fts else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "FTS5AuxiliaryContext used after the call of its auxiliary function")
        }
        return (api, fts)
    }

    /// An index as a C int.
    ///
    /// - Throws: A ``DatabaseError`` with `SQLITE_RANGE` for a negative
    ///   index, or one that a C int cannot hold.
    private func index(_ value: Int, _ what: String) throws -> CInt {
        guard value >= 0, let index = CInt(exactly: value) else {
            throw DatabaseError(resultCode: .SQLITE_RANGE, message: "invalid \(what) index: \(value)")
        }
        return index
    }

    /// A column index for the functions that take -1 for all columns.
    private func columnOrAll(_ column: Int?) throws -> CInt {
        guard let column else { return -1 }
        return try index(column, "column")
    }

    /// Throws a ``DatabaseError`` for an SQLite code that is not
    /// `SQLITE_OK`.
    private func check(_ code: CInt, _ what: @autoclosure () -> String) throws {
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "FTS5 \(what()) failed")
        }
    }

    // MARK: Query

    /// The number of phrases of the query (`xPhraseCount`).
    ///
    /// - Throws: A ``DatabaseError`` when the context is no longer valid.
    public func phraseCount() throws -> Int {
        let (api, fts) = try current()
        return Int(api.pointee.xPhraseCount(fts))
    }

    /// The number of tokens of a phrase of the query (`xPhraseSize`).
    ///
    /// - Parameter phrase: The index of the phrase.
    /// - Throws: A ``DatabaseError`` when the phrase does not exist or the
    ///   context is no longer valid.
    public func phraseSize(_ phrase: Int) throws -> Int {
        let (api, fts) = try current()
        try checkPhrase(phrase, api, fts)
        return Int(api.pointee.xPhraseSize(fts, CInt(phrase)))
    }

    /// A token of a phrase of the query, as the tokenizer gave it
    /// (`xQueryToken`): for a prefix query, the prefix.
    ///
    /// - Parameters:
    ///   - phrase: The index of the phrase.
    ///   - token: The index of the token in the phrase.
    /// - Throws: A ``DatabaseError`` when the phrase or token does not
    ///   exist, or the context is no longer valid.
    public func queryToken(phrase: Int, token: Int) throws -> String {
        let (api, fts) = try current()
        try checkPhrase(phrase, api, fts)
        var pointer: UnsafePointer<CChar>?
        var count: CInt = 0
        try check(api.pointee.xQueryToken(fts, CInt(phrase), index(token, "token"), &pointer, &count), "xQueryToken")
        return tokenString(pointer, count)
    }

    private func checkPhrase(_ phrase: Int, _ api: UnsafePointer<Fts5ExtensionApi>, _ fts: OpaquePointer) throws {
        guard phrase >= 0 && phrase < Int(api.pointee.xPhraseCount(fts)) else {
            throw DatabaseError(resultCode: .SQLITE_RANGE, message: "no phrase \(phrase) in the FTS5 query")
        }
    }

    // MARK: Table

    /// The number of columns of the table (`xColumnCount`).
    ///
    /// - Throws: A ``DatabaseError`` when the context is no longer valid.
    public func columnCount() throws -> Int {
        let (api, fts) = try current()
        return Int(api.pointee.xColumnCount(fts))
    }

    /// The number of rows of the table (`xRowCount`).
    ///
    /// - Throws: A ``DatabaseError``.
    public func rowCount() throws -> Int {
        let (api, fts) = try current()
        var count: sqlite3_int64 = 0
        try check(api.pointee.xRowCount(fts, &count), "xRowCount")
        return Int(count)
    }

    /// The number of tokens of a column in all rows of the table, or of
    /// all columns for nil (`xColumnTotalSize`).
    ///
    /// - Parameter column: The index of the column, or nil.
    /// - Throws: A ``DatabaseError`` when the column does not exist (or is
    ///   negative).
    public func columnTotalSize(_ column: Int? = nil) throws -> Int {
        let (api, fts) = try current()
        var count: sqlite3_int64 = 0
        try check(api.pointee.xColumnTotalSize(fts, columnOrAll(column), &count), "xColumnTotalSize")
        return Int(count)
    }

    // MARK: Current row

    /// The rowid of the current row (`xRowid`).
    ///
    /// - Throws: A ``DatabaseError`` when the context is no longer valid.
    public func rowID() throws -> Int64 {
        let (api, fts) = try current()
        return api.pointee.xRowid(fts)
    }

    /// The number of tokens of a column of the current row, or of all its
    /// columns for nil (`xColumnSize`).
    ///
    /// - Parameter column: The index of the column, or nil.
    /// - Throws: A ``DatabaseError`` when the column does not exist (or is
    ///   negative).
    public func columnSize(_ column: Int? = nil) throws -> Int {
        let (api, fts) = try current()
        var count: CInt = 0
        try check(api.pointee.xColumnSize(fts, columnOrAll(column), &count), "xColumnSize")
        return Int(count)
    }

    /// The text of a column of the current row (`xColumnText`), or nil
    /// for NULL.
    ///
    /// - Parameter column: The index of the column.
    /// - Throws: A ``DatabaseError`` when the column does not exist.
    public func columnText(_ column: Int) throws -> String? {
        let (api, fts) = try current()
        try checkColumn(column, api, fts)
        var pointer: UnsafePointer<CChar>?
        var count: CInt = 0
        try check(api.pointee.xColumnText(fts, CInt(column), &pointer, &count), "xColumnText")
        guard let pointer else { return nil }
        return tokenString(pointer, count)
    }

    /// The locale of a column of the current row, given with
    /// `fts5_locale()` in a table created with `locale=1`
    /// (`xColumnLocale`), or nil.
    ///
    /// - Parameter column: The index of the column.
    /// - Throws: A ``DatabaseError`` when the column does not exist.
    public func columnLocale(_ column: Int) throws -> String? {
        let (api, fts) = try current()
        try checkColumn(column, api, fts)
        var pointer: UnsafePointer<CChar>?
        var count: CInt = 0
        try check(api.pointee.xColumnLocale(fts, CInt(column), &pointer, &count), "xColumnLocale")
        guard let pointer, count > 0 else { return nil }
        return tokenString(pointer, count)
    }

    private func checkColumn(_ column: Int, _ api: UnsafePointer<Fts5ExtensionApi>, _ fts: OpaquePointer) throws {
        guard column >= 0 && column < Int(api.pointee.xColumnCount(fts)) else {
            throw DatabaseError(resultCode: .SQLITE_RANGE, message: "no column \(column) in the FTS5 table")
        }
    }

    /// The number of occurrences of the phrases of the query in the current
    /// row (`xInstCount`).
    ///
    /// - Throws: A ``DatabaseError``.
    public func instanceCount() throws -> Int {
        let (api, fts) = try current()
        var count: CInt = 0
        try check(api.pointee.xInstCount(fts, &count), "xInstCount")
        return Int(count)
    }

    /// An occurrence of a phrase of the query in the current row
    /// (`xInst`), by index, from 0 to ``instanceCount()``, in the order of
    /// their positions.
    ///
    /// - Parameter index: The index of the occurrence.
    /// - Throws: A ``DatabaseError`` when the index is out of range.
    public func instance(at index: Int) throws -> FTS5PhraseInstance {
        let (api, fts) = try current()
        var phrase: CInt = 0
        var column: CInt = 0
        var offset: CInt = 0
        try check(api.pointee.xInst(fts, self.index(index, "instance"), &phrase, &column, &offset), "xInst")
        return FTS5PhraseInstance(phrase: Int(phrase), column: Int(column), offset: Int(offset))
    }

    /// All occurrences of the phrases of the query in the current row.
    ///
    /// - Throws: A ``DatabaseError``.
    public func instances() throws -> [FTS5PhraseInstance] {
        try (0..<instanceCount()).map { try instance(at: $0) }
    }

    /// A token of an occurrence (`xInstToken`): the token of the row that
    /// matched, which differs from the query's for a prefix query, or a
    /// colocated token.
    ///
    /// - Parameters:
    ///   - index: The index of the occurrence.
    ///   - token: The index of the token in the phrase.
    /// - Throws: A ``DatabaseError`` when an index is out of range.
    public func instanceToken(at index: Int, token: Int) throws -> String {
        let (api, fts) = try current()
        var pointer: UnsafePointer<CChar>?
        var count: CInt = 0
        try check(api.pointee.xInstToken(fts, self.index(index, "instance"), self.index(token, "token"), &pointer, &count), "xInstToken")
        return tokenString(pointer, count)
    }

    /// The occurrences of one phrase in the current row, as column and
    /// token offset (`xPhraseFirst`, `xPhraseNext`), in order.
    ///
    /// - Parameter phrase: The index of the phrase.
    /// - Throws: A ``DatabaseError`` when the phrase does not exist.
    public func occurrences(ofPhrase phrase: Int) throws -> [(column: Int, offset: Int)] {
        let (api, fts) = try current()
        try checkPhrase(phrase, api, fts)
        var iterator = Fts5PhraseIter()
        var column: CInt = 0
        var offset: CInt = 0
        try check(api.pointee.xPhraseFirst(fts, CInt(phrase), &iterator, &column, &offset), "xPhraseFirst")
        var result: [(column: Int, offset: Int)] = []
        while column >= 0 {
            result.append((Int(column), Int(offset)))
            api.pointee.xPhraseNext(fts, &iterator, &column, &offset)
        }
        return result
    }

    /// The columns of the current row that hold a phrase
    /// (`xPhraseFirstColumn`, `xPhraseNextColumn`), in order. The table
    /// must not be created with `detail=none`.
    ///
    /// - Parameter phrase: The index of the phrase.
    /// - Throws: A ``DatabaseError`` when the phrase does not exist.
    public func columns(containingPhrase phrase: Int) throws -> [Int] {
        let (api, fts) = try current()
        try checkPhrase(phrase, api, fts)
        var iterator = Fts5PhraseIter()
        var column: CInt = 0
        try check(api.pointee.xPhraseFirstColumn(fts, CInt(phrase), &iterator, &column), "xPhraseFirstColumn")
        var result: [Int] = []
        while column >= 0 {
            result.append(Int(column))
            api.pointee.xPhraseNextColumn(fts, &iterator, &column)
        }
        return result
    }

    /// The tokens of a column of the current row, as the table's tokenizer
    /// gives them for auxiliary functions (`xTokenize_v2`, with the
    /// column's locale).
    ///
    /// - Parameter column: The index of the column.
    /// - Throws: A ``DatabaseError``, or the error of a Swift tokenizer.
    public func tokens(ofColumn column: Int) throws -> [FTS5Token] {
        guard let text = try columnText(column) else { return [] }
        return try tokens(in: text, locale: columnLocale(column))
    }

    /// The tokens of a text, as the table's tokenizer gives them for
    /// auxiliary functions (`xTokenize_v2`).
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - locale: The locale of the text, or nil.
    /// - Throws: A ``DatabaseError``, or the error of a Swift tokenizer
    ///   (which the function may throw in its turn: the statement then
    ///   throws it).
    public func tokens(in text: String, locale: String? = nil) throws -> [FTS5Token] {
        let (api, fts) = try current()
        guard CInt(exactly: text.utf8.count) != nil, CInt(exactly: locale?.utf8.count ?? 0) != nil else {
            throw DatabaseError(resultCode: .SQLITE_TOOBIG, message: "text too long to tokenize")
        }
        var collector: [FTS5Token] = []
        var text = text
        var locale = locale ?? ""
        // FTS5 runs the table's tokenizer, which keeps the error of a
        // Swift tokenizer in the connection's stash: thrown here as it is.
        let code = text.withUTF8 { text in
            locale.withUTF8 { locale in
                withUnsafeMutablePointer(to: &collector) { collector in
                    api.pointee.xTokenize_v2(
                        fts,
                        UnsafeRawPointer(text.baseAddress)?.assumingMemoryBound(to: CChar.self), CInt(text.count),
                        UnsafeRawPointer(locale.baseAddress)?.assumingMemoryBound(to: CChar.self), CInt(locale.count),
                        UnsafeMutableRawPointer(collector),
                        auxiliaryTokenCallback)
                }
            }
        }
        if code != SQLITE_OK, let (error, _) = connectionErrors.take() {
            throw error
        }
        try check(code, "xTokenize")
        return collector
    }

    /// Runs `body` for each row of the table that matches a phrase of the
    /// query (`xQueryPhrase`), with a context of that row, until it
    /// returns false. The contexts given to `body` are valid during its
    /// call only.
    ///
    /// ```swift
    /// // The number of rows that hold phrase 0.
    /// var count = 0
    /// try context.queryPhrase(0) { _ in count += 1; return true }
    /// ```
    ///
    /// - Parameters:
    ///   - phrase: The index of the phrase.
    ///   - body: Called for each matching row; returns whether to go on.
    /// - Throws: A ``DatabaseError``, or the error of `body`.
    public func queryPhrase(_ phrase: Int, _ body: (FTS5AuxiliaryContext) throws -> Bool) throws {
        let (api, fts) = try current()
        try checkPhrase(phrase, api, fts)
        try withoutActuallyEscaping(body) { body in
            var state = QueryPhraseState(connectionErrors: connectionErrors, body: body)
            let code = withUnsafeMutablePointer(to: &state) { state in
                api.pointee.xQueryPhrase(fts, CInt(phrase), UnsafeMutableRawPointer(state), auxiliaryQueryPhraseCallback)
            }
            if let error = state.error {
                throw error
            }
            try check(code, "xQueryPhrase")
        }
    }

    // MARK: Per-query data

    /// A value kept for the time of the query: each call of the function
    /// in the same query (one per row) sees what a previous call stored
    /// with ``setAuxiliaryData(_:)`` (`xGetAuxdata`). Use it for what is
    /// computed once per query, such as the number of rows that match each
    /// phrase.
    ///
    /// ```swift
    /// let hits: [Int]
    /// if let cached = try context.auxiliaryData(as: [Int].self) {
    ///     hits = cached
    /// } else {
    ///     hits = try computeHits(context)
    ///     try context.setAuxiliaryData(hits)
    /// }
    /// ```
    ///
    /// - Parameter type: The type of the value.
    /// - Returns: The value, or nil when there is none, or when it is not
    ///   of this type.
    /// - Throws: A ``DatabaseError`` when the context is no longer valid.
    public func auxiliaryData<T>(as type: T.Type) throws -> T? {
        let (api, fts) = try current()
        guard let pointer = api.pointee.xGetAuxdata(fts, 0) else { return nil }
        return AuxiliaryDataBox<T>.value(at: pointer)
    }

    /// Stores a value for the next calls of the function in the same
    /// query, in place of the previous one (see ``auxiliaryData(as:)``).
    /// FTS5 releases it when the query ends.
    ///
    /// - Parameter value: The value.
    /// - Throws: A ``DatabaseError`` when the context is no longer valid,
    ///   or when SQLite cannot store it.
    public func setAuxiliaryData<T>(_ value: T) throws {
        let (api, fts) = try current()
        try check(api.pointee.xSetAuxdata(fts, AuxiliaryDataBox(value).retainedCContext(), auxiliaryDataDelete), "xSetAuxdata")
    }

    /// Forgets the value stored by ``setAuxiliaryData(_:)``.
    ///
    /// - Throws: A ``DatabaseError`` when the context is no longer valid.
    public func removeAuxiliaryData() throws {
        let (api, fts) = try current()
        try check(api.pointee.xSetAuxdata(fts, nil, nil), "xSetAuxdata")
    }
}

/// The state of `queryPhrase(_:_:)`, given to FTS5 as the context of its
/// callback.
struct QueryPhraseState {
    let connectionErrors: CallbackErrorStash
    let body: (FTS5AuxiliaryContext) throws -> Bool
    var error: (any Error)?
}
