import CognateProtocol
import Foundation

extension IdentityService {
    /// A new event of `type` now, from the caller's address; its id sorts by time (a UUID
    /// whose first 48 bits are the milliseconds since 1970, as in UUIDv7).
    func newAuthEvent(_ type: EventType) -> AuthEventType {
        let now = time.now
        return AuthEventType(
            eventId: Self.timeOrderedId(now, random: random.bytes(10)), eventType: type, creationDate: now,
            eventContextData: RequestOrigin.clientAddress.map { EventContextDataType(ipAddress: $0) })
    }

    /// Stores `event` of `user` in `transaction` with a fresh feedback token (returned, for a
    /// notification email; only its hash is kept), and hands it to the pool's log delivery.
    @discardableResult
    func recordAuthEvent(_ event: AuthEventType, of user: UserRecord, pool: PoolRecord,
                         in transaction: any StoreTransaction) async throws -> String {
        let token = Base64URL.encode(random.bytes(24))
        try await transaction.insertAuthEvent(AuthEventRecord(
            poolId: pool.id, userSub: user.sub, event: event, feedbackTokenHash: RefreshTokens.hash(token)))
        deliverAuthEventLog(event, username: user.username, pool: pool)
        return token
    }

    /// Records a successful event outside sign-in (SignUp, ForgotPassword, PasswordChange,
    /// ResendCode) in the operation's own transaction, when the pool has threat protection.
    func recordAuthEvent(_ type: EventType, of user: UserRecord, pool: PoolRecord,
                         in transaction: any StoreTransaction) async throws {
        guard pool.threatProtection != .off else { return }
        var event = newAuthEvent(type)
        event.eventResponse = .pass
        event.eventRisk = EventRiskType(riskDecision: .noRisk, compromisedCredentialsDetected: false)
        try await recordAuthEvent(event, of: user, pool: pool, in: transaction)
    }

    public func adminListUserAuthEvents(_ request: AdminListUserAuthEventsRequest) async throws
        -> AdminListUserAuthEventsResponse
    {
        let pool = try await requirePool(request.userPoolId)
        try Self.requireThreatProtection(pool)
        let limit = min(max(request.maxResults ?? 60, 1), 60)
        let page = try await store.read { transaction -> Page<AuthEventRecord> in
            guard let user = try await self.findUser(request.username, in: pool, transaction) else {
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
        let pool = try await requirePool(poolId)
        try Self.requireThreatProtection(pool)
        guard value == .valid || value == .invalid else {
            throw CognitoError.invalidParameter("FeedbackValue must be Valid or Invalid.")
        }
        let now = time.now
        try await store.write { transaction in
            guard let user = try await self.findUser(username, in: pool, transaction) else { throw CognitoError.userNotFound }
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

    static func timeOrderedId(_ date: Date, random: [UInt8]) -> String {
        let milliseconds = UInt64(max(date.timeIntervalSince1970, 0) * 1000)
        var bytes = (0..<6).map { UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - $0))) } + random.prefix(10)
        bytes[6] = 0x70 | (bytes[6] & 0x0F)   // version 7
        bytes[8] = 0x80 | (bytes[8] & 0x3F)   // variant
        let hex = SRPEncoding.hexString(bytes)
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }
}
