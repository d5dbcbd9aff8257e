import Foundation
import Testing
import Cairn

/// One writer appends whole transactions while four readers loop over pool
/// reads and snapshot-pool reads. The outcome is deterministic: every read
/// sees a prefix of whole transactions, each snapshot pool always sees
/// exactly its snapshot, and no error surfaces.
@Suite struct ConcurrencyStressTests {
    static let rowsPerTransaction = 5
    static let transactionCount = 1000

    /// The state a read sees: for each transaction number, its row count.
    static func state(_ db: Database) throws -> [Int: Int] {
        var state: [Int: Int] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT txn, COUNT(*) FROM item GROUP BY txn")
        while let row = try rows.next() {
            state[row[0]] = row[1]
        }
        return state
    }

    /// Whether a state is a prefix of whole transactions.
    static func isPrefixOfWholeTransactions(_ state: [Int: Int]) -> Bool {
        let transactions = state.keys.sorted()
        return transactions == Array(0..<transactions.count)
            && state.values.allSatisfy { $0 == rowsPerTransaction }
    }

    @Test func writerAndReadersAgree() throws {
        let directory = try TemporaryDirectory()
        var config = Configuration()
        config.maximumReaderCount = 4
        let dbPool = try DatabasePool(path: directory.filePath(), configuration: config)
        try dbPool.write { db throws in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, txn INT NOT NULL, position INT NOT NULL)")
        }

        let errors = Locked<[String]>([])
        let violations = Locked<[String]>([])
        let writerDone = Locked(false)
        let readCounts = Locked((pool: 0, snapshotPool: 0))
        let group = DispatchGroup()

        group.enter()
        Thread {
            defer {
                writerDone.withLock { $0 = true }
                group.leave()
            }
            do {
                for txn in 0..<Self.transactionCount {
                    try dbPool.write { db throws in
                        for position in 0..<Self.rowsPerTransaction {
                            try db.execute(
                                sql: "INSERT INTO item (txn, position) VALUES (?, ?)",
                                arguments: [txn, position])
                        }
                    }
                    if txn % 25 == 0 { try dbPool.checkpoint(.passive) }
                }
            } catch {
                errors.withLock { $0.append("writer: \(error)") }
            }
        }.start()

        for readerIndex in 0..<4 {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    var iteration = 0
                    while !writerDone.withLock({ $0 }) || iteration < 3 {
                        iteration += 1
                        let state = try dbPool.read { db throws in try Self.state(db) }
                        if !Self.isPrefixOfWholeTransactions(state) {
                            violations.withLock { $0.append("pool read \(readerIndex): \(state)") }
                        }
                        readCounts.withLock { $0.pool += 1 }

                        if iteration % 5 == 1 {
                            let snapshotPool = try dbPool.makeSnapshotPool()
                            let expected = try snapshotPool.read { db throws in try Self.state(db) }
                            if !Self.isPrefixOfWholeTransactions(expected) {
                                violations.withLock { $0.append("snapshot pool \(readerIndex): \(expected)") }
                            }
                            for _ in 0..<5 {
                                let seen = try snapshotPool.read { db throws in try Self.state(db) }
                                if seen != expected {
                                    violations.withLock { $0.append("snapshot pool moved \(readerIndex): \(expected.count) -> \(seen.count)") }
                                }
                                readCounts.withLock { $0.snapshotPool += 1 }
                            }
                            try snapshotPool.close()
                        }
                    }
                } catch {
                    errors.withLock { $0.append("reader \(readerIndex): \(error)") }
                }
            }.start()
        }

        #expect(group.wait(timeout: .now() + 60) == .success)
        #expect(errors.withLock { $0 } == [])
        #expect(violations.withLock { $0 } == [])
        let counts = readCounts.withLock { $0 }
        #expect(counts.pool > 0 && counts.snapshotPool > 0, "\(counts)")
        let final = try dbPool.read { db throws in try Self.state(db) }
        #expect(final.count == Self.transactionCount)
        #expect(Self.isPrefixOfWholeTransactions(final))
    }
}
