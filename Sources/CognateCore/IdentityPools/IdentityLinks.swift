import CognateIdentityProtocol
import CognateProtocol
import Foundation

/// Which identity a call's logins belong to, and the links and merges that follow, decided in
/// one write transaction (the identities involved locked), as Cognito decides them:
/// - no logins: a guest — the identity given (which must be a guest), or a new one — where the
///   pool allows unauthenticated identities;
/// - logins no identity has: linked to the identity given (a guest becomes the signed-in
///   identity on its first login: same id), or to a new identity;
/// - a login another identity has: that identity is the answer (the id returned may differ from
///   the one given, as Cognito documents); a guest given with it is merged into it (deleted);
///   several identities named by one call's logins are merged into the oldest ("supplying
///   multiple logins creates an implicit link"), unless two logins of one provider would then
///   name different users (ResourceConflictException);
/// - an identity with logins is reached only with one of them (or our developer token for it):
///   otherwise "Logins don't match";
/// - a developer user identifier linked to another identity than the one given:
///   DeveloperUserAlreadyRegisteredException (developer identities merge only by
///   MergeDeveloperIdentities).
/// At most 20 logins per identity (Cognito's limit on linked logins). Two first sign-ins of one
/// person at once: the login's primary key lets one insert win; the other transaction is run
/// again and finds it.
struct IdentityLinks: Sendable {
    let store: any Store
    let time: any TimeSource
    let random: any RandomSource

    static let maxLogins = 20

    func resolve(pool: IdentityPoolRecord, identityId given: String?, logins: [VerifiedLogin]) async throws -> IdentityRecord {
        do {
            return try await store.write { try await resolve(in: $0, pool: pool, identityId: given, logins: logins) }
        } catch StoreError.conflict(.identityLogin) {
            return try await store.write { try await resolve(in: $0, pool: pool, identityId: given, logins: logins) }
        }
    }

    private func resolve(in transaction: any StoreTransaction, pool: IdentityPoolRecord, identityId given: String?,
                         logins: [VerifiedLogin]) async throws -> IdentityRecord {
        let now = time.now
        let proofs = logins.filter { $0.provider == developerTokenLoginName }.map(\.subject)
        let links = logins.filter { $0.provider != developerTokenLoginName }
        var target: IdentityRecord?
        if let given { target = try await lockedIdentity(given, pool: pool, in: transaction) }
        for proof in proofs {
            if let given, proof != given { throw CognitoIdentityError.loginsDoNotMatch }
            if target == nil { target = try await lockedIdentity(proof, pool: pool, in: transaction) }
        }
        if let disabled = target, disabled.disabled { throw CognitoIdentityError.notAuthorized("Identity '\(disabled.identityId)' is disabled.") }
        if links.isEmpty && proofs.isEmpty {
            guard pool.settings.allowUnauthenticatedIdentities else { throw CognitoIdentityError.unauthenticatedNotSupported }
            if let target {
                guard !target.isAuthenticated else { throw CognitoIdentityError.loginsDoNotMatch }
                return target
            }
            return try await newIdentity(pool: pool, in: transaction, at: now)
        }
        var owners: [String: IdentityRecord] = [:]
        for login in links {
            guard let linked = try await transaction.identityLogin(poolId: pool.id, provider: login.provider, subject: login.subject)
            else { continue }
            if login.provider == pool.settings.developerProviderName, let target, linked.identityId != target.identityId {
                throw CognitoIdentityError(
                    .developerUserAlreadyRegistered,
                    "The developer user identifier is already registered with another identity (\(linked.identityId)).")
            }
            if owners[linked.identityId] == nil {
                owners[linked.identityId] = try await lockedIdentity(linked.identityId, pool: pool, in: transaction)
            }
        }
        var survivor: IdentityRecord
        if let target, target.isAuthenticated {
            guard proofs.contains(target.identityId) || owners[target.identityId] != nil else {
                throw CognitoIdentityError.loginsDoNotMatch
            }
            survivor = target
        } else if let oldest = owners.values.min(by: { ($0.createdAt, $0.identityId) < ($1.createdAt, $1.identityId) }) {
            survivor = oldest
        } else if let target {
            survivor = target
        } else {
            survivor = try await newIdentity(pool: pool, in: transaction, at: now)
        }
        for other in owners.values where other.identityId != survivor.identityId {
            try Self.checkMergeable(other.logins, into: survivor.logins, developerProvider: pool.settings.developerProviderName)
            try await transaction.moveIdentityLogins(from: other.identityId, to: survivor.identityId)
            try await transaction.deleteIdentity(id: other.identityId)
            survivor.logins += other.logins
        }
        if let target, target.identityId != survivor.identityId, !target.isAuthenticated {
            try await transaction.deleteIdentity(id: target.identityId)   // the guest, merged into the signed-in identity
        }
        for login in links where !survivor.logins.contains(where: { $0.provider == login.provider && $0.subject == login.subject }) {
            let record = IdentityLoginRecord(
                poolId: pool.id, provider: login.provider, subject: login.subject, identityId: survivor.identityId, linkedAt: now)
            try Self.checkMergeable([record], into: survivor.logins, developerProvider: pool.settings.developerProviderName)
            try await transaction.insertIdentityLogin(record)
            survivor.logins.append(record)
        }
        guard survivor.logins.count <= Self.maxLogins else {
            throw CognitoIdentityError(.limitExceeded, "An identity can have at most \(Self.maxLogins) linked logins.")
        }
        try await transaction.updateIdentity(id: survivor.identityId, at: now, disabled: false)
        survivor.updatedAt = now
        return survivor
    }

    /// Merges the identity of one developer user into another's (MergeDeveloperIdentities):
    /// returns the destination identity.
    func mergeDeveloperUsers(pool: IdentityPoolRecord, provider: String, source: String, destination: String) async throws
        -> String
    {
        try await store.write { transaction in
            guard let from = try await transaction.identityLogin(poolId: pool.id, provider: provider, subject: source) else {
                throw CognitoIdentityError.resourceNotFound("Developer user '\(source)' not found.")
            }
            guard let to = try await transaction.identityLogin(poolId: pool.id, provider: provider, subject: destination) else {
                throw CognitoIdentityError.resourceNotFound("Developer user '\(destination)' not found.")
            }
            guard from.identityId != to.identityId else { return to.identityId }
            let target = try await lockedIdentity(to.identityId, pool: pool, in: transaction)
            let merged = try await lockedIdentity(from.identityId, pool: pool, in: transaction)
            try Self.checkMergeable(merged.logins, into: target.logins, developerProvider: provider)
            guard merged.logins.count + target.logins.count <= Self.maxLogins else {
                throw CognitoIdentityError(.limitExceeded, "An identity can have at most \(Self.maxLogins) linked logins.")
            }
            try await transaction.moveIdentityLogins(from: merged.identityId, to: target.identityId)
            try await transaction.deleteIdentity(id: merged.identityId)
            try await transaction.updateIdentity(id: target.identityId, at: time.now, disabled: false)
            return target.identityId
        }
    }

    /// Two logins of one provider (but the developer provider's) naming different users cannot
    /// share an identity.
    static func checkMergeable(_ logins: [IdentityLoginRecord], into existing: [IdentityLoginRecord], developerProvider: String?)
        throws
    {
        for login in logins where login.provider != developerProvider {
            if existing.contains(where: { $0.provider == login.provider && $0.subject != login.subject }) {
                throw CognitoIdentityError.resourceConflict(
                    "The identity is already linked to another user of \(login.provider); one identity has one user per provider.")
            }
        }
    }

    func lockedIdentity(_ id: String, pool: IdentityPoolRecord, in transaction: any StoreTransaction) async throws -> IdentityRecord {
        guard let identity = try await transaction.identity(id: id, forUpdate: true), identity.poolId == pool.id else {
            throw CognitoIdentityError.identityNotFound(id)
        }
        return identity
    }

    private func newIdentity(pool: IdentityPoolRecord, in transaction: any StoreTransaction, at now: Date) async throws
        -> IdentityRecord
    {
        let region = IdentityPoolLookup.region(of: pool.id) ?? "us-east-1"
        let identity = IdentityRecord(
            identityId: IdentityPoolLookup.newId(region: region, random: random), poolId: pool.id, createdAt: now, updatedAt: now)
        try await transaction.insertIdentity(identity)
        return identity
    }
}
