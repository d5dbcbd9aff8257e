#if canImport(_FoundationICU)
import BenchmarkSupport
import Cairn
import _FoundationICU

// The raw C side of workload 21: an FTS5 tokenizer written directly
// against the C interfaces of FTS5 and ICU (no Swift abstraction), which
// gives FTS5 the words that ICU's word break iterator finds: the segments
// whose rule status is not UBRK_WORD_NONE, with their bytes as they are.

/// The state of one tokenizer instance, allocated by xCreate.
struct RawICUTokenizer {
    var iterator: OpaquePointer
    var text: UnsafeMutablePointer<UText>?
}

private let rawICUCreate: @convention(c) (
    UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafePointer<CChar>?>?, CInt,
    UnsafeMutablePointer<OpaquePointer?>?) -> CInt =
{ _, _, _, output in
    var status = U_ZERO_ERROR
    guard let iterator = swift_ubrk_open(UBRK_WORD, "", nil, 0, &status), status.rawValue <= 0 else {
        return SQLITE_ERROR
    }
    let instance = UnsafeMutablePointer<RawICUTokenizer>.allocate(capacity: 1)
    instance.initialize(to: RawICUTokenizer(iterator: iterator, text: nil))
    output?.pointee = OpaquePointer(instance)
    return SQLITE_OK
}

private let rawICUDelete: @convention(c) (OpaquePointer?) -> Void = { handle in
    guard let handle else { return }
    let instance = UnsafeMutablePointer<RawICUTokenizer>(handle)
    swift_ubrk_close(instance.pointee.iterator)
    if let text = instance.pointee.text { swift_utext_close(text) }
    instance.deinitialize(count: 1)
    instance.deallocate()
}

private let rawICUTokenize: @convention(c) (
    OpaquePointer?, UnsafeMutableRawPointer?, CInt,
    UnsafePointer<CChar>?, CInt, UnsafePointer<CChar>?, CInt,
    (@convention(c) (UnsafeMutableRawPointer?, CInt, UnsafePointer<CChar>?, CInt, CInt, CInt) -> CInt)?) -> CInt =
{ handle, context, _, pText, nText, _, _, xToken in
    guard let handle, let pText, let xToken, nText > 0 else { return SQLITE_OK }
    let instance = UnsafeMutablePointer<RawICUTokenizer>(handle)
    var status = U_ZERO_ERROR
    instance.pointee.text = swift_utext_openUTF8(instance.pointee.text, pText, Int64(nText), &status)
    swift_ubrk_setUText(instance.pointee.iterator, instance.pointee.text, &status)
    guard status.rawValue <= 0 else { return SQLITE_ERROR }
    var start = swift_ubrk_first(instance.pointee.iterator)
    var end = swift_ubrk_next(instance.pointee.iterator)
    while end != UBRK_DONE {
        if swift_ubrk_getRuleStatus(instance.pointee.iterator) >= 100 {  // UBRK_WORD_NONE_LIMIT
            let code = xToken(context, 0, pText + Int(start), end - start, start, end)
            if code != SQLITE_OK { return code }
        }
        start = end
        end = swift_ubrk_next(instance.pointee.iterator)
    }
    return SQLITE_OK
}

/// Registers the tokenizer `raw_icu` in a raw connection.
func rawRegisterICUTokenizer(_ db: OpaquePointer) throws {
    // The fts5_api pointer, as SQLite's documentation gets it.
    var api: UnsafeMutablePointer<fts5_api>?
    let statement = try rawPrepare(db, "SELECT fts5(?1)")
    defer { sqlite3_finalize(statement) }
    withUnsafeMutablePointer(to: &api) { pointer in
        _ = sqlite3_bind_pointer(statement, 1, pointer, "fts5_api_ptr", nil)
        _ = sqlite3_step(statement)
    }
    guard let api else { throw BenchmarkError("no fts5_api") }
    var module = fts5_tokenizer_v2(iVersion: 2, xCreate: rawICUCreate, xDelete: rawICUDelete, xTokenize: rawICUTokenize)
    guard api.pointee.xCreateTokenizer_v2(api, "raw_icu", nil, &module, nil) == SQLITE_OK else {
        throw BenchmarkError("could not register raw_icu")
    }
}
#endif
