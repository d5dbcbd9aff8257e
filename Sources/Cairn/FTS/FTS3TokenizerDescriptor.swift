import Foundation

/// The descriptor of an FTS3 or FTS4 tokenizer: its name and arguments.
///
/// ```swift
/// t.tokenizer = .porter
/// t.tokenizer = .unicode61(diacritics: .keep)
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/fts3.html#tokenizer>
public struct FTS3TokenizerDescriptor: Hashable, Sendable {
    /// The name of the tokenizer.
    public let name: String
    /// The arguments of the tokenizer.
    public let arguments: [String]

    /// Creates a descriptor.
    public init(_ name: String, arguments: [String] = []) {
        self.name = name
        self.arguments = arguments
    }

    /// The simple tokenizer, the default: ASCII letters are lowercased.
    public static let simple = FTS3TokenizerDescriptor("simple")

    /// The porter stemmer.
    public static let porter = FTS3TokenizerDescriptor("porter")

    /// The unicode61 tokenizer: Unicode letters are lowercased, and
    /// diacritics of latin letters are removed.
    ///
    /// - Parameters:
    ///   - diacritics: How diacritics are treated; by default, removed as
    ///     SQLite does by default (`.removeLegacy`).
    ///   - separators: Characters that separate tokens.
    ///   - tokenCharacters: Characters that are part of tokens.
    public static func unicode61(
        diacritics: FTS3.Diacritics = .removeLegacy,
        separators: Set<Character> = [],
        tokenCharacters: Set<Character> = []) -> FTS3TokenizerDescriptor
    {
        var arguments: [String] = []
        switch diacritics {
        case .keep: arguments.append("remove_diacritics=0")
        case .removeLegacy: break
        case .remove: arguments.append("remove_diacritics=2")
        }
        if !separators.isEmpty {
            arguments.append("separators=" + String(separators.sorted()))
        }
        if !tokenCharacters.isEmpty {
            arguments.append("tokenchars=" + String(tokenCharacters.sorted()))
        }
        return FTS3TokenizerDescriptor("unicode61", arguments: arguments)
    }

    /// The `tokenize=` argument of a table.
    var tableArgument: String {
        "tokenize=" + ([name] + arguments.map(\.quotedFTS4Option)).joined(separator: " ")
    }

    /// The arguments of an `fts3tokenize` table.
    var fts3tokenizeArguments: String {
        ([name.quotedFTS4Option] + arguments.map(\.quotedFTS4Option)).joined(separator: ", ")
    }
}
