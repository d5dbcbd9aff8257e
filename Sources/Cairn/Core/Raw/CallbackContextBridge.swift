// The opaque context pointers that SQLite keeps for Swift objects and gives
// back to C callbacks (`sqlite3_create_function_v2`, `sqlite3_trace_v2`,
// `sqlite3_commit_hook`…). Converting a Swift object to and from such a
// pointer is the one unsafe step of a callback: it happens here and in the
// other `*Bridge.swift` files, and nowhere between Swift objects.

/// A Swift object that SQLite keeps as the context of C callbacks.
///
/// Two ownerships, chosen where the callback is registered:
///
/// - ``retainedCContext()``: SQLite owns a reference, which its destroy
///   callback gives back with ``releaseCContext(_:)`` (functions,
///   collations, tokenizer registrations). When registration fails, SQLite
///   calls no destroy callback: the caller releases the reference.
/// - ``unretainedCContext()``: a Swift owner (the connection, or the frame
///   of the C call) keeps the object alive for as long as SQLite may call
///   back, and unregisters the callback before it lets the object go.
protocol CCallbackContext: AnyObject { }

extension CCallbackContext {
    /// A context pointer that owns a reference to the object.
    func retainedCContext() -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(self).toOpaque()
    }

    /// A context pointer that does not own the object.
    func unretainedCContext() -> UnsafeMutableRawPointer {
        Unmanaged.passUnretained(self).toOpaque()
    }

    /// Gives back the reference of a pointer made by
    /// ``retainedCContext()``.
    static func releaseCContext(_ context: UnsafeMutableRawPointer) {
        Unmanaged<Self>.fromOpaque(context).release()
    }
}
