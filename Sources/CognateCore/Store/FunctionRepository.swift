import Foundation

/// Where a Lambda ARN named in a pool's LambdaConfig is served: a webhook URL.
public struct FunctionBinding: Sendable, Equatable {
    public var arn: String
    public var url: String
    public var updatedAt: Date

    public init(arn: String, url: String, updatedAt: Date) {
        self.arn = arn
        self.url = url
        self.updatedAt = updatedAt
    }
}

/// The bindings of function ARNs to webhooks (`cognate functions put/list/delete`). Writers
/// record a `functions` change in the same transaction, so every node applies it within a second.
public protocol FunctionRepository: Sendable {
    /// Binds `arn` to `url`, replacing an earlier binding.
    func putFunction(_ binding: FunctionBinding) async throws
    /// Removes the binding; false when there was none.
    func deleteFunction(arn: String) async throws -> Bool
    func function(arn: String) async throws -> FunctionBinding?
    /// Every binding, by ARN.
    func allFunctions() async throws -> [FunctionBinding]
}
