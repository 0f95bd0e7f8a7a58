import CognateProtocol
import Foundation

/// Cognito's point-in-time recovery and multi-Region replica operations, answered for what
/// they are in a self-hosted deployment (docs/deploy.md, "Disaster recovery").
///
/// Recovery and replication are the database's: a restore rolls the whole database back (every
/// pool in it) while the server is stopped — PostgreSQL's WAL archive with a
/// `recovery_target_time`, or a SQLite backup — and a second Region is a PostgreSQL standby with
/// nodes of its own, promoted on failover. None of that can be started by a request to the
/// server it would replace, so the operations that would start it answer
/// OperationNotEnabledException saying what to set up; the ones that read answer what is: this
/// deployment as the pool's one (primary) copy, and no recoveries made through the API.
public struct DisasterRecovery: Sendable {
    let configuration: CoreConfiguration
    let directory: PoolDirectory

    static let recoveryGuide = "Point-in-time recovery restores the whole database, outside the server: PostgreSQL's WAL "
        + "archive with recovery_target_time, or a SQLite backup (docs/deploy.md, \"Disaster recovery\")."
    static let replicaGuide = "Replicas in another Region are PostgreSQL standbys with nodes of their own, promoted on "
        + "failover (docs/deploy.md, \"Disaster recovery\")."

    public func initiatePointInTimeRecovery(_ request: InitiatePointInTimeRecoveryRequest) async throws
        -> InitiatePointInTimeRecoveryResponse
    {
        _ = try await directory.requirePool(request.userPoolId)
        throw CognitoError(.operationNotEnabled, Self.recoveryGuide)
    }

    public func startPointInTimeRecovery(_ request: StartPointInTimeRecoveryRequest) async throws
        -> StartPointInTimeRecoveryResponse
    {
        _ = try await directory.requirePool(request.userPoolId)
        throw Self.noRecovery(request.restoreId)
    }

    public func cancelPointInTimeRecovery(_ request: CancelPointInTimeRecoveryRequest) async throws
        -> CancelPointInTimeRecoveryResponse
    {
        _ = try await directory.requirePool(request.userPoolId)
        throw Self.noRecovery(request.restoreId)
    }

    public func describePointInTimeRecovery(_ request: DescribePointInTimeRecoveryRequest) async throws
        -> DescribePointInTimeRecoveryResponse
    {
        _ = try await directory.requirePool(request.userPoolId)
        throw Self.noRecovery(request.restoreId)
    }

    /// None: recoveries happen outside the server.
    public func listPointInTimeRecoveries(_ request: ListPointInTimeRecoveriesRequest) async throws
        -> ListPointInTimeRecoveriesResponse
    {
        _ = try await directory.requirePool(request.userPoolId)
        if let maxResults = request.maxResults, maxResults < 1 || maxResults > 60 {
            throw CognitoError.invalidParameter("MaxResults must be between 1 and 60.")
        }
        return ListPointInTimeRecoveriesResponse(restorations: [])
    }

    public func createUserPoolReplica(_ request: CreateUserPoolReplicaRequest) async throws -> CreateUserPoolReplicaResponse {
        _ = try await directory.requirePool(request.userPoolId)
        throw CognitoError(.operationNotEnabled, Self.replicaGuide)
    }

    public func deleteUserPoolReplica(_ request: DeleteUserPoolReplicaRequest) async throws -> DeleteUserPoolReplicaResponse {
        _ = try await directory.requirePool(request.userPoolId)
        guard request.regionName != configuration.region else {
            throw CognitoError.invalidParameter("\(request.regionName) holds the primary user pool, which is not a replica.")
        }
        throw CognitoError.resourceNotFound("The user pool has no replica in \(request.regionName).")
    }

    /// A replica's status (ACTIVE, INACTIVE: a failover): the primary cannot be switched off
    /// through itself, and there are no replicas.
    public func updateUserPoolReplica(_ request: UpdateUserPoolReplicaRequest) async throws -> UpdateUserPoolReplicaResponse {
        _ = try await directory.requirePool(request.userPoolId)
        guard request.regionName != configuration.region else {
            throw CognitoError(.operationNotEnabled, "Failing over from the primary is PostgreSQL's: " + Self.replicaGuide)
        }
        throw CognitoError.resourceNotFound("The user pool has no replica in \(request.regionName).")
    }

    /// The pool's one copy: this deployment, the primary, in its configured Region.
    public func listUserPoolReplicas(_ request: ListUserPoolReplicasRequest) async throws -> ListUserPoolReplicasResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        return ListUserPoolReplicasResponse(userPoolReplicas: [
            UserPoolReplicaType(
                regionName: configuration.region, status: .active, role: .primary,
                userPoolArn: "arn:aws:cognito-idp:\(configuration.region):\(configuration.accountId):userpool/\(pool.id)"),
        ])
    }

    static func noRecovery(_ id: String) -> CognitoError {
        CognitoError.resourceNotFound("Point-in-time recovery \(id.prefix(64)) does not exist. " + recoveryGuide)
    }
}
