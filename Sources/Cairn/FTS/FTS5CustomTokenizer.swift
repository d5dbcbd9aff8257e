/// A tokenizer written in Swift, registered in a connection with
/// ``Database/add(tokenizer:)``, and used by FTS5 tables that name it.
///
/// ```swift
/// final class MyTokenizer: FTS5CustomTokenizer {
///     static let name = "custom"
///     init(db: Database, arguments: [String]) throws { ... }
///     func tokenize(context:tokenization:pText:nText:tokenCallback:) -> CInt { ... }
/// }
///
/// try db.create(virtualTable: "document", using: FTS5()) { t in
///     t.tokenizer = MyTokenizer.tokenizerDescriptor(arguments: ["arg1", "arg2"])
///     t.column("content")
/// }
/// ```
///
/// Most tokenizers post-process the tokens of another tokenizer: adopt
/// ``FTS5WrapperTokenizer``, which hides the C interface.
///
/// When a Swift tokenizer (or its initializer) throws, the statement that
/// needed it throws the same error, and the connection stays usable. FTS5
/// cannot undo a document that was indexed halfway: when the statement
/// wrote inside a transaction, Cairn rolls the transaction back, so that
/// nothing half-indexed remains.
public protocol FTS5CustomTokenizer: FTS5Tokenizer {
    /// The name of the tokenizer, as FTS5 tables name it: not one of the
    /// built-in tokenizers (`ascii`, `porter`, `unicode61`, `trigram`).
    static var name: String { get }

    /// Creates a tokenizer. SQLite creates tokenizers when a table needs
    /// them, with the arguments that follow the name of the tokenizer in
    /// the table definition.
    ///
    /// - Parameters:
    ///   - db: The connection.
    ///   - arguments: The arguments of the tokenizer.
    /// - Throws: An error that the statement that needed the tokenizer
    ///   throws.
    init(db: Database, arguments: [String]) throws
}

extension FTS5CustomTokenizer {
    /// The descriptor of the tokenizer, for table definitions.
    ///
    /// ```swift
    /// // tokenize='''custom'' ''arg1'' ''arg2'''
    /// t.tokenizer = MyTokenizer.tokenizerDescriptor(arguments: ["arg1", "arg2"])
    /// ```
    ///
    /// - Parameter arguments: The arguments given to ``init(db:arguments:)``.
    public static func tokenizerDescriptor(arguments: [String] = []) -> FTS5TokenizerDescriptor {
        FTS5TokenizerDescriptor(components: [name] + arguments)
    }
}
