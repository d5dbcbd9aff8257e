import Foundation

/// English singular and plural forms of the last word of camelCase
/// identifiers, for the default association keys (`books`, `author`) and
/// the default names of aggregates (`bookCount`).
///
/// The rules follow those of Ruby on Rails' inflector: irregular words,
/// uncountable words, then suffix rules, the most specific first.
enum Inflections {
    /// `book` → `books`, `person` → `people`, `lineItem` → `lineItems`.
    static func pluralize(_ string: String) -> String {
        inflect(string, irregular: irregularPlurals, rules: pluralRules)
    }

    /// `books` → `book`, `people` → `person`, `lineItems` → `lineItem`.
    static func singularize(_ string: String) -> String {
        inflect(string, irregular: irregularSingulars, rules: singularRules)
    }

    /// Uppercases the first letter: `book` → `Book`.
    static func capitalizingFirstLetter(_ string: String) -> String {
        guard let first = string.first else { return string }
        return first.uppercased() + string.dropFirst()
    }

    private static func inflect(_ string: String, irregular: [String: String], rules: [(suffix: String, replacement: String)]) -> String {
        // The last word of a camelCase identifier: `lineItem` → `Item`.
        var wordStart = string.startIndex
        for index in string.indices where string[index].isUppercase {
            wordStart = index
        }
        let prefix = string[..<wordStart]
        let word = String(string[wordStart...])
        let lowercased = word.lowercased()
        guard !lowercased.isEmpty else { return string }
        if uncountables.contains(lowercased) {
            return string
        }
        if let replacement = irregular[lowercased] {
            return prefix + matchingCase(replacement, of: word)
        }
        for rule in rules where lowercased.hasSuffix(rule.suffix) {
            let stem = word.dropLast(rule.suffix.count)
            return prefix + stem + matchingCase(rule.replacement, of: String(word.suffix(rule.suffix.count)))
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

    private static let uncountables: Set<String> = [
        "equipment", "information", "rice", "money", "species", "series", "fish", "sheep", "jeans",
        "police", "news", "data", "metadata", "deer", "aircraft", "software", "feedback",
    ]

    private static let irregularPlurals: [String: String] = [
        "person": "people", "man": "men", "woman": "women", "child": "children", "sex": "sexes",
        "move": "moves", "zombie": "zombies", "mouse": "mice", "louse": "lice", "ox": "oxen",
        "goose": "geese", "tooth": "teeth", "foot": "feet", "quiz": "quizzes", "cow": "kine",
        "index": "indices", "matrix": "matrices", "vertex": "vertices", "axis": "axes",
        "datum": "data", "medium": "media", "criterion": "criteria", "leaf": "leaves",
    ]

    private static let irregularSingulars: [String: String] = {
        var singulars = Dictionary(uniqueKeysWithValues: irregularPlurals.map { ($0.value, $0.key) })
        // Plural forms that are their own singular stay as they are.
        for word in irregularPlurals.keys { singulars[word] = word }
        return singulars
    }()

    private static let pluralRules: [(suffix: String, replacement: String)] = [
        ("quy", "quies"), ("ay", "ays"), ("ey", "eys"), ("oy", "oys"), ("uy", "uys"), ("y", "ies"),
        ("ss", "sses"), ("sh", "shes"), ("ch", "ches"), ("x", "xes"), ("zz", "zzes"), ("z", "zes"),
        ("us", "uses"), ("is", "es"), ("ife", "ives"), ("lf", "lves"), ("rf", "rves"),
        ("tomato", "tomatoes"), ("potato", "potatoes"), ("hero", "heroes"), ("s", "s"), ("", "s"),
    ]

    private static let singularRules: [(suffix: String, replacement: String)] = [
        ("quies", "quy"), ("ays", "ay"), ("eys", "ey"), ("oys", "oy"), ("uys", "uy"), ("ies", "y"),
        ("sses", "ss"), ("shes", "sh"), ("ches", "ch"), ("xes", "x"), ("zzes", "zz"), ("uses", "us"),
        ("ives", "ife"), ("lves", "lf"), ("rves", "rf"), ("oes", "o"), ("ss", "ss"), ("us", "us"),
        ("is", "is"), ("s", ""),
    ]
}
