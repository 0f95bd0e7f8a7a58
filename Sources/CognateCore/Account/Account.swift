import CognateProtocol

/// The signed-in user's own account: their attributes and verification codes, password, and
/// deletion.
public struct Account: Sendable {
    let store: any Store
    let time: any TimeSource
    let configuration: CoreConfiguration
    let codes: CodeBook
    let users: UserDirectory
    let allowances: RequestAllowances
    let messenger: Messenger
    let attributeEditor: AttributeEditor
    let authenticator: AccessTokenAuthenticator
    let passwords: Passwords
    let throttle: SignInThrottle
    let authEvents: AuthEventRecorder
    let mfaView: UserMfaView
}

extension Account {
    /// GetUser: the attributes the token's app client may read (all when it lists none).
    public func getUser(_ request: GetUserRequest) async throws -> GetUserResponse {
        let caller = try await authenticator.authenticatedUser(request.accessToken, onlyToAnswer: true)
        let readable = caller.client.settings.readAttributes.map { ["sub"] + $0 }
        let mfa = try await mfaView.mfaSettings(of: caller.user, pool: caller.pool, onlyToAnswer: true)
        return GetUserResponse(
            username: caller.user.username, userAttributes: caller.user.wireAttributes(only: readable),
            mfaOptions: mfa.options, preferredMfaSetting: mfa.preferred, userMFASettingList: mfa.list)
    }

    public func deleteUser(_ request: DeleteUserRequest) async throws -> EmptyResponse {
        let caller = try await authenticator.authenticatedUser(request.accessToken)
        try await store.write { try await $0.deleteUser(poolId: caller.pool.id, sub: caller.user.sub) }
        return EmptyResponse()
    }
}
