import CognateAuth
import Foundation
import Testing

@testable import CognateAuthUI

typealias Key = AuthenticatorField.Key

extension AuthenticatorModel {
    /// Types `values` into the fields, as the views' bindings do.
    func fill(_ values: [String: String]) {
        for (key, value) in values { setValue(value, for: key) }
    }

    /// Fills the fields and submits.
    func submit(_ values: [String: String]) async {
        fill(values)
        await submit()
    }

    /// Waits (up to five seconds) until `condition` holds; records an issue when it never does.
    func waitUntil(
        _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: @MainActor (AuthenticatorModel) -> Bool
    ) async {
        for _ in 0..<500 {
            if condition(self) { return }
            try? await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("timed out waiting for \(what); screen: \(screen)", sourceLocation: sourceLocation)
    }

    /// Whether the screen is the app's content.
    var isSignedIn: Bool { user != nil }
}

/// The user the screen shows as signed in, or an issue.
@MainActor
func expectSignedIn(_ model: AuthenticatorModel, as username: String, sourceLocation: SourceLocation = #_sourceLocation) {
    guard case .signedIn(let user) = model.screen else {
        Issue.record(
            "expected signedIn, screen \(model.screen), banner \(model.errorMessage ?? "none")", sourceLocation: sourceLocation)
        return
    }
    #expect(user.username == username, sourceLocation: sourceLocation)
    #expect(model.errorMessage == nil, sourceLocation: sourceLocation)
}
