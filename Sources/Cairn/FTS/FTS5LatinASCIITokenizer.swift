import Foundation

// The ready-made wrapper tokenizers are Latin-to-ASCII folding (here),
// synonyms (FTS5SynonymTokenizer.swift) and stop words
// (FTS5StopWordTokenizer.swift). Register them in each connection that uses
// them:
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
    /// - Parameters:
    ///   - db: The connection that creates the tokenizer, where the wrapped
    ///     tokenizer is looked up.
    ///   - arguments: The descriptor of the wrapped tokenizer; empty for
    ///     unicode61.
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
