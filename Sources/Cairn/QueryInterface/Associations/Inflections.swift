import Foundation

/// The English singular and plural forms of the last word of camelCase
/// identifiers: Cairn derives the default keys of associations from table
/// names (`books`, `author`), and the default names of association
/// aggregates (`bookCount`).
///
/// ``default`` holds the English rules, derived from those of Ruby on
/// Rails' inflector. You can add your own rules to it, before you define
/// associations (at the start of your application):
///
/// ```swift
/// Inflections.default.irregularSuffix("foot", "feet")
/// Inflections.default.uncountableWords(["metadata"])
/// Inflections.default.pluralize("bigFoot")   // "bigFeet"
/// ```
///
/// Rules apply to the last word of the string (`lineItem` → `Item`,
/// `HTMLPage` → `Page`), and
/// trailing digits are kept as they are (`books2` → `book2`). A rule added
/// later takes precedence over the rules added before; uncountable words
/// take precedence over all rules.
public struct Inflections: Sendable {
    /// The pluralization rules, the most recent last.
    private var pluralRules: [Rule] = []
    /// The singularization rules, the most recent last.
    private var singularRules: [Rule] = []
    /// Lowercased uncountable words.
    private var uncountables: Set<String> = []
    /// The inflections computed so far with these rules: requests are
    /// built again and again from the same associations. Replaced when the
    /// rules change.
    private var cache = InflectionCache()

    /// Creates inflections without any rule: strings are left as they are
    /// until you add rules.
    ///
    /// ```swift
    /// var inflections = Inflections()
    /// inflections.plural("$", "s")
    /// inflections.pluralize("player") // "players"
    /// ```
    public init() { }

    /// The inflections that Cairn uses: English rules.
    ///
    /// Modify them before you define associations, and never while other
    /// threads use them (for example in the initialization of your
    /// application): they are not protected against concurrent
    /// modification.
    nonisolated(unsafe) public static var `default`: Inflections = .english

    // MARK: - Configuration

    /// Adds a pluralization rule, which takes precedence over the rules
    /// added before.
    ///
    /// ```swift
    /// var inflections = Inflections()
    /// inflections.plural("$", "s")
    /// inflections.plural("(x|ch|ss|sh)$", "$1es")
    /// inflections.pluralize("box")  // "boxes"
    /// ```
    ///
    /// - Parameters:
    ///   - pattern: A regular expression (`NSRegularExpression` syntax)
    ///     matched against the last word.
    ///   - options: The options of the regular expression; case-insensitive
    ///     by default.
    ///   - template: The replacement of the match: `$1` is the first
    ///     captured group.
    /// - Precondition: `pattern` is a valid regular expression (an invalid
    ///   one is a programmer error, which stops the program with a message).
    public mutating func plural(
        _ pattern: String,
        options: NSRegularExpression.Options = [.caseInsensitive],
        _ template: String)
    {
        pluralRules.append(Rule(pattern, options: options, template))
        cache = InflectionCache()
    }

    /// Adds a singularization rule, which takes precedence over the rules
    /// added before.
    ///
    /// ```swift
    /// var inflections = Inflections()
    /// inflections.singular("s$", "")
    /// inflections.singularize("players") // "player"
    /// ```
    ///
    /// - Parameters:
    ///   - pattern: A regular expression (`NSRegularExpression` syntax)
    ///     matched against the last word.
    ///   - options: The options of the regular expression; case-insensitive
    ///     by default.
    ///   - template: The replacement of the match: `$1` is the first
    ///     captured group.
    /// - Precondition: `pattern` is a valid regular expression.
    public mutating func singular(
        _ pattern: String,
        options: NSRegularExpression.Options = [.caseInsensitive],
        _ template: String)
    {
        singularRules.append(Rule(pattern, options: options, template))
        cache = InflectionCache()
    }

    /// Adds words that have no plural form: they are left as they are
    /// (compared without regard to case).
    ///
    /// ```swift
    /// var inflections = Inflections()
    /// inflections.plural("$", "s")
    /// inflections.uncountableWords(["equipment"])
    /// inflections.pluralize("equipment")  // "equipment"
    /// inflections.pluralize("tool")       // "tools"
    /// ```
    ///
    /// - Parameter words: The uncountable words.
    public mutating func uncountableWords(_ words: [String]) {
        uncountables.formUnion(words.map { $0.lowercased() })
        cache = InflectionCache()
    }

    /// Adds an irregular pair of suffixes: words that end with the singular
    /// suffix end with the plural suffix in the plural, and back. The first
    /// letter keeps its case.
    ///
    /// ```swift
    /// var inflections = Inflections()
    /// inflections.plural("$", "s")
    /// inflections.irregularSuffix("man", "men")
    /// inflections.pluralize("man")        // "men"
    /// inflections.pluralize("Woman")      // "Women"
    /// inflections.singularize("women")    // "woman"
    /// ```
    ///
    /// An empty suffix is ignored.
    ///
    /// - Parameters:
    ///   - singular: The singular suffix.
    ///   - plural: The plural suffix.
    public mutating func irregularSuffix(_ singular: String, _ plural: String) {
        addIrregular(singular, plural, anchor: "")
    }

    /// Adds an irregular pair of words: the whole last word only (`person`
    /// → `people`, but `salesperson` → `salespersons`).
    mutating func irregularWord(_ singular: String, _ plural: String) {
        addIrregular(singular, plural, anchor: "^")
    }

    private mutating func addIrregular(_ singular: String, _ plural: String, anchor: String) {
        guard let s0 = singular.first, let p0 = plural.first else { return }
        let sRest = NSRegularExpression.escapedPattern(for: String(singular.dropFirst()))
        let pRest = NSRegularExpression.escapedPattern(for: String(plural.dropFirst()))
        let sTail = NSRegularExpression.escapedTemplate(for: String(singular.dropFirst()))
        let pTail = NSRegularExpression.escapedTemplate(for: String(plural.dropFirst()))
        let s0Pattern = NSRegularExpression.escapedPattern(for: String(s0))
        let p0Pattern = NSRegularExpression.escapedPattern(for: String(p0))
        if s0.lowercased() == p0.lowercased() {
            // The first letter is captured, and keeps its case.
            self.plural("\(anchor)(\(s0Pattern))\(sRest)$", options: [.caseInsensitive], "$1" + pTail)
            self.plural("\(anchor)(\(p0Pattern))\(pRest)$", options: [.caseInsensitive], "$1" + pTail)
            self.singular("\(anchor)(\(s0Pattern))\(sRest)$", options: [.caseInsensitive], "$1" + sTail)
            self.singular("\(anchor)(\(p0Pattern))\(pRest)$", options: [.caseInsensitive], "$1" + sTail)
        } else {
            // One rule per case of the first letter.
            for (sFirst, pFirst) in [(s0.uppercased(), p0.uppercased()), (s0.lowercased(), p0.lowercased())] {
                let sFirstPattern = NSRegularExpression.escapedPattern(for: sFirst)
                let pFirstPattern = NSRegularExpression.escapedPattern(for: pFirst)
                let sFirstTemplate = NSRegularExpression.escapedTemplate(for: sFirst)
                let pFirstTemplate = NSRegularExpression.escapedTemplate(for: pFirst)
                self.plural("\(anchor)\(sFirstPattern)(?i)\(sRest)$", options: [], pFirstTemplate + pTail)
                self.plural("\(anchor)\(pFirstPattern)(?i)\(pRest)$", options: [], pFirstTemplate + pTail)
                self.singular("\(anchor)\(sFirstPattern)(?i)\(sRest)$", options: [], sFirstTemplate + sTail)
                self.singular("\(anchor)\(pFirstPattern)(?i)\(pRest)$", options: [], sFirstTemplate + sTail)
            }
        }
    }

    // MARK: - Inflections

    /// Returns the plural form of the last word of a string.
    ///
    /// ```swift
    /// Inflections.default.pluralize("book")      // "books"
    /// Inflections.default.pluralize("person")    // "people"
    /// Inflections.default.pluralize("lineItem")  // "lineItems"
    /// ```
    ///
    /// - Parameter string: A word, or a camelCase identifier.
    public func pluralize(_ string: String) -> String {
        cached(string, plural: true) { inflect(string, rules: pluralRules) }
    }

    /// Returns the singular form of the last word of a string.
    ///
    /// ```swift
    /// Inflections.default.singularize("books")      // "book"
    /// Inflections.default.singularize("people")     // "person"
    /// Inflections.default.singularize("lineItems")  // "lineItem"
    /// ```
    ///
    /// - Parameter string: A word, or a camelCase identifier.
    public func singularize(_ string: String) -> String {
        cached(string, plural: false) { inflect(string, rules: singularRules) }
    }

    private func cached(_ string: String, plural: Bool, _ inflect: () -> String) -> String {
        let key = (plural ? "p:" : "s:") + string
        if let inflected = cache.storage.withLock({ $0[key] }) { return inflected }
        let inflected = inflect()
        cache.storage.withLock { cache in
            // A bounded cache: identifiers come from the application's code.
            if cache.count > 10_000 { cache.removeAll() }
            cache[key] = inflected
        }
        return inflected
    }

    /// Uppercases the first letter: `book` → `Book`.
    static func capitalizingFirstLetter(_ string: String) -> String {
        guard let first = string.first else { return string }
        return first.uppercased() + string.dropFirst()
    }

    private func inflect(_ string: String, rules: [Rule]) -> String {
        // Trailing digits are kept as they are: `books2` → `book2`.
        let digits = string.reversed().prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty {
            let stem = String(string.dropLast(digits.count))
            guard !stem.isEmpty else { return string }
            return inflect(stem, rules: rules) + String(digits.reversed())
        }
        // The last word of a camelCase identifier: `lineItem` → `Item`,
        // `htmlURL` → `URL`, `HTMLPage` → `Page`, `QUIZ` → `QUIZ`.
        var wordStart = string.startIndex
        var previous: Character?
        var index = string.startIndex
        while index < string.endIndex {
            let character = string[index]
            let next = string.index(after: index)
            if character.isUppercase, let previous {
                if previous.isLowercase || previous.isNumber {
                    wordStart = index
                } else if previous.isUppercase, next < string.endIndex, string[next].isLowercase {
                    wordStart = index
                }
            }
            previous = character
            index = next
        }
        let prefix = String(string[..<wordStart])
        let word = String(string[wordStart...])
        guard !word.isEmpty else { return string }
        if uncountables.contains(word.lowercased()) {
            return string
        }
        // The most recent rule first.
        let range = NSRange(word.startIndex..., in: word)
        for rule in rules.reversed() where rule.regex.firstMatch(in: word, range: range) != nil {
            return prefix + rule.regex.stringByReplacingMatches(in: word, range: range, withTemplate: rule.template)
        }
        return string
    }

    /// A rule: a pattern and its replacement.
    private struct Rule: @unchecked Sendable {
        // Unchecked Sendable: NSRegularExpression is immutable and
        // thread-safe.
        let regex: NSRegularExpression
        let template: String

        init(_ pattern: String, options: NSRegularExpression.Options, _ template: String) {
            do {
                regex = try NSRegularExpression(pattern: pattern, options: options)
            } catch {
                // The API does not throw, as in the GRDB guides: an invalid
                // pattern is a programmer error.
                stopProgram("Invalid inflection pattern \(String(reflecting: pattern)): \(error)")
            }
            self.template = template
        }
    }

    // MARK: - English

    /// The English inflections.
    private static var english: Inflections {
        var inflections = Inflections()
        // The rules of the tables below come the most specific first: the
        // last added takes precedence.
        for (pattern, template) in pluralRuleTable.reversed() {
            inflections.plural(pattern, template)
        }
        for (pattern, template) in singularRuleTable.reversed() {
            inflections.singular(pattern, template)
        }
        for (singular, plural) in irregularWordTable.sorted(by: { $0.key < $1.key }) {
            inflections.irregularWord(singular, plural)
        }
        inflections.uncountableWords(Array(uncountableTable))
        return inflections
    }

    private static let uncountableTable: Set<String> = [
        "equipment", "information", "rice", "money", "species", "series", "fish", "sheep", "jeans",
        "police", "news", "data", "metadata", "deer", "aircraft", "software", "feedback",
    ]

    /// Irregular words, singular to plural.
    private static let irregularWordTable: [String: String] = [
        "person": "people", "man": "men", "woman": "women", "child": "children", "sex": "sexes",
        "move": "moves", "zombie": "zombies", "goose": "geese", "tooth": "teeth", "foot": "feet",
        "cow": "kine", "datum": "data", "medium": "media", "criterion": "criteria",
    ]

    private static let pluralRuleTable: [(String, String)] = [
        ("(quiz)$", "$1zes"),
        ("^(oxen)$", "$1"),
        ("^(ox)$", "$1en"),
        ("^(m|l)ice$", "$1ice"),
        ("^(m|l)ouse$", "$1ice"),
        ("(matr|vert|ind)(?:ix|ex)$", "$1ices"),
        ("(x|ch|ss|sh)$", "$1es"),
        ("([^aeiouy]|qu)y$", "$1ies"),
        ("(hive)$", "$1s"),
        ("(?:([^f])fe|([lr])f)$", "$1$2ves"),
        ("sis$", "ses"),
        ("([ti])a$", "$1a"),
        ("([ti])um$", "$1a"),
        ("(buffal|tomat|potat|her)o$", "$1oes"),
        ("(bu)s$", "$1ses"),
        ("(alias|status|campus)$", "$1es"),
        ("(octop|vir)i$", "$1i"),
        ("(octop|vir)us$", "$1i"),
        ("^(ax|test)is$", "$1es"),
        ("s$", "s"),
        ("$", "s"),
    ]

    private static let singularRuleTable: [(String, String)] = [
        ("(database)s$", "$1"),
        ("(quiz)zes$", "$1"),
        ("(matr)ices$", "$1ix"),
        ("(vert|ind)ices$", "$1ex"),
        ("^(ox)en", "$1"),
        ("(alias|status|campus)(es)?$", "$1"),
        ("(octop|vir)(us|i)$", "$1us"),
        ("^(a)x[ie]s$", "$1xis"),
        ("(cris|test)(is|es)$", "$1is"),
        ("(shoe)s$", "$1"),
        ("(o)es$", "$1"),
        ("(bus)(es)?$", "$1"),
        ("^(m|l)ice$", "$1ouse"),
        ("(x|ch|ss|sh)es$", "$1"),
        ("(m)ovies$", "$1ovie"),
        ("([^aeiouy]|qu)ies$", "$1y"),
        ("([lr])ves$", "$1f"),
        ("(tive)s$", "$1"),
        ("(hive)s$", "$1"),
        ("([^f])ves$", "$1fe"),
        ("(^analy)(sis|ses)$", "$1sis"),
        ("((a)naly|(b)a|(d)iagno|(p)arenthe|(p)rogno|(s)ynop|(t)he)(sis|ses)$", "$1sis"),
        ("([ti])a$", "$1um"),
        ("(ss)$", "$1"),
        ("(us)$", "$1"),
        ("s$", ""),
    ]
}

/// The memoized inflections of one set of rules.
private final class InflectionCache: Sendable {
    let storage = Locked<[String: String]>([:])
}
