extension Optional {
    /// `flatMap` for an async transform.
    func asyncFlatMap<Result>(_ transform: (Wrapped) async throws -> Result?) async rethrows -> Result? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
