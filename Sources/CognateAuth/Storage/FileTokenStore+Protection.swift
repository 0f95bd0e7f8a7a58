import Foundation

extension FileTokenStore {
    /// Applies what Apple platforms offer to a newly created store file: the data protection
    /// class (iOS, tvOS, watchOS, visionOS) and exclusion from backups (every Apple platform).
    /// Nothing elsewhere.
    static func protect(path: String, with protection: Protection) throws {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        try FileManager.default.setAttributes([.protectionKey: protection.fileProtectionType], ofItemAtPath: path)
        #endif
        #if canImport(Darwin)
        var url = URL(fileURLWithPath: path)
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        try url.setResourceValues(values)
        #endif
    }
}

#if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
extension FileTokenStore.Protection {
    var fileProtectionType: FileProtectionType {
        switch self {
        case .completeUntilFirstUserAuthentication: return .completeUntilFirstUserAuthentication
        case .complete: return .complete
        }
    }
}
#endif
