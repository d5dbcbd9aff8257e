import Foundation
import Testing
import Cairn

/// A tokenizer written for GRDB's requirement: a non-optional token
/// callback. Each letter of the text is a token.
private final class LetterTokenizer: FTS5CustomTokenizer {
    static let name = "letters"
    init(db: Database, arguments: [String]) throws { }

    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
    {
        guard let pText else { return SQLITE_OK }
        for offset in 0..<nText where isalpha(CInt(UInt8(bitPattern: pText[Int(offset)]))) != 0 {
            let code = tokenCallback(context, 0, pText + Int(offset), 1, offset, offset + 1)
            if code != SQLITE_OK { return code }
        }
        return SQLITE_OK
    }
}

/// A tokenizer written for GRDB's requirement that wraps another one and
/// calls it with a closure, as GRDB's guides show.
private final class UppercaseLetterTokenizer: FTS5CustomTokenizer {
    static let name = "upper_letters"
    let wrapped: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrapped = try db.makeTokenizer(LetterTokenizer.tokenizerDescriptor())
    }

    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
    {
        struct Context {
            let context: UnsafeMutableRawPointer?
            let tokenCallback: FTS5TokenCallback
        }
        var outer = Context(context: context, tokenCallback: tokenCallback)
        return withUnsafeMutablePointer(to: &outer) { outerPointer in
            wrapped.tokenize(context: outerPointer, tokenization: tokenization, pText: pText, nText: nText) { pointer, flags, pToken, nToken, iStart, iEnd in
                guard let pointer, let pToken else { return SQLITE_ERROR }
                let outer = pointer.assumingMemoryBound(to: Context.self).pointee
                var upper = CChar(bitPattern: UInt8(toupper(CInt(UInt8(bitPattern: pToken.pointee)))))
                return outer.tokenCallback(outer.context, flags, &upper, nToken, iStart, iEnd)
            }
        }
    }
}

/// A tokenizer written for Cairn's former requirement: an optional token
/// callback. It keeps working, whatever variant its callers use.
private final class OptionalCallbackTokenizer: FTS5CustomTokenizer {
    static let name = "optional_callback"
    init(db: Database, arguments: [String]) throws { }

    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: FTS5TokenCallback?) -> CInt
    {
        guard let pText, let tokenCallback, nText > 0 else { return SQLITE_OK }
        return tokenCallback(context, 0, pText, nText, 0, nText) // the whole text
    }
}

/// A tokenizer that implements neither variant: an error, not an endless
/// recursion.
private final class NoTokenizeTokenizer: FTS5CustomTokenizer {
    static let name = "no_tokenize"
    init(db: Database, arguments: [String]) throws { }
}

/// Tokenizers written for GRDB's `FTS5Tokenizer` requirements, and for
/// Cairn's former one.
@Suite struct FTS5TokenizerRequirementsTests {
    func makeQueue() throws -> DatabaseQueue {
        var config = Configuration()
        config.prepareDatabase { db throws in
            db.add(tokenizer: LetterTokenizer.self)
            db.add(tokenizer: UppercaseLetterTokenizer.self)
            db.add(tokenizer: OptionalCallbackTokenizer.self)
            db.add(tokenizer: NoTokenizeTokenizer.self)
        }
        return try DatabaseQueue(configuration: config)
    }

    @Test func tokenizersWithANonOptionalCallback() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            let letters = try db.makeTokenizer(LetterTokenizer.tokenizerDescriptor())
            #expect(try letters.tokenize(document: "a1b").map(\.token) == ["a", "b"])
            let upper = try db.makeTokenizer(UppercaseLetterTokenizer.tokenizerDescriptor())
            #expect(try upper.tokenize(query: "x-y").map(\.token) == ["X", "Y"])
            try db.create(virtualTable: "document", using: FTS5()) { t in
                t.tokenizer = LetterTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO document VALUES ('abc'), ('xyz')")
            #expect(try String.fetchAll(db, sql: "SELECT content FROM document WHERE document MATCH 'b'") == ["abc"])
            let pattern = try #require(FTS5Pattern(matchingAllTokensIn: "y"))
            #expect(try String.fetchAll(db, Table("document").select(Column("content")).filter(Column("document").match(pattern))) == ["xyz"])
        }
    }

    @Test func tokenizersWithAnOptionalCallback() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            let tokenizer = try db.makeTokenizer(OptionalCallbackTokenizer.tokenizerDescriptor())
            #expect(try tokenizer.tokenize(document: "whole text").map(\.token) == ["whole text"])
            try db.create(virtualTable: "phrase", using: FTS5()) { t in
                t.tokenizer = OptionalCallbackTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO phrase VALUES ('hello world')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM phrase WHERE phrase MATCH '\"hello world\"'") == 1)
        }
    }

    @Test func tokenizersWithoutTokenizeThrow() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            let tokenizer = try db.makeTokenizer(NoTokenizeTokenizer.tokenizerDescriptor())
            #expect(throws: DatabaseError.self) { try tokenizer.tokenize(document: "text") }
            try db.create(virtualTable: "broken", using: FTS5()) { t in
                t.tokenizer = NoTokenizeTokenizer.tokenizerDescriptor()
                t.column("content")
            }
        }
        do {
            try dbQueue.write { db throws in
                try db.execute(sql: "INSERT INTO broken VALUES ('text')")
            }
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.message?.contains("must implement tokenize") == true)
        }
        // The connection stays usable, and nothing was written.
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM broken") == 0)
        }
    }

    @Test func fts5API() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws in
            let api = FTS5.api(db)
            #expect(api.pointee.iVersion >= 3)
            #expect(api.pointee.xCreateTokenizer_v2 != nil)
        }
    }

    @Test func matchingColumnsWithFTS3Patterns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(virtualTable: "book", using: FTS4()) { t in
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO book VALUES ('SQLite database'), ('Swift language')")
            let pattern = FTS3Pattern(matchingAllTokensIn: "database")
            let request = Table("book").select(Column("content")).filter(Column("content").match(pattern))
            #expect(try String.fetchAll(db, request) == ["SQLite database"])
            let none: FTS3Pattern? = nil
            #expect(try String.fetchAll(db, Table("book").select(Column("content")).filter(Column("content").match(none))) == [])
        }
    }
}
