import Foundation
import Testing
import Cairn

// Low-level Swift tokenizers (`FTS5CustomTokenizer`), written against the C
// callback the way GRDB's guides and tests write them: a context struct
// passed by pointer to the wrapped tokenizer, and a closure literal as the
// C token callback.

/// Drops the token "skip" from documents and queries.
private final class SkippingTokenizer: FTS5CustomTokenizer {
    static let name = "grdb_compat_skipping"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(arguments.isEmpty
            ? .unicode61()
            : FTS5TokenizerDescriptor(components: arguments))
    }

    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<Int8>?,
        nText: Int32,
        tokenCallback: @escaping FTS5TokenCallback) -> Int32
    {
        struct Forward {
            let context: UnsafeMutableRawPointer?
            let tokenCallback: FTS5TokenCallback
        }
        var forward = Forward(context: context, tokenCallback: tokenCallback)
        return withUnsafeMutablePointer(to: &forward) { forwardPointer in
            wrappedTokenizer.tokenize(context: forwardPointer, tokenization: tokenization, pText: pText, nText: nText) { pointer, flags, pToken, nToken, iStart, iEnd in
                let forward = pointer!.assumingMemoryBound(to: Forward.self).pointee
                guard let token = pToken.flatMap({
                    String(data: Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: $0), count: Int(nToken), deallocator: .none), encoding: .utf8)
                }) else {
                    return 0 // SQLITE_OK
                }
                if token == "skip" {
                    return 0 // SQLITE_OK
                }
                return forward.tokenCallback(forward.context, flags, pToken, nToken, iStart, iEnd)
            }
        }
    }
}

/// Turns tokens into their NFKC form, so that a ligature matches its
/// letters.
private final class CompatibilityFormTokenizer: FTS5CustomTokenizer {
    static let name = "grdb_compat_nfkc"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(arguments.isEmpty
            ? .unicode61()
            : FTS5TokenizerDescriptor(components: arguments))
    }

    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<Int8>?,
        nText: Int32,
        tokenCallback: @escaping FTS5TokenCallback) -> Int32
    {
        struct Forward {
            let context: UnsafeMutableRawPointer?
            let tokenCallback: FTS5TokenCallback
        }
        var forward = Forward(context: context, tokenCallback: tokenCallback)
        return withUnsafeMutablePointer(to: &forward) { forwardPointer in
            wrappedTokenizer.tokenize(context: forwardPointer, tokenization: tokenization, pText: pText, nText: nText) { pointer, flags, pToken, nToken, iStart, iEnd in
                let forward = pointer!.assumingMemoryBound(to: Forward.self).pointee
                guard let token = pToken.flatMap({
                    String(data: Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: $0), count: Int(nToken), deallocator: .none), encoding: .utf8)
                }) else {
                    return 0 // SQLITE_OK
                }
                let converted = token.precomposedStringWithCompatibilityMapping
                return ContiguousArray(converted.utf8).withUnsafeBufferPointer { buffer in
                    guard let address = buffer.baseAddress else { return 0 }
                    let bytes = UnsafeMutableRawPointer(mutating: address).assumingMemoryBound(to: Int8.self)
                    return forward.tokenCallback(forward.context, flags, bytes, Int32(buffer.count), iStart, iEnd)
                }
            }
        }
    }
}

/// Indexes "one" and "1" as synonyms in documents (not in queries), with
/// the raw `FTS5_TOKEN_COLOCATED` flag.
private final class NumberSynonymTokenizer: FTS5CustomTokenizer {
    static let name = "grdb_compat_number_synonyms"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
    }

    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<Int8>?,
        nText: Int32,
        tokenCallback: @escaping FTS5TokenCallback) -> Int32
    {
        if tokenization.contains(.query) {
            return wrappedTokenizer.tokenize(context: context, tokenization: tokenization, pText: pText, nText: nText, tokenCallback: tokenCallback)
        }
        struct Forward {
            let context: UnsafeMutableRawPointer?
            let tokenCallback: FTS5TokenCallback
        }
        var forward = Forward(context: context, tokenCallback: tokenCallback)
        return withUnsafeMutablePointer(to: &forward) { forwardPointer in
            wrappedTokenizer.tokenize(context: forwardPointer, tokenization: tokenization, pText: pText, nText: nText) { pointer, flags, pToken, nToken, iStart, iEnd in
                let forward = pointer!.assumingMemoryBound(to: Forward.self).pointee
                let token = String(decoding: UnsafeRawBufferPointer(start: pToken, count: Int(nToken)), as: UTF8.self)
                guard token == "one" || token == "1" else {
                    return forward.tokenCallback(forward.context, flags, pToken, nToken, iStart, iEnd)
                }
                for (index, synonym) in ["one", "1"].enumerated() {
                    let code = ContiguousArray(synonym.utf8).withUnsafeBufferPointer { buffer -> Int32 in
                        let bytes = UnsafeMutableRawPointer(mutating: buffer.baseAddress!).assumingMemoryBound(to: Int8.self)
                        let synonymFlags = index == 0 ? flags : flags | 1 // FTS5_TOKEN_COLOCATED
                        return forward.tokenCallback(forward.context, synonymFlags, bytes, Int32(buffer.count), iStart, iEnd)
                    }
                    if code != 0 { return code }
                }
                return 0
            }
        }
    }
}

/// Records the tokenizations it is asked for, and the arguments of its
/// instances; passes the tokens of unicode61 through.
private final class RecordingTokenizer: FTS5CustomTokenizer {
    static let name = "grdb_compat_recording"
    static let tokenizations = Locked<[FTS5Tokenization]>([])
    static let arguments = Locked<[[String]]>([])
    static let liveInstances = Locked<Int>(0)
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
        Self.arguments.withLock { $0.append(arguments) }
        Self.liveInstances.withLock { $0 += 1 }
    }

    deinit {
        Self.liveInstances.withLock { $0 -= 1 }
    }

    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<Int8>?,
        nText: Int32,
        tokenCallback: @escaping FTS5TokenCallback) -> Int32
    {
        Self.tokenizations.withLock { $0.append(tokenization) }
        return wrappedTokenizer.tokenize(context: context, tokenization: tokenization, pText: pText, nText: nText, tokenCallback: tokenCallback)
    }
}

/// Fails with the code of its only argument, without a Swift error.
private final class ErrorCodeTokenizer: FTS5CustomTokenizer {
    static let name = "grdb_compat_error_code"
    let code: Int32

    init(db: Database, arguments: [String]) throws {
        code = arguments.first.flatMap { Int32($0) } ?? SQLITE_ERROR
    }

    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<Int8>?,
        nText: Int32,
        tokenCallback: @escaping FTS5TokenCallback) -> Int32
    {
        code
    }
}

/// Each byte of the text is a token: the bytes of a character beyond
/// ASCII are tokens that are not valid UTF-8.
private final class ByteSplitTokenizer: FTS5CustomTokenizer {
    static let name = "grdb_compat_byte_split"
    init(db: Database, arguments: [String]) throws { }

    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<Int8>?,
        nText: Int32,
        tokenCallback: @escaping FTS5TokenCallback) -> Int32
    {
        guard let pText else { return 0 }
        for offset in 0..<nText {
            let code = tokenCallback(context, 0, pText + Int(offset), 1, offset, offset + 1)
            if code != 0 { return code }
        }
        return 0
    }
}

/// Registers the tokenizers of this file.
private func register(_ db: Database) {
    db.add(tokenizer: SkippingTokenizer.self)
    db.add(tokenizer: CompatibilityFormTokenizer.self)
    db.add(tokenizer: NumberSynonymTokenizer.self)
    db.add(tokenizer: RecordingTokenizer.self)
    db.add(tokenizer: ErrorCodeTokenizer.self)
    db.add(tokenizer: ByteSplitTokenizer.self)
}

/// Low-level Swift tokenizers behave as in GRDB 7.8 (issue 51).
@Suite(.serialized) struct GRDBFTSTokenizerCustomTests {
    func count(_ db: Database, _ table: String, _ query: String) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE \(table) MATCH ?", arguments: [query])!
    }

    func createNotes(_ db: Database, tokenizer: FTS5TokenizerDescriptor) throws {
        try db.create(virtualTable: "note", using: FTS5()) { t in
            t.tokenizer = tokenizer
            t.column("body")
        }
    }

    @Test(arguments: WriterKind.allCases)
    func skippedTokensInPrepareDatabase(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        var config = Configuration()
        config.prepareDatabase { db in register(db) }
        let writer = try kind.make(path: directory.filePath(), configuration: config)
        try writer.write { db throws in
            try createNotes(db, tokenizer: SkippingTokenizer.tokenizerDescriptor())
            try db.execute(sql: "INSERT INTO note VALUES (?)", arguments: ["keep skip"])
            try db.execute(sql: "INSERT INTO note VALUES (?)", arguments: ["keep this"])
            #expect(try count(db, "note", "keep") == 2)
            #expect(try count(db, "note", "skip") == 0)
            // The query drops the skipped token too: the phrase is "keep this".
            #expect(try count(db, "note", "\"keep skip this\"") == 1)
        }
        try writer.read { db throws in
            #expect(try count(db, "note", "keep") == 2)
            #expect(try count(db, "note", "skip") == 0)
            #expect(try count(db, "note", "\"keep skip this\"") == 1)
        }
    }

    @Test func skippedTokensRegisteredOnTheQueue() throws {
        let dbQueue = try DatabaseQueue()
        dbQueue.add(tokenizer: SkippingTokenizer.self)
        try dbQueue.inDatabase { db throws in
            try createNotes(db, tokenizer: SkippingTokenizer.tokenizerDescriptor())
            try db.execute(sql: "INSERT INTO note VALUES (?)", arguments: ["keep skip"])
            #expect(try count(db, "note", "keep") == 1)
            #expect(try count(db, "note", "skip") == 0)
        }
    }

    @Test func skippedTokensRegisteredOnThePool() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.filePath())
        dbPool.add(tokenizer: SkippingTokenizer.self)
        try dbPool.write { db throws in
            try createNotes(db, tokenizer: SkippingTokenizer.tokenizerDescriptor())
            try db.execute(sql: "INSERT INTO note VALUES (?)", arguments: ["keep skip"])
        }
        try dbPool.read { db throws in
            #expect(try count(db, "note", "keep") == 1)
            #expect(try count(db, "note", "skip") == 0)
        }
    }

    @Test func compatibilityForms() throws {
        var config = Configuration()
        config.prepareDatabase { db in register(db) }
        let dbQueue = try DatabaseQueue(configuration: config)
        let text = "sel\u{FB01}e" // U+FB01: LATIN SMALL LIGATURE FI

        // unicode61 alone keeps the ligature.
        try dbQueue.inDatabase { db throws in
            try createNotes(db, tokenizer: .unicode61())
            try db.execute(sql: "INSERT INTO note VALUES (?)", arguments: [text])
            #expect(try count(db, "note", text) == 1)
            #expect(try count(db, "note", "selfie") == 0)
            try db.drop(table: "note")
        }
        // The compatibility form, over unicode61.
        try dbQueue.inDatabase { db throws in
            try createNotes(db, tokenizer: CompatibilityFormTokenizer.tokenizerDescriptor())
            try db.execute(sql: "INSERT INTO note VALUES (?)", arguments: [text])
            #expect(try count(db, "note", text) == 1)
            #expect(try count(db, "note", "selfie") == 1)
            #expect(try count(db, "note", "SELFIE") == 1)
            try db.drop(table: "note")
        }
        // The compatibility form, over ascii, which keeps case beyond ASCII
        // and diacritics.
        try dbQueue.inDatabase { db throws in
            let ascii = FTS5TokenizerDescriptor.ascii()
            try createNotes(db, tokenizer: CompatibilityFormTokenizer.tokenizerDescriptor(arguments: ascii.components))
            try db.execute(sql: "INSERT INTO note VALUES (?)", arguments: ["\u{FB01}nal café"])
            #expect(try count(db, "note", "final") == 1)
            #expect(try count(db, "note", "cafe") == 0)
            // A decomposed é becomes the composed one.
            #expect(try count(db, "note", "cafe\u{0301}") == 1)
        }
    }

    @Test func rawColocatedFlags() throws {
        var config = Configuration()
        config.prepareDatabase { db in register(db) }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.inDatabase { db throws in
            try createNotes(db, tokenizer: NumberSynonymTokenizer.tokenizerDescriptor())
            try db.execute(sql: "INSERT INTO note VALUES (?)", arguments: ["one apple"])
            try db.execute(sql: "INSERT INTO note VALUES (?)", arguments: ["1 pear"])
            #expect(try count(db, "note", "one") == 2)
            #expect(try count(db, "note", "1") == 2)
            #expect(try count(db, "note", "\"one apple\"") == 1)
            #expect(try count(db, "note", "\"1 apple\"") == 1)
            #expect(try count(db, "note", "\"one pear\"") == 1)
            #expect(try count(db, "note", "\"1 pear\"") == 1)
            #expect(try count(db, "note", "on*") == 2)

            let tokenizer = try db.makeTokenizer(NumberSynonymTokenizer.tokenizerDescriptor())
            let tokens = try tokenizer.tokenize(document: "one apple")
            #expect(tokens.map(\.token) == ["one", "1", "apple"])
            #expect(tokens.map(\.flags) == [[], .colocated, []])
            #expect(FTS5TokenFlags.colocated.rawValue == 1)
            // No synonyms in queries.
            #expect(try tokenizer.tokenize(query: "one apple").map(\.token) == ["one", "apple"])
        }
    }

    @Test func tokenizationsThatFTS5AsksFor() throws {
        var config = Configuration()
        config.prepareDatabase { db in register(db) }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.inDatabase { db throws in
            try createNotes(db, tokenizer: RecordingTokenizer.tokenizerDescriptor())
            RecordingTokenizer.tokenizations.withLock { $0.removeAll() }
            try db.execute(sql: "INSERT INTO note VALUES (?)", arguments: ["alpha beta"])
            #expect(RecordingTokenizer.tokenizations.withLock { $0 } == [.document])

            RecordingTokenizer.tokenizations.withLock { $0.removeAll() }
            #expect(try count(db, "note", "alpha") == 1)
            #expect(RecordingTokenizer.tokenizations.withLock { $0 } == [.query])

            RecordingTokenizer.tokenizations.withLock { $0.removeAll() }
            #expect(try count(db, "note", "alp*") == 1)
            #expect(RecordingTokenizer.tokenizations.withLock { $0 } == [[.query, .prefix]])

            RecordingTokenizer.tokenizations.withLock { $0.removeAll() }
            let highlighted = try String.fetchOne(db, sql: "SELECT highlight(note, 0, '<', '>') FROM note WHERE note MATCH 'beta'")
            #expect(highlighted == "alpha <beta>")
            #expect(RecordingTokenizer.tokenizations.withLock { $0 } == [.query, .aux])

            // The raw values are FTS5's.
            #expect(FTS5Tokenization.query.rawValue == 0x0001)
            #expect(FTS5Tokenization.prefix.rawValue == 0x0002)
            #expect(FTS5Tokenization.document.rawValue == 0x0004)
            #expect(FTS5Tokenization.aux.rawValue == 0x0008)
        }
    }

    @Test func argumentsOfTheDescriptor() throws {
        var config = Configuration()
        config.prepareDatabase { db in register(db) }
        let dbQueue = try DatabaseQueue(configuration: config)
        RecordingTokenizer.arguments.withLock { $0.removeAll() }
        try dbQueue.inDatabase { db throws in
            let descriptor = RecordingTokenizer.tokenizerDescriptor(arguments: ["porter", "ascii"])
            #expect(descriptor.components == ["grdb_compat_recording", "porter", "ascii"])
            _ = try db.makeTokenizer(descriptor)
            _ = try db.makeTokenizer(RecordingTokenizer.tokenizerDescriptor())
            try createNotes(db, tokenizer: RecordingTokenizer.tokenizerDescriptor(arguments: ["with space", "it's"]))
        }
        let arguments = RecordingTokenizer.arguments.withLock { $0 }
        #expect(arguments.prefix(3) == [["porter", "ascii"], [], ["with space", "it's"]])
    }

    @Test func tokenizersAreReleased() throws {
        var config = Configuration()
        config.prepareDatabase { db in register(db) }
        let before = RecordingTokenizer.liveInstances.withLock { $0 }
        do {
            let dbQueue = try DatabaseQueue(configuration: config)
            try dbQueue.inDatabase { db throws in
                do {
                    let tokenizer = try db.makeTokenizer(RecordingTokenizer.tokenizerDescriptor())
                    #expect(RecordingTokenizer.liveInstances.withLock { $0 } == before + 1)
                    _ = try tokenizer.tokenize(document: "x")
                }
                // Released with the tokenizer that makeTokenizer returned.
                #expect(RecordingTokenizer.liveInstances.withLock { $0 } == before)
                try createNotes(db, tokenizer: RecordingTokenizer.tokenizerDescriptor())
                try db.execute(sql: "INSERT INTO note VALUES ('x')")
                #expect(RecordingTokenizer.liveInstances.withLock { $0 } > before)
            }
            try dbQueue.close()
        }
        // Released when the connection closes.
        #expect(RecordingTokenizer.liveInstances.withLock { $0 } == before)
    }

    /// A tokenizer that returns an error code, without Swift error, makes
    /// `tokenize` throw a ``DatabaseError`` with that code, and SQLite's
    /// message for it, as GRDB's `DatabaseError(resultCode:)`.
    @Test func errorCodesOfTokenizers() throws {
        var config = Configuration()
        config.prepareDatabase { db in register(db) }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.inDatabase { db throws in
            let tokenizer = try db.makeTokenizer(ErrorCodeTokenizer.tokenizerDescriptor(arguments: ["\(SQLITE_CONSTRAINT)"]))
            do {
                _ = try tokenizer.tokenize(document: "anything")
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_CONSTRAINT)
                #expect(error.message == "constraint failed")
                #expect(error.sql == nil)
                #expect(error.description == "SQLite error 19: constraint failed")
            }
            let failing = try db.makeTokenizer(ErrorCodeTokenizer.tokenizerDescriptor())
            do {
                _ = try failing.tokenize(query: "anything")
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_ERROR)
                #expect(error.message == "SQL logic error")
            }
            // In a statement, the error is SQLite's.
            try createNotes(db, tokenizer: ErrorCodeTokenizer.tokenizerDescriptor(arguments: ["\(SQLITE_CONSTRAINT)"]))
            do {
                try db.execute(sql: "INSERT INTO note VALUES ('x')")
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_CONSTRAINT)
                #expect(error.sql == "INSERT INTO note VALUES ('x')")
            }
            try db.drop(table: "note")
            try createNotes(db, tokenizer: ErrorCodeTokenizer.tokenizerDescriptor())
            do {
                try db.execute(sql: "INSERT INTO note VALUES ('x')")
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_ERROR)
                #expect(error.message == "SQL logic error")
            }
        }
    }

    /// `tokenize(query:)` and `tokenize(document:)` leave out the tokens
    /// that are not valid UTF-8, as GRDB does.
    @Test func tokensThatAreNotUTF8() throws {
        var config = Configuration()
        config.prepareDatabase { db in register(db) }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.inDatabase { db throws in
            let tokenizer = try db.makeTokenizer(ByteSplitTokenizer.tokenizerDescriptor())
            #expect(try tokenizer.tokenize(document: "aéb").map(\.token) == ["a", "b"])
            #expect(try tokenizer.tokenize(query: "é").isEmpty)
            // Cairn's tokens(in:) keeps every token, with its offsets.
            #expect(try tokenizer.tokens(in: "aéb").map(\.utf8Range) == [0..<1, 1..<2, 2..<3, 3..<4])
        }
    }
}
