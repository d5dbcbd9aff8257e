import Foundation
import Testing
import Cairn

/// `FTS3.tokenize(_:withTokenizer:)` returns the tokens that GRDB 7.8
/// returns, whatever the script (issue 51).
@Suite struct GRDBFTS3TokenizeTests {
    @Test func accentedAndCJKText() throws {
        let text = "Élodie écrit 中文"
        #expect(try FTS3.tokenize(text) == ["Élodie", "écrit", "中文"])
        #expect(try FTS3.tokenize(text, withTokenizer: .simple) == ["Élodie", "écrit", "中文"])
        #expect(try FTS3.tokenize(text, withTokenizer: .porter) == ["Élodie", "écrit", "中文"])
        #expect(try FTS3.tokenize(text, withTokenizer: .unicode61()) == ["elodie", "ecrit", "中文"])
        #expect(try FTS3.tokenize(text, withTokenizer: .unicode61(diacritics: .keep)) == ["élodie", "écrit", "中文"])
    }

    @Test func porterCutsLongWordsInTheMiddleOfACharacter() throws {
        // Porter keeps the first and the last ten bytes of a word longer
        // than twenty bytes: the cut bytes become U+FFFD, and the other
        // tokens are still returned.
        let text = "moteur 中文全文检索引擎 databases"
        #expect(try FTS3.tokenize(text, withTokenizer: .porter) == ["moteur", "中文全\u{FFFD}索引擎", "databas"])
        #expect(try FTS3.tokenize(text) == ["moteur", "中文全文检索引擎", "databases"])
        #expect(try FTS3.tokenize(text, withTokenizer: .unicode61()) == ["moteur", "中文全文检索引擎", "databases"])
    }

    @Test func emojiAndOtherSymbols() throws {
        // Simple and porter keep every byte beyond ASCII in tokens;
        // unicode61 splits at the characters that are not letters or
        // numbers.
        let text = "café☕️bar"
        #expect(try FTS3.tokenize(text) == ["café☕️bar"])
        #expect(try FTS3.tokenize(text, withTokenizer: .unicode61()) == ["cafe", "bar"])
    }

    @Test func anUnknownTokenizerThrows() {
        #expect(throws: DatabaseError.self) {
            try FTS3.tokenize("hello", withTokenizer: FTS3TokenizerDescriptor("no_such_tokenizer"))
        }
    }
}
