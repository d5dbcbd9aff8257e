// The C callbacks of the transaction observers: the commit, rollback,
// update and pre-update hooks of a connection, whose context is the
// connection's `DatabaseObservationBroker` (unretained: the connection owns
// the broker, and removes the hooks before it goes).
//
// The hooks call Swift code that cannot throw: no error crosses the C
// boundary. The error of an observer that prevents a commit goes to the
// connection's channel for callback errors, which the committing statement
// throws.

let brokerCommitHook: @convention(c) (UnsafeMutableRawPointer?) -> CInt = { context in
    guard let context else { return 0 }
    let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context).takeUnretainedValue()
    return broker.transactionWillCommit() ? 1 : 0
}

let brokerRollbackHook: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
    guard let context else { return }
    Unmanaged<DatabaseObservationBroker>.fromOpaque(context).takeUnretainedValue().transactionDidRollback()
}

let brokerUpdateHook: @convention(c) (
    UnsafeMutableRawPointer?, CInt, UnsafePointer<CChar>?, UnsafePointer<CChar>?, sqlite3_int64) -> Void =
{ context, operation, databaseName, tableName, rowID in
    guard let context, let databaseName, let tableName,
          let kind = DatabaseEvent.Kind(rawValue: operation)
    else { return }
    let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context).takeUnretainedValue()
    broker.databaseDidChange(kind: kind, rowID: rowID, databaseName: databaseName, tableName: tableName)
}

let brokerPreUpdateHook: @convention(c) (
    UnsafeMutableRawPointer?, OpaquePointer?, CInt, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
    sqlite3_int64, sqlite3_int64) -> Void =
{ context, connection, operation, databaseName, tableName, initialRowID, finalRowID in
    guard let context, let connection, let databaseName, let tableName,
          let kind = DatabaseEvent.Kind(rawValue: operation)
    else { return }
    let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context).takeUnretainedValue()
    broker.databaseWillChange(
        connection: connection, kind: kind, databaseName: databaseName, tableName: tableName,
        initialRowID: initialRowID, finalRowID: finalRowID)
}
