// The dump of requests (see `Core/Dump/Database+Dump.swift`).

extension Database {
    /// Prints the rows of a request.
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     // 1|Arthur|500
    ///     // 2|Barbara|1000
    ///     try db.dumpRequest(Player.orderByPrimaryKey())
    ///
    ///     // [{"id":1,"name":"Arthur","score":500},
    ///     // {"id":2,"name":"Barbara","score":1000}]
    ///     try db.dumpRequest(Player.orderByPrimaryKey(), format: .json())
    /// }
    /// ```
    ///
    /// All the columns that the request selects are printed, including the
    /// columns of the associated records of `including(required:)`,
    /// `including(optional:)` and `annotated(with:)`. The rows that
    /// `including(all:)` prefetches follow, after an empty line and the key
    /// of their association (`"players"`, or `"players.awards"` for nested
    /// associations):
    ///
    /// ```swift
    /// // 1|Red
    /// // 2|Blue
    /// //
    /// // players
    /// // 1|1|Arthur
    /// // 2|2|Barbara
    /// try db.dumpRequest(Team.orderByPrimaryKey().including(all: Team.players))
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - format: The output format (default ``DumpFormat/debug(header:separator:nullValue:)``).
    ///   - stream: The stream that receives the output; nil (the default)
    ///     prints to the standard output.
    /// - Throws: A ``DatabaseError`` when the request cannot run, or the
    ///   error of the format.
    public func dumpRequest(
        _ request: some FetchRequest,
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil) throws
    {
        let dump = RequestDump(format: format, stream: DumpStream(stream))
        let prepared = try request.makePreparedRequest(self, forSingleResult: false)
        try dump.dump(self, prepared.statement)

        guard let observedSupplementaryFetch = prepared.observedSupplementaryFetch else {
            return
        }
        // The rows of the request, from a new preparation (the statement
        // has run), are the parents of the prefetched rows.
        let rowsRequest = try request.makePreparedRequest(self, forSingleResult: false)
        let rows = try Row.fetchAll(rowsRequest.statement, adapter: rowsRequest.adapter)
        guard !rows.isEmpty else { return }
        let observer = PrefetchObserver { db, statement, keyPath in
            dump.stream.margin()
            dump.stream.write(keyPath.joined(separator: ".") + "\n")
            try dump.dump(db, statement)
        }
        try observedSupplementaryFetch(self, rows, observer)
    }
}

/// The format and the stream of a request dump, shared with the dumps of
/// its prefetched rows.
private final class RequestDump<Format: DumpFormat> {
    var format: Format
    var stream: DumpStream

    init(format: Format, stream: DumpStream) {
        self.format = format
        self.stream = stream
    }

    /// Runs a statement and prints its rows.
    func dump(_ db: Database, _ statement: Statement) throws {
        try db.dumpStatement(statement, format: &format, to: &stream)
    }
}
