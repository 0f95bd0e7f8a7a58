import CognateProtocol
import Foundation

extension AuthClient {
    /// The signed-in user's attributes by name, as the server has them now (`GetUser`).
    public func fetchUserAttributes() async throws -> [String: String] {
        let response = try await withAccessToken { accessToken in
            try await channel.send(CognitoAPI.GetUser.self, GetUserRequest(accessToken: accessToken))
        }
        var attributes: [String: String] = [:]
        for attribute in response.userAttributes { attributes[attribute.name] = attribute.value ?? "" }
        return attributes
    }

    /// Writes attributes of the signed-in user (`UpdateUserAttributes`).
    /// - Returns: one delivery per attribute that needs a code before it counts as verified
    ///   (changing `email` or `phone_number`); confirm each with ``confirmAttribute(_:code:)``.
    ///   They are remembered as ``PendingCode``s until then.
    /// - Throws: ``AuthError`` — `invalidParameter` (unknown or immutable attribute, bad
    ///   format), `aliasExists`, `codeDeliveryFailure`.
    @discardableResult
    public func updateUserAttributes(
        _ attributes: [String: String], clientMetadata: [String: String] = [:]
    ) async throws -> [CodeDelivery] {
        let response = try await withAccessToken { accessToken in
            try await channel.send(CognitoAPI.UpdateUserAttributes.self, UpdateUserAttributesRequest(
                userAttributes: Self.attributeList(attributes), accessToken: accessToken,
                clientMetadata: clientMetadata.nilIfEmpty))
        }
        let deliveries = (response.codeDeliveryDetailsList ?? []).map(CodeDelivery.init)
        for delivery in deliveries {
            await rememberCode(.attributeVerification(attribute: delivery.attributeName), delivery: delivery)
        }
        return deliveries
    }

    /// Verifies an attribute with the code sent for it (`VerifyUserAttribute`).
    public func confirmAttribute(_ name: String, code: String) async throws {
        try await withAccessToken { accessToken in
            _ = try await channel.send(CognitoAPI.VerifyUserAttribute.self, VerifyUserAttributeRequest(
                accessToken: accessToken, attributeName: name, code: code))
        }
        await forgetCode(.attributeVerification(attribute: name))
    }

    /// Sends a new verification code for an attribute (`GetUserAttributeVerificationCode`).
    @discardableResult
    public func resendAttributeCode(_ name: String, clientMetadata: [String: String] = [:]) async throws -> CodeDelivery? {
        let response = try await withAccessToken { accessToken in
            try await channel.send(CognitoAPI.GetUserAttributeVerificationCode.self, GetUserAttributeVerificationCodeRequest(
                accessToken: accessToken, attributeName: name, clientMetadata: clientMetadata.nilIfEmpty))
        }
        let delivery = response.codeDeliveryDetails.map(CodeDelivery.init)
        await rememberCode(.attributeVerification(attribute: name), delivery: delivery)
        return delivery
    }
}
