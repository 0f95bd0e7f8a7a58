import CognateProtocol

/// Builds a pool's full attribute schema from the `Schema` of CreateUserPool: the standard
/// attributes with the caller's overrides, then custom attributes as `custom:<name>`
/// (`dev:custom:<name>` when developer-only).
enum PoolSchemaBuilder {
    static let maximumCustomAttributes = 50

    static func build(from requested: [SchemaAttributeType]?) throws -> [SchemaAttributeType] {
        var standard = StandardAttributes.names.map(StandardAttributes.schema)
        var custom: [SchemaAttributeType] = []
        var seen = Set<String>()
        for attribute in requested ?? [] {
            guard let name = attribute.name else {
                throw CognitoError.invalidParameter("Schema attribute name is required.")
            }
            guard seen.insert(name).inserted else {
                throw CognitoError.invalidParameter("Duplicate attribute name in schema: \(name)")
            }
            if let index = standard.firstIndex(where: { $0.name == name }) {
                standard[index] = try overriding(standard[index], with: attribute)
            } else {
                custom.append(try customAttribute(attribute, name: name))
            }
        }
        guard custom.count <= maximumCustomAttributes else {
            throw CognitoError.invalidParameter("A user pool can have at most \(maximumCustomAttributes) custom attributes.")
        }
        return standard + custom
    }

    /// Custom attributes added to an existing pool (AddCustomAttributes).
    static func customAttribute(_ attribute: SchemaAttributeType, name: String) throws -> SchemaAttributeType {
        let bare = name.hasPrefix("custom:") ? String(name.dropFirst(7)) : name
        guard !bare.isEmpty, bare.count <= 20 else {
            throw CognitoError.invalidParameter("Custom attribute names must be 1 to 20 characters: \(name)")
        }
        if attribute.required == true {
            throw CognitoError.invalidParameter("Required custom attributes are not supported currently.")
        }
        guard attribute.attributeDataType != nil else {
            throw CognitoError.invalidParameter(
                "Invalid AttributeDataType input, consider using the provided AttributeDataType enum.")
        }
        var result = attribute
        let developerOnly = attribute.developerOnlyAttribute ?? false
        result.name = (developerOnly ? "dev:custom:" : "custom:") + bare
        result.developerOnlyAttribute = developerOnly
        result.mutable = attribute.mutable ?? true
        result.required = false
        try checkConstraints(result)
        return result
    }

    static func overriding(_ standard: SchemaAttributeType, with requested: SchemaAttributeType) throws -> SchemaAttributeType {
        var result = standard
        if let type = requested.attributeDataType, type != standard.attributeDataType {
            throw CognitoError.invalidParameter(
                "You can not change AttributeDataType or set developerOnlyAttribute for standard schema attribute \(standard.name ?? "")")
        }
        if requested.developerOnlyAttribute == true {
            throw CognitoError.invalidParameter(
                "You can not change AttributeDataType or set developerOnlyAttribute for standard schema attribute \(standard.name ?? "")")
        }
        if standard.name == "sub" {
            if requested.required == false || requested.mutable == true {
                throw CognitoError.invalidParameter("The sub attribute is required and immutable.")
            }
            return result
        }
        if let required = requested.required { result.required = required }
        if let mutable = requested.mutable { result.mutable = mutable }
        if let constraints = requested.stringAttributeConstraints { result.stringAttributeConstraints = constraints }
        if let constraints = requested.numberAttributeConstraints { result.numberAttributeConstraints = constraints }
        try checkConstraints(result)
        return result
    }

    static func checkConstraints(_ attribute: SchemaAttributeType) throws {
        if let c = attribute.stringAttributeConstraints {
            let min = try c.minLength.map { try integer($0, "MinLength") } ?? 0
            let max = try c.maxLength.map { try integer($0, "MaxLength") } ?? 2048
            guard 0 <= min, min <= max, max <= 2048 else {
                throw CognitoError.invalidParameter(
                    "Invalid string length constraints for attribute \(attribute.name ?? ""): MinLength must be <= MaxLength <= 2048.")
            }
        }
        if let c = attribute.numberAttributeConstraints {
            let min = try c.minValue.map { try integer($0, "MinValue") }
            let max = try c.maxValue.map { try integer($0, "MaxValue") }
            if let min, let max, min > max {
                throw CognitoError.invalidParameter(
                    "Invalid number constraints for attribute \(attribute.name ?? ""): MinValue must be <= MaxValue.")
            }
        }
    }

    private static func integer(_ text: String, _ field: String) throws -> Int {
        guard let value = Int(text) else { throw CognitoError.invalidParameter("\(field) must be an integer: \(text)") }
        return value
    }
}
