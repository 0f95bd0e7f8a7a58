import CognateCore
import Foundation


extension SQLTransaction: ChangeFeedRepository {
    func recordChange(_ topic: ChangeTopic, subject: String, at date: Date) async throws {
        try await run(
            """
            INSERT INTO change_feed (topic, subject, changed_at) VALUES (\(bind: topic.rawValue), \(bind: subject), \
            \(bind: Columns.time(date)))
            """)
    }

    func changes(since date: Date) async throws -> [ChangeNotice] {
        try await all("SELECT * FROM change_feed WHERE changed_at >= \(bind: Columns.time(date)) ORDER BY id").compactMap { row in
            guard let topic = ChangeTopic(rawValue: try row.string("topic")) else { return nil }
            return ChangeNotice(
                id: try row.int64("id"), topic: topic, subject: try row.string("subject"),
                changedAt: try row.date("changed_at"))
        }
    }
}
