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
    @usableFromInline var values: [DatabaseValue]

    /// The named values, keyed by name without prefix (`"name"` for `:name`).
    @usableFromInline var namedValues: NamedValues

    /// Whether there is no value at all.
    public var isEmpty: Bool { values.isEmpty && namedValues.isEmpty }

    /// Creates empty arguments.
    public init() {
        values = []
        namedValues = NamedValues()
    }

    /// Creates positional arguments from database values, without copy.
    init(values: [DatabaseValue]) {
        self.values = values
        self.namedValues = NamedValues()
    }

    /// Creates positional arguments from a sequence of optional values.
    ///
    /// ```swift
    /// let values: [(any DatabaseValueConvertible)?] = ["foo", 1, nil]
    /// db.execute(sql: "INSERT ... (?,?,?)", arguments: StatementArguments(values))
    /// ```
    public init<S: Sequence>(_ sequence: S) where S.Element == (any DatabaseValueConvertible)? {
        values = sequence.map { $0?.databaseValue ?? .null }
        namedValues = NamedValues()
    }

    /// Creates positional arguments from a sequence of values.
    ///
    /// ```swift
    /// let ids = [1, 2, 3]
    /// db.execute(sql: "DELETE ... (?,?,?)", arguments: StatementArguments(ids))
    /// ```
    public init<S: Sequence>(_ sequence: S) where S.Element: DatabaseValueConvertible {
        values = sequence.map { $0.databaseValue }
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
        values = []
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
    /// `&+` to let the left operand win).
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
        precondition(replaced.isEmpty,
            "Named arguments defined on both sides of +: \(replaced.keys.sorted()). Use &+ to keep the left values.")
    }

    /// Returns arguments that hold the positional values of both operands,
    /// and the named values of both; the left operand wins when a name has a
    /// value in both.
    public static func &+ (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
        var result = lhs
        result.values.append(contentsOf: rhs.values)
        for element in rhs.namedValues.elements where result.namedValues[element.name] == nil {
            result.namedValues[element.name] = element.value
        }
        return result
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
@usableFromInline
struct NamedValues: Hashable, Sendable {
    @usableFromInline private(set) var elements: [NamedValue] = []

    @inlinable init() { }

    /// Named values whose names are known to be unique.
    @inlinable init(uniqueElements: [NamedValue]) {
        elements = uniqueElements
    }

    var isEmpty: Bool { elements.isEmpty }

    /// The value for a name, searched from position `hint` first.
    func value(forName name: String, hint: Int = 0) -> DatabaseValue? {
        elements.withUnsafeBufferPointer { buffer in
            let count = buffer.count
            guard count > 0 else { return nil }
            var position = hint < count && hint >= 0 ? hint : 0
            for _ in 0..<count {
                if buffer[position].name == name {
                    return buffer[position].value
                }
                position += 1
                if position == count { position = 0 }
            }
            return nil
        }
    }

    subscript(name: String) -> DatabaseValue? {
        get { value(forName: name) }
        set {
            if let index = elements.firstIndex(where: { $0.name == name }) {
                if let newValue {
                    elements[index].value = newValue
                } else {
                    elements.remove(at: index)
                }
            } else if let newValue {
                elements.append(NamedValue(name: name, value: newValue))
            }
        }
    }

    /// Sets a value, and returns the value it replaces.
    mutating func updateValue(_ value: DatabaseValue, forName name: String) -> DatabaseValue? {
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
        guard lhs.elements.count == rhs.elements.count else { return false }
        return lhs.elements.allSatisfy { rhs.value(forName: $0.name) == $0.value }
    }

    /// Hashes consistently with `==`, whatever the order.
    @usableFromInline
    func hash(into hasher: inout Hasher) {
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

extension StatementArguments: ExpressibleByArrayLiteral {
    /// Creates positional arguments: `["Arthur", 1000, nil]`.
    @inlinable
    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        self.values = elements.withUnsafeBufferPointer { source in
            [DatabaseValue](unsafeUninitializedCapacity: source.count) { buffer, initializedCount in
                for index in 0..<source.count {
                    (buffer.baseAddress.unsafelyUnwrapped + index).initialize(
                        to: databaseValue(at: source.baseAddress.unsafelyUnwrapped + index))
                }
                initializedCount = source.count
            }
        }
        self.namedValues = NamedValues()
    }
}

/// Returns the database value of an optional value, read in place.
///
/// `pointer.pointee?.databaseValue` would first copy the optional through the
/// runtime's generic value witnesses (about a hundred instructions per
/// value). Instead, the nil test reads the type metadata word of the
/// existential container, whose null value is the `nil` of the optional (the
/// Swift ABI gives an opaque existential the extra inhabitants of its
/// metadata pointer). A non-nil payload sits at the address of the optional,
/// with the layout of the existential: the memory is rebound to it.
@inlinable @inline(__always)
func databaseValue(at pointer: UnsafePointer<(any DatabaseValueConvertible)?>) -> DatabaseValue {
    let metadata = UnsafeRawPointer(pointer).load(
        fromByteOffset: 3 * MemoryLayout<UnsafeRawPointer>.stride, as: UInt.self)
    assert((metadata == 0) == (pointer.pointee == nil), "unexpected layout of an optional existential")
    if metadata == 0 { return .null }
    return pointer.withMemoryRebound(to: (any DatabaseValueConvertible).self, capacity: 1) {
        $0.pointee.databaseValue
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
        typealias Element = (String, (any DatabaseValueConvertible)?)
        let named = elements.withUnsafeBufferPointer { source in
            [NamedValue](unsafeUninitializedCapacity: source.count) { buffer, initializedCount in
                // Names and values are read in place, without copying the
                // tuples (see databaseValue(at:)).
                let nameOffset = MemoryLayout<Element>.offset(of: \.0).unsafelyUnwrapped
                let valueOffset = MemoryLayout<Element>.offset(of: \.1).unsafelyUnwrapped
                for index in 0..<source.count {
                    let element = UnsafeRawPointer(source.baseAddress.unsafelyUnwrapped + index)
                    let name = element.advanced(by: nameOffset).assumingMemoryBound(to: String.self).pointee
                    let value = element.advanced(by: valueOffset)
                        .assumingMemoryBound(to: (any DatabaseValueConvertible)?.self)
                    (buffer.baseAddress.unsafelyUnwrapped + index).initialize(
                        to: NamedValue(name: name, value: databaseValue(at: value)))
                }
                initializedCount = source.count
            }
        }
        self.values = []
        self.namedValues = NamedValues(uniqueElements: named)
    }
}

extension StatementArguments: CustomStringConvertible {
    /// The values, such as `[1, "foo"]` or `[name:"foo", score:1]`.
    public var description: String {
        let positional = values.map(\.description)
        let named = namedValues.elements.sorted { $0.name < $1.name }.map { "\($0.name):\($0.value)" }
        return "[" + (positional + named).joined(separator: ", ") + "]"
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
                    sql: statement.sql, arguments: self)
            } else {
                let expected = parameterNames.filter { name in name.map { namedValues[$0] == nil } ?? true }.count
                throw statement.database.makeError(
                    resultCode: .SQLITE_MISUSE,
                    message: "wrong number of statement arguments: the statement expects \(expected), got \(values.count)",
                    sql: statement.sql, arguments: self)
            }
        }
        if !allowingRemainingValues && positionalIndex < values.endIndex {
            let expected = positionalIndex - values.startIndex
            throw statement.database.makeError(
                resultCode: .SQLITE_MISUSE,
                message: "wrong number of statement arguments: the statement expects \(expected), got \(values.count)",
                sql: statement.sql, arguments: self)
        }
        values.removeSubrange(values.startIndex..<positionalIndex)
        return bindings
    }
}
