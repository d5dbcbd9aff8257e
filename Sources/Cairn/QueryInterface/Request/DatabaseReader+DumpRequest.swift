// The dump of requests from readers (see `Database+DumpRequest.swift`).

extension DatabaseReader {
    /// Prints the rows of a request.
    ///
    /// ```swift
    /// // 1|Arthur|500
    /// // 2|Barbara|1000
    /// try dbQueue.dumpRequest(Player.orderByPrimaryKey())
    /// ```
    ///
    /// See ``Database/dumpRequest(_:format:to:)``. The request, and the
    /// prefetched rows of its `including(all:)` associations, are read in
    /// one transaction, in an ``DatabaseReader/unsafeReentrantRead(_:)``
    /// access (the method can be called from inside an access to the same
    /// database).
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
        try unsafeReentrantRead { db in
            try db.isolated {
                try db.dumpRequest(request, format: format, to: stream)
            }
        }
    }
}
