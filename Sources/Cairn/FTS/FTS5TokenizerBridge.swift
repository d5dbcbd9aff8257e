import Foundation

// The C callbacks of Swift FTS5 tokenizers (`fts5_tokenizer_v2`), which
// `Database.add(tokenizer:)` registers (see FTS5Tokenizer.swift).

/// Creates the Swift tokenizers of one registration. FTS5 owns it, and
/// releases it with `customTokenizerDestroy` when the connection closes.
final class FTS5TokenizerConstructor {
    /// The connection that registered the tokenizer. SQLite destroys the
    /// registration when the connection closes, and only creates
    /// tokenizers during its statements: the connection is alive then.
    /// The reference is weak nevertheless, so that a tokenizer created
    /// through the raw C interface after the connection is gone fails
    /// instead of reading freed memory (creation is rare: the cost of a
    /// weak reference does not matter).
    weak var database: Database?
    let make: (Database, [String]) throws -> any FTS5CustomTokenizer

    init(database: Database, make: @escaping (Database, [String]) throws -> any FTS5CustomTokenizer) {
        self.database = database
        self.make = make
    }
}

/// A Swift tokenizer instance, as FTS5 holds it (`Fts5Tokenizer *`).
private final class FTS5TokenizerInstance {
    let tokenizer: any FTS5CustomTokenizer

    init(tokenizer: any FTS5CustomTokenizer) {
        self.tokenizer = tokenizer
    }
}

// The C functions below never let a Swift error cross the C boundary: an
// error is kept for the statement (or for `makeTokenizer`), and SQLite gets
// an error code.

let customTokenizerCreate: @convention(c) (
    UnsafeMutableRawPointer?,
    UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    CInt,
    UnsafeMutablePointer<OpaquePointer?>?) -> CInt =
{ context, argv, argc, output in
    guard let context, let output else { return SQLITE_ERROR }
    let constructor = Unmanaged<FTS5TokenizerConstructor>.fromOpaque(context).takeUnretainedValue()
    var arguments: [String] = []
    if let argv {
        for index in 0..<Int(argc) {
            arguments.append(argv[index].map { String(cString: $0) } ?? "")
        }
    }
    guard let database = constructor.database else {
        FTS5TokenizerErrors.record(DatabaseError(
            resultCode: .SQLITE_MISUSE, message: "the connection of the tokenizer is closed"))
        return SQLITE_MISUSE
    }
    do {
        let tokenizer = try constructor.make(database, arguments)
        let instance = FTS5TokenizerInstance(tokenizer: tokenizer)
        output.pointee = OpaquePointer(Unmanaged.passRetained(instance).toOpaque())
        return SQLITE_OK
    } catch {
        FTS5TokenizerErrors.record(error)
        return SQLITE_ERROR
    }
}

let customTokenizerDelete: @convention(c) (OpaquePointer?) -> Void = { handle in
    guard let handle else { return }
    Unmanaged<FTS5TokenizerInstance>.fromOpaque(UnsafeRawPointer(handle)).release()
}

let customTokenizerTokenize: @convention(c) (
    OpaquePointer?,
    UnsafeMutableRawPointer?,
    CInt,
    UnsafePointer<CChar>?, CInt,
    UnsafePointer<CChar>?, CInt,
    FTS5TokenCallback?) -> CInt =
{ handle, context, flags, pText, nText, _, _, tokenCallback in
    guard let handle else { return SQLITE_ERROR }
    // FTS5 always gives a callback.
    guard let tokenCallback else { return SQLITE_MISUSE }
    let instance = Unmanaged<FTS5TokenizerInstance>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    let code = instance.tokenizer.tokenize(
        context: context,
        tokenization: FTS5Tokenization(rawValue: flags),
        pText: pText, nText: nText,
        tokenCallback: tokenCallback)
    if code == SQLITE_OK && FTS5TokenizerErrors.hasError {
        // The error stays for the statement that runs the tokenization.
        return SQLITE_ERROR
    }
    return code
}

let customTokenizerDestroy: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
    guard let context else { return }
    Unmanaged<FTS5TokenizerConstructor>.fromOpaque(context).release()
}
