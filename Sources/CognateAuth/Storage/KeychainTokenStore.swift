#if canImport(Security)
import Dispatch
import Foundation
import Security

#if canImport(LocalAuthentication)
import LocalAuthentication
#endif

/// A ``TokenStore`` in the Keychain — the store for apps on Apple platforms: one
/// generic-password item per profile, with `service` naming the store and the profile name as
/// the account. Items never leave this device (no iCloud Keychain sync, not restored to
/// another device from a backup).
///
/// Contract, besides ``TokenStore``'s:
/// - Keychain calls block (they go to `securityd`, and may wait for Face ID): every call runs
///   on the store's own serial dispatch queue, never on Swift's cooperative thread pool.
/// - On macOS the items live in the data protection keychain (`kSecUseDataProtectionKeychain`),
///   as on iOS; the app needs a keychain access group, which every app signed with a team has.
///   Unsigned command-line tools use ``FileTokenStore`` instead.
/// - ``accessibility`` (and ``accessControl``) apply to items written before the store was
///   configured so, too: every save sets them.
/// - With ``accessControl`` (e.g. `.biometryCurrentSet`), every read of a profile asks the
///   user, and the ``AuthClient`` reads its profile in every call that needs tokens: pass an
///   `LAContext` that the app has evaluated, with `touchIDAuthenticationAllowableReuseDuration`
///   covering a session, so one prompt serves many reads. Listing ``profiles()`` never asks.
/// - A read that fails because the device is locked surfaces as
///   ``AuthState/storageUnavailable``, never as signed out.
public struct KeychainTokenStore: TokenStore {
    /// When items can be read (`kSecAttrAccessible…`), all of them kept on this device.
    public enum Accessibility: Sendable {
        /// From the first unlock after a restart until the next restart (the default: background
        /// refreshes work while the device is locked).
        case afterFirstUnlock
        /// Only while the device is unlocked.
        case whenUnlocked
        /// Only while unlocked, and only while a passcode is set (items are deleted when it is removed).
        case whenPasscodeSet

        var attribute: CFString {
            switch self {
            case .afterFirstUnlock: return kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            case .whenUnlocked: return kSecAttrAccessibleWhenUnlockedThisDeviceOnly
            case .whenPasscodeSet: return kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
            }
        }
    }

    public let service: String
    public let accessGroup: String?
    public let accessibility: Accessibility
    private let accessControlFlags: SecAccessControlCreateFlags.RawValue?
    #if canImport(LocalAuthentication)
    private let context: AuthenticationContext?
    #endif
    private let queue: DispatchQueue

    /// The user presence each read requires (`.biometryCurrentSet`, `.userPresence` …), if any.
    public var accessControl: SecAccessControlCreateFlags? {
        accessControlFlags.map { SecAccessControlCreateFlags(rawValue: $0) }
    }

    #if canImport(LocalAuthentication)
    /// - Parameters:
    ///   - service: the Keychain service of this store's items (e.g. your bundle id + ".auth").
    ///   - accessGroup: a Keychain access group shared with app extensions, if any.
    ///   - accessibility: when the items can be read.
    ///   - accessControl: user presence required for every read (biometry, passcode), if any.
    ///   - authenticationContext: an `LAContext` the reads use, so that one evaluation by the
    ///     app covers several reads (see the type's notes).
    public init(
        service: String, accessGroup: String? = nil, accessibility: Accessibility = .afterFirstUnlock,
        accessControl: SecAccessControlCreateFlags? = nil, authenticationContext: LAContext? = nil
    ) {
        self.service = service
        self.accessGroup = accessGroup
        self.accessibility = accessibility
        self.accessControlFlags = accessControl?.rawValue
        self.context = authenticationContext.map(AuthenticationContext.init)
        self.queue = DispatchQueue(label: "CognateAuth.KeychainTokenStore.\(service)", qos: .userInitiated)
    }
    #else
    /// - Parameters:
    ///   - service: the Keychain service of this store's items (e.g. your bundle id + ".auth").
    ///   - accessGroup: a Keychain access group shared with app extensions, if any.
    ///   - accessibility: when the items can be read.
    ///   - accessControl: user presence required for every read, if any.
    public init(
        service: String, accessGroup: String? = nil, accessibility: Accessibility = .afterFirstUnlock,
        accessControl: SecAccessControlCreateFlags? = nil
    ) {
        self.service = service
        self.accessGroup = accessGroup
        self.accessibility = accessibility
        self.accessControlFlags = accessControl?.rawValue
        self.queue = DispatchQueue(label: "CognateAuth.KeychainTokenStore.\(service)", qos: .userInitiated)
    }
    #endif

    public struct KeychainError: Error, CustomStringConvertible {
        public let status: OSStatus
        public var description: String {
            "Keychain error \(status): \(SecCopyErrorMessageString(status, nil) as String? ?? "unknown")"
        }
    }

    public func profiles() async throws -> [String] {
        try await onQueue {
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
    }

    public func load(profile: String) async throws -> ProfileRecord? {
        try await onQueue {
            var query = baseQuery(profile: profile)
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            query[kSecReturnData as String] = true
            #if canImport(LocalAuthentication)
            if let context { query[kSecUseAuthenticationContext as String] = context.context }
            #endif
            var result: AnyObject?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = result as? Data else { throw KeychainError(status: status) }
            return try ProfileRecordCoding.makeDecoder().decode(ProfileRecord.self, from: data)
        }
    }

    /// Updates the item in place with the configured accessibility, or adds it. An item with
    /// access control is replaced instead (delete, then add): its protection cannot be updated,
    /// and replacing it needs no authentication.
    public func save(_ record: ProfileRecord, profile: String) async throws {
        let data = try ProfileRecordCoding.makeEncoder().encode(record)
        try await onQueue {
            let protection = try protectionAttributes()
            if accessControlFlags == nil {
                var update = protection
                update[kSecValueData as String] = data
                let status = SecItemUpdate(baseQuery(profile: profile) as CFDictionary, update as CFDictionary)
                if status == errSecSuccess { return }
                guard status == errSecItemNotFound else { throw KeychainError(status: status) }
            } else {
                let status = SecItemDelete(baseQuery(profile: profile) as CFDictionary)
                guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
            }
            var item = baseQuery(profile: profile).merging(protection) { $1 }
            item[kSecValueData as String] = data
            let status = SecItemAdd(item as CFDictionary, nil)
            guard status == errSecSuccess else { throw KeychainError(status: status) }
        }
    }

    public func remove(profile: String) async throws {
        try await onQueue {
            let status = SecItemDelete(baseQuery(profile: profile) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
        }
    }

    // MARK: - Queries

    private func baseQuery(profile: String? = nil) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
        ]
        if let profile { query[kSecAttrAccount as String] = profile }
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        #if os(macOS)
        query[kSecUseDataProtectionKeychain as String] = true
        #endif
        return query
    }

    /// `kSecAttrAccessControl` when access control is configured (it carries the
    /// accessibility), `kSecAttrAccessible` otherwise.
    private func protectionAttributes() throws -> [String: Any] {
        guard let accessControl else { return [kSecAttrAccessible as String: accessibility.attribute] }
        var error: Unmanaged<CFError>?
        guard let control = SecAccessControlCreateWithFlags(nil, accessibility.attribute, accessControl, &error) else {
            if let error = error?.takeRetainedValue() { throw error }
            throw KeychainError(status: errSecParam)
        }
        return [kSecAttrAccessControl as String: control]
    }

    /// Runs a blocking Keychain call on the store's queue.
    private func onQueue<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Swift.Result { try body() }) }
        }
    }
}

#if canImport(LocalAuthentication)
/// An `LAContext` as the store holds it: used only in Keychain queries, on the store's serial
/// queue.
private final class AuthenticationContext: @unchecked Sendable {
    let context: LAContext
    init(_ context: LAContext) { self.context = context }
}
#endif
#endif
