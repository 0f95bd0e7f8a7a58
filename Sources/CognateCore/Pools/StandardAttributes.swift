import CognateProtocol

/// The standard attributes every pool has, in the order Cognito lists them (§7.4).
enum StandardAttributes {
    static let names: [String] = [
        "sub", "name", "given_name", "family_name", "middle_name", "nickname", "preferred_username", "profile",
        "picture", "website", "email", "email_verified", "gender", "birthdate", "zoneinfo", "locale",
        "phone_number", "phone_number_verified", "address", "updated_at",
    ]

    static func schema(_ name: String) -> SchemaAttributeType {
        switch name {
        case "sub":
            return SchemaAttributeType(
                name: name, attributeDataType: .string, developerOnlyAttribute: false, mutable: false, required: true,
                stringAttributeConstraints: StringAttributeConstraintsType(minLength: "1", maxLength: "2048"))
        case "email_verified", "phone_number_verified":
            return SchemaAttributeType(
                name: name, attributeDataType: .boolean, developerOnlyAttribute: false, mutable: true, required: false)
        case "updated_at":
            return SchemaAttributeType(
                name: name, attributeDataType: .number, developerOnlyAttribute: false, mutable: true, required: false,
                numberAttributeConstraints: NumberAttributeConstraintsType(minValue: "0"))
        case "birthdate":
            return SchemaAttributeType(
                name: name, attributeDataType: .string, developerOnlyAttribute: false, mutable: true, required: false,
                stringAttributeConstraints: StringAttributeConstraintsType(minLength: "10", maxLength: "10"))
        default:
            return SchemaAttributeType(
                name: name, attributeDataType: .string, developerOnlyAttribute: false, mutable: true, required: false,
                stringAttributeConstraints: StringAttributeConstraintsType(minLength: "0", maxLength: "2048"))
        }
    }
}
