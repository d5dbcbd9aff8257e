import Cairn

let dbQueue = try DatabaseQueue()
let options = try dbQueue.read { db in
    try String.fetchAll(db, sql: "PRAGMA compile_options")
}
print("session: \(options.contains("ENABLE_SESSION")) fts5: \(options.contains("ENABLE_FTS5"))")
