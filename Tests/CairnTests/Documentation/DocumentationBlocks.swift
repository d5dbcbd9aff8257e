import Foundation
import Testing
import Cairn

/// The Swift blocks of a Markdown document (README.md, the DocC articles),
/// and the check that a copy file of the tests holds each of them.
///
/// A copy file holds each block between the markers `// LABEL block N` and
/// `// end of LABEL block N`, where N is the index of the block among the
/// ```` ```swift ```` blocks of the document, counting from 0. The region
/// holds every line of the block, in order; the other lines of the region
/// only wrap the block so that it compiles and runs (namespaces for its
/// types, functions for its statements, the use of values that the block
/// leaves unused).
enum DocumentationBlocks {
    /// The root of the checkout.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Documentation
        .deletingLastPathComponent()  // CairnTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// The text of a file of the checkout.
    static func contents(of relativePath: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relativePath), encoding: .utf8)
    }

    /// The ```` ```swift ```` blocks of a Markdown text, in order.
    static func swiftBlocks(in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    /// Whether a block is copied and compiled by the tests: blocks of
    /// `Package.swift` (`.package(…)`) are not Swift code of a program.
    static func isCopied(_ block: String) -> Bool {
        !block.contains(".package(")
    }

    /// The lines that must match: trimmed, without blank lines and imports,
    /// with the documents' database path as the copies name it
    /// (`databasePath`).
    ///
    /// Copies name the extended type of an `extension` with its namespace,
    /// because Swift only extends types at file scope:
    /// `extension GettingStartedArticle.Player {` stands for the document's
    /// `extension Player {`.
    static func significantLines(_ text: some StringProtocol) -> [String] {
        text.split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("import ") }
            .map { $0.replacingOccurrences(of: "\"/path/to/database.sqlite\"", with: "databasePath") }
            .map(unqualifiedExtension)
    }

    /// `extension SomeArticle.Namespace.Player {` → `extension Player {`.
    private static func unqualifiedExtension(_ line: String) -> String {
        let prefix = "extension "
        guard line.hasPrefix(prefix) else { return line }
        let rest = line.dropFirst(prefix.count)
        let typeName = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
        let components = typeName.split(separator: ".")
        guard components.count > 1, components[0].hasSuffix("Article") else { return line }
        return prefix + components[components.count - 1] + rest.dropFirst(typeName.count)
    }

    /// Records an issue for each copied block of `blocks` whose lines are
    /// not all, in order, between the markers `// LABEL block N` and
    /// `// end of LABEL block N` of `copies`, and for each marker of a block
    /// that the document does not have.
    ///
    /// - Parameters:
    ///   - blocks: The Swift blocks of the document.
    ///   - label: The name of the document in the markers (`README`,
    ///     `GettingStarted.md`).
    ///   - copies: The text of the copy file.
    ///   - copyFileName: The name of the copy file, for the messages.
    static func checkCopies(
        of blocks: [String],
        label: String,
        in copies: String,
        copyFileName: String,
        sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        for (index, block) in blocks.enumerated() {
            if !isCopied(block) { continue }
            let start = try #require(
                copies.range(of: "// \(label) block \(index)\n"),
                "\(label) block \(index) is missing from \(copyFileName):\n\(block)",
                sourceLocation: sourceLocation)
            let end = try #require(
                copies.range(of: "// end of \(label) block \(index)\n", range: start.upperBound..<copies.endIndex),
                "\(copyFileName) lacks the marker: // end of \(label) block \(index)",
                sourceLocation: sourceLocation)
            let region = significantLines(copies[start.upperBound..<end.lowerBound])
            // Each line of the block, in order, in the region.
            var position = region.startIndex
            for line in significantLines(block) {
                guard let found = region[position...].firstIndex(of: line) else {
                    Issue.record(
                        "\(label) block \(index): \(copyFileName) lacks, in order, the line: \(line)",
                        sourceLocation: sourceLocation)
                    break
                }
                position = found + 1
            }
        }
        // No copy of a block that the document no longer has.
        let copied = copies.components(separatedBy: "\n").filter { $0.hasPrefix("// \(label) block ") }
        #expect(copied.count == blocks.filter(isCopied).count,
                "\(copyFileName) has \(copied.count) blocks, \(label) has \(blocks.filter(isCopied).count)",
                sourceLocation: sourceLocation)
    }
}

/// The SQL statements that the connections of a configuration run, for the
/// tests that check the SQL that a document shows.
final class DocumentationSQLRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var statements: [String] = []

    /// A configuration whose connections record their statements.
    func configuration(_ base: Configuration = Configuration()) -> Configuration {
        var configuration = base
        configuration.prepareDatabase { [self] db in
            db.trace { [self] event in
                lock.lock()
                statements.append(event.description)
                lock.unlock()
            }
        }
        return configuration
    }

    /// Returns the statements recorded by `body`.
    func sql<T>(_ body: () throws -> T) rethrows -> (value: T, sql: [String]) {
        lock.lock()
        statements.removeAll()
        lock.unlock()
        let value = try body()
        lock.lock()
        defer { lock.unlock() }
        return (value, statements)
    }
}
