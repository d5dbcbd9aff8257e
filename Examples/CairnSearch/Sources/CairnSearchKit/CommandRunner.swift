import Cairn
import Foundation

/// Runs `cairn-search` commands, and writes their output through
/// functions: the executable gives functions that write to the standard
/// output and error; tests give functions that collect the text.
///
/// ```swift
/// let runner = CommandRunner(
///     standardOutput: { print($0, terminator: "") },
///     standardError: { print($0, terminator: "") },
///     isTerminal: false)
/// let status = runner.run(["query", "sqlite", "--db", "notes.sqlite"])
/// ```
public struct CommandRunner {
    /// The exit status of a command that succeeded: 0.
    public static let success: Int32 = 0

    /// The exit status of a command that failed (a missing folder, a
    /// database that cannot be opened…): 1.
    public static let failure: Int32 = 1

    /// The exit status of a command whose arguments are wrong: 2.
    public static let usageError: Int32 = 2

    /// Writes text to the standard output. The text holds its own newlines.
    public var standardOutput: (String) -> Void

    /// Writes text to the standard error. The text holds its own newlines.
    public var standardError: (String) -> Void

    /// Whether the standard output is a terminal (`isatty(1)`): indexing
    /// then shows a progress bar.
    public var isTerminal: Bool

    /// Creates a runner.
    ///
    /// - Parameters:
    ///   - standardOutput: Writes text to the standard output.
    ///   - standardError: Writes text to the standard error.
    ///   - isTerminal: Whether the standard output is a terminal.
    public init(
        standardOutput: @escaping (String) -> Void,
        standardError: @escaping (String) -> Void,
        isTerminal: Bool)
    {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.isTerminal = isTerminal
    }

    /// Runs the command of the arguments and returns the exit status:
    /// ``success``, ``failure`` or ``usageError``. Errors are written to
    /// the standard error, prefixed with `cairn-search: `.
    ///
    /// - Parameter arguments: The arguments, without the program name.
    public func run(_ arguments: some Collection<String>) -> Int32 {
        let command: Command
        do {
            command = try Command(arguments: arguments)
        } catch {
            standardError("cairn-search: \(error)\nRun 'cairn-search help' for usage.\n")
            return Self.usageError
        }
        do {
            switch command {
            case .help:
                standardOutput(Command.usage + "\n")
            case let .index(directory, database):
                try runIndex(directory: directory, database: database)
            case let .query(text, database, limit, json):
                try runQuery(text: text, database: database, limit: limit, json: json)
            }
            return Self.success
        } catch {
            standardError("cairn-search: \(error)\n")
            return Self.failure
        }
    }

    private func runIndex(directory: String, database: String) throws {
        // A missing folder creates no database.
        _ = try SearchIndex.checkedDirectory(directory)
        let index = try SearchIndex(path: database, mode: .create)
        var progressBar = isTerminal ? ProgressBar() : nil
        let summary = try index.index(directory: directory) { progress in
            if let line = progressBar?.update(progress) {
                standardOutput(line)
            }
        }
        if progressBar?.isVisible == true {
            standardOutput(ProgressBar.clearLine)
        }
        for skipped in summary.skipped {
            standardError("cairn-search: skipped \(skipped.path): \(skipped.reason)\n")
        }
        standardOutput("Indexed \(summary.directory): \(summary)\n")
    }

    private func runQuery(text: String, database: String, limit: Int, json: Bool) throws {
        let index = try SearchIndex(path: database, mode: .readOnly)
        guard let results = try index.search(text, limit: limit) else {
            if json {
                standardOutput("[]\n")
            }
            // On the standard error with --json, so that the output stays JSON.
            let message = "Nothing to search: no word in \"\(text)\".\n"
            json ? standardError(message) : standardOutput(message)
            return
        }
        if json {
            standardOutput(try Self.json(results) + "\n")
        } else if results.isEmpty {
            standardOutput("No document matches \"\(text)\".\n")
        } else {
            standardOutput(Self.text(results))
        }
    }

    /// Results as text: for each one, its rank and path, then its title and
    /// its snippet, indented, and an empty line between results.
    ///
    /// ```
    /// 1. /notes/sqlite.md
    ///    [SQLite] notes
    ///    …an embedded [SQLite] database…
    /// ```
    ///
    /// - Parameter results: The results of a search.
    public static func text(_ results: [SearchResult]) -> String {
        results.enumerated().map { offset, result in
            let number = "\(offset + 1). "
            let indentation = String(repeating: " ", count: number.count)
            var lines = [number + result.path, indentation + result.title]
            if !result.snippet.isEmpty {
                lines.append(indentation + result.snippet)
            }
            return lines.joined(separator: "\n") + "\n"
        }.joined(separator: "\n")
    }

    /// Results as a JSON array of objects with `path`, `title`, `snippet`
    /// and `score`, pretty-printed with sorted keys, so that the output of
    /// a search is stable. No result is `[]`.
    ///
    /// - Parameter results: The results of a search.
    /// - Throws: An `EncodingError` (a score that is not a finite number).
    public static func json(_ results: [SearchResult]) throws -> String {
        if results.isEmpty {
            return "[]"
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(results), as: UTF8.self)
    }
}

/// A progress bar on one line of a terminal, redrawn in place with `\r`.
///
/// ```
/// [##########--------------------]  33%  120/360 notes/sqlite.md
/// ```
public struct ProgressBar {
    /// The number of characters of the bar, between the brackets.
    public var width = 30

    /// The longest file name shown after the counts; longer names are cut
    /// at the start.
    public var maximumNameLength = 40

    /// The minimum time between two redraws, in seconds, except for the
    /// last file, which is always drawn.
    public var interval: TimeInterval = 0.05

    /// Whether a line was drawn, that ``clearLine`` should erase.
    public private(set) var isVisible = false

    private var lastDraw: Date?

    /// Creates a progress bar.
    public init() { }

    /// Goes back to the start of the line, and erases it (`\r`, then the
    /// ANSI sequence that erases to the end of the line).
    public static let clearLine = "\r\u{1B}[K"

    /// The text that redraws the bar for this progress, or nil when the
    /// last redraw is too recent.
    ///
    /// - Parameter progress: The progress of an indexing.
    public mutating func update(_ progress: IndexProgress) -> String? {
        let now = Date()
        if progress.completed < progress.total, let lastDraw, now.timeIntervalSince(lastDraw) < interval {
            return nil
        }
        lastDraw = now
        isVisible = true
        return Self.clearLine + line(progress)
    }

    /// The bar for a progress, without control characters.
    ///
    /// - Parameter progress: The progress of an indexing.
    public func line(_ progress: IndexProgress) -> String {
        let total = max(progress.total, 1)
        let completed = min(max(progress.completed, 0), total)
        let filled = width * completed / total
        let percent = 100 * completed / total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let counts = "\(completed)/\(progress.total)"
        var name = (progress.path as NSString).lastPathComponent
        if name.count > maximumNameLength {
            name = "…" + name.suffix(maximumNameLength - 1)
        }
        let paddedPercent = String(repeating: " ", count: max(0, 3 - String(percent).count)) + "\(percent)%"
        return "[\(bar)] \(paddedPercent) \(counts) \(name)"
    }
}
