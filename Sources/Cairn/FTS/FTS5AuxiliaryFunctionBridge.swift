import Foundation

// The C callbacks of auxiliary functions written in Swift
// (`fts5_api.xCreateFunction`), registered by
// `Database.add(auxiliaryFunction:)`. A Swift error never crosses into C:
// the function's error goes to the connection's callback-error stash, and
// SQLite gets an error code and message; the statement throws the error.

/// A registration of an auxiliary function in one connection. FTS5 owns it,
/// and releases it with `auxiliaryFunctionDestroy` when the connection
/// closes.
final class AuxiliaryFunctionBox: CCallbackContext {
    let function: FTS5AuxiliaryFunction
    /// The callback errors of the connection.
    let errors: CallbackErrorStash
    /// The context of the last call, reused by the next one unless the
    /// function kept it (calls on one connection do not overlap, but a
    /// `queryPhrase` body may run another query).
    var reusableContext: FTS5AuxiliaryContext?

    init(function: FTS5AuxiliaryFunction, errors: CallbackErrorStash) {
        self.function = function
        self.errors = errors
    }
}

/// The base of the boxes of values stored by
/// `FTS5AuxiliaryContext.setAuxiliaryData(_:)`. FTS5 owns a box until the
/// query ends, and releases it with `auxiliaryDataDelete`.
class AnyAuxiliaryDataBox: CCallbackContext { }

/// A value stored by `FTS5AuxiliaryContext.setAuxiliaryData(_:)`: the
/// type of the box is the type of the value, so that reading it back is a
/// cast between classes, not from `Any`.
final class AuxiliaryDataBox<Value>: AnyAuxiliaryDataBox {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// The value of the box at `pointer`, or nil when the box holds a
    /// value of another type.
    static func value(at pointer: UnsafeMutableRawPointer) -> Value? {
        Unmanaged<AnyAuxiliaryDataBox>.fromOpaque(pointer)._withUnsafeGuaranteedRef { box in
            (box as? AuxiliaryDataBox<Value>)?.value
        }
    }
}

/// The function: xFunction of `fts5_api.xCreateFunction`.
let auxiliaryFunctionCallback: @convention(c) (
    UnsafePointer<Fts5ExtensionApi>?,
    OpaquePointer?,
    OpaquePointer?,
    CInt,
    UnsafeMutablePointer<OpaquePointer?>?) -> Void =
{ api, fts, sqliteContext, argc, argv in
    guard let api, let fts, let sqliteContext else { return }
    guard let userData = api.pointee.xUserData(fts) else {
        sqlite3_result_error(sqliteContext, "auxiliary function without its registration", -1)
        return
    }
    let box = Unmanaged<AuxiliaryFunctionBox>.fromOpaque(userData).takeUnretainedValue()
    // One context per call, reused when the previous call did not keep it.
    let context: FTS5AuxiliaryContext
    if isKnownUniquelyReferenced(&box.reusableContext), let reusable = box.reusableContext {
        box.reusableContext = nil
        reusable.reset(api: api, fts: fts)
        context = reusable
    } else {
        context = FTS5AuxiliaryContext(api: api, fts: fts, connectionErrors: box.errors)
    }
    defer {
        context.invalidate()
        box.reusableContext = context
    }
    var arguments: [DatabaseValue] = []
    if let argv, argc > 0 {
        arguments.reserveCapacity(Int(argc))
        for index in 0..<Int(argc) {
            arguments.append(argv[index].map { DatabaseValue(sqliteValue: $0) } ?? .null)
        }
    }
    do {
        if let result = try box.function.function(context, arguments) {
            result.databaseValue.setResult(of: sqliteContext)
        } else {
            sqlite3_result_null(sqliteContext)
        }
    } catch {
        // The statement throws the error as it is, and rolls back its
        // transaction when it writes (see `asIsRollingBack`).
        let code = (error as? DatabaseError)?.extendedResultCode.rawValue ?? SQLITE_ERROR
        sqlite3_result_error(sqliteContext, "\(box.function.name): \(error)", -1)
        sqlite3_result_error_code(sqliteContext, code == SQLITE_OK ? SQLITE_ERROR : code)
        box.errors.record(error, disposition: .asIsRollingBack)
    }
}

/// xDestroy of `fts5_api.xCreateFunction`: releases the registration.
let auxiliaryFunctionDestroy: @convention(c) (UnsafeMutableRawPointer?) -> Void = { userData in
    guard let userData else { return }
    AuxiliaryFunctionBox.releaseCContext(userData)
}

/// xDelete of `xSetAuxdata`: releases a stored value.
let auxiliaryDataDelete: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
    guard let pointer else { return }
    AnyAuxiliaryDataBox.releaseCContext(pointer)
}

/// The token callback of `FTS5AuxiliaryContext.tokens(in:locale:)`: its
/// context is an array of tokens on the caller's stack.
let auxiliaryTokenCallback: @convention(c) (
    UnsafeMutableRawPointer?, CInt, UnsafePointer<CChar>?, CInt, CInt, CInt) -> CInt =
{ context, flags, pToken, nToken, iStart, iEnd in
    guard let context else { return SQLITE_ERROR }
    context.assumingMemoryBound(to: [FTS5Token].self).pointee.append(FTS5Token(
        token: tokenString(pToken, nToken),
        flags: FTS5TokenFlags(rawValue: flags),
        utf8Range: Int(iStart)..<Int(max(iStart, iEnd))))
    return SQLITE_OK
}

/// The callback of `FTS5AuxiliaryContext.queryPhrase(_:_:)`: its context is
/// a `QueryPhraseState` on the caller's stack.
let auxiliaryQueryPhraseCallback: @convention(c) (
    UnsafePointer<Fts5ExtensionApi>?, OpaquePointer?, UnsafeMutableRawPointer?) -> CInt =
{ api, fts, pointer in
    guard let api, let fts, let pointer else { return SQLITE_ERROR }
    let state = pointer.assumingMemoryBound(to: QueryPhraseState.self)
    let context = FTS5AuxiliaryContext(api: api, fts: fts, connectionErrors: state.pointee.connectionErrors)
    defer { context.invalidate() }
    do {
        // SQLITE_DONE stops the iteration; xQueryPhrase returns SQLITE_OK.
        return try state.pointee.body(context) ? SQLITE_OK : SQLITE_DONE
    } catch {
        state.pointee.error = error
        return SQLITE_ERROR
    }
}

extension Database {
    /// Registers an auxiliary function written in Swift in the connection,
    /// for the full-text queries of its FTS5 tables.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.prepareDatabase { db in
    ///     db.add(auxiliaryFunction: myRanking)
    /// }
    /// ```
    ///
    /// A function registered with the name of another one (or of a
    /// built-in function, such as `bm25`) replaces it for the queries
    /// prepared afterwards. FTS5 offers no way to remove a function: it
    /// lives as long as the connection.
    ///
    /// - Parameter auxiliaryFunction: The function.
    ///
    /// The corresponding C function is `xCreateFunction` of the `fts5_api`.
    public func add(auxiliaryFunction: FTS5AuxiliaryFunction) {
        preconditionInsideAccess()
        let api: UnsafeMutablePointer<fts5_api>
        do {
            api = try fts5API()
        } catch {
            // Opening a connection throws the error of a function that its
            // setup registers on a file SQLite cannot read.
            if deferSetupError(error) { return }
            stopProgram("Cannot register auxiliary function \(auxiliaryFunction.name): \(error)")
        }
        let box = AuxiliaryFunctionBox(function: auxiliaryFunction, errors: callbackErrors)
        let context = box.retainedCContext()
        let code = api.pointee.xCreateFunction?(
            api, auxiliaryFunction.name, context, auxiliaryFunctionCallback, auxiliaryFunctionDestroy)
        if code != SQLITE_OK {
            AuxiliaryFunctionBox.releaseCContext(context)
            stopProgram("Cannot register auxiliary function \(auxiliaryFunction.name): error \(code ?? SQLITE_ERROR)")
        }
    }
}
