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

    public init(poolId: String, clientId: String, name: String, createdAt: Date, updatedAt: Date,
                settings: UserPoolClientType) {
        self.poolId = poolId
        self.clientId = clientId
        self.name = name
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.settings = settings
    }

    public var secret: String? { settings.clientSecret }
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
