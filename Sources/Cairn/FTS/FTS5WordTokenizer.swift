internal import CairnSQLiteShims

/// A tokenizer that splits text into words in every script, including the
/// languages written without spaces: Chinese, Japanese, Thai, Lao, Khmer
/// and Burmese.
///
/// SQLite's `unicode61` tokenizer splits text at spaces and punctuation,
/// so a Chinese or Thai sentence becomes one long token, and a search for
/// one of its words finds nothing. `FTS5WordTokenizer` finds the words of
/// those languages with dictionaries, and splits the rest of the text as
/// `unicode61` does:
///
/// | text | tokens |
/// | --- | --- |
/// | 研究生命科学很有意思 | 研究, 生命, 科学, 很, 有意思 |
/// | 東京都に住んでいます | 東京, 都, に, 住, んで, い, ます |
/// | ภาษาไทยง่ายนิดเดียว | ภาษา, ไทย, ง่าย, นิด, เดียว |
/// | 采购订单自动审批流程ERP审批 | 采购, 订单, 自动, 审批, 流程, erp, 审批 |
/// | Don't stop: Jérôme's café | don, t, stop, jerome, s, cafe |
///
/// Register the tokenizer in each connection, and name it in the table
/// definition:
///
/// ```swift
/// var config = Configuration()
/// config.prepareDatabase { db in
///     db.add(tokenizer: FTS5WordTokenizer.self)
/// }
/// let dbQueue = try DatabaseQueue(path: "/path/to/db.sqlite", configuration: config)
/// try dbQueue.write { db in
///     try db.create(virtualTable: "note", using: FTS5()) { t in
///         t.tokenizer = FTS5WordTokenizer.tokenizerDescriptor()
///         t.column("text")
///     }
///     try db.execute(sql: "INSERT INTO note(text) VALUES (?)", arguments: ["研究生命科学很有意思"])
///     let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note WHERE note MATCH ?",
///                                  arguments: ["科学"]) // 1
/// }
/// ```
///
/// Queries are split the same way, so a query typed without spaces finds
/// the documents that hold its words in this order: `生命科学` is the
/// phrase `生命 科学`.
///
/// How words are found:
///
/// - Words are runs of letters, digits and combining marks (Unicode
///   categories L, N, M and Co, and code points not assigned yet);
///   everything else separates words, as in `unicode61` (whose token
///   characters are L, N and Co: `cairn_words` also keeps the vowel signs
///   of Indic scripts inside their words).
/// - A run that holds a character of a script written without spaces (Han,
///   Hiragana, Katakana, Thai, Lao, Khmer, Myanmar, Tai scripts) is split
///   at its Unicode word boundaries (UAX #29) with the dictionaries of the
///   ICU library that ships with Swift on Linux (`_FoundationICU`), and
///   with the system's word segmentation (`NLTokenizer`) on Apple
///   platforms. Cairn's own tests run on Linux only.
/// - Each word is folded as `unicode61` folds tokens, with the same
///   character tables: lowercase, and diacritics removed according to the
///   `remove_diacritics` option.
///
/// Dictionary segmentation depends on context: in rare cases a word of a
/// query, split on its own, is not split the same way inside a sentence of
/// a document, and the search misses that document.
///
/// Arguments (all optional, given by
/// ``tokenizerDescriptor(diacritics:caseSensitive:locale:)``):
///
/// - `remove_diacritics 0|1|2`: as in `unicode61` (1 by default).
/// - `case_sensitive 0|1`: 1 keeps the case of letters, and requires
///   `remove_diacritics 0` (0 by default).
/// - `locale TAG`: the locale of the word boundaries, such as `ja` or `th`,
///   when the text has none of its own (see
///   <doc:FullTextSearch#Languages-and-locales>).
///
/// Tokens keep the byte offsets of their text, so that `highlight()` and
/// `snippet()` mark the right characters. Invalid UTF-8 never stops the
/// tokenizer: its bytes separate words.
///
/// Related SQLite documentation: <https://www.sqlite.org/fts5.html#custom_tokenizers>
public final class FTS5WordTokenizer: FTS5CustomTokenizer {
    /// `cairn_words`.
    public static let name = "cairn_words"

    /// `remove_diacritics`: 0, 1 or 2.
    private let removeDiacritics: CInt
    private let caseSensitive: Bool
    /// The locale of the `locale` argument; empty for ICU's root locale.
    private let defaultLocale: String
    /// The segmenters of the locales met so far, the default one first.
    private var segmenters: [String: WordSegmenter] = [:]
    /// The buffer of folded tokens, reused by tokenizations that do not
    /// nest (a token callback may tokenize again with the same tokenizer).
    private var foldBuffer: WordFoldBuffer? = WordFoldBuffer()

    /// Creates the tokenizer.
    ///
    /// - Parameters:
    ///   - db: The connection that creates the tokenizer.
    ///   - arguments: `remove_diacritics 0|1|2`, `case_sensitive 0|1`,
    ///     `locale TAG`.
    /// - Throws: A ``DatabaseError`` for an unknown or invalid argument, or
    ///   when the word boundaries of the locale cannot be loaded.
    public init(db: Database, arguments: [String]) throws {
        var removeDiacritics: CInt?
        var caseSensitive = false
        var locale = ""
        var index = 0
        func value(of option: String) throws -> String {
            guard index + 1 < arguments.count else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "\(Self.name): missing value after \(option)")
            }
            index += 1
            return arguments[index]
        }
        while index < arguments.count {
            let option = arguments[index]
            switch option.lowercased() {
            case "remove_diacritics":
                let value = try value(of: option)
                guard let mode = CInt(value), (0...2).contains(mode) else {
                    throw DatabaseError(resultCode: .SQLITE_ERROR, message: "\(Self.name): remove_diacritics must be 0, 1 or 2, not \(value)")
                }
                removeDiacritics = mode
            case "case_sensitive":
                let value = try value(of: option)
                guard value == "0" || value == "1" else {
                    throw DatabaseError(resultCode: .SQLITE_ERROR, message: "\(Self.name): case_sensitive must be 0 or 1, not \(value)")
                }
                caseSensitive = value == "1"
            case "locale":
                locale = try value(of: option)
            default:
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "\(Self.name): unknown option \(option)")
            }
            index += 1
        }
        if caseSensitive && (removeDiacritics ?? 0) != 0 {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "\(Self.name): remove_diacritics requires case_sensitive 0")
        }
        self.removeDiacritics = removeDiacritics ?? (caseSensitive ? 0 : 1)
        self.caseSensitive = caseSensitive
        self.defaultLocale = locale
        segmenters[locale] = try WordSegmenter(locale: locale)
    }

    /// The descriptor of the tokenizer, for table definitions.
    ///
    /// ```swift
    /// try db.create(virtualTable: "note", using: FTS5()) { t in
    ///     t.tokenizer = FTS5WordTokenizer.tokenizerDescriptor()
    ///     t.column("text")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - diacritics: How diacritics are removed, as in `unicode61`; nil
    ///     for the tokenizer's default: removed (`.removeLegacy`) when the
    ///     tokenizer folds case, kept otherwise.
    ///   - caseSensitive: When true, letters keep their case; diacritics
    ///     are then kept too (other values of `diacritics` make an invalid
    ///     descriptor, which the tokenizer refuses).
    ///   - locale: The locale of word boundaries (a BCP 47 or ICU tag such
    ///     as `ja` or `th`) for text that comes without one.
    public static func tokenizerDescriptor(
        diacritics: FTS5.Diacritics? = nil,
        caseSensitive: Bool = false,
        locale: String? = nil) -> FTS5TokenizerDescriptor
    {
        var arguments: [String] = []
        switch diacritics {
        case nil: break
        case .keep?: arguments += ["remove_diacritics", "0"]
        case .removeLegacy?: arguments += ["remove_diacritics", "1"]
        case .remove?: arguments += ["remove_diacritics", "2"]
        }
        if caseSensitive { arguments += ["case_sensitive", "1"] }
        if let locale { arguments += ["locale", locale] }
        return tokenizerDescriptor(arguments: arguments)
    }

    /// Splits a text into words, for the default locale.
    ///
    /// - Parameters:
    ///   - context: An opaque pointer, given to `tokenCallback`.
    ///   - tokenization: Why FTS5 asks for tokens (documents and queries
    ///     are split the same way).
    ///   - pText: The text, UTF-8.
    ///   - nText: The number of bytes of the text.
    ///   - tokenCallback: Called for each word.
    /// - Returns: `SQLITE_OK`, or the first code that is not `SQLITE_OK`
    ///   returned by `tokenCallback`.
    public func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
    {
        tokenize(context: context, tokenization: tokenization, pText: pText, nText: nText, locale: nil, tokenCallback: tokenCallback)
    }

    /// Splits a text into words, with the word boundaries of a locale.
    ///
    /// - Parameters:
    ///   - context: An opaque pointer, given to `tokenCallback`.
    ///   - tokenization: Why FTS5 asks for tokens.
    ///   - pText: The text, UTF-8.
    ///   - nText: The number of bytes of the text.
    ///   - locale: The locale of the text (`fts5_locale()`), or nil for
    ///     the tokenizer's `locale` argument.
    ///   - tokenCallback: Called for each word.
    /// - Returns: `SQLITE_OK`, the first code that is not `SQLITE_OK`
    ///   returned by `tokenCallback`, or `SQLITE_ERROR` when the word
    ///   boundaries of the locale cannot be loaded.
    public func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        locale: String?,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
    {
        guard let pText, nText > 0 else { return SQLITE_OK }
        let segmenter: WordSegmenter
        do {
            segmenter = try self.segmenter(for: locale ?? defaultLocale)
        } catch {
            TokenizerErrorRoute.record(error)
            return SQLITE_ERROR
        }
        // A nested tokenization gets buffers of its own.
        let buffer = foldBuffer ?? WordFoldBuffer()
        foldBuffer = nil
        segmenter.isInUse = true
        defer {
            foldBuffer = buffer
            segmenter.isInUse = false
        }
        var scanner = WordScanner(
            text: UnsafeRawPointer(pText).assumingMemoryBound(to: UInt8.self),
            count: Int(nText),
            removeDiacritics: removeDiacritics,
            caseSensitive: caseSensitive)
        return scanner.run(segmenter: segmenter, buffer: buffer) { token, count, start, end in
            token.withMemoryRebound(to: CChar.self, capacity: count) { token in
                tokenCallback(context, 0, token, CInt(count), CInt(start), CInt(end))
            }
        }
    }

    /// The segmenter of a locale, made at its first use. Sixteen are kept
    /// at most: the locales of values are data, and any number of them
    /// must not grow the memory of the tokenizer. A segmenter in use by an
    /// enclosing tokenization (a token callback that tokenizes again with
    /// this tokenizer) is not shared: ICU's iterator holds the text of its
    /// run, and a nested tokenization gets a segmenter of its own.
    private func segmenter(for locale: String) throws -> WordSegmenter {
        if let segmenter = segmenters[locale] {
            if !segmenter.isInUse { return segmenter }
            return try WordSegmenter(locale: locale)
        }
        let segmenter = try WordSegmenter(locale: locale)
        if segmenters.count < 16 {
            segmenters[locale] = segmenter
        }
        return segmenter
    }
}

// MARK: - Scanning

/// The growable buffer that receives folded tokens.
final class WordFoldBuffer {
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int

    init() {
        capacity = 256
        bytes = .allocate(capacity: capacity)
    }

    deinit {
        bytes.deallocate()
    }

    /// Makes room for `count` bytes, keeping the first `used` bytes.
    @inline(__always)
    func reserve(_ count: Int, keeping used: Int) {
        if count > capacity { grow(to: count, keeping: used) }
    }

    private func grow(to count: Int, keeping used: Int) {
        var newCapacity = capacity
        while newCapacity < count { newCapacity *= 2 }
        let newBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBytes.update(from: bytes, count: used)
        bytes.deallocate()
        bytes = newBytes
        capacity = newCapacity
    }
}

/// The character classes of the word tokenizer.
enum WordCharacterClass {
    /// A character of words (L, N, M, Co, or unassigned as in unicode61).
    static let word: UInt8 = 1
    /// A character of a script written without spaces, whose words are
    /// found with a dictionary.
    static let dictionary: UInt8 = 2
    /// A character that folding may change.
    static let foldable: UInt8 = 4

    /// The classes of the code points of the Basic Multilingual Plane.
    static let basicPlane: [UInt8] = (0..<0x10000).map { classes(of: UInt32($0)) }

    /// The classes of a code point.
    static func classes(of code: UInt32) -> UInt8 {
        if code < 0x80 {
            switch code {
            case 0x30...0x39, 0x61...0x7A: return word
            case 0x41...0x5A: return word | foldable
            default: return 0
            }
        }
        let category = _cairn_fts5_unicode_category(code)
        // 0 unassigned (a token character for unicode61), L* 5-9, M* 10-12,
        // N* 13-15, Co 31.
        guard category == 0 || (5...15).contains(category) || category == 31 else {
            return 0
        }
        var result = word
        if needsDictionary(code) {
            result |= dictionary
        }
        if (0...2).contains(where: { _cairn_fts5_unicode_fold(CInt(code), $0) != CInt(code) }) {
            result |= foldable
        }
        return result
    }

    /// Whether the code point belongs to a script written without spaces
    /// between words.
    static func needsDictionary(_ code: UInt32) -> Bool {
        switch code {
        case 0x0E00...0x0EFF,   // Thai, Lao
             0x1000...0x109F,   // Myanmar
             0x1780...0x17FF,   // Khmer
             0x1950...0x19FF,   // Tai Le, New Tai Lue, Khmer symbols
             0x1A20...0x1AAF,   // Tai Tham
             0x3005...0x3007,   // 々 〆 〇
             0x3021...0x3029,   // Hangzhou numerals
             0x3031...0x3035,   // Kana repeat marks
             0x303B...0x303C,
             0x3040...0x30FF,   // Hiragana, Katakana
             0x31F0...0x31FF,   // Katakana phonetic extensions
             0x3400...0x4DBF,   // CJK extension A
             0x4E00...0x9FFF,   // CJK unified ideographs
             0xA9E0...0xA9FF,   // Myanmar extended-B
             0xAA60...0xAADF,   // Myanmar extended-A, Tai Viet
             0xF900...0xFAFF,   // CJK compatibility ideographs
             0xFF66...0xFF9F,   // Halfwidth Katakana
             0x1B000...0x1B16F, // Kana supplement and extended
             0x20000...0x3FFFF: // CJK extensions B and later
            return true
        default:
            return false
        }
    }

    /// The classes of any code point.
    @inline(__always)
    static func lookup(_ code: UInt32) -> UInt8 {
        code < 0x10000 ? basicPlane[Int(code)] : classes(of: code)
    }
}

/// One pass over a text: finds runs of word characters, splits the runs of
/// scripts without spaces into words, folds each word, and gives it to
/// the token callback.
struct WordScanner {
    let text: UnsafePointer<UInt8>
    let count: Int
    let removeDiacritics: CInt
    let caseSensitive: Bool

    /// Decodes the code point at `offset`. Returns its length in bytes,
    /// and nil as the code point when the bytes are not valid UTF-8 (the
    /// length is then 1: each invalid byte separates words).
    @inline(__always)
    func decode(at offset: Int) -> (code: UInt32?, length: Int) {
        let b0 = UInt32(text[offset])
        if b0 < 0x80 { return (b0, 1) }
        let remaining = count - offset
        func continuation(_ index: Int) -> UInt32? {
            guard index < remaining else { return nil }
            let byte = UInt32(text[offset + index])
            return byte & 0xC0 == 0x80 ? byte & 0x3F : nil
        }
        switch b0 {
        case 0xC2...0xDF:
            guard let b1 = continuation(1) else { return (nil, 1) }
            return ((b0 & 0x1F) << 6 | b1, 2)
        case 0xE0...0xEF:
            guard let b1 = continuation(1), let b2 = continuation(2) else { return (nil, 1) }
            let code = (b0 & 0x0F) << 12 | b1 << 6 | b2
            // Overlong forms and surrogates are invalid.
            guard code >= 0x800, !(0xD800...0xDFFF).contains(code) else { return (nil, 1) }
            return (code, 3)
        case 0xF0...0xF4:
            guard let b1 = continuation(1), let b2 = continuation(2), let b3 = continuation(3) else { return (nil, 1) }
            let code = (b0 & 0x07) << 18 | b1 << 12 | b2 << 6 | b3
            guard (0x10000...0x10FFFF).contains(code) else { return (nil, 1) }
            return (code, 4)
        default:
            return (nil, 1)
        }
    }

    /// Runs the tokenization.
    ///
    /// - Parameter emit: Called with each token's bytes and count, and the
    ///   byte offsets of its text; returns an SQLite code.
    /// - Returns: `SQLITE_OK`, or the first other code of `emit`.
    mutating func run(
        segmenter: WordSegmenter,
        buffer: WordFoldBuffer,
        emit: (UnsafePointer<UInt8>, Int, Int, Int) -> CInt) -> CInt
    {
        var offset = 0
        while offset < count {
            // Skip separators.
            let (code, length) = decode(at: offset)
            guard let code else { offset += length; continue }
            var classes = WordCharacterClass.lookup(code)
            guard classes & WordCharacterClass.word != 0 else { offset += length; continue }
            // A run of word characters.
            let runStart = offset
            var runClasses: UInt8 = 0
            offset += length
            runClasses |= classes
            while offset < count {
                let (code, length) = decode(at: offset)
                guard let code else { break }
                classes = WordCharacterClass.lookup(code)
                guard classes & WordCharacterClass.word != 0 else { break }
                runClasses |= classes
                offset += length
            }
            let needsFolding = runClasses & WordCharacterClass.foldable != 0
                && !(caseSensitive && removeDiacritics == 0)
            if runClasses & WordCharacterClass.dictionary == 0 {
                let code = self.emit(runStart, offset, needsFolding: needsFolding, buffer: buffer, emit: emit)
                if code != SQLITE_OK { return code }
            } else {
                let runEnd = offset
                var start = runStart
                var code = segmenter.forEachBoundary(of: text + runStart, count: runEnd - runStart) { boundary in
                    let end = runStart + boundary
                    guard end > start, end <= runEnd else { return SQLITE_OK }
                    defer { start = end }
                    return self.emit(start, end, needsFolding: needsFolding, buffer: buffer, emit: emit)
                }
                if code == SQLITE_OK && start < runEnd {
                    code = self.emit(start, runEnd, needsFolding: needsFolding, buffer: buffer, emit: emit)
                }
                if code != SQLITE_OK { return code }
            }
        }
        return SQLITE_OK
    }

    /// Folds the word between two byte offsets and gives it to `emit`
    /// (unless folding leaves nothing).
    @inline(__always)
    private func emit(
        _ start: Int, _ end: Int,
        needsFolding: Bool,
        buffer: WordFoldBuffer,
        emit: (UnsafePointer<UInt8>, Int, Int, Int) -> CInt) -> CInt
    {
        guard needsFolding else {
            return emit(text + start, end - start, start, end)
        }
        var used = 0
        var offset = start
        while offset < end {
            let (decoded, length) = decode(at: offset)
            offset += length
            guard var code = decoded else { continue }
            // A code point folds to at most four bytes.
            buffer.reserve(used + 4, keeping: used)
            let output = buffer.bytes
            if code < 0x80 {
                if !caseSensitive && code >= 0x41 && code <= 0x5A { code |= 0x20 }
                output[used] = UInt8(code)
                used += 1
                continue
            }
            if !caseSensitive || removeDiacritics != 0,
               WordCharacterClass.lookup(code) & WordCharacterClass.foldable != 0
            {
                let folded = _cairn_fts5_unicode_fold(CInt(code), removeDiacritics)
                if folded == 0 { continue } // a diacritic that disappears
                code = UInt32(folded)
            }
            used += encodeUTF8(code, into: output + used)
        }
        guard used > 0 else { return SQLITE_OK }
        return emit(UnsafePointer(buffer.bytes), used, start, end)
    }

    /// Writes the UTF-8 of a code point. Returns its length.
    @inline(__always)
    private func encodeUTF8(_ code: UInt32, into output: UnsafeMutablePointer<UInt8>) -> Int {
        switch code {
        case ..<0x80:
            output[0] = UInt8(code)
            return 1
        case ..<0x800:
            output[0] = UInt8(0xC0 | code >> 6)
            output[1] = UInt8(0x80 | code & 0x3F)
            return 2
        case ..<0x10000:
            output[0] = UInt8(0xE0 | code >> 12)
            output[1] = UInt8(0x80 | (code >> 6) & 0x3F)
            output[2] = UInt8(0x80 | code & 0x3F)
            return 3
        default:
            output[0] = UInt8(0xF0 | code >> 18)
            output[1] = UInt8(0x80 | (code >> 12) & 0x3F)
            output[2] = UInt8(0x80 | (code >> 6) & 0x3F)
            output[3] = UInt8(0x80 | code & 0x3F)
            return 4
        }
    }
}
