internal import CairnSQLiteShims

// The C side of table-valued functions written in Swift: one SQLite virtual
// table module, shared by every function, whose callbacks find their Swift
// objects in the structures that SQLite gives them.
//
// - The module's client data is a `TableFunctionRegistration` (the function
//   and its connection's callback-error channel), retained by SQLite and
//   released by the module's destructor.
// - Each virtual table (`_cairn_vtab`, one per connection and function: the
//   functions are eponymous) retains the registration; xDisconnect releases
//   it and frees the structure.
// - Each cursor (`_cairn_vtab_cursor`) retains a `TableFunctionCursor`,
//   which holds the rows of the current call; xClose releases it and frees
//   the structure.
//
// The callbacks capture nothing, guard every pointer, and never let a Swift
// error cross into C: an error is kept in the connection's callback-error
// channel, its description goes to the virtual table's error message, and
// the callback returns SQLITE_ERROR.

/// What SQLite keeps for a registered table function.
final class TableFunctionRegistration: CCallbackContext {
    let function: DatabaseTableFunction
    let errors: CallbackErrorStash

    init(function: DatabaseTableFunction, errors: CallbackErrorStash) {
        self.function = function
        self.errors = errors
    }
}

/// The state of one cursor: the arguments and the rows of the current call.
final class TableFunctionCursor: CCallbackContext {
    let registration: TableFunctionRegistration
    var arguments: [DatabaseValue] = []
    var rows: (any TableFunctionRows)?
    var isAtEnd = true
    var rowID: Int64 = 0

    init(registration: TableFunctionRegistration) {
        self.registration = registration
    }
}

extension Database {
    /// Registers the module of a table function; returns SQLite's result
    /// code. SQLite owns a reference to the registration, which the
    /// module's destructor releases (also when the registration fails).
    func registerTableFunction(_ registration: TableFunctionRegistration, on connection: SQLiteConnection) -> CInt {
        sqlite3_create_module_v2(
            connection, registration.function.name, TableFunctionModule.shared.pointer,
            registration.retainedCContext(), tableFunctionModuleDestroy)
    }
}

/// The module of every table function: SQLite keeps its address for as long
/// as a function is registered, so it is allocated once and never freed.
struct TableFunctionModule: @unchecked Sendable {
    /// Immutable once made.
    let pointer: UnsafeMutablePointer<sqlite3_module>

    static let shared: TableFunctionModule = {
        let module = UnsafeMutablePointer<sqlite3_module>.allocate(capacity: 1)
        module.initialize(to: sqlite3_module())
        module.pointee.iVersion = 1
        // No xCreate: the functions are eponymous-only virtual tables.
        module.pointee.xConnect = tableFunctionConnect
        module.pointee.xBestIndex = tableFunctionBestIndex
        module.pointee.xDisconnect = tableFunctionDisconnect
        module.pointee.xDestroy = tableFunctionDisconnect
        module.pointee.xOpen = tableFunctionOpen
        module.pointee.xClose = tableFunctionClose
        module.pointee.xFilter = tableFunctionFilter
        module.pointee.xNext = tableFunctionNext
        module.pointee.xEof = tableFunctionEof
        module.pointee.xColumn = tableFunctionColumn
        module.pointee.xRowid = tableFunctionRowid
        // No xUpdate: the tables are read-only.
        return TableFunctionModule(pointer: module)
    }()
}

/// The destructor of the module's client data.
private let tableFunctionModuleDestroy: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
    guard let context else { return }
    TableFunctionRegistration.releaseCContext(context)
}

/// The Cairn structure of a virtual table.
private func cairnTable(_ table: UnsafeMutablePointer<sqlite3_vtab>) -> UnsafeMutablePointer<_cairn_vtab> {
    // `base` is the first member of `_cairn_vtab`.
    UnsafeMutableRawPointer(table).assumingMemoryBound(to: _cairn_vtab.self)
}

/// The Cairn structure of a cursor.
private func cairnCursor(_ cursor: UnsafeMutablePointer<sqlite3_vtab_cursor>) -> UnsafeMutablePointer<_cairn_vtab_cursor> {
    // `base` is the first member of `_cairn_vtab_cursor`.
    UnsafeMutableRawPointer(cursor).assumingMemoryBound(to: _cairn_vtab_cursor.self)
}

/// The registration of a virtual table.
private func registration(_ table: UnsafeMutablePointer<sqlite3_vtab>?) -> TableFunctionRegistration? {
    guard let table, let context = cairnTable(table).pointee.context else { return nil }
    return Unmanaged<TableFunctionRegistration>.fromOpaque(context).takeUnretainedValue()
}

/// The state of a cursor.
private func cursorState(_ cursor: UnsafeMutablePointer<sqlite3_vtab_cursor>?) -> TableFunctionCursor? {
    guard let cursor, let context = cairnCursor(cursor).pointee.context else { return nil }
    return Unmanaged<TableFunctionCursor>.fromOpaque(context).takeUnretainedValue()
}

/// A copy of a Swift string in memory of `sqlite3_malloc`, which SQLite
/// frees (error messages).
private func sqliteString(_ string: String) -> UnsafeMutablePointer<CChar>? {
    let utf8 = Array(string.utf8)
    guard let memory = sqlite3_malloc64(UInt64(utf8.count + 1)) else { return nil }
    let characters = memory.bindMemory(to: CChar.self, capacity: utf8.count + 1)
    utf8.withUnsafeBytes { bytes in
        UnsafeMutableRawPointer(characters).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
    }
    characters[utf8.count] = 0
    return characters
}

/// Keeps the error of a cursor's Swift code for the statement, gives its
/// description to SQLite, and returns the result code for SQLite.
private func report(_ error: any Error, cursor: UnsafeMutablePointer<sqlite3_vtab_cursor>, state: TableFunctionCursor) -> CInt {
    let message: String
    let code: CInt
    if let error = error as? DatabaseError {
        message = error.message ?? "table function error"
        code = error.extendedResultCode.rawValue
    } else {
        message = "\(error)"
        code = SQLITE_ERROR
    }
    // The statement's transaction is rolled back when the statement writes
    // (`INSERT INTO log SELECT … FROM function()`): SQLite keeps the rows
    // written before the failure.
    state.registration.errors.record(error, disposition: .describedRollingBack)
    if let table = cursor.pointee.pVtab {
        sqlite3_free(table.pointee.zErrMsg)
        table.pointee.zErrMsg = sqliteString(message)
    }
    return code == SQLITE_OK ? SQLITE_ERROR : code
}

private let tableFunctionConnect: @convention(c) (
    OpaquePointer?, UnsafeMutableRawPointer?, CInt, UnsafePointer<UnsafePointer<CChar>?>?,
    UnsafeMutablePointer<UnsafeMutablePointer<sqlite3_vtab>?>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt = { connection, context, _, _, tableOut, errorOut in
    guard let connection, let context, let tableOut else { return SQLITE_ERROR }
    let registration = Unmanaged<TableFunctionRegistration>.fromOpaque(context).takeUnretainedValue()
    let code = sqlite3_declare_vtab(connection, registration.function.tableDeclaration)
    guard code == SQLITE_OK else {
        errorOut?.pointee = sqliteString("cannot declare the table function \(registration.function.name)")
        return code
    }
    guard let memory = sqlite3_malloc64(UInt64(MemoryLayout<_cairn_vtab>.stride)) else { return SQLITE_NOMEM }
    let table = memory.bindMemory(to: _cairn_vtab.self, capacity: 1)
    table.initialize(to: _cairn_vtab())
    // Released by xDisconnect.
    table.pointee.context = registration.retainedCContext()
    tableOut.pointee = UnsafeMutableRawPointer(table).assumingMemoryBound(to: sqlite3_vtab.self)
    return SQLITE_OK
}

private let tableFunctionDisconnect: @convention(c) (UnsafeMutablePointer<sqlite3_vtab>?) -> CInt = { table in
    guard let table else { return SQLITE_OK }
    let cairnTable = cairnTable(table)
    if let context = cairnTable.pointee.context {
        TableFunctionRegistration.releaseCContext(context)
    }
    sqlite3_free(table.pointee.zErrMsg)
    cairnTable.deinitialize(count: 1)
    sqlite3_free(cairnTable)
    return SQLITE_OK
}

/// Gives the equality constraints on the parameters to xFilter, in the
/// order of the parameters; idxNum tells which parameters have one. A
/// parameter that is constrained by a value that is not known yet (a
/// column of a table that the query joins later) makes the plan unusable,
/// so that SQLite finds the plan that knows it.
private let tableFunctionBestIndex: @convention(c) (
    UnsafeMutablePointer<sqlite3_vtab>?, UnsafeMutablePointer<sqlite3_index_info>?
) -> CInt = { table, info in
    guard let info, let registration = registration(table) else { return SQLITE_ERROR }
    let columnCount = registration.function.columns.count
    let parameterCount = registration.function.parameters.count
    var chosen = [Int?](repeating: nil, count: parameterCount)
    var unusable = [Bool](repeating: false, count: parameterCount)
    for index in 0..<Int(info.pointee.nConstraint) {
        let constraint = info.pointee.aConstraint[index]
        let parameter = Int(constraint.iColumn) - columnCount
        guard parameter >= 0, parameter < parameterCount,
              constraint.op == UInt8(SQLITE_INDEX_CONSTRAINT_EQ)
        else { continue }
        if constraint.usable == 0 {
            unusable[parameter] = true
        } else if chosen[parameter] == nil {
            chosen[parameter] = index
        }
    }
    var argumentIndex: CInt = 0
    var mask: CInt = 0
    for parameter in 0..<parameterCount {
        if let index = chosen[parameter] {
            argumentIndex += 1
            info.pointee.aConstraintUsage[index].argvIndex = argumentIndex
            info.pointee.aConstraintUsage[index].omit = 1
            mask |= 1 << CInt(parameter)
        } else if unusable[parameter] {
            return SQLITE_CONSTRAINT
        }
    }
    info.pointee.idxNum = mask
    // Fewer missing arguments, cheaper plan.
    let missing = parameterCount - Int(argumentIndex)
    info.pointee.estimatedCost = Double(1000 * (missing + 1))
    info.pointee.estimatedRows = 1000
    return SQLITE_OK
}

private let tableFunctionOpen: @convention(c) (
    UnsafeMutablePointer<sqlite3_vtab>?, UnsafeMutablePointer<UnsafeMutablePointer<sqlite3_vtab_cursor>?>?
) -> CInt = { table, cursorOut in
    guard let cursorOut, let registration = registration(table) else { return SQLITE_ERROR }
    guard let memory = sqlite3_malloc64(UInt64(MemoryLayout<_cairn_vtab_cursor>.stride)) else { return SQLITE_NOMEM }
    let cursor = memory.bindMemory(to: _cairn_vtab_cursor.self, capacity: 1)
    cursor.initialize(to: _cairn_vtab_cursor())
    // Released by xClose.
    cursor.pointee.context = TableFunctionCursor(registration: registration).retainedCContext()
    cursorOut.pointee = UnsafeMutableRawPointer(cursor).assumingMemoryBound(to: sqlite3_vtab_cursor.self)
    return SQLITE_OK
}

private let tableFunctionClose: @convention(c) (UnsafeMutablePointer<sqlite3_vtab_cursor>?) -> CInt = { cursor in
    guard let cursor else { return SQLITE_OK }
    let cairnCursor = cairnCursor(cursor)
    if let context = cairnCursor.pointee.context {
        TableFunctionCursor.releaseCContext(context)
    }
    cairnCursor.deinitialize(count: 1)
    sqlite3_free(cairnCursor)
    return SQLITE_OK
}

private let tableFunctionFilter: @convention(c) (
    UnsafeMutablePointer<sqlite3_vtab_cursor>?, CInt, UnsafePointer<CChar>?, CInt, UnsafeMutablePointer<OpaquePointer?>?
) -> CInt = { cursor, mask, _, argumentCount, arguments in
    guard let cursor, let state = cursorState(cursor) else { return SQLITE_ERROR }
    let function = state.registration.function
    var values = [DatabaseValue](repeating: .null, count: function.parameters.count)
    var argumentIndex = 0
    for parameter in values.indices where mask & (1 << CInt(parameter)) != 0 {
        guard argumentIndex < Int(argumentCount), let argument = arguments?[argumentIndex] else { break }
        values[parameter] = DatabaseValue(sqliteValue: argument)
        argumentIndex += 1
    }
    state.arguments = values
    state.rowID = 0
    state.rows = nil
    state.isAtEnd = true
    do {
        let rows = try function.makeRows(values)
        state.rows = rows
        state.isAtEnd = try !rows.advance()
        return SQLITE_OK
    } catch {
        return report(error, cursor: cursor, state: state)
    }
}

private let tableFunctionNext: @convention(c) (UnsafeMutablePointer<sqlite3_vtab_cursor>?) -> CInt = { cursor in
    guard let cursor, let state = cursorState(cursor) else { return SQLITE_ERROR }
    guard let rows = state.rows, !state.isAtEnd else { return SQLITE_OK }
    do {
        state.isAtEnd = try !rows.advance()
        state.rowID += 1
        return SQLITE_OK
    } catch {
        state.isAtEnd = true
        return report(error, cursor: cursor, state: state)
    }
}

private let tableFunctionEof: @convention(c) (UnsafeMutablePointer<sqlite3_vtab_cursor>?) -> CInt = { cursor in
    guard let state = cursorState(cursor) else { return 1 }
    return state.isAtEnd ? 1 : 0
}

private let tableFunctionColumn: @convention(c) (
    UnsafeMutablePointer<sqlite3_vtab_cursor>?, OpaquePointer?, CInt
) -> CInt = { cursor, context, column in
    guard let context, let state = cursorState(cursor), let rows = state.rows, !state.isAtEnd else {
        return SQLITE_ERROR
    }
    let columnCount = state.registration.function.columns.count
    let index = Int(column)
    if index < columnCount {
        rows.value(ofColumn: index).setResult(of: context)
    } else if index - columnCount < state.arguments.count {
        state.arguments[index - columnCount].setResult(of: context)
    } else {
        sqlite3_result_null(context)
    }
    return SQLITE_OK
}

private let tableFunctionRowid: @convention(c) (
    UnsafeMutablePointer<sqlite3_vtab_cursor>?, UnsafeMutablePointer<sqlite3_int64>?
) -> CInt = { cursor, rowID in
    guard let rowID, let state = cursorState(cursor) else { return SQLITE_ERROR }
    rowID.pointee = state.rowID
    return SQLITE_OK
}
