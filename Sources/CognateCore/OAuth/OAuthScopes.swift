import CognateProtocol

/// The OAuth scopes a client may be granted: OpenID Connect's (`openid`, `email`, `phone`,
/// `profile`), `aws.cognito.signin.user.admin` (the API's self-service operations), and the
/// pool's resource servers' custom scopes (`<identifier>/<name>`).
enum OAuthScopes {
    static let userScopes: Set<String> = ["openid", "email", "phone", "profile", "aws.cognito.signin.user.admin"]

    /// The scopes granted for `requested` (space-separated; none: every scope the client may
    /// have): each must be among the client's AllowedOAuthScopes, and a custom scope must
    /// exist in a resource server. `forUsers`: OpenID scopes allowed (false for the client
    /// credentials grant, which grants custom scopes only).
    static func grant(_ requested: String?, client: ClientRecord, forUsers: Bool,
                      in transaction: any StoreTransaction) async throws -> [String] {
        let allowed = client.settings.allowedOAuthScopes ?? []
        let asked = requested.map { $0.split(separator: " ").map(String.init) } ?? []
        let scopes = asked.isEmpty ? allowed.filter { forUsers || !userScopes.contains($0) } : asked
        guard !scopes.isEmpty else { throw OAuthError.invalidScope("No scope was requested and the client allows none.") }
        for scope in scopes {
            guard allowed.contains(scope) else { throw OAuthError.invalidScope("The client is not allowed the scope \(scope).") }
            if userScopes.contains(scope) {
                guard forUsers else { throw OAuthError.invalidScope("\(scope) cannot be granted to a client acting for itself.") }
                continue
            }
            guard try await exists(scope, pool: client.poolId, in: transaction) else {
                throw OAuthError.invalidScope("No resource server defines the scope \(scope).")
            }
        }
        if forUsers, !scopes.contains("openid"), scopes.contains(where: { ["email", "phone", "profile"].contains($0) }) {
            throw OAuthError.invalidScope("The email, phone and profile scopes need openid.")
        }
        return uniqued(scopes)
    }

    private static func exists(_ scope: String, pool: String, in transaction: any StoreTransaction) async throws -> Bool {
        guard let slash = scope.lastIndex(of: "/") else { return false }
        let identifier = String(scope[..<slash])
        let name = String(scope[scope.index(after: slash)...])
        return try await transaction.resourceServer(poolId: pool, identifier: identifier)?.scopes
            .contains { $0.scopeName == name } ?? false
    }

    /// The scopes in order, each once.
    private static func uniqued(_ scopes: [String]) -> [String] {
        var seen = Set<String>()
        return scopes.filter { seen.insert($0).inserted }
    }
}
