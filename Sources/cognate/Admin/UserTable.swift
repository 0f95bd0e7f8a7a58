import CognateProtocol

/// How users (ListUsers, ListUsersInGroup, AdminGetUser outputs) look in a table.
enum UserTable {
    static func list(_ users: [JSONValue]) -> Table {
        Table(["USERNAME", "STATUS", "ENABLED", "EMAIL", "PHONE", "CREATED"], users.map { user in
            let attributes = user.attributeMap
            return [user["Username"]?.cell ?? "", user["UserStatus"]?.cell ?? "", user["Enabled"]?.cell ?? "",
                    attributes["email"] ?? "", attributes["phone_number"] ?? "", user["UserCreateDate"]?.date ?? ""]
        })
    }

    /// One user: the fixed fields, then every attribute.
    static func one(_ user: JSONValue) -> Table {
        var pairs: [(String, String)] = [
            ("Username", user["Username"]?.cell ?? ""), ("UserStatus", user["UserStatus"]?.cell ?? ""),
            ("Enabled", user["Enabled"]?.cell ?? ""), ("Created", user["UserCreateDate"]?.date ?? ""),
            ("Modified", user["UserLastModifiedDate"]?.date ?? ""),
        ]
        if let mfa = user["UserMFASettingList"] { pairs.append(("MFA", mfa.cell)) }
        pairs += user.attributeMap.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return .fields(pairs)
    }
}
