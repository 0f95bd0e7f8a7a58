import CognateProtocol
import Foundation

extension PoolAdministration {
    /// AddCustomAttributes: the pool's schema grows by `custom:<name>` attributes (never shrinks:
    /// users keep every value they have; an existing name is refused).
    public func addCustomAttributes(_ request: AddCustomAttributesRequest) async throws -> AddCustomAttributesResponse {
        guard !request.customAttributes.isEmpty, request.customAttributes.count <= 25 else {
            throw CognitoError.invalidParameter("CustomAttributes must have 1 to 25 attributes.")
        }
        try await directory.editPool(request.userPoolId) { pool in
            var schema = pool.settings.schemaAttributes ?? []
            for attribute in request.customAttributes {
                let added = try PoolSchemaBuilder.customAttribute(attribute, name: attribute.name ?? "")
                let bare = added.name.map { $0.replacingOccurrences(of: "dev:", with: "") } ?? ""
                guard !schema.contains(where: { ($0.name ?? "").replacingOccurrences(of: "dev:", with: "") == bare }) else {
                    throw CognitoError.invalidParameter("Existing attribute already has name \(bare).")
                }
                schema.append(added)
            }
            guard schema.filter({ ($0.name ?? "").contains("custom:") }).count <= PoolSchemaBuilder.maximumCustomAttributes else {
                throw CognitoError.invalidParameter(
                    "A user pool can have at most \(PoolSchemaBuilder.maximumCustomAttributes) custom attributes.")
            }
            pool.settings.schemaAttributes = schema
        }
        return AddCustomAttributesResponse()
    }

    /// GetCSVHeader: the columns of a user import file for the pool, in Cognito's order, then the
    /// pool's custom attributes.
    public func getCSVHeader(_ request: GetCSVHeaderRequest) async throws -> GetCSVHeaderResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let custom = (pool.settings.schemaAttributes ?? []).compactMap(\.name).filter { $0.hasPrefix("custom:") }
        return GetCSVHeaderResponse(userPoolId: pool.id, csvHeader: Self.csvStandardColumns + custom)
    }

    static let csvStandardColumns = [
        "name", "given_name", "family_name", "middle_name", "nickname", "preferred_username", "profile", "picture", "website",
        "email", "email_verified", "gender", "birthdate", "zoneinfo", "locale", "phone_number", "phone_number_verified",
        "address", "updated_at", "cognito:mfa_enabled", "cognito:username",
    ]
}
