import Foundation

/// An FTS5 table, for the tools that read its index: token statistics,
/// query suggestions ("did you mean"), the key tokens of a row, and the
/// rows that look like a row ("more like this").
///
/// ```swift
/// let documents = FTS5Table("document")
/// try dbQueue.read { db in
///     // "Did you mean: sqlite database?"
///     if let suggestion = try documents.suggestedQuery(db, for: "sqllite databse") {
///         print("Did you mean: \(suggestion)?")
///     }
///     // The ten rows most like row 42.
///     let similar = try documents.similarRowIDs(db, to: 42, limit: 10)
/// }
/// ```
///
/// The tools read the vocabulary of the index through an `fts5vocab`
/// table that they create in the `temp` schema of the connection, once,
/// also inside read-only accesses (the temporary table changes no database
/// file). They tokenize text with the table's own tokenizer, read from the
/// table definition: a Swift tokenizer must be registered in the
/// connection, as for any statement that uses the table.
///
/// Related SQLite documentation: <https://www.sqlite.org/fts5.html#the_fts5vocab_virtual_table_module>
public struct FTS5Table: Sendable, Hashable {
    /// The name of the table.
    public var name: String
    /// The schema of the table: `main`, `temp` or an attached database.
    public var schema: String

    /// Creates a value for an FTS5 table.
    ///
    /// - Parameters:
    ///   - name: The name of the table.
    ///   - schema: The schema of the table (`main` by default).
    public init(_ name: String, schema: String = "main") {
        self.name = name
        self.schema = schema
    }

    // MARK: Tokens

    /// The tokenizer of the table, as its definition names it (unicode61
    /// for a table that names none).
    ///
    /// - Throws: A ``DatabaseError`` when the table is not an FTS5 table.
    public func tokenizerDescriptor(_ db: Database) throws -> FTS5TokenizerDescriptor {
        try FTS5TableSchema(db, table: name, schema: schema).tokenizer
    }

    /// The number of rows whose index holds a token (the token as the
    /// index stores it: lowercase for most tokenizers).
    ///
    /// ```swift
    /// try FTS5Table("document").documentCount(db, of: "sqlite") // 12
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` when the table is not an FTS5 table.
    public func documentCount(_ db: Database, of token: String) throws -> Int {
        try Int.fetchOne(
            db.generatedStatement(sql: "SELECT doc FROM \(vocabulary(db, "row")) WHERE term = ?"),
            arguments: [token]) ?? 0
    }

    /// The number of occurrences of a token in the whole index: 0 for a
    /// table created with `detail=column` or `detail=none`, whose index
    /// does not count occurrences.
    ///
    /// - Throws: A ``DatabaseError`` when the table is not an FTS5 table.
    public func occurrenceCount(_ db: Database, of token: String) throws -> Int {
        try Int.fetchOne(
            db.generatedStatement(sql: "SELECT cnt FROM \(vocabulary(db, "row")) WHERE term = ?"),
            arguments: [token]) ?? 0
    }

    /// The number of rows of the table, from the statistics of its index
    /// (without a scan of the table).
    ///
    /// - Throws: A ``DatabaseError`` when the table is not an FTS5 table.
    public func rowCount(_ db: Database) throws -> Int {
        try statistics(db).rowCount
    }

    // MARK: Suggestions

    /// Tokens of the index that are spelled like a word, best first: the
    /// closest (by edit distance: insertions, deletions, substitutions and
    /// swaps of two neighbour characters), then the most frequent.
    ///
    /// ```swift
    /// let suggestions = try FTS5Table("document").suggestions(db, for: "databse")
    /// print(suggestions.first?.token) // "database"
    /// ```
    ///
    /// The word is tokenized with the table's tokenizer first, so the
    /// suggestions are index tokens: lowercase, and stems for a stemming
    /// tokenizer such as `porter`. The token itself is not a suggestion.
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - word: A word, as a user typed it.
    ///   - maximumDistance: The largest edit distance of a suggestion; by
    ///     default 1 for tokens of up to four characters, 2 otherwise.
    ///   - limit: The maximum number of suggestions.
    /// - Throws: A ``DatabaseError`` when the table is not an FTS5 table.
    public func suggestions(
        _ db: Database,
        for word: String,
        maximumDistance: Int? = nil,
        limit: Int = 5) throws -> [FTS5TokenSuggestion]
    {
        let tokenizer = try db.makeTokenizer(tokenizerDescriptor(db))
        guard let token = try tokenizer.tokens(in: word, for: .query).first(where: { !$0.flags.contains(.colocated) }) else {
            return []
        }
        return try suggestions(db, forToken: token.token, maximumDistance: maximumDistance, limit: limit)
    }

    /// The suggestions for an index token.
    private func suggestions(
        _ db: Database,
        forToken token: String,
        maximumDistance: Int?,
        limit: Int) throws -> [FTS5TokenSuggestion]
    {
        let target = Array(token.unicodeScalars)
        let maximumDistance = Swift.min(maximumDistance ?? (target.count <= 4 ? 1 : 2), 16)
        guard limit > 0, maximumDistance > 0 else { return [] }
        var suggestions: [FTS5TokenSuggestion] = []
        let candidates = try Row.fetchCursor(
            db.generatedStatement(sql: "SELECT term, doc FROM \(vocabulary(db, "row")) WHERE length(term) BETWEEN ? AND ?"),
            arguments: [target.count - maximumDistance, target.count + maximumDistance])
        while let row = try candidates.next() {
            let term: String = row[0]
            guard term != token,
                  let distance = editDistance(target, Array(term.unicodeScalars), maximum: maximumDistance)
            else { continue }
            suggestions.append(FTS5TokenSuggestion(token: term, distance: distance, documentCount: row[1]))
        }
        suggestions.sort {
            ($0.distance, -$0.documentCount, $0.token) < ($1.distance, -$1.documentCount, $1.token)
        }
        return Array(suggestions.prefix(limit))
    }

    /// A corrected query ("did you mean"), or nil when the query needs no
    /// correction: each word that the index does not hold, or holds in far
    /// fewer rows than a word spelled like it, is replaced with that word.
    ///
    /// ```swift
    /// try FTS5Table("document").suggestedQuery(db, for: "sqllite databse") // "sqlite database"
    /// ```
    ///
    /// The query may use the syntax of FTS5 queries: column filters,
    /// `AND`, `OR`, `NOT`, `NEAR`, quotes, `*` and `^` stay as they are,
    /// and only the words are corrected. A replaced word is written as the
    /// index stores it (lowercase, or stemmed by a stemming tokenizer).
    /// Words of fewer than three characters are not corrected.
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - query: A query, as a user typed it.
    ///   - popularity: How many times more rows a word must be in than the
    ///     typed word (when the index holds it) to replace it.
    /// - Throws: A ``DatabaseError`` when the table is not an FTS5 table.
    public func suggestedQuery(_ db: Database, for query: String, popularity: Int = 10) throws -> String? {
        let tokenizer = try db.makeTokenizer(tokenizerDescriptor(db))
        let utf8 = Array(query.utf8)
        var corrected: [UInt8] = []
        var position = 0
        var changed = false
        for (segment, isQuoted) in fts5QueryTextRanges(utf8) {
            let text = String(decoding: utf8[segment], as: UTF8.self)
            for token in try tokenizer.tokens(in: text, for: .query) where !token.flags.contains(.colocated) {
                let range = (segment.lowerBound + token.utf8Range.lowerBound)..<(segment.lowerBound + token.utf8Range.upperBound)
                guard range.lowerBound >= position, range.upperBound <= segment.upperBound,
                      token.token.unicodeScalars.count >= 3
                else { continue }
                let count = try documentCount(db, of: token.token)
                let (threshold, overflow) = count.multipliedReportingOverflow(by: Swift.max(popularity, 1))
                guard let best = try suggestions(db, forToken: token.token, maximumDistance: nil, limit: 1).first,
                      count == 0 || (!overflow && best.documentCount >= threshold)
                else { continue }
                corrected += utf8[position..<range.lowerBound]
                corrected += fts5QueryText(best.token, insideString: isQuoted)
                position = range.upperBound
                changed = true
            }
        }
        guard changed else { return nil }
        corrected += utf8[position...]
        return String(decoding: corrected, as: UTF8.self)
    }

    // MARK: Key tokens and similar rows

    /// The tokens that characterize a row: those it holds more often than
    /// the other rows do, by BM25 weight (the weight that `bm25()` gives a
    /// one-token query), highest first.
    ///
    /// ```swift
    /// for key in try FTS5Table("document").keyTokens(db, rowID: 42, limit: 5) {
    ///     print(key.token, key.score)
    /// }
    /// ```
    ///
    /// The row's indexed columns are tokenized with the table's tokenizer;
    /// synonyms (colocated tokens) are left out. A contentless table keeps
    /// no text: its rows have no key tokens.
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - rowID: The rowid of the row.
    ///   - limit: The maximum number of tokens.
    /// - Throws: A ``DatabaseError`` when the table is not an FTS5 table.
    public func keyTokens(_ db: Database, rowID: Int64, limit: Int = 10) throws -> [FTS5KeyToken] {
        let tableSchema = try FTS5TableSchema(db, table: name, schema: schema)
        // The indexed columns, as text (a column of an FTS5 table may hold
        // numbers and blobs, which FTS5 indexes as text), and their locale.
        let indexed = tableSchema.columns.indices.filter { tableSchema.columns[$0].isIndexed }
        guard !indexed.isEmpty, limit > 0 else { return [] }
        let selection = indexed.map { index in
            let column = tableSchema.columns[index].name.quotedDatabaseIdentifier
            let locale = tableSchema.hasLocale
                ? "fts5_get_locale(\(name.quotedDatabaseIdentifier), \(index))"
                : "NULL"
            return "CAST(\(column) AS TEXT), \(locale)"
        }
        let sql = "SELECT " + selection.joined(separator: ", ") + " FROM \(qualifiedName) WHERE rowid = ?"
        guard let row = try Row.fetchOne(db, sql: sql, arguments: [rowID]) else { return [] }
        let tokenizer = try db.makeTokenizer(tableSchema.tokenizer)
        var counts: [String: (count: Int, text: String)] = [:]
        var length = 0
        for position in indexed.indices {
            guard let text = row[2 * position] as String? else { continue }
            let locale = row[2 * position + 1] as String?
            for token in try tokenizer.tokens(in: text, locale: locale) where !token.flags.contains(.colocated) {
                length += 1
                if let entry = counts[token.token] {
                    counts[token.token] = (entry.count + 1, entry.text)
                } else {
                    let source = token.range(in: text).map { String(text[$0]) } ?? token.token
                    counts[token.token] = (1, source)
                }
            }
        }
        let statistics = try statistics(db)
        guard statistics.rowCount > 0 else { return [] }
        let averageLength = Double(statistics.tokenCount) / Double(statistics.rowCount)
        let (k1, b) = (1.2, 0.75)
        var keys: [FTS5KeyToken] = []
        for (token, entry) in counts {
            let documentCount = try self.documentCount(db, of: token)
            let idf = Swift.max(1e-6, log((Double(statistics.rowCount) - Double(documentCount) + 0.5) / (Double(documentCount) + 0.5)))
            let frequency = Double(entry.count)
            let score = idf * (frequency * (k1 + 1)) / (frequency + k1 * (1 - b + b * Double(length) / Swift.max(averageLength, 1)))
            keys.append(FTS5KeyToken(token: token, text: entry.text, count: entry.count, documentCount: documentCount, score: score))
        }
        keys.sort { ($0.score, $1.token) > ($1.score, $0.token) }
        return Array(keys.prefix(limit))
    }

    /// The rows most like a row ("more like this"), best first: the rows
    /// that match its key tokens, ranked by `bm25()`.
    ///
    /// ```swift
    /// let similar = try FTS5Table("document").similarRowIDs(db, to: 42, limit: 10)
    /// let documents = try Document.fetchAll(db, keys: similar)
    /// ```
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - rowID: The rowid of the row.
    ///   - limit: The maximum number of rows.
    ///   - keyTokenCount: How many key tokens of the row the search uses.
    /// - Returns: Rowids, without `rowID`.
    /// - Throws: A ``DatabaseError`` when the table is not an FTS5 table.
    public func similarRowIDs(_ db: Database, to rowID: Int64, limit: Int = 10, keyTokenCount: Int = 12) throws -> [Int64] {
        let keys = try keyTokens(db, rowID: rowID, limit: keyTokenCount)
        guard !keys.isEmpty, limit > 0 else { return [] }
        // The text of each key token, which the table's tokenizer turns
        // into the token again (a token itself might not: a stem, for
        // instance).
        let query = keys.map { "\"" + $0.text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
            .joined(separator: " OR ")
        return try Int64.fetchAll(db, sql: """
            SELECT rowid FROM \(qualifiedName)
            WHERE \(name.quotedDatabaseIdentifier) MATCH ? AND rowid <> ?
            ORDER BY rank LIMIT ?
            """, arguments: [query, rowID, limit])
    }

    // MARK: Private

    private var qualifiedName: String {
        "\(schema.quotedDatabaseIdentifier).\(name.quotedDatabaseIdentifier)"
    }

    /// The name of a temporary `fts5vocab` table of this table, created
    /// when needed.
    private func vocabulary(_ db: Database, _ type: String) throws -> String {
        // The name depends on the schema, table and type only; a table
        // name may hold any character, so it is hashed.
        var hasher = FNV1a()
        // SQLite folds the case of ASCII letters only in names.
        hasher.combine(schema.asciiLowercased)
        hasher.combine(name.asciiLowercased)
        let vocabularyName = "cairn_fts5vocab_\(type)_\(String(hasher.value, radix: 36))"
        let exists = try Bool.fetchOne(db, sql: """
            SELECT 1 FROM temp.sqlite_master WHERE type = 'table' AND name = ?
            """, arguments: [vocabularyName]) ?? false
        if !exists {
            // Checks that the table is an FTS5 table first: fts5vocab
            // reports the error only when the vocabulary is read.
            _ = try FTS5TableSchema(db, table: name, schema: schema)
            try db.withTemporarySchemaWrites {
                try db.execute(sql: """
                    CREATE VIRTUAL TABLE IF NOT EXISTS temp.\(vocabularyName.quotedDatabaseIdentifier) \
                    USING fts5vocab(\(schema.quotedDatabaseIdentifier), \(name.sqlStringLiteral), \(type.sqlStringLiteral))
                    """)
            }
        }
        return "temp.\(vocabularyName.quotedDatabaseIdentifier)"
    }

    /// The number of rows, and of tokens in all rows and columns, from the
    /// averages record of the index (row 1 of the `%_data` table: varints
    /// of the row count, then of the token count of each column), which
    /// FTS5 keeps up to date. A table whose record cannot be read is
    /// counted with a scan.
    private func statistics(_ db: Database) throws -> (rowCount: Int, tokenCount: Int) {
        let dataTable = "\(schema.quotedDatabaseIdentifier).\((name + "_data").quotedDatabaseIdentifier)"
        if let record = try? Data.fetchOne(db, sql: "SELECT block FROM \(dataTable) WHERE id = 1") {
            var values: [Int] = []
            var offset = record.startIndex
            while offset < record.endIndex, let (value, length) = sqliteVarint(record, at: offset) {
                values.append(value)
                offset += length
            }
            // A damaged record gives no statistics, not a crash.
            if let rowCount = values.first, rowCount >= 0, values.allSatisfy({ $0 >= 0 }) {
                let (tokenCount, overflow) = values.dropFirst().reduce((0, false)) { sum, value in
                    let (result, overflow) = sum.0.addingReportingOverflow(value)
                    return (result, sum.1 || overflow)
                }
                if !overflow { return (rowCount, tokenCount) }
            }
        }
        let rowCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(qualifiedName)") ?? 0
        return (rowCount, 0)
    }
}

/// A token of the index spelled like a word, returned by
/// ``FTS5Table/suggestions(_:for:maximumDistance:limit:)``.
public struct FTS5TokenSuggestion: Hashable, Sendable {
    /// The token, as the index stores it.
    public var token: String
    /// Its edit distance to the word.
    public var distance: Int
    /// The number of rows that hold it.
    public var documentCount: Int

    /// Creates a suggestion.
    public init(token: String, distance: Int, documentCount: Int) {
        self.token = token
        self.distance = distance
        self.documentCount = documentCount
    }
}

/// A token that characterizes a row, returned by
/// ``FTS5Table/keyTokens(_:rowID:limit:)``.
public struct FTS5KeyToken: Hashable, Sendable {
    /// The token, as the index stores it.
    public var token: String
    /// The text of its first occurrence in the row.
    public var text: String
    /// The number of its occurrences in the row.
    public var count: Int
    /// The number of rows that hold it.
    public var documentCount: Int
    /// Its BM25 weight in the row.
    public var score: Double

    /// Creates a key token.
    public init(token: String, text: String, count: Int, documentCount: Int, score: Double) {
        self.token = token
        self.text = text
        self.count = count
        self.documentCount = documentCount
        self.score = score
    }
}

/// The edit distance of two strings (optimal string alignment:
/// insertions, deletions, substitutions, swaps of neighbours), or nil when
/// it is over `maximum`.
func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], maximum: Int) -> Int? {
    if abs(a.count - b.count) > maximum { return nil }
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previousPrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        var rowMinimum = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            var value = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                value = Swift.min(value, previousPrevious[j - 2] + 1)
            }
            current[j] = value
            rowMinimum = Swift.min(rowMinimum, value)
        }
        if rowMinimum > maximum { return nil }
        (previousPrevious, previous, current) = (previous, current, previousPrevious)
    }
    return previous[b.count] <= maximum ? previous[b.count] : nil
}

/// The ranges of an FTS5 query that hold text to tokenize: the insides
/// of quoted strings, and the barewords that are not operators (`AND`,
/// `OR`, `NOT`, `NEAR`), column names (before `:`), or the distance of a
/// `NEAR` group (after a comma).
///
/// Related SQLite documentation: <https://www.sqlite.org/fts5.html#full_text_query_syntax>
func fts5QueryTextRanges(_ query: [UInt8]) -> [(range: Range<Int>, isQuoted: Bool)] {
    func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }
    var ranges: [(range: Range<Int>, isQuoted: Bool)] = []
    var index = 0
    var previous: UInt8 = 0 // the previous byte that is not a space
    while index < query.count {
        let byte = query[index]
        if isSpace(byte) {
            index += 1
        } else if byte == UInt8(ascii: "\"") {
            var end = index + 1
            while end < query.count {
                if query[end] == UInt8(ascii: "\"") {
                    if end + 1 < query.count && query[end + 1] == UInt8(ascii: "\"") {
                        end += 2
                        continue
                    }
                    break
                }
                end += 1
            }
            ranges.append(((index + 1)..<Swift.min(end, query.count), true))
            index = end + 1
            previous = byte
        } else if byte == UInt8(ascii: "{") {
            // A set of column names.
            while index < query.count && query[index] != UInt8(ascii: "}") { index += 1 }
            index += 1
            previous = UInt8(ascii: "}")
        } else if isBarewordByte(byte) {
            var end = index
            while end < query.count && isBarewordByte(query[end]) { end += 1 }
            var next = end
            while next < query.count && isSpace(query[next]) { next += 1 }
            let word = String(decoding: query[index..<end], as: UTF8.self)
            let isColumn = next < query.count && query[next] == UInt8(ascii: ":")
            let isOperator = ["AND", "OR", "NOT", "NEAR"].contains(word)
            let isDistance = previous == UInt8(ascii: ",")
            if !isColumn && !isOperator && !isDistance {
                ranges.append((index..<end, false))
            }
            index = end
            previous = query[end - 1]
        } else {
            previous = byte
            index += 1
        }
    }
    return ranges
}

/// Whether a byte may be part of a bareword of an FTS5 query.
func isBarewordByte(_ byte: UInt8) -> Bool {
    byte >= 0x80 || byte == 0x1A || byte == UInt8(ascii: "_")
        || (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
}

/// A word written into an FTS5 query: inside a quoted string, with its
/// quotes doubled; elsewhere, as a bareword when it is one (and not an
/// operator), or else quoted.
func fts5QueryText(_ word: String, insideString: Bool) -> [UInt8] {
    let escaped = Array(word.replacingOccurrences(of: "\"", with: "\"\"").utf8)
    if insideString { return escaped }
    let bytes = Array(word.utf8)
    if !bytes.isEmpty && bytes.allSatisfy(isBarewordByte) && !["AND", "OR", "NOT", "NEAR"].contains(word) {
        return bytes
    }
    return [UInt8(ascii: "\"")] + escaped + [UInt8(ascii: "\"")]
}

/// Reads an SQLite varint (big-endian groups of 7 bits, the ninth byte
/// whole), as FTS5 writes them. Returns the value and its length, or nil
/// at the end of the data.
func sqliteVarint(_ data: Data, at offset: Data.Index) -> (Int, Int)? {
    var value: UInt64 = 0
    var index = offset
    for position in 0..<9 {
        guard index < data.endIndex else { return nil }
        let byte = data[index]
        index += 1
        if position == 8 {
            value = (value << 8) | UInt64(byte)
            return (Int(truncatingIfNeeded: value), 9)
        }
        value = (value << 7) | UInt64(byte & 0x7F)
        if byte & 0x80 == 0 {
            return (Int(truncatingIfNeeded: value), position + 1)
        }
    }
    return nil
}

/// A stable hash (FNV-1a, 64 bits), for names derived from strings.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func combine(_ string: String) {
        for byte in string.utf8 {
            value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        value = (value ^ 0xFF) &* 0x100_0000_01b3
    }
}

extension Database {
    /// Runs `body` with `PRAGMA query_only` off, and sets it back: the
    /// temporary `fts5vocab` tables of ``FTS5Table`` are created in the
    /// `temp` schema of the connection, which changes no database file, but
    /// which `query_only` forbids inside read-only accesses (the accesses
    /// of `read`, pool readers, snapshots).
    fileprivate func withTemporarySchemaWrites<T>(_ body: () throws -> T) throws -> T {
        guard try Bool.fetchOne(self, sql: "PRAGMA query_only") == true else {
            return try body()
        }
        try execute(sql: "PRAGMA query_only = 0")
        defer {
            // Runs even when the task of the access was cancelled: the
            // access must stay read-only.
            ignoringAccessCancellation {
                try? execute(sql: "PRAGMA query_only = 1")
            }
        }
        return try body()
    }
}

extension String {
    /// The string with its ASCII letters lowercase, as SQLite compares
    /// names.
    fileprivate var asciiLowercased: String {
        String(decoding: utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
