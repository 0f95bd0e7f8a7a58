import CognateProtocol
import Foundation

extension PoolAdministration {
    /// SetUserPoolPinPolicy: the pool's PIN rules; without a policy, PIN sign-in is off (and
    /// registered PINs stop working).
    public func setUserPoolPinPolicy(_ request: SetUserPoolPinPolicyRequest) async throws -> PinPolicyResponse {
        if let problem = request.pinPolicy?.problem { throw CognitoError.invalidParameter(problem) }
        let updated = try await directory.editPool(request.userPoolId) { $0.pinPolicy = request.pinPolicy }
        return PinPolicyResponse(pinPolicy: updated.pinPolicy)
    }

    /// GetPinPolicy: the PIN rules of the app client's pool (none: no PIN sign-in there).
    public func getPinPolicy(_ request: GetPinPolicyRequest) async throws -> PinPolicyResponse {
        let (pool, _) = try await directory.requireClient(request.clientId)
        return PinPolicyResponse(pinPolicy: pool.pinPolicy)
    }
}
