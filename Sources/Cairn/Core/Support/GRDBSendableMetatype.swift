#if compiler(>=6.2)
/// The `SendableMetatype` protocol of the standard library (Swift 6.2), under the name
/// that the GRDB guides use.
///
/// A generic function constrains a type parameter to it when the metatype
/// (`T.self`) crosses to another thread or task, without requiring the
/// values of the type to be `Sendable`:
///
/// ```swift
/// func fetchAll<Record: FetchableRecord & TableRecord & GRDBSendableMetatype>(
///     _ type: Record.Type, in dbQueue: DatabaseQueue) async throws -> [Record]
/// where Record: Sendable
/// {
///     try await dbQueue.read { db in try Record.fetchAll(db) }
/// }
/// ```
public typealias GRDBSendableMetatype = SendableMetatype
#else
/// A protocol that every type adopts, for compilers that predate the
/// `SendableMetatype` protocol of the standard library (Swift 6.2): see the
/// documentation of Swift 6.2 and later.
public typealias GRDBSendableMetatype = Any
#endif
