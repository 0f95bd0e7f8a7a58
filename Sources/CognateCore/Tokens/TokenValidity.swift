import CognateProtocol
import Foundation

/// Token lifetimes of an app client, from its validity values and units (cognito-protocol §6.5):
/// access and ID tokens default to 60 minutes, refresh tokens to 30 days; a value without a
/// unit is in hours (access, ID) or days (refresh); a refresh validity of 0 means 30 days.
public struct TokenValidity: Sendable, Equatable {
    public var accessToken: TimeInterval
    public var idToken: TimeInterval
    public var refreshToken: TimeInterval

    public init(client: UserPoolClientType) {
        let units = client.tokenValidityUnits
        accessToken = client.accessTokenValidity.map { Self.seconds($0, units?.accessToken ?? .hours) } ?? 3600
        idToken = client.idTokenValidity.map { Self.seconds($0, units?.idToken ?? .hours) } ?? 3600
        refreshToken = client.refreshTokenValidity.flatMap { $0 == 0 ? nil : Self.seconds($0, units?.refreshToken ?? .days) }
            ?? 30 * 86400
    }

    static func seconds(_ value: Int, _ unit: TimeUnitsType) -> TimeInterval {
        switch unit {
        case .seconds: TimeInterval(value)
        case .minutes: TimeInterval(value) * 60
        case .hours: TimeInterval(value) * 3600
        default: TimeInterval(value) * 86400
        }
    }
}
