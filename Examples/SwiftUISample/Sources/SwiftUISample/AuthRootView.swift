#if canImport(SwiftUI)
import CognateAuth
import SwiftUI

/// The root of an app's signed-in / signed-out UI on ``AuthModel``: a sign-in form until
/// someone is signed in, then the app's own content. The model follows the client's state
/// while the view is shown, and reads the Keychain again whenever the app becomes active (a
/// launch before the first unlock shows `storageUnavailable` until then).
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
    @State private var model: AuthModel
    @Environment(\.scenePhase) private var scenePhase
    private let home: (AuthUser) -> Home

    public init(auth: any AuthProviding, @ViewBuilder home: @escaping (AuthUser) -> Home) {
        _model = State(initialValue: AuthModel(auth: auth))
        self.home = home
    }

    public var body: some View {
        content
            .task { await model.observe() }
            .onChange(of: scenePhase) { _, phase in
                if phase == .active { Task { await model.reload() } }
            }
    }

    @ViewBuilder private var content: some View {
        switch model.state {
        case nil:
            ProgressView()
        case .signedIn(let user)?:
            VStack {
                home(user)
                Button("Sign out") { Task { await model.perform { try await $0.signOut() } } }
                    .disabled(model.isWorking)
            }
        case .storageUnavailable?:
            ContentUnavailableView(
                "Unlock your device", systemImage: "lock",
                description: Text("Your account is stored securely on this device and can be read once it is unlocked."))
        case .sessionExpired?:
            SignInForm(model: model, notice: "Your session has ended. Please sign in again.")
        case .signedOut?, .registrationIncomplete?:
            SignInForm(model: model, notice: nil)
        }
    }
}

/// Email and password, the model's error under them, and the steps a sign-in can stop at.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
struct SignInForm: View {
    let model: AuthModel
    let notice: String?
    @State private var email = ""
    @State private var password = ""
    @State private var nextStep: String?

    var body: some View {
        Form {
            if let notice { Text(notice) }
            TextField("Email", text: $email)
                .textContentType(.username)
            SecureField("Password", text: $password)
                .textContentType(.password)
            if let error = model.lastError {
                Text(error.localizedDescription).foregroundStyle(.red)
            }
            if let nextStep { Text(nextStep) }
            Button("Sign in") { Task { await signIn() } }
                .disabled(model.isWorking || email.isEmpty || password.isEmpty)
        }
    }

    private func signIn() async {
        let name = email, secret = password
        guard let step = await model.perform({ try await $0.signIn(username: name, password: secret) }) else { return }
        password = ""
        switch step {
        case .signedIn:
            nextStep = nil  // the model's state moves to signedIn: AuthRootView shows the app
        case .confirmSignUp:
            nextStep = "Confirm your email with the code we sent you (RegistrationFlow.resume())."
        case .resetPassword:
            nextStep = "Your password must be reset: we sent you a code."
        case .newPasswordRequired:
            nextStep = "Choose a new password (confirmSignIn(newPassword:))."
        case .mfaCode:
            nextStep = "Enter the code of your second factor (confirmSignIn(mfaCode:))."
        case .customChallenge:
            nextStep = "Answer the pool's challenge (confirmSignIn(challengeResponse:))."
        case .totpSetup:
            nextStep = "Add the account to your authenticator app, then enter its code (confirmSignIn(mfaCode:))."
        case .mfaSelection:
            nextStep = "Choose your second factor (confirmSignIn(mfaType:))."
        case .mfaSetupSelection:
            nextStep = "Choose a second factor to set up (confirmSignIn(mfaSetup:email:))."
        case .firstFactorSelection, .passwordRequired, .otpCode, .passkeyRequired:
            nextStep = nil  // password sign-in never leads to a choice-based step
        }
    }
}
#endif
