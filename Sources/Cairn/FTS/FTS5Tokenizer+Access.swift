// Registering Swift FTS5 tokenizers and auxiliary functions in database
// queues and pools, on top of their connection setup hook.

extension DatabaseQueue {
    /// Registers a Swift FTS5 tokenizer in the connection.
    ///
    /// ```swift
    /// dbQueue.add(tokenizer: FTS5LatinASCIITokenizer.self)
    /// ```
    ///
    /// ``Configuration/prepareDatabase(_:)`` is the other way, which
    /// registers the tokenizer before any access.
    ///
    /// The corresponding C function is `xCreateTokenizer_v2` of the
    /// `fts5_api`.
    public func add<Tokenizer: FTS5CustomTokenizer>(tokenizer: Tokenizer.Type) {
        setUpConnections(tokenizerRegistration(Tokenizer.self))
    }
}

extension DatabasePool {
    /// Registers a Swift FTS5 tokenizer in all connections of the pool: the
    /// writer, the current readers, and the readers the pool opens later.
    ///
    /// ```swift
    /// dbPool.add(tokenizer: FTS5LatinASCIITokenizer.self)
    /// ```
    ///
    /// ``Configuration/prepareDatabase(_:)`` is the other way, which
    /// registers the tokenizer before any access.
    ///
    /// The corresponding C function is `xCreateTokenizer_v2` of the
    /// `fts5_api`.
    public func add<Tokenizer: FTS5CustomTokenizer>(tokenizer: Tokenizer.Type) {
        setUpConnections(tokenizerRegistration(Tokenizer.self))
    }
}

extension DatabaseQueue {
    /// Registers an FTS5 auxiliary function written in Swift in the
    /// connection.
    ///
    /// ```swift
    /// dbQueue.add(auxiliaryFunction: myRanking)
    /// ```
    ///
    /// The corresponding C function is `xCreateFunction` of the
    /// `fts5_api`.
    public func add(auxiliaryFunction: FTS5AuxiliaryFunction) {
        setUpConnections { db in db.add(auxiliaryFunction: auxiliaryFunction) }
    }
}

extension DatabasePool {
    /// Registers an FTS5 auxiliary function written in Swift in all
    /// connections of the pool: the writer, the current readers, and the
    /// readers the pool opens later.
    ///
    /// ```swift
    /// dbPool.add(auxiliaryFunction: myRanking)
    /// ```
    ///
    /// The corresponding C function is `xCreateFunction` of the
    /// `fts5_api`.
    public func add(auxiliaryFunction: FTS5AuxiliaryFunction) {
        setUpConnections { db in db.add(auxiliaryFunction: auxiliaryFunction) }
    }
}

/// The setup that registers a tokenizer type in a connection.
private func tokenizerRegistration<Tokenizer: FTS5CustomTokenizer>(_ tokenizer: Tokenizer.Type) -> @Sendable (Database) -> Void {
    // Unchecked: registering a tokenizer type has no state to protect, but
    // Swift sees a capture of a metatype that is not Sendable.
    let registration = UncheckedSendableFunction { db in db.add(tokenizer: Tokenizer.self) }
    return { db in registration.call(db) }
}

/// A function that Swift cannot prove Sendable, but that is.
private struct UncheckedSendableFunction: @unchecked Sendable {
    let call: (Database) -> Void
    init(_ call: @escaping (Database) -> Void) { self.call = call }
}
