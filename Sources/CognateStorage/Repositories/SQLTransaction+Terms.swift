import CognateCore
import CognateProtocol
import Foundation

extension SQLTransaction: TermsRepository {
    func insertTerms(_ terms: TermsType) async throws {
        try await insert(
            """
            INSERT INTO terms (terms_id, pool_id, client_id, terms_name, record) VALUES (\(bind: terms.termsId), \
            \(bind: terms.userPoolId), \(bind: terms.clientId), \(bind: terms.termsName), \(bind: try Columns.json(terms)))
            """, conflict: .terms)
    }

    func updateTerms(_ terms: TermsType) async throws {
        try await insertOrConflict {
            try await self.run(
                """
                UPDATE terms SET terms_name = \(bind: terms.termsName), record = \(bind: try Columns.json(terms)) \
                WHERE terms_id = \(bind: terms.termsId)
                """)
        }
    }

    func terms(id: String) async throws -> TermsType? {
        try await first("SELECT record FROM terms WHERE terms_id = \(bind: id)").map(Self.terms(from:))
    }

    func deleteTerms(id: String) async throws {
        try await run("DELETE FROM terms WHERE terms_id = \(bind: id)")
    }

    func terms(poolId: String, after: String?, limit: Int) async throws -> Page<TermsType> {
        let rows = try await all(
            """
            SELECT terms_id, record FROM terms WHERE pool_id = \(bind: poolId) AND terms_id > \(bind: after ?? "") \
            ORDER BY terms_id LIMIT \(bind: limit + 1)
            """)
        return try Self.page(rows.map(Self.terms(from:)), limit: limit, key: \.termsId)
    }

    func terms(clientId: String) async throws -> [TermsType] {
        try await all("SELECT record FROM terms WHERE client_id = \(bind: clientId) ORDER BY terms_name").map(Self.terms(from:))
    }

    /// Runs an update that may break the (client, name) uniqueness.
    private func insertOrConflict(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch SQLConstraintViolation.unique {
            throw StoreError.conflict(.terms)
        }
    }

    static func terms(from row: SQLRow) throws -> TermsType {
        try Columns.decodeJSON(TermsType.self, row.string("record"))
    }
}
