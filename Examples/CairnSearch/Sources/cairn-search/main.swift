// cairn-search: a full-text search of the text and Markdown files of a
// folder, on Cairn. All the logic lives in CairnSearchKit; this file only
// connects it to the command line.
//
//     cairn-search index ~/Notes --db notes.sqlite
//     cairn-search query "sqlite database" --db notes.sqlite --limit 5
import CairnSearchKit
import Foundation

/// Writes all of `text` to a file descriptor.
func write(_ text: String, to fileDescriptor: Int32) {
    var text = text
    text.withUTF8 { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}

let runner = CommandRunner(
    standardOutput: { write($0, to: STDOUT_FILENO) },
    standardError: { write($0, to: STDERR_FILENO) },
    isTerminal: isatty(STDOUT_FILENO) != 0)
exit(runner.run(CommandLine.arguments.dropFirst()))
