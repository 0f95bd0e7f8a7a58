import CognateProtocol
import Foundation

/// What follows a correct first factor: one decision for every flow (tokens, a second factor, a
/// device's proof, a new password, or a refusal).
struct SignInCompletion: Sendable {
    let store: any Store
    let time: any TimeSource
    let users: UserDirectory
    let authSessions: AuthSessionBook
    let throttle: SignInThrottle
    let authEvents: AuthEventRecorder
    let tokenFamilies: TokenFamilies
    let deviceTrust: DeviceTrust
    let challenges: SecondFactorChallenges
    let configuration: CoreConfiguration
}

extension SignInCompletion {
    /// What follows a correct first factor (password, SRP, a device, a custom challenge), inside
    /// the sign-in's transaction: ``FirstFactorStep/after(_:pool:device:deviceProved:askingForMfa:risk:now:)``
    /// decides, and this carries the step out — a refusal, NEW_PASSWORD_REQUIRED, the second
    /// factor the user has (if none, the step after it), the device's proof, or a new token
    /// family.
    ///
    /// `device`: the DEVICE_KEY the client sent, if any. A remembered device of the user
    /// skips MFA; a confirmed one must prove its secret (DEVICE_SRP_AUTH) unless `deviceProved`;
    /// in a pool that tracks devices, a device seen for the first time is created and
    /// announced with the tokens.
    ///
    /// `riskDemandsMfa`: threat protection asks for a second factor whatever the device; when
    /// the user has none, `.required` refuses the sign-in and `.ifConfigured` lets it through.
    /// `groups`: the user's groups when the caller read them in this transaction already.
    func completeFirstFactor(_ user: UserRecord, groups knownGroups: [GroupRecord]? = nil, pool: PoolRecord,
                             client: ClientRecord, askingForMfa: Bool = true,
                             device deviceKey: String? = nil, deviceProved: Bool = false,
                             riskDemandsMfa: RiskMfaDemand? = nil,
                             in transaction: any StoreTransaction) async throws -> FirstFactorResult {
        let device = user.status == .forceChangePassword
            ? nil : try await deviceTrust.knownDevice(deviceKey, of: user, pool: pool, in: transaction)
        var step = FirstFactorStep.after(
            user, pool: pool, device: device, deviceProved: deviceProved, askingForMfa: askingForMfa, risk: riskDemandsMfa,
            now: time.now)
        if case .secondFactor(let forced, let required) = step {
            if let challenge = try await challenges.mfaChallenge(
                for: user, pool: pool, client: client, device: device?.deviceKey, forced: forced, in: transaction)
            {
                return challenge
            }
            if required { throw CommitAndFail(ThreatProtectionError.riskBlocked) }
            step = .afterSecondFactor(pool: pool, device: device, deviceProved: deviceProved)
        }
        switch step {
        case .refuse(let error): throw error
        case .newPassword:
            return .challenge(try await newPasswordChallenge(
                for: user, pool: pool, client: client, device: deviceKey, in: transaction))
        case .deviceProof:
            guard let device else { throw CognitoError.internalError("A device proof without a device.") }
            return .challenge(try await deviceTrust.deviceChallenge(device, user: user, pool: pool, client: client, in: transaction))
        case .secondFactor: throw CognitoError.internalError("A second factor decided twice.")
        case .tokens(let tracksNewDevice):
            let newDevice = tracksNewDevice ? try await deviceTrust.trackNewDevice(of: user, pool: pool, in: transaction) : nil
            let (family, refreshToken) = tokenFamilies.newTokenFamily(
                of: user, client: client, deviceKey: device?.deviceKey ?? newDevice?.deviceKey)
            try await transaction.insertTokenFamily(family)
            let groups =
                if let knownGroups { knownGroups } else { try await transaction.groups(ofUser: user.sub, poolId: pool.id) }
            return .tokens(family, refreshToken: refreshToken, user: user, groups: groups, newDevice: newDevice)
        }
    }

    /// Refuses a user who may not sign in at all: disabled, unconfirmed, or made to reset
    /// their password.
    static func checkMaySignIn(_ user: UserRecord) throws {
        guard user.enabled else { throw CognitoError.userDisabled }
        switch user.status {
        case .unconfirmed: throw CognitoError.userNotConfirmed
        case .resetRequired: throw CognitoError.passwordResetRequired
        default: break
        }
    }

    /// The end of a password check, inside its transaction, with the verdict computed before
    /// it (so no exponentiation holds the database): under the user's lock, a lockout refuses
    /// the attempt whatever the verdict; a wrong password (or one changed meanwhile) is counted;
    /// a right one clears the count and completes the first factor.
    /// In a pool with threat protection, `screenedSignIn` does it and records the attempt;
    /// `password` is the password in clear when the flow carried it.
    func settlePasswordCheck(_ checked: UserRecord, correct: Bool, password: String?, pool: PoolRecord,
                             client: ClientRecord, device: String?,
                             in transaction: any StoreTransaction) async throws -> FirstFactorResult {
        if pool.threatProtection != .off {
            return try await screenedSignIn(
                checked, correct: correct, password: password, pool: pool, client: client, device: device, in: transaction)
        }
        let (user, standing) = try await settlePasswordVerdict(checked, correct: correct, in: transaction)
        return try await completeFirstFactor(
            user, groups: standing.groups, pool: pool, client: client, device: device, in: transaction)
    }

    /// The lockout and failure count of ``settlePasswordCheck(_:correct:password:pool:client:device:in:)``
    /// without what follows: returns the user, locked, with its groups and its failure record
    /// as it was, when the password was right. Two reads: the lock, then (`signInStanding`)
    /// the failure record it guards and the groups.
    func settlePasswordVerdict(_ checked: UserRecord, correct: Bool, in transaction: any StoreTransaction) async throws
        -> (user: UserRecord, standing: SignInStanding)
    {
        // An imported user has no password yet: whatever is typed, the answer is to reset it.
        if checked.password == nil, checked.status == .resetRequired { throw CognitoError.passwordResetRequired }
        let user = try await users.locked(checked, transaction)
        let standing = try await transaction.signInStanding(poolId: user.poolId, sub: user.sub)
        try throttle.refuseWhileLockedOut(standing.lockout)
        guard correct, user.password == checked.password else {
            try await throttle.recordFailedSignIn(user.sub, poolId: user.poolId, in: transaction)
            throw CommitAndFail(.incorrectCredentials)
        }
        if standing.lockout != nil { try await transaction.clearSignInLockout(poolId: user.poolId, subject: user.sub) }
        return (user, standing)
    }
}
