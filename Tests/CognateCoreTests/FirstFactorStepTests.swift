import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

/// The one decision of what follows a verified first factor.
struct FirstFactorStepTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    func user(_ status: UserStatusType = .confirmed, enabled: Bool = true, passwordSet: Date? = nil) -> UserRecord {
        UserRecord(poolId: "p", sub: "s", username: "u", usernameKey: "u", status: status, enabled: enabled,
                   createdAt: now, updatedAt: now, password: StoredPassword(salt: [1], verifier: [2]),
                   passwordUpdatedAt: passwordSet ?? now, attributes: [:])
    }

    func pool(mfa: UserPoolMfaType? = nil, devices: Bool = false) -> PoolRecord {
        PoolRecord(id: "p", name: "p", createdAt: now, updatedAt: now, settings: UserPoolType(
            mfaConfiguration: mfa,
            deviceConfiguration: devices ? DeviceConfigurationType(challengeRequiredOnNewDevice: true) : nil))
    }

    func device(remembered: Bool) -> DeviceRecord {
        DeviceRecord(deviceKey: "d", poolId: "p", userSub: "s", groupKey: "g", salt: "00", verifier: "01",
                     remembered: remembered, createdAt: now, updatedAt: now)
    }

    func step(_ user: UserRecord, _ pool: PoolRecord, device: DeviceRecord? = nil, proved: Bool = false,
              asking: Bool = true, risk: RiskMfaDemand? = nil) -> FirstFactorStep {
        FirstFactorStep.after(user, pool: pool, device: device, deviceProved: proved, askingForMfa: asking, risk: risk, now: now)
    }

    @Test func usersWhoMayNotSignInAreRefusedFirst() {
        #expect(step(user(enabled: false), pool()) == .refuse(.userDisabled))
        #expect(step(user(.unconfirmed), pool(mfa: .on)) == .refuse(.userNotConfirmed))
        #expect(step(user(.resetRequired), pool()) == .refuse(.passwordResetRequired))
    }

    @Test func aTemporaryPasswordMustBeChangedUnlessItExpired() {
        #expect(step(user(.forceChangePassword), pool(mfa: .on)) == .newPassword)
        let stale = user(.forceChangePassword, passwordSet: now - 8 * 86_400)
        guard case .refuse(let error) = step(stale, pool()) else { Issue.record("not refused"); return }
        #expect(error.message.contains("Temporary password has expired"))
    }

    @Test func aSecondFactorComesBeforeTheDeviceUnlessTheDeviceIsRemembered() {
        #expect(step(user(), pool(mfa: .optional)) == .secondFactor(forced: false, required: false))
        #expect(step(user(), pool(mfa: .on, devices: true), device: device(remembered: true)) == .deviceProof)
        #expect(step(user(), pool(mfa: .on, devices: true), device: device(remembered: true), proved: true)
            == .tokens(tracksNewDevice: false))
        #expect(step(user(), pool(mfa: .on), asking: false) == .tokens(tracksNewDevice: false))
        // Threat protection's demand applies on a remembered device too.
        #expect(step(user(), pool(devices: true), device: device(remembered: true), risk: .required)
            == .secondFactor(forced: true, required: true))
    }

    @Test func tokensTrackANewDeviceWhereThePoolTracksDevices() {
        #expect(step(user(), pool()) == .tokens(tracksNewDevice: false))
        #expect(step(user(), pool(devices: true)) == .tokens(tracksNewDevice: true))
    }

    @Test func onlyAPlainSignInSettlesWithoutTheLock() {
        let clean = SignInStanding(lockout: nil, groups: [])
        #expect(SignInCompletion.maySettleWithoutLock(user(), standing: clean, pool: pool(), now: now))
        #expect(!SignInCompletion.maySettleWithoutLock(user(), standing: clean, pool: pool(mfa: .optional), now: now))
        #expect(!SignInCompletion.maySettleWithoutLock(user(), standing: clean, pool: pool(devices: true), now: now))
        #expect(!SignInCompletion.maySettleWithoutLock(user(.forceChangePassword), standing: clean, pool: pool(), now: now))
    }
}
