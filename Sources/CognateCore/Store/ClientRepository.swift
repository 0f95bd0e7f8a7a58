import CognateProtocol
import Foundation

/// An app client of a pool.
public struct ClientRecord: Sendable, Equatable {
    public var poolId: String
    public var clientId: String
    public var name: String
    public var createdAt: Date
    public var updatedAt: Date
    /// The client's settings in their wire form, secret included (it is needed in clear to
    /// check `SECRET_HASH`).
    public var settings: UserPoolClientType
    /// Secrets added for rotation (AddUserPoolClientSecret), valid beside `settings.clientSecret`.
    public var extraSecrets: [StoredClientSecret]
    /// The id and creation time of `settings.clientSecret` once a rotation named it (nil: the
    /// secret the client was created with).
    public var mainSecret: MainClientSecret?
    /// SetUserPoolClientSessionConfiguration's SSO session validity (minutes); nil: Cognito's
    /// default, 60.
    public var ssoSessionMaxValidityMinutes: Int?

    public init(poolId: String, clientId: String, name: String, createdAt: Date, updatedAt: Date,
                settings: UserPoolClientType, extraSecrets: [StoredClientSecret] = [], mainSecret: MainClientSecret? = nil,
                ssoSessionMaxValidityMinutes: Int? = nil) {
        self.ssoSessionMaxValidityMinutes = ssoSessionMaxValidityMinutes
        self.poolId = poolId
        self.clientId = clientId
        self.name = name
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.settings = settings
        self.extraSecrets = extraSecrets
        self.mainSecret = mainSecret
    }

    /// The client's main secret (what its SECRET_HASH is computed with by the server itself).
    public var secret: String? { settings.clientSecret }

    /// Every secret the client may authenticate with now.
    public var secrets: [String] { (secret.map { [$0] } ?? []) + extraSecrets.map(\.value) }

    /// Whether `given` is one of the client's secrets (compared in constant time with each).
    public func accepts(secret given: String) -> Bool {
        var accepted = false
        for secret in secrets where ConstantTime.equals(secret, given) { accepted = true }   // every one compared
        return accepted
    }
}

/// The id and creation time of a client's main secret after a rotation.
public struct MainClientSecret: Sendable, Equatable, Codable {
    public var id: String
    public var createdAt: Date

    public init(id: String, createdAt: Date) {
        self.id = id
        self.createdAt = createdAt
    }
}

/// What the storage keeps of a client's rotation (one JSON column).
public struct ClientSecretRotation: Sendable, Equatable, Codable {
    public var main: MainClientSecret?
    public var added: [StoredClientSecret]

    public init(main: MainClientSecret?, added: [StoredClientSecret]) {
        self.main = main
        self.added = added
    }
}

/// A secret added to a client for rotation.
public struct StoredClientSecret: Sendable, Equatable, Codable {
    public var id: String
    public var value: String
    public var createdAt: Date

    public init(id: String, value: String, createdAt: Date) {
        self.id = id
        self.value = value
        self.createdAt = createdAt
    }
}

public protocol ClientRepository: Sendable {
    /// Throws `StoreError.conflict(.client)` when the id exists.
    func insertClient(_ client: ClientRecord) async throws
    /// A client by id, whatever its pool (client ids are unique on the server).
    func client(id: String) async throws -> ClientRecord?
    func updateClient(_ client: ClientRecord) async throws
    func deleteClient(poolId: String, clientId: String) async throws
    /// Clients of a pool ordered by id, starting after `after`.
    func listClients(poolId: String, after: String?, limit: Int) async throws -> Page<ClientRecord>
}
