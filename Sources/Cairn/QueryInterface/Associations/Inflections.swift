import Foundation

/// English singular and plural forms of the last word of camelCase
/// identifiers, for the default association keys (`books`, `author`) and
/// the default names of aggregates (`bookCount`).
///
/// The rules follow those of Ruby on Rails' inflector: uncountable words,
/// irregular words, then suffix rules, the most specific first.
enum Inflections {
    /// `book` → `books`, `person` → `people`, `lineItem` → `lineItems`.
    static func pluralize(_ string: String) -> String {
        cached(string, plural: true) { inflect(string, irregular: irregularPlurals, rules: pluralRules) }
    }

    /// `books` → `book`, `people` → `person`, `lineItems` → `lineItem`.
    static func singularize(_ string: String) -> String {
        cached(string, plural: false) { inflect(string, irregular: irregularSingulars, rules: singularRules) }
    }

    /// The inflections computed so far: requests are built again and again
    /// from the same associations.
    private static let cache = Locked<[String: String]>([:])

    private static func cached(_ string: String, plural: Bool, _ inflect: () -> String) -> String {
        let key = (plural ? "p:" : "s:") + string
        if let inflected = cache.withLock({ $0[key] }) { return inflected }
        let inflected = inflect()
        cache.withLock { cache in
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

    private static func inflect(_ string: String, irregular: [String: String], rules: [Rule]) -> String {
        // Trailing digits are kept as they are: `books2` → `book2`.
        let digits = string.reversed().prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty {
            let stem = String(string.dropLast(digits.count))
            guard !stem.isEmpty else { return string }
            return inflect(stem, irregular: irregular, rules: rules) + String(digits.reversed())
        }
        // The last word of a camelCase identifier: `lineItem` → `Item`.
        var wordStart = string.startIndex
        for index in string.indices where string[index].isUppercase {
            wordStart = index
        }
        let prefix = String(string[..<wordStart])
        let word = String(string[wordStart...])
        let lowercased = word.lowercased()
        guard !lowercased.isEmpty else { return string }
        if uncountables.contains(lowercased) {
            return string
        }
        if let replacement = irregular[lowercased] {
            return prefix + matchingCase(replacement, of: word)
        }
        for rule in rules {
            let range = NSRange(word.startIndex..., in: word)
            if rule.regex.firstMatch(in: word, range: range) != nil {
                return prefix + rule.regex.stringByReplacingMatches(in: word, range: range, withTemplate: rule.template)
            }
        }
        return string
    }

    /// The replacement, with an uppercase first letter when `word` has one.
    private static func matchingCase(_ replacement: String, of word: String) -> String {
        if word.first?.isUppercase == true {
            return capitalizingFirstLetter(replacement)
        }
        return replacement
    }

    /// A suffix rule: a case-insensitive pattern and its replacement.
    private struct Rule: @unchecked Sendable {
        // Unchecked Sendable: NSRegularExpression is immutable and
        // thread-safe.
        let regex: NSRegularExpression
        let template: String

        init(_ pattern: String, _ template: String) {
            // The patterns are constants of this file, never user input: a
            // failure is a programmer error, that every test declaring an
            // association would hit (the rules are built all at once).
            regex = try! NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
            self.template = template
        }
    }

    private static let uncountables: Set<String> = [
        "equipment", "information", "rice", "money", "species", "series", "fish", "sheep", "jeans",
        "police", "news", "data", "metadata", "deer", "aircraft", "software", "feedback",
    ]

    /// Irregular words, singular to plural.
    private static let irregularWords: [String: String] = [
        "person": "people", "man": "men", "woman": "women", "child": "children", "sex": "sexes",
        "move": "moves", "zombie": "zombies", "goose": "geese", "tooth": "teeth", "foot": "feet",
        "cow": "kine", "datum": "data", "medium": "media", "criterion": "criteria",
    ]

    /// Irregular words to their plural, plural words included.
    private static let irregularPlurals: [String: String] = {
        var plurals = irregularWords
        for plural in irregularWords.values { plurals[plural] = plural }
        return plurals
    }()

    /// Irregular words to their singular, singular words included.
    private static let irregularSingulars: [String: String] = {
        var singulars = Dictionary(irregularWords.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        for singular in irregularWords.keys { singulars[singular] = singular }
        return singulars
    }()

    private static let pluralRules: [Rule] = [
        Rule("(quiz)$", "$1zes"),
        Rule("^(oxen)$", "$1"),
        Rule("^(ox)$", "$1en"),
        Rule("^(m|l)ice$", "$1ice"),
        Rule("^(m|l)ouse$", "$1ice"),
        Rule("(matr|vert|ind)(?:ix|ex)$", "$1ices"),
        Rule("(x|ch|ss|sh)$", "$1es"),
        Rule("([^aeiouy]|qu)y$", "$1ies"),
        Rule("(hive)$", "$1s"),
        Rule("(?:([^f])fe|([lr])f)$", "$1$2ves"),
        Rule("sis$", "ses"),
        Rule("([ti])a$", "$1a"),
        Rule("([ti])um$", "$1a"),
        Rule("(buffal|tomat|potat|her)o$", "$1oes"),
        Rule("(bu)s$", "$1ses"),
        Rule("(alias|status|campus)$", "$1es"),
        Rule("(octop|vir)i$", "$1i"),
        Rule("(octop|vir)us$", "$1i"),
        Rule("^(ax|test)is$", "$1es"),
        Rule("s$", "s"),
        Rule("$", "s"),
    ]

    private static let singularRules: [Rule] = [
        Rule("(database)s$", "$1"),
        Rule("(quiz)zes$", "$1"),
        Rule("(matr)ices$", "$1ix"),
        Rule("(vert|ind)ices$", "$1ex"),
        Rule("^(ox)en", "$1"),
        Rule("(alias|status|campus)(es)?$", "$1"),
        Rule("(octop|vir)(us|i)$", "$1us"),
        Rule("^(a)x[ie]s$", "$1xis"),
        Rule("(cris|test)(is|es)$", "$1is"),
        Rule("(shoe)s$", "$1"),
        Rule("(o)es$", "$1"),
        Rule("(bus)(es)?$", "$1"),
        Rule("^(m|l)ice$", "$1ouse"),
        Rule("(x|ch|ss|sh)es$", "$1"),
        Rule("(m)ovies$", "$1ovie"),
        Rule("([^aeiouy]|qu)ies$", "$1y"),
        Rule("([lr])ves$", "$1f"),
        Rule("(tive)s$", "$1"),
        Rule("(hive)s$", "$1"),
        Rule("([^f])ves$", "$1fe"),
        Rule("(^analy)(sis|ses)$", "$1sis"),
        Rule("((a)naly|(b)a|(d)iagno|(p)arenthe|(p)rogno|(s)ynop|(t)he)(sis|ses)$", "$1sis"),
        Rule("([ti])a$", "$1um"),
        Rule("(ss)$", "$1"),
        Rule("(us)$", "$1"),
        Rule("s$", ""),
    ]
}
