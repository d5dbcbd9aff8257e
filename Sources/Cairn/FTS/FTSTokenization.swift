import Foundation

/// The tokenizations of patterns and of `FTS3.tokenize`, on a private
/// in-memory connection.
final class FTSTokenization: Sendable {
    static let shared = FTSTokenization()

    private let dbQueue: DatabaseQueue?
    /// The names of the fts3tokenize tables, by tokenizer.
    private let fts3Tables = Locked<[FTS3TokenizerDescriptor: String]>([:])
    /// The FTS5 tables that check patterns, by allowed columns.
    private let fts5PatternTables = Locked<[[String]: String]>([:])

    private init() {
        var configuration = Configuration()
        configuration.label = "Cairn.FTSTokenization"
        dbQueue = try? DatabaseQueue(configuration: configuration)
    }

    func tokenize(_ string: String, withFTS3Tokenizer tokenizer: FTS3TokenizerDescriptor) throws -> [String] {
        guard let dbQueue else { return [] }
        return try dbQueue.inDatabase { db in
            let table: String
            if let existing = fts3Tables.withLock({ $0[tokenizer] }) {
                table = existing
            } else {
                table = "tokens\(fts3Tables.withLock { $0.count })"
                try db.execute(sql: "CREATE VIRTUAL TABLE temp.\(table) USING fts3tokenize(\(tokenizer.fts3tokenizeArguments))")
                fts3Tables.withLock { $0[tokenizer] = table }
            }
            let statement = try db.generatedStatement(sql: "SELECT token FROM temp.\(table) WHERE input = ? ORDER BY position")
            let cursor = try Row.fetchCursor(statement, arguments: [string])
            var tokens: [String] = []
            while try cursor.next() != nil {
                tokens.append(Self.repairedText(statement.sqliteStatement, index: 0))
            }
            return tokens
        }
    }

    /// The text of a column, with its invalid UTF-8 replaced by U+FFFD, as
    /// GRDB reads tokens.
    ///
    /// Tokenizers work on bytes, and some cut characters: porter keeps the
    /// first and last ten bytes of a word longer than twenty bytes that
    /// holds other characters than ASCII letters (`"fooéı👨👨🏿🇫🇷🇨🇮"` gives
    /// `"fooéı👇�🇨🇮"`). Such a token is kept, repaired, and so are the other
    /// tokens of the string.
    private static func repairedText(_ sqliteStatement: SQLiteStatement, index: CInt) -> String {
        guard let bytes = sqlite3_column_text(sqliteStatement, index) else { return "" }
        let count = Int(sqlite3_column_bytes(sqliteStatement, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The tokens of a query, for FTS5 patterns: ascii tokenizer, without
    /// synonyms.
    func fts5QueryTokens(_ string: String) throws -> [String] {
        guard let dbQueue else { return [] }
        return try dbQueue.inDatabase { db in
            try db.makeTokenizer(.ascii())
                .tokenize(query: string)
                .compactMap { $0.flags.contains(.colocated) ? nil : $0.token }
        }
    }

    /// Checks a raw FTS5 pattern with a temporary FTS5 table of the given
    /// columns (one per set of columns).
    ///
    /// - Throws: The error of SQLite, without the SQL of the statement that
    ///   checked the pattern, as GRDB throws it.
    func validateFTS5Pattern(_ rawPattern: String, allowedColumns: [String]) throws {
        guard let dbQueue else { return }
        // A table needs a column: this one cannot be named by a pattern
        // that only names the allowed columns.
        let columns = allowedColumns.isEmpty ? ["__cairn_content"] : allowedColumns
        try Self.withoutStatement { try dbQueue.inDatabase { db in
            let table: String
            if let existing = fts5PatternTables.withLock({ $0[columns] }) {
                table = existing
            } else {
                table = "fts5pattern\(fts5PatternTables.withLock { $0.count })"
                try db.execute(sql: "CREATE VIRTUAL TABLE temp.\(table) USING fts5("
                    + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")")
                fts5PatternTables.withLock { $0[columns] = table }
            }
            _ = try Row.fetchOne(db.generatedStatement(sql: "SELECT * FROM temp.\(table) WHERE \(table) MATCH ?"), arguments: [rawPattern])
        } }
    }

    /// Checks a raw FTS3 pattern.
    ///
    /// - Throws: The error of SQLite, without the SQL of the statement that
    ///   checked the pattern, as GRDB throws it.
    func validateFTS3Pattern(_ rawPattern: String) throws {
        guard let dbQueue else { return }
        try Self.withoutStatement { try dbQueue.inDatabase { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts3pattern USING fts3(content)")
            _ = try Row.fetchOne(db.generatedStatement(sql: "SELECT * FROM temp.fts3pattern WHERE content MATCH ?"), arguments: [rawPattern])
        } }
    }

    /// Runs `body`, and throws its database errors without the SQL and the
    /// arguments of the private statement that failed.
    private static func withoutStatement(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as DatabaseError {
            throw DatabaseError(resultCode: error.extendedResultCode, message: error.message)
        }
    }
}
