import Cairn
import CairnSearchKit
import Foundation
import Testing

@Suite struct CommandLineTests {
    // MARK: Parsing

    @Test func parsesCommands() throws {
        #expect(try Command(arguments: ["index", "notes", "--db", "i.sqlite"]) == .index(directory: "notes", database: "i.sqlite"))
        #expect(try Command(arguments: ["index", "--db=i.sqlite", "notes"]) == .index(directory: "notes", database: "i.sqlite"))
        #expect(try Command(arguments: ["query", "sqlite", "--db", "i.sqlite"])
            == .query(text: "sqlite", database: "i.sqlite", limit: 10, json: false))
        #expect(try Command(arguments: ["query", "--json", "sqlite", "database", "--limit", "3", "--db", "i.sqlite"])
            == .query(text: "sqlite database", database: "i.sqlite", limit: 3, json: true))
        #expect(try Command(arguments: ["query", "--db", "i.sqlite", "--limit=7", "--", "-x", "--json"])
            == .query(text: "-x --json", database: "i.sqlite", limit: 7, json: false))
        #expect(try Command(arguments: ["query", "-", "--db", "i.sqlite"]) == .query(text: "-", database: "i.sqlite", limit: 10, json: false))
        #expect(try Command(arguments: ["help"]) == .help)
        #expect(try Command(arguments: ["--help"]) == .help)
        #expect(try Command(arguments: ["-h"]) == .help)
    }

    @Test(arguments: [
        ([], "missing command"),
        (["search", "x"], "unknown command \"search\""),
        (["index", "--db", "i.sqlite"], "index: missing folder"),
        (["index", "a", "b", "--db", "i.sqlite"], "index: one folder at a time, got 2"),
        (["index", "", "--db", "i.sqlite"], "index: the folder name is empty"),
        (["index", "notes"], "index: missing --db FILE"),
        (["index", "notes", "--db"], "index: --db needs a value"),
        (["index", "notes", "--db="], "index: --db needs a file name"),
        (["index", "notes", "--db", "a", "--db", "b"], "index: --db is given twice"),
        (["index", "notes", "--db", "i.sqlite", "--json"], "index: unknown option --json"),
        (["index", "notes", "--db", "i.sqlite", "--limit", "3"], "index: unknown option --limit"),
        (["query", "--db", "i.sqlite"], "query: missing words to search"),
        (["query", "x"], "query: missing --db FILE"),
        (["query", "x", "--db", "i.sqlite", "--limit"], "query: --limit needs a value"),
        (["query", "x", "--db", "i.sqlite", "--limit", "0"], "query: --limit needs a positive whole number, got \"0\""),
        (["query", "x", "--db", "i.sqlite", "--limit", "-2"], "query: --limit needs a positive whole number, got \"-2\""),
        (["query", "x", "--db", "i.sqlite", "--limit", "ten"], "query: --limit needs a positive whole number, got \"ten\""),
        (["query", "x", "--db", "i.sqlite", "--limit", "99999999999999999999999"], "query: --limit needs a positive whole number"),
        (["query", "x", "--db", "i.sqlite", "--json=yes"], "query: unknown option --json=yes"),
        (["query", "-x", "--db", "i.sqlite"], "query: unknown option -x (put words that start with a dash after --)"),
    ])
    func argumentErrors(arguments: [String], message: String) {
        #expect {
            try Command(arguments: arguments)
        } throws: { error in
            (error as? ArgumentError)?.message.hasPrefix(message) == true
        }
        let run = run(arguments)
        #expect(run.status == CommandRunner.usageError)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.hasPrefix("cairn-search: " + message))
        #expect(run.standardError.hasSuffix("Run 'cairn-search help' for usage.\n"))
    }

    @Test func help() {
        let run = run(["help"])
        #expect(run.status == CommandRunner.success)
        #expect(run.standardOutput == Command.usage + "\n")
        #expect(run.standardOutput.contains("cairn-search index DIR --db FILE"))
        #expect(run.standardError.isEmpty)
    }

    // MARK: Running

    @Test func indexThenQuery() throws {
        let notes = try TemporaryFolder()
        let databaseFolder = try TemporaryFolder()
        let database = databaseFolder.path("index.sqlite")
        try notes.write("sqlite.md", "# SQLite\n\nAn embedded database engine.\nIt is small.")
        try notes.write("postgres.txt", "A client-server database.")

        let index = run(["index", notes.path, "--db", database])
        #expect(index.status == 0)
        #expect(index.standardError.isEmpty)
        // Not a terminal: the summary line only.
        #expect(index.standardOutput == "Indexed \(notes.path): 2 added, 0 updated, 0 removed, 0 unchanged\n")

        let query = run(["query", "embedded", "--db", database])
        #expect(query.status == 0)
        #expect(query.standardOutput == """
            1. \(notes.path("sqlite.md"))
               SQLite
               # SQLite An [embedded] database engine. It is small.

            """)

        let two = run(["query", "db", "--db", database])
        #expect(two.standardOutput.components(separatedBy: "\n\n").count == 2)
        #expect(two.standardOutput.contains("[database]"))

        let none = run(["query", "oracle", "--db", database])
        #expect(none.status == 0)
        #expect(none.standardOutput == "No document matches \"oracle\".\n")

        let noWord = run(["query", "**", "--db", database])
        #expect(noWord.status == 0)
        #expect(noWord.standardOutput == "Nothing to search: no word in \"**\".\n")

        // Indexing again.
        try notes.remove("postgres.txt")
        let again = run(["index", notes.path, "--db", database])
        #expect(again.standardOutput == "Indexed \(notes.path): 0 added, 0 updated, 1 removed, 1 unchanged\n")
    }

    @Test func jsonOutput() throws {
        let notes = try TemporaryFolder()
        let databaseFolder = try TemporaryFolder()
        let database = databaseFolder.path("index.sqlite")
        try notes.write("a.md", "# Database design\n\nTables, keys and a database or two.")
        try notes.write("b.txt", "One db.")
        try notes.write("c.txt", "Nothing.")
        #expect(run(["index", notes.path, "--db", database]).status == 0)

        let query = run(["query", "database", "--db", database, "--json"])
        #expect(query.status == 0)
        #expect(query.standardError.isEmpty)
        let results = try JSONDecoder().decode([SearchResult].self, from: Data(query.standardOutput.utf8))
        #expect(results.map(\.path) == [notes.path("a.md"), notes.path("b.txt")])
        #expect(results[0].title == "[Database] design")
        #expect(results[0].snippet.contains("a [database] or two"))
        #expect(results[1].snippet == "One [db].")
        #expect(results[0].score > results[1].score)
        // What the API returns, with sorted keys and unescaped slashes.
        let index = try SearchIndex(path: database, mode: .readOnly)
        #expect(results == (try index.search("database")))
        #expect(query.standardOutput == (try CommandRunner.json(results)) + "\n")
        let keys = ["\"path\"", "\"score\"", "\"snippet\"", "\"title\""].map {
            query.standardOutput.range(of: $0)!.lowerBound
        }
        #expect(keys == keys.sorted())
        #expect(query.standardOutput.contains(notes.path("a.md")))
        // Stable: the same query gives the same text.
        #expect(run(["query", "database", "--db", database, "--json"]).standardOutput == query.standardOutput)

        let limited = run(["query", "database", "--db", database, "--json", "--limit", "1"])
        #expect(try JSONDecoder().decode([SearchResult].self, from: Data(limited.standardOutput.utf8)).map(\.path) == [notes.path("a.md")])

        // No match, or no word: an empty array, still JSON.
        #expect(run(["query", "oracle", "--db", database, "--json"]).standardOutput == "[]\n")
        let noWord = run(["query", "()", "--db", database, "--json"])
        #expect(noWord.status == 0)
        #expect(noWord.standardOutput == "[]\n")
        #expect(noWord.standardError == "Nothing to search: no word in \"()\".\n")
    }

    @Test func progressBarOnlyOnTerminals() throws {
        let notes = try TemporaryFolder()
        let databaseFolder = try TemporaryFolder()
        for number in 1...3 {
            try notes.write("note\(number).txt", "note \(number)")
        }
        let run = run(["index", notes.path, "--db", databaseFolder.path("index.sqlite")], isTerminal: true)
        #expect(run.status == 0)
        // The last file is always drawn, then the line is erased before the
        // summary.
        #expect(run.standardOutput.contains("\r\u{1B}[K[##############################] 100% 3/3 note3.txt"))
        #expect(run.standardOutput.hasSuffix("\r\u{1B}[KIndexed \(notes.path): 3 added, 0 updated, 0 removed, 0 unchanged\n"))
        #expect(!run.standardOutput.dropLast().contains("\n"))

        var bar = ProgressBar()
        #expect(bar.line(IndexProgress(completed: 1, total: 3, path: "/a/b.txt")) == "[##########--------------------]  33% 1/3 b.txt")
        #expect(bar.update(IndexProgress(completed: 1, total: 3, path: "/a/b.txt")) != nil)
        // Too soon after the previous redraw, unless it is the last file.
        #expect(bar.update(IndexProgress(completed: 2, total: 3, path: "/a/c.txt")) == nil)
        #expect(bar.update(IndexProgress(completed: 3, total: 3, path: "/a/d.txt")) != nil)
        bar.maximumNameLength = 5
        #expect(bar.line(IndexProgress(completed: 0, total: 0, path: "/a/long-name.txt")) == "[------------------------------]   0% 0/0 ….txt")
    }

    @Test func runtimeErrors() throws {
        let folder = try TemporaryFolder()
        try folder.write("notes/a.txt", "text")
        try folder.write("not-a-database.sqlite", "just some text, long enough to not be a database header at all")
        let index = folder.path("index.sqlite")

        let cases: [([String], String)] = [
            (["index", folder.path("missing"), "--db", index], "no such folder: \(folder.path("missing"))"),
            (["index", folder.path("notes/a.txt"), "--db", index], "not a folder: \(folder.path("notes/a.txt"))"),
            (["index", folder.path("notes"), "--db", folder.path("notes")], "cannot open the database \(folder.path("notes")): it is a directory"),
            (["index", folder.path("notes"), "--db", folder.path("no/such/dir/i.sqlite")], "cannot open the database \(folder.path("no/such/dir/i.sqlite")): "),
            (["index", folder.path("notes"), "--db", folder.path("not-a-database.sqlite")], "cannot open the database \(folder.path("not-a-database.sqlite")): file is not a database"),
            (["query", "x", "--db", folder.path("missing.sqlite")], "no index at \(folder.path("missing.sqlite"))"),
            (["query", "x", "--db", folder.path("not-a-database.sqlite")], "cannot open the database \(folder.path("not-a-database.sqlite")): file is not a database"),
            (["query", "x", "--db", folder.path("notes")], "cannot open the database \(folder.path("notes")): it is a directory"),
        ]
        for (arguments, message) in cases {
            let run = run(arguments)
            #expect(run.status == CommandRunner.failure, "\(arguments)")
            #expect(run.standardOutput.isEmpty, "\(arguments)")
            #expect(run.standardError.hasPrefix("cairn-search: " + message), "\(run.standardError)")
            #expect(run.standardError.hasSuffix("\n"))
        }
        // Nothing was created by the failed commands.
        #expect(!FileManager.default.fileExists(atPath: index))
        #expect(!FileManager.default.fileExists(atPath: folder.path("missing.sqlite")))
        #expect(try String(contentsOfFile: folder.path("not-a-database.sqlite"), encoding: .utf8).hasPrefix("just some text"))
    }

    @Test func otherDatabasesAreNotIndexes() throws {
        let folder = try TemporaryFolder()
        try folder.write("notes/a.txt", "text")
        let other = folder.path("other.sqlite")
        let queue = try DatabaseQueue(path: other)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE player(name TEXT)")
        }
        try queue.close()

        let index = run(["index", folder.path("notes"), "--db", other])
        #expect(index.status == CommandRunner.failure)
        #expect(index.standardError == "cairn-search: \(other) is not a cairn-search index\n")
        let query = run(["query", "text", "--db", other])
        #expect(query.status == CommandRunner.failure)
        #expect(query.standardError == "cairn-search: \(other) is not a cairn-search index\n")

        // The database is untouched: same tables, still in its journal mode.
        let reopened = try DatabaseQueue(path: other)
        let (tables, journalMode) = try reopened.read { db in
            (try String.fetchAll(db, sql: "SELECT name FROM sqlite_master"),
             try String.fetchOne(db, sql: "PRAGMA journal_mode"))
        }
        #expect(tables == ["player"])
        #expect(journalMode == "delete")

        // An index of a newer version.
        let newer = folder.path("newer.sqlite")
        try SearchIndex(path: newer).index(directory: folder.path("notes"))
        let pool = try DatabasePool(path: newer)
        try pool.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99')")
        }
        try pool.close()
        #expect(run(["query", "text", "--db", newer]).standardError == "cairn-search: \(newer) was created by a newer version of cairn-search\n")
        #expect(run(["index", folder.path("notes"), "--db", newer]).standardError == "cairn-search: \(newer) was created by a newer version of cairn-search\n")
    }

    @Test func emptyDatabaseFileBecomesAnIndex() throws {
        let folder = try TemporaryFolder()
        try folder.write("notes/a.txt", "text")
        try folder.write("empty.sqlite", "")
        #expect(run(["index", folder.path("notes"), "--db", folder.path("empty.sqlite")]).status == 0)
        #expect(run(["query", "text", "--db", folder.path("empty.sqlite")]).standardOutput.contains("[text]"))
    }
}
