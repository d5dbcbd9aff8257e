/// The values of copied rows: a count and the values, in one allocation.
///
/// An array of values would cost more for the rows that `fetchOne` and
/// `fetchAll` return, which are made and freed by the thousand: the array
/// grows by appends, and its deinitializer destroys each value through the
/// runtime, even when all of them are numbers. Here the values are written
/// in place, and the deinitializer destroys them only when one of them is a
/// text or a blob (``RowValuesHeader/holdsReferences``).
///
/// The values of one copied row, or of several rows (a chunk of the
/// prefetched rows of an association, see `PrefetchedRows.swift`): a row
/// reads its values from an offset.
///
/// Immutable once made: the values are written by the function that makes
/// the object, before anyone else can see it (see
/// ``make(capacity:_:)``). The object can then be read from any thread; it
/// cannot say so itself (the standard library makes `ManagedBuffer` and its
/// subclasses non-`Sendable`): the types that hold it are
/// `@unchecked Sendable` (`Row`, `PrefetchedValues`).
@usableFromInline
final class RowValues: ManagedBuffer<RowValuesHeader, DatabaseValue> {
    @usableFromInline
    typealias Header = RowValuesHeader

    /// Makes values with `initialize`, which initializes values in place
    /// from the start of the storage, and keeps the header up to date as it
    /// goes (should it throw, the values it initialized are destroyed with
    /// the object).
    ///
    /// - Parameters:
    ///   - capacity: The maximum number of values.
    ///   - initialize: Initializes at most `capacity` values at the
    ///     pointer, and counts them in the header.
    static func make(
        capacity: Int,
        _ initialize: (inout Header, UnsafeMutablePointer<DatabaseValue>) throws -> Void) rethrows -> RowValues
    {
        let buffer = RowValues.create(minimumCapacity: capacity) { _ in Header(count: 0, holdsReferences: false) }
        // create(minimumCapacity:) allocates an instance of the class it is
        // called on.
        let values = buffer as! RowValues
        try values.withUnsafeMutablePointers { header, elements in
            try initialize(&header.pointee, elements)
        }
        return values
    }

    /// Makes values that hold a copy of the values of an array.
    static func make(copying array: [DatabaseValue]) -> RowValues {
        make(capacity: array.count) { header, elements in
            // Not inspected: arrays come from the slow paths (rows built
            // from dictionaries and arrays).
            header.holdsReferences = true
            for value in array {
                (elements + header.count).initialize(to: value)
                header.count += 1
            }
        }
    }

    deinit {
        withUnsafeMutablePointers { header, elements in
            if header.pointee.holdsReferences {
                elements.deinitialize(count: header.pointee.count)
            }
        }
    }

    /// The number of values.
    ///
    /// Read through a pointer: the `header` property would be checked for
    /// exclusive access at run time at each read.
    @inlinable
    var count: Int { withUnsafeMutablePointerToHeader { $0.pointee.count } }

    /// The value at `index`.
    ///
    /// - Precondition: `0 <= index < count`: checked, so that a wrong offset
    ///   can never read outside of the values.
    @inlinable
    subscript(index: Int) -> DatabaseValue {
        withUnsafeMutablePointers { header, elements in
            // A bare trap on purpose: see `Row.checkIndex(_:)`.
            assert(UInt(bitPattern: index) < UInt(bitPattern: header.pointee.count), "row value index out of range")
            precondition(UInt(bitPattern: index) < UInt(bitPattern: header.pointee.count))
            return elements[index]
        }
    }
}

/// What ``RowValues`` knows of its values.
@usableFromInline
struct RowValuesHeader {
    /// The number of initialized values, at the start of the storage.
    @usableFromInline var count: Int
    /// Whether a value may hold a reference (text or blob): the values then
    /// need to be destroyed.
    @usableFromInline var holdsReferences: Bool
}
