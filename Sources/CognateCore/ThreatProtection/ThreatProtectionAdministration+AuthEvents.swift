import CognateProtocol
import Foundation

extension ThreatProtectionAdministration {
    public func adminListUserAuthEvents(_ request: AdminListUserAuthEventsRequest) async throws
        -> AdminListUserAuthEventsResponse
    {
        let pool = try await directory.requirePool(request.userPoolId)
        try Self.requireThreatProtection(pool)
        let limit = min(max(request.maxResults ?? 60, 1), 60)
        let page = try await store.read { transaction -> Page<AuthEventRecord> in
            guard let user = try await users.findUser(request.username, in: pool, transaction) else {
                throw CognitoError.userNotFound
            }
            return try await transaction.authEvents(poolId: pool.id, userSub: user.sub, after: request.nextToken, limit: limit)
        }
        return AdminListUserAuthEventsResponse(authEvents: page.items.map(\.event), nextToken: page.next)
    }

    public func adminUpdateAuthEventFeedback(_ request: AdminUpdateAuthEventFeedbackRequest) async throws
        -> AdminUpdateAuthEventFeedbackResponse
    {
        try await updateFeedback(
            pool: request.userPoolId, username: request.username, eventId: request.eventId, token: nil,
            value: request.feedbackValue, provider: "Admin")
        return AdminUpdateAuthEventFeedbackResponse()
    }

    /// The user's own feedback, with the token their notification email carried.
    public func updateAuthEventFeedback(_ request: UpdateAuthEventFeedbackRequest) async throws
        -> UpdateAuthEventFeedbackResponse
    {
        try await updateFeedback(
            pool: request.userPoolId, username: request.username, eventId: request.eventId, token: request.feedbackToken,
            value: request.feedbackValue, provider: "User")
        return UpdateAuthEventFeedbackResponse()
    }

    /// Sets an event's feedback. `token`: nil for an administrator; else it must be the event's
    /// feedback token (compared by hash, in constant time).
    private func updateFeedback(pool poolId: String, username: String, eventId: String, token: String?,
                                value: FeedbackValueType, provider: String) async throws {
        let pool = try await directory.requirePool(poolId)
        try Self.requireThreatProtection(pool)
        guard value == .valid || value == .invalid else {
            throw CognitoError.invalidParameter("FeedbackValue must be Valid or Invalid.")
        }
        let now = time.now
        try await store.write { transaction in
            guard let user = try await users.findUser(username, in: pool, transaction) else { throw CognitoError.userNotFound }
            guard var record = try await transaction.authEvent(poolId: pool.id, eventId: eventId), record.userSub == user.sub
            else { throw CognitoError(.resourceNotFound, "Auth event not found.") }
            if let token {
                guard let stored = record.feedbackTokenHash, ConstantTime.equals(stored, RefreshTokens.hash(token)) else {
                    throw CognitoError.notAuthorized("Invalid feedback token.")
                }
            }
            record.event.eventFeedback = EventFeedbackType(feedbackValue: value, provider: provider, feedbackDate: now)
            try await transaction.updateAuthEvent(record)
        }
    }

    static func requireThreatProtection(_ pool: PoolRecord) throws {
        guard pool.threatProtection != .off else {
            throw CognitoError(.userPoolAddOnNotEnabled, "Advanced security features are not enabled for this user pool.")
        }
    }
}
