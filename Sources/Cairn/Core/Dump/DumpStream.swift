/// The text output stream that dump formats write to.
///
/// A dump method, such as ``Database/dumpSQL(_:format:to:)``, wraps the
/// stream it is given (or the standard output) in a `DumpStream`, and hands
/// it to its ``DumpFormat``. Besides writing text, a format can ask for a
/// blank line between two blocks of output with ``margin()``:
///
/// ```swift
/// struct CountDumpFormat: DumpFormat {
///     var count = 0
///     mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
///         count += 1
///     }
///     mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
///         stream.margin()
///         stream.write("\(count) row(s)\n")
///         count = 0
///     }
/// }
/// ```
public struct DumpStream {
    /// The stream of the user; nil for the standard output.
    private var base: (any TextOutputStream)?

    /// Whether something was written.
    private var hasOutput = false

    /// The number of line feeds that end the output, up to two.
    private var trailingLineFeedCount = 0

    /// Whether the next write starts with a blank line.
    private var needsMargin = false

    /// Creates a stream that writes to `base`, or to the standard output
    /// when `base` is nil.
    init(_ base: (any TextOutputStream)?) {
        self.base = base
    }

    /// Makes sure that the next text written is separated from the text
    /// written so far by an empty line.
    ///
    /// Nothing is written until the next call to ``write(_:)``: a margin at
    /// the beginning or at the end of the output writes nothing, and several
    /// margins in a row write one empty line.
    ///
    /// ```swift
    /// stream.write("player\n")
    /// stream.margin()
    /// stream.margin()
    /// stream.write("team\n")
    /// // player
    /// //
    /// // team
    /// ```
    public mutating func margin() {
        if hasOutput {
            needsMargin = true
        }
    }

    /// Writes text, after the empty line that ``margin()`` asked for, if
    /// any.
    ///
    /// ```swift
    /// stream.write("Hello\n")
    /// ```
    public mutating func write(_ string: String) {
        guard !string.isEmpty else { return }
        if needsMargin {
            needsMargin = false
            let count = 2 - trailingLineFeedCount
            if count > 0 {
                output(String(repeating: "\n", count: count))
            }
        }
        output(string)
    }

    private mutating func output(_ string: String) {
        if var stream = base {
            // Moved out and back, so that a value stream (a `String`) is not
            // copied at each write.
            base = nil
            stream.write(string)
            base = stream
        } else {
            print(string, terminator: "")
        }
        hasOutput = true

        // Counts the line feeds at the end of the output, up to two.
        var count = 0
        var isOnlyLineFeeds = true
        for byte in string.utf8.reversed() {
            guard byte == 0x0A else {
                isOnlyLineFeeds = false
                break
            }
            count += 1
            if count == 2 { break }
        }
        if isOnlyLineFeeds && count < 2 {
            trailingLineFeedCount = min(2, trailingLineFeedCount + count)
        } else {
            trailingLineFeedCount = count
        }
    }
}

extension DumpStream: TextOutputStream { }
