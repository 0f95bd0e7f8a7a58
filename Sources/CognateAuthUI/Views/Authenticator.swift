#if canImport(SwiftUI)
import CognateAuth
import SwiftUI

/// A ready sign-in UI around the app's signed-in content, as Amplify's `Authenticator`: it
/// shows sign-in, sign-up and every step between until someone is signed in, then `content`.
///
/// ```swift
/// Authenticator(auth: client) { state in
///     HomeView(user: state.user)
///     Button("Sign out") { Task { await state.signOut() } }
/// }
/// ```
///
/// Everything it decides is ``AuthenticatorModel``'s; these views only draw its screen.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
public struct Authenticator<Content: View>: View {
    @State private var model: AuthenticatorModel
    @Environment(\.scenePhase) private var scenePhase
    private let theme: AuthenticatorTheme
    private let content: (AuthenticatorSignedIn) -> Content

    /// An Authenticator on a model the app made (its sign-up fields, strings, options).
    public init(
        model: AuthenticatorModel, theme: AuthenticatorTheme = AuthenticatorTheme(),
        @ViewBuilder content: @escaping (AuthenticatorSignedIn) -> Content
    ) {
        _model = State(initialValue: model)
        self.theme = theme
        self.content = content
    }

    /// An Authenticator with the default sign-up form (username, email, password).
    public init(
        auth: any AuthProviding, signUpFields: [AuthenticatorField]? = nil,
        usernameAttribute: AuthenticatorModel.UsernameAttribute = .username,
        strings: AuthenticatorStrings = AuthenticatorStrings(), theme: AuthenticatorTheme = AuthenticatorTheme(),
        @ViewBuilder content: @escaping (AuthenticatorSignedIn) -> Content
    ) {
        self.init(
            model: AuthenticatorModel(
                auth: auth, signUpFields: signUpFields, usernameAttribute: usernameAttribute, strings: strings),
            theme: theme, content: content)
    }

    public var body: some View {
        Group {
            if let user = model.user {
                content(AuthenticatorSignedIn(user: user, model: model))
            } else {
                AuthenticatorForm(model: model, theme: theme)
            }
        }
        .task { await model.run() }
        .onChange(of: scenePhase) { _, phase in
            if phase == .active, model.screen == .storageUnavailable {
                Task { await model.perform(.retry) }
            }
        }
    }
}

/// The current screen of a model: logo, title, banners, fields, choices, the main button and
/// the links, all from the model.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
public struct AuthenticatorForm: View {
    let model: AuthenticatorModel
    let theme: AuthenticatorTheme

    public init(model: AuthenticatorModel, theme: AuthenticatorTheme = AuthenticatorTheme()) {
        self.model = model
        self.theme = theme
    }

    public var body: some View {
        ScrollView {
            VStack(alignment: .leading, spacing: theme.spacing) {
                if let logo = theme.logoName {
                    Image(logo)
                        .resizable()
                        .scaledToFit()
                        .frame(height: theme.logoHeight)
                        .frame(maxWidth: .infinity)
                }
                if model.screen == .loading {
                    ProgressView()
                        .frame(maxWidth: .infinity)
                } else {
                    AuthenticatorHeader(model: model, theme: theme)
                    AuthenticatorTOTPSetup(model: model, theme: theme)
                    ForEach(model.fields) { field in
                        AuthenticatorFieldView(model: model, field: field, theme: theme)
                    }
                    if model.showsPINPad {
                        AuthenticatorPINPad(model: model, theme: theme)
                    }
                    ForEach(model.choices) { choice in
                        AuthenticatorButton(
                            title: choice.title, isPrimary: choice.isSelected, isBusy: model.isBusy, theme: theme
                        ) {
                            Task { await model.choose(choice.value) }
                        }
                    }
                    if let submit = model.submitTitle {
                        AuthenticatorButton(title: submit, isPrimary: true, isBusy: model.isBusy, theme: theme) {
                            Task { await model.submit() }
                        }
                    }
                    ForEach(model.links) { link in
                        Button(link.title) { Task { await model.perform(link.action) } }
                            .font(.system(size: theme.captionFontSize))
                            .foregroundStyle(Color(authenticatorHex: theme.primaryColor))
                            .disabled(model.isBusy)
                            .frame(maxWidth: .infinity)
                    }
                }
            }
            .padding()
            .frame(maxWidth: theme.maximumWidth)
            .frame(maxWidth: .infinity)
        }
        .background(theme.backgroundColor.map { Color(authenticatorHex: $0) } ?? Color.clear)
    }
}

/// Title, instructions and the two banners.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
struct AuthenticatorHeader: View {
    let model: AuthenticatorModel
    let theme: AuthenticatorTheme

    var body: some View {
        Text(model.title)
            .font(.system(size: theme.titleFontSize, weight: .bold))
            .foregroundStyle(theme.textColor.map { Color(authenticatorHex: $0) } ?? Color.primary)
        if let message = model.message {
            Text(message)
                .font(.system(size: theme.bodyFontSize))
                .foregroundStyle(Color(authenticatorHex: theme.secondaryTextColor))
        }
        if let notice = model.notice {
            AuthenticatorBanner(text: notice, color: theme.noticeColor, theme: theme)
        }
        if let error = model.errorMessage {
            AuthenticatorBanner(text: error, color: theme.errorColor, theme: theme)
        }
    }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
struct AuthenticatorBanner: View {
    let text: String
    let color: String
    let theme: AuthenticatorTheme

    var body: some View {
        Text(text)
            .font(.system(size: theme.bodyFontSize))
            .foregroundStyle(Color(authenticatorHex: color))
            .frame(maxWidth: .infinity, alignment: .leading)
            .padding(12)
            .background(
                RoundedRectangle(cornerRadius: theme.cornerRadius)
                    .fill(Color(authenticatorHex: color).opacity(0.1)))
    }
}

/// The authenticator app's key and its `otpauth:` address, while one is set up.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
struct AuthenticatorTOTPSetup: View {
    let model: AuthenticatorModel
    let theme: AuthenticatorTheme

    var body: some View {
        if let secret = model.totpSecret {
            if let uri = model.totpSetupURI, let image = AuthenticatorQRCode.image(for: uri.absoluteString) {
                image
                    .interpolation(.none)
                    .resizable()
                    .scaledToFit()
                    .frame(width: 180, height: 180)
                    .frame(maxWidth: .infinity)
            }
            Text(model.strings.totpSecretLabel)
                .font(.system(size: theme.captionFontSize))
                .foregroundStyle(Color(authenticatorHex: theme.secondaryTextColor))
            Text(secret)
                .font(.system(size: theme.bodyFontSize, design: .monospaced))
                .authenticatorSelectable()
            if let uri = model.totpSetupURI {
                Link(model.strings.totpSetupTitle, destination: uri)
                    .font(.system(size: theme.captionFontSize))
            }
        }
    }
}

/// One field: its label, the input, its error.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
struct AuthenticatorFieldView: View {
    let model: AuthenticatorModel
    let field: AuthenticatorField
    let theme: AuthenticatorTheme

    var body: some View {
        // Binding's closures are @isolated(any) @Sendable: say they run on the main actor, as the model does.
        let text = Binding(
            get: { @MainActor in model.value(of: field.key) },
            set: { @MainActor newValue in model.setValue(newValue, for: field.key) })
        let label = field.label(in: model.strings)
        VStack(alignment: .leading, spacing: 4) {
            Text(label)
                .font(.system(size: theme.captionFontSize))
                .foregroundStyle(Color(authenticatorHex: theme.secondaryTextColor))
            Group {
                if field.isSecure {
                    SecureField(label, text: text)
                } else {
                    TextField(label, text: text)
                }
            }
            .authenticatorInput(field.kind)
            .font(.system(size: theme.bodyFontSize))
            .padding(10)
            .overlay(
                RoundedRectangle(cornerRadius: theme.cornerRadius)
                    .stroke(
                        Color(authenticatorHex: model.fieldErrors[field.key] == nil ? theme.fieldBorderColor : theme.errorColor))
            )
            .disabled(model.isBusy)
            if let problem = model.fieldErrors[field.key] {
                Text(problem)
                    .font(.system(size: theme.captionFontSize))
                    .foregroundStyle(Color(authenticatorHex: theme.errorColor))
            }
        }
    }
}

/// Digits and delete, for the PIN screen.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
struct AuthenticatorPINPad: View {
    let model: AuthenticatorModel
    let theme: AuthenticatorTheme
    private let rows: [[PINPadKey?]] = [
        [.digit(1), .digit(2), .digit(3)], [.digit(4), .digit(5), .digit(6)], [.digit(7), .digit(8), .digit(9)],
        [nil, .digit(0), .delete],
    ]

    var body: some View {
        Grid(horizontalSpacing: 12, verticalSpacing: 12) {
            ForEach(0..<rows.count, id: \.self) { row in
                GridRow {
                    ForEach(0..<rows[row].count, id: \.self) { column in
                        if let key = rows[row][column] {
                            Button {
                                model.press(key)
                            } label: {
                                Text(title(of: key))
                                    .font(.system(size: theme.titleFontSize))
                                    .frame(maxWidth: .infinity, minHeight: 56)
                            }
                            .buttonStyle(.bordered)
                            .disabled(model.isBusy)
                        } else {
                            Color.clear.frame(height: 56)
                        }
                    }
                }
            }
        }
    }

    private func title(of key: PINPadKey) -> String {
        switch key {
        case .digit(let digit): String(digit)
        case .delete: model.strings.deletePINKey
        }
    }
}

/// A full-width button; the primary one filled.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
struct AuthenticatorButton: View {
    let title: String
    let isPrimary: Bool
    let isBusy: Bool
    let theme: AuthenticatorTheme
    let action: () -> Void

    var body: some View {
        Button(action: action) {
            HStack {
                if isBusy && isPrimary { ProgressView() }
                Text(title).font(.system(size: theme.bodyFontSize, weight: .semibold))
            }
            .frame(maxWidth: .infinity)
            .padding(12)
            .foregroundStyle(Color(authenticatorHex: isPrimary ? theme.onPrimaryColor : theme.primaryColor))
            .background(
                RoundedRectangle(cornerRadius: theme.cornerRadius)
                    .fill(isPrimary ? Color(authenticatorHex: theme.primaryColor) : Color.clear)
            )
            .overlay(
                RoundedRectangle(cornerRadius: theme.cornerRadius)
                    .stroke(Color(authenticatorHex: theme.primaryColor)))
        }
        .buttonStyle(.plain)
        .disabled(isBusy)
    }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
extension View {
    /// The keyboard and autofill of a field's kind (iOS); nothing elsewhere.
    @ViewBuilder func authenticatorInput(_ kind: AuthenticatorField.Kind) -> some View {
        #if os(iOS)
        switch kind {
        case .email:
            self.keyboardType(.emailAddress).textContentType(.emailAddress).textInputAutocapitalization(.never)
                .autocorrectionDisabled()
        case .username:
            self.textContentType(.username).textInputAutocapitalization(.never).autocorrectionDisabled()
        case .phone:
            self.keyboardType(.phonePad).textContentType(.telephoneNumber)
        case .password, .confirmation:
            self.textContentType(.password)
        case .code:
            self.keyboardType(.numberPad).textContentType(.oneTimeCode)
        case .pin:
            self.keyboardType(.numberPad)
        case .date:
            self.keyboardType(.numbersAndPunctuation)
        case .text:
            self
        }
        #else
        self
        #endif
    }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
extension View {
    /// Text the user can copy (the authenticator app's key), where the platform allows it.
    @ViewBuilder func authenticatorSelectable() -> some View {
        #if os(iOS) || os(macOS)
        self.textSelection(.enabled)
        #else
        self
        #endif
    }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
extension Color {
    /// A theme color (`#RRGGBB`); clear when the text is not one.
    init(authenticatorHex hex: String) {
        if let rgba = AuthenticatorTheme.components(ofHex: hex) {
            self.init(.sRGB, red: rgba.red, green: rgba.green, blue: rgba.blue, opacity: rgba.opacity)
        } else {
            self = .clear
        }
    }
}
#endif
