/// Why a queued message is sent and for which app client: what a pool's CustomEmailSender or
/// CustomSMSSender function is told when the queue hands it the message.
enum Migration007MessageOccasion {
    static let migration = Migration(version: 7, name: "message occasion", statements: [
        "ALTER TABLE message_queue ADD COLUMN occasion TEXT",
        "ALTER TABLE message_queue ADD COLUMN client_id TEXT",
    ])
}
