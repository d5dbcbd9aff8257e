import Foundation

// The string helpers of full-text search: tokens and phrases of patterns,
// identifiers and options of full-text tables.

extension String {
    /// The string as an FTS3/FTS4 option value: double-quoted.
    var quotedFTS4Option: String {
        "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension String {
    /// Whether the string is a token that FTS3 reads as a plain term:
    /// lowercase ASCII letters, digits, and characters beyond ASCII (the
    /// tokens of the simple tokenizer). Uppercase ASCII could spell an
    /// operator (`AND`, `NEAR`), and punctuation is query syntax.
    var isPlainFTS3Token: Bool {
        !isEmpty && utf8.allSatisfy { byte in
            byte >= 0x80 || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
        }
    }

    /// The token as an FTS3 term: as is when it is plain, as a quoted
    /// phrase otherwise.
    var fts3Term: String {
        isPlainFTS3Token ? self : quotedFTSPhrase
    }

    /// Whether the string is a token that FTS5 reads as a plain term (a
    /// "bareword"): lowercase ASCII letters, digits, underscores, and
    /// characters beyond ASCII. Uppercase ASCII could spell an operator
    /// (`AND`, `NOT`, `NEAR`), and punctuation is query syntax.
    var isPlainFTS5Token: Bool {
        !isEmpty && utf8.allSatisfy { byte in
            byte >= 0x80 || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
        }
    }

    /// The token as an FTS5 term: as is when it is plain, as a quoted
    /// string otherwise.
    var fts5Term: String {
        isPlainFTS5Token ? self : quotedFTSPhrase
    }

    /// The string with its double quotes doubled, for a quoted FTS string.
    var escapingFTSQuotes: String {
        replacingOccurrences(of: "\"", with: "\"\"")
    }

    /// The string as a quoted FTS phrase: `"..."`.
    var quotedFTSPhrase: String {
        "\"" + escapingFTSQuotes + "\""
    }
}

extension String {
    /// Whether the string is an ASCII identifier (`[A-Za-z_][A-Za-z0-9_]*`),
    /// which the full-text modules read without quotes.
    var isPlainFTSIdentifier: Bool {
        func isLetter(_ byte: UInt8) -> Bool {
            (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
        }
        guard let first = utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return utf8.allSatisfy { byte in
            byte == UInt8(ascii: "_") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || isLetter(byte)
        }
    }

    /// A column name in the arguments of a full-text table: bare when it is
    /// a plain identifier (`fts5(content)`, as GRDB writes it), quoted
    /// otherwise.
    var ftsColumnName: String {
        isPlainFTSIdentifier ? self : quotedDatabaseIdentifier
    }
}
