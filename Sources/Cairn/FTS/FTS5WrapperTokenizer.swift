import Foundation

/// The function a wrapper tokenizer calls for each token it outputs.
///
/// - Parameters:
///   - token: The token.
///   - flags: Its flags: the flags of the input token, or these flags with
///     `.colocated` for a synonym.
/// - Throws: An error that tells that FTS5 wants to stop the tokenization:
///   do not catch it.
public typealias FTS5WrapperTokenCallback = (_ token: String, _ flags: FTS5TokenFlags) throws -> Void

/// What a wrapper tokenizer calls for each token it outputs, on its
/// byte-level path (``FTS5WrapperTokenizer/accept(utf8Token:flags:for:locale:tokenCallback:)``):
/// `try tokenCallback(bytes, flags)`.
///
/// The call gives the UTF-8 bytes of the token to FTS5, which copies them:
/// they need to stay valid for the time of the call only. The token keeps
/// the byte offsets of the input token.
///
/// Use the value inside the call of `accept` that received it. Called
/// after its tokenization has ended, it throws a ``DatabaseError`` with
/// `SQLITE_MISUSE`, and gives nothing to FTS5.
public struct FTS5WrapperUTF8TokenCallback {
    // Plain bits, no reference: building and passing the value costs no
    // retain. The scope token says whether the tokenization still runs.
    @usableFromInline let scope: ScopeToken
    @usableFromInline let context: UnsafeMutableRawPointer?
    @usableFromInline let tokenCallback: FTS5TokenCallback
    @usableFromInline let start: CInt
    @usableFromInline let end: CInt

    @usableFromInline
    init(scope: ScopeToken, context: UnsafeMutableRawPointer?, tokenCallback: FTS5TokenCallback, start: CInt, end: CInt) {
        self.scope = scope
        self.context = context
        self.tokenCallback = tokenCallback
        self.start = start
        self.end = end
    }

    /// Outputs a token.
    ///
    /// - Parameters:
    ///   - token: The UTF-8 bytes of the token.
    ///   - flags: Its flags: the flags of the input token, or these flags
    ///     with `.colocated` for a synonym.
    /// - Throws: An error that tells that FTS5 wants to stop the
    ///   tokenization: do not catch it.
    @inlinable @inline(__always)
    public func callAsFunction(_ token: UnsafeRawBufferPointer, _ flags: FTS5TokenFlags) throws {
        // Inlined into the wrapper: FTS5's callback is called directly
        // (FTSBenchmark "17": a closure here costs 33 instructions per
        // token). The scope is checked first: the context of FTS5 is valid
        // only while the tokenization runs.
        guard scope.isCurrent else {
            throw WrapperTokenization.endedError()
        }
        let code = tokenCallback(
            context, flags.rawValue,
            token.baseAddress?.assumingMemoryBound(to: CChar.self), CInt(clamping: token.count),
            start, end)
        if code != SQLITE_OK {
            throw FTS5TokenCallbackError(code: code)
        }
    }
}

/// A Swift tokenizer that post-processes the tokens of another tokenizer,
/// its wrapped tokenizer: tokens can be modified, ignored, or multiplied
/// into synonyms.
///
/// ```swift
/// final class LowercaseASCIITokenizer: FTS5WrapperTokenizer {
///     static let name = "lowercase_ascii"
///     let wrappedTokenizer: any FTS5Tokenizer
///
///     init(db: Database, arguments: [String]) throws {
///         wrappedTokenizer = try db.makeTokenizer(.unicode61())
///     }
///
///     func accept(
///         token: String,
///         flags: FTS5TokenFlags,
///         for tokenization: FTS5Tokenization,
///         tokenCallback: FTS5WrapperTokenCallback) throws
///     {
///         try tokenCallback(token, flags) // pass through
///     }
/// }
/// ```
///
/// Two rules: do not catch the errors of `tokenCallback`, and give it the
/// flags of the input token, unchanged, or with `.colocated` added for a
/// synonym of the previous token.
///
/// ### The byte-level path
///
/// FTS5 calls ``accept(utf8Token:flags:for:locale:tokenCallback:)``, whose
/// default implementation makes a `String` of each token and calls
/// ``accept(token:flags:for:tokenCallback:)``. A wrapper that handles
/// bytes implements it too, and avoids that `String` (and the one that
/// its output becomes): the ready-made tokenizers of Cairn do (in
/// `FTSBenchmark`, a pass-through wrapper adds 10 to 15% to the time of
/// indexing with unicode61 alone this way, about 45% with Strings). Both
/// methods must give
/// the same tokens, since ``FTS5Tokenizer/tokenize(query:)`` and FTS5 take
/// the byte path, and code of the user may call the other.
public protocol FTS5WrapperTokenizer: FTS5CustomTokenizer {
    /// The tokenizer whose tokens are post-processed.
    var wrappedTokenizer: any FTS5Tokenizer { get }

    /// Processes a token of the wrapped tokenizer: call `tokenCallback` for
    /// each output token, zero, one or several times.
    ///
    /// - Parameters:
    ///   - token: A token of the wrapped tokenizer.
    ///   - flags: Its flags.
    ///   - tokenization: Why FTS5 asks for tokens.
    ///   - tokenCallback: The function that outputs a token.
    /// - Throws: The errors of `tokenCallback`, or your own error, which
    ///   stops the tokenization and the statement that asked for it.
    func accept(
        token: String,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        tokenCallback: FTS5WrapperTokenCallback) throws

    /// Processes a token of the wrapped tokenizer given as UTF-8 bytes:
    /// call `tokenCallback` for each output token, zero, one or several
    /// times. FTS5 calls this method; its default implementation calls
    /// ``accept(token:flags:for:tokenCallback:)``.
    ///
    /// The bytes of `token` are valid until the method returns, and those
    /// given to `tokenCallback` need to be valid only for the time of its
    /// call: pass `token` itself, or a slice of it, to output it unchanged,
    /// with no copy.
    ///
    /// ```swift
    /// func accept(
    ///     utf8Token token: UnsafeRawBufferPointer,
    ///     flags: FTS5TokenFlags,
    ///     for tokenization: FTS5Tokenization,
    ///     locale: String?,
    ///     tokenCallback: FTS5WrapperUTF8TokenCallback) throws
    /// {
    ///     // Drops tokens longer than 20 bytes, passes the others on.
    ///     if token.count <= 20 {
    ///         try tokenCallback(token, flags)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - token: The UTF-8 bytes of a token of the wrapped tokenizer.
    ///   - flags: Its flags.
    ///   - tokenization: Why FTS5 asks for tokens.
    ///   - locale: The locale of the text (`fts5_locale()`, in a table
    ///     created with `locale=1`), or nil.
    ///   - tokenCallback: The function that outputs a token.
    /// - Throws: The errors of `tokenCallback`, or your own error, which
    ///   stops the tokenization and the statement that asked for it.
    func accept(
        utf8Token token: UnsafeRawBufferPointer,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        locale: String?,
        tokenCallback: FTS5WrapperUTF8TokenCallback) throws
}

extension FTS5WrapperTokenizer {
    /// Makes a `String` of the token, and calls
    /// ``accept(token:flags:for:tokenCallback:)``.
    public func accept(
        utf8Token token: UnsafeRawBufferPointer,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        locale: String?,
        tokenCallback: FTS5WrapperUTF8TokenCallback) throws
    {
        try accept(
            token: String(decoding: token, as: UTF8.self),
            flags: flags,
            for: tokenization)
        { token, flags in
            var token = token
            try token.withUTF8 { buffer in
                try tokenCallback(UnsafeRawBufferPointer(buffer), flags)
            }
        }
    }

    /// Tokenizes with the wrapped tokenizer, and gives each token to
    /// ``accept(utf8Token:flags:for:locale:tokenCallback:)``. Output tokens
    /// keep the byte offsets of the input token they come from.
    public func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
    {
        tokenize(context: context, tokenization: tokenization, pText: pText, nText: nText, locale: nil, tokenCallback: tokenCallback)
    }

    /// Tokenizes with the wrapped tokenizer, for the locale of the text,
    /// and gives each token to
    /// ``accept(utf8Token:flags:for:locale:tokenCallback:)``. Output tokens
    /// keep the byte offsets of the input token they come from.
    @inlinable
    public func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        locale: String?,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
    {
        // Inlinable, so that the module of the wrapper specializes this
        // closure for its type: `accept` is then a direct call, which the
        // compiler may inline with the output callback (FTSBenchmark "17":
        // about 45 instructions per token less than a call through the
        // protocol's witness table).
        let state = WrapperTokenization(
            tokenization: tokenization, locale: locale,
            context: context, tokenCallback: tokenCallback)
        { state, token, flags, start, end in
            do {
                try self.accept(
                    utf8Token: token,
                    flags: FTS5TokenFlags(rawValue: flags),
                    for: state.tokenization,
                    locale: state.locale,
                    tokenCallback: state.output(start: start, end: end))
                return SQLITE_OK
            } catch {
                return WrapperTokenization.code(for: error)
            }
        }
        return state.run(wrapping: wrappedTokenizer, pText: pText, nText: nText)
    }
}

// MARK: - Helpers of the ready-made wrapper tokenizers

/// Splits the arguments of a configurable wrapper tokenizer: its own
/// arguments, then `--` and the wrapped tokenizer (unicode61 by default).
func splitWrapperArguments(_ arguments: [String]) -> ([String], FTS5TokenizerDescriptor) {
    guard let separator = arguments.firstIndex(of: "--") else {
        return (arguments, .unicode61())
    }
    let wrapped = Array(arguments[(separator + 1)...])
    return (Array(arguments[..<separator]), wrapped.isEmpty ? .unicode61() : FTS5TokenizerDescriptor(components: wrapped))
}

/// The one token that `word` gives.
///
/// - Throws: A ``DatabaseError`` when it gives none or several.
func singleToken(_ word: String, of tokenizer: any FTS5Tokenizer) throws -> String {
    let tokens = try tokenizer.tokenize(document: word).filter { !$0.flags.contains(.colocated) }
    guard tokens.count == 1, let token = tokens.first?.token else {
        throw DatabaseError(resultCode: .SQLITE_ERROR, message: "not a single token: \(word)")
    }
    return token
}
