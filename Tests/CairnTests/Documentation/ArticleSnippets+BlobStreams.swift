import Foundation
import Cairn

// The Swift code of Sources/Cairn/Documentation.docc/BlobStreams.md, block
// by block, so that it compiles and runs in the tests (ArticleTests checks
// that each block of the article is here, line after line, between its
// markers). Lines that are not in the article only wrap the blocks: a
// namespace, functions for their statements (with the `dbQueue` that the
// article assumes, on a table `document (id, name, content)`, and the
// values that it names: `name`, `fileSize`, `pieces`, `documentID`,
// `output`), and what the tests read.
enum BlobStreamsArticle {
    /// The `output` of block 1: it keeps the chunks, so that the tests
    /// check their sizes.
    final class Output {
        var chunks: [Data] = []

        func write(_ chunk: Data) {
            chunks.append(chunk)
        }
    }
}

// BlobStreams.md block 0
extension BlobStreamsArticle {
    static func block0(_ dbQueue: DatabaseQueue, name: String, fileSize: Int, pieces: [Data]) throws -> Int64 {
        // `fileSize`: the size of the file. `pieces`: its bytes, in order, 1 MB
        // at a time (read from a FileHandle, received from the network…).
        let documentID = try dbQueue.write { db in
            try db.execute(
                sql: "INSERT INTO document (name, content) VALUES (?, zeroblob(?))",
                arguments: [name, fileSize])
            let rowID = db.lastInsertedRowID
            let blob = try db.openBlob(table: "document", column: "content", rowID: rowID, readOnly: false)
            var offset = 0
            for piece in pieces {
                try blob.write(piece, at: offset)
                offset += piece.count
            }
            return rowID
        }
        return documentID
    }
}
// end of BlobStreams.md block 0

// BlobStreams.md block 1
extension BlobStreamsArticle {
    static func block1(_ dbQueue: DatabaseQueue, documentID: Int64, output: Output) throws {
        try dbQueue.read { db in
            let blob = try db.openBlob(table: "document", column: "content", rowID: documentID)
            var offset = 0
            while offset < blob.count {
                let chunk = try blob.read(count: min(1 << 20, blob.count - offset), at: offset)
                output.write(chunk)   // a FileHandle, a network connection…
                offset += chunk.count
            }
        }
    }
}
// end of BlobStreams.md block 1

// BlobStreams.md block 2
extension BlobStreamsArticle {
    static func block2(_ dbQueue: DatabaseQueue, documentID: Int64) throws -> UInt32 {
        var buffer = [UInt8](repeating: 0, count: 65_536)   // allocated once
        var checksum: UInt32 = 0
        try dbQueue.read { db in
            let blob = try db.openBlob(table: "document", column: "content", rowID: documentID)
            for offset in stride(from: 0, to: blob.count, by: buffer.count) {
                let count = min(buffer.count, blob.count - offset)
                try buffer.withUnsafeMutableBytes { bytes in
                    try blob.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[..<count]), at: offset)
                }
                for byte in buffer[..<count] {
                    checksum = checksum &* 31 &+ UInt32(byte)
                }
            }
        }
        return checksum
    }

    /// The checksum of block 2, computed on bytes in memory.
    static func checksum(of bytes: Data) -> UInt32 {
        var checksum: UInt32 = 0
        for byte in bytes {
            checksum = checksum &* 31 &+ UInt32(byte)
        }
        return checksum
    }
}
// end of BlobStreams.md block 2

// BlobStreams.md block 3
extension BlobStreamsArticle {
    static func block3(_ dbQueue: DatabaseQueue, documentID: Int64) throws {
        try dbQueue.write { db in
            let blob = try db.openBlob(table: "document", column: "content", rowID: documentID, readOnly: false)
            try blob.write(Data("%PDF".utf8), at: 0)
            try db.execute(sql: "UPDATE document SET name = ? WHERE id = ?", arguments: ["report.pdf", documentID])
            // The row changed: the blob throws SQLITE_ABORT until it is reopened.
            try blob.reopen(rowID: documentID)
            try blob.write(Data("-1.7".utf8), at: 4)
        }
    }
}
// end of BlobStreams.md block 3
