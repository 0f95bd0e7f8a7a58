import CognateProtocol
import Foundation

/// The second factor a sign-in asks for, and the codes it sends.
struct SecondFactorChallenges: Sendable {
    let random: any RandomSource
    let codes: CodeBook
    let authSessions: AuthSessionBook
    let allowances: RequestAllowances
    let deliveryQueue: DeliveryQueue
}

extension SecondFactorChallenges {
    /// The second factor a sign-in needs after its first, inside the first factor's transaction
    /// (nil: none). The factors a user can be asked for are those the pool enables and the user
    /// has: a verified authenticator app (SOFTWARE_TOKEN_MFA), a `phone_number` (SMS_MFA), an
    /// `email` (EMAIL_OTP) — each when the pool requires MFA or the user enabled it. The
    /// preferred one, or the only one, is asked for; with several and none preferred the user
    /// chooses (SELECT_MFA_TYPE). A user with none, in a pool that requires MFA, must set one
    /// up first (MFA_SETUP, `MFAS_CAN_SETUP`: ``setupFactors(pool:user:)``). `forced` (threat
    /// protection's risk-based MFA): every factor the pool enables and the user has, as if MFA
    /// were required, even in an OPTIONAL pool.
    func mfaChallenge(for user: UserRecord, pool: PoolRecord, client: ClientRecord, device: String?, forced: Bool = false,
                      in transaction: any StoreTransaction) async throws -> FirstFactorResult? {
        let mode = pool.settings.mfaConfiguration ?? .off
        guard mode != .off else { return nil }
        let mfa = try await transaction.userMfa(poolId: pool.id, sub: user.sub)
        let factors = Self.mfaFactors(of: user, mfa: mfa, pool: pool, required: mode == .on || forced)
        let state = MfaSessionState(username: user.username, deviceKey: device)
        if let preferred = mfa?.preferred.map(ChallengeNameType.init(rawValue:)), factors.contains(preferred) {
            return try await askForFactor(preferred, user: user, state: state, pool: pool, client: client, in: transaction)
        }
        if factors.count == 1 {
            return try await askForFactor(factors[0], user: user, state: state, pool: pool, client: client, in: transaction)
        }
        if factors.count > 1 {
            let session = try await authSessions.openAuthSession(
                .selectMfaType, state: state, user: user, pool: pool, client: client, encoding: .session, in: transaction)
            return .challenge(.challenge(.selectMfaType, parameters: [
                "MFAS_CAN_CHOOSE": Self.jsonList(factors), "USER_ID_FOR_SRP": user.username,
            ], session: session))
        }
        guard mode == .on else { return nil }
        // Required MFA with no factor to set up must not let users in without one.
        let setup = Self.setupFactors(pool: pool, user: user)
        guard !setup.isEmpty else {
            throw CognitoError(.invalidUserPoolConfiguration, "MFA is required but no MFA method is enabled for the user pool.")
        }
        let session = try await authSessions.openAuthSession(
            .mfaSetup, state: state, user: user, pool: pool, client: client, encoding: .session, in: transaction)
        return .challenge(.challenge(.mfaSetup, parameters: [
            "MFAS_CAN_SETUP": Self.jsonList(setup), "USER_ID_FOR_SRP": user.username,
        ], session: session))
    }

    /// The factors a user can set up during sign-in (MFA_SETUP's `MFAS_CAN_SETUP`), in the
    /// order Cognito lists them: an authenticator app where the pool enables it, and email MFA
    /// where the pool enables it and the user has no email address yet (the answer gives one,
    /// `EMAIL`, proved by the code sent to it). SMS is never offered: a phone number cannot be
    /// given in the answer (Cognito lists `SMS_MFA` too, and its clients skip it).
    static func setupFactors(pool: PoolRecord, user: UserRecord) -> [ChallengeNameType] {
        var factors: [ChallengeNameType] = []
        if pool.mfa.softwareToken { factors.append(.softwareTokenMfa) }
        if pool.mfa.email, user.destination(for: "email") == nil { factors.append(.emailOtp) }
        return factors
    }

    /// The factors `user` can be asked for, in the order Cognito lists them.
    static func mfaFactors(of user: UserRecord, mfa: UserMfaRecord?, pool: PoolRecord, required: Bool) -> [ChallengeNameType] {
        var factors: [ChallengeNameType] = []
        if pool.mfa.softwareToken, mfa?.totpSecret != nil, required || mfa?.totpEnabled == true {
            factors.append(.softwareTokenMfa)
        }
        if pool.mfa.sms, user.destination(for: "phone_number") != nil, required || mfa?.smsEnabled == true {
            factors.append(.smsMfa)
        }
        if pool.mfa.email, user.destination(for: "email") != nil, required || mfa?.emailEnabled == true {
            factors.append(.emailOtp)
        }
        return factors
    }

    /// The challenge for one factor: a code request for the authenticator app, or a code sent
    /// by SMS or email (queued here, sent once the transaction committed).
    func askForFactor(_ factor: ChallengeNameType, user: UserRecord, state: MfaSessionState, pool: PoolRecord,
                      client: ClientRecord, in transaction: any StoreTransaction) async throws -> FirstFactorResult {
        guard factor == .softwareTokenMfa else {
            return try await sendMfaCode(factor, user: user, state: state, pool: pool, client: client, in: transaction)
        }
        let session = try await authSessions.openAuthSession(
            .softwareTokenMfa, state: state, user: user, pool: pool, client: client, encoding: .session, in: transaction)
        var parameters = ["USER_ID_FOR_SRP": user.username]
        parameters["FRIENDLY_DEVICE_NAME"] = try await transaction.userMfa(poolId: pool.id, sub: user.sub)?.totpName
        return .challenge(.challenge(.softwareTokenMfa, parameters: parameters, session: session))
    }

    /// Challenge names as the JSON list Cognito puts in MFAS_CAN_CHOOSE / MFAS_CAN_SETUP.
    static func jsonList(_ names: [ChallengeNameType]) -> String {
        "[" + names.map { "\"\($0.rawValue)\"" }.joined(separator: ",") + "]"
    }
}
