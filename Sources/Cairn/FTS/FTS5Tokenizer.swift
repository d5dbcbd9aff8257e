import Foundation
internal import CairnSQLiteShims

/// The callback that a tokenizer calls for each token: the `xToken` function
/// of SQLite's FTS5 C interface.
///
/// - Parameters:
///   - context: The opaque pointer that the tokenizer received.
///   - flags: ``FTS5TokenFlags`` raw value.
///   - pToken: The token bytes, UTF-8, not necessarily NUL-terminated.
///   - nToken: The number of bytes of the token.
///   - iStart: The byte offset of the token in the input text.
///   - iEnd: The byte offset of the end of the token in the input text.
/// - Returns: `SQLITE_OK`, or a code that stops the tokenization.
///
/// Related SQLite documentation: <https://www.sqlite.org/fts5.html#custom_tokenizers>
public typealias FTS5TokenCallback = @convention(c) (
    _ context: UnsafeMutableRawPointer?,
    _ flags: CInt,
    _ pToken: UnsafePointer<CChar>?,
    _ nToken: CInt,
    _ iStart: CInt,
    _ iEnd: CInt) -> CInt

/// Why FTS5 asks for tokens (`FTS5_TOKENIZE_*`).
public struct FTS5Tokenization: OptionSet, Sendable {
    /// The `FTS5_TOKENIZE_*` flags.
    public let rawValue: CInt

    /// Creates a tokenization from its raw value.
    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// A MATCH query is being tokenized (`FTS5_TOKENIZE_QUERY`).
    public static let query = FTS5Tokenization(rawValue: FTS5_TOKENIZE_QUERY)

    /// With `.query`: the query term is followed by `*`
    /// (`FTS5_TOKENIZE_PREFIX`).
    public static let prefix = FTS5Tokenization(rawValue: FTS5_TOKENIZE_PREFIX)

    /// A document is being inserted, or deleted (`FTS5_TOKENIZE_DOCUMENT`).
    public static let document = FTS5Tokenization(rawValue: FTS5_TOKENIZE_DOCUMENT)

    /// An auxiliary function, such as `highlight()`, asks for tokens
    /// (`FTS5_TOKENIZE_AUX`).
    public static let aux = FTS5Tokenization(rawValue: FTS5_TOKENIZE_AUX)
}

/// Flags of a token (`FTS5_TOKEN_*`).
public struct FTS5TokenFlags: OptionSet, Sendable {
    /// The `FTS5_TOKEN_*` flags.
    public let rawValue: CInt

    /// Creates flags from their raw value.
    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// The token is a synonym of the previous one, at the same position
    /// (`FTS5_TOKEN_COLOCATED`).
    public static let colocated = FTS5TokenFlags(rawValue: FTS5_TOKEN_COLOCATED)
}

/// An FTS5 tokenizer: a built-in one (ascii, unicode61, porter, trigram),
/// or a tokenizer written in Swift.
///
/// Get built-in tokenizers with ``Database/makeTokenizer(_:)``, and test
/// any tokenizer with ``tokenize(document:)`` and ``tokenize(query:)``.
///
/// A tokenizer that adopts the protocol directly implements one of the two
/// `tokenize(context:tokenization:pText:nText:tokenCallback:)` methods: the
/// one whose callback is not optional (as in the GRDB guides), or the one
/// whose callback is optional. Each has a default implementation that calls
/// the other. Most tokenizers adopt ``FTS5WrapperTokenizer`` instead, which
/// hides the C interface.
///
/// ```swift
/// final class ByteTokenizer: FTS5CustomTokenizer {
///     static let name = "bytes"
///     init(db: Database, arguments: [String]) throws { }
///
///     // Each byte of the text is a token.
///     func tokenize(
///         context: UnsafeMutableRawPointer?,
///         tokenization: FTS5Tokenization,
///         pText: UnsafePointer<CChar>?,
///         nText: CInt,
///         tokenCallback: @escaping FTS5TokenCallback) -> CInt
///     {
///         guard let pText else { return SQLITE_OK }
///         for offset in 0..<nText {
///             let code = tokenCallback(context, 0, pText + Int(offset), 1, offset, offset + 1)
///             if code != SQLITE_OK { return code }
///         }
///         return SQLITE_OK
///     }
/// }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/fts5.html#custom_tokenizers>
public protocol FTS5Tokenizer: AnyObject {
    /// Splits a text into tokens: the `xTokenize` function of SQLite's FTS5
    /// C interface.
    ///
    /// - Parameters:
    ///   - context: An opaque pointer, to give to `tokenCallback`.
    ///   - tokenization: Why FTS5 asks for tokens.
    ///   - pText: The text, UTF-8 bytes, not necessarily NUL-terminated.
    ///   - nText: The number of bytes of the text.
    ///   - tokenCallback: The function to call for each token; when it does
    ///     not return `SQLITE_OK`, stop and return its result.
    /// - Returns: `SQLITE_OK`, or an error code.
    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt

    /// Splits a text into tokens, with an optional token callback: see
    /// ``tokenize(context:tokenization:pText:nText:tokenCallback:)-(_,_,_,_,FTS5TokenCallback)``.
    ///
    /// - Parameters:
    ///   - context: An opaque pointer, to give to `tokenCallback`.
    ///   - tokenization: Why FTS5 asks for tokens.
    ///   - pText: The text, UTF-8 bytes, not necessarily NUL-terminated.
    ///   - nText: The number of bytes of the text.
    ///   - tokenCallback: The function to call for each token; FTS5 always
    ///     gives one.
    /// - Returns: `SQLITE_OK`, or an error code.
    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: FTS5TokenCallback?) -> CInt

    /// Splits a text into tokens, for a locale: the `xTokenize` function of
    /// `fts5_tokenizer_v2`, which receives the locale that a value of a
    /// table created with `locale=1` was given with `fts5_locale()`.
    ///
    /// FTS5 calls it for values that have a locale, and calls
    /// ``tokenize(context:tokenization:pText:nText:tokenCallback:)-(_,_,_,_,FTS5TokenCallback)``
    /// for the others. The default implementation ignores the locale, and
    /// calls that method. Wrapper tokenizers (``FTS5WrapperTokenizer``)
    /// have their own implementation, which passes the locale on to the
    /// wrapped tokenizer and to `accept`: a wrapper that overrides the
    /// method without a locale overrides this one too, to handle the values
    /// that have a locale the same way.
    ///
    /// - Parameters:
    ///   - context: An opaque pointer, to give to `tokenCallback`.
    ///   - tokenization: Why FTS5 asks for tokens.
    ///   - pText: The text, UTF-8 bytes, not necessarily NUL-terminated.
    ///   - nText: The number of bytes of the text.
    ///   - locale: The locale of the text, or nil when it has none.
    ///   - tokenCallback: The function to call for each token; when it does
    ///     not return `SQLITE_OK`, stop and return its result.
    /// - Returns: `SQLITE_OK`, or an error code.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fts5.html#the_locale_option>
    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        locale: String?,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
}

extension FTS5Tokenizer {
    /// Calls the variant whose token callback is optional (the default, for
    /// tokenizers that implement that one).
    public func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
    {
        // Marks the tokenizer, so that the other default implementation
        // can tell that the tokenizer implements neither variant.
        FTS5TokenizerForwarding.forwarding(self) {
            tokenize(
                context: context, tokenization: tokenization,
                pText: pText, nText: nText,
                tokenCallback: .some(tokenCallback))
        }
    }

    /// Calls the variant whose token callback is not optional (the
    /// default, for tokenizers that implement that one). Without callback,
    /// returns `SQLITE_MISUSE`.
    public func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: FTS5TokenCallback?) -> CInt
    {
        if FTS5TokenizerForwarding.isForwarding(self) {
            // Both default implementations run: the tokenizer implements
            // neither, and they would call each other forever.
            TokenizerErrorRoute.record(DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "the tokenizer \(type(of: self)) must implement "
                    + "tokenize(context:tokenization:pText:nText:tokenCallback:)"))
            return SQLITE_MISUSE
        }
        guard let tokenCallback else { return SQLITE_MISUSE }
        return tokenize(
            context: context, tokenization: tokenization,
            pText: pText, nText: nText,
            tokenCallback: tokenCallback)
    }
    /// Ignores the locale, and splits the text with
    /// ``tokenize(context:tokenization:pText:nText:tokenCallback:)-(_,_,_,_,FTS5TokenCallback)``.
    public func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        locale: String?,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
    {
        tokenize(context: context, tokenization: tokenization, pText: pText, nText: nText, tokenCallback: tokenCallback)
    }

    /// Tokenizes with the variant of `tokenize` that takes a locale only
    /// when there is one: a tokenizer that overrides the variant without a
    /// locale (code written before locales existed, such as a wrapper
    /// that prepares its text) keeps running its own code.
    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        optionalLocale locale: String?,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
    {
        if let locale {
            return tokenize(context: context, tokenization: tokenization, pText: pText, nText: nText, locale: locale, tokenCallback: tokenCallback)
        }
        return tokenize(context: context, tokenization: tokenization, pText: pText, nText: nText, tokenCallback: tokenCallback)
    }

    /// The tokens of a query, with their flags.
    ///
    /// ```swift
    /// let ascii = try db.makeTokenizer(.ascii())
    /// for (token, flags) in try ascii.tokenize(query: "SQLite database") {
    ///     print(token) // "sqlite", then "database"
    /// }
    /// ```
    ///
    /// - Throws: A ``DatabaseError``, or the error of a Swift tokenizer.
    public func tokenize(query string: String) throws -> [(token: String, flags: FTS5TokenFlags)] {
        try tokenize(string, for: .query)
    }

    /// The tokens of a document, with their flags.
    ///
    /// - Throws: A ``DatabaseError``, or the error of a Swift tokenizer.
    public func tokenize(document string: String) throws -> [(token: String, flags: FTS5TokenFlags)] {
        try tokenize(string, for: .document)
    }

    /// The tokens of a text, with their flags.
    ///
    /// As in GRDB, a token that is not valid UTF-8 (a byte of a character
    /// that a tokenizer of the user's split) is left out.
    ///
    /// - Throws: A ``DatabaseError``, or the error of a Swift tokenizer.
    public func tokenize(_ string: String, for tokenization: FTS5Tokenization) throws
        -> [(token: String, flags: FTS5TokenFlags)]
    {
        var collector = ValidTokenCollector()
        try collect(string, for: tokenization, locale: nil, into: &collector, callback: collectValidTokenCallback)
        return collector.tokens
    }

    /// The tokens of a text, with their flags and the byte offsets of the
    /// text they come from.
    ///
    /// ```swift
    /// let words = try db.makeTokenizer(FTS5WordTokenizer.tokenizerDescriptor())
    /// for token in try words.tokens(in: "研究生命科学") {
    ///     print(token.token, token.utf8Range)  // 研究 0..<6, 生命 6..<12, 科学 12..<18
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - string: The text.
    ///   - tokenization: Why the text is tokenized: `.document` (the
    ///     default), `.query`, `[.query, .prefix]` or `.aux`.
    ///   - locale: The locale of the text, as `fts5_locale()` gives it to
    ///     tokenizers; nil for none.
    /// - Throws: A ``DatabaseError``, or the error of a Swift tokenizer.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fts5.html#custom_tokenizers>
    public func tokens(
        in string: String,
        for tokenization: FTS5Tokenization = .document,
        locale: String? = nil) throws -> [FTS5Token]
    {
        var collector = TokenCollector()
        try collect(string, for: tokenization, locale: locale, into: &collector, callback: collectTokenCallback)
        return collector.tokens
    }

    /// Tokenizes `string`, with `collector` as the context of `callback`.
    ///
    /// - Throws: The error of a Swift tokenizer, or a ``DatabaseError``.
    private func collect<Collector>(
        _ string: String,
        for tokenization: FTS5Tokenization,
        locale: String?,
        into collector: inout Collector,
        callback: FTS5TokenCallback) throws
    {
        var string = string
        // The errors of Swift tokenizers, this one or those it wraps.
        let errors = CallbackErrorStash()
        let code = TokenizerErrorRoute.routing(to: errors) {
            string.withUTF8 { buffer in
                withUnsafeMutablePointer(to: &collector) { collectorPointer in
                    let base = UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                        .assumingMemoryBound(to: CChar.self)
                    return tokenize(
                        context: UnsafeMutableRawPointer(collectorPointer),
                        tokenization: tokenization,
                        pText: base, nText: CInt(buffer.count),
                        optionalLocale: locale,
                        tokenCallback: callback)
                }
            }
        }
        if let (error, _) = errors.take() {
            throw error
        }
        guard code == SQLITE_OK else {
            // GRDB's error: the code, with SQLite's message for it.
            throw DatabaseError(resultCode: ResultCode(rawValue: code))
        }
    }
}

/// A token of a tokenizer, returned by
/// ``FTS5Tokenizer/tokens(in:for:locale:)``.
public struct FTS5Token: Hashable, Sendable {
    /// The token, as the index stores it.
    public var token: String
    /// Its flags: ``FTS5TokenFlags/colocated`` for a synonym of the
    /// previous token.
    public var flags: FTS5TokenFlags
    /// The byte offsets, in the UTF-8 of the tokenized text, of the text
    /// the token comes from: what `highlight()` and `snippet()` mark.
    public var utf8Range: Range<Int>

    /// Creates a token.
    public init(token: String, flags: FTS5TokenFlags, utf8Range: Range<Int>) {
        self.token = token
        self.flags = flags
        self.utf8Range = utf8Range
    }

    /// The text of the token in the tokenized string: `text[token.range(in: text)]`.
    ///
    /// - Parameter text: The string that was tokenized.
    /// - Returns: The range of the token's bytes, or nil when the offsets
    ///   are not in the string.
    public func range(in text: String) -> Range<String.Index>? {
        let utf8 = text.utf8
        guard utf8Range.lowerBound >= 0, utf8Range.upperBound <= utf8.count else { return nil }
        let lower = utf8.index(utf8.startIndex, offsetBy: utf8Range.lowerBound)
        let upper = utf8.index(lower, offsetBy: utf8Range.count)
        return lower..<upper
    }
}

extension FTS5TokenFlags: Hashable { }

/// A running call of the default `tokenize` that takes a non-optional
/// callback, which forwards to the variant that takes an optional one: when
/// the default of that variant runs for a tokenizer that is forwarding on
/// the current thread, the tokenizer implements neither variant. The
/// forwardings of a thread form a chain, innermost first, from a
/// ``ThreadSlot``: the calls are synchronous, on the thread of the caller.
final class FTS5TokenizerForwarding {
    private let tokenizer: ObjectIdentifier
    private let outer: FTS5TokenizerForwarding?

    private init(tokenizer: ObjectIdentifier, outer: FTS5TokenizerForwarding?) {
        self.tokenizer = tokenizer
        self.outer = outer
    }

    @inline(__always)
    private static var slot: ThreadSlot<FTS5TokenizerForwarding> { ThreadSlot(.tokenizerForwarding) }

    /// Runs `body` with `tokenizer` marked as forwarding on this thread.
    static func forwarding<T>(_ tokenizer: some FTS5Tokenizer, _ body: () -> T) -> T {
        slot.with(FTS5TokenizerForwarding(tokenizer: ObjectIdentifier(tokenizer), outer: slot.current), body)
    }

    /// Whether `tokenizer` is forwarding on this thread.
    static func isForwarding(_ tokenizer: some FTS5Tokenizer) -> Bool {
        var forwarding = slot.current
        while let current = forwarding {
            if current.tokenizer == ObjectIdentifier(tokenizer) { return true }
            forwarding = current.outer
        }
        return false
    }
}

/// The token of a token callback, as a string.
func tokenString(_ pToken: UnsafePointer<CChar>?, _ nToken: CInt) -> String {
    guard let pToken, nToken > 0 else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: pToken, count: Int(nToken)), as: UTF8.self)
}

/// The tokens collected by `tokens(in:for:locale:)`.
private struct TokenCollector {
    var tokens: [FTS5Token] = []
}

private let collectTokenCallback: FTS5TokenCallback = { context, flags, pToken, nToken, iStart, iEnd in
    guard let context else { return SQLITE_ERROR }
    let collector = context.assumingMemoryBound(to: TokenCollector.self)
    collector.pointee.tokens.append(FTS5Token(
        token: tokenString(pToken, nToken),
        flags: FTS5TokenFlags(rawValue: flags),
        utf8Range: Int(iStart)..<Int(max(iStart, iEnd))))
    return SQLITE_OK
}

/// The tokens collected by `tokenize(_:for:)`.
private struct ValidTokenCollector {
    var tokens: [(token: String, flags: FTS5TokenFlags)] = []
}

/// Keeps the tokens that are valid UTF-8, as GRDB does (it drops the others).
private let collectValidTokenCallback: FTS5TokenCallback = { context, flags, pToken, nToken, _, _ in
    guard let context else { return SQLITE_ERROR }
    guard let pToken else { return SQLITE_OK }
    let bytes = UnsafeRawBufferPointer(start: pToken, count: Int(max(nToken, 0)))
    guard let token = String(validatingUTF8Bytes: bytes) else { return SQLITE_OK }
    let collector = context.assumingMemoryBound(to: ValidTokenCollector.self)
    collector.pointee.tokens.append((token, FTS5TokenFlags(rawValue: flags)))
    return SQLITE_OK
}

// MARK: - Tokenizers registered in SQLite

/// A tokenizer that SQLite knows (a built-in tokenizer, or a registered
/// Swift tokenizer), created with ``Database/makeTokenizer(_:)``.
///
/// The tokenizer copies the functions of its module, so that it can be
/// deleted after its connection is closed.
final class FTS5ModuleTokenizer: FTS5Tokenizer {
    private let module: fts5_tokenizer_v2
    private let handle: OpaquePointer
    /// The callback errors of the connection, where a Swift tokenizer
    /// registered in it keeps its errors when no Swift tokenization
    /// encloses it.
    private let connectionErrors: CallbackErrorStash

    init(module: fts5_tokenizer_v2, handle: OpaquePointer, connectionErrors: CallbackErrorStash) {
        self.module = module
        self.handle = handle
        self.connectionErrors = connectionErrors
    }

    deinit {
        module.xDelete?(handle)
    }

    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
    {
        tokenize(context: context, tokenization: tokenization, pText: pText, nText: nText, locale: nil, tokenCallback: tokenCallback)
    }

    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        locale: String?,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
    {
        guard let xTokenize = module.xTokenize else { return SQLITE_ERROR }
        let code: CInt
        if var locale, !locale.isEmpty {
            code = locale.withUTF8 { locale in
                locale.withMemoryRebound(to: CChar.self) { locale in
                    xTokenize(handle, context, tokenization.rawValue, pText, nText,
                              locale.baseAddress, CInt(locale.count), tokenCallback)
                }
            }
        } else {
            code = xTokenize(handle, context, tokenization.rawValue, pText, nText, nil, 0, tokenCallback)
        }
        if code != SQLITE_OK, let failure = connectionErrors.take() {
            // A Swift tokenizer of the connection failed: its error goes
            // to the tokenization that called this one (`tokenize(_:for:)`,
            // or a wrapper tokenizer of a statement).
            TokenizerErrorRoute.record(failure.error, fallback: connectionErrors)
        }
        return code
    }
}

extension Database {
    /// The FTS5 interface of the connection.
    ///
    /// - Throws: A ``DatabaseError`` if FTS5 is not available.
    func fts5API() throws -> UnsafeMutablePointer<fts5_api> {
        guard let sqliteConnection else {
            throw DatabaseError.connectionIsClosed()
        }
        guard let api = _cairn_fts5_api(sqliteConnection) else {
            // "SELECT fts5(?1)" could not run: when SQLite cannot read the
            // file (not a database, a wrong passphrase), say so.
            let code = sqlite3_extended_errcode(sqliteConnection)
            if code != SQLITE_OK { throw lastError(code: code) }
            throw makeError(resultCode: .SQLITE_ERROR, message: "FTS5 is not available", sql: nil, arguments: nil)
        }
        guard api.pointee.iVersion >= 3 else {
            throw makeError(resultCode: .SQLITE_ERROR, message: "FTS5 is not available", sql: nil, arguments: nil)
        }
        return api
    }

    /// Returns a tokenizer: a built-in tokenizer, or a tokenizer registered
    /// with ``add(tokenizer:)``.
    ///
    /// ```swift
    /// let unicode61 = try db.makeTokenizer(.unicode61())
    /// let tokens = try unicode61.tokenize(query: "Jérôme") // [("jerome", [])]
    /// ```
    ///
    /// The tokenizer belongs to the connection's access: use it there, and
    /// do not keep it after the connection is closed.
    ///
    /// - Parameter descriptor: The tokenizer name and arguments.
    /// - Throws: A ``DatabaseError`` when the tokenizer does not exist or its
    ///   arguments are invalid, or the error of a Swift tokenizer's
    ///   initializer.
    ///
    /// The corresponding C functions are `xFindTokenizer_v2` and `xCreate`.
    public func makeTokenizer(_ descriptor: FTS5TokenizerDescriptor) throws -> any FTS5Tokenizer {
        preconditionInsideAccess()
        let api = try fts5API()
        guard let name = descriptor.components.first else {
            throw makeError(resultCode: .SQLITE_MISUSE, message: "empty tokenizer descriptor", sql: nil, arguments: nil)
        }
        var userData: UnsafeMutableRawPointer?
        var modulePointer: UnsafeMutablePointer<fts5_tokenizer_v2>?
        let findCode = api.pointee.xFindTokenizer_v2?(api, name, &userData, &modulePointer) ?? SQLITE_ERROR
        guard findCode == SQLITE_OK, let module = modulePointer?.pointee, let xCreate = module.xCreate else {
            // GRDB's error: the code of xFindTokenizer, with SQLite's
            // message for it ("SQL logic error").
            throw DatabaseError(resultCode: ResultCode(rawValue: findCode == SQLITE_OK ? SQLITE_ERROR : findCode))
        }
        let arguments = Array(descriptor.components.dropFirst())
        var handle: OpaquePointer?
        // The error of a Swift tokenizer's initializer.
        let errors = CallbackErrorStash()
        let code = TokenizerErrorRoute.routing(to: errors) {
            withCStringArray(arguments) { argv in
                xCreate(userData, argv, CInt(arguments.count), &handle)
            }
        }
        if let (error, _) = errors.take() {
            throw error
        }
        // GRDB's messages.
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "failed fts5_tokenizer.xCreate")
        }
        guard let handle else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "nil tokenizer")
        }
        return FTS5ModuleTokenizer(module: module, handle: handle, connectionErrors: callbackErrors)
    }

    /// Registers a Swift tokenizer in the connection, under its name.
    ///
    /// Register it in each connection that uses a table that uses it, with
    /// ``Configuration/prepareDatabase(_:)``:
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.prepareDatabase { db in
    ///     db.add(tokenizer: MyTokenizer.self)
    /// }
    /// let dbQueue = try DatabaseQueue(path: dbPath, configuration: config)
    /// ```
    ///
    /// - Precondition: FTS5 is available (it is always compiled in Cairn's
    ///   SQLite).
    ///
    /// The corresponding C function is `xCreateTokenizer_v2`.
    public func add<Tokenizer: FTS5CustomTokenizer>(tokenizer: Tokenizer.Type) {
        preconditionInsideAccess()
        let api: UnsafeMutablePointer<fts5_api>
        do {
            api = try fts5API()
        } catch {
            // Opening a connection throws the error of a tokenizer that its
            // setup registers on a file SQLite cannot read.
            if deferSetupError(error) { return }
            stopProgram("Cannot register tokenizer \(Tokenizer.name): \(error)")
        }
        let constructor = FTS5TokenizerConstructor(database: self) { db, arguments in
            try Tokenizer(db: db, arguments: arguments)
        }
        var module = fts5_tokenizer_v2(
            iVersion: 2,
            xCreate: customTokenizerCreate,
            xDelete: customTokenizerDelete,
            xTokenize: customTokenizerTokenize)
        let context = constructor.retainedCContext()
        let code = api.pointee.xCreateTokenizer_v2?(api, Tokenizer.name, context, &module, customTokenizerDestroy)
        if code != SQLITE_OK {
            FTS5TokenizerConstructor.releaseCContext(context)
            stopProgram("Cannot register tokenizer \(Tokenizer.name): error \(code ?? SQLITE_ERROR)")
        }
    }
}

/// Calls `body` with a C array of C strings.
private func withCStringArray<T>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> T) -> T {
    var cStrings = strings.map { strdup($0) }
    defer { cStrings.forEach { free($0) } }
    return cStrings.withUnsafeMutableBufferPointer { buffer in
        buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: max(buffer.count, 1)) { argv in
            body(buffer.isEmpty ? nil : argv)
        }
    }
}
