// The word boundaries of the scripts written without spaces, for
// FTS5WordTokenizer: the system's `NLTokenizer` on Apple platforms, ICU's
// dictionaries where Swift's Foundation ships ICU (`_FoundationICU`: Linux,
// and the other platforms of swift-foundation), and one word per character
// elsewhere.

#if canImport(NaturalLanguage)
internal import NaturalLanguage

/// Finds the word boundaries of runs of text with the system's word
/// tokenizer, which has the dictionaries of Chinese, Japanese and Thai
/// (among others). Not tested by Cairn's test suite, which runs on Linux.
final class WordSegmenter {
    private let tokenizer: NLTokenizer
    /// Whether a tokenization uses the segmenter (see FTS5WordTokenizer).
    var isInUse = false

    /// Creates the tokenizer of a locale ("" for the system's guess).
    init(locale: String) throws {
        tokenizer = NLTokenizer(unit: .word)
        if !locale.isEmpty {
            tokenizer.setLanguage(NLLanguage(rawValue: locale))
        }
    }

    /// Calls `body` with the offset of each word boundary of a run of
    /// valid UTF-8 after its start, in order, the last one being `count`,
    /// until `body` returns a code that is not `SQLITE_OK`, which it
    /// returns.
    func forEachBoundary(of bytes: UnsafePointer<UInt8>, count: Int, _ body: (Int) -> CInt) -> CInt {
        let string = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        tokenizer.string = string
        var boundaries: [Int] = []
        tokenizer.enumerateTokens(in: string.startIndex..<string.endIndex) { range, _ in
            boundaries.append(string.utf8.distance(from: string.startIndex, to: range.lowerBound))
            boundaries.append(string.utf8.distance(from: string.startIndex, to: range.upperBound))
            return true
        }
        // Token ranges, in order: their starts and ends are boundaries.
        boundaries.append(count)
        for boundary in boundaries {
            let code = body(boundary)
            if code != SQLITE_OK { return code }
        }
        return SQLITE_OK
    }
}

#elseif canImport(_FoundationICU)
internal import _FoundationICU

/// Finds the word boundaries of runs of text with one ICU word break
/// iterator (`UBRK_WORD`), which applies the rules of UAX #29 and the
/// dictionaries of Chinese, Japanese, Thai, Lao, Khmer and Burmese.
///
/// A segmenter is used by one tokenizer, on the thread of its connection.
final class WordSegmenter {
    private let iterator: OpaquePointer
    /// Whether a tokenization uses the segmenter (see FTS5WordTokenizer).
    var isInUse = false
    /// The UTF-8 text of the iterator, reused from run to run.
    private var text: UnsafeMutablePointer<UText>?

    /// Opens the iterator of a locale ("" for ICU's root locale).
    ///
    /// - Throws: A ``DatabaseError`` when ICU cannot open it.
    init(locale: String) throws {
        var status = U_ZERO_ERROR
        let iterator = swift_ubrk_open(UBRK_WORD, locale, nil, 0, &status)
        guard let iterator, status.rawValue <= U_ZERO_ERROR.rawValue else {
            if let iterator { swift_ubrk_close(iterator) }
            throw DatabaseError(
                resultCode: .SQLITE_ERROR,
                message: "cannot open the word boundaries of locale '\(locale)' (ICU error \(status.rawValue))")
        }
        self.iterator = iterator
    }

    deinit {
        swift_ubrk_close(iterator)
        if let text { swift_utext_close(text) }
    }

    /// Calls `body` with the offset of each word boundary of a run of
    /// valid UTF-8 after its start, in order, the last one being `count`,
    /// until `body` returns a code that is not `SQLITE_OK`, which it
    /// returns.
    func forEachBoundary(of bytes: UnsafePointer<UInt8>, count: Int, _ body: (Int) -> CInt) -> CInt {
        var status = U_ZERO_ERROR
        // Native indexes of a UTF-8 text are byte offsets.
        text = swift_utext_openUTF8(
            text,
            UnsafeRawPointer(bytes).assumingMemoryBound(to: CChar.self),
            Int64(count),
            &status)
        if let text, status.rawValue <= U_ZERO_ERROR.rawValue {
            swift_ubrk_setUText(iterator, text, &status)
        }
        guard status.rawValue <= U_ZERO_ERROR.rawValue else {
            // The run stays one word.
            return body(count)
        }
        var boundary = swift_ubrk_next(iterator)
        while boundary != UBRK_DONE {
            let code = body(Int(boundary))
            if code != SQLITE_OK { return code }
            boundary = swift_ubrk_next(iterator)
        }
        return SQLITE_OK
    }
}

#else

/// Without ICU nor a system word tokenizer: each character of a script
/// written without spaces is a word.
final class WordSegmenter {
    /// Whether a tokenization uses the segmenter (see FTS5WordTokenizer).
    var isInUse = false

    init(locale: String) throws { }

    func forEachBoundary(of bytes: UnsafePointer<UInt8>, count: Int, _ body: (Int) -> CInt) -> CInt {
        for offset in 1..<max(count, 1) where bytes[offset] & 0xC0 != 0x80 {
            let code = body(offset)
            if code != SQLITE_OK { return code }
        }
        return body(count)
    }
}

#endif
