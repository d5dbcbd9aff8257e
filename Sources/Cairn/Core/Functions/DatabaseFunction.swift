/// A custom SQL function or aggregate, written in Swift.
///
/// ```swift
/// let reverse = DatabaseFunction("reverse", argumentCount: 1, pure: true) { dbValues in
///     guard let string = String.fromDatabaseValue(dbValues[0]) else { return nil }
///     return String(string.reversed())
/// }
///
/// try dbQueue.write { db in
///     db.add(function: reverse)
///     try String.fetchOne(db, sql: "SELECT reverse('foo')") // "oof"
/// }
/// ```
///
/// A function that throws makes the statement that calls it fail: a thrown
/// ``DatabaseError`` becomes the error of the statement (with its code and
/// message), and any other error becomes an `SQLITE_ERROR` whose message
/// is the description of the error (`"\(error)"`), with the SQL of the
/// statement. When the statement writes, inside a transaction, the
/// transaction is rolled back: SQLite would keep the rows written before
/// the failure.
///
/// Register functions on each connection, with
/// ``Configuration/prepareDatabase(_:)``: pools open several connections.
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/create_function.html>
public final class DatabaseFunction: Hashable, Sendable {
    /// The name of the function.
    public let name: String

    /// The number of arguments; nil for a variable number.
    let argumentCount: CInt?

    /// Whether the function always returns the same result for the same
    /// arguments, without side effect (`SQLITE_DETERMINISTIC`,
    /// `SQLITE_INNOCUOUS`).
    let isPure: Bool

    let kind: Kind

    enum Kind: Sendable {
        case function(@Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?)
        case aggregate(AggregateFactory)
    }

    /// Creates a function.
    ///
    /// - Parameters:
    ///   - name: The SQL name of the function.
    ///   - argumentCount: The number of arguments; nil (the default) accepts
    ///     any number.
    ///   - pure: Whether the result depends only on the arguments, and the
    ///     function has no side effect (default false). SQLite can optimize
    ///     pure functions, and allows them in indexes, CHECK constraints,
    ///     views and triggers (they are registered as deterministic and
    ///     innocuous: `SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS`).
    ///   - function: The body of the function: it receives the arguments and
    ///     returns the result (nil is NULL), or throws.
    public init(
        _ name: String,
        argumentCount: Int? = nil,
        pure: Bool = false,
        function: @escaping @Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?)
    {
        self.name = name
        self.argumentCount = argumentCount.map { CInt($0) }
        self.isPure = pure
        self.kind = .function(function)
    }

    /// Creates an aggregate function.
    ///
    /// ```swift
    /// struct MySum: DatabaseAggregate {
    ///     var sum: Int = 0
    ///     mutating func step(_ dbValues: [DatabaseValue]) {
    ///         if let int = Int.fromDatabaseValue(dbValues[0]) { sum += int }
    ///     }
    ///     func finalize() -> (any DatabaseValueConvertible)? { sum }
    /// }
    ///
    /// let mySum = DatabaseFunction("mysum", argumentCount: 1, aggregate: MySum.self)
    /// db.add(function: mySum)
    /// try Int.fetchOne(db, sql: "SELECT mysum(score) FROM player")
    /// ```
    ///
    /// - Parameters:
    ///   - name: The SQL name of the aggregate.
    ///   - argumentCount: The number of arguments; nil (the default) accepts
    ///     any number.
    ///   - pure: Whether the result depends only on the arguments, without
    ///     side effect (default false).
    ///   - aggregate: The type that computes the aggregate: one instance is
    ///     created for each group.
    public init<Aggregate: DatabaseAggregate>(
        _ name: String,
        argumentCount: Int? = nil,
        pure: Bool = false,
        aggregate: Aggregate.Type)
    {
        self.name = name
        self.argumentCount = argumentCount.map { CInt($0) }
        self.isPure = pure
        self.kind = .aggregate(AggregateFactory(type: Aggregate.self))
    }

    /// Functions are identified by name (without regard to ASCII case) and
    /// argument count, as SQLite identifies them.
    public static func == (lhs: DatabaseFunction, rhs: DatabaseFunction) -> Bool {
        lhs.name.equalsIgnoringASCIICase(rhs.name) && lhs.argumentCount == rhs.argumentCount
    }

    /// Hashes the lowercased name and the argument count.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name.lowercased())
        hasher.combine(argumentCount)
    }

    /// The flags of `sqlite3_create_function_v2`.
    var eTextRep: CInt {
        SQLITE_UTF8 | (isPure ? SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS : 0)
    }
}

/// The protocol of custom aggregate functions: see
/// ``DatabaseFunction/init(_:argumentCount:pure:aggregate:)``.
///
/// An instance is created for each group of rows; it receives the arguments
/// of each row with ``step(_:)``, then computes the result in
/// ``finalize()``.
public protocol DatabaseAggregate {
    /// Creates an empty aggregate.
    init()

    /// Accumulates the arguments of one row.
    ///
    /// - Throws: An error that makes the statement fail.
    mutating func step(_ dbValues: [DatabaseValue]) throws

    /// Returns the result of the aggregate (nil is NULL).
    ///
    /// - Throws: An error that makes the statement fail.
    func finalize() throws -> (any DatabaseValueConvertible)?
}

extension Database {
    /// Registers a custom SQL function or aggregate on this connection,
    /// replacing a function with the same name and argument count.
    ///
    /// The corresponding C function is `sqlite3_create_function_v2`.
    public func add(function: DatabaseFunction) {
        preconditionInsideAccess()
        guard let sqliteConnection else { return }
        let box = FunctionBox(function: function, errors: callbackErrors)
        // SQLite owns the box: it releases it in the destroy callback, when
        // the function is replaced or removed, or the connection closes.
        let context = box.retainedCContext()
        let code: CInt
        switch function.kind {
        case .function:
            code = sqlite3_create_function_v2(
                sqliteConnection, function.name, function.argumentCount ?? -1, function.eTextRep,
                context, functionCallback, nil, nil, functionDestroyCallback)
        case .aggregate:
            code = sqlite3_create_function_v2(
                sqliteConnection, function.name, function.argumentCount ?? -1, function.eTextRep,
                context, nil, aggregateStepCallback, aggregateFinalCallback, functionDestroyCallback)
        }
        // On failure, SQLite has already called the destroy callback.
        stopUnless(code == SQLITE_OK, "Could not add function \(function.name): \(lastErrorMessage ?? "")")
    }

    /// Unregisters a custom SQL function or aggregate.
    ///
    /// The corresponding C function is `sqlite3_create_function_v2`.
    public func remove(function: DatabaseFunction) {
        preconditionInsideAccess()
        guard let sqliteConnection else { return }
        sqlite3_create_function_v2(
            sqliteConnection, function.name, function.argumentCount ?? -1, function.eTextRep,
            nil, nil, nil, nil, nil)
    }
}

/// Creates the aggregate instances of an aggregate function. A metatype is
/// immutable, hence safe to share between threads.
struct AggregateFactory: @unchecked Sendable {
    let type: any DatabaseAggregate.Type

    func makeAggregate() -> any DatabaseAggregate {
        type.init()
    }
}

/// What SQLite keeps for a registered function: the function, and the
/// connection's stash for the Swift errors it throws.
final class FunctionBox: CCallbackContext {
    let function: DatabaseFunction
    let errors: CallbackErrorStash

    init(function: DatabaseFunction, errors: CallbackErrorStash) {
        self.function = function
        self.errors = errors
    }
}

/// The state of one group of an aggregate, kept in SQLite's aggregate
/// context.
final class AggregateBox {
    var aggregate: any DatabaseAggregate

    /// Whether a step threw: the group has no result, and the aggregate is
    /// not finalized.
    var stepFailed = false

    init(aggregate: any DatabaseAggregate) {
        self.aggregate = aggregate
    }
}

// MARK: - Built-in functions

extension DatabaseFunction {
    /// A function of one string argument, registered on every connection.
    ///
    /// - Parameter pure: False for the functions whose result depends on
    ///   the current locale: they must not be used in indexes, CHECK
    ///   constraints or generated columns, whose values would change with
    ///   the locale.
    private static func stringFunction(
        _ name: String,
        pure: Bool = true,
        _ transform: @escaping @Sendable (String) -> String) -> DatabaseFunction
    {
        DatabaseFunction(name, argumentCount: 1, pure: pure) { dbValues in
            // Text only: a number is not converted to its text, as in GRDB.
            guard case .string(let string) = dbValues[0].storage else { return nil }
            return transform(string)
        }
    }

    /// `swiftCapitalizedString(value)`: the Unicode-aware capitalization of
    /// a string (`String.capitalized`); NULL for other values. Registered on
    /// every connection.
    ///
    /// ```swift
    /// try String.fetchOne(db, sql: "SELECT \(DatabaseFunction.capitalize.name)('jérÔME')") // "Jérôme"
    /// ```
    public static let capitalize = stringFunction("swiftCapitalizedString") { $0.capitalized }

    /// `swiftLowercaseString(value)`: the Unicode-aware lowercase of a
    /// string (`String.lowercased()`). Registered on every connection.
    public static let lowercase = stringFunction("swiftLowercaseString") { $0.lowercased() }

    /// `swiftUppercaseString(value)`: the Unicode-aware uppercase of a
    /// string (`String.uppercased()`). Registered on every connection.
    public static let uppercase = stringFunction("swiftUppercaseString") { $0.uppercased() }

    /// `swiftLocalizedCapitalizedString(value)`: the capitalization of a
    /// string in the current locale (`String.localizedCapitalized`).
    /// Registered on every connection.
    public static let localizedCapitalize = stringFunction("swiftLocalizedCapitalizedString", pure: false) { $0.localizedCapitalized }

    /// `swiftLocalizedLowercaseString(value)`: the lowercase of a string in
    /// the current locale (`String.localizedLowercase`). Registered on every
    /// connection.
    public static let localizedLowercase = stringFunction("swiftLocalizedLowercaseString", pure: false) { $0.localizedLowercase }

    /// `swiftLocalizedUppercaseString(value)`: the uppercase of a string in
    /// the current locale (`String.localizedUppercase`). Registered on every
    /// connection.
    public static let localizedUppercase = stringFunction("swiftLocalizedUppercaseString", pure: false) { $0.localizedUppercase }

    /// The functions registered on every connection.
    static let builtIn = [capitalize, lowercase, uppercase, localizedCapitalize, localizedLowercase, localizedUppercase]
}
