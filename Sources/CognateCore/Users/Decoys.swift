import CognateProtocol

struct Decoys: Sendable {
    let codes: CodeBook
}

/// What the server shows for a name that is no user when an app client prevents user
/// existence errors (PreventUserExistenceErrors = ENABLED): values that look like a real
/// user's, stable per name (a value that changed between requests would give the decoy away)
/// and unpredictable without the server's secret — so neither answers nor timing tell an
/// unknown name from a real user.
extension Decoys {
    /// The USER_ID_FOR_SRP of a decoy: what a real user's would look like — a UUID where users
    /// sign in with an email, phone number or alias (their internal name differs from what they
    /// typed), the typed name otherwise. Stable per name.
    func decoyUsername(for typed: String, pool: PoolRecord) -> String {
        let names = SignInNames(pool: pool.settings)
        let couldBeUsername = (try? names.checkUsernameFormat(typed)) != nil
        guard names.usesAttributeAsUsername || !couldBeUsername else { return typed }
        var uuid = Array(codes.pseudorandom("decoy-user|\(pool.id)|\(typed)").prefix(32))
        uuid[12] = "4"
        uuid[16] = ["8", "9", "a", "b"][Int(String(uuid[16]), radix: 16)! % 4]
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(uuid[$0]) }.joined(separator: "-")
    }

    /// A salt for a username that does not exist, the same on every request (a salt that
    /// changed would give the decoy away) and unpredictable without the server's secret.
    func decoySalt(for username: String, pool: PoolRecord) -> [UInt8] {
        let mac = codes.pseudorandom("decoy-salt|\(pool.id)|\(username)")
        return SRPEncoding.pad(SRPEncoding.bytes(fromHex: String(mac.prefix(32))) ?? [])
    }

    /// A verifier for a username that does not exist: a stable pseudorandom group element,
    /// derived without an exponentiation (a real user's verifier is read, not computed, so the
    /// decoy must not cost more).
    func decoyVerifier(for username: String, pool: PoolRecord) -> [UInt8] {
        let hex = (0..<12).map { codes.pseudorandom("decoy-verifier|\(pool.id)|\(username)|\($0)") }.joined()
        return SRPServer.reduced(SRPEncoding.bytes(fromHex: hex) ?? [1])
    }

    /// The lockout subject of a name that is no user of the pool (PreventUserExistenceErrors):
    /// a pseudonym of the name as the pool folds it, so wrong passwords for it are counted and
    /// locked out exactly as a real user's are, on every flow and node.
    func decoySubject(for typed: String, pool: PoolRecord) -> String {
        "decoy:" + codes.pseudorandom("sign-in|\(pool.id)|\(SignInNames(pool: pool.settings).usernameKey(typed))")
    }

    /// CodeDeliveryDetails for a code that is not sent (the name is no user, or the user is in
    /// no state to receive one). For a user, where their codes go — the same whichever
    /// operation answers: ForgotPassword and ResendConfirmationCode each send to a real user in
    /// some states and not in others, and two different addresses for one name, where a name
    /// that is no user gets the same decoy from both, told which names exist. Else (no user,
    /// or a user without an address) ``simulatedDelivery(for:pool:recovery:)``.
    func unsentDelivery(for typed: String, user: UserRecord?, pool: PoolRecord, recovery: Bool) -> CodeDeliveryDetailsType {
        if let user, let destination = pool.recoveryDestination(for: user) ?? pool.verificationDestination(for: user) {
            return destination.details
        }
        return simulatedDelivery(for: typed, pool: pool, recovery: recovery)
    }

    /// CodeDeliveryDetails for a name that gets no code and has no address of its own: the
    /// medium the pool would use, and a destination masked as a real one — the typed name
    /// itself when it is an address, else a stable pseudorandom one (its first letter too: one
    /// always the typed name's would tell a real address starting otherwise from a decoy).
    func simulatedDelivery(for typed: String, pool: PoolRecord, recovery: Bool) -> CodeDeliveryDetailsType {
        let autoVerified = Set(pool.settings.autoVerifiedAttributes ?? [])
        var prefersPhone = autoVerified.contains(.phoneNumber) && !autoVerified.contains(.email)
        if recovery, autoVerified.contains(.phoneNumber),
            pool.settings.accountRecoverySetting?.recoveryMechanisms?.min(by: { $0.priority < $1.priority })?.name
                == .verifiedPhoneNumber
        {
            prefersPhone = true
        }
        let isPhone = typed.hasPrefix("+") || (prefersPhone && !typed.contains("@"))
        let seed = Array(codes.pseudorandom("decoy-destination|\(pool.id)|\(typed)").utf8)
        let address: String
        if typed.contains("@") || (typed.hasPrefix("+") && AttributeRules.isPhoneNumber(typed)) {
            address = typed
        } else if isPhone {
            address = "+1555" + seed.prefix(7).map { String(Int($0) % 10) }.joined()
        } else {
            let domains = ["gmail.com", "gmail.com", "gmail.com", "yahoo.com", "hotmail.com", "outlook.com", "icloud.com",
                           "aol.com", "proton.me", "mail.com"]
            let local = String(UnicodeScalar(UInt8(ascii: "a") + seed[1] % 26))
            address = "\(local)@\(domains[Int(seed[0]) % domains.count])"
        }
        return CodeDestination(attribute: isPhone ? "phone_number" : "email", address: address).details
    }
}

extension Decoys {
    /// Where a choice-based sign-in's code challenge (EMAIL_OTP, SMS_OTP) for a name that is no
    /// user says its code went: the typed name when it is such an address, else a stable
    /// pseudorandom one.
    func decoyDestination(for typed: String, attribute: String, pool: PoolRecord) -> CodeDestination {
        let seed = Array(codes.pseudorandom("decoy-otp|\(pool.id)|\(attribute)|\(typed)").utf8)
        if attribute == "email" {
            if typed.contains("@") { return CodeDestination(attribute: attribute, address: typed) }
            let local = String(UnicodeScalar(UInt8(ascii: "a") + seed[1] % 26))
            return CodeDestination(attribute: attribute, address: "\(local)@\(["gmail.com", "outlook.com", "icloud.com"][Int(seed[0]) % 3])")
        }
        if typed.hasPrefix("+"), AttributeRules.isPhoneNumber(typed) { return CodeDestination(attribute: attribute, address: typed) }
        return CodeDestination(attribute: attribute, address: "+1555" + seed.prefix(7).map { String(Int($0) % 10) }.joined())
    }

    /// The credential a passkey challenge for a name that is no user asks for: 32 bytes, stable
    /// per name.
    func decoyCredentialId(for typed: String, pool: PoolRecord) -> [UInt8] {
        let hex = codes.pseudorandom("decoy-passkey|\(pool.id)|\(SignInNames(pool: pool.settings).usernameKey(typed))")
        return SRPEncoding.bytes(fromHex: String(hex.prefix(64))) ?? Array(repeating: 0, count: 32)
    }
}
