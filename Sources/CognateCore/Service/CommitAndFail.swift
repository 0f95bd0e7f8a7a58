import CognateProtocol

/// Thrown inside a write transaction to report `error` to the caller *after* committing what
/// the transaction did (a failed-attempt count, a lockout). Any other error rolls back.
struct CommitAndFail: Error {
    let error: CognitoError
    init(_ error: CognitoError) { self.error = error }
}

extension Store {
    /// Runs `body` in a write transaction, honouring ``CommitAndFail``.
    func transaction<Result: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) async throws -> Result
    ) async throws -> Result {
        let outcome: Swift.Result<Result, CognitoError> = try await write { transaction in
            do {
                return .success(try await body(transaction))
            } catch let failure as CommitAndFail {
                return .failure(failure.error)
            }
        }
        return try outcome.get()
    }
}
