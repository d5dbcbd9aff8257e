import Foundation

// Ready-made wrapper tokenizers: Latin-to-ASCII folding, synonyms and stop
// words. Register them in each connection that uses them:
//
//     config.prepareDatabase { db in
//         db.add(tokenizer: FTS5LatinASCIITokenizer.self)
//     }

/// A tokenizer that folds latin letters to lowercase ASCII, so that
/// "Großmann" matches "grossmann", "Encyclopædia" matches "encyclopaedia",
/// "Jérôme" matches "jerome", and "ﬁdélité" (with the ﬁ ligature) matches
/// "fidelite".
///
/// It wraps unicode61 by default, or the tokenizer of its arguments:
///
/// ```swift
/// try db.create(virtualTable: "document", using: FTS5()) { t in
///     t.tokenizer = FTS5LatinASCIITokenizer.tokenizerDescriptor()
///     // or: FTS5LatinASCIITokenizer.tokenizerDescriptor(wrapping: .porter())
///     t.column("content")
/// }
/// ```
///
/// Letters of other scripts are left as the wrapped tokenizer gives them.
/// The folding is ICU's `Latin-ASCII; Lower` transform, computed once for
/// the latin blocks of Unicode: tokens are folded with table lookups.
public final class FTS5LatinASCIITokenizer: FTS5WrapperTokenizer {
    /// `cairn_latin_ascii`.
    public static let name = "cairn_latin_ascii"

    /// The wrapped tokenizer.
    public let wrappedTokenizer: any FTS5Tokenizer

    /// Creates the tokenizer.
    ///
    /// - Parameter arguments: The descriptor of the wrapped tokenizer; empty
    ///   for unicode61.
    /// - Throws: A ``DatabaseError`` when the wrapped tokenizer does not
    ///   exist.
    public init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(
            arguments.isEmpty ? .unicode61() : FTS5TokenizerDescriptor(components: arguments))
    }

    /// The descriptor of the tokenizer, wrapping another tokenizer.
    public static func tokenizerDescriptor(wrapping base: FTS5TokenizerDescriptor = .unicode61()) -> FTS5TokenizerDescriptor {
        tokenizerDescriptor(arguments: base.components)
    }

    /// Outputs the folded token.
    public func accept(
        token: String,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        tokenCallback: FTS5WrapperTokenCallback) throws
    {
        try tokenCallback(LatinASCIIFolding.fold(token), flags)
    }
}

/// The folding of latin letters to lowercase ASCII.
enum LatinASCIIFolding {
    /// The folding of each non-ASCII scalar of the latin blocks.
    private static let table: [UInt32: String] = {
        let ranges: [ClosedRange<UInt32>] = [
            0x00C0...0x024F,   // Latin-1 Supplement letters, Latin Extended-A and B
            0x0250...0x02AF,   // IPA Extensions
            0x1E00...0x1EFF,   // Latin Extended Additional
            0x2C60...0x2C7F,   // Latin Extended-C
            0xA720...0xA7FF,   // Latin Extended-D
            0xFB00...0xFB06,   // Latin ligatures
        ]
        let scalars = ranges.flatMap { $0 }.compactMap(Unicode.Scalar.init)
        // One transform for all scalars, one per line.
        let source = scalars.map { String($0) }.joined(separator: "\n")
        var table: [UInt32: String] = [:]
        if let folded = source.applyingTransform(StringTransform("Latin-ASCII; Lower"), reverse: false) {
            let lines = folded.split(separator: "\n", omittingEmptySubsequences: false)
            if lines.count == scalars.count {
                for (scalar, line) in zip(scalars, lines) where line.utf8.allSatisfy({ $0 < 0x80 }) {
                    table[scalar.value] = String(line)
                }
            }
        }
        // Combining diacritical marks disappear.
        for value in UInt32(0x0300)...0x036F {
            table[value] = ""
        }
        return table
    }()

    /// Folds latin letters of a token to lowercase ASCII; other characters
    /// are kept.
    static func fold(_ token: String) -> String {
        // Fast path: lowercase ASCII tokens, the common case.
        if token.utf8.allSatisfy({ $0 < 0x80 && !($0 >= 65 && $0 <= 90) }) {
            return token
        }
        var result = ""
        result.unicodeScalars.reserveCapacity(token.unicodeScalars.count)
        for scalar in token.unicodeScalars {
            if scalar.isASCII {
                let value = scalar.value
                result.unicodeScalars.append(value >= 65 && value <= 90 ? Unicode.Scalar(value | 0x20)! : scalar)
            } else if let folded = table[scalar.value] {
                result += folded
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

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

    /// Creates the tokenizer.
    ///
    /// - Parameter arguments: One argument per group of synonyms, with its
    ///   words separated by spaces, then `--` and the descriptor of the
    ///   wrapped tokenizer (unicode61 when there is none).
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
}

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

    /// Creates the tokenizer.
    ///
    /// - Parameter arguments: The stop words, then `--` and the descriptor
    ///   of the wrapped tokenizer (unicode61 when there is none).
    /// - Throws: A ``DatabaseError`` when the wrapped tokenizer does not
    ///   exist, or when a stop word is not one token.
    public init(db: Database, arguments: [String]) throws {
        let (configuration, wrapped) = splitWrapperArguments(arguments)
        let wrappedTokenizer = try db.makeTokenizer(wrapped)
        self.wrappedTokenizer = wrappedTokenizer
        stopWords = try Set(configuration.flatMap { $0.split(separator: " ") }.map { word in
            try singleToken(String(word), of: wrappedTokenizer)
        })
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
}

/// Splits the arguments of a configurable wrapper tokenizer: its own
/// arguments, then `--` and the wrapped tokenizer (unicode61 by default).
private func splitWrapperArguments(_ arguments: [String]) -> ([String], FTS5TokenizerDescriptor) {
    guard let separator = arguments.firstIndex(of: "--") else {
        return (arguments, .unicode61())
    }
    let wrapped = Array(arguments[(separator + 1)...])
    return (Array(arguments[..<separator]), wrapped.isEmpty ? .unicode61() : FTS5TokenizerDescriptor(components: wrapped))
}

/// The one token that `word` gives.
///
/// - Throws: A ``DatabaseError`` when it gives none or several.
private func singleToken(_ word: String, of tokenizer: any FTS5Tokenizer) throws -> String {
    let tokens = try tokenizer.tokenize(document: word).filter { !$0.flags.contains(.colocated) }
    guard tokens.count == 1, let token = tokens.first?.token else {
        throw DatabaseError(resultCode: .SQLITE_ERROR, message: "not a single token: \(word)")
    }
    return token
}
