// The C callbacks of custom SQL functions, aggregates and collations. They
// capture nothing, guard every pointer, and never let a Swift error cross
// into C: a thrown error becomes an SQLite error of the calling statement,
// and is stashed on the connection so that the Swift method that ran the
// statement rethrows it.

/// Reports a Swift error to SQLite, and stashes it for the calling method.
private func report(_ error: any Error, to sqliteContext: OpaquePointer, errors: CallbackErrorStash) {
    // The statement's transaction is rolled back when the statement writes:
    // SQLite may keep the rows written before the failure.
    if let error = error as? DatabaseError {
        // A DatabaseError keeps its code and message, as the statement's own.
        sqlite3_result_error(sqliteContext, error.message ?? "", -1)
        sqlite3_result_error_code(sqliteContext, error.extendedResultCode.rawValue)
        errors.record(error, disposition: .sqliteErrorRollingBack)
    } else {
        sqlite3_result_error(sqliteContext, "\(error)", -1)
        errors.record(error, disposition: .describedRollingBack)
    }
}

private func arguments(_ argc: CInt, _ argv: UnsafeMutablePointer<OpaquePointer?>?) -> [DatabaseValue] {
    guard let argv, argc > 0 else { return [] }
    return (0..<Int(argc)).map { index in
        argv[index].map { DatabaseValue(sqliteValue: $0) } ?? .null
    }
}

private func functionBox(_ sqliteContext: OpaquePointer) -> FunctionBox? {
    guard let userData = sqlite3_user_data(sqliteContext) else { return nil }
    return Unmanaged<FunctionBox>.fromOpaque(userData).takeUnretainedValue()
}

/// xFunc of scalar functions.
let functionCallback: @convention(c) (OpaquePointer?, CInt, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { sqliteContext, argc, argv in
    guard let sqliteContext, let box = functionBox(sqliteContext),
          case .function(let function) = box.function.kind
    else { return }
    do {
        let result = try function(arguments(argc, argv))
        (result?.databaseValue ?? .null).setResult(of: sqliteContext)
    } catch {
        report(error, to: sqliteContext, errors: box.errors)
    }
}

/// The aggregate state of the current group, created on first use. SQLite
/// zeroes the aggregate context, which holds a retained AggregateBox pointer.
private func aggregateBox(_ sqliteContext: OpaquePointer, create: Bool) -> AggregateBox? {
    let size = create ? CInt(MemoryLayout<UnsafeMutableRawPointer?>.size) : 0
    guard let memory = sqlite3_aggregate_context(sqliteContext, size) else { return nil }
    let slot = memory.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    if let pointer = slot.pointee {
        return Unmanaged<AggregateBox>.fromOpaque(pointer).takeUnretainedValue()
    }
    guard create, let functionBox = functionBox(sqliteContext),
          case .aggregate(let factory) = functionBox.function.kind
    else { return nil }
    let box = AggregateBox(aggregate: factory.makeAggregate())
    // Released by the final callback.
    slot.pointee = Unmanaged.passRetained(box).toOpaque()
    return box
}

/// xStep of aggregates.
let aggregateStepCallback: @convention(c) (OpaquePointer?, CInt, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { sqliteContext, argc, argv in
    guard let sqliteContext, let functionBox = functionBox(sqliteContext) else { return }
    guard let box = aggregateBox(sqliteContext, create: true) else {
        sqlite3_result_error_nomem(sqliteContext)
        return
    }
    // After a failed step, SQLite may still call xStep for other rows.
    guard !box.stepFailed else { return }
    do {
        try box.aggregate.step(arguments(argc, argv))
    } catch {
        box.stepFailed = true
        report(error, to: sqliteContext, errors: functionBox.errors)
    }
}

/// xFinal of aggregates: computes the result and releases the state.
let aggregateFinalCallback: @convention(c) (OpaquePointer?) -> Void = { sqliteContext in
    guard let sqliteContext, let functionBox = functionBox(sqliteContext) else { return }
    let box: AggregateBox
    if let memory = sqlite3_aggregate_context(sqliteContext, 0),
       let pointer = memory.assumingMemoryBound(to: UnsafeMutableRawPointer?.self).pointee
    {
        box = Unmanaged<AggregateBox>.fromOpaque(pointer).takeRetainedValue()
        memory.assumingMemoryBound(to: UnsafeMutableRawPointer?.self).pointee = nil
    } else if case .aggregate(let factory) = functionBox.function.kind {
        // No row: the aggregate of an empty group.
        box = AggregateBox(aggregate: factory.makeAggregate())
    } else {
        return
    }
    // SQLite calls xFinal after a failed step too, to release the state:
    // the statement has failed already, and the aggregate is not asked
    // for a result.
    guard !box.stepFailed else { return }
    do {
        let result = try box.aggregate.finalize()
        (result?.databaseValue ?? .null).setResult(of: sqliteContext)
    } catch {
        report(error, to: sqliteContext, errors: functionBox.errors)
    }
}

/// xDestroy of functions and aggregates: releases the FunctionBox.
let functionDestroyCallback: @convention(c) (UnsafeMutableRawPointer?) -> Void = { userData in
    guard let userData else { return }
    Unmanaged<FunctionBox>.fromOpaque(userData).release()
}

/// xCompare of collations.
let collationCallback: @convention(c) (UnsafeMutableRawPointer?, CInt, UnsafeRawPointer?, CInt, UnsafeRawPointer?) -> CInt = { context, lhsCount, lhsBytes, rhsCount, rhsBytes in
    guard let context else { return 0 }
    let collation = Unmanaged<DatabaseCollation>.fromOpaque(context).takeUnretainedValue()
    let lhs = String(decoding: UnsafeRawBufferPointer(start: lhsBytes, count: Int(lhsCount)), as: UTF8.self)
    let rhs = String(decoding: UnsafeRawBufferPointer(start: rhsBytes, count: Int(rhsCount)), as: UTF8.self)
    return CInt(collation.function(lhs, rhs).rawValue)
}

/// xDestroy of collations: releases the DatabaseCollation.
let collationDestroyCallback: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
    guard let context else { return }
    Unmanaged<DatabaseCollation>.fromOpaque(context).release()
}
