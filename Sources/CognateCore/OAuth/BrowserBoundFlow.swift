/// A flow (a hosted page's, a federated sign-in's) that only the browser it started in may
/// continue: it keeps that ``BrowserBinding``'s digest.
protocol BrowserBoundFlow: Codable, Sendable {
    var binding: String? { get }
}

/// What a flow's token names, for the browser that presents it.
enum FlowLookup<State: BrowserBoundFlow>: Sendable {
    /// The flow, now used up, with its pool and client.
    case opened(PoolRecord, ClientRecord, State)
    /// A flow of another browser, left as it was.
    case otherBrowser
    /// No flow: unknown, expired, of another kind or already used.
    case missing

    var opened: (PoolRecord, ClientRecord, State)? {
        if case .opened(let pool, let client, let state) = self { return (pool, client, state) }
        return nil
    }
}
