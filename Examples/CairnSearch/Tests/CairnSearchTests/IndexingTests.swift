import Cairn
import CairnSearchKit
import Foundation
import Testing

@Suite struct IndexingTests {
    /// A folder of notes, and an index of it in another folder.
    struct Fixture {
        let notes: TemporaryFolder
        let databaseFolder: TemporaryFolder
        let index: SearchIndex

        init() throws {
            notes = try TemporaryFolder()
            databaseFolder = try TemporaryFolder()
            let date = pastDate(3600)
            try notes.write("sqlite.md", "# SQLite notes\n\nAn embedded database engine.\n", modified: date)
            try notes.write("todo.txt", "Buy milk. Write the report.\n", modified: date)
            try notes.write("guides/wal.markdown", "Intro\n\n# Write-Ahead Logging #\n\nReaders do not block writers.\n", modified: date)
            try notes.write("guides/deep/er/Upper.MD", "No heading here.\n", modified: date)
            // Not indexed: other extensions, hidden files and folders.
            try notes.write("image.png", "not text", modified: date)
            try notes.write("readme.rst", "database", modified: date)
            try notes.write(".secret.txt", "database", modified: date)
            try notes.write(".git/notes.md", "database", modified: date)
            index = try SearchIndex(path: databaseFolder.path("index.sqlite"))
        }
    }

    @Test func indexesTextAndMarkdownFilesRecursively() throws {
        let fixture = try Fixture()
        let notes = fixture.notes
        let summary = try fixture.index.index(directory: notes.path)
        let expectedPaths = [
            notes.path("guides/deep/er/Upper.MD"),
            notes.path("guides/wal.markdown"),
            notes.path("sqlite.md"),
            notes.path("todo.txt"),
        ]
        #expect(summary.directory == notes.path)
        #expect(summary.added == expectedPaths)
        #expect(summary.updated.isEmpty && summary.removed.isEmpty && summary.skipped.isEmpty)
        #expect(summary.unchanged == 0)
        #expect(summary.description == "4 added, 0 updated, 0 removed, 0 unchanged")

        let documents = try fixture.index.documents()
        #expect(documents.map(\.path) == expectedPaths)
        #expect(documents.map(\.title) == ["Upper.MD", "Write-Ahead Logging", "SQLite notes", "todo.txt"])
        let sqlite = try #require(documents.first { $0.path == notes.path("sqlite.md") })
        #expect(sqlite.body == "# SQLite notes\n\nAn embedded database engine.\n")
        #expect(sqlite.size == Int64(sqlite.body.utf8.count))
        #expect(abs(sqlite.modified.timeIntervalSince(try notes.modificationDate(of: "sqlite.md"))) < 0.001)
        #expect(documents.allSatisfy { $0.id != nil })

        // Hidden files and other extensions are not searchable.
        #expect(try fixture.index.search("database")?.map(\.path) == [notes.path("sqlite.md")])
    }

    @Test func relativeFolderIsStoredWithAbsolutePaths() throws {
        let fixture = try Fixture()
        let previous = FileManager.default.currentDirectoryPath
        // The current directory is process-wide: only compute the relative
        // path from it, and index with the relative path.
        let relative = relativePath(from: previous, to: fixture.notes.path)
        let summary = try fixture.index.index(directory: relative)
        #expect(summary.directory == fixture.notes.path)
        #expect(try fixture.index.documents().allSatisfy { $0.path.hasPrefix(fixture.notes.path + "/") })
    }

    @Test func reindexingOnlyUpdatesChangedFiles() throws {
        let fixture = try Fixture()
        let notes = fixture.notes
        try fixture.index.index(directory: notes.path)
        let before = try fixture.index.documents()

        try notes.write("todo.txt", "Buy bread, then call the plumber.\n", modified: pastDate(60))
        let summary = try fixture.index.index(directory: notes.path)
        #expect(summary.updated == [notes.path("todo.txt")])
        #expect(summary.added.isEmpty && summary.removed.isEmpty)
        #expect(summary.unchanged == 3)
        #expect(summary.description == "0 added, 1 updated, 0 removed, 3 unchanged")

        let after = try fixture.index.documents()
        // Same rows (ids kept); only the changed file has new values.
        #expect(after.map(\.id) == before.map(\.id))
        for (old, new) in zip(before, after) where new.path != notes.path("todo.txt") {
            #expect(old == new)
        }
        let todo = try #require(after.first { $0.path == notes.path("todo.txt") })
        #expect(todo.body == "Buy bread, then call the plumber.\n")
        // The full-text index follows.
        #expect(try fixture.index.search("plumber")?.map(\.path) == [notes.path("todo.txt")])
        #expect(try fixture.index.search("milk") == [])

        // Nothing changed: nothing is updated.
        let again = try fixture.index.index(directory: notes.path)
        #expect(again.description == "0 added, 0 updated, 0 removed, 4 unchanged")
    }

    @Test func changeIsDetectedByDateOrSizeOnly() throws {
        let fixture = try Fixture()
        let notes = fixture.notes
        try fixture.index.index(directory: notes.path)

        // Same size, same date: the file is not read again (as rsync does).
        let date = try notes.modificationDate(of: "todo.txt")
        try notes.write("todo.txt", "Buy tea!! Write the report.\n", modified: date)
        #expect(try fixture.index.index(directory: notes.path).updated.isEmpty)
        #expect(try fixture.index.search("milk")?.count == 1)
        #expect(try fixture.index.search("tea") == [])

        // A new date alone is a change.
        try notes.setModificationDate(pastDate(10), of: "todo.txt")
        #expect(try fixture.index.index(directory: notes.path).updated == [notes.path("todo.txt")])
        #expect(try fixture.index.search("tea")?.count == 1)

        // A new size alone is a change.
        let sameDate = try notes.modificationDate(of: "todo.txt")
        try notes.write("todo.txt", "Buy coffee.\n", modified: sameDate)
        #expect(try fixture.index.index(directory: notes.path).updated == [notes.path("todo.txt")])
        #expect(try fixture.index.search("coffee")?.count == 1)
    }

    @Test func deletedFileIsRemoved() throws {
        let fixture = try Fixture()
        let notes = fixture.notes
        try fixture.index.index(directory: notes.path)
        #expect(try fixture.index.search("writers")?.count == 1)

        try notes.remove("guides/wal.markdown")
        let summary = try fixture.index.index(directory: notes.path)
        #expect(summary.removed == [notes.path("guides/wal.markdown")])
        #expect(summary.added.isEmpty && summary.updated.isEmpty)
        #expect(summary.unchanged == 3)
        #expect(try fixture.index.documents().map(\.path).contains(notes.path("guides/wal.markdown")) == false)
        #expect(try fixture.index.search("writers") == [])

        // A whole folder.
        try notes.remove("guides")
        #expect(try fixture.index.index(directory: notes.path).removed == [notes.path("guides/deep/er/Upper.MD")])
        #expect(try fixture.index.documents().count == 2)
    }

    @Test func manyDeletedFilesAreRemoved() throws {
        let notes = try TemporaryFolder()
        let databaseFolder = try TemporaryFolder()
        let index = try SearchIndex(path: databaseFolder.path("index.sqlite"))
        for number in 0..<1_200 {
            try notes.write("many/\(number).txt", "file \(number)")
        }
        try notes.write("kept.txt", "file kept")
        #expect(try index.index(directory: notes.path).added.count == 1_201)
        try notes.remove("many")
        let summary = try index.index(directory: notes.path)
        #expect(summary.removed.count == 1_200)
        #expect(summary.unchanged == 1)
        #expect(try index.documents().map(\.path) == [notes.path("kept.txt")])
        #expect(try index.search("file")?.map(\.path) == [notes.path("kept.txt")])
    }

    @Test func newFileIsAdded() throws {
        let fixture = try Fixture()
        let notes = fixture.notes
        try fixture.index.index(directory: notes.path)

        try notes.write("guides/fts.md", "# Full-text search\n\nTokenizers and ranking.\n")
        let summary = try fixture.index.index(directory: notes.path)
        #expect(summary.added == [notes.path("guides/fts.md")])
        #expect(summary.updated.isEmpty && summary.removed.isEmpty)
        #expect(summary.unchanged == 4)
        #expect(try fixture.index.search("tokenizers")?.map(\.title) == ["Full-text search"])
    }

    @Test func otherFoldersOfTheIndexAreLeftAlone() throws {
        let fixture = try Fixture()
        let notes = fixture.notes
        // "notes" and "notes2" share a prefix: indexing one must not remove
        // the other.
        try notes.write("a/one.txt", "alpha")
        try notes.write("a2/two.txt", "beta")
        try fixture.index.index(directory: notes.path("a"))
        try fixture.index.index(directory: notes.path("a2"))
        let summary = try fixture.index.index(directory: notes.path("a"))
        #expect(summary.removed.isEmpty)
        #expect(summary.unchanged == 1)
        #expect(try fixture.index.search("beta")?.map(\.path) == [notes.path("a2/two.txt")])

        // Indexing the parent folder takes over the same rows.
        let parent = try fixture.index.index(directory: notes.path)
        #expect(parent.unchanged == 2)
        #expect(parent.added.count == 4)
    }

    @Test func textEncodings() throws {
        let fixture = try Fixture()
        let notes = fixture.notes
        // Latin-1 bytes that are not UTF-8, and UTF-8 with a byte order mark.
        try Data([0x63, 0x61, 0x66, 0xE9, 0x20, 0x6E, 0x6F, 0xEB, 0x6C]).write(to: URL(fileURLWithPath: notes.path("latin1.txt")))
        try notes.write("bom.md", "\u{FEFF}# Byte order mark\n\nsomething")
        try fixture.index.index(directory: notes.path)
        let latin1 = try #require(try fixture.index.documents().first { $0.path.hasSuffix("latin1.txt") })
        #expect(latin1.body == "café noël")
        #expect(try fixture.index.search("noel")?.map(\.path) == [notes.path("latin1.txt")])
        #expect(try fixture.index.search("mark")?.map(\.title) == ["Byte order [mark]"])
    }

    @Test func unreadableFileIsSkipped() throws {
        let fixture = try Fixture()
        let notes = fixture.notes
        // A file that disappears between the listing of the folder and its
        // reading: files are read in order of their paths, and the progress
        // function runs after each one.
        try notes.write("zz-vanishing.txt", "gone before it is read")
        let summary = try fixture.index.index(directory: notes.path) { progress in
            if progress.completed == 1 {
                try? notes.remove("zz-vanishing.txt")
            }
        }
        #expect(summary.skipped.map(\.path) == [notes.path("zz-vanishing.txt")])
        #expect(summary.skipped.first?.reason.isEmpty == false)
        #expect(summary.added.count == 4)
        #expect(summary.description == "4 added, 0 updated, 0 removed, 0 unchanged, 1 skipped")
        #expect(try fixture.index.documents().count == 4)
    }

    @Test func progressIsReportedForEachFile() throws {
        let fixture = try Fixture()
        var reports: [IndexProgress] = []
        try fixture.index.index(directory: fixture.notes.path) { reports.append($0) }
        #expect(reports.map(\.completed) == [1, 2, 3, 4])
        #expect(reports.allSatisfy { $0.total == 4 })
        #expect(reports.last?.path == fixture.notes.path("todo.txt"))
    }

    @Test func titles() {
        #expect(Document.title(fileName: "a.md", contents: "# Hello\ntext") == "Hello")
        #expect(Document.title(fileName: "a.markdown", contents: "intro\n\n## Sub\n#  Spaced title  \n# Second") == "Spaced title")
        #expect(Document.title(fileName: "a.md", contents: "# Closed ##") == "Closed")
        #expect(Document.title(fileName: "a.md", contents: "# C# tips") == "C# tips")
        #expect(Document.title(fileName: "a.md", contents: "#hashtag\n   # Indented") == "Indented")
        #expect(Document.title(fileName: "a.md", contents: "```sh\n# a comment\n```\n# Real") == "Real")
        #expect(Document.title(fileName: "a.md", contents: "    # code block") == "a.md")
        #expect(Document.title(fileName: "a.md", contents: "#\n# ##\nno heading") == "a.md")
        #expect(Document.title(fileName: "notes.txt", contents: "# Not a title") == "notes.txt")
        #expect(Document.title(fileName: "README.MD", contents: "# Upper case extension") == "Upper case extension")
        #expect(Document.title(fileName: "a.md", contents: "") == "a.md")
    }

    /// A relative path from one absolute folder to another.
    private func relativePath(from base: String, to target: String) -> String {
        let baseComponents = URL(fileURLWithPath: base).standardizedFileURL.pathComponents
        let targetComponents = URL(fileURLWithPath: target).standardizedFileURL.pathComponents
        var common = 0
        while common < min(baseComponents.count, targetComponents.count),
              baseComponents[common] == targetComponents[common] {
            common += 1
        }
        let ups = Array(repeating: "..", count: baseComponents.count - common)
        return (ups + targetComponents[common...]).joined(separator: "/")
    }
}
