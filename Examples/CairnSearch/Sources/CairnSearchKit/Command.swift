/// A command of `cairn-search`, parsed from its arguments.
///
/// ```swift
/// let command = try Command(arguments: ["query", "sqlite", "--db", "notes.sqlite", "--json"])
/// // .query(text: "sqlite", database: "notes.sqlite", limit: 10, json: true)
/// ```
public enum Command: Equatable, Sendable {
    /// `cairn-search index DIR --db FILE`: indexes a folder.
    case index(directory: String, database: String)

    /// `cairn-search query WORDS… --db FILE [--limit N] [--json]`: searches
    /// the index. Several words are joined with spaces.
    case query(text: String, database: String, limit: Int, json: Bool)

    /// `cairn-search help`, `--help` or `-h`: prints the usage.
    case help

    /// The usage of the program.
    public static let usage = """
        Usage:
          cairn-search index DIR --db FILE
              Indexes the .txt, .md and .markdown files of DIR and its subfolders
              in the database FILE (created when needed). Indexing again only reads
              the files that changed, and removes the files that disappeared.
          cairn-search query WORDS... --db FILE [--limit N] [--json]
              Prints the documents that contain all WORDS, best matches first.
              --limit N   prints at most N results (default \(SearchIndex.defaultLimit))
              --json      prints a JSON array of {path, title, snippet, score}
          cairn-search help
              Prints this help.

        Put -- before words that start with a dash: cairn-search query --db FILE -- -x
        """

    /// Parses the arguments of the program, without the program name.
    ///
    /// Options can come before or after the other arguments, as
    /// `--db FILE` or `--db=FILE`; after `--`, every argument is a word.
    ///
    /// - Parameter arguments: The arguments, such as
    ///   `CommandLine.arguments.dropFirst()`.
    /// - Throws: An ``ArgumentError`` that says what is wrong.
    public init(arguments: some Collection<String>) throws(ArgumentError) {
        guard let name = arguments.first else {
            throw ArgumentError("missing command (index, query or help)")
        }
        let rest = Array(arguments.dropFirst())
        switch name {
        case "help", "--help", "-h":
            self = .help
        case "index":
            let parsed = try ParsedArguments(rest, valueOptions: ["--db"], flags: [], command: name)
            guard let directory = parsed.positional.first else {
                throw ArgumentError("index: missing folder (cairn-search index DIR --db FILE)")
            }
            guard parsed.positional.count == 1 else {
                throw ArgumentError("index: one folder at a time, got \(parsed.positional.count)")
            }
            guard !directory.isEmpty else {
                throw ArgumentError("index: the folder name is empty")
            }
            self = .index(directory: directory, database: try parsed.database())
        case "query":
            let parsed = try ParsedArguments(rest, valueOptions: ["--db", "--limit"], flags: ["--json"], command: name)
            guard !parsed.positional.isEmpty else {
                throw ArgumentError("query: missing words to search (cairn-search query WORDS --db FILE)")
            }
            var limit = SearchIndex.defaultLimit
            if let text = parsed.values["--limit"] {
                guard let value = Int(text), value > 0 else {
                    throw ArgumentError("query: --limit needs a positive whole number, got \"\(text)\"")
                }
                limit = value
            }
            self = .query(
                text: parsed.positional.joined(separator: " "),
                database: try parsed.database(),
                limit: limit,
                json: parsed.flags.contains("--json"))
        default:
            throw ArgumentError("unknown command \"\(name)\" (index, query or help)")
        }
    }
}

/// A mistake in the arguments of `cairn-search`.
public struct ArgumentError: Error, Equatable, CustomStringConvertible {
    /// What is wrong.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameter message: What is wrong.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// The options and other arguments of a command.
private struct ParsedArguments {
    var positional: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []
    let command: String

    init(_ arguments: [String], valueOptions: Set<String>, flags allowedFlags: Set<String>, command: String) throws(ArgumentError) {
        self.command = command
        var index = arguments.startIndex
        var onlyWords = false
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if onlyWords || argument == "-" || !argument.hasPrefix("-") {
                positional.append(argument)
                continue
            }
            if argument == "--" {
                onlyWords = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equal = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equal])
                inlineValue = String(argument[argument.index(after: equal)...])
            }
            if valueOptions.contains(name) {
                guard values[name] == nil else {
                    throw ArgumentError("\(command): \(name) is given twice")
                }
                if let inlineValue {
                    values[name] = inlineValue
                } else if index < arguments.endIndex {
                    values[name] = arguments[index]
                    index += 1
                } else {
                    throw ArgumentError("\(command): \(name) needs a value")
                }
            } else if allowedFlags.contains(name) && inlineValue == nil {
                flags.insert(name)
            } else {
                throw ArgumentError("\(command): unknown option \(argument) (put words that start with a dash after --)")
            }
        }
    }

    /// The value of `--db`.
    func database() throws(ArgumentError) -> String {
        guard let database = values["--db"] else {
            throw ArgumentError("\(command): missing --db FILE")
        }
        guard !database.isEmpty else {
            throw ArgumentError("\(command): --db needs a file name")
        }
        return database
    }
}
