import CognateProtocol
import Crypto
import Foundation

/// Issues and checks one-time codes (sign-up confirmation, password reset, attribute
/// verification).
///
/// Contract: a code is six random digits, stored only as an HMAC keyed with a server secret (a
/// database dump alone does not reveal codes), valid until `lifetime` passes, replaced by the
/// next code of the same purpose, and consumed by its first successful use. After
/// `maximumFailedAttempts` wrong guesses the code is dead: every further attempt, right or
/// wrong, is refused with LimitExceededException until a new code is requested. The code a new
/// one replaced answers ExpiredCodeException (as Cognito answers for superseded codes) without
/// counting as a wrong guess.
struct CodeBook: Sendable {
    static let maximumFailedAttempts = 5
    let key: SymmetricKey
    let random: any RandomSource

    func hash(_ code: String, userSub: String, purpose: CodePurpose) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(userSub)|\(purpose.rawValue)|\(code)".utf8), using: key)
        return mac.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// A new code and the record to store for it.
    func issue(for user: UserRecord, purpose: CodePurpose, deliveredTo: String?, pendingValue: String? = nil, now: Date,
               lifetime: TimeInterval) -> (code: String, record: CodeRecord)
    {
        let code = random.numericCode()
        let record = CodeRecord(
            poolId: user.poolId, userSub: user.sub, purpose: purpose, codeHash: hash(code, userSub: user.sub, purpose: purpose),
            deliveredTo: deliveredTo, pendingValue: pendingValue, createdAt: now, expiresAt: now.addingTimeInterval(lifetime))
        return (code, record)
    }

    /// Checks `code` and consumes it. A wrong code is counted before the error is reported,
    /// so the count survives the failed request (see `CommitAndFail`).
    func redeem(_ code: String, for user: UserRecord, purpose: CodePurpose, in transaction: any StoreTransaction,
                now: Date) async throws -> CodeRecord
    {
        guard let record = try await transaction.code(userSub: user.sub, purpose: purpose) else {
            throw CognitoError.expiredCode
        }
        guard record.failedAttempts < Self.maximumFailedAttempts else { throw CognitoError.attemptLimitExceeded }
        guard now < record.expiresAt else { throw CognitoError.expiredCode }
        let presented = hash(code, userSub: user.sub, purpose: purpose)
        guard ConstantTime.equals(presented, record.codeHash) else {
            if let previous = record.previousCodeHash, ConstantTime.equals(presented, previous) {
                throw CognitoError.expiredCode
            }
            _ = try await transaction.recordFailedAttempt(userSub: user.sub, purpose: purpose)
            throw CommitAndFail(.codeMismatch)
        }
        try await transaction.deleteCode(userSub: user.sub, purpose: purpose)
        return record
    }
}
