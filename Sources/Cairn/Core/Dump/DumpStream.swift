/// The text output stream that dump formats write to.
///
/// A dump method, such as ``Database/dumpSQL(_:format:to:)``, wraps the
/// stream it is given (or the standard output) in a `DumpStream`, and hands
/// it to its ``DumpFormat``. Besides writing text, a format can ask for a
/// line feed before the next text with ``margin()``:
///
/// ```swift
/// struct CountDumpFormat: DumpFormat {
///     var count = 0
///     mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
///         count += 1
///     }
///     mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
///         stream.write("\(count) row(s)\n")
///         stream.margin()
///     }
/// }
/// ```
public struct DumpStream {
    /// The stream of the user; nil for the standard output.
    private var base: (any TextOutputStream)?

    /// Whether the next text that is not empty gets a line feed before it.
    private var needsMargin = false

    /// Creates a stream that writes to `base`, or to the standard output
    /// when `base` is nil.
    init(_ base: (any TextOutputStream)?) {
        self.base = base
    }

    /// Asks for a line feed before the next text that is not empty, unless
    /// that text starts with a line feed itself.
    ///
    /// After a line that ends with a line feed, the margin is an empty
    /// line. Several calls before the next text ask for one line feed only,
    /// and a margin that no text follows writes nothing.
    public mutating func margin() {
        needsMargin = true
    }

    /// Writes text, after the line feed that ``margin()`` asked for.
    public mutating func write(_ string: String) {
        guard !string.isEmpty else { return }
        if needsMargin {
            needsMargin = false
            if string.utf8.first != UInt8(ascii: "\n") {
                output("\n")
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
    }
}

extension DumpStream: TextOutputStream { }
