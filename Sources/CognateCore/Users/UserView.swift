import CognateProtocol

/// How users appear on the wire.
extension UserRecord {
    /// Attributes as Cognito lists them: `sub` first, then the rest by name.
    func wireAttributes(only names: [String]? = nil) -> [AttributeType] {
        var all = [AttributeType(name: "sub", value: sub)]
        // Federated users made before 2026-11-26 kept `sub` among their attributes too.
        all += attributes.filter { $0.key != "sub" }.sorted { $0.key < $1.key }.map { AttributeType(name: $0.key, value: $0.value) }
        guard let names else { return all }
        let wanted = Set(names)
        return all.filter { wanted.contains($0.name) }
    }

    /// `UserType` (ListUsers, AdminCreateUser).
    func wireUser(attributesToGet: [String]? = nil) -> UserType {
        UserType(
            username: username, attributes: wireAttributes(only: attributesToGet), userCreateDate: createdAt,
            userLastModifiedDate: updatedAt, enabled: enabled, userStatus: status)
    }

    /// The address a code for `attribute` goes to, if the user has one.
    func destination(for attribute: String) -> CodeDestination? {
        guard let address = attributes[attribute], !address.isEmpty else { return nil }
        return CodeDestination(attribute: attribute, address: address)
    }
}
