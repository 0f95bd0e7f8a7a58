import CognateProtocol
import Foundation

extension ManagedLogin {
    /// At most this many assets per branding, each at most `maxAssetBytes`.
    static let maxAssets = 40
    static let maxAssetBytes = 2 * 1024 * 1024
    /// Settings nest at most this deep (Cognito's documents nest five levels): deeper documents
    /// would be refused when the branding is stored or answered, past JSON coders' depth limits.
    static let maxSettingsDepth = 64

    /// CreateManagedLoginBranding: one branding per app client (ManagedLoginBrandingExistsException
    /// for a second); `UseCognitoProvidedValues` means the defaults and excludes settings and assets.
    public func createManagedLoginBranding(_ request: CreateManagedLoginBrandingRequest) async throws
        -> CreateManagedLoginBrandingResponse
    {
        let (pool, client) = try await directory.requireClient(request.clientId, poolId: request.userPoolId)
        try Self.checkBranding(useDefaults: request.useCognitoProvidedValues, settings: request.settings, assets: request.assets)
        let now = time.now
        let branding = ManagedLoginBrandingType(
            managedLoginBrandingId: random.uuid(), userPoolId: pool.id,
            useCognitoProvidedValues: request.useCognitoProvidedValues ?? (request.settings == nil && request.assets == nil),
            settings: request.settings, assets: request.assets ?? [], creationDate: now, lastModifiedDate: now)
        do {
            try await store.write { try await $0.insertManagedLoginBranding(branding, clientId: client.clientId) }
        } catch StoreError.conflict(.managedLoginBranding) {
            throw CognitoError(.managedLoginBrandingExists, "A managed login branding already exists for this app client.")
        }
        return CreateManagedLoginBrandingResponse(managedLoginBranding: branding)
    }

    public func describeManagedLoginBranding(_ request: DescribeManagedLoginBrandingRequest) async throws
        -> DescribeManagedLoginBrandingResponse
    {
        DescribeManagedLoginBrandingResponse(
            managedLoginBranding: try await requireBranding(request.managedLoginBrandingId, poolId: request.userPoolId))
    }

    public func describeManagedLoginBrandingByClient(_ request: DescribeManagedLoginBrandingByClientRequest) async throws
        -> DescribeManagedLoginBrandingByClientResponse
    {
        let (_, client) = try await directory.requireClient(request.clientId, poolId: request.userPoolId)
        guard let branding = try await store.read({ try await $0.managedLoginBranding(clientId: client.clientId) }) else {
            throw CognitoError(.resourceNotFound, "No managed login branding exists for this app client.")
        }
        return DescribeManagedLoginBrandingByClientResponse(managedLoginBranding: branding)
    }

    /// UpdateManagedLoginBranding: replaces the settings and the assets that are given;
    /// `UseCognitoProvidedValues: true` drops both for the defaults.
    public func updateManagedLoginBranding(_ request: UpdateManagedLoginBrandingRequest) async throws
        -> UpdateManagedLoginBrandingResponse
    {
        guard let poolId = request.userPoolId, let id = request.managedLoginBrandingId else {
            throw CognitoError.invalidParameter("UserPoolId and ManagedLoginBrandingId are required.")
        }
        try Self.checkBranding(useDefaults: request.useCognitoProvidedValues, settings: request.settings, assets: request.assets)
        var branding = try await requireBranding(id, poolId: poolId)
        if request.useCognitoProvidedValues == true {
            branding.settings = nil
            branding.assets = []
            branding.useCognitoProvidedValues = true
        } else {
            if let settings = request.settings { branding.settings = settings }
            if let assets = request.assets { branding.assets = assets }
            if request.settings != nil || request.assets != nil || request.useCognitoProvidedValues == false {
                branding.useCognitoProvidedValues = false
            }
        }
        branding.lastModifiedDate = time.now
        let updated = branding
        try await store.write { try await $0.updateManagedLoginBranding(updated) }
        return UpdateManagedLoginBrandingResponse(managedLoginBranding: updated)
    }

    public func deleteManagedLoginBranding(_ request: DeleteManagedLoginBrandingRequest) async throws
        -> EmptyResponse
    {
        let branding = try await requireBranding(request.managedLoginBrandingId, poolId: request.userPoolId)
        try await store.write { try await $0.deleteManagedLoginBranding(id: branding.managedLoginBrandingId ?? "") }
        return EmptyResponse()
    }

    /// The branding of `clientId` as the hosted pages render it (nil: none, or Cognito's defaults).
    func hostedBranding(clientId: String) async throws -> HostedBranding? {
        guard let branding = try await store.read({ try await $0.managedLoginBranding(clientId: clientId) }),
            branding.useCognitoProvidedValues != true
        else { return nil }
        return BrandingStyle.branding(branding.settings, assets: branding.assets)
    }

    private func requireBranding(_ id: String, poolId: String) async throws -> ManagedLoginBrandingType {
        _ = try await directory.requirePool(poolId)
        guard let branding = try await store.read({ try await $0.managedLoginBranding(id: id) }), branding.userPoolId == poolId
        else { throw CognitoError(.resourceNotFound, "Managed login branding \(id) does not exist.") }
        return branding
    }

    /// Whether `value`'s arrays and objects nest at most `levels` deep (the value itself counts).
    private static func nests(_ value: JSONValue, atMost levels: Int) -> Bool {
        switch value {
        case .array(let elements): levels > 0 && elements.allSatisfy { nests($0, atMost: levels - 1) }
        case .object(let members): levels > 0 && members.values.allSatisfy { nests($0, atMost: levels - 1) }
        default: true
        }
    }

    private static func checkBranding(useDefaults: Bool?, settings: JSONValue?, assets: [AssetType]?) throws {
        if useDefaults == true, settings != nil || assets != nil {
            throw CognitoError.invalidParameter("UseCognitoProvidedValues cannot be combined with Settings or Assets.")
        }
        if let settings, case .object = settings {} else if settings != nil {
            throw CognitoError.invalidParameter("Settings must be a JSON object.")
        }
        if let settings, !Self.nests(settings, atMost: maxSettingsDepth) {
            throw CognitoError.invalidParameter("Settings may nest at most \(maxSettingsDepth) levels deep.")
        }
        guard let assets else { return }
        guard assets.count <= maxAssets else { throw CognitoError.invalidParameter("At most \(maxAssets) assets are allowed.") }
        var seen = Set<String>()
        for asset in assets {
            guard asset.category.isKnown, asset.colorMode.isKnown, asset.extension.isKnown else {
                throw CognitoError.invalidParameter("Unknown asset category, color mode or extension.")
            }
            guard (asset.bytes?.count ?? 0) <= maxAssetBytes else {
                throw CognitoError.invalidParameter("An asset may be at most \(maxAssetBytes) bytes.")
            }
            guard seen.insert(asset.category.rawValue + "/" + asset.colorMode.rawValue).inserted else {
                throw CognitoError.invalidParameter("Each asset category and color mode may appear once.")
            }
        }
    }
}
