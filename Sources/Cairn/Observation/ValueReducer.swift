import Foundation

/// What a ``ValueObservation`` does with the database: it fetches, then
/// turns what it fetched into the values it delivers.
///
/// Build observations with ``ValueObservation`` methods rather than with
/// your own reducers: ``ValueObservation/tracking(_:)``,
/// ``ValueObservation/map(_:)``, ``ValueObservation/removeDuplicates()``.
public protocol ValueReducer: Sendable {
    /// What the reducer fetches.
    associatedtype Fetched
    /// What the observation delivers.
    associatedtype Value

    /// Fetches from the database.
    func _fetch(_ db: Database) throws -> Fetched

    /// Returns the value to deliver, or nil to deliver nothing (a duplicate,
    /// for instance).
    mutating func _value(_ fetched: Fetched) throws -> Value?
}

/// The reducers of ``ValueObservation``.
public enum ValueReducers {
    /// Fetches a value, and delivers it.
    public struct Fetch<Value>: ValueReducer, @unchecked Sendable {
        // Unchecked Sendable: the function is @Sendable.
        let fetch: @Sendable (Database) throws -> Value

        /// Fetches.
        public func _fetch(_ db: Database) throws -> Value { try fetch(db) }

        /// The fetched value.
        public func _value(_ fetched: Value) -> Value? { fetched }
    }

    /// Transforms the values of another reducer.
    public struct Map<Base: ValueReducer, Value>: ValueReducer {
        // Sendable: the base is a reducer, and the transform is @Sendable.
        var base: Base
        let transform: @Sendable (Base.Value) throws -> Value

        /// Fetches with the base reducer.
        public func _fetch(_ db: Database) throws -> Base.Fetched { try base._fetch(db) }

        /// The transformed value of the base reducer.
        public mutating func _value(_ fetched: Base.Fetched) throws -> Value? {
            try base._value(fetched).map(transform)
        }
    }

    /// The reducer of an observation that runs functions at its events
    /// (``ValueObservation/handleEvents(willStart:willFetch:willTrackRegion:databaseDidChange:didReceiveValue:didFail:didCancel:)``,
    /// ``ValueObservation/print(_:to:)``): it fetches and delivers what its
    /// base reducer does.
    public struct Trace<Base: ValueReducer>: ValueReducer {
        var base: Base

        /// Fetches with the base reducer.
        public func _fetch(_ db: Database) throws -> Base.Fetched { try base._fetch(db) }

        /// The value of the base reducer.
        public mutating func _value(_ fetched: Base.Fetched) throws -> Base.Value? {
            try base._value(fetched)
        }
    }

    /// Skips the values equal to the previous one.
    ///
    /// The values are `Sendable`: the previous value waits for the next
    /// fetch, which may run on another thread.
    public struct RemoveDuplicates<Base: ValueReducer>: ValueReducer where Base.Value: Sendable {
        var base: Base
        let predicate: @Sendable (Base.Value, Base.Value) -> Bool
        /// Sees all the values of the base reducer.
        let tap: (@Sendable (Base.Value) -> Void)?
        var previousValue: Base.Value?

        /// Fetches with the base reducer.
        public func _fetch(_ db: Database) throws -> Base.Fetched { try base._fetch(db) }

        /// The value of the base reducer, or nil when it is a duplicate.
        public mutating func _value(_ fetched: Base.Fetched) throws -> Base.Value? {
            guard let value = try base._value(fetched) else { return nil }
            tap?(value)
            if let previousValue, predicate(previousValue, value) { return nil }
            previousValue = value
            return value
        }
    }
}
