import Foundation
import Testing
import Cairn

/// `StatementBinding`: values bound to raw statements, and the direct column
/// reads of dates and date components.
@Suite struct StatementBindingTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
    }

    /// Binds `value` to `SELECT ?, typeof(?1)` with the C interface, and
    /// returns the bind result code, the value and its SQLite type.
    func bound(_ value: some StatementBinding) throws -> (code: CInt, value: DatabaseValue, type: String) {
        try dbQueue.inDatabase { db throws in
            // A statement of the C interface, prepared on the connection.
            var sqliteStatement: SQLiteStatement?
            let prepareCode = sqlite3_prepare_v2(db.sqliteConnection, "SELECT ?1, typeof(?1)", -1, &sqliteStatement, nil)
            let statement = try #require(sqliteStatement)
            defer { sqlite3_finalize(statement) }
            #expect(prepareCode == SQLITE_OK)
            let code = value.bind(to: statement, at: 1)
            #expect(sqlite3_step(statement) == SQLITE_ROW)
            let dbValue = DatabaseValue(sqliteStatement: statement, index: 0)
            let type = String(cString: sqlite3_column_text(statement, 1))
            return (code, dbValue, type)
        }
    }

    @Test func valuesBindThemselves() throws {
        var result = try bound(42)
        #expect(result.code == SQLITE_OK && result.value == 42.databaseValue && result.type == "integer")
        result = try bound(Int8(-3))
        #expect(result.value == (-3).databaseValue && result.type == "integer")
        result = try bound(UInt64.max)
        #expect(result.type == "real")
        result = try bound(true)
        #expect(result.value == 1.databaseValue && result.type == "integer")
        result = try bound(1.5)
        #expect(result.value == 1.5.databaseValue && result.type == "real")
        result = try bound(Float(0.25))
        #expect(result.value == 0.25.databaseValue && result.type == "real")
        result = try bound("Jérôme")
        #expect(result.value == "Jérôme".databaseValue && result.type == "text")
        result = try bound("")
        #expect(result.value == "".databaseValue && result.type == "text")
        result = try bound(Data([1, 2, 3]))
        #expect(result.value == Data([1, 2, 3]).databaseValue && result.type == "blob")
        result = try bound(Data())
        #expect(result.type == "blob")
        result = try bound(DatabaseValue.null)
        #expect(result.value.isNull && result.type == "null")
        result = try bound(Int?.none)
        #expect(result.value.isNull && result.type == "null")
        result = try bound(Int?.some(7))
        #expect(result.value == 7.databaseValue)
        let date = Date(timeIntervalSince1970: 0)
        result = try bound(date)
        #expect(result.value == "1970-01-01 00:00:00.000".databaseValue)
        result = try bound(DatabaseDateComponents(DateComponents(hour: 12, minute: 30), format: .HM))
        #expect(result.value == "12:30".databaseValue)
    }

    @Test func bindingOutOfRangeReturnsTheErrorCode() throws {
        try dbQueue.inDatabase { db throws in
            let statement = try db.makeStatement(sql: "SELECT ?")
            #expect(42.bind(to: statement.sqliteStatement, at: 2) == SQLITE_RANGE)
            #expect("a".bind(to: statement.sqliteStatement, at: 0) == SQLITE_RANGE)
            #expect(Int?.none.bind(to: statement.sqliteStatement, at: 3) == SQLITE_RANGE)
        }
    }

    private enum Grape: String, DatabaseValueConvertible {
        case merlot
    }

    /// A value type that overrides the database value of its raw value.
    private enum Flag: Int, DatabaseValueConvertible {
        case on = 1
        var databaseValue: DatabaseValue { "flag-\(rawValue)".databaseValue }
    }

    @Test func rawRepresentableValuesBindTheirDatabaseValue() throws {
        #expect(try bound(Grape.merlot).value == "merlot".databaseValue)
        // The database value of the type wins over its raw value.
        #expect(try bound(Flag.on).value == "flag-1".databaseValue)
        // Statement arguments agree.
        try dbQueue.inDatabase { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [Flag.on]) == "flag-1")
        }
    }

    @Test func databaseValueFromAnyValue() {
        #expect(DatabaseValue(value: 42) == 42.databaseValue)
        #expect(DatabaseValue(value: "Arthur") == "Arthur".databaseValue)
        #expect(DatabaseValue(value: Int?.none as Any) == .null)
        #expect(DatabaseValue(value: DatabaseValue.null) == .null)
        #expect(DatabaseValue(value: NSObject()) == nil)
        #expect(DatabaseValue(value: [1, 2]) == nil)
        let dictionary: [String: Any] = ["score": 1000]
        #expect(dictionary["score"].flatMap(DatabaseValue.init(value:)) == 1000.databaseValue)
    }

    @Test func storageEqualityComparesStorageClasses() {
        #expect(DatabaseValue.Storage.int64(1) == .int64(1))
        #expect(DatabaseValue.Storage.int64(1) != .double(1))
        #expect(DatabaseValue.Storage.string("a") == .string("a"))
        #expect(DatabaseValue.Storage.blob(Data([1])) != .string("\u{1}"))
        #expect(DatabaseValue.Storage.null == .null)
        // DatabaseValue compares as SQLite does.
        #expect(1.databaseValue == 1.0.databaseValue)
    }

    @Test func datesReadColumnsDirectly() throws {
        try dbQueue.inDatabase { db throws in
            let sql = "SELECT '2015-07-22 01:02:03.456' UNION ALL SELECT 86400 UNION ALL SELECT 1.5"
            // A cursor reads the columns directly; fetchAll of rows goes
            // through database values: both agree.
            let direct = try Array(Date.fetchCursor(db, sql: sql))
            let rows = try Row.fetchAll(db, sql: sql)
            let converted = rows.map { Date.fromDatabaseValue($0[0])! }
            #expect(direct == converted)
            #expect(direct[1] == Date(timeIntervalSince1970: 86400))
            // A number in text is not a date, on both paths.
            #expect(throws: RowDecodingError.self) { try Date.fetchOne(db, sql: "SELECT '2440587.5'") }
            #expect(Date.fromDatabaseValue("2440587.5".databaseValue) == nil)
            #expect(direct[2] == Date(timeIntervalSince1970: 1.5))
            // Not dates
            #expect(throws: RowDecodingError.self) {
                _ = try Date.fetchAll(db, sql: "SELECT 'nope'")
            }
            #expect(throws: RowDecodingError.self) {
                _ = try Date.fetchAll(db, sql: "SELECT '12:30'") // a time without a date
            }
            #expect(try Date?.fetchAll(db, sql: "SELECT NULL") == [nil])
        }
    }

    @Test func dateComponentsReadColumnsDirectly() throws {
        try dbQueue.inDatabase { db throws in
            let components = try #require(try DatabaseDateComponents.fetchOne(db, sql: "SELECT '12:30:15'"))
            #expect(components.format == .HMS)
            #expect(components.dateComponents.hour == 12)
            #expect(components.dateComponents.second == 15)
            let cursor = try DatabaseDateComponents.fetchCursor(db, sql: "SELECT '2018-04-21' UNION ALL SELECT 'x'")
            #expect(try cursor.next()?.format == .YMD)
            #expect(throws: RowDecodingError.self) { _ = try cursor.next() }
            #expect(throws: RowDecodingError.self) {
                _ = try DatabaseDateComponents.fetchAll(db, sql: "SELECT 42")
            }
        }
    }
}
