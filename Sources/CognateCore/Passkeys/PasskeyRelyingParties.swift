import Foundation

/// Finds a pool's passkey relying party (``PasskeyRelyingParty/of(_:domain:publicBaseURL:)``),
/// reading the pool's domain.
struct PasskeyRelyingParties: Sendable {
    let store: any Store
    let configuration: CoreConfiguration

    func relyingParty(of pool: PoolRecord) async throws -> PasskeyRelyingParty {
        let domain = pool.mfa.webAuthn?.relyingPartyId == nil
            ? try await store.read { try await $0.domain(ofPool: pool.id) } : nil
        return try PasskeyRelyingParty.of(pool, domain: domain, publicBaseURL: configuration.publicBaseURL)
    }
}
