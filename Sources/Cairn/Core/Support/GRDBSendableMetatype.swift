/// The `SendableMetatype` protocol of the standard library, under the name
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
