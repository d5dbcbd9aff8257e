import Foundation

/// A tokenizer that indexes synonyms, so that a document that contains
/// "first" matches the query "1st", and the reverse.
///
/// It implements the third method of SQLite's synonym support: when it
/// tokenizes a document, each word of a group of synonyms is indexed with
/// all the other words of its group, at the same position (the
/// `.colocated` flag). Queries are tokenized as they are.
///
/// ```swift
/// try db.create(virtualTable: "document", using: FTS5()) { t in
///     t.tokenizer = FTS5SynonymTokenizer.tokenizerDescriptor(
///         synonyms: [["first", "1st"], ["second", "2nd"]])
///     t.column("content")
/// }
/// ```
///
/// Words are compared after the wrapped tokenizer (unicode61 by default):
/// "First" and "first" are the same word. Each word must be one token.
///
/// Related SQLite documentation: <https://www.sqlite.org/fts5.html#synonym_support>
public final class FTS5SynonymTokenizer: FTS5WrapperTokenizer {
    /// `cairn_synonyms`.
    public static let name = "cairn_synonyms"

    /// The wrapped tokenizer.
    public let wrappedTokenizer: any FTS5Tokenizer

    /// The group of each word.
    private let groups: [String: [String]]
    /// The words of all groups, for the byte-level path: the value of a
    /// word is the indexes of the other words of its group.
    private let groupBytes: UTF8TokenTable<[Int]>
    /// Whether a word of a group has characters beyond ASCII: a token with
    /// the same characters in another normalization form is then looked up
    /// as a String too, which compares canonical equivalents.
    private let hasNonASCIIWords: Bool

    /// Creates the tokenizer.
    ///
    /// - Parameters:
    ///   - db: The connection that creates the tokenizer, where the wrapped
    ///     tokenizer is looked up.
    ///   - arguments: One argument per group of synonyms, with its words
    ///     separated by spaces, then `--` and the descriptor of the wrapped
    ///     tokenizer (unicode61 when there is none).
    /// - Throws: A ``DatabaseError`` when the wrapped tokenizer does not
    ///   exist, or when a word of a group is not one token.
    public init(db: Database, arguments: [String]) throws {
        let (configuration, wrapped) = splitWrapperArguments(arguments)
        let wrappedTokenizer = try db.makeTokenizer(wrapped)
        self.wrappedTokenizer = wrappedTokenizer
        var groups: [String: [String]] = [:]
        for argument in configuration {
            let words = try argument.split(separator: " ").map { word in
                try singleToken(String(word), of: wrappedTokenizer)
            }
            for word in words {
                groups[word] = words
            }
        }
        self.groups = groups
        // Each word gets an index; its value lists the other words of its
        // group, by index.
        var groupBytes = UTF8TokenTable<[Int]>()
        let words = groups.keys.sorted()
        for word in words {
            groupBytes.insert(word.utf8, value: [])
        }
        for word in words {
            let others = groups[word, default: []].filter { $0 != word }.compactMap { other in
                other.utf8CString.withUnsafeBytes { bytes in
                    groupBytes.index(of: UnsafeRawBufferPointer(rebasing: bytes.dropLast()))
                }
            }
            groupBytes.insert(word.utf8, value: others)
        }
        self.groupBytes = groupBytes
        hasNonASCIIWords = groups.keys.contains { !$0.utf8.allSatisfy { $0 < 0x80 } }
    }

    /// The descriptor of the tokenizer.
    ///
    /// - Parameters:
    ///   - synonyms: Groups of words that match each other.
    ///   - base: The wrapped tokenizer.
    public static func tokenizerDescriptor(
        synonyms: [Set<String>],
        wrapping base: FTS5TokenizerDescriptor = .unicode61()) -> FTS5TokenizerDescriptor
    {
        let groups = synonyms.map { $0.sorted().joined(separator: " ") }.filter { !$0.isEmpty }
        return tokenizerDescriptor(arguments: groups + ["--"] + base.components)
    }

    /// Outputs the token, then its synonyms when a document is tokenized.
    public func accept(
        token: String,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        tokenCallback: FTS5WrapperTokenCallback) throws
    {
        try tokenCallback(token, flags)
        guard !tokenization.contains(.query), let group = groups[token] else { return }
        for synonym in group where synonym != token {
            try tokenCallback(synonym, flags.union(.colocated))
        }
    }

    /// Outputs the token, then its synonyms when a document is tokenized
    /// (the byte-level path).
    @inline(__always)
    public func accept(
        utf8Token token: UnsafeRawBufferPointer,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        locale: String?,
        tokenCallback: FTS5WrapperUTF8TokenCallback) throws
    {
        try tokenCallback(token, flags)
        guard !tokenization.contains(.query) else { return }
        let synonymFlags = flags.union(.colocated)
        if let synonyms = groupBytes.value(of: token) {
            for synonym in synonyms {
                try groupBytes.withKey(at: synonym) { try tokenCallback($0, synonymFlags) }
            }
        } else if hasNonASCIIWords && !isASCII(token) {
            let word = String(decoding: token, as: UTF8.self)
            guard let group = groups[word] else { return }
            for var synonym in group where synonym != word {
                try synonym.withUTF8 { try tokenCallback(UnsafeRawBufferPointer($0), synonymFlags) }
            }
        }
    }
}
