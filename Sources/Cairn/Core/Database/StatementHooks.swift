// The statement hooks that a layer above Core installs on a connection.

/// What a layer above Core (Observation's transaction observer broker) hears
/// of the statements of a connection: Core calls these methods without
/// knowing the layer that overrides them.
///
/// A base class rather than a protocol: ``isActive`` is read at each
/// statement, and a final stored property of a class costs one load, where
/// a protocol requirement would cost a dynamic call.
///
/// The hooks are used on the thread of the current access of their
/// connection only, as the rest of the connection's state.
class StatementHooks {
    /// Whether the hooks want to hear about statements: while it is false,
    /// statements skip them.
    final var isActive = false

    init() { }

    /// Called before a statement runs.
    func statementWillExecute(_ statement: Statement, in database: Database) { }

    /// Called after a statement completed.
    ///
    /// - Throws: An error that the statement throws although it completed
    ///   (a transaction observer that refused the commit of an empty
    ///   transaction).
    func statementDidExecute(_ statement: Statement, in database: Database) throws { }

    /// Called after a statement failed. An error that the statement must
    /// throw instead of its own goes to the connection's
    /// `callbackErrors`, as the errors of other callbacks.
    func statementDidFail(_ statement: Statement, in database: Database) { }

    /// Called after SQLite ran statements of its own, outside of any
    /// statement of Cairn (the session extension applying a changeset),
    /// which changed `region` (nil when nothing changed).
    func externalStatementsDidRun(changing region: DatabaseRegion?, in database: Database) { }

    /// Called after bytes were written through a blob (``DatabaseBlob``):
    /// SQLite runs no update hook for them.
    func blobDidWrite(schema: String, table: String, column: String, rowID: Int64, in database: Database) { }

    /// Called after `sqlite3_deserialize` replaced a schema of the
    /// connection: the whole database may have changed, outside of any
    /// transaction.
    func databaseWasReplaced(in database: Database) { }

    /// Called when the connection closes.
    func databaseWillClose(_ database: Database) { }
}
