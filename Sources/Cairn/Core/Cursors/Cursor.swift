/// A sequence of elements that are produced one after the other, and whose
/// iteration may throw: the rows of a database query, for instance.
///
/// Cursors iterate lazily, straight from the database. They look like Swift
/// sequences, with a `next()` method that throws:
///
/// ```swift
/// let names = try String.fetchCursor(db, sql: "SELECT name FROM player")
/// while let name = try names.next() {
///     print(name)
/// }
///
/// // Or with the usual methods of sequences:
/// let uppercased = try names.map { $0.uppercased() }.filter { $0.count > 3 }
/// let count = try uppercased.reduce(0) { count, _ in count + 1 }
/// let all = try Array(names)
/// ```
///
/// A database cursor must be consumed inside the database access that
/// created it: using it after the access is over stops the program with a
/// message that says so. Do not modify the database while you iterate it,
/// and prefer `fetchAll` when you need an array anyway.
public protocol Cursor<Element>: AnyObject {
    /// The type of the elements.
    associatedtype Element

    /// Returns the next element, or nil when the cursor is exhausted.
    ///
    /// Once `next()` has returned nil, or thrown, it keeps returning nil.
    ///
    /// - Throws: The error that prevents the cursor from producing an
    ///   element, such as a ``DatabaseError``.
    func next() throws -> Element?

    /// Calls `body` on each remaining element, in order.
    ///
    /// The default implementation calls ``next()`` until it returns nil. A
    /// cursor that produces its elements another way implements it; the
    /// cursors made with `map`, `filter`, `enumerated`… call the `forEach`
    /// of their base, and arrays and sets built from a cursor use it.
    ///
    /// - Throws: The errors of the cursor and of `body`.
    func forEach(_ body: (Element) throws -> Void) throws
}

extension Cursor {
    /// Whether the cursor has no more element. Consumes one element.
    public var isEmpty: Bool {
        get throws { try next() == nil }
    }

    /// Returns whether an element satisfies `predicate`, consuming elements
    /// until it finds one.
    public func contains(where predicate: (Element) throws -> Bool) throws -> Bool {
        while let element = try next() {
            if try predicate(element) { return true }
        }
        return false
    }

    /// Returns a cursor that skips the leading elements that satisfy
    /// `predicate`.
    public func drop(while predicate: @escaping (Element) throws -> Bool) -> DropWhileCursor<Self> {
        DropWhileCursor(self, predicate: predicate)
    }

    /// Returns a cursor that skips the first element.
    ///
    /// ```swift
    /// let cursor = try Int.fetchCursor(db, sql: "SELECT id FROM player ORDER BY id")
    /// let others = try Array(cursor.dropFirst()) // all ids but the first
    /// ```
    public func dropFirst() -> DropFirstCursor<Self> {
        DropFirstCursor(self, limit: 1)
    }

    /// Returns a cursor that skips the first `n` elements.
    ///
    /// - Parameter n: The number of elements to skip; zero or more.
    public func dropFirst(_ n: Int) -> DropFirstCursor<Self> {
        DropFirstCursor(self, limit: n)
    }

    /// Returns a cursor of (offset, element) pairs, with offsets from zero.
    public func enumerated() -> EnumeratedCursor<Self> {
        EnumeratedCursor(self)
    }

    /// Returns a cursor of the elements that satisfy `isIncluded`.
    public func filter(_ isIncluded: @escaping (Element) throws -> Bool) -> FilterCursor<Self> {
        FilterCursor(self, isIncluded: isIncluded)
    }

    /// Returns the first element that satisfies `predicate`, consuming
    /// elements until it finds one.
    public func first(where predicate: (Element) throws -> Bool) throws -> Element? {
        while let element = try next() {
            if try predicate(element) { return element }
        }
        return nil
    }

    /// Returns a cursor of the elements of the sequences produced by
    /// `transform`, one sequence after the other.
    public func flatMap<SegmentOfResult: Sequence>(
        _ transform: @escaping (Element) throws -> SegmentOfResult
    ) -> FlattenCursor<MapCursor<Self, AnyCursor<SegmentOfResult.Element>>> {
        FlattenCursor(map { try AnyCursor(iterator: transform($0).makeIterator()) })
    }

    /// Returns a cursor of the elements of the cursors produced by
    /// `transform`, one cursor after the other.
    public func flatMap<SegmentOfResult: Cursor>(
        _ transform: @escaping (Element) throws -> SegmentOfResult
    ) -> FlattenCursor<MapCursor<Self, SegmentOfResult>> {
        FlattenCursor(map(transform))
    }

    /// Calls `body` on each element, with ``next()``.
    @inlinable
    public func forEach(_ body: (Element) throws -> Void) throws {
        while let element = try next() {
            try body(element)
        }
    }

    /// Returns a cursor of the results of `transform` on each element.
    public func map<T>(_ transform: @escaping (Element) throws -> T) -> MapCursor<Self, T> {
        MapCursor(self, transform: transform)
    }

    /// Returns a cursor of the non-nil results of `transform` on each
    /// element.
    public func compactMap<T>(_ transform: @escaping (Element) throws -> T?) -> CompactMapCursor<Self, T> {
        CompactMapCursor(self, transform: transform)
    }

    /// Returns the largest element according to `areInIncreasingOrder`.
    public func max(by areInIncreasingOrder: (Element, Element) throws -> Bool) throws -> Element? {
        guard var result = try next() else { return nil }
        while let element = try next() {
            if try areInIncreasingOrder(result, element) { result = element }
        }
        return result
    }

    /// Returns the smallest element according to `areInIncreasingOrder`.
    public func min(by areInIncreasingOrder: (Element, Element) throws -> Bool) throws -> Element? {
        guard var result = try next() else { return nil }
        while let element = try next() {
            if try areInIncreasingOrder(element, result) { result = element }
        }
        return result
    }

    /// Returns a cursor of the first `maxLength` elements at most.
    public func prefix(_ maxLength: Int) -> PrefixCursor<Self> {
        PrefixCursor(self, maxLength: maxLength)
    }

    /// Returns a cursor of the leading elements that satisfy `predicate`.
    public func prefix(while predicate: @escaping (Element) throws -> Bool) -> PrefixWhileCursor<Self> {
        PrefixWhileCursor(self, predicate: predicate)
    }

    /// Combines the elements with `nextPartialResult`, from
    /// `initialResult`.
    public func reduce<Result>(
        _ initialResult: Result,
        _ nextPartialResult: (Result, Element) throws -> Result) throws -> Result
    {
        var result = initialResult
        while let element = try next() {
            result = try nextPartialResult(result, element)
        }
        return result
    }

    /// Combines the elements into a mutable result.
    public func reduce<Result>(
        into initialResult: Result,
        _ updateAccumulatingResult: (inout Result, Element) throws -> Void) throws -> Result
    {
        var result = initialResult
        while let element = try next() {
            try updateAccumulatingResult(&result, element)
        }
        return result
    }
}

extension Cursor where Element: Equatable {
    /// Returns whether the cursor contains `element`, consuming elements
    /// until it finds it.
    public func contains(_ element: Element) throws -> Bool {
        try contains { $0 == element }
    }
}

extension Cursor where Element: Comparable {
    /// Returns the largest element.
    public func max() throws -> Element? {
        try max(by: <)
    }

    /// Returns the smallest element.
    public func min() throws -> Element? {
        try min(by: <)
    }
}

extension Cursor where Element: Sequence {
    /// Returns a cursor of the elements of each sequence, one after the
    /// other.
    public func joined() -> FlattenCursor<MapCursor<Self, AnyCursor<Element.Element>>> {
        flatMap { $0 }
    }
}

extension Cursor where Element: Cursor {
    /// Returns a cursor of the elements of each cursor, one after the other.
    public func joined() -> FlattenCursor<Self> {
        FlattenCursor(self)
    }
}

extension Cursor where Element: StringProtocol {
    /// Returns the concatenation of the elements, with a separator between
    /// them.
    public func joined(separator: String = "") throws -> String {
        var result = ""
        var isFirst = true
        while let element = try next() {
            if !isFirst { result += separator }
            result += element
            isFirst = false
        }
        return result
    }
}

// MARK: - Collections from cursors

extension Cursor {
    /// Returns an array of the remaining elements but the last one.
    ///
    /// ```swift
    /// try AnyCursor([1, 2, 3]).dropLast()  // [1, 2]
    /// ```
    ///
    /// - Throws: The error of the cursor.
    public func dropLast() throws -> [Element] {
        try dropLast(1)
    }

    /// Returns an array of the remaining elements but the last `k`.
    ///
    /// ```swift
    /// try AnyCursor([1, 2, 3, 4, 5]).dropLast(2)  // [1, 2, 3]
    /// ```
    ///
    /// - Precondition: `k >= 0`.
    /// - Throws: The error of the cursor.
    public func dropLast(_ k: Int) throws -> [Element] {
        stopUnless(k >= 0, "Can't drop a negative number of elements from a cursor")
        let elements = try Array(self)
        return Array(elements.dropLast(k))
    }

    /// Returns an array of the last `maxLength` remaining elements.
    ///
    /// ```swift
    /// try AnyCursor([1, 2, 3, 4, 5]).suffix(2)  // [4, 5]
    /// ```
    ///
    /// - Precondition: `maxLength >= 0`.
    /// - Throws: The error of the cursor.
    public func suffix(_ maxLength: Int) throws -> [Element] {
        stopUnless(maxLength >= 0, "Can't take a suffix of negative length from a cursor")
        guard maxLength > 0 else {
            // Consumed all the same, as a sequence's suffix would be.
            while try next() != nil { }
            return []
        }
        // A ring of the last `maxLength` elements.
        var ring: [Element] = []
        ring.reserveCapacity(Swift.min(maxLength, 64))
        var start = 0
        while let element = try next() {
            if ring.count < maxLength {
                ring.append(element)
            } else {
                ring[start] = element
                start = (start + 1) % maxLength
            }
        }
        return Array(ring[start...] + ring[..<start])
    }
}

extension Sequence {
    /// Returns a cursor of the elements of the cursors produced by
    /// `transform`, one cursor after the other.
    ///
    /// ```swift
    /// let cursor = [1, 2].flatMap { AnyCursor([$0, $0 + 1]) }  // 1, 2, 2, 3
    /// ```
    public func flatMap<SegmentOfResult: Cursor>(
        _ transform: @escaping (Element) throws -> SegmentOfResult
    ) -> FlattenCursor<MapCursor<AnyCursor<Element>, SegmentOfResult>> {
        AnyCursor(self).flatMap(transform)
    }
}

extension RangeReplaceableCollection {
    /// Creates a collection of the remaining elements of a cursor.
    ///
    /// ```swift
    /// let names = try ContiguousArray(String.fetchCursor(db, sql: "SELECT name FROM player"))
    /// ```
    ///
    /// - Throws: The error of the cursor.
    @_disfavoredOverload
    public init<C: Cursor>(_ cursor: C) throws where C.Element == Element {
        self.init()
        try cursor.forEach { append($0) }
    }

    /// Creates a collection of the remaining elements of a cursor, with room
    /// for `minimumCapacity` elements.
    ///
    /// - Throws: The error of the cursor.
    @_disfavoredOverload
    public init<C: Cursor>(_ cursor: C, minimumCapacity: Int) throws where C.Element == Element {
        self.init()
        reserveCapacity(minimumCapacity)
        try cursor.forEach { append($0) }
    }

    /// Appends the remaining elements of a cursor.
    ///
    /// ```swift
    /// var names = ["Arthur"]
    /// try names.append(contentsOf: String.fetchCursor(db, sql: "SELECT name FROM player"))
    /// ```
    ///
    /// - Throws: The error of the cursor.
    public mutating func append<C: Cursor>(contentsOf cursor: C) throws where C.Element == Element {
        try cursor.forEach { append($0) }
    }
}

extension Array {
    /// Creates an array of the remaining elements of a cursor.
    ///
    /// ```swift
    /// let names = try Array(String.fetchCursor(db, sql: "SELECT name FROM player"))
    /// ```
    @inlinable
    public init<C: Cursor>(_ cursor: C) throws where C.Element == Element {
        self.init()
        try cursor.forEach { append($0) }
    }

    /// Creates an array of the remaining elements of a cursor, reserving
    /// room for `minimumCapacity` elements.
    public init<C: Cursor>(_ cursor: C, minimumCapacity: Int) throws where C.Element == Element {
        self.init()
        reserveCapacity(minimumCapacity)
        try cursor.forEach { append($0) }
    }
}

extension Set {
    /// Creates a set of the remaining elements of a cursor.
    public init<C: Cursor>(_ cursor: C) throws where C.Element == Element {
        self.init()
        try cursor.forEach { insert($0) }
    }

    /// Creates a set of the remaining elements of a cursor, reserving room
    /// for `minimumCapacity` elements.
    public init<C: Cursor>(_ cursor: C, minimumCapacity: Int) throws where C.Element == Element {
        self.init(minimumCapacity: minimumCapacity)
        try cursor.forEach { insert($0) }
    }

    /// Returns the union of the set and the remaining elements of a cursor.
    ///
    /// - Throws: The error of the cursor.
    public func union<C: Cursor>(_ cursor: C) throws -> Set where C.Element == Element {
        var result = self
        try result.formUnion(cursor)
        return result
    }

    /// Inserts the remaining elements of a cursor.
    ///
    /// - Throws: The error of the cursor.
    public mutating func formUnion<C: Cursor>(_ cursor: C) throws where C.Element == Element {
        try cursor.forEach { insert($0) }
    }

    /// Returns the elements of the set that the cursor also gives.
    ///
    /// - Throws: The error of the cursor.
    public func intersection<C: Cursor>(_ cursor: C) throws -> Set where C.Element == Element {
        try intersection(Set(cursor))
    }

    /// Keeps the elements of the set that the cursor also gives.
    ///
    /// - Throws: The error of the cursor.
    public mutating func formIntersection<C: Cursor>(_ cursor: C) throws where C.Element == Element {
        try formIntersection(Set(cursor))
    }
}

extension Dictionary {
    /// Creates a dictionary of the elements of a cursor, grouped by the keys
    /// that `keyForValue` returns.
    public init<C: Cursor>(grouping values: C, by keyForValue: (C.Element) throws -> Key) throws
    where Value == [C.Element]
    {
        self.init()
        while let value = try values.next() {
            try self[keyForValue(value), default: []].append(value)
        }
    }

    /// Creates a dictionary of the elements of a cursor, grouped by the keys
    /// that `keyForValue` returns, with room for `minimumCapacity` keys.
    public init<C: Cursor>(minimumCapacity: Int, grouping values: C, by keyForValue: (C.Element) throws -> Key) throws
    where Value == [C.Element]
    {
        self.init(minimumCapacity: minimumCapacity)
        while let value = try values.next() {
            try self[keyForValue(value), default: []].append(value)
        }
    }

    /// Creates a dictionary from a cursor of (key, value) pairs, with room
    /// for `minimumCapacity` keys.
    ///
    /// - Throws: The error of the cursor, or a ``DatabaseError`` for a
    ///   duplicate key.
    public init<C: Cursor>(minimumCapacity: Int, uniqueKeysWithValues keysAndValues: C) throws
    where C.Element == (Key, Value)
    {
        self.init(minimumCapacity: minimumCapacity)
        while let (key, value) = try keysAndValues.next() {
            guard updateValue(value, forKey: key) == nil else {
                // Database values are input: a duplicate is an error, not a
                // crash.
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "Dictionary(uniqueKeysWithValues:): duplicate key \(key)")
            }
        }
    }

    /// Creates a dictionary from a cursor of (key, value) pairs.
    ///
    /// - Throws: The error of the cursor, or a ``DatabaseError`` for a
    ///   duplicate key (where `Dictionary(uniqueKeysWithValues:)` of a
    ///   sequence stops the program: the keys of a cursor usually come from
    ///   the database).
    public init<C: Cursor>(uniqueKeysWithValues keysAndValues: C) throws
    where C.Element == (Key, Value)
    {
        self.init()
        while let (key, value) = try keysAndValues.next() {
            guard updateValue(value, forKey: key) == nil else {
                // Database values are input: a duplicate is an error, not a
                // crash.
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "Dictionary(uniqueKeysWithValues:): duplicate key \(key)")
            }
        }
    }
}
