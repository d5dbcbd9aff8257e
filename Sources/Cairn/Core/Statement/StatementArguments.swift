/// The values that fill the parameters of an SQL statement: positional `?`
/// parameters, and named `:name`, `$name` or `@name` parameters.
///
/// Build arguments from an array literal for positional parameters, and from
/// a dictionary literal for named parameters:
///
/// ```swift
/// try db.execute(
///     sql: "INSERT INTO player (name, score) VALUES (?, ?)",
///     arguments: ["Arthur", 1000])
///
/// try db.execute(
///     sql: "INSERT INTO player (name, score) VALUES (:name, :score)",
///     arguments: ["name": "Barbara", "score": 1000])
/// ```
///
/// Arguments are checked against the statement before it runs: a missing or
/// extra value throws a ``DatabaseError``, and nothing is executed.
///
/// When a statement mixes named and positional parameters, a parameter takes
/// its named value when there is one, and the next positional value
/// otherwise.
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_expr.html#varparam>
public struct StatementArguments: Hashable, Sendable {
    /// The positional values.
    @usableFromInline var positional: PositionalValues

    /// The named values, keyed by name without prefix (`"name"` for `:name`).
    @usableFromInline var namedValues: NamedValues

    /// The positional values, converted to database values.
    var values: [DatabaseValue] {
        get { positional.databaseValues }
        _modify {
            var values = positional.databaseValues
            positional = .converted([])  // keeps `values` uniquely referenced
            defer { positional = .converted(values) }
            yield &values
        }
    }

    /// Whether there is no value at all.
    public var isEmpty: Bool { positional.count == 0 && namedValues.isEmpty }

    /// Creates empty arguments.
    public init() {
        positional = .converted([])
        namedValues = NamedValues()
    }

    /// Creates positional arguments from database values, without copy.
    init(values: [DatabaseValue]) {
        self.positional = .converted(values)
        self.namedValues = NamedValues()
    }

    /// Creates arguments that hold one positional value, without
    /// allocating an array (a lookup by primary key binds one value).
    init(singleValue value: DatabaseValue) {
        self.positional = .single(value)
        self.namedValues = NamedValues()
    }

    /// Creates positional arguments from a sequence of optional values.
    ///
    /// ```swift
    /// let values: [(any DatabaseValueConvertible)?] = ["foo", 1, nil]
    /// db.execute(sql: "INSERT ... (?,?,?)", arguments: StatementArguments(values))
    /// ```
    public init<S: Sequence>(_ sequence: S) where S.Element == (any DatabaseValueConvertible)? {
        positional = .converted(sequence.map { $0?.databaseValue ?? .null })
        namedValues = NamedValues()
    }

    /// Creates positional arguments from a sequence of values.
    ///
    /// ```swift
    /// let ids = [1, 2, 3]
    /// db.execute(sql: "DELETE ... (?,?,?)", arguments: StatementArguments(ids))
    /// ```
    public init<S: Sequence>(_ sequence: S) where S.Element: DatabaseValueConvertible {
        positional = .converted(sequence.map { $0.databaseValue })
        namedValues = NamedValues()
    }

    /// Creates named arguments from a dictionary. Keys are parameter names
    /// without prefix.
    ///
    /// ```swift
    /// let values: [String: (any DatabaseValueConvertible)?] = ["firstName": nil, "lastName": "Miller"]
    /// db.execute(sql: "INSERT ... (:firstName, :lastName)", arguments: StatementArguments(values))
    /// ```
    public init(_ dictionary: [String: (any DatabaseValueConvertible)?]) {
        self.init(dictionary.map { ($0.key, $0.value) })
    }

    /// Creates named arguments from a sequence of (name, value) pairs. When a
    /// name appears twice, the last value wins.
    public init<S: Sequence>(_ sequence: S) where S.Element == (String, (any DatabaseValueConvertible)?) {
        positional = .converted([])
        namedValues = NamedValues()
        for (name, value) in sequence {
            namedValues[name] = value?.databaseValue ?? .null
        }
    }

    /// The named value for `key` (a parameter name without prefix).
    public subscript(key: String) -> DatabaseValue? {
        get { namedValues[key] }
        set { namedValues[key] = newValue }
    }

    /// Appends the values of `arguments`: positional values are appended, and
    /// named values are added.
    ///
    /// - Returns: The names whose values were replaced by `arguments`, with
    ///   their former values.
    @discardableResult
    public mutating func append(contentsOf arguments: StatementArguments) -> [String: DatabaseValue] {
        var replaced: [String: DatabaseValue] = [:]
        values.append(contentsOf: arguments.values)
        for element in arguments.namedValues.elements {
            if let old = namedValues.updateValue(element.value, forName: element.name) {
                replaced[element.name] = old
            }
        }
        return replaced
    }

    /// Returns arguments that hold the positional values of both operands,
    /// and the named values of both.
    ///
    /// It is a programmer error to give a name a value in both operands (use
    /// `&+` to let the right operand win).
    public static func + (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
        var result = lhs
        result += rhs
        return result
    }

    /// Appends the positional values of `rhs` to `lhs`, and adds its named
    /// values.
    ///
    /// It is a programmer error to give a name a value in both operands.
    public static func += (lhs: inout StatementArguments, rhs: StatementArguments) {
        let replaced = lhs.append(contentsOf: rhs)
        stopUnless(replaced.isEmpty,
            "Named arguments defined on both sides of +: \(replaced.keys.sorted()). Use &+ to keep the right values.")
    }

    /// Returns arguments that hold the positional values of both operands,
    /// and the named values of both; the right operand overrides the left
    /// one when a name has a value in both.
    ///
    /// ```swift
    /// let arguments: StatementArguments = ["name": "Arthur", "score": 0] &+ ["score": 10]
    /// // ["name": "Arthur", "score": 10]
    /// ```
    public static func &+ (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
        var result = lhs
        _ = result.append(contentsOf: rhs)
        return result
    }
}

extension StatementArguments {
    /// Arguments are equal when they hold the same positional values, in
    /// order, and the same named values, in any order.
    public static func == (lhs: StatementArguments, rhs: StatementArguments) -> Bool {
        lhs.values == rhs.values && lhs.namedValues == rhs.namedValues
    }

    /// Hashes the positional and named values, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(values)
        hasher.combine(namedValues)
    }
}

/// The positional values of statement arguments.
///
/// The values of an array literal (`[row, name, score]`) are kept as the
/// literal gives them, and converted to database values when they are
/// bound: a statement executed in a loop with literal arguments allocates
/// nothing beyond the literal's own array. This needs the layout of
/// optional existentials that `LayoutAssumptions.swift` probes, and whose
/// readers it holds: without it, literals are converted at once. Only values of immutable standard
/// types are kept unconverted (see ``isDeferrableLiteralValue(at:)``), which
/// keeps arguments `Sendable`: a literal that holds any other value is
/// converted at once.
@usableFromInline
enum PositionalValues: @unchecked Sendable {
    /// Converted values.
    case converted([DatabaseValue])

    /// The elements of an array literal, of deferrable types only.
    case literal([(any DatabaseValueConvertible)?])

    /// One value, without an array: the key of a lookup by primary key
    /// (see ``StatementArguments/init(singleValue:)``).
    case single(DatabaseValue)

    /// The number of values.
    var count: Int {
        switch self {
        case .converted(let values): values.count
        case .literal(let elements): elements.count
        case .single: 1
        }
    }

    /// The values, converted.
    var databaseValues: [DatabaseValue] {
        switch self {
        case .converted(let values):
            return values
        case .literal(let elements):
            return elements.withUnsafeBufferPointer(convertLiteralValues)
        case .single(let value):
            return [value]
        }
    }
}

/// A named statement argument.
@usableFromInline
struct NamedValue: Hashable, Sendable {
    /// The name of the parameter, without prefix.
    @usableFromInline var name: String
    @usableFromInline var value: DatabaseValue

    @inlinable init(name: String, value: DatabaseValue) {
        self.name = name
        self.value = value
    }
}

/// Named statement arguments, in the order they were given.
///
/// Statements usually list their parameters in the order of the arguments,
/// so a lookup starts at the expected position: binding named arguments
/// hashes nothing, and usually compares one name per parameter.
///
/// As positional values, the elements of a dictionary literal are kept as
/// given when their values are of deferrable types, and converted when they
/// are looked up.
@usableFromInline
struct NamedValues: Hashable, Sendable {
    /// The elements of a dictionary literal.
    @usableFromInline typealias LiteralElement = (String, (any DatabaseValueConvertible)?)

    @usableFromInline
    enum Storage: @unchecked Sendable {
        /// Converted values.
        case converted([NamedValue])

        /// The elements of a dictionary literal, with unique names, and
        /// values of deferrable types only.
        case literal([LiteralElement])
    }

    @usableFromInline var storage: Storage

    @inlinable init() {
        storage = .converted([])
    }

    /// Named values whose names are known to be unique.
    @inlinable init(uniqueElements: [NamedValue]) {
        storage = .converted(uniqueElements)
    }

    /// The elements of a dictionary literal whose names are unique, and
    /// whose values are all deferrable.
    @inlinable init(uniqueDeferrableLiteral elements: [LiteralElement]) {
        storage = .literal(elements)
    }

    /// The named values, converted.
    var elements: [NamedValue] {
        switch storage {
        case .converted(let elements):
            return elements
        case .literal(let elements):
            return elements.withUnsafeBufferPointer(convertLiteralElements)
        }
    }

    var isEmpty: Bool {
        switch storage {
        case .converted(let elements): elements.isEmpty
        case .literal(let elements): elements.isEmpty
        }
    }

    /// The value for a name, searched from position `hint` first.
    func value(forName name: String, hint: Int = 0) -> DatabaseValue? {
        switch storage {
        case .converted(let elements):
            return elements.withUnsafeBufferPointer { buffer in
                let position = Self.position(ofName: name, hint: hint, count: buffer.count) { buffer[$0].name == name }
                return position.map { buffer[$0].value }
            }
        case .literal(let elements):
            return elements.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return nil }
                let position = Self.position(ofName: name, hint: hint, count: buffer.count) {
                    literalElement(at: base + $0, hasName: name)
                }
                return position.map { databaseValue(at: literalValue(at: base + $0)) }
            }
        }
    }

    /// Binds the value of each parameter, in order, to a statement.
    ///
    /// Statements usually list their parameters in the order of the
    /// arguments: the value of a parameter is searched at the position of
    /// the parameter first. The storage is read once for all parameters.
    ///
    /// - Parameter names: The names of the parameters.
    /// - Returns: nil when every parameter is bound. Otherwise, the index of
    ///   the first parameter that failed, and the result code of
    ///   `sqlite3_bind_*`, or nil when there is no value for its name.
    func bind(parameters names: UnsafeBufferPointer<String>, to sqliteStatement: SQLiteStatement) -> (index: Int, code: CInt?)? {
        switch storage {
        case .converted(let elements):
            return elements.withUnsafeBufferPointer { buffer in
                for index in 0..<names.count {
                    let name = names[index]
                    guard let position = Self.position(ofName: name, hint: index, count: buffer.count, hasName: { buffer[$0].name == name }) else {
                        return (index, nil)
                    }
                    let code = buffer[position].value.bind(to: sqliteStatement, at: CInt(truncatingIfNeeded: index + 1))
                    if code != SQLITE_OK { return (index, code) }
                }
                return nil
            }
        case .literal(let elements):
            return elements.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress, let nameBase = names.baseAddress else {
                    return names.isEmpty ? nil : (0, nil)
                }
                // Usually, the keys come in the order of the parameters, as
                // strings with the same bits (short names are stored in the
                // string itself): those are bound without a search.
                var index = 0
                let count = StringBits.identifyStrings ? Swift.min(names.count, buffer.count) : 0
                while index < count && literalElement(at: base + index, hasBitsOf: nameBase + index) {
                    let code = bindLiteralValue(
                        at: literalValue(at: base + index), to: sqliteStatement, at: CInt(truncatingIfNeeded: index &+ 1))
                    if code != SQLITE_OK { return (index, code) }
                    index &+= 1
                }
                // The other parameters are searched by name.
                for index in index..<names.count {
                    let name = names[index]
                    guard let position = Self.position(ofName: name, hint: index, count: buffer.count, hasName: {
                        literalElement(at: base + $0, hasName: name)
                    }) else {
                        return (index, nil)
                    }
                    let code = bindLiteralValue(
                        at: literalValue(at: base + position), to: sqliteStatement, at: CInt(truncatingIfNeeded: index + 1))
                    if code != SQLITE_OK { return (index, code) }
                }
                return nil
            }
        }
    }

    /// The position of a name, searched from position `hint` first, and
    /// wrapping around.
    @inline(__always)
    private static func position(ofName name: String, hint: Int, count: Int, hasName: (Int) -> Bool) -> Int? {
        guard count > 0 else { return nil }
        var position = hint < count && hint >= 0 ? hint : 0
        for _ in 0..<count {
            if hasName(position) { return position }
            position += 1
            if position == count { position = 0 }
        }
        return nil
    }

    subscript(name: String) -> DatabaseValue? {
        get { value(forName: name) }
        set {
            var elements = self.elements
            if let index = elements.firstIndex(where: { $0.name == name }) {
                if let newValue {
                    elements[index].value = newValue
                } else {
                    elements.remove(at: index)
                }
            } else if let newValue {
                elements.append(NamedValue(name: name, value: newValue))
            }
            storage = .converted(elements)
        }
    }

    /// Sets a value, and returns the value it replaces.
    mutating func updateValue(_ value: DatabaseValue, forName name: String) -> DatabaseValue? {
        var elements = self.elements
        defer { storage = .converted(elements) }
        if let index = elements.firstIndex(where: { $0.name == name }) {
            let old = elements[index].value
            elements[index].value = value
            return old
        }
        elements.append(NamedValue(name: name, value: value))
        return nil
    }

    /// Named values are equal when they hold the same values for the same
    /// names, in any order.
    @usableFromInline
    static func == (lhs: NamedValues, rhs: NamedValues) -> Bool {
        let lhsElements = lhs.elements
        guard lhsElements.count == rhs.elements.count else { return false }
        return lhsElements.allSatisfy { rhs.value(forName: $0.name) == $0.value }
    }

    /// Hashes consistently with `==`, whatever the order.
    @usableFromInline
    func hash(into hasher: inout Hasher) {
        let elements = self.elements
        hasher.combine(elements.count)
        var combined = 0
        for element in elements {
            var elementHasher = Hasher()
            elementHasher.combine(element.name)
            elementHasher.combine(element.value)
            combined ^= elementHasher.finalize()
        }
        hasher.combine(combined)
    }
}

// MARK: - Literal values

/// Converts the elements of an array literal.
@inlinable
func convertLiteralValues(_ source: UnsafeBufferPointer<(any DatabaseValueConvertible)?>) -> [DatabaseValue] {
    // An empty array is the shared empty storage, whose header
    // `unsafeUninitializedCapacity` would write (a data race with other
    // threads that read it).
    if source.isEmpty { return [] }
    return [DatabaseValue](unsafeUninitializedCapacity: source.count) { buffer, initializedCount in
        for index in 0..<source.count {
            (buffer.baseAddress.unsafelyUnwrapped + index).initialize(
                to: databaseValue(at: source.baseAddress.unsafelyUnwrapped + index))
        }
        initializedCount = source.count
    }
}

/// Converts the elements of a dictionary literal.
@inlinable
func convertLiteralElements(_ source: UnsafeBufferPointer<NamedValues.LiteralElement>) -> [NamedValue] {
    // See convertLiteralValues.
    if source.isEmpty { return [] }
    return [NamedValue](unsafeUninitializedCapacity: source.count) { buffer, initializedCount in
        for index in 0..<source.count {
            let element = source.baseAddress.unsafelyUnwrapped + index
            (buffer.baseAddress.unsafelyUnwrapped + index).initialize(
                to: NamedValue(name: literalName(at: element), value: databaseValue(at: literalValue(at: element))))
        }
        initializedCount = source.count
    }
}

extension StatementArguments: ExpressibleByArrayLiteral {
    /// Creates positional arguments: `["Arthur", 1000, nil]`.
    @inlinable @inline(__always)
    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        // The values are read with the layout of optional existentials,
        // when the probe accepts it.
        if LiteralValueLayout.holds && Self.areDeferrableLiteralValues(elements) {
            self.positional = .literal(elements)
        } else {
            self.positional = .converted(Self.convert(elements))
        }
        self.namedValues = NamedValues()
    }

    /// Whether all the values of an array literal are deferrable (see
    /// ``isDeferrableLiteralValue(at:)``).
    ///
    /// - Precondition: ``LiteralValueLayout/holds``.
    @inlinable @inline(__always)
    static func areDeferrableLiteralValues(_ elements: [(any DatabaseValueConvertible)?]) -> Bool {
        elements.withUnsafeBufferPointer { source in
            for index in 0..<source.count where !isDeferrableLiteralValue(at: source.baseAddress.unsafelyUnwrapped + index) {
                return false
            }
            return true
        }
    }

    /// The values of an array literal, converted: in place when the layout
    /// of optional existentials is the expected one (see
    /// `LayoutAssumptions.swift`), with plain Swift otherwise.
    @usableFromInline
    static func convert(_ elements: [(any DatabaseValueConvertible)?]) -> [DatabaseValue] {
        guard LiteralValueLayout.holds else {
            return elements.map { $0?.databaseValue ?? .null }
        }
        return elements.withUnsafeBufferPointer(convertLiteralValues)
    }
}

extension StatementArguments: ExpressibleByDictionaryLiteral {
    /// Creates named arguments: `["name": "Arthur", "score": 1000]`.
    ///
    /// Names must be unique, as in a Swift dictionary literal.
    @inlinable
    public init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        // Literal keys are unique: no search for an existing name.
        assert(Set(elements.map { $0.0 }).count == elements.count, "Duplicate names in statement arguments literal")
        self.positional = .converted([])
        guard LiteralValueLayout.holds else {
            // See init(arrayLiteral:).
            self.namedValues = NamedValues(uniqueElements: elements.map {
                NamedValue(name: $0.0, value: $0.1?.databaseValue ?? .null)
            })
            return
        }
        let isDeferrable = elements.withUnsafeBufferPointer { source in
            for index in 0..<source.count where !isDeferrableLiteralValue(at: literalValue(at: source.baseAddress.unsafelyUnwrapped + index)) {
                return false
            }
            return true
        }
        if isDeferrable {
            self.namedValues = NamedValues(uniqueDeferrableLiteral: elements)
        } else {
            self.namedValues = NamedValues(uniqueElements: elements.withUnsafeBufferPointer(convertLiteralElements))
        }
    }
}

extension StatementArguments: CustomStringConvertible {
    /// The values, such as `[1, "foo"]` or `["name": "foo", "score": 1]`:
    /// the named values first, by name, then the positional values, as GRDB
    /// writes them (GRDB lists the named values in no particular order).
    public var description: String {
        let named = namedValues.elements.sorted { $0.name < $1.name }
            .map { "\(String(reflecting: $0.name)): \($0.value)" }
        let positional = values.map(\.description)
        return "[" + (named + positional).joined(separator: ", ") + "]"
    }
}

// MARK: - Consuming arguments

extension StatementArguments {
    /// Matches the arguments with the parameters of a statement.
    ///
    /// Each parameter takes its named value when it is named and has one, and
    /// the next positional value otherwise. The positional values that a
    /// statement takes are removed from `self`, so that the arguments of a
    /// multi-statement string are consumed statement after statement.
    ///
    /// - Parameters:
    ///   - statement: The statement.
    ///   - allowingRemainingValues: Whether positional values may remain for
    ///     a later statement.
    /// - Returns: The value of each parameter, in order.
    /// - Throws: A ``DatabaseError`` with code `SQLITE_MISUSE` when a value
    ///   is missing, or when positional values remain and they are not
    ///   allowed to.
    mutating func extractBindings(
        forStatement statement: Statement,
        allowingRemainingValues: Bool) throws -> [DatabaseValue]
    {
        let parameterNames = statement.parameterNames
        var bindings: [DatabaseValue] = []
        bindings.reserveCapacity(parameterNames.count)
        var positionalIndex = values.startIndex
        for (parameterIndex, name) in parameterNames.enumerated() {
            if let name, let value = namedValues.value(forName: name, hint: parameterIndex) {
                bindings.append(value)
            } else if positionalIndex < values.endIndex {
                bindings.append(values[positionalIndex])
                positionalIndex += 1
            } else if let name {
                throw statement.database.makeError(
                    resultCode: .SQLITE_MISUSE,
                    message: "missing statement argument: \(name)",
                    sql: statement.sql, arguments: nil)
            } else {
                // GRDB's message gives the number of positional values.
                throw statement.database.makeError(
                    resultCode: .SQLITE_MISUSE,
                    message: "wrong number of statement arguments: \(values.count)",
                    sql: statement.sql, arguments: nil)
            }
        }
        if !allowingRemainingValues && positionalIndex < values.endIndex {
            throw statement.database.makeError(
                resultCode: .SQLITE_MISUSE,
                message: "wrong number of statement arguments: \(values.count)",
                sql: statement.sql, arguments: nil)
        }
        values.removeSubrange(values.startIndex..<positionalIndex)
        return bindings
    }
}
