import Foundation
import Testing
import Cairn

/// `Inflections`: the public rules of singular and plural forms.
@Suite struct InflectionsTests {
    @Test func defaultEnglishRules() {
        let inflections = Inflections.default
        #expect(inflections.pluralize("book") == "books")
        #expect(inflections.pluralize("person") == "people")
        #expect(inflections.pluralize("Person") == "People")
        #expect(inflections.pluralize("lineItem") == "lineItems")
        #expect(inflections.pluralize("category") == "categories")
        #expect(inflections.pluralize("box") == "boxes")
        #expect(inflections.pluralize("books2") == "books2")
        #expect(inflections.pluralize("book2") == "books2")
        #expect(inflections.pluralize("information") == "information")
        #expect(inflections.pluralize("salesperson") == "salespersons")
        #expect(inflections.singularize("books") == "book")
        #expect(inflections.singularize("people") == "person")
        #expect(inflections.singularize("lineItems") == "lineItem")
        #expect(inflections.singularize("databases") == "database")
        #expect(inflections.singularize("cows") == "cow")
        #expect(inflections.pluralize("cow") == "kine")
        #expect(inflections.pluralize("Cow") == "Kine")
        // The last word of camelCase identifiers.
        #expect(inflections.pluralize("HTMLPage") == "HTMLPages")
        #expect(inflections.pluralize("userID") == "userIDs")
        #expect(inflections.singularize("userIDs") == "userID")
        #expect(inflections.pluralize("adminPerson") == "adminPeople")
    }

    @Test func emptyInflectionsHaveNoRule() {
        let inflections = Inflections()
        #expect(inflections.pluralize("book") == "book")
        #expect(inflections.singularize("books") == "books")
    }

    @Test func laterRulesTakePrecedence() {
        var inflections = Inflections()
        inflections.plural("$", "s")
        #expect(inflections.pluralize("box") == "boxs")
        inflections.plural("(x|ch|ss|sh)$", "$1es")
        #expect(inflections.pluralize("box") == "boxes")
        #expect(inflections.pluralize("Box") == "Boxes")
        #expect(inflections.pluralize("tool") == "tools")
        inflections.singular("s$", "")
        #expect(inflections.singularize("tools") == "tool")
        // Options: a case-sensitive rule.
        inflections.plural("^QUIZ$", options: [], "QUIZZES")
        #expect(inflections.pluralize("QUIZ") == "QUIZZES")
        #expect(inflections.pluralize("quiz") == "quizs")
    }

    @Test func uncountableWords() {
        var inflections = Inflections()
        inflections.plural("$", "s")
        inflections.uncountableWords(["Equipment"])
        #expect(inflections.pluralize("equipment") == "equipment")
        #expect(inflections.pluralize("heavyEquipment") == "heavyEquipment")
        #expect(inflections.pluralize("tool") == "tools")
    }

    @Test func irregularSuffixes() {
        var inflections = Inflections()
        inflections.plural("$", "s")
        inflections.singular("s$", "")
        inflections.irregularSuffix("man", "men")
        #expect(inflections.pluralize("man") == "men")
        #expect(inflections.pluralize("Woman") == "Women")
        #expect(inflections.pluralize("men") == "men")
        #expect(inflections.singularize("women") == "woman")
        #expect(inflections.singularize("man") == "man")
        // Different first letters keep the case of the word.
        inflections.irregularSuffix("cow", "kine")
        #expect(inflections.pluralize("Cow") == "Kine")
        #expect(inflections.pluralize("cow") == "kine")
        #expect(inflections.singularize("kine") == "cow")
        // Special characters of patterns and templates are literal.
        inflections.irregularSuffix("a.b", "$c")
        #expect(inflections.pluralize("xa.b") == "x$c")
        #expect(inflections.pluralize("xaab") == "xaabs")
        // An empty suffix is ignored.
        inflections.irregularSuffix("", "x")
        #expect(inflections.pluralize("tool") == "tools")
    }

    @Test func copiesOfTheDefaultAreIndependent() {
        var inflections = Inflections.default
        #expect(inflections.pluralize("bigCactus") == "bigCactus")
        inflections.irregularSuffix("cactus", "cacti")
        inflections.uncountableWords(["book"])
        #expect(inflections.pluralize("bigCactus") == "bigCacti")
        #expect(inflections.pluralize("book") == "book")
        // The default is unchanged, and its memoized results too.
        #expect(Inflections.default.pluralize("book") == "books")
        #expect(Inflections.default.pluralize("bigCactus") == "bigCactus")
    }

    @Test func inflectionsAreSendable() async {
        let inflections = Inflections.default
        let plural = await Task.detached { inflections.pluralize("child") }.value
        #expect(plural == "children")
    }
}
