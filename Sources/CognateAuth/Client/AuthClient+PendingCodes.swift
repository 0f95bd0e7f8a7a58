import Foundation

extension AuthClient {
    /// The codes this profile was sent and has not entered yet, oldest first (see
    /// ``PendingCode``): show the code screen again after a restart.
    public func pendingCodes() async throws -> [PendingCode] { try await loadRecord().pendingCodes }

    /// Forgets a pending code (the user gave up on it). Codes are forgotten on their own when
    /// the call that takes them succeeds, and with the profile's other data at sign-out.
    public func discardPendingCode(_ purpose: PendingCode.Purpose) async throws {
        try await updateRecord(publish: false) { $0.forget(purpose) }
    }

    /// Records a code just sent. Best effort: the code went out whatever the store does, so a
    /// store failure here costs only the resumption after a restart, not the call.
    func rememberCode(_ purpose: PendingCode.Purpose, delivery: CodeDelivery?) async {
        _ = try? await updateRecord(publish: false) { $0.remember(PendingCode(purpose: purpose, delivery: delivery)) }
    }

    /// Forgets a code the server accepted (best effort, like ``rememberCode(_:delivery:)``).
    func forgetCode(_ purpose: PendingCode.Purpose) async {
        _ = try? await updateRecord(publish: false) { $0.forget(purpose) }
    }
}
