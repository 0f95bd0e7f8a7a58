#if canImport(SwiftUI)
import CognateAuth
import CognateAuthUI
import SwiftUI

/// The root of an app's UI on CognateAuthUI's ``Authenticator``: sign-in, sign-up, password
/// reset, MFA and the PIN until someone is signed in, then the app's own content with a
/// sign-out button. Every screen and every decision is the Authenticator's model's; the app
/// says which attributes its pool requires, how it looks, and what it shows once signed in.
///
/// ```swift
/// @main struct HealthApp: App {
///     let auth = AuthClient(configuration: .production)     // or any AuthProviding, a fake in UI tests
///     var body: some Scene {
///         WindowGroup { AuthRootView(auth: auth) { user in HomeView(user: user) } }
///     }
/// }
/// ```
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
public struct AuthRootView<Home: View>: View {
    @State private var model: AuthenticatorModel
    private let home: (AuthUser) -> Home

    public init(auth: any AuthProviding, @ViewBuilder home: @escaping (AuthUser) -> Home) {
        // A pool where users sign in with their email and must give their first name.
        _model = State(
            initialValue: AuthenticatorModel(
                auth: auth,
                signUpFields: [.email(), .password(), .confirmPassword(), .text("given_name")],
                usernameAttribute: .email,
                offersPINRegistration: true,
                totpIssuer: "Health"))
        self.home = home
    }

    public var body: some View {
        Authenticator(model: model, theme: Self.theme) { state in
            VStack {
                home(state.user)
                Button(model.strings.signOutButton) { Task { await state.signOut() } }
                    .disabled(model.isBusy)
            }
        }
    }

    private static var theme: AuthenticatorTheme {
        var theme = AuthenticatorTheme()
        theme.primaryColor = "#0B6E4F"
        theme.cornerRadius = 12
        return theme
    }
}
#endif
