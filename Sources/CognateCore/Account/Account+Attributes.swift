import CognateProtocol
import Foundation

extension Account {
    /// UpdateUserAttributes: the user changes their own attributes (those the app client may
    /// write); codes go to changed, auto-verified addresses.
    public func updateUserAttributes(_ request: UpdateUserAttributesRequest) async throws -> UpdateUserAttributesResponse {
        let caller = try await authenticator.authenticatedUser(request.accessToken)
        let pool = caller.pool
        let changes = try UserAttributeWrites(pool: pool, client: caller.client).checked(request.userAttributes, isCreation: false)
        let pending: [PendingCode] = try await store.write { transaction in
            var user = try await users.locked(caller.user, transaction)
            return try await attributeEditor.applyAttributeChanges(changes, to: &user, pool: pool, writer: .user, in: transaction)
        }
        let details = try await messenger.send(
            pending, pool: pool, clientId: caller.client.clientId, clientMetadata: request.clientMetadata)
        return UpdateUserAttributesResponse(codeDeliveryDetailsList: details.isEmpty ? nil : details)
    }

    public func deleteUserAttributes(_ request: DeleteUserAttributesRequest) async throws -> DeleteUserAttributesResponse {
        let caller = try await authenticator.authenticatedUser(request.accessToken)
        let removal = try UserAttributeWrites(pool: caller.pool, client: caller.client)
            .checkedDeletion(request.userAttributeNames)
        _ = try await store.write { transaction in
            var user = try await users.locked(caller.user, transaction)
            return try await attributeEditor.applyAttributeChanges(removal, to: &user, pool: caller.pool, writer: .user, in: transaction)
        }
        return DeleteUserAttributesResponse()
    }

    /// GetUserAttributeVerificationCode: a (new) code for the user's email or phone number.
    public func getUserAttributeVerificationCode(_ request: GetUserAttributeVerificationCodeRequest) async throws
        -> GetUserAttributeVerificationCodeResponse
    {
        let caller = try await authenticator.authenticatedUser(request.accessToken)
        let kind = request.attributeName
        guard kind == "email" || kind == "phone_number" else {
            throw CognitoError.invalidParameter("Only email and phone_number can be verified.")
        }
        guard let destination = caller.user.destination(for: kind) else {
            throw CognitoError.invalidParameter("The user has no \(kind) to verify.")
        }
        let limit = configuration.codeRequestsPerHour
        let pending = try await store.write { transaction in
            try await allowances.consumeHourlyAllowance(
                "verificationCode", subject: caller.user.sub, pool: caller.pool, limit: limit, transaction)
            return try await messenger.issueCode(
                .verifyAttribute(kind), for: caller.user, to: destination, pool: caller.pool, occasion: .verifyUserAttribute,
                clientId: caller.client.clientId, in: transaction)
        }
        let details = try await messenger.send(
            [pending], pool: caller.pool, clientId: caller.client.clientId,
            clientMetadata: request.clientMetadata).first
        return GetUserAttributeVerificationCodeResponse(codeDeliveryDetails: details)
    }

    /// VerifyUserAttribute: marks the address verified (swapping in a held new address first).
    /// A verified alias another user holds moves to this user, as in Cognito.
    public func verifyUserAttribute(_ request: VerifyUserAttributeRequest) async throws -> VerifyUserAttributeResponse {
        let caller = try await authenticator.authenticatedUser(request.accessToken)
        let kind = request.attributeName
        guard kind == "email" || kind == "phone_number" else {
            throw CognitoError.invalidParameter("Only email and phone_number can be verified.")
        }
        let now = time.now
        let codes = self.codes
        try await store.transaction { transaction in
            var user = try await users.locked(caller.user, transaction)
            let record = try await codes.redeem(
                request.code, for: user, purpose: .verifyAttribute(kind), revealsMissingCode: true, in: transaction, now: now)
            if let pending = record.pendingValue { user.attributes[kind] = pending }
            user.attributes["\(kind)_verified"] = "true"
            user.updatedAt = now
            try await transaction.updateUser(user)
            try await users.updateSignInNames(of: user, pool: caller.pool, in: transaction, moveAliases: true)
        }
        return VerifyUserAttributeResponse()
    }
}
