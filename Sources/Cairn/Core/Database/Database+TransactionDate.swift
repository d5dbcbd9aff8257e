import Foundation

// The date of the current transaction: one date for all the writes of a
// transaction, from a clock that tests can replace.

/// The clock of ``Database/transactionDate``: see
/// ``Configuration/transactionClock``.
public protocol TransactionClock: Sendable {
    /// The current date.
    ///
    /// - Parameter db: The connection that asks for the date.
    /// - Throws: An error that `Database.transactionDate` throws.
    func now(_ db: Database) throws -> Date
}

/// The default clock: the date of the system.
public struct DefaultTransactionClock: TransactionClock {
    /// The current date of the system.
    public func now(_ db: Database) throws -> Date { Date() }
}

/// A clock that returns the dates of a function: for tests.
public struct CustomTransactionClock: TransactionClock {
    private let makeDate: @Sendable (Database) throws -> Date

    /// Creates a clock.
    public init(_ now: @escaping @Sendable (Database) throws -> Date) {
        makeDate = now
    }

    /// The date of the function.
    public func now(_ db: Database) throws -> Date { try makeDate(db) }
}

extension TransactionClock where Self == DefaultTransactionClock {
    /// The date of the system.
    public static var `default`: DefaultTransactionClock { DefaultTransactionClock() }
}

extension TransactionClock where Self == CustomTransactionClock {
    /// A clock that returns the dates of a function.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.transactionClock = .custom { _ in Date(timeIntervalSince1970: 0) }
    /// ```
    public static func custom(_ now: @escaping @Sendable (Database) throws -> Date) -> CustomTransactionClock {
        CustomTransactionClock(now)
    }
}

extension Database {
    /// The date of the current transaction: the same date for all the
    /// calls of one transaction, read from ``Configuration/transactionClock``
    /// at the first call. Outside of transactions, each call reads the
    /// clock.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     player.modificationDate = try db.transactionDate
    ///     try player.update(db)
    /// }
    /// ```
    ///
    /// - Throws: The error of the clock.
    public var transactionDate: Date {
        get throws {
            guard isInsideTransaction else {
                state.transaction.date = nil
                return try configuration.transactionClock.now(self)
            }
            if let date = state.transaction.date { return date }
            let date = try configuration.transactionClock.now(self)
            state.transaction.date = date
            return date
        }
    }

    /// After a statement that may have ended the transaction (COMMIT,
    /// ROLLBACK, a failure that rolled back): the next transaction has a
    /// new date.
    @inline(__always)
    func forgetTransactionDateIfTransactionEnded() {
        if _slowPath(state.transaction.date != nil) && !isInsideTransaction {
            state.transaction.date = nil
        }
    }
}
