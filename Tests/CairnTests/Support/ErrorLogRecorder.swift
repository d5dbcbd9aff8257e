import Cairn

/// Records the messages of SQLite's error log for the whole test process.
///
/// `Database.logError` is process-wide and tests run in parallel: tests
/// install this one recorder and look for messages that only they can
/// produce, instead of replacing the function.
enum ErrorLogRecorder {
    private static let messages = Locked<[(code: ResultCode, message: String)]>([])

    private static let installation: Void = {
        Database.logError = { code, message in
            ErrorLogRecorder.messages.withLock { $0.append((code, message)) }
        }
    }()

    /// Installs the recorder, once.
    static func install() {
        _ = installation
    }

    /// The messages recorded so far that contain `text`.
    static func messages(containing text: String) -> [(code: ResultCode, message: String)] {
        messages.withLock { $0.filter { $0.message.contains(text) } }
    }
}
