import CognateProtocol
import Foundation

public protocol TermsRepository: Sendable {
    /// Throws `StoreError.conflict(.terms)` when the client has terms of that name.
    func insertTerms(_ terms: TermsType) async throws
    func updateTerms(_ terms: TermsType) async throws
    func terms(id: String) async throws -> TermsType?
    func deleteTerms(id: String) async throws
    /// The pool's terms by id, starting after `after`.
    func terms(poolId: String, after: String?, limit: Int) async throws -> Page<TermsType>
    /// The terms of one app client.
    func terms(clientId: String) async throws -> [TermsType]
}
