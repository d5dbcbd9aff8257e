// Built with and without the Encryption trait (Cairn's SQLITE_HAS_CODEC):
// with it, `usePassphrase` and the C API of SQLite3 Multiple Ciphers are
// there, with no setting of this package for SQLite.
import Cairn
import Foundation

#if Encryption
let path = NSTemporaryDirectory() + "cairn-consumer-\(UUID().uuidString).sqlite"
defer { try? FileManager.default.removeItem(atPath: path) }
var config = Configuration()
config.prepareDatabase { db in try db.usePassphrase("secret") }
let dbQueue = try DatabaseQueue(path: path, configuration: config)
try dbQueue.write { db in
    try db.execute(sql: "CREATE TABLE t(name TEXT); INSERT INTO t VALUES ('Arthur')")
}
let name = try dbQueue.read { db in try String.fetchOne(db, sql: "SELECT name FROM t") }
// Without the passphrase, the file is not a database.
let opensInClear = (try? DatabaseQueue(path: path)) != nil
let engine = String(cString: sqlite3mc_version())
print("encryption: true name: \(name ?? "-") clear: \(opensInClear) engine: \(engine.hasPrefix("SQLite3 Multiple Ciphers"))")
#else
print("encryption: false")
#endif
