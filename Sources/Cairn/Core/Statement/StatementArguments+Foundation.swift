import Foundation

// Statement arguments from untyped Foundation collections.

extension StatementArguments {
    /// Creates positional arguments from an array of values, or returns nil
    /// when an element is not a ``DatabaseValueConvertible`` value (nor
    /// `NSNull`, which is NULL).
    ///
    /// ```swift
    /// let values: [Any] = ["Arthur", 41]
    /// let arguments = StatementArguments(values)! // ["Arthur", 41]
    /// ```
    public init?(_ array: [Any]) {
        var values: [(any DatabaseValueConvertible)?] = []
        values.reserveCapacity(array.count)
        for element in array {
            guard let value = Self.convertible(element) else { return nil }
            values.append(value)
        }
        self.init(values)
    }

    /// Creates positional arguments from an `NSArray`: see ``init(_:)-([Any])``.
    public init?(_ array: NSArray) {
        self.init(array.map { $0 })
    }

    /// Creates named arguments from a dictionary, or returns nil when a key
    /// is not a string, or a value is not a ``DatabaseValueConvertible``
    /// value (nor `NSNull`).
    ///
    /// ```swift
    /// let values: [AnyHashable: Any] = ["name": "Arthur", "age": 41]
    /// let arguments = StatementArguments(values)! // [name: "Arthur", age: 41]
    /// ```
    public init?(_ dictionary: [AnyHashable: Any]) {
        var values: [String: (any DatabaseValueConvertible)?] = [:]
        values.reserveCapacity(dictionary.count)
        for (key, element) in dictionary {
            guard let name = key.base as? String, let value = Self.convertible(element) else { return nil }
            values[name] = value
        }
        self.init(values)
    }

    /// Creates named arguments from an `NSDictionary`: see
    /// ``init(_:)-([AnyHashable:Any])``.
    public init?(_ dictionary: NSDictionary) {
        var values: [AnyHashable: Any] = [:]
        for (key, value) in dictionary {
            guard let key = key as? AnyHashable else { return nil }
            values[key] = value
        }
        self.init(values)
    }

    /// The value of an untyped element: `.some(nil)` for NULL, nil when
    /// it cannot be converted.
    private static func convertible(_ element: Any) -> (any DatabaseValueConvertible)?? {
        if element is NSNull { return .some(nil) }
        if let value = element as? any DatabaseValueConvertible { return .some(value) }
        return nil
    }
}
