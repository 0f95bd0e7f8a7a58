import CognateProtocol
import Foundation

/// Remembered devices as users and administrators manage them, and the PINs registered on them.
public struct DeviceManagement: Sendable {
    let store: any Store
    let time: any TimeSource
    let directory: PoolDirectory
    let users: UserDirectory
    let authenticator: AccessTokenAuthenticator
    let deviceTrust: DeviceTrust
    let deliveryQueue: DeliveryQueue
}

extension DeviceManagement {
    /// ConfirmDevice: the device's SRP verifier and salt (its secret stays on the device) make
    /// the device tracked by NewDeviceMetadata usable for sign-in. It is remembered at once,
    /// unless the pool remembers devices only on the user's word (UserConfirmationNecessary:
    /// then UpdateDeviceStatus).
    public func confirmDevice(_ request: ConfirmDeviceRequest) async throws -> ConfirmDeviceResponse {
        let caller = try await authenticator.authenticatedUser(request.accessToken)
        guard let configuration = caller.pool.settings.deviceConfiguration else { throw Self.devicesNotTracked }
        let (salt, verifier) = try DeviceTrust.srpVerifier(request.deviceSecretVerifierConfig, member: "DeviceSecretVerifierConfig")
        let promptsUser = configuration.deviceOnlyRememberedOnUserPrompt == true
        let now = time.now
        try await store.write { transaction in
            guard var device = try await transaction.device(poolId: caller.pool.id, key: request.deviceKey),
                device.userSub == caller.user.sub
            else { throw Self.deviceNotFound }
            guard !device.isConfirmed else { throw CognitoError(.deviceKeyExists, "Device key already exists.") }
            device.verifier = verifier
            device.salt = salt
            device.name = request.deviceName
            device.remembered = !promptsUser
            device.updatedAt = now
            device.lastAuthenticatedAt = now
            try await transaction.updateDevice(device)
        }
        return ConfirmDeviceResponse(userConfirmationNecessary: promptsUser)
    }

    public func getDevice(_ request: GetDeviceRequest) async throws -> GetDeviceResponse {
        guard let accessToken = request.accessToken else { throw CognitoError.invalidParameter("AccessToken is required.") }
        let caller = try await authenticator.authenticatedUser(accessToken)
        return GetDeviceResponse(device: try await userDevice(request.deviceKey, of: caller.user, pool: caller.pool).wire)
    }

    public func adminGetDevice(_ request: AdminGetDeviceRequest) async throws -> AdminGetDeviceResponse {
        let (pool, user) = try await poolAndUser(request.userPoolId, request.username)
        return AdminGetDeviceResponse(device: try await userDevice(request.deviceKey, of: user, pool: pool).wire)
    }

    public func listDevices(_ request: ListDevicesRequest) async throws -> ListDevicesResponse {
        let caller = try await authenticator.authenticatedUser(request.accessToken)
        let page = try await devicePage(of: caller.user, pool: caller.pool, limit: request.limit, token: request.paginationToken)
        return ListDevicesResponse(devices: page.items.map(\.wire), paginationToken: PageToken.encode(page.next))
    }

    public func adminListDevices(_ request: AdminListDevicesRequest) async throws -> AdminListDevicesResponse {
        let (pool, user) = try await poolAndUser(request.userPoolId, request.username)
        let page = try await devicePage(of: user, pool: pool, limit: request.limit, token: request.paginationToken)
        return AdminListDevicesResponse(devices: page.items.map(\.wire), paginationToken: PageToken.encode(page.next))
    }

    public func updateDeviceStatus(_ request: UpdateDeviceStatusRequest) async throws -> UpdateDeviceStatusResponse {
        let caller = try await authenticator.authenticatedUser(request.accessToken)
        try await setRemembered(request.deviceRememberedStatus, request.deviceKey, of: caller.user, pool: caller.pool)
        return UpdateDeviceStatusResponse()
    }

    public func adminUpdateDeviceStatus(_ request: AdminUpdateDeviceStatusRequest) async throws
        -> AdminUpdateDeviceStatusResponse
    {
        let (pool, user) = try await poolAndUser(request.userPoolId, request.username)
        try await setRemembered(request.deviceRememberedStatus, request.deviceKey, of: user, pool: pool)
        return AdminUpdateDeviceStatusResponse()
    }

    /// ForgetDevice: the device is gone, and so is every session issued to it (its refresh
    /// tokens and access tokens stop working).
    public func forgetDevice(_ request: ForgetDeviceRequest) async throws -> EmptyResponse {
        guard let accessToken = request.accessToken else { throw CognitoError.invalidParameter("AccessToken is required.") }
        let caller = try await authenticator.authenticatedUser(accessToken)
        try await forget(request.deviceKey, of: caller.user, pool: caller.pool)
        return EmptyResponse()
    }

    public func adminForgetDevice(_ request: AdminForgetDeviceRequest) async throws -> EmptyResponse {
        let (pool, user) = try await poolAndUser(request.userPoolId, request.username)
        try await forget(request.deviceKey, of: user, pool: pool)
        return EmptyResponse()
    }

    private func forget(_ key: String, of user: UserRecord, pool: PoolRecord) async throws {
        let now = time.now
        try await store.write { transaction in
            guard let device = try await transaction.device(poolId: pool.id, key: key), device.userSub == user.sub else {
                throw Self.deviceNotFound
            }
            try await transaction.deleteDevice(poolId: pool.id, key: key)
            try await transaction.revokeTokenFamilies(poolId: pool.id, deviceKey: device.deviceKey, at: now)
        }
    }

    private func setRemembered(_ status: DeviceRememberedStatusType?, _ key: String, of user: UserRecord,
                               pool: PoolRecord) async throws {
        let now = time.now
        try await store.write { transaction in
            guard var device = try await transaction.device(poolId: pool.id, key: key), device.userSub == user.sub,
                device.isConfirmed
            else { throw Self.deviceNotFound }
            device.remembered = status == .remembered
            device.updatedAt = now
            try await transaction.updateDevice(device)
        }
    }

    private func userDevice(_ key: String, of user: UserRecord, pool: PoolRecord) async throws -> DeviceRecord {
        guard let device = try await store.read({ try await $0.device(poolId: pool.id, key: key) }),
            device.userSub == user.sub, device.isConfirmed
        else { throw Self.deviceNotFound }
        return device
    }

    private func devicePage(of user: UserRecord, pool: PoolRecord, limit: Int?, token: String?) async throws
        -> Page<DeviceRecord>
    {
        let after = try PageToken.decode(token)
        return try await store.read {
            try await $0.devices(poolId: pool.id, userSub: user.sub, after: after, limit: min(max(limit ?? 60, 1), 60))
        }
    }

    private func poolAndUser(_ poolId: String, _ username: String) async throws -> (PoolRecord, UserRecord) {
        let pool = try await directory.requirePool(poolId)
        return (pool, try await store.read { try await users.requireUser(username, in: pool, $0) })
    }

    static let deviceNotFound = CognitoError.resourceNotFound("Device does not exist.")
    static let devicesNotTracked = CognitoError(
        .invalidUserPoolConfiguration, "Device tracking is not enabled for the user pool (DeviceConfiguration).")
}

extension DeviceRecord {
    /// The device as the API shows it (Cognito's attribute names).
    var wire: DeviceType {
        var attributes = [
            AttributeType(name: "device_status", value: "valid"),
            AttributeType(name: "dev:device_remembered_status", value: remembered ? "remembered" : "not_remembered"),
        ]
        if let name { attributes.append(AttributeType(name: "device_name", value: name)) }
        return DeviceType(
            deviceKey: deviceKey, deviceAttributes: attributes, deviceCreateDate: createdAt, deviceLastModifiedDate: updatedAt,
            deviceLastAuthenticatedDate: lastAuthenticatedAt)
    }
}
