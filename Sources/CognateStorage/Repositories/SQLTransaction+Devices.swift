import CognateCore
import Foundation

extension SQLTransaction: DeviceRepository {
    func insertDevice(_ device: DeviceRecord) async throws {
        try await run(
            """
            INSERT INTO devices (device_key, pool_id, user_sub, group_key, salt, verifier, name, remembered, created_at, \
            updated_at, last_authenticated_at, pin_salt, pin_verifier, pin_registered_at, pin_failures) VALUES (\(bind: device.deviceKey), \(bind: device.poolId), \
            \(bind: device.userSub), \(bind: device.groupKey), \(bind: device.salt), \(bind: device.verifier), \
            \(bind: device.name), \(bind: device.remembered ? 1 : 0), \(bind: Columns.time(device.createdAt)), \
            \(bind: Columns.time(device.updatedAt)), \(bind: device.lastAuthenticatedAt.map(Columns.time)), \
            \(bind: device.pin?.salt), \(bind: device.pin?.verifier), \(bind: device.pin.map { Columns.time($0.registeredAt) }), \
            \(bind: device.pin?.failures ?? 0))
            """)
    }

    func device(poolId: String, key: String) async throws -> DeviceRecord? {
        try await first("SELECT * FROM devices WHERE device_key = \(bind: key) AND pool_id = \(bind: poolId)")
            .map(Self.device(from:))
    }

    func updateDevice(_ device: DeviceRecord) async throws {
        try await run(
            """
            UPDATE devices SET salt = \(bind: device.salt), verifier = \(bind: device.verifier), name = \(bind: device.name), \
            remembered = \(bind: device.remembered ? 1 : 0), updated_at = \(bind: Columns.time(device.updatedAt)), \
            last_authenticated_at = \(bind: device.lastAuthenticatedAt.map(Columns.time)), \
            pin_salt = \(bind: device.pin?.salt), pin_verifier = \(bind: device.pin?.verifier), \
            pin_registered_at = \(bind: device.pin.map { Columns.time($0.registeredAt) }), \
            pin_failures = \(bind: device.pin?.failures ?? 0) WHERE device_key = \(bind: device.deviceKey) AND pool_id = \(bind: device.poolId)
            """)
    }

    func deleteDevice(poolId: String, key: String) async throws {
        try await run("DELETE FROM devices WHERE device_key = \(bind: key) AND pool_id = \(bind: poolId)")
    }

    func devices(poolId: String, userSub: String, after: String?, limit: Int) async throws -> Page<DeviceRecord> {
        let rows = try await all(
            """
            SELECT * FROM devices WHERE pool_id = \(bind: poolId) AND user_sub = \(bind: userSub) \
            AND verifier IS NOT NULL AND device_key > \(bind: after ?? "") ORDER BY device_key LIMIT \(bind: limit + 1)
            """)
        return try Self.page(rows.map(Self.device(from:)), limit: limit, key: \.deviceKey)
    }

    func revokeTokenFamilies(poolId: String, deviceKey: String, at date: Date) async throws {
        try await run(
            """
            UPDATE token_families SET revoked_at = \(bind: Columns.time(date)) \
            WHERE pool_id = \(bind: poolId) AND device_key = \(bind: deviceKey) AND revoked_at IS NULL
            """)
    }

    func withdrawDeviceTrust(poolId: String, userSub: String, at date: Date) async throws {
        try await run(
            """
            UPDATE devices SET pin_salt = NULL, pin_verifier = NULL, pin_registered_at = NULL, pin_failures = 0, \
            remembered = 0, \
            updated_at = \(bind: Columns.time(date)) WHERE pool_id = \(bind: poolId) AND user_sub = \(bind: userSub) \
            AND (remembered <> 0 OR pin_verifier IS NOT NULL)
            """)
    }

    static func device(from row: SQLRow) throws -> DeviceRecord {
        DeviceRecord(
            deviceKey: try row.string("device_key"), poolId: try row.string("pool_id"), userSub: try row.string("user_sub"),
            groupKey: try row.string("group_key"), salt: try row.optionalString("salt"),
            verifier: try row.optionalString("verifier"), name: try row.optionalString("name"),
            remembered: try row.int("remembered") != 0, createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at"), lastAuthenticatedAt: try row.optionalDate("last_authenticated_at"),
            pin: try Self.devicePin(from: row))
    }

    static func devicePin(from row: SQLRow) throws -> DevicePin? {
        guard let salt = try row.optionalString("pin_salt"), let verifier = try row.optionalString("pin_verifier"),
            let at = try row.optionalDate("pin_registered_at")
        else { return nil }
        return DevicePin(salt: salt, verifier: verifier, registeredAt: at, failures: try row.int("pin_failures"))
    }
}
