import Cairn

let dbQueue = try DatabaseQueue()
let options = try dbQueue.read { db in
    try String.fetchAll(db, sql: "PRAGMA compile_options")
}
print("session: \(options.contains("ENABLE_SESSION")) fts5: \(options.contains("ENABLE_FTS5"))")

// A wrapper tokenizer of the consumer's module, on the byte-level path
// (Cairn's inlinable code specializes here), over the word tokenizer (ICU,
// linked through Cairn).
final class UppercaseRejectingTokenizer: FTS5WrapperTokenizer {
    static let name = "consumer_wrapper"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(FTS5WordTokenizer.tokenizerDescriptor(caseSensitive: true))
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        if token.lowercased() == token { try tokenCallback(token, flags) }
    }

    func accept(
        utf8Token token: UnsafeRawBufferPointer,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        locale: String?,
        tokenCallback: FTS5WrapperUTF8TokenCallback) throws
    {
        if !token.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) { try tokenCallback(token, flags) }
    }
}

let words = try dbQueue.write { db in
    db.add(tokenizer: FTS5WordTokenizer.self)
    db.add(tokenizer: UppercaseRejectingTokenizer.self)
    try db.create(virtualTable: "doc", using: FTS5()) { t in
        t.tokenizer = UppercaseRejectingTokenizer.tokenizerDescriptor()
        t.column("body")
    }
    try db.execute(sql: "INSERT INTO doc VALUES ('研究生命科学 SKIP keep')")
    let tokens = try db.makeTokenizer(UppercaseRejectingTokenizer.tokenizerDescriptor()).tokens(in: "研究生命科学 SKIP keep")
    let found = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH '科学'") ?? 0
    return tokens.map(\.token).joined(separator: ",") + " found: \(found)"
}
print("words: \(words)")
