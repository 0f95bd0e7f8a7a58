import CognateProtocol
import Crypto
import Foundation

/// Issues and checks one-time codes (sign-up confirmation, password reset, attribute
/// verification).
///
/// Contract: a code is six random digits, stored only as an HMAC keyed with a server secret (a
/// database dump alone does not reveal codes) over the user, the purpose and the address the
/// code was sent to — so a code proves exactly that address: once the address changes (or a
/// held new address is not the one it was sent to), the code no longer matches. A code is valid
/// until `lifetime` passes, replaced by the next code of the same purpose, and consumed by its
/// first successful use. After `maximumFailedAttempts` wrong guesses within an hour the code is
/// dead, and so is any replacement requested within that hour: every further attempt, right or
/// wrong, is refused with LimitExceededException (guesses stay bounded per hour however many
/// codes are requested). The code a new one replaced answers ExpiredCodeException (as Cognito
/// answers for superseded codes) without counting as a wrong guess.
struct CodeBook: Sendable {
    static let maximumFailedAttempts = 5
    /// How long wrong guesses count against a user's codes of one purpose.
    static let guessWindow: TimeInterval = 3600
    let key: SymmetricKey
    let random: any RandomSource

    func hash(_ code: String, userSub: String, purpose: CodePurpose, address: String) -> String {
        hex(HMAC<SHA256>.authenticationCode(
            for: Data("\(userSub)|\(purpose.rawValue)|\(address)|\(code)".utf8), using: key))
    }

    /// A value only this server can compute for `label` (decoys for unknown users).
    func pseudorandom(_ label: String) -> String {
        hex(HMAC<SHA256>.authenticationCode(for: Data("pseudorandom|\(label)".utf8), using: key))
    }

    private func hex(_ mac: HashedAuthenticationCode<SHA256>) -> String {
        SRPEncoding.hexString(mac)
    }

    /// A new code for `destination` and the record to store for it. `pendingValue` is a new
    /// address held until verified; the code is then sent to (and bound to) it.
    func issue(for user: UserRecord, purpose: CodePurpose, destination: CodeDestination, pendingValue: String? = nil,
               now: Date, lifetime: TimeInterval) -> (code: String, record: CodeRecord)
    {
        let code = random.numericCode()
        let record = CodeRecord(
            poolId: user.poolId, userSub: user.sub, purpose: purpose,
            codeHash: hash(code, userSub: user.sub, purpose: purpose, address: destination.address),
            deliveredTo: destination.attribute, pendingValue: pendingValue, createdAt: now,
            expiresAt: now.addingTimeInterval(lifetime))
        return (code, record)
    }

    /// The address a stored code must have been sent to for `user` now: the held new address,
    /// else the current value of the attribute it went to.
    static func boundAddress(of record: CodeRecord, for user: UserRecord) -> String {
        record.pendingValue ?? record.deliveredTo.flatMap { user.attributes[$0] } ?? ""
    }

    /// Checks `code` and consumes it. A wrong code is counted before the error is reported,
    /// so the count survives the failed request (see `CommitAndFail`). An expired or superseded
    /// code is reported as such only to whoever presents it: a wrong guess is a wrong guess.
    /// When the user has no code of this purpose (none sent, or already used) the answer is
    /// ExpiredCodeException if `revealsMissingCode` (as Cognito answers), else a counted wrong
    /// guess (public calls of clients that prevent user existence errors: an unknown name has
    /// no code either, and must not be told apart).
    func redeem(_ code: String, for user: UserRecord, purpose: CodePurpose, revealsMissingCode: Bool,
                in transaction: any StoreTransaction, now: Date) async throws -> CodeRecord
    {
        guard let record = try await transaction.code(poolId: user.poolId, userSub: user.sub, purpose: purpose) else {
            guard revealsMissingCode else {
                try await refuseGuessWithoutCode(subject: user.sub, purpose: purpose, in: transaction, now: now)
            }
            throw CognitoError.expiredCode
        }
        guard record.failedAttempts < Self.maximumFailedAttempts else { throw CognitoError.attemptLimitExceeded }
        let presented = hash(code, userSub: user.sub, purpose: purpose, address: Self.boundAddress(of: record, for: user))
        if ConstantTime.equals(presented, record.codeHash) {
            guard now < record.expiresAt else { throw CognitoError.expiredCode }
            try await transaction.deleteCode(poolId: user.poolId, userSub: user.sub, purpose: purpose)
            return record
        }
        if let previous = record.previousCodeHash, ConstantTime.equals(presented, previous) {
            throw CognitoError.expiredCode
        }
        _ = try await transaction.recordFailedAttempt(poolId: user.poolId, userSub: user.sub, purpose: purpose)
        throw CommitAndFail(.codeMismatch)
    }

    /// A guess at a code that does not exist — none was sent, or `subject` is the decoy of a
    /// name that is no user: counted per subject and purpose per hour and answered as wrong
    /// guesses at a real code are (CodeMismatchException, then LimitExceededException), so the
    /// answers do not tell the cases apart.
    func refuseGuessWithoutCode(subject: String, purpose: CodePurpose, in transaction: any StoreTransaction,
                                now: Date) async throws -> Never {
        let seconds = now.timeIntervalSince1970
        let window = Date(timeIntervalSince1970: seconds - seconds.truncatingRemainder(dividingBy: Self.guessWindow))
        let count = try await transaction.incrementCounter(key: "code-guess:\(subject):\(purpose.rawValue)", windowStart: window)
        throw CommitAndFail(count > Self.maximumFailedAttempts ? .attemptLimitExceeded : .codeMismatch)
    }
}
