import Testing
import Cairn

@Test func version() {
    #expect(String(cString: sqlite3_libversion()) == "3.50.4")
}
