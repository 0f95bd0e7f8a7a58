import CognateIdentityProtocol
import CognateProtocol
import Foundation

/// Tags of identity pools, by the pool's ARN (`arn:aws:cognito-identity:<region>:<account>:identitypool/<id>`).
/// The pool's `IdentityPoolTags` are the same tags.
extension IdentityPoolAdministration {
    public func tagResource(_ request: TagResourceInput) async throws -> CognateIdentityProtocol.TagResourceResponse {
        try await changeTags(of: request.resourceArn) { tags in
            for (key, value) in request.tags { tags[key] = value }
            guard tags.count <= 50 else { throw CognitoIdentityError.invalidParameter("A resource can have at most 50 tags.") }
        }
        return CognateIdentityProtocol.TagResourceResponse()
    }

    public func untagResource(_ request: UntagResourceInput) async throws -> CognateIdentityProtocol.UntagResourceResponse {
        try await changeTags(of: request.resourceArn) { tags in
            for key in request.tagKeys { tags[key] = nil }
        }
        return CognateIdentityProtocol.UntagResourceResponse()
    }

    public func listTagsForResource(_ request: ListTagsForResourceInput) async throws
        -> CognateIdentityProtocol.ListTagsForResourceResponse
    {
        let pool = try await lookup.pool(try poolId(of: request.resourceArn))
        return CognateIdentityProtocol.ListTagsForResourceResponse(tags: pool.settings.identityPoolTags ?? [:])
    }

    private func changeTags(of arn: String, _ change: @escaping @Sendable (inout [String: String]) throws -> Void) async throws {
        let id = try poolId(of: arn)
        try await store.write { transaction in
            guard var pool = try await transaction.identityPool(id: id) else { throw CognitoIdentityError.identityPoolNotFound(id) }
            var tags = pool.settings.identityPoolTags ?? [:]
            try change(&tags)
            pool.settings.identityPoolTags = tags
            pool.updatedAt = time.now
            try await transaction.updateIdentityPool(pool)
        }
    }

    private func poolId(of arn: String) throws -> String {
        guard let id = lookup.poolId(fromARN: arn) else {
            throw CognitoIdentityError.resourceNotFound("Resource \(arn) not found.")
        }
        return id
    }
}
