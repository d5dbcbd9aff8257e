import CairnSearchKit
import Foundation
import Testing

/// A folder in the temporary directory, removed when the value is gone.
final class TemporaryFolder {
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("CairnSearchTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.standardizedFileURL.path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The absolute path of a file of the folder.
    func path(_ relativePath: String) -> String {
        path + "/" + relativePath
    }

    /// Writes a file, creating its folders, with a given modification date.
    @discardableResult
    func write(_ relativePath: String, _ text: String, modified: Date? = nil) throws -> String {
        let filePath = path(relativePath)
        try FileManager.default.createDirectory(
            atPath: (filePath as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: filePath))
        if let modified {
            try setModificationDate(modified, of: relativePath)
        }
        return filePath
    }

    func setModificationDate(_ date: Date, of relativePath: String) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path(relativePath))
    }

    func modificationDate(of relativePath: String) throws -> Date {
        try #require(FileManager.default.attributesOfItem(atPath: path(relativePath))[.modificationDate] as? Date)
    }

    func remove(_ relativePath: String) throws {
        try FileManager.default.removeItem(atPath: path(relativePath))
    }
}

/// A run of the command line program, with its output.
struct Run {
    var status: Int32
    var standardOutput: String
    var standardError: String
}

/// Runs cairn-search with arguments, as the executable does.
func run(_ arguments: [String], isTerminal: Bool = false) -> Run {
    // Boxes that the output functions fill.
    final class Output { var text = "" }
    let output = Output()
    let error = Output()
    let runner = CommandRunner(
        standardOutput: { output.text += $0 },
        standardError: { error.text += $0 },
        isTerminal: isTerminal)
    let status = runner.run(arguments)
    return Run(status: status, standardOutput: output.text, standardError: error.text)
}

/// A date in the past, at a whole second, so that files written by a test
/// have dates that differ from "now".
func pastDate(_ secondsAgo: TimeInterval) -> Date {
    Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - secondsAgo).rounded())
}
