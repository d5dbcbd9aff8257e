// The cursors returned by the methods of `Cursor`: each wraps a base cursor.

/// A type-erased cursor.
public final class AnyCursor<Element>: Cursor {
    private let element: () throws -> Element?

    /// Creates a cursor that wraps `base`.
    public init<C: Cursor>(_ base: C) where C.Element == Element {
        element = base.next
    }

    /// Creates a cursor of the elements of an iterator.
    public init<I: IteratorProtocol>(iterator: I) where I.Element == Element {
        var iterator = iterator
        element = { iterator.next() }
    }

    /// Creates a cursor of the elements of a sequence.
    public convenience init<S: Sequence>(_ sequence: S) where S.Element == Element {
        self.init(iterator: sequence.makeIterator())
    }

    /// Creates a cursor whose elements come from a closure, until it returns
    /// nil.
    public init(_ body: @escaping () throws -> Element?) {
        element = body
    }

    /// Returns the next element.
    public func next() throws -> Element? {
        try element()
    }
}

/// A cursor that skips the leading elements of its base that satisfy a
/// predicate.
public final class DropWhileCursor<Base: Cursor>: Cursor {
    private let base: Base
    private let predicate: (Base.Element) throws -> Bool
    private var predicateHasFailed = false

    init(_ base: Base, predicate: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.predicate = predicate
    }

    /// Returns the next element.
    public func next() throws -> Base.Element? {
        if predicateHasFailed {
            return try base.next()
        }
        while let element = try base.next() {
            if try !predicate(element) {
                predicateHasFailed = true
                return element
            }
        }
        return nil
    }
}

/// A cursor that skips the first elements of its base.
public final class DropFirstCursor<Base: Cursor>: Cursor {
    private let base: Base
    private let limit: Int
    private var dropped = 0

    init(_ base: Base, limit: Int) {
        stopUnless(limit >= 0, "Can't drop a negative number of elements from a cursor")
        self.base = base
        self.limit = limit
    }

    /// Returns the next element.
    public func next() throws -> Base.Element? {
        while dropped < limit {
            guard try base.next() != nil else { return nil }
            dropped += 1
        }
        return try base.next()
    }
}

/// A cursor of (offset, element) pairs.
public final class EnumeratedCursor<Base: Cursor>: Cursor {
    private let base: Base
    private var index = 0

    init(_ base: Base) {
        self.base = base
    }

    /// Returns the next pair.
    public func next() throws -> (offset: Int, element: Base.Element)? {
        guard let element = try base.next() else { return nil }
        defer { index += 1 }
        return (offset: index, element: element)
    }

    /// Calls `body` on each remaining pair, with the `forEach` of the base.
    public func forEach(_ body: ((offset: Int, element: Base.Element)) throws -> Void) throws {
        try base.forEach { element in
            let offset = index
            index += 1
            try body((offset: offset, element: element))
        }
    }
}

/// A cursor of the elements of its base that satisfy a predicate.
public final class FilterCursor<Base: Cursor>: Cursor {
    private let base: Base
    private let isIncluded: (Base.Element) throws -> Bool

    init(_ base: Base, isIncluded: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.isIncluded = isIncluded
    }

    /// Returns the next element.
    public func next() throws -> Base.Element? {
        while let element = try base.next() {
            if try isIncluded(element) { return element }
        }
        return nil
    }

    /// Calls `body` on each remaining element that satisfies the
    /// predicate, with the `forEach` of the base.
    public func forEach(_ body: (Base.Element) throws -> Void) throws {
        try base.forEach { element in
            if try isIncluded(element) { try body(element) }
        }
    }
}

/// A cursor of the elements of the cursors of its base, one after the other.
public final class FlattenCursor<Base: Cursor>: Cursor where Base.Element: Cursor {
    private let base: Base
    private var inner: Base.Element?

    init(_ base: Base) {
        self.base = base
    }

    /// Returns the next element.
    public func next() throws -> Base.Element.Element? {
        while true {
            if let inner, let element = try inner.next() {
                return element
            }
            guard let nextInner = try base.next() else { return nil }
            inner = nextInner
        }
    }
}

/// A cursor of the results of a transformation of the elements of its base.
public final class MapCursor<Base: Cursor, Element>: Cursor {
    private let base: Base
    private let transform: (Base.Element) throws -> Element

    init(_ base: Base, transform: @escaping (Base.Element) throws -> Element) {
        self.base = base
        self.transform = transform
    }

    /// Returns the next element.
    public func next() throws -> Element? {
        guard let element = try base.next() else { return nil }
        return try transform(element)
    }

    /// Calls `body` on each remaining transformed element, with the
    /// `forEach` of the base.
    public func forEach(_ body: (Element) throws -> Void) throws {
        try base.forEach { element in try body(transform(element)) }
    }
}

/// A cursor of the non-nil results of a transformation of the elements of
/// its base.
public final class CompactMapCursor<Base: Cursor, Element>: Cursor {
    private let base: Base
    private let transform: (Base.Element) throws -> Element?

    init(_ base: Base, transform: @escaping (Base.Element) throws -> Element?) {
        self.base = base
        self.transform = transform
    }

    /// Returns the next element.
    public func next() throws -> Element? {
        while let element = try base.next() {
            if let result = try transform(element) { return result }
        }
        return nil
    }

    /// Calls `body` on each remaining non-nil transformed element, with
    /// the `forEach` of the base.
    public func forEach(_ body: (Element) throws -> Void) throws {
        try base.forEach { element in
            if let result = try transform(element) { try body(result) }
        }
    }
}

/// A cursor of the first elements of its base.
public final class PrefixCursor<Base: Cursor>: Cursor {
    private let base: Base
    private let maxLength: Int
    private var count = 0

    init(_ base: Base, maxLength: Int) {
        stopUnless(maxLength >= 0, "Can't take a prefix of negative length from a cursor")
        self.base = base
        self.maxLength = maxLength
    }

    /// Returns the next element.
    public func next() throws -> Base.Element? {
        guard count < maxLength else { return nil }
        count += 1
        return try base.next()
    }
}

/// A cursor of the leading elements of its base that satisfy a predicate.
public final class PrefixWhileCursor<Base: Cursor>: Cursor {
    private let base: Base
    private let predicate: (Base.Element) throws -> Bool
    private var predicateHasFailed = false

    init(_ base: Base, predicate: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.predicate = predicate
    }

    /// Returns the next element.
    public func next() throws -> Base.Element? {
        guard !predicateHasFailed, let element = try base.next() else { return nil }
        if try predicate(element) { return element }
        predicateHasFailed = true
        return nil
    }
}
