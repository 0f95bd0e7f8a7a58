#if canImport(Security)
import Foundation
import Security

/// A ``TokenStore`` in the Keychain (Apple platforms): one generic-password item per profile,
/// with `service` naming the store and the profile name as the account. Items are readable
/// after the first unlock and never leave this device (no iCloud Keychain sync, not restored
/// to another device from a backup).
public struct KeychainTokenStore: TokenStore {
    public let service: String
    public let accessGroup: String?

    /// - Parameters:
    ///   - service: the Keychain service of this store's items (e.g. your bundle id + ".auth").
    ///   - accessGroup: a Keychain access group shared with app extensions, if any.
    public init(service: String, accessGroup: String? = nil) {
        self.service = service
        self.accessGroup = accessGroup
    }

    public struct KeychainError: Error, CustomStringConvertible {
        public let status: OSStatus
        public var description: String {
            "Keychain error \(status): \(SecCopyErrorMessageString(status, nil) as String? ?? "unknown")"
        }
    }

    public func profiles() async throws -> [String] {
        var query = baseQuery()
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        query[kSecReturnAttributes as String] = true
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess else { throw KeychainError(status: status) }
        let items = result as? [[String: Any]] ?? []
        return items.compactMap { $0[kSecAttrAccount as String] as? String }.sorted()
    }

    public func load(profile: String) async throws -> ProfileRecord? {
        var query = baseQuery(profile: profile)
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        query[kSecReturnData as String] = true
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else { throw KeychainError(status: status) }
        return try Self.decoder.decode(ProfileRecord.self, from: data)
    }

    public func save(_ record: ProfileRecord, profile: String) async throws {
        let data = try Self.encoder.encode(record)
        let update: [String: Any] = [kSecValueData as String: data]
        var status = SecItemUpdate(baseQuery(profile: profile) as CFDictionary, update as CFDictionary)
        if status == errSecItemNotFound {
            var item = baseQuery(profile: profile)
            item[kSecValueData as String] = data
            item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            status = SecItemAdd(item as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw KeychainError(status: status) }
    }

    public func remove(profile: String) async throws {
        let status = SecItemDelete(baseQuery(profile: profile) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
    }

    private func baseQuery(profile: String? = nil) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
        ]
        if let profile { query[kSecAttrAccount as String] = profile }
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
#endif
