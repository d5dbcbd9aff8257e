import Foundation

// The C callbacks of Swift FTS5 tokenizers (`fts5_tokenizer_v2`), which
// `Database.add(tokenizer:)` registers (see FTS5Tokenizer.swift).

/// Creates the Swift tokenizers of one registration. FTS5 owns it, and
/// releases it with `customTokenizerDestroy` when the connection closes.
final class FTS5TokenizerConstructor: CCallbackContext {
    /// The connection that registered the tokenizer. SQLite destroys the
    /// registration when the connection closes, and only creates
    /// tokenizers during its statements: the connection is alive then.
    /// The reference is weak nevertheless, so that a tokenizer created
    /// through the raw C interface after the connection is gone fails
    /// instead of reading freed memory (creation is rare: the cost of a
    /// weak reference does not matter).
    weak var database: Database?
    let make: (Database, [String]) throws -> any FTS5CustomTokenizer

    init(database: Database, make: @escaping (Database, [String]) throws -> any FTS5CustomTokenizer) {
        self.database = database
        self.make = make
    }
}

/// A Swift tokenizer instance, as FTS5 holds it (`Fts5Tokenizer *`).
private final class FTS5TokenizerInstance {
    let tokenizer: any FTS5CustomTokenizer
    /// The callback errors of the connection that created the tokenizer,
    /// which receive the errors of the tokenizations that FTS5 runs for
    /// its statements.
    let connectionErrors: CallbackErrorStash

    init(tokenizer: any FTS5CustomTokenizer, connectionErrors: CallbackErrorStash) {
        self.tokenizer = tokenizer
        self.connectionErrors = connectionErrors
    }
}

/// Where the errors of Swift FTS5 tokenizers go during a tokenization.
///
/// A Swift tokenizer learns nothing of its connection from FTS5's
/// arguments: a wrapper tokenizer's token callback receives the context of
/// the wrapped tokenization, and `tokenize(_:for:)` may run outside of any
/// statement. So the Swift entry of each tokenization names the stash that
/// receives the errors, for the time of the call, in a slot of the current
/// thread (SQLite calls a tokenizer on the thread of the statement that
/// needs it): the connection's stash for a tokenization that FTS5 runs for
/// a statement, a stash of its own for `tokenize(_:for:)` and
/// `makeTokenizer`. The innermost entry wins, and the previous stash comes
/// back when it returns, so that a tokenization that fails inside another
/// one reports to its own caller (see ``ThreadSlot``).
enum TokenizerErrorRoute {
    @inline(__always)
    private static var slot: ThreadSlot<CallbackErrorStash> { ThreadSlot(.tokenizerErrors) }

    /// Runs `body` with the errors of tokenizers going to `stash`.
    static func routing<T>(to stash: CallbackErrorStash, _ body: () -> T) -> T {
        slot.with(stash, body)
    }

    /// The stash of the current tokenization.
    private static var current: CallbackErrorStash? { slot.current }

    /// Keeps the first error of the current tokenization, for the
    /// statement (or method) that runs it. A tokenizer that fails while a
    /// statement writes asks for the rollback of the statement's
    /// transaction (see ``CallbackErrorStash/Disposition/asIsRollingBack``).
    ///
    /// - Parameter fallback: Where the error goes outside of any
    ///   tokenization of Cairn (a tokenizer called by C code of the user's):
    ///   the tokenizer still returns an error code, and without a fallback
    ///   the error is not kept.
    static func record(_ error: any Error, fallback: CallbackErrorStash? = nil) {
        (current ?? fallback)?.record(error, disposition: .asIsRollingBack)
    }
}

// The C functions below never let a Swift error cross the C boundary: an
// error is kept for the statement (or for `makeTokenizer`), and SQLite gets
// an error code.

let customTokenizerCreate: @convention(c) (
    UnsafeMutableRawPointer?,
    UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    CInt,
    UnsafeMutablePointer<OpaquePointer?>?) -> CInt =
{ context, argv, argc, output in
    guard let context, let output else { return SQLITE_ERROR }
    let constructor = Unmanaged<FTS5TokenizerConstructor>.fromOpaque(context).takeUnretainedValue()
    var arguments: [String] = []
    if let argv {
        for index in 0..<Int(argc) {
            arguments.append(argv[index].map { String(cString: $0) } ?? "")
        }
    }
    guard let database = constructor.database else {
        TokenizerErrorRoute.record(DatabaseError(
            resultCode: .SQLITE_MISUSE, message: "the connection of the tokenizer is closed"))
        return SQLITE_MISUSE
    }
    do {
        let tokenizer = try constructor.make(database, arguments)
        let instance = FTS5TokenizerInstance(tokenizer: tokenizer, connectionErrors: database.callbackErrors)
        output.pointee = OpaquePointer(Unmanaged.passRetained(instance).toOpaque())
        return SQLITE_OK
    } catch {
        // For `makeTokenizer`, or for the statement that uses the table.
        TokenizerErrorRoute.record(error, fallback: database.callbackErrors)
        return SQLITE_ERROR
    }
}

let customTokenizerDelete: @convention(c) (OpaquePointer?) -> Void = { handle in
    guard let handle else { return }
    Unmanaged<FTS5TokenizerInstance>.fromOpaque(UnsafeRawPointer(handle)).release()
}

let customTokenizerTokenize: @convention(c) (
    OpaquePointer?,
    UnsafeMutableRawPointer?,
    CInt,
    UnsafePointer<CChar>?, CInt,
    UnsafePointer<CChar>?, CInt,
    FTS5TokenCallback?) -> CInt =
{ handle, context, flags, pText, nText, pLocale, nLocale, tokenCallback in
    guard let handle else { return SQLITE_ERROR }
    // FTS5 always gives a callback.
    guard let tokenCallback else { return SQLITE_MISUSE }
    let instance = Unmanaged<FTS5TokenizerInstance>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    let errors = instance.connectionErrors
    // The locale of a value of a table created with locale=1.
    let locale: String? = if let pLocale, nLocale > 0 {
        String(decoding: UnsafeRawBufferPointer(start: pLocale, count: Int(nLocale)), as: UTF8.self)
    } else {
        nil
    }
    return TokenizerErrorRoute.routing(to: errors) {
        let code = instance.tokenizer.tokenize(
            context: context,
            tokenization: FTS5Tokenization(rawValue: flags),
            pText: pText, nText: nText,
            optionalLocale: locale,
            tokenCallback: tokenCallback)
        if code == SQLITE_OK && errors.hasError {
            // A wrapper tokenizer swallowed the code of a failure: the
            // error stays for the statement that runs the tokenization.
            return SQLITE_ERROR
        }
        return code
    }
}

let customTokenizerDestroy: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
    guard let context else { return }
    Unmanaged<FTS5TokenizerConstructor>.fromOpaque(context).release()
}

// MARK: - Wrapper tokenizers

/// A tokenization of a wrapper tokenizer: the wrapped tokenizer calls
/// `wrapperTokenCallback` for each of its tokens, with this object as
/// context (unretained: `run` keeps it alive for the time of the call),
/// which gives the token to `acceptToken`: the wrapper's byte-level
/// `accept`, in a closure that the wrapper's module specializes. The
/// wrapper outputs its tokens with ``FTS5WrapperUTF8TokenCallback``, which
/// calls the caller's callback while the scope of the tokenization is open
/// (a ``ScopeCell``: a kept output callback finds it closed, and throws).
@usableFromInline
final class WrapperTokenization: CCallbackContext {
    /// Gives a token to the wrapper; returns an SQLite code.
    @usableFromInline
    typealias AcceptToken = (
        _ state: WrapperTokenization, _ token: UnsafeRawBufferPointer,
        _ flags: CInt, _ start: CInt, _ end: CInt) -> CInt

    @usableFromInline let tokenization: FTS5Tokenization
    @usableFromInline let locale: String?
    /// The context and callback of the caller of the wrapper.
    @usableFromInline let context: UnsafeMutableRawPointer?
    @usableFromInline let tokenCallback: FTS5TokenCallback
    let acceptToken: AcceptToken
    private let cell: ScopeCell
    /// The scope of the tokenization, closed when `run` ends.
    @usableFromInline let scope: ScopeToken

    @usableFromInline
    init(
        tokenization: FTS5Tokenization,
        locale: String?,
        context: UnsafeMutableRawPointer?,
        tokenCallback: @escaping FTS5TokenCallback,
        acceptToken: @escaping AcceptToken)
    {
        self.tokenization = tokenization
        self.locale = locale
        self.context = context
        self.tokenCallback = tokenCallback
        self.acceptToken = acceptToken
        cell = ScopeCell.make()
        scope = cell.token
    }

    deinit {
        cell.release()
    }

    /// The output callback of a token.
    @inlinable @inline(__always)
    func output(start: CInt, end: CInt) -> FTS5WrapperUTF8TokenCallback {
        FTS5WrapperUTF8TokenCallback(scope: scope, context: context, tokenCallback: tokenCallback, start: start, end: end)
    }

    /// Tokenizes the text with the wrapped tokenizer.
    @usableFromInline
    func run(wrapping wrappedTokenizer: any FTS5Tokenizer, pText: UnsafePointer<CChar>?, nText: CInt) -> CInt {
        defer { cell.endScope() }
        return withExtendedLifetime(self) {
            wrappedTokenizer.tokenize(
                context: unretainedCContext(),
                tokenization: tokenization,
                pText: pText, nText: nText,
                optionalLocale: locale,
                tokenCallback: wrapperTokenCallback)
        }
    }

    /// The code that the token callback returns for an error of `accept`:
    /// the code of FTS5's callback, or `SQLITE_ERROR` for a Swift error,
    /// which the statement that asked for tokens throws.
    @usableFromInline
    static func code(for error: any Error) -> CInt {
        if let error = error as? FTS5TokenCallbackError {
            return error.code
        }
        TokenizerErrorRoute.record(error)
        return SQLITE_ERROR
    }

    /// The error of an output callback used after its tokenization.
    @usableFromInline
    static func endedError() -> DatabaseError {
        DatabaseError(
            resultCode: .SQLITE_MISUSE,
            message: "a token callback of a wrapper tokenizer was used after its tokenization")
    }
}

/// The error that carries a code returned by FTS5's token callback, which
/// must reach the wrapped tokenizer unchanged.
@usableFromInline
struct FTS5TokenCallbackError: Error {
    @usableFromInline let code: CInt

    @usableFromInline
    init(code: CInt) {
        self.code = code
    }
}

/// The token callback that a wrapper tokenizer gives to its wrapped
/// tokenizer: it hands each token to the wrapper's byte-level `accept`.
private let wrapperTokenCallback: FTS5TokenCallback = { context, flags, pToken, nToken, iStart, iEnd in
    guard let context else { return SQLITE_ERROR }
    // Borrowed: `WrapperTokenization.run` keeps the object alive, and a
    // retain per token shows in FTSBenchmark "17".
    return Unmanaged<WrapperTokenization>.fromOpaque(context)._withUnsafeGuaranteedRef { state in
        let token = UnsafeRawBufferPointer(start: pToken, count: pToken == nil ? 0 : Int(max(nToken, 0)))
        return state.acceptToken(state, token, flags, iStart, iEnd)
    }
}
