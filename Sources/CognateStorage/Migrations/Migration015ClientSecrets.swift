/// Client secret rotation: a client's secrets besides the one in its settings (at most one
/// more), each with its id and creation time.
enum Migration015ClientSecrets {
    static let migration = Migration(version: 15, name: "client_secrets", statements: [
        "ALTER TABLE app_clients ADD COLUMN extra_secrets TEXT",
    ])
}
