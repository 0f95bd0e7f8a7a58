/// `AUTH PLAIN` (RFC 4616) and `AUTH LOGIN`, the two SASL mechanisms submission servers offer
/// for a user name and password. PLAIN is preferred: one round trip, and a standard.
enum SMTPAuthenticationMechanism: String, Sendable, CaseIterable {
    case plain = "PLAIN"
    case login = "LOGIN"

    /// The preferred mechanism among those the server offers, or nil if it offers neither.
    static func preferred(amongOffered offered: [String]) -> SMTPAuthenticationMechanism? {
        allCases.first { offered.contains($0.rawValue) }
    }

    /// Runs the exchange on `connection`. Only the base64 forms of the user name and password
    /// go on the wire; nothing here is logged.
    /// - Throws: ``SMTPError/rejected(_:stage:)`` with the server's reply when it refuses
    ///   (`535` is permanent, `454` transient).
    func authenticate(_ credentials: SMTPCredentials, on connection: SMTPConnection) async throws {
        let username = Array(credentials.username.utf8)
        let password = Array(credentials.password.utf8)
        switch self {
        case .plain:
            let response = Base64.encode([0] + username + [0] + password)
            try expect(await connection.command("AUTH PLAIN \(response)", stage: .authentication), 235)
        case .login:
            try expect(await connection.command("AUTH LOGIN", stage: .authentication), 334)
            try expect(await connection.command(Base64.encode(username), stage: .authentication), 334)
            try expect(await connection.command(Base64.encode(password), stage: .authentication), 235)
        }
    }

    private func expect(_ reply: SMTPReply, _ code: Int) throws {
        guard reply.code == code else { throw SMTPError.rejected(reply, stage: .authentication) }
    }
}
