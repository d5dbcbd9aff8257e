import Foundation

/// A tokenizer that drops stop words ("the", "a"…) from documents and
/// queries.
///
/// ```swift
/// try db.create(virtualTable: "document", using: FTS5()) { t in
///     t.tokenizer = FTS5StopWordTokenizer.tokenizerDescriptor(stopWords: ["the", "a", "an"])
///     t.column("content")
/// }
/// ```
///
/// Words are compared after the wrapped tokenizer (unicode61 by default).
/// A query made of stop words only matches nothing.
public final class FTS5StopWordTokenizer: FTS5WrapperTokenizer {
    /// `cairn_stopwords`.
    public static let name = "cairn_stopwords"

    /// The wrapped tokenizer.
    public let wrappedTokenizer: any FTS5Tokenizer

    private let stopWords: Set<String>
    /// The stop words, for the byte-level path.
    private let stopWordBytes: UTF8TokenTable<Void>
    /// Whether a stop word has characters beyond ASCII: a token with the
    /// same characters in another normalization form (such as a decomposed
    /// "é") is then looked up as a String too, which compares canonical
    /// equivalents.
    private let hasNonASCIIStopWords: Bool

    /// Creates the tokenizer.
    ///
    /// - Parameters:
    ///   - db: The connection that creates the tokenizer, where the wrapped
    ///     tokenizer is looked up.
    ///   - arguments: The stop words, then `--` and the descriptor of the
    ///     wrapped tokenizer (unicode61 when there is none).
    /// - Throws: A ``DatabaseError`` when the wrapped tokenizer does not
    ///   exist, or when a stop word is not one token.
    public init(db: Database, arguments: [String]) throws {
        let (configuration, wrapped) = splitWrapperArguments(arguments)
        let wrappedTokenizer = try db.makeTokenizer(wrapped)
        self.wrappedTokenizer = wrappedTokenizer
        stopWords = try Set(configuration.flatMap { $0.split(separator: " ") }.map { word in
            try singleToken(String(word), of: wrappedTokenizer)
        })
        var stopWordBytes = UTF8TokenTable<Void>()
        for word in stopWords {
            stopWordBytes.insert(word.utf8, value: ())
        }
        self.stopWordBytes = stopWordBytes
        hasNonASCIIStopWords = stopWords.contains { !$0.utf8.allSatisfy { $0 < 0x80 } }
    }

    /// The descriptor of the tokenizer.
    ///
    /// - Parameters:
    ///   - stopWords: The words to drop.
    ///   - base: The wrapped tokenizer.
    public static func tokenizerDescriptor(
        stopWords: Set<String>,
        wrapping base: FTS5TokenizerDescriptor = .unicode61()) -> FTS5TokenizerDescriptor
    {
        tokenizerDescriptor(arguments: stopWords.sorted() + ["--"] + base.components)
    }

    /// Outputs the token, unless it is a stop word.
    public func accept(
        token: String,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        tokenCallback: FTS5WrapperTokenCallback) throws
    {
        if !stopWords.contains(token) {
            try tokenCallback(token, flags)
        }
    }

    /// Outputs the token, unless it is a stop word (the byte-level path).
    @inline(__always)
    public func accept(
        utf8Token token: UnsafeRawBufferPointer,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        locale: String?,
        tokenCallback: FTS5WrapperUTF8TokenCallback) throws
    {
        if stopWordBytes.index(of: token) != nil {
            return
        }
        if hasNonASCIIStopWords && !isASCII(token) && stopWords.contains(String(decoding: token, as: UTF8.self)) {
            return
        }
        try tokenCallback(token, flags)
    }
}
