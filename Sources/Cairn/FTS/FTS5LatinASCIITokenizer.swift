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

    /// Outputs the folded token (the byte-level path): a token that is
    /// already lowercase ASCII goes through unchanged, with no copy.
    @inline(__always)
    public func accept(
        utf8Token token: UnsafeRawBufferPointer,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        locale: String?,
        tokenCallback: FTS5WrapperUTF8TokenCallback) throws
    {
        if LatinASCIIFolding.isFolded(token) {
            try tokenCallback(token, flags)
            return
        }
        try LatinASCIIFolding.withFolded(token) { try tokenCallback($0, flags) }
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

    /// The folding of each non-ASCII scalar of the latin blocks, as UTF-8
    /// bytes, for the byte-level path.
    private static let byteTable: UTF8TokenTable<[UInt8]> = {
        var byteTable = UTF8TokenTable<[UInt8]>()
        for (value, folded) in table {
            guard let scalar = Unicode.Scalar(value) else { continue }
            byteTable.insert(String(scalar).utf8, value: Array(folded.utf8))
        }
        return byteTable
    }()

    /// The most bytes that one byte of a token folds to.
    private static let maximumExpansion: Int = table.reduce(1) { result, entry in
        let length = Unicode.Scalar(entry.key).map { String($0).utf8.count } ?? 1
        return max(result, (entry.value.utf8.count + length - 1) / length)
    }

    /// Whether the bytes are lowercase ASCII already.
    @inline(__always)
    static func isFolded(_ token: UnsafeRawBufferPointer) -> Bool {
        // Without a branch per byte: the high bit of `byte` tells a byte
        // beyond ASCII, and for an ASCII byte, the high bit of
        // (byte + 0x3F) & ~(byte + 0x25) tells a letter from A to Z.
        var bits: UInt8 = 0
        for byte in token {
            bits |= byte | ((byte &+ 0x3F) & ~(byte &+ 0x25))
        }
        return bits & 0x80 == 0
    }

    /// Calls `body` with the folded bytes of a token.
    static func withFolded<T>(_ token: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        // On the stack: a callback may tokenize again while the bytes are
        // in use, so they must belong to this call.
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(token.count * maximumExpansion, 1)) { output in
            var used = 0
            var offset = 0
            while offset < token.count {
                let byte = token[offset]
                if byte < 0x80 {
                    output[used] = byte >= 65 && byte <= 90 ? byte | 0x20 : byte
                    used += 1
                    offset += 1
                    continue
                }
                // The length of the scalar, from its first byte; invalid
                // bytes are copied one by one.
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                let end = min(offset + length, token.count)
                let scalar = UnsafeRawBufferPointer(rebasing: token[offset..<end])
                if length > 1, let folded = byteTable.value(of: scalar) {
                    for byte in folded {
                        output[used] = byte
                        used += 1
                    }
                } else {
                    for byte in scalar {
                        output[used] = byte
                        used += 1
                    }
                }
                offset = end
            }
            return try body(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: output[..<used])))
        }
    }

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
