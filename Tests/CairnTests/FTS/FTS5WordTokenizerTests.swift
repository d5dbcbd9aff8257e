import Foundation
import Testing
import Cairn

/// The word tokenizer: segmentation in every script, folding, offsets,
/// composition with the ready-made wrappers, queries, bad input.
@Suite struct FTS5WordTokenizerTests {
    func makeQueue(_ directory: TemporaryDirectory) throws -> DatabaseQueue {
        var config = Configuration()
        config.prepareDatabase { db throws in
            db.add(tokenizer: FTS5WordTokenizer.self)
            db.add(tokenizer: FTS5LatinASCIITokenizer.self)
            db.add(tokenizer: FTS5SynonymTokenizer.self)
            db.add(tokenizer: FTS5StopWordTokenizer.self)
        }
        return try DatabaseQueue(path: directory.filePath(), configuration: config)
    }

    func words(_ db: Database, _ text: String, _ descriptor: FTS5TokenizerDescriptor = FTS5WordTokenizer.tokenizerDescriptor()) throws -> [String] {
        try db.makeTokenizer(descriptor).tokens(in: text).map(\.token)
    }

    @Test(arguments: [
        ("研究生命科学很有意思", ["研究", "生命", "科学", "很", "有意思"]),
        ("采购订单自动审批流程ERP审批", ["采购", "订单", "自动", "审批", "流程", "erp", "审批"]),
        ("東京都に住んでいます", ["東京", "都", "に", "住", "んで", "い", "ます"]),
        ("私は学生です。", ["私", "は", "学生", "です"]),
        ("ภาษาไทยง่ายนิดเดียว", ["ภาษา", "ไทย", "ง่าย", "นิด", "เดียว"]),
        ("ຂ້ອຍຮັກເຈົ້າ", ["ຂ້ອຍ", "ຮັກ", "ເຈົ້າ"]),
        ("ខ្ញុំចង់រៀន", ["ខ្ញុំ", "ចង់", "រៀន"]),
        ("ကျွန်တော်မြန်မာ", ["ကျွန်တော်", "မြန်မာ"]),
        ("한국어 문장입니다", ["한국어", "문장입니다"]),
        ("Don't stop: Jérôme's CAFÉ, 3.14!", ["don", "t", "stop", "jerome", "s", "cafe", "3", "14"]),
        ("नमस्ते दुनिया", ["नमस्ते", "दुनिया"]),
        ("", []),
        (" 。、!? ", []),
    ])
    func segmentation(text: String, expected: [String]) throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try makeQueue(directory)
        try dbQueue.read { db throws in
            #expect(try words(db, text) == expected)
            // Queries are split the same way.
            let queryTokens = try db.makeTokenizer(FTS5WordTokenizer.tokenizerDescriptor())
                .tokens(in: text, for: .query).map(\.token)
            #expect(queryTokens == expected)
        }
    }

    @Test func latinTextGivesTheTokensOfUnicode61() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try makeQueue(directory)
        let texts = [
            "The Quick brown fox, jumps over the lazy dog!",
            "Ünïcödé façade: naïve coöperation; résumé — élan vital",
            "ŁÓDŹ Straße İstanbul ΑΘΗΝΑ Москва",
            "don't-stop_now 1,000.50 e-mail user@example.com",
        ]
        try dbQueue.read { db throws in
            for diacritics in [FTS5.Diacritics.keep, .removeLegacy, .remove] {
                let unicode61 = try db.makeTokenizer(.unicode61(diacritics: diacritics))
                let words = try db.makeTokenizer(FTS5WordTokenizer.tokenizerDescriptor(diacritics: diacritics))
                for text in texts {
                    #expect(try words.tokens(in: text) == unicode61.tokens(in: text), "\(diacritics) \(text)")
                }
            }
        }
    }

    @Test func options() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try makeQueue(directory)
        try dbQueue.read { db throws in
            // remove_diacritics 2 removes diacritics of decomposed letters too
            let decomposed = "e\u{301}cole A\u{30A}se"
            #expect(try words(db, decomposed, FTS5WordTokenizer.tokenizerDescriptor(diacritics: .keep))
                == ["e\u{301}cole", "a\u{30A}se"])
            #expect(try words(db, decomposed, FTS5WordTokenizer.tokenizerDescriptor(diacritics: .remove))
                == ["ecole", "ase"])
            #expect(try words(db, "Ǖber Jérôme", FTS5WordTokenizer.tokenizerDescriptor(diacritics: .removeLegacy))
                == ["ǖber", "jerome"])
            #expect(try words(db, "Ǖber Jérôme", FTS5WordTokenizer.tokenizerDescriptor(diacritics: .remove))
                == ["uber", "jerome"])
            #expect(try words(db, "Jérôme ERP审批", FTS5WordTokenizer.tokenizerDescriptor(diacritics: .keep, caseSensitive: true))
                == ["Jérôme", "ERP", "审批"])
            #expect(FTS5WordTokenizer.tokenizerDescriptor().components == ["cairn_words"])
            #expect(FTS5WordTokenizer.tokenizerDescriptor(caseSensitive: true).components == ["cairn_words", "case_sensitive", "1"])
            #expect(try words(db, "Jérôme ÉCOLE", FTS5WordTokenizer.tokenizerDescriptor(caseSensitive: true)) == ["Jérôme", "ÉCOLE"])
            #expect(throws: DatabaseError.self) {
                try db.makeTokenizer(FTS5WordTokenizer.tokenizerDescriptor(diacritics: .removeLegacy, caseSensitive: true))
            }
            #expect(FTS5WordTokenizer.tokenizerDescriptor(diacritics: .remove, locale: "ja").components
                == ["cairn_words", "remove_diacritics", "2", "locale", "ja"])
            #expect(try words(db, "東京都に住んでいます", FTS5WordTokenizer.tokenizerDescriptor(locale: "ja"))
                == ["東京", "都", "に", "住", "んで", "い", "ます"])
        }
    }

    @Test(arguments: [
        (["remove_diacritics", "3"], "remove_diacritics must be 0, 1 or 2"),
        (["remove_diacritics"], "missing value after remove_diacritics"),
        (["case_sensitive", "yes"], "case_sensitive must be 0 or 1"),
        (["case_sensitive", "1", "remove_diacritics", "1"], "remove_diacritics requires case_sensitive 0"),
        (["stemmer", "porter"], "unknown option stemmer"),
    ])
    func invalidArguments(arguments: [String], message: String) throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try makeQueue(directory)
        try dbQueue.write { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.makeTokenizer(FTS5WordTokenizer.tokenizerDescriptor(arguments: arguments))
            }
            #expect(error?.message?.contains(message) == true, "\(String(describing: error))")
            // A table that names invalid arguments is not created.
            #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "t", using: FTS5()) { t in
                    t.tokenizer = FTS5WordTokenizer.tokenizerDescriptor(arguments: arguments)
                    t.column("content")
                }
            }
            #expect(try !db.tableExists("t"))
        }
    }

    @Test func offsetsAndHighlight() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try makeQueue(directory)
        try dbQueue.write { db throws in
            let text = "今日は、研究生命科学很有意思。ภาษาไทยง่าย Jérôme!"
            let tokens = try db.makeTokenizer(FTS5WordTokenizer.tokenizerDescriptor()).tokens(in: text)
            var previousEnd = 0
            for token in tokens {
                // Each token comes from its own bytes, in order.
                #expect(token.utf8Range.lowerBound >= previousEnd)
                previousEnd = token.utf8Range.upperBound
                let range = try #require(token.range(in: text))
                let source = String(text[range])
                #expect(try words(db, source) == [token.token])
            }
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = FTS5WordTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO doc VALUES (?)", arguments: [text])
            let highlights = try String.fetchAll(db, sql: """
                SELECT highlight(doc, 0, '[', ']') FROM doc WHERE doc MATCH ?
                """, arguments: ["科学 OR ไทย OR jerome"])
            #expect(highlights == ["今日は、研究生命[科学]很有意思。ภาษา[ไทย]ง่าย [Jérôme]!"])
            let snippet = try String.fetchOne(db, sql: """
                SELECT snippet(doc, 0, '<', '>', '…', 3) FROM doc WHERE doc MATCH ?
                """, arguments: ["生命科学"])
            // FTS5 marks the adjacent tokens of the phrase as one.
            #expect(snippet == "…<生命科学>很…")
        }
    }

    /// Every document that holds a word is found by a query for that word,
    /// typed alone, with raw MATCH and with the pattern helpers.
    @Test func recall() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try makeQueue(directory)
        let documents = [
            // Chinese
            "研究生命科学很有意思", "我们正在开发一个全文搜索引擎", "采购订单自动审批流程ERP审批",
            "数据库的性能取决于索引的设计", "今天天气很好，我们去公园散步吧。", "北京是中华人民共和国的首都",
            "他在大学里学习计算机科学和数学", "人工智能正在改变世界",
            // Japanese
            "東京都に住んでいます", "吾輩は猫である。名前はまだ無い。", "私は毎朝コーヒーを飲みます",
            "日本語の形態素解析は難しい", "カタカナのテストとひらがなのテスト",
            // Thai, Lao, Khmer, Burmese
            "ภาษาไทยง่ายนิดเดียว", "ฉันชอบกินข้าวผัดกับไก่", "ประเทศไทยมีจังหวัดเจ็ดสิบเจ็ดจังหวัด",
            "ຂ້ອຍຮັກເຈົ້າ", "ສະບາຍດີ ພາສາລາວ", "ខ្ញុំចង់រៀនភាសា", "ကျွန်တော်မြန်မာစကားပြောတတ်ပါတယ်",
            // Mixed scripts
            "iPhone用户在App Store下载应用", "SQLite全文搜索FTS5很快", "Swiftで書かれたデータベース",
        ]
        try dbQueue.write { db throws in
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = FTS5WordTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            for document in documents {
                try db.execute(sql: "INSERT INTO doc VALUES (?)", arguments: [document])
            }
            let tokenizer = try db.makeTokenizer(FTS5WordTokenizer.tokenizerDescriptor())
            var queried = 0
            for (index, document) in documents.enumerated() {
                let rowID = Int64(index + 1)
                for token in try tokenizer.tokens(in: document) {
                    // The word as typed: its text in the document.
                    let word = String(document[try #require(token.range(in: document))])
                    let raw = try Int64.fetchAll(db, sql: "SELECT rowid FROM doc WHERE doc MATCH ?", arguments: [word])
                    #expect(raw.contains(rowID), "\(word) in \(document)")
                    let pattern = try #require(FTS5Pattern(matchingAllTokensIn: word))
                    let found = try Int64.fetchAll(db, sql: "SELECT rowid FROM doc WHERE doc MATCH ?", arguments: [pattern])
                    #expect(found.contains(rowID), "\(word) in \(document)")
                    queried += 1
                }
                // The whole document, typed without spaces, is a phrase.
                let phrase = try #require(FTS5Pattern(matchingPhrase: document))
                #expect(try Int64.fetchAll(db, sql: "SELECT rowid FROM doc WHERE doc MATCH ?", arguments: [phrase]).contains(rowID))
            }
            #expect(queried > 100)
            // Several words typed without spaces: a phrase of those words.
            let found = try String.fetchAll(db, sql: "SELECT content FROM doc WHERE doc MATCH ?", arguments: ["生命科学"])
            #expect(found == ["研究生命科学很有意思"])
            #expect(try String.fetchAll(db, sql: "SELECT content FROM doc WHERE doc MATCH ?", arguments: ["科学"]).count == 2)
            // Words in any order, with the pattern helpers.
            let any = try #require(FTS5Pattern(matchingAnyTokenIn: "审批 计算机"))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH ?", arguments: [any]) == 2)
            let prefix = try #require(FTS5Pattern(matchingAllPrefixesIn: "ภาษ"))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH ?", arguments: [prefix]) == 1)
            // A word that is only part of a longer word is not found:
            // search is by word, not by substring.
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH ?", arguments: ["京都"]) == 0)
        }
    }

    @Test func wrappersOverWords() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try makeQueue(directory)
        try dbQueue.write { db throws in
            let words = FTS5WordTokenizer.tokenizerDescriptor()
            #expect(try self.words(db, "Großmann審批Encyclopædia", FTS5LatinASCIITokenizer.tokenizerDescriptor(wrapping: words))
                == ["grossmann", "審批", "encyclopaedia"])
            let synonyms = FTS5SynonymTokenizer.tokenizerDescriptor(synonyms: [["手机", "电话"]], wrapping: words)
            let tokens = try db.makeTokenizer(synonyms).tokens(in: "他的手机很好")
            #expect(tokens.map(\.token) == ["他的", "手机", "电话", "很好"])
            #expect(tokens[2].flags == .colocated)
            #expect(tokens[2].utf8Range == tokens[1].utf8Range)
            // A word of a group must be one token.
            #expect(throws: DatabaseError.self) {
                try db.makeTokenizer(FTS5SynonymTokenizer.tokenizerDescriptor(synonyms: [["电脑", "计算机"]], wrapping: words))
            }
            let stopWords = FTS5StopWordTokenizer.tokenizerDescriptor(stopWords: ["了", "很快"], wrapping: words)
            #expect(try self.words(db, "我的电脑很快了", stopWords) == ["我的", "电脑"])

            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = synonyms
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO doc VALUES ('他的手机很好')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH '电话'") == 1)
            #expect(try String.fetchOne(db, sql: "SELECT highlight(doc, 0, '[', ']') FROM doc WHERE doc MATCH '电话'")
                == "他的[手机]很好")
        }
    }

    /// Invalid UTF-8, surrogates encoded in UTF-8, control characters,
    /// huge documents and random bytes never crash: their bytes separate
    /// words, and the tokens are valid UTF-8, within the text, in order.
    @Test func badInput() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try makeQueue(directory)
        try dbQueue.write { db throws in
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = FTS5WordTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            let samples: [[UInt8]] = [
                [],
                [0xFF, 0xFE, 0x41, 0x80, 0x42],
                Array("研究".utf8) + [0xED, 0xA0, 0x80] + Array("科学".utf8),   // a lone surrogate
                Array("科".utf8.dropLast()) + Array("学abc".utf8),               // a truncated character
                [0xC0, 0xAF, 0xE0, 0x80, 0xAF, 0xF8, 0x88, 0x80, 0x80, 0x80],   // overlong and 5-byte forms
                Array("ไทย".utf8) + [0x00] + Array("ภาษา".utf8),                 // NUL inside the text
                Array(String(repeating: "\u{301}", count: 100).utf8),            // marks only
            ]
            for bytes in samples {
                try db.execute(sql: "INSERT INTO doc VALUES (CAST(? AS TEXT))", arguments: [Data(bytes)])
                try checkTokens(db, bytes)
            }
            #expect(try words(db, String(decoding: samples[2], as: UTF8.self)) == ["研究", "科学"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH '科学'") == 1)

            // A huge document: 4 MB of Chinese, Thai and Latin text.
            let huge = String(repeating: "研究生命科学很有意思。ภาษาไทยง่าย Jérôme ", count: 60_000)
            try db.execute(sql: "INSERT INTO doc VALUES (?)", arguments: [huge])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH 'ไทย AND 生命'") == 1)

            // Random bytes, and random mixes of characters.
            var generator = SeededGenerator(seed: 42)
            let alphabet: [String] = ["研", "究", "生", "命", "科", "学", "ภ", "า", "ษ", "\u{E34}", "ั", "ก", "a", "Z", "é",
                                      "\u{301}", " ", "。", "、", "-", "'", ".", "1", "ん", "カ", "ー", "😀", "\u{200D}", "ß"]
            for round in 0..<2_000 {
                let bytes: [UInt8]
                if round.isMultiple(of: 2) {
                    bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                } else {
                    bytes = Array((0..<Int.random(in: 0...40, using: &generator))
                        .map { _ in alphabet.randomElement(using: &generator)! }.joined().utf8)
                }
                try checkTokens(db, bytes)
                if round.isMultiple(of: 50) {
                    try db.execute(sql: "INSERT INTO doc VALUES (CAST(? AS TEXT))", arguments: [Data(bytes)])
                }
            }
            try db.execute(sql: "INSERT INTO doc(doc) VALUES ('integrity-check')")
        }
    }

    /// Tokenizes raw bytes, and checks the tokens.
    func checkTokens(_ db: Database, _ bytes: [UInt8]) throws {
        let tokenizer = try db.makeTokenizer(FTS5WordTokenizer.tokenizerDescriptor())
        final class Collected { var tokens: [(bytes: [UInt8], start: Int, end: Int)] = [] }
        let collected = Collected()
        let code = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { text in
                withExtendedLifetime(collected) {
                    tokenizer.tokenize(
                        context: Unmanaged.passUnretained(collected).toOpaque(),
                        tokenization: .document,
                        pText: text.baseAddress, nText: CInt(text.count),
                        tokenCallback: { context, _, pToken, nToken, start, end in
                            let collected = Unmanaged<Collected>.fromOpaque(context!).takeUnretainedValue()
                            let token = UnsafeRawBufferPointer(start: pToken, count: Int(nToken))
                            collected.tokens.append((Array(token), Int(start), Int(end)))
                            return SQLITE_OK
                        })
                }
            }
        }
        #expect(code == SQLITE_OK)
        var previousEnd = 0
        for token in collected.tokens {
            #expect(!token.bytes.isEmpty)
            #expect(String(validating: token.bytes, as: UTF8.self) != nil, "\(token.bytes)")
            #expect(token.start >= previousEnd && token.start < token.end && token.end <= bytes.count)
            previousEnd = token.end
        }
    }

    /// The locale of values (`locale=1`, `fts5_locale()`) reaches Swift
    /// tokenizers, wrappers included, and auxiliary functions.
    @Test func locale() throws {
        let directory = try TemporaryDirectory()
        var config = Configuration()
        config.prepareDatabase { db in
            db.add(tokenizer: FTS5WordTokenizer.self)
            db.add(tokenizer: LocaleRecordingTokenizer.self)
            db.add(auxiliaryFunction: FTS5AuxiliaryFunction("locale_of") { context, _ in
                try context.columnLocale(0)
            })
        }
        let dbQueue = try DatabaseQueue(path: directory.filePath(), configuration: config)
        LocaleRecordingTokenizer.locales.withLock { $0 = [] }
        try dbQueue.write { db throws in
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = LocaleRecordingTokenizer.tokenizerDescriptor(arguments: FTS5WordTokenizer.tokenizerDescriptor().components)
                t.locale = true
                t.column("content")
            }
            #expect(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'doc'")?.contains("locale=1") == true)
            try db.execute(sql: "INSERT INTO doc VALUES (fts5_locale('th', ?))", arguments: ["ภาษาไทยง่าย"])
            try db.execute(sql: "INSERT INTO doc VALUES (fts5_locale('ja', ?))", arguments: ["東京都に住んでいます"])
            try db.execute(sql: "INSERT INTO doc VALUES (?)", arguments: ["no locale"])
            #expect(LocaleRecordingTokenizer.locales.withLock { $0 } == ["th", "ja", nil])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH 'ไทย'") == 1)
            #expect(try String?.fetchAll(db, sql: "SELECT fts5_get_locale(doc, 0) FROM doc ORDER BY rowid") == ["th", "ja", nil])
            #expect(try String?.fetchAll(db, sql: "SELECT locale_of(doc) FROM doc WHERE doc MATCH '東京 OR locale OR ไทย' ORDER BY rowid")
                == ["th", "ja", nil])
            // Locales are data: any number of them, unknown ones included,
            // tokenize with the root word boundaries.
            for index in 0..<40 {
                try db.execute(sql: "INSERT INTO doc VALUES (fts5_locale(?, ?))", arguments: ["x-test-\(index)", "研究生命科学 word\(index)"])
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH '科学'") == 40)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH 'word39'") == 1)
            // Tokenize from Swift with a locale.
            let tokenizer = try db.makeTokenizer(LocaleRecordingTokenizer.tokenizerDescriptor(arguments: ["cairn_words"]))
            #expect(try tokenizer.tokens(in: "ไทย", locale: "th").map(\.token) == ["ไทย"])
            #expect(LocaleRecordingTokenizer.locales.withLock { $0.last } == "th")
        }
    }

    @Test func tokenCallbackErrorStopsTheTokenization() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try makeQueue(directory)
        try dbQueue.read { db throws in
            let tokenizer = try db.makeTokenizer(FTS5WordTokenizer.tokenizerDescriptor())
            final class Counter { var count = 0 }
            let counter = Counter()
            let text = "研究生命科学很有意思"
            let code = text.withCString { pText in
                withExtendedLifetime(counter) {
                    tokenizer.tokenize(
                        context: Unmanaged.passUnretained(counter).toOpaque(),
                        tokenization: .document,
                        pText: pText, nText: CInt(strlen(pText)),
                        tokenCallback: { context, _, _, _, _, _ in
                            let counter = Unmanaged<Counter>.fromOpaque(context!).takeUnretainedValue()
                            counter.count += 1
                            return counter.count == 2 ? SQLITE_ABORT : SQLITE_OK
                        })
                }
            }
            #expect(code == SQLITE_ABORT)
            #expect(counter.count == 2)
        }
    }
}

/// A deterministic random number generator (SplitMix64), for fuzzing
/// that replays.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A wrapper that records the locales of the texts it tokenizes, on the
/// byte-level path (consecutive texts of the same locale make one entry).
final class LocaleRecordingTokenizer: FTS5WrapperTokenizer {
    static let name = "locale_recording"
    static let locales = Locked<[String?]>([])
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(FTS5TokenizerDescriptor(components: arguments))
    }

    func accept(
        utf8Token token: UnsafeRawBufferPointer,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        locale: String?,
        tokenCallback: FTS5WrapperUTF8TokenCallback) throws
    {
        Self.locales.withLock { locales in
            // One entry per text: the locale of its first token.
            if tokenization.contains(.document) || locale != nil, locales.last.map({ $0 != locale }) ?? true {
                locales.append(locale)
            }
        }
        try tokenCallback(token, flags)
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        try tokenCallback(token, flags)
    }
}
