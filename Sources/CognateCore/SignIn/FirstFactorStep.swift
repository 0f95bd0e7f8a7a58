import CognateProtocol
import Foundation

/// What follows a verified first factor, decided from what is known of the user, the pool and
/// the device the sign-in names — the one place this is decided, for the locked path
/// (``SignInCompletion/completeFirstFactor(_:groups:pool:client:askingForMfa:device:deviceProved:riskDemandsMfa:in:)``)
/// and the lock-free one (``SignInCompletion/maySettleWithoutLock(_:standing:pool:now:)``) alike.
enum FirstFactorStep: Equatable {
    /// The user may not sign in (disabled, unconfirmed, made to reset, an expired temporary
    /// password).
    case refuse(CognitoError)
    /// A temporary password: NEW_PASSWORD_REQUIRED.
    case newPassword
    /// A second factor may be asked for, if the user has one (`forced`: threat protection's
    /// demand, `required` refusing a user without one).
    case secondFactor(forced: Bool, required: Bool)
    /// The confirmed device the sign-in names must prove its secret (DEVICE_SRP_AUTH).
    case deviceProof
    /// Tokens; `tracksNewDevice`: the pool tracks devices and the sign-in names none it knows,
    /// so a new one is created with them.
    case tokens(tracksNewDevice: Bool)

    /// The step after a first factor of `user` in `pool`. `device`: the user's confirmed
    /// device the sign-in names, if any; `deviceProved`: it already proved its secret;
    /// `askingForMfa`: false once a second factor was answered, and in CUSTOM_AUTH, whose
    /// functions decide; `risk`: threat protection's demand for a second factor.
    ///
    /// The order (cognito-protocol §3.3): a user who may not sign in is refused; a temporary
    /// password must be changed; a second factor comes before the device (a remembered device
    /// skips it, threat protection's demand does not); then the device's own proof; then tokens.
    static func after(_ user: UserRecord, pool: PoolRecord, device: DeviceRecord?, deviceProved: Bool, askingForMfa: Bool,
                      risk: RiskMfaDemand?, now: Date) -> FirstFactorStep {
        do { try SignInCompletion.checkMaySignIn(user) } catch let error as CognitoError { return .refuse(error) } catch {
            return .refuse(.internalError("\(error)"))
        }
        if user.status == .forceChangePassword {
            let validityDays = pool.settings.policies?.passwordPolicy?.temporaryPasswordValidityDays ?? 7
            if validityDays > 0, let set = user.passwordUpdatedAt, now.timeIntervalSince(set) > TimeInterval(validityDays) * 86_400 {
                return .refuse(.notAuthorized("Temporary password has expired and must be reset by an administrator."))
            }
            return .newPassword
        }
        if let risk { return .secondFactor(forced: true, required: risk == .required) }
        if askingForMfa, device?.remembered != true, (pool.settings.mfaConfiguration ?? .off) != .off {
            return .secondFactor(forced: false, required: false)
        }
        return .afterSecondFactor(pool: pool, device: device, deviceProved: deviceProved)
    }

    /// The step once no second factor is (or is any more) asked for.
    static func afterSecondFactor(pool: PoolRecord, device: DeviceRecord?, deviceProved: Bool) -> FirstFactorStep {
        if device != nil, !deviceProved { return .deviceProof }
        return .tokens(tracksNewDevice: device == nil && pool.settings.deviceConfiguration != nil)
    }
}
