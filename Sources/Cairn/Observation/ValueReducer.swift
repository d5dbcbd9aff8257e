import Foundation

/// The two halves of a reducer: what it fetches, and how it turns what it
/// fetched into the values that a ``ValueObservation`` delivers.
///
/// A reducer is used by one thread at a time, and keeps state between the
/// values it reduces (``ValueReducers/RemoveDuplicates`` remembers the
/// previous value). Its fetching half, the ``Fetcher``, is `Sendable`
/// instead: the observation makes it once, and fetches with it from
/// whichever connection serves the observation (the writer of a database
/// queue, a reader of a pool).
///
/// - Note: This protocol exists for the companion libraries of GRDB, which
///   write generic code over reducers (an extension of `_ValueReducer`, an
///   operator that wraps a reducer). Build observations with the methods of
///   ``ValueObservation`` rather than with reducers of your own.
public protocol _ValueReducer {
    /// The `Sendable` half of the reducer, that fetches from the database.
    associatedtype Fetcher: _ValueReducerFetcher

    /// What the observation delivers: values that cross from the thread
    /// that reduces them to the one that receives them.
    associatedtype Value: Sendable

    /// Returns the fetching half of the reducer.
    ///
    /// The observation calls it once, when it starts: what the fetcher does
    /// must not depend on the later state of the reducer.
    func _makeFetcher() -> Fetcher

    /// Returns the value to deliver for a fetched value, or nil to deliver
    /// nothing (a duplicate, for instance).
    ///
    /// The first call after the observation starts must return a value:
    /// the observation delivers an initial value.
    ///
    /// - Throws: An error that ends the observation.
    mutating func _value(_ fetched: Fetcher.Value) throws -> Value?
}

/// The fetching half of a reducer (see ``_ValueReducer``): it reads the
/// database after each change of the observed region.
///
/// - Note: This protocol exists for the companion libraries of GRDB, which
///   name the fetcher of a reducer in generic code.
public protocol _ValueReducerFetcher: Sendable {
    /// What the fetcher returns.
    associatedtype Value

    /// Fetches from the database, inside the access that the observation
    /// opened for it.
    ///
    /// - Throws: An error that ends the observation.
    func fetch(_ db: Database) throws -> Value
}

/// What a ``ValueObservation`` does with the database: it fetches, then
/// turns what it fetched into the values it delivers.
///
/// Build observations with ``ValueObservation`` methods rather than with
/// your own reducers: ``ValueObservation/tracking(_:)``,
/// ``ValueObservation/map(_:)``, ``ValueObservation/removeDuplicates()``.
/// The fetching and reducing requirements come from `_ValueReducer`.
///
/// The metatype of a reducer is `Sendable` (``GRDBSendableMetatype``): an
/// observation makes its reducer on the thread that starts it.
public protocol ValueReducer: _ValueReducer, GRDBSendableMetatype { }

/// The reducers of ``ValueObservation``.
public enum ValueReducers {
    /// Fetches a value, and delivers it.
    public struct Fetch<Value: Sendable>: ValueReducer, Sendable {
        let fetch: @Sendable (Database) throws -> Value

        /// The fetching half of ``ValueReducers/Fetch``: it runs the function
        /// of the observation.
        ///
        /// - Note: This type exists for the companion libraries of GRDB,
        ///   which name the fetchers of reducers.
        public struct _Fetcher: _ValueReducerFetcher {
            let function: @Sendable (Database) throws -> Value

            /// Runs the function of the observation.
            ///
            /// - Throws: The error of the function.
            public func fetch(_ db: Database) throws -> Value { try function(db) }
        }

        /// Returns a fetcher that runs the function of the observation.
        ///
        /// - Note: This method exists for the companion libraries of GRDB
        ///   (see ``_ValueReducer/_makeFetcher()``).
        public func _makeFetcher() -> _Fetcher { _Fetcher(function: fetch) }

        /// Returns the fetched value, unchanged.
        ///
        /// - Note: This method exists for the companion libraries of GRDB
        ///   (see ``_ValueReducer/_value(_:)``).
        public func _value(_ fetched: Value) -> Value? { fetched }
    }

    /// Transforms the values of another reducer.
    public struct Map<Base: _ValueReducer, Value: Sendable>: ValueReducer {
        var base: Base
        let transform: @Sendable (Base.Value) throws -> Value

        /// Returns the fetcher of the base reducer.
        ///
        /// - Note: This method exists for the companion libraries of GRDB
        ///   (see ``_ValueReducer/_makeFetcher()``).
        public func _makeFetcher() -> Base.Fetcher { base._makeFetcher() }

        /// Returns the transformed value of the base reducer, or nil when
        /// the base reducer delivers nothing.
        ///
        /// - Note: This method exists for the companion libraries of GRDB
        ///   (see ``_ValueReducer/_value(_:)``).
        /// - Throws: The error of the base reducer or of the transform.
        public mutating func _value(_ fetched: Base.Fetcher.Value) throws -> Value? {
            try base._value(fetched).map(transform)
        }
    }

    /// The reducer of an observation that runs functions at its events
    /// (``ValueObservation/handleEvents(willStart:willFetch:willTrackRegion:databaseDidChange:didReceiveValue:didFail:didCancel:)``,
    /// ``ValueObservation/print(_:to:)``): it fetches and delivers what its
    /// base reducer does.
    public struct Trace<Base: ValueReducer>: ValueReducer {
        var base: Base

        /// The fetching half of ``ValueReducers/Trace``: it fetches what the
        /// fetcher of the base reducer fetches.
        ///
        /// The events of the observation (`willFetch`) are reported by the
        /// observation itself, around each fetch.
        ///
        /// - Note: This type exists for the companion libraries of GRDB,
        ///   which name the fetchers of reducers.
        public struct _Fetcher: _ValueReducerFetcher {
            let base: Base.Fetcher

            /// Fetches with the fetcher of the base reducer.
            ///
            /// - Throws: The error of the base fetcher.
            public func fetch(_ db: Database) throws -> Base.Fetcher.Value { try base.fetch(db) }
        }

        /// Returns a fetcher that fetches with the base reducer's.
        ///
        /// - Note: This method exists for the companion libraries of GRDB
        ///   (see ``_ValueReducer/_makeFetcher()``).
        public func _makeFetcher() -> _Fetcher { _Fetcher(base: base._makeFetcher()) }

        /// Returns the value of the base reducer.
        ///
        /// - Note: This method exists for the companion libraries of GRDB
        ///   (see ``_ValueReducer/_value(_:)``).
        /// - Throws: The error of the base reducer.
        public mutating func _value(_ fetched: Base.Fetcher.Value) throws -> Base.Value? {
            try base._value(fetched)
        }
    }

    /// Skips the values equal to the previous one.
    public struct RemoveDuplicates<Base: ValueReducer>: ValueReducer {
        var base: Base
        let predicate: @Sendable (Base.Value, Base.Value) -> Bool
        /// Sees all the values of the base reducer.
        let tap: (@Sendable (Base.Value) -> Void)?
        var previousValue: Base.Value?

        /// Returns the fetcher of the base reducer.
        ///
        /// - Note: This method exists for the companion libraries of GRDB
        ///   (see ``_ValueReducer/_makeFetcher()``).
        public func _makeFetcher() -> Base.Fetcher { base._makeFetcher() }

        /// Returns the value of the base reducer, or nil when it is a
        /// duplicate of the previous one.
        ///
        /// - Note: This method exists for the companion libraries of GRDB
        ///   (see ``_ValueReducer/_value(_:)``).
        /// - Throws: The error of the base reducer.
        public mutating func _value(_ fetched: Base.Fetcher.Value) throws -> Base.Value? {
            guard let value = try base._value(fetched) else { return nil }
            tap?(value)
            if let previousValue, predicate(previousValue, value) { return nil }
            previousValue = value
            return value
        }
    }
}
