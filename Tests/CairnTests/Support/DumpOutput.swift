/// A text stream that collects the output of database dumps.
final class DumpOutput: TextOutputStream {
    var text = ""

    func write(_ string: String) {
        text += string
    }
}
