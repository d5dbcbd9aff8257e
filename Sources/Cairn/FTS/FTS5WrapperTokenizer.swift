import Foundation

/// The function a wrapper tokenizer calls for each token it outputs.
///
/// - Parameters:
///   - token: The token.
///   - flags: Its flags: the flags of the input token, or these flags with
///     `.colocated` for a synonym.
/// - Throws: An error that tells that FTS5 wants to stop the tokenization:
///   do not catch it.
public typealias FTS5WrapperTokenCallback = (_ token: String, _ flags: FTS5TokenFlags) throws -> Void

/// A Swift tokenizer that post-processes the tokens of another tokenizer,
/// its wrapped tokenizer: tokens can be modified, ignored, or multiplied
/// into synonyms.
///
/// ```swift
/// final class LowercaseASCIITokenizer: FTS5WrapperTokenizer {
///     static let name = "lowercase_ascii"
///     let wrappedTokenizer: any FTS5Tokenizer
///
///     init(db: Database, arguments: [String]) throws {
///         wrappedTokenizer = try db.makeTokenizer(.unicode61())
///     }
///
///     func accept(
///         token: String,
///         flags: FTS5TokenFlags,
///         for tokenization: FTS5Tokenization,
///         tokenCallback: FTS5WrapperTokenCallback) throws
///     {
///         try tokenCallback(token, flags) // pass through
///     }
/// }
/// ```
///
/// Two rules: do not catch the errors of `tokenCallback`, and give it the
/// flags of the input token, unchanged, or with `.colocated` added for a
/// synonym of the previous token.
public protocol FTS5WrapperTokenizer: FTS5CustomTokenizer {
    /// The tokenizer whose tokens are post-processed.
    var wrappedTokenizer: any FTS5Tokenizer { get }

    /// Processes a token of the wrapped tokenizer: call `tokenCallback` for
    /// each output token, zero, one or several times.
    ///
    /// - Parameters:
    ///   - token: A token of the wrapped tokenizer.
    ///   - flags: Its flags.
    ///   - tokenization: Why FTS5 asks for tokens.
    ///   - tokenCallback: The function that outputs a token.
    /// - Throws: The errors of `tokenCallback`, or your own error, which
    ///   stops the tokenization and the statement that asked for it.
    func accept(
        token: String,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        tokenCallback: FTS5WrapperTokenCallback) throws
}

extension FTS5WrapperTokenizer {
    /// Tokenizes with the wrapped tokenizer, and gives each token to
    /// ``accept(token:flags:for:tokenCallback:)``. Output tokens keep the
    /// byte offsets of the input token they come from.
    public func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
    {
        var state = WrapperTokenizationState(
            wrapper: self, tokenization: tokenization,
            context: context, tokenCallback: tokenCallback)
        return withUnsafeMutablePointer(to: &state) { statePointer in
            wrappedTokenizer.tokenize(
                context: UnsafeMutableRawPointer(statePointer),
                tokenization: tokenization,
                pText: pText, nText: nText,
                tokenCallback: wrapperTokenCallback)
        }
    }
}

/// The state of a wrapper tokenization, given to the wrapped tokenizer as
/// the context of its callback.
private struct WrapperTokenizationState {
    let wrapper: any FTS5WrapperTokenizer
    let tokenization: FTS5Tokenization
    let context: UnsafeMutableRawPointer?
    let tokenCallback: FTS5TokenCallback
}

/// The error that carries a code returned by FTS5's token callback, which
/// must reach the wrapped tokenizer unchanged.
private struct FTS5TokenCallbackError: Error {
    let code: CInt
}

private let wrapperTokenCallback: FTS5TokenCallback = { context, flags, pToken, nToken, iStart, iEnd in
    guard let context else { return SQLITE_ERROR }
    let state = context.assumingMemoryBound(to: WrapperTokenizationState.self)
    let token = tokenString(pToken, nToken)
    let outerContext = state.pointee.context
    let outerCallback = state.pointee.tokenCallback
    do {
        try state.pointee.wrapper.accept(
            token: token,
            flags: FTS5TokenFlags(rawValue: flags),
            for: state.pointee.tokenization)
        { token, flags in
            var token = token
            let code = token.withUTF8 { buffer in
                buffer.withMemoryRebound(to: CChar.self) { buffer in
                    outerCallback(outerContext, flags.rawValue, buffer.baseAddress, CInt(buffer.count), iStart, iEnd)
                }
            }
            if code != SQLITE_OK {
                throw FTS5TokenCallbackError(code: code)
            }
        }
        return SQLITE_OK
    } catch let error as FTS5TokenCallbackError {
        return error.code
    } catch {
        // A Swift error: the statement that asked for tokens throws it.
        TokenizerErrorRoute.record(error)
        return SQLITE_ERROR
    }
}

// MARK: - Helpers of the ready-made wrapper tokenizers

/// Splits the arguments of a configurable wrapper tokenizer: its own
/// arguments, then `--` and the wrapped tokenizer (unicode61 by default).
func splitWrapperArguments(_ arguments: [String]) -> ([String], FTS5TokenizerDescriptor) {
    guard let separator = arguments.firstIndex(of: "--") else {
        return (arguments, .unicode61())
    }
    let wrapped = Array(arguments[(separator + 1)...])
    return (Array(arguments[..<separator]), wrapped.isEmpty ? .unicode61() : FTS5TokenizerDescriptor(components: wrapped))
}

/// The one token that `word` gives.
///
/// - Throws: A ``DatabaseError`` when it gives none or several.
func singleToken(_ word: String, of tokenizer: any FTS5Tokenizer) throws -> String {
    let tokens = try tokenizer.tokenize(document: word).filter { !$0.flags.contains(.colocated) }
    guard tokens.count == 1, let token = tokens.first?.token else {
        throw DatabaseError(resultCode: .SQLITE_ERROR, message: "not a single token: \(word)")
    }
    return token
}
