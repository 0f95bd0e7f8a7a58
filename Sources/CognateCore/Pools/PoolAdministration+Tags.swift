import CognateProtocol
import Foundation

extension PoolAdministration {
    /// TagResource: tags on a user pool (its ARN, as DescribeUserPool shows it); they appear
    /// as the pool's `UserPoolTags`. At most 50 per pool.
    public func tagResource(_ request: TagResourceRequest) async throws -> TagResourceResponse {
        try await editTags(of: request.resourceArn) { tags in
            tags.merge(request.tags) { $1 }
            guard tags.count <= 50 else { throw CognitoError.invalidParameter("A user pool can have at most 50 tags.") }
        }
        return TagResourceResponse()
    }

    public func untagResource(_ request: UntagResourceRequest) async throws -> UntagResourceResponse {
        try await editTags(of: request.resourceArn) { tags in
            for key in request.tagKeys { tags[key] = nil }
        }
        return UntagResourceResponse()
    }

    public func listTagsForResource(_ request: ListTagsForResourceRequest) async throws -> ListTagsForResourceResponse {
        let pool = try await directory.requirePool(try poolId(ofArn: request.resourceArn))
        return ListTagsForResourceResponse(tags: pool.settings.userPoolTags ?? [:])
    }

    private func editTags(of arn: String, _ edit: @escaping @Sendable (inout [String: String]) throws -> Void) async throws {
        try await directory.editPool(try poolId(ofArn: arn)) { pool in
            var tags = pool.settings.userPoolTags ?? [:]
            try edit(&tags)
            pool.settings.userPoolTags = tags.isEmpty ? nil : tags
        }
    }

    /// The pool an ARN of this server names (`arn:aws:cognito-idp:<region>:<account>:userpool/<id>`).
    private func poolId(ofArn arn: String) throws -> String {
        let prefix = "arn:aws:cognito-idp:\(configuration.region):\(configuration.accountId):userpool/"
        guard arn.hasPrefix(prefix), arn.count > prefix.count else {
            throw CognitoError.invalidParameter("Invalid ARN: \(arn) is not a user pool of this server.")
        }
        return String(arn.dropFirst(prefix.count))
    }
}
