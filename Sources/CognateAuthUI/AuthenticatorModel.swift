import CognateAuth
import Foundation
import Observation

/// The Authenticator's brain: which screen shows, what its fields hold and what is wrong with
/// them, whether a call is under way, the error banner, and every step of the SDK's sign-up and
/// sign-in journeys. The SwiftUI views only draw ``screen`` and call the actions; everything
/// they show comes from here (texts from ``strings``). Platform-neutral, so its journeys are
/// tested on Linux against ``FakeAuth`` and a live server.
///
/// ```swift
/// let model = AuthenticatorModel(auth: client, signUpFields: [.email(), .password(), .confirmPassword(), .text("given_name")],
///                                usernameAttribute: .email)
/// Task { await model.run() }                     // follows the auth state (the view's .task does this)
/// model.setValue("ann@example.com", for: AuthenticatorField.Key.username)
/// model.setValue("Passw0rd!", for: AuthenticatorField.Key.password)
/// await model.submit()                           // .signedIn, or the next step's screen
/// ```
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
@Observable
public final class AuthenticatorModel {
    /// What users type as their username: the pool's `UsernameAttributes` (email or phone as
    /// the username) decide it.
    public enum UsernameAttribute: Sendable, Equatable {
        case username
        case email
        case phoneNumber
    }

    // MARK: State the views draw

    /// The screen to show.
    public private(set) var screen: AuthenticatorScreen = .loading
    /// What the fields hold, by ``AuthenticatorField/key``.
    public private(set) var values: [String: String] = [:]
    /// What is wrong with a field, by key, after a submission that did not pass.
    public private(set) var fieldErrors: [String: String] = [:]
    /// Whether a call is under way (disable the form, show progress).
    public private(set) var isBusy = false
    /// The error banner: how the last action failed, in ``strings``' words.
    public private(set) var errorMessage: String?
    /// The failure behind ``errorMessage``, for apps that look closer.
    public private(set) var lastError: AuthError?
    /// An information banner (a code was sent, the password was changed …).
    public private(set) var notice: String?

    // MARK: Configuration

    @ObservationIgnored public let auth: any AuthProviding
    @ObservationIgnored public let strings: AuthenticatorStrings
    /// The sign-up form: the pool's required attributes and the password, as the app lists them.
    @ObservationIgnored public let signUpFields: [AuthenticatorField]
    @ObservationIgnored public let usernameAttribute: UsernameAttribute
    @ObservationIgnored public let signInFlow: SignInFlow
    /// Sign in with choice-based sign-in (`USER_AUTH`): the username first, then the factor.
    @ObservationIgnored public let choiceBasedSignIn: Bool
    /// Sign in with the pool's custom challenge (`CUSTOM_AUTH`, the password proved first by
    /// SRP): its questions show on ``AuthenticatorScreen/customChallenge(parameters:)``.
    @ObservationIgnored public let customChallengeSignIn: Bool
    /// Whether "create account" is offered.
    @ObservationIgnored public let offersSignUp: Bool
    /// Whether to offer a PIN after a password sign-in (when the pool has a PIN policy).
    @ObservationIgnored public let offersPINRegistration: Bool
    /// Whether to start with the PIN screen when a profile on this device has a PIN.
    @ObservationIgnored public let offersPINSignIn: Bool
    /// The issuer an authenticator app shows for the account (the `otpauth:` address).
    @ObservationIgnored public let totpIssuer: String
    /// Signs passkey challenges; without one, passkeys are not offered.
    @ObservationIgnored public let passkeyAuthenticator: (any PasskeyAuthenticator)?

    // MARK: The journey

    /// The name the user signs in with (the journey's steps name it).
    @ObservationIgnored private var username = ""
    /// The password typed at sign-up or sign-in, to sign in once the account is confirmed.
    @ObservationIgnored private var journeyPassword: String?
    /// The factors a set-up selection offered (to come back to it from the email address).
    @ObservationIgnored private var setupKinds: [MFACodeChallenge.Kind] = []
    /// The user signed in, while the PIN is offered.
    @ObservationIgnored private var signedInUser: AuthUser?
    /// The profiles with a PIN, as last read.
    private var pinProfiles: [PINProfile] = []

    /// A model over `auth`, showing ``AuthenticatorScreen/loading`` until ``run()`` or
    /// ``start()`` reads the state.
    /// - Parameters:
    ///   - signUpFields: the sign-up form; nil: ``defaultSignUpFields(_:)``.
    ///   - usernameAttribute: what users type as their username (the pool's `UsernameAttributes`).
    ///   - strings: every text shown.
    ///   - signInFlow: how the password is proved (SRP unless the app client needs `USER_PASSWORD_AUTH`).
    ///   - choiceBasedSignIn: the username first, then a factor the pool offers (`USER_AUTH`).
    ///   - customChallengeSignIn: the pool's `CUSTOM_AUTH` challenge after the password.
    ///   - offersSignUp: whether "create account" shows.
    ///   - offersPINRegistration: a PIN offered after a password sign-in, when the pool has a PIN policy.
    ///   - offersPINSignIn: the PIN screen first when a profile here has a PIN.
    ///   - totpIssuer: the name authenticator apps show for the account.
    ///   - passkeyAuthenticator: signs passkey challenges; nil: passkeys are not offered.
    public init(
        auth: any AuthProviding, signUpFields: [AuthenticatorField]? = nil, usernameAttribute: UsernameAttribute = .username,
        strings: AuthenticatorStrings = AuthenticatorStrings(), signInFlow: SignInFlow = .srp, choiceBasedSignIn: Bool = false,
        customChallengeSignIn: Bool = false, offersSignUp: Bool = true, offersPINRegistration: Bool = false,
        offersPINSignIn: Bool = true,
        totpIssuer: String = "Cognate", passkeyAuthenticator: (any PasskeyAuthenticator)? = nil
    ) {
        self.auth = auth
        self.strings = strings
        self.usernameAttribute = usernameAttribute
        self.signUpFields = signUpFields ?? Self.defaultSignUpFields(usernameAttribute)
        self.signInFlow = signInFlow
        self.choiceBasedSignIn = choiceBasedSignIn
        self.customChallengeSignIn = customChallengeSignIn
        self.offersSignUp = offersSignUp
        self.offersPINRegistration = offersPINRegistration
        self.offersPINSignIn = offersPINSignIn
        self.totpIssuer = totpIssuer
        self.passkeyAuthenticator = passkeyAuthenticator
    }

    /// The username (or email, or phone number), a password and its confirmation.
    public static func defaultSignUpFields(_ usernameAttribute: UsernameAttribute) -> [AuthenticatorField] {
        switch usernameAttribute {
        case .username: [.username(), .email(), .password(), .confirmPassword()]
        case .email: [.email(), .password(), .confirmPassword()]
        case .phoneNumber: [.phone(), .password(), .confirmPassword()]
        }
    }

    // MARK: Following the auth state

    /// Follows the auth state until the calling task is cancelled (SwiftUI's `.task`): the
    /// first state picks the first screen; a sign-out or an expired session elsewhere brings
    /// the sign-in back; a sign-in elsewhere shows the app.
    public func run() async {
        for await state in await auth.stateStream() { await apply(state) }
    }

    /// Picks the screen for the current state once (``run()`` does it for every state).
    public func start() async {
        await apply(await auth.state())
    }

    func apply(_ state: AuthState) async {
        switch state {
        case .signedIn(let user):
            switch screen {
            case .signedIn: screen = .signedIn(user)  // attributes may have changed
            case .registerPIN: break  // the PIN is offered first
            default:
                // A journey under way ends in its own step; otherwise someone signed in elsewhere.
                if !isBusy { go(.signedIn(user)) }
            }
        case .signedOut, .registrationIncomplete, .sessionExpired:
            switch screen {
            case .loading, .storageUnavailable, .signedIn, .registerPIN:
                guard !isBusy else { return }
                await showEntry()
                if state == .sessionExpired { notice = strings.sessionExpired }
            default:
                break  // signed out is where a journey runs
            }
        case .storageUnavailable:
            go(.storageUnavailable)
        }
    }

    /// The PIN screen when a profile here has a PIN (and the app offers it), else sign-in.
    private func showEntry() async {
        pinProfiles = offersPINSignIn ? ((try? await auth.pinProfiles()) ?? []) : []
        if let first = pinProfiles.first {
            go(.pinSignIn(profiles: pinProfiles, selected: first))
        } else {
            go(.signIn)
        }
    }

    // MARK: Fields

    /// The signed-in user, when the app's content shows.
    public var user: AuthUser? {
        if case .signedIn(let user) = screen { return user }
        return nil
    }

    public func value(of key: String) -> String { values[key] ?? "" }

    /// Sets a field (the views' bindings); its error goes away.
    public func setValue(_ value: String, for key: String) {
        values[key] = value
        fieldErrors[key] = nil
    }

    /// The fields of the current screen, in order.
    public var fields: [AuthenticatorField] {
        typealias Key = AuthenticatorField.Key
        let code = AuthenticatorField(key: Key.code, kind: .code)
        switch screen {
        case .signIn: return choiceBasedSignIn ? [usernameField] : [usernameField, .password()]
        case .signUp: return signUpFields
        case .confirmSignUp, .mfaCode, .totpSetup, .otpCode: return [code]
        case .newPassword(let required):
            return newPasswordFields + required.map(AuthenticatorField.attribute)
        case .forgotPassword: return [usernameField]
        case .confirmResetPassword: return [code] + newPasswordFields
        case .mfaSetupEmail: return [AuthenticatorField(key: Key.mfaEmail, kind: .email)]
        case .password: return [.password()]
        case .customChallenge: return [AuthenticatorField(key: Key.answer, kind: .text)]
        case .pinSignIn: return [AuthenticatorField(key: Key.pin, kind: .pin)]
        case .registerPIN:
            return [
                AuthenticatorField(key: Key.pin, kind: .pin),
                AuthenticatorField(key: Key.confirmPIN, kind: .confirmation(of: Key.pin)),
            ]
        case .loading, .mfaSelection, .mfaSetupSelection, .firstFactorSelection, .storageUnavailable, .signedIn:
            return []
        }
    }

    private var usernameField: AuthenticatorField {
        switch usernameAttribute {
        case .username: .username()
        case .email: AuthenticatorField(key: AuthenticatorField.Key.username, kind: .email, label: strings.emailLabel)
        case .phoneNumber: AuthenticatorField(key: AuthenticatorField.Key.username, kind: .phone, label: strings.phoneLabel)
        }
    }

    private var newPasswordFields: [AuthenticatorField] {
        [
            AuthenticatorField(key: AuthenticatorField.Key.newPassword, kind: .password),
            AuthenticatorField(
                key: AuthenticatorField.Key.confirmPassword, kind: .confirmation(of: AuthenticatorField.Key.newPassword)),
        ]
    }

    /// Checks every field of the screen; false (and ``fieldErrors`` set) when one is wrong.
    @discardableResult
    public func validate() -> Bool {
        var problems: [String: String] = [:]
        let policy: PinPolicy? = if case .registerPIN(let policy) = screen { policy } else { nil }
        for field in fields {
            if let problem = field.problem(with: value(of: field.key), values: values, strings: strings, pinPolicy: policy) {
                problems[field.key] = problem
            }
        }
        fieldErrors = problems
        return problems.isEmpty
    }

    // MARK: What the screen shows

    public var title: String {
        switch screen {
        case .loading: strings.loadingTitle
        case .signIn: strings.signInTitle
        case .signUp: strings.signUpTitle
        case .confirmSignUp: strings.confirmSignUpTitle
        case .newPassword: strings.newPasswordTitle
        case .forgotPassword: strings.forgotPasswordTitle
        case .confirmResetPassword: strings.confirmResetPasswordTitle
        case .mfaCode: strings.mfaCodeTitle
        case .mfaSelection: strings.mfaSelectionTitle
        case .totpSetup: strings.totpSetupTitle
        case .mfaSetupSelection: strings.mfaSetupSelectionTitle
        case .mfaSetupEmail: strings.mfaSetupEmailTitle
        case .firstFactorSelection: strings.firstFactorSelectionTitle
        case .password: strings.passwordTitle
        case .otpCode: strings.otpCodeTitle
        case .customChallenge: strings.customChallengeTitle
        case .pinSignIn: strings.pinSignInTitle
        case .registerPIN: strings.registerPINTitle
        case .storageUnavailable: strings.storageUnavailableTitle
        case .signedIn: ""
        }
    }

    /// The screen's instructions (where the code went …).
    public var message: String? {
        switch screen {
        case .confirmSignUp(_, let delivery), .confirmResetPassword(_, let delivery): return sentMessage(delivery?.destination)
        case .mfaCode(let challenge):
            switch challenge.kind {
            case .totp: return strings.mfaCodeFromApp
            case .sms, .email: return sentMessage(challenge.destination)
            }
        case .otpCode(let delivery): return sentMessage(delivery.destination)
        case .totpSetup: return strings.totpSetupInstructions
        case .mfaSetupEmail: return strings.mfaSetupEmailInstructions
        case .newPassword: return strings.newPasswordInstructions
        case .forgotPassword: return strings.forgotPasswordInstructions
        case .customChallenge: return strings.customChallengePrompt
        case .pinSignIn(_, let selected): return strings.pinSignInAs(strings.pinProfileName(selected))
        case .registerPIN: return strings.registerPINInstructions
        case .storageUnavailable: return strings.storageUnavailableMessage
        case .loading, .signIn, .signUp, .mfaSelection, .mfaSetupSelection, .firstFactorSelection, .password, .signedIn:
            return nil
        }
    }

    private func sentMessage(_ destination: String?) -> String {
        guard let destination, !destination.isEmpty else { return strings.codeSent }
        return strings.codeSentTo(destination)
    }

    /// The authenticator app's key, while one is set up.
    public var totpSecret: String? {
        if case .totpSetup(let secret, _) = screen { return secret }
        return nil
    }

    /// The `otpauth:` address to draw as a QR code, while an authenticator app is set up.
    public var totpSetupURI: URL? {
        if case .totpSetup(_, let uri) = screen { return uri }
        return nil
    }

    /// Whether the screen takes a PIN on the pad.
    public var showsPINPad: Bool {
        if case .pinSignIn = screen { return true }
        return false
    }

    /// The main button's text; nil when the screen has none (a selection, the app's content).
    public var submitTitle: String? {
        switch screen {
        case .signIn, .password, .pinSignIn: strings.signInButton
        case .signUp: strings.signUpButton
        case .confirmSignUp, .mfaCode, .totpSetup, .otpCode, .customChallenge: strings.confirmButton
        case .newPassword: strings.submitPasswordButton
        case .forgotPassword: strings.sendCodeButton
        case .confirmResetPassword: strings.resetPasswordButton
        case .mfaSetupEmail: strings.continueButton
        case .registerPIN: strings.registerPINButton
        case .storageUnavailable: strings.retryButton
        case .loading, .mfaSelection, .mfaSetupSelection, .firstFactorSelection, .signedIn: nil
        }
    }

    /// The options of a selection screen (and the profiles of the PIN screen, when several).
    public var choices: [AuthenticatorChoice] {
        switch screen {
        case .mfaSelection(let kinds):
            return kinds.map { AuthenticatorChoice(title: name(of: $0), value: .mfa($0), isSelected: false) }
        case .mfaSetupSelection(let kinds):
            return kinds.map { AuthenticatorChoice(title: name(of: $0), value: .mfaSetup($0), isSelected: false) }
        case .firstFactorSelection(let factors):
            return factors.map {
                AuthenticatorChoice(
                    title: strings.firstFactorNames[$0] ?? $0.rawValue, value: .firstFactor($0), isSelected: false)
            }
        case .pinSignIn(let profiles, let selected) where profiles.count > 1:
            return profiles.map {
                AuthenticatorChoice(title: strings.pinProfileName($0), value: .pinProfile($0.profile), isSelected: $0 == selected)
            }
        default:
            return []
        }
    }

    private func name(of kind: MFACodeChallenge.Kind) -> String { strings.mfaKindNames[kind] ?? kind.rawValue }

    /// The screen's secondary actions, in order.
    public var links: [AuthenticatorLink] {
        func link(_ action: AuthenticatorAction) -> AuthenticatorLink {
            let title =
                switch action {
                case .submit: submitTitle ?? ""
                case .back: strings.backLink
                case .goToSignUp: strings.goToSignUpLink
                case .goToSignIn: strings.goToSignInLink
                case .goToForgotPassword: strings.forgotPasswordLink
                case .resendCode: strings.resendCodeLink
                case .usePassword: strings.usePasswordLink
                case .usePIN: strings.usePINLink
                case .usePasskey: strings.usePasskeyLink
                case .skip: strings.skipLink
                case .retry: strings.retryButton
                case .signOut: strings.signOutButton
                }
            return AuthenticatorLink(title: title, action: action)
        }
        switch screen {
        case .signIn:
            return (passkeyAuthenticator == nil ? [] : [link(.usePasskey)])
                + [link(.goToForgotPassword)] + (offersSignUp ? [link(.goToSignUp)] : [])
                + (pinProfiles.isEmpty ? [] : [link(.usePIN)])
        case .signUp: return [link(.goToSignIn)]
        case .confirmSignUp, .confirmResetPassword: return [link(.resendCode), link(.back)]
        case .password: return [link(.goToForgotPassword), link(.back)]
        case .newPassword, .forgotPassword, .mfaCode, .mfaSelection, .totpSetup, .mfaSetupSelection, .mfaSetupEmail,
            .firstFactorSelection, .otpCode, .customChallenge:
            return [link(.back)]
        case .pinSignIn: return [link(.usePassword)]
        case .registerPIN: return [link(.skip)]
        case .loading, .storageUnavailable, .signedIn: return []
        }
    }

    // MARK: Actions

    /// Runs one of the screen's actions.
    public func perform(_ action: AuthenticatorAction) async {
        switch action {
        case .submit: await submit()
        case .back: back()
        case .goToSignUp: go(.signUp)
        case .goToSignIn, .usePassword: go(.signIn)
        case .goToForgotPassword: go(.forgotPassword)
        case .resendCode: await resendCode()
        case .usePIN: await showEntry()
        case .usePasskey: await signInWithPasskey()
        case .skip: skip()
        case .retry: await apply(await auth.reloadState())
        case .signOut: await signOut()
        }
    }

    /// The sign-in screen's passkey button: choice-based sign-in preferring the passkey for the
    /// typed name; the passkey step that follows is signed by ``passkeyAuthenticator``.
    func signInWithPasskey() async {
        guard !isBusy, case .signIn = screen, passkeyAuthenticator != nil else { return }
        let name = (values[AuthenticatorField.Key.username] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else {
            let label = fields.first { $0.key == AuthenticatorField.Key.username }?.label(in: strings) ?? strings.usernameLabel
            fieldErrors = [AuthenticatorField.Key.username: strings.requiredField(label)]
            return
        }
        fieldErrors = [:]
        username = name
        journeyPassword = nil
        await step { try await $0.signIn(username: name, preferred: .webAuthn) }
    }

    /// Submits the screen's form: checks its fields, then takes the journey's next step.
    public func submit() async {
        typealias Key = AuthenticatorField.Key
        guard !isBusy else { return }  // a second tap while the first one runs
        if case .storageUnavailable = screen { return await perform(.retry) }
        guard validate() else { return }
        let values = values.mapValues { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        let raw = self.values
        switch screen {
        case .signIn:
            username = values[Key.username] ?? ""
            if choiceBasedSignIn {
                journeyPassword = nil
                await step { [username] in try await $0.signIn(username: username, preferred: nil) }
            } else if customChallengeSignIn {
                let password = raw[Key.password] ?? ""
                journeyPassword = password
                await step { [username] in try await $0.signInWithCustomChallenge(username: username, password: password) }
            } else {
                let password = raw[Key.password] ?? ""
                journeyPassword = password
                await step { [username, signInFlow] in
                    try await $0.signIn(username: username, password: password, flow: signInFlow)
                }
            }
        case .signUp:
            await signUp(values: values, raw: raw)
        case .confirmSignUp(let name, _):
            await confirmSignUp(username: name, code: values[Key.code] ?? "")
        case .newPassword(let required):
            let attributes = Dictionary(uniqueKeysWithValues: required.map { ($0, values[$0] ?? "") })
            let password = raw[Key.newPassword] ?? ""
            await step { try await $0.confirmSignIn(newPassword: password, attributes: attributes) }
        case .forgotPassword:
            username = values[Key.username] ?? ""
            await busy { [username] model in
                let delivery = try await model.auth.forgotPassword(username: username)
                model.go(.confirmResetPassword(username: username, delivery: delivery))
            }
        case .confirmResetPassword(let name, _):
            let code = values[Key.code] ?? "", password = raw[Key.newPassword] ?? ""
            await busy { model in
                try await model.auth.confirmForgotPassword(username: name, code: code, newPassword: password)
                model.go(.signIn)
                model.values[Key.username] = name
                model.notice = model.strings.passwordChanged
            }
        case .mfaCode, .totpSetup:
            let code = values[Key.code] ?? ""
            await step { try await $0.confirmSignIn(mfaCode: code) }
        case .mfaSetupEmail:
            let email = values[Key.mfaEmail] ?? ""
            await step { try await $0.confirmSignIn(mfaSetup: .email, email: email) }
        case .password:
            let password = raw[Key.password] ?? ""
            journeyPassword = password
            await step { try await $0.confirmSignIn(password: password) }
        case .otpCode:
            let code = values[Key.code] ?? ""
            await step { try await $0.confirmSignIn(otpCode: code) }
        case .customChallenge:
            let answer = values[Key.answer] ?? ""
            await step { try await $0.confirmSignIn(challengeResponse: answer) }
        case .pinSignIn(_, let selected):
            let pin = raw[Key.pin] ?? ""
            await busy(
                { model in
                    let step = try await model.auth.signIn(withPIN: pin, profile: selected.profile)
                    await model.handle(step, viaPIN: true)
                },
                onError: { model, error in
                    model.values[Key.pin] = ""
                    switch error {
                    case .pinAttemptsExhausted, .pinNotRegistered:
                        // The profile has no PIN any more: the password it is (the banner stays).
                        let message = model.errorMessage
                        model.pinProfiles.removeAll { $0 == selected }
                        model.go(.signIn)
                        model.values[Key.username] = selected.username
                        model.errorMessage = message
                        model.lastError = error
                    default:
                        break
                    }
                })
        case .registerPIN:
            let pin = raw[Key.pin] ?? ""
            await busy { model in
                try await model.auth.registerPIN(pin)
                model.finishPINOffer()
            }
        case .loading, .mfaSelection, .mfaSetupSelection, .firstFactorSelection, .storageUnavailable, .signedIn:
            break
        }
    }

    /// Takes one of ``choices``.
    public func choose(_ choice: AuthenticatorChoice.Value) async {
        guard !isBusy else { return }
        switch choice {
        case .mfa(let kind):
            await step { try await $0.confirmSignIn(mfaType: kind) }
        case .mfaSetup(.email):
            go(.mfaSetupEmail)
            if usernameAttribute == .email { values[AuthenticatorField.Key.mfaEmail] = username }
        case .mfaSetup(let kind):
            await step { try await $0.confirmSignIn(mfaSetup: kind, email: nil) }
        case .firstFactor(let factor):
            await step { try await $0.confirmSignIn(firstFactor: factor) }
        case .pinProfile(let name):
            guard case .pinSignIn(let profiles, _) = screen, let profile = profiles.first(where: { $0.profile == name }) else {
                return
            }
            screen = .pinSignIn(profiles: profiles, selected: profile)
            values[AuthenticatorField.Key.pin] = ""
            errorMessage = nil
        }
    }

    /// A key of the PIN pad: a digit appends to the PIN, delete removes the last one.
    public func press(_ key: PINPadKey) {
        let key0 = AuthenticatorField.Key.pin
        var pin = value(of: key0)
        switch key {
        case .digit(let digit):
            guard (0...9).contains(digit), pin.count < 64 else { return }
            pin.append(String(digit))
        case .delete:
            _ = pin.popLast()
        }
        setValue(pin, for: key0)
    }

    /// One screen back (a challenge's back abandons the sign-in).
    public func back() {
        switch screen {
        case .confirmResetPassword: go(.forgotPassword)
        case .mfaSetupEmail where setupKinds.count > 1: go(.mfaSetupSelection(setupKinds))
        default: go(.signIn)
        }
    }

    /// Sends a new code for the screen's confirmation.
    public func resendCode() async {
        switch screen {
        case .confirmSignUp(let name, _):
            await busy { model in
                let delivery = try await model.auth.resendSignUpCode(username: name)
                model.screen = .confirmSignUp(username: name, delivery: delivery)
                model.notice = model.sentMessage(delivery?.destination)
            }
        case .confirmResetPassword(let name, _):
            await busy { model in
                let delivery = try await model.auth.forgotPassword(username: name)
                model.screen = .confirmResetPassword(username: name, delivery: delivery)
                model.notice = model.sentMessage(delivery?.destination)
            }
        default:
            break
        }
    }

    /// Signs out (the app's content calls it), back to the first screen.
    public func signOut() async {
        await busy { model in
            try await model.auth.signOut()
            await model.showEntry()
        }
    }

    private func skip() {
        if case .registerPIN = screen { finishPINOffer() }
    }

    // MARK: The journeys

    private func signUp(values: [String: String], raw: [String: String]) async {
        typealias Key = AuthenticatorField.Key
        let name =
            switch usernameAttribute {
            case .username: values[Key.username] ?? ""
            case .email: values["email"] ?? ""
            case .phoneNumber: values["phone_number"] ?? ""
            }
        let password = raw[Key.password].flatMap { $0.isEmpty ? nil : $0 }
        var attributes: [String: String] = [:]
        for field in signUpFields where field.isAttribute {
            if let value = values[field.key], !value.isEmpty { attributes[field.key] = value }
        }
        username = name
        journeyPassword = password
        await busy { model in
            let result = try await model.auth.signUp(username: name, password: password, attributes: attributes)
            await model.afterSignUp(result.nextStep, username: name)
        }
    }

    private func afterSignUp(_ next: SignUpResult.NextStep, username name: String) async {
        switch next {
        case .confirmSignUp(let delivery):
            go(.confirmSignUp(username: name, delivery: delivery))
        case .completeAutoSignIn:
            await signInAfterConfirmation(try? await auth.autoSignIn(), username: name)
        case .done:
            await signInAfterConfirmation(nil, username: name)
        }
    }

    private func confirmSignUp(username name: String, code: String) async {
        await busy { model in
            let next = try await model.auth.confirmSignUp(username: name, code: code)
            switch next {
            case .confirmSignUp(let delivery): model.go(.confirmSignUp(username: name, delivery: delivery))
            case .completeAutoSignIn: await model.signInAfterConfirmation(try? await model.auth.autoSignIn(), username: name)
            case .done: await model.signInAfterConfirmation(nil, username: name)
            }
        }
    }

    /// After a confirmed sign-up: the auto sign-in's step, or a sign-in with the password typed
    /// earlier, or the sign-in screen with the username filled in.
    private func signInAfterConfirmation(_ autoSignIn: SignInStep?, username name: String) async {
        if let autoSignIn { return await handle(autoSignIn) }
        if let password = journeyPassword, !password.isEmpty {
            do {
                return await handle(try await auth.signIn(username: name, password: password, flow: signInFlow))
            } catch {
                // Signed up but not signed in (a pool that does not allow this flow): sign in by hand.
            }
        }
        go(.signIn)
        values[AuthenticatorField.Key.username] = name
        notice = strings.accountConfirmed
    }

    /// Moves to the screen of a sign-in step.
    func handle(_ step: SignInStep, viaPIN: Bool = false) async {
        switch step {
        case .signedIn(let user):
            await signedIn(user, viaPIN: viaPIN)
        case .newPasswordRequired(let required, _):
            go(.newPassword(requiredAttributes: required))
        case .confirmSignUp(let name):
            username = name
            go(.confirmSignUp(username: name, delivery: nil))
        case .resetPassword(let name):
            go(.confirmResetPassword(username: name, delivery: nil))
        case .mfaCode(let challenge):
            go(.mfaCode(challenge))
        case .mfaSelection(let kinds):
            go(.mfaSelection(kinds))
        case .totpSetup(let setup):
            go(.totpSetup(secret: setup.sharedSecret, uri: setup.setupURI(issuer: totpIssuer, accountName: username)))
        case .mfaSetupSelection(let kinds):
            setupKinds = kinds
            if kinds == [.email] {
                await choose(.mfaSetup(.email))
            } else {
                go(.mfaSetupSelection(kinds))
            }
        case .customChallenge(let parameters, _):
            go(.customChallenge(parameters: parameters))
        case .firstFactorSelection(let factors):
            go(.firstFactorSelection(offered(factors)))
        case .passwordRequired:
            go(.password)
        case .otpCode(let delivery):
            go(.otpCode(delivery))
        case .passkeyRequired:
            guard let passkeyAuthenticator else {
                go(.signIn)
                values[AuthenticatorField.Key.username] = username
                errorMessage = strings.passkeyUnavailable
                return
            }
            do {
                await handle(try await auth.confirmSignIn(passkey: passkeyAuthenticator))
            } catch let error as AuthError {
                show(error)
            } catch {}
        }
    }

    /// The first factors to show: passkeys only with an authenticator, one password entry.
    private func offered(_ factors: [FirstFactor]) -> [FirstFactor] {
        var shown: [FirstFactor] = []
        for factor in factors {
            if factor == .webAuthn && passkeyAuthenticator == nil { continue }
            if factor.isPassword && shown.contains(where: \.isPassword) { continue }
            shown.append(factor)
        }
        return shown
    }

    private func signedIn(_ user: AuthUser, viaPIN: Bool) async {
        journeyPassword = nil
        if offersPINRegistration && !viaPIN, let policy = try? await auth.pinPolicy() {
            let profiles = (try? await auth.pinProfiles()) ?? []
            if !profiles.contains(where: { $0.username == user.username }) {
                signedInUser = user
                go(.registerPIN(policy: policy))
                return
            }
        }
        go(.signedIn(user))
    }

    private func finishPINOffer() {
        guard let user = signedInUser else { return go(.signIn) }
        signedInUser = nil
        go(.signedIn(user))
    }

    // MARK: Plumbing

    /// Shows `next`: its fields start empty (but the username), no banner.
    private func go(_ next: AuthenticatorScreen) {
        typealias Key = AuthenticatorField.Key
        screen = next
        switch next {
        case .signIn, .signUp, .forgotPassword, .signedIn: journeyPassword = nil
        default: break
        }
        fieldErrors = [:]
        errorMessage = nil
        lastError = nil
        notice = nil
        for key in [Key.password, Key.confirmPassword, Key.newPassword, Key.code, Key.answer, Key.pin, Key.confirmPIN] {
            values[key] = nil
        }
        if case .signUp = next {
            for field in signUpFields { values[field.key] = nil }
        }
    }

    private func show(_ error: AuthError) {
        lastError = error
        errorMessage = strings.message(for: error)
    }

    /// A sign-in call whose step decides the next screen.
    private func step(_ call: @escaping @MainActor (any AuthProviding) async throws -> SignInStep) async {
        await busy { model in await model.handle(try await call(model.auth)) }
    }

    /// Runs `body` with ``isBusy`` set; an ``AuthError`` becomes the banner (and goes to
    /// `onError`); cancellation shows nothing.
    private func busy(
        _ body: @MainActor (AuthenticatorModel) async throws -> Void,
        onError: @MainActor (AuthenticatorModel, AuthError) -> Void = { _, _ in }
    ) async {
        isBusy = true
        errorMessage = nil
        lastError = nil
        notice = nil
        defer { isBusy = false }
        do {
            try await body(self)
        } catch let error as AuthError {
            show(error)
            onError(self, error)
        } catch is CancellationError {
        } catch {
            errorMessage = strings.unexpectedError
        }
    }
}

/// What the app's signed-in content gets from the Authenticator (Amplify's `SignedInState`):
/// the user and a way to sign out.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
public struct AuthenticatorSignedIn {
    public let user: AuthUser
    let model: AuthenticatorModel

    public init(user: AuthUser, model: AuthenticatorModel) {
        self.user = user
        self.model = model
    }

    public func signOut() async { await model.signOut() }
}
