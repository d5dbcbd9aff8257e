// The setups of new connections (`Configuration.prepareDatabase`).

extension Database {
    /// Runs the setups of ``Configuration/prepareDatabase(_:)``.
    ///
    /// A setup may call a registration that cannot throw
    /// (``add(tokenizer:)``) on a file that SQLite cannot read (not a
    /// database, or encrypted with another passphrase): the registration
    /// records its error (see ``deferSetupError(_:)``), and opening the
    /// connection throws it, rather than stopping the program.
    func runSetups() throws {
        isRunningSetups = true
        defer {
            isRunningSetups = false
            deferredSetupError = nil
        }
        for setup in configuration.setups {
            try setup(self)
            if let deferredSetupError { throw deferredSetupError }
        }
    }

    /// Records the error of a registration that cannot throw, while the
    /// setups of a new connection run: opening the connection throws it.
    /// Returns false outside the setups (the caller stops the program).
    func deferSetupError(_ error: any Error) -> Bool {
        guard isRunningSetups else { return false }
        if deferredSetupError == nil { deferredSetupError = error }
        return true
    }
}
