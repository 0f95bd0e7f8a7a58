/// Each pool's custom-registration function (SetUserPoolCustomRegistration).
enum Migration030CustomRegistration {
    static let migration = Migration(version: 30, name: "custom_registration", statements: [
        "ALTER TABLE user_pools ADD COLUMN custom_registration TEXT",
    ])
}
