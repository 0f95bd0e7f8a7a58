import CognateCore
import Foundation

extension SQLTransaction: FunctionRepository {
    func putFunction(_ binding: FunctionBinding) async throws {
        let at = Columns.time(binding.updatedAt)
        try await run(
            """
            INSERT INTO functions (arn, url, updated_at) VALUES (\(bind: binding.arn), \(bind: binding.url), \(bind: at)) \
            ON CONFLICT (arn) DO UPDATE SET url = \(bind: binding.url), updated_at = \(bind: at)
            """)
    }

    func deleteFunction(arn: String) async throws -> Bool {
        try await first("DELETE FROM functions WHERE arn = \(bind: arn) RETURNING arn") != nil
    }

    func function(arn: String) async throws -> FunctionBinding? {
        try await first("SELECT * FROM functions WHERE arn = \(bind: arn)").map(Self.functionBinding(from:))
    }

    func allFunctions() async throws -> [FunctionBinding] {
        try await all("SELECT * FROM functions ORDER BY arn").map(Self.functionBinding(from:))
    }

    static func functionBinding(from row: SQLRow) throws -> FunctionBinding {
        FunctionBinding(arn: try row.string("arn"), url: try row.string("url"), updatedAt: try row.date("updated_at"))
    }
}
