import CognateProtocol
import Foundation

/// What every hosted page of an app client shows besides its form: the client's name, its
/// managed login branding, and its (or its pool's) UI customization.
public struct HostedPageStyle: Sendable, Equatable {
    /// The app client's name (ClientName).
    public var appName: String?
    /// The UI customization's CSS, added after the pages' own.
    public var css: String?
    /// The UI customization's logo: its path on this server (with its version).
    public var logoPath: String?
    public var branding: HostedBranding?

    public init(appName: String? = nil, css: String? = nil, logoPath: String? = nil, branding: HostedBranding? = nil) {
        self.appName = appName
        self.css = css
        self.logoPath = logoPath
        self.branding = branding
    }
}

extension ManagedLogin {
    /// SetUICustomization: CSS (added after the hosted pages' own) and a logo (PNG or JPEG, at
    /// most 100 KB) for the pool (no ClientId: every client) or one app client.
    public func setUICustomization(_ request: SetUICustomizationRequest) async throws -> SetUICustomizationResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let clientId = try await customizationClient(request.clientId, pool: pool)
        if let css = request.css, css.utf8.count > 131_072 { throw CognitoError.invalidParameter("The CSS is too long.") }
        if let image = request.imageFile {
            guard image.count <= 100 * 1024, Self.imageType(image) != nil else {
                throw CognitoError.invalidParameter("ImageFile must be a PNG or JPEG of at most 100 KB.")
            }
        }
        let now = time.now
        let existing = try await store.read { try await $0.uiCustomization(poolId: pool.id, clientId: clientId) }
        let record = UICustomizationRecord(
            poolId: pool.id, clientId: clientId, css: request.css, image: request.imageFile?.base64EncodedString(),
            version: String(Int(now.timeIntervalSince1970 * 1000)), createdAt: existing?.createdAt ?? now, updatedAt: now)
        try await store.write { try await $0.saveUICustomization(record) }
        return SetUICustomizationResponse(uiCustomization: wire(record))
    }

    /// GetUICustomization: the client's own customization, else the pool's.
    public func getUICustomization(_ request: GetUICustomizationRequest) async throws -> GetUICustomizationResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let clientId = try await customizationClient(request.clientId, pool: pool)
        guard let record = try await effectiveCustomization(pool: pool.id, clientId: clientId) else {
            return GetUICustomizationResponse(uiCustomization: UICustomizationType(userPoolId: pool.id, clientId: clientId))
        }
        return GetUICustomizationResponse(uiCustomization: wire(record))
    }

    /// The style of the hosted pages of `clientId`: its name, its managed login branding, then
    /// its (or the pool's) UI customization, whose CSS comes last and whose logo wins.
    public func hostedPageStyle(clientId: String) async throws -> HostedPageStyle {
        guard let client = try await directory.cachedClient(clientId) else { return HostedPageStyle() }
        let branding = try await hostedBranding(clientId: clientId)
        let record = try await effectiveCustomization(pool: client.poolId, clientId: clientId)
        let css = record?.css.flatMap { $0.isEmpty ? nil : $0 }
        return HostedPageStyle(appName: client.name.isEmpty ? nil : client.name, css: css,
                               logoPath: record.flatMap { $0.image == nil ? nil : Self.logoPath($0) }, branding: branding)
    }

    /// The logo of `GET /ui/<pool>/<client>/logo`: its bytes and content type.
    public func logo(poolId: String, clientId: String) async throws -> (Data, String)? {
        guard let record = try await store.read({ try await $0.uiCustomization(poolId: poolId, clientId: clientId) }),
            let image = record.image.flatMap({ Data(base64Encoded: $0) }), let type = Self.imageType(image)
        else { return nil }
        return (image, type)
    }

    private func effectiveCustomization(pool: String, clientId: String) async throws -> UICustomizationRecord? {
        try await store.read { transaction in
            if clientId != "ALL", let own = try await transaction.uiCustomization(poolId: pool, clientId: clientId) { return own }
            return try await transaction.uiCustomization(poolId: pool, clientId: "ALL")
        }
    }

    private func customizationClient(_ clientId: String?, pool: PoolRecord) async throws -> String {
        guard let clientId, clientId != "ALL" else { return "ALL" }
        guard try await directory.cachedClient(clientId)?.poolId == pool.id else { throw PoolDirectory.clientNotFound(clientId) }
        return clientId
    }

    private func wire(_ record: UICustomizationRecord) -> UICustomizationType {
        UICustomizationType(
            userPoolId: record.poolId, clientId: record.clientId,
            imageUrl: record.image == nil ? nil : configuration.publicBaseURL + Self.logoPath(record), css: record.css,
            cssVersion: record.version, lastModifiedDate: record.updatedAt, creationDate: record.createdAt)
    }

    static func logoPath(_ record: UICustomizationRecord) -> String {
        "/ui/\(record.poolId)/\(record.clientId)/logo?v=\(record.version)"
    }

    /// `image/png` or `image/jpeg` by the file's signature; nil for anything else.
    static func imageType(_ data: Data) -> String? {
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        return nil
    }
}
