import Foundation

// The string helpers of the library, for SQL text, identifiers and column
// names (the full-text helpers are in FTS/String+FTS.swift).

extension String {
    /// The snake_case version of a camelCase identifier, as
    /// `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase` (and GRDB's
    /// `DatabaseColumnEncodingStrategy.convertToSnakeCase`) write it: a word
    /// starts at each uppercase letter that follows a lowercase one, and a
    /// run of uppercase letters before a lowercase one is a word but its
    /// last letter: `playerName` → `player_name`, `myURLValue` →
    /// `my_url_value`, `recordID` → `record_id`. The first character never
    /// starts a word, so an uppercase run at the start splits as Foundation
    /// splits it (`URLValue` → `u_rl_value`, `ID` → `i_d`).
    var snakeCased: String {
        let scalars = Array(unicodeScalars)
        guard !scalars.isEmpty else { return self }
        func isUppercase(_ scalar: Unicode.Scalar) -> Bool {
            let category = scalar.properties.generalCategory
            return category == .uppercaseLetter || category == .titlecaseLetter
        }
        func isLowercase(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.generalCategory == .lowercaseLetter
        }
        let end = scalars.count
        var words: [Range<Int>] = []
        var wordStart = 0
        var searchStart = 1
        while let upper = (searchStart..<end).first(where: { isUppercase(scalars[$0]) }) {
            words.append(wordStart..<upper)
            guard let lower = (upper..<end).first(where: { isLowercase(scalars[$0]) }) else {
                // Uppercase letters up to the end: one last word.
                wordStart = upper
                break
            }
            if lower == upper + 1 {
                // A capitalized word.
                wordStart = upper
            } else {
                // A run of capitals is a word, but its last letter, which
                // starts the next word.
                words.append(upper..<(lower - 1))
                wordStart = lower - 1
            }
            searchStart = lower + 1
        }
        words.append(wordStart..<end)
        return words.map { range in
            var word = String.UnicodeScalarView()
            word.append(contentsOf: scalars[range])
            return String(word).lowercased()
        }.joined(separator: "_")
    }

    /// The camelCase version of a snake_case identifier, as
    /// `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase` (and GRDB's
    /// `DatabaseColumnDecodingStrategy.convertFromSnakeCase`) read it: the
    /// words between underscores are joined, each capitalized but the first,
    /// which is lowercased; leading and trailing underscores stay. An
    /// identifier without inner underscore is kept as it is:
    /// `player_name` → `playerName`, `_row_id_` → `_rowId_`,
    /// `createdAt` → `createdAt`.
    var camelCasedFromSnakeCase: String {
        guard let first = firstIndex(where: { $0 != "_" }) else { return self }
        var last = index(before: endIndex)
        while last > first && self[last] == "_" {
            formIndex(before: &last)
        }
        let words = self[first...last].split(separator: "_")
        guard words.count > 1 else { return self }
        let joined = ([words[0].lowercased()] + words.dropFirst().map(\.capitalized)).joined()
        return String(self[..<first]) + joined + String(self[index(after: last)...])
    }

    /// Whether ``camelCasedFromSnakeCase`` of this identifier is `key`.
    ///
    /// For an identifier of ASCII letters and underscores the comparison is
    /// made byte by byte, without building the converted string: a
    /// `Decodable` record with the `convertFromSnakeCase` strategy compares
    /// each of its keys with each column of each row. Other identifiers are
    /// converted: Unicode case mappings may change their length, and
    /// Foundation's `capitalized` may start a word after a digit.
    func snakeCaseIdentifier(convertsTo key: String) -> Bool {
        var identifier = self
        var key = key
        let fastResult: Bool? = identifier.withUTF8 { name in
            key.withUTF8 { key in Self.asciiSnakeCase(name, convertsTo: key) }
        }
        return fastResult ?? (camelCasedFromSnakeCase == key)
    }

    /// The byte-wise comparison of ``snakeCaseIdentifier(convertsTo:)``: nil
    /// when `name` holds other bytes than ASCII letters and underscores.
    private static func asciiSnakeCase(
        _ name: UnsafeBufferPointer<UInt8>,
        convertsTo key: UnsafeBufferPointer<UInt8>) -> Bool?
    {
        let underscore = UInt8(ascii: "_")
        // Only ASCII letters and underscores: Foundation's `capitalized`
        // treats digits as word boundaries on some platforms.
        guard name.allSatisfy({ $0 == underscore || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) }) else {
            return nil
        }
        // Leading and trailing underscores stay as they are.
        guard let first = name.firstIndex(where: { $0 != underscore }) else {
            return name.elementsEqual(key)
        }
        let last = name.lastIndex(where: { $0 != underscore })!
        // Without an inner underscore (one word), the name is kept.
        guard name[first...last].contains(underscore) else {
            return name.elementsEqual(key)
        }
        var keyIndex = 0
        func next(_ byte: UInt8) -> Bool {
            guard keyIndex < key.count, key[keyIndex] == byte else { return false }
            keyIndex += 1
            return true
        }
        for _ in 0..<first where !next(underscore) { return false }
        // The first word is lowercased; the next ones are capitalized (their
        // first letter uppercased, the others lowercased).
        var startsWord = false
        for index in first...last {
            let byte = name[index]
            if byte == underscore {
                startsWord = true
                continue
            }
            let isUpper = byte >= 0x41 && byte <= 0x5A
            let isLower = byte >= 0x61 && byte <= 0x7A
            let expected = startsWord
                ? (isLower ? byte - 0x20 : byte)
                : (isUpper ? byte + 0x20 : byte)
            startsWord = false
            if !next(expected) { return false }
        }
        for _ in (last + 1)..<name.count where !next(underscore) { return false }
        return keyIndex == key.count
    }
}

extension String {
    /// The string without leading and trailing whitespace and semicolons
    /// (empty statements).
    func trimmingSQLWhitespace() -> String {
        let isTrimmed: (Character) -> Bool = { $0.isWhitespace || $0 == ";" }
        var substring = self[...]
        while let first = substring.first, isTrimmed(first) { substring = substring.dropFirst() }
        while let last = substring.last, isTrimmed(last) { substring = substring.dropLast() }
        return String(substring)
    }
}

extension String {
    /// A summary of the string for case-insensitive comparisons: equal for
    /// strings that are equal without regard to ASCII case (the reverse is
    /// not true): the length and the first bytes, ASCII letters lowercased.
    var caseInsensitiveKey: UInt64 {
        @inline(__always)
        func key(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
            var key = UInt64(truncatingIfNeeded: bytes.count) << 56
            for index in 0..<Swift.min(bytes.count, 7) {
                let byte = bytes[index]
                let lower = (byte >= 65 && byte <= 90) ? byte | 0x20 : byte
                key |= UInt64(lower) << (UInt64(truncatingIfNeeded: index) &* 8)
            }
            return key
        }
        if let key = utf8.withContiguousStorageIfAvailable(key) {
            return key
        }
        var string = self
        return string.withUTF8(key)
    }

    /// Whether two strings are equal when ASCII letters are compared without
    /// regard to case, as SQLite compares identifiers.
    @usableFromInline
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        let lhs = utf8, rhs = other.utf8
        guard lhs.count == rhs.count else { return false }

        // Compare contiguous bytes when available (native and small strings).
        if let result = lhs.withContiguousStorageIfAvailable({ a in
            rhs.withContiguousStorageIfAvailable { b in
                for index in 0..<a.count where a[index] != b[index] {
                    let lowerA = (a[index] >= 65 && a[index] <= 90) ? a[index] | 0x20 : a[index]
                    let lowerB = (b[index] >= 65 && b[index] <= 90) ? b[index] | 0x20 : b[index]
                    if lowerA != lowerB { return false }
                }
                return true
            }
        }), let result {
            return result
        }
        for (a, b) in zip(lhs, rhs) where a != b {
            let lowerA = (a >= 65 && a <= 90) ? a | 0x20 : a
            let lowerB = (b >= 65 && b <= 90) ? b | 0x20 : b
            if lowerA != lowerB { return false }
        }
        return true
    }
}

extension String {
    /// Whether all bytes are ASCII (below 0x80), read eight at a time.
    @inlinable
    static func _isASCII(_ buffer: UnsafeRawBufferPointer) -> Bool {
        let count = buffer.count
        var offset = 0
        while offset &+ 8 <= count {
            if buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
                return false
            }
            offset &+= 8
        }
        while offset < count {
            if buffer[offset] & 0x80 != 0 { return false }
            offset &+= 1
        }
        return true
    }
}

extension String {
    /// Creates a string from UTF-8 bytes, or returns nil if the bytes are not
    /// valid UTF-8. Unlike `String(cString:)`, invalid bytes are never
    /// replaced, and NUL bytes are kept.
    @inlinable
    init?(validatingUTF8Bytes buffer: UnsafeRawBufferPointer) {
        let bytes = buffer.bindMemory(to: UInt8.self)
        if String._isASCII(buffer) {
            // ASCII is valid UTF-8: decoding repairs nothing, and its
            // specialized path avoids the generic validation (which looks
            // its metadata up at each call).
            self = String(decoding: bytes, as: UTF8.self)
            return
        }
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            guard let string = String(validating: bytes, as: UTF8.self) else { return nil }
            self = string
        } else {
            // Decoding repairs invalid input: compare to detect a repair.
            let string = String(decoding: bytes, as: UTF8.self)
            guard string.utf8.elementsEqual(bytes) else { return nil }
            self = string
        }
    }
}

extension String {
    /// The string as an SQL string literal: `'it''s'`.
    var sqlStringLiteral: String {
        "'" + replacingOccurrences(of: "'", with: "''") + "'"
    }
}
