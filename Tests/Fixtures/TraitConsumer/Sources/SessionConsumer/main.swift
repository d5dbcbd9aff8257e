import Cairn

// The C functions of the session extension, with `import Cairn` alone.
let cCreate: (OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32 = sqlite3session_create
let cDelete: (OpaquePointer?) -> Void = sqlite3session_delete
_ = (cCreate, cDelete)

// The Swift API.
let source = try DatabaseQueue()
let replica = try DatabaseQueue()
for dbQueue in [source, replica] {
    try dbQueue.write { db in
        try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    }
}
let changeset = try source.write { db in
    let session = try DatabaseSession(db)
    try session.attach("player")
    try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur'), (2, 'Barbara')")
    return try session.changeset()
}
try replica.write { db in
    try db.apply(changeset) { _ in .abort }
}
let names = try replica.read { db in
    try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id")
}
let options = try source.read { db in
    try String.fetchAll(db, sql: "PRAGMA compile_options")
}
print("session: \(options.contains("ENABLE_SESSION")) operations: \(try changeset.operations().count) replica: \(names.joined(separator: ","))")
