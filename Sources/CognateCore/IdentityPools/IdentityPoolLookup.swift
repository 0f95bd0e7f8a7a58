import CognateIdentityProtocol
import CognateProtocol
import Foundation

/// Finding identity pools and identities, and their ARNs. Pools are read from the store on
/// every call (no node cache): a change applies on every node at once.
struct IdentityPoolLookup: Sendable {
    let store: any Store
    let configuration: CoreConfiguration

    /// The pool, or ResourceNotFoundException as Cognito words it.
    func pool(_ id: String) async throws -> IdentityPoolRecord {
        guard let pool = try await store.read({ try await $0.identityPool(id: id) }) else {
            throw CognitoIdentityError.identityPoolNotFound(id)
        }
        return pool
    }

    /// `arn:aws:cognito-identity:<region>:<account>:identitypool/<id>`.
    func arn(of poolId: String) -> String {
        "arn:aws:cognito-identity:\(Self.region(of: poolId) ?? configuration.region):\(configuration.accountId):identitypool/\(poolId)"
    }

    /// The pool id an ARN of ours names; nil for any other ARN.
    func poolId(fromARN arn: String) -> String? {
        let parts = arn.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "arn", parts[2] == "cognito-identity", parts[4] == configuration.accountId,
            parts[5].hasPrefix("identitypool/")
        else { return nil }
        return String(parts[5].dropFirst("identitypool/".count))
    }

    /// The region part of a `REGION:GUID` id.
    static func region(of id: String) -> String? {
        id.split(separator: ":", maxSplits: 1).first.map(String.init)
    }

    /// A new `REGION:GUID` id (pools and identities alike).
    static func newId(region: String, random: any RandomSource) -> String {
        var bytes = random.bytes(16)
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4),
                     hex.dropFirst(20)]
        return region + ":" + parts.joined(separator: "-")
    }
}
