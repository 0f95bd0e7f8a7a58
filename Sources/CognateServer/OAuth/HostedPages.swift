import CognateCore
import CognateProtocol
import Foundation
import HTTPTypes
import Hummingbird

/// The hosted sign-in pages: server-rendered HTML, usable without JavaScript but for passkeys
/// (whose pages run ``HostedPageScript``, allowed by its hash), accessible (labelled fields,
/// autocomplete hints, errors announced with `role="alert"`), every value escaped. Each page is
/// a card with the app's logo and name, one primary button, and its other actions as links; its
/// look is ``HostedPageTheme`` with the client's branding. Each form posts to `/login` (or
/// `/passkeys/add`: the request's ``AuthorizationRequest/pagePath``, with the request in the
/// query, so that an error page can lead back to the sign-in) with its flow, which must belong
/// to the browser the flow began in (its ``BrowserBinding`` cookie: `HttpOnly`, `SameSite=Lax`,
/// so a cross-site page can neither read it nor have it sent with a form it posts).
enum HostedPages {
    /// The browser binding's cookie: `__Host-cognate_browser` where the public URL is https (the
    /// prefix makes browsers refuse it from a sibling subdomain or over plain http, so no one can
    /// plant a binding they know), `cognate_browser` on http (local development).
    static func browserCookieName(secure: Bool) -> String { secure ? "__Host-cognate_browser" : "cognate_browser" }
    /// The proof of a recent sign-in `/passkeys/add` takes (sent to `/passkeys` only).
    static let signedInCookieName = "cognate_signed_in"
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'"
    /// The policy of a page with the passkey script: that script, by its hash, and nothing else.
    static let scriptContentSecurityPolicy =
        "default-src 'none'; script-src \(HostedPageScript.hashSource); style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'"

    /// The browser's binding: its cookie's, or a new one (`isNew`: set the cookie).
    static func browser(of request: Request, secure: Bool) -> (binding: BrowserBinding, isNew: Bool) {
        if let known = knownBrowser(of: request, secure: secure) { return (known, false) }
        return (BrowserBinding.new(), true)
    }

    /// The browser's binding, if its cookie carries one.
    static func knownBrowser(of request: Request, secure: Bool) -> BrowserBinding? {
        BrowserBinding(cookieValue: request.cookies[browserCookieName(secure: secure)]?.value)
    }

    /// What a provider's button says after "Continue with": the brand of a social provider, the
    /// name an administrator gave any other.
    static func providerLabel(_ provider: (name: String, type: IdentityProviderTypeType)) -> String {
        switch provider.type {
        case .google: "Google"
        case .facebook: "Facebook"
        case .loginWithAmazon: "Amazon"
        case .signInWithApple: "Apple"
        default: provider.name
        }
    }

    /// The `Set-Cookie` value that keeps `binding` in the browser (an hour after its latest page).
    static func browserCookie(_ binding: BrowserBinding, secure: Bool) -> String {
        "\(browserCookieName(secure: secure))=\(binding.cookieValue); Path=/; Max-Age=3600; HttpOnly; SameSite=Lax\(secure ? "; Secure" : "")"
    }

    /// The single sign-on session's cookie (``HostedSessions``), `__Host-` prefixed on https.
    static func sessionCookieName(secure: Bool) -> String { secure ? "__Host-cognate_session" : "cognate_session" }

    /// The `Set-Cookie` value that keeps the single sign-on session (nil: removes it, as
    /// signing out does). `SameSite=Lax`: an app's link to `/oauth2/authorize` brings it.
    static func sessionCookie(_ session: String?, secure: Bool) -> String {
        "\(sessionCookieName(secure: secure))=\(session ?? ""); Path=/; Max-Age=\(session == nil ? 0 : 3600); HttpOnly; SameSite=Lax"
            + (secure ? "; Secure" : "")
    }

    /// The `Set-Cookie` value that keeps a recent sign-in's proof for `/passkeys/add` (nil:
    /// removes it, as signing out does). `SameSite=Lax`: an app's link to `/passkeys/add` brings
    /// it, a form another site posts does not.
    static func signedInCookie(_ proof: String?, secure: Bool) -> String {
        "\(signedInCookieName)=\(proof ?? ""); Path=/passkeys; Max-Age=\(proof == nil ? 0 : Int(OAuth.recentSignInLifetime)); HttpOnly; SameSite=Lax"
            + (secure ? "; Secure" : "")
    }

    /// What goes in a page's card.
    struct Card {
        var title: String
        /// The sentence under the title (escaped HTML).
        var lead: String?
        /// A branding illustration: `password`, `authApp`, `email`, `sms` or `passkey`.
        var graphic: String?
        var error: String?
        var notice: String?
        /// The page's form and anything else above the divider (HTML).
        var body: String
        /// The secondary actions below the divider: links, and forms whose button looks like one (HTML).
        var alternatives: [String] = []
        /// The page runs the passkey script (``HostedPageScript``).
        var script = false
    }

    /// `terms`: the client's terms of use and privacy policy (name, URL), shown on the sign-up page.
    /// `offer`: the client's identity providers, offered as buttons on the sign-in page, and the
    /// email field that finds a SAML provider by domain.
    static func page(_ page: HostedPage, flow: String, request: AuthorizationRequest, style: HostedPageStyle,
                     terms: [(name: String, url: String)] = [], offer: SignInOffer = SignInOffer()) -> Response {
        let query = escape(request.query)
        let signIn = "\(request.pagePath)?\(query)"
        let backToSignIn = "<p><a class=\"redirect-customizable\" href=\"\(signIn)\">Back to sign in</a></p>"
        let notYou = "<p>Not you? <a class=\"redirect-customizable\" href=\"\(signIn)\">Sign in as someone else</a></p>"
        let app = style.appName.map(escape)
        // On /passkeys/add, the sign-in says what it is for, and offers no sign-up or reset (their
        // pages would lead to the app, not back here).
        let purposeLead = request.purpose == .addPasskey ? "Sign in to add a passkey to your account." : nil
        let forgotPassword = request.purpose == nil
            ? "<p class=\"field-link\"><a class=\"redirect-customizable\" href=\"/forgotPassword?\(query)\">Forgot your password?</a></p>"
            : ""
        func signingInAs(_ username: String, _ then: String = "") -> String {
            "Signing in as <strong>\(escape(username))</strong>.\(then.isEmpty ? "" : " " + then)"
        }
        /// "Choose another way": back to the factors the user is offered (a post: it uses the flow).
        func chooseAnother(_ canChoose: Bool) -> String? {
            guard canChoose else { return nil }
            return """
                <form method="post" action="\(signIn)"><p><input type="hidden" name="flow" value="\(escape(flow))">\
                <input type="hidden" name="other" value="1">\
                <button class="link-button redirect-customizable" type="submit">Choose another way</button></p></form>
                """
        }
        /// A passkey ceremony's form: the options for the script, the answer it posts, and the
        /// message it shows when the browser refuses.
        func passkeyForm(_ ceremony: String, options: String, button: String) -> String {
            """
            <form method="post" action="\(signIn)" id="passkey-form" data-ceremony="\(ceremony)" data-options="\(escape(options))">
            <input type="hidden" name="flow" value="\(escape(flow))">
            <input type="hidden" name="credential" value="">
            <div class="alert error errorMessage-customizable" role="alert" id="passkey-error" hidden><span></span></div>
            <noscript><div class="alert error errorMessage-customizable" role="alert"><span>Passkeys need JavaScript, which this \
            browser has turned off.</span></div></noscript>
            <button class="primary submitButton-customizable" type="button" id="passkey-button">\(escape(button))</button>
            </form>
            """
        }
        func form(_ fields: String, submit: String) -> String {
            """
            <form method="post" action="\(signIn)">
            <input type="hidden" name="flow" value="\(escape(flow))">
            \(fields)
            <button class="primary submitButton-customizable" type="submit">\(escape(submit))</button>
            </form>
            """
        }
        /// A secondary action that must post (it uses the flow): a form whose button looks like a link.
        func linkForm(_ text: String, _ button: String, name: String) -> String {
            """
            <form method="post" action="\(signIn)"><p>\(escape(text)) \
            <input type="hidden" name="flow" value="\(escape(flow))"><input type="hidden" name="\(name)" value="1">\
            <button class="link-button redirect-customizable" type="submit">\(escape(button))</button></p></form>
            """
        }
        /// "Continue with …": a link per identity provider of the client, to the same
        /// authorization request through that provider (not on `/passkeys/add`'s sign-in).
        var providerButtons: [String] = request.purpose != nil ? [] : offer.buttons.map { provider in
            let encoded = provider.name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            return "<p><a class=\"idp-button idpButton-customizable\" data-provider-type=\"\(escape(provider.type.rawValue))\" "
                + "href=\"/login?\(query)&amp;identity_provider=\(encoded)\">Continue with \(escape(Self.providerLabel(provider)))</a></p>"
        }
        if request.purpose == nil, offer.emailDiscovery {
            let hidden = OAuth.formDecoded(request.query).sorted { $0.key < $1.key }.map {
                "<input type=\"hidden\" name=\"\(escape($0.key))\" value=\"\(escape($0.value))\">"
            }.joined()
            providerButtons.insert("""
                <form method="get" action="/login/domain" class="domain-discovery">\(hidden)
                \(field("email", label: "Sign in with your corporate email", type: "email", autocomplete: "email"))
                <button class="idp-button idpButton-customizable" type="submit">Continue</button></form>
                """, at: 0)
        }
        let signUpLink =
            "<p>\(app.map { "New to \($0)?" } ?? "New here?") <a class=\"redirect-customizable\" href=\"/signup?\(query)\">Create an account</a></p>"
        /// One radio button per factor, the first checked, named and described by `names`.
        func factorChoices(_ factors: [String], names: [String: (String, String)]) -> [String] {
            factors.enumerated().map { index, factor in
                let (name, detail) = names[factor] ?? (factor, "")
                return """
                    <label class="choice"><input type="radio" name="factor" value="\(escape(factor))"\(index == 0 ? " checked" : "") required>\
                    <span>\(escape(name))\(detail.isEmpty ? "" : "<span>\(escape(detail))</span>")</span></label>
                    """
            }
        }
        func sentTo(_ destination: String?) -> String { destination.map { "<strong>\(escape($0))</strong>" } ?? "you" }
        func graphic(for destination: String?) -> String? {
            destination.map { $0.contains("@") ? "email" : "sms" }
        }
        let card: Card
        switch page {
        case .signIn where !offer.cognito, .signInName where !offer.cognito:
            // A client without the pool's own sign-in: its providers alone (none on /passkeys/add,
            // whose sign-in would lead to the app, not back).
            card = request.purpose == nil
                ? Card(title: "Sign in", lead: "Choose how to sign in.", body: "", alternatives: providerButtons)
                : Card(title: "Sign in", lead: "Sign in through the app first, then come back to add a passkey.", body: "")
        case .signIn(let username, let name, let error, let notice, let canSignUp):
            card = Card(
                title: "Sign in", lead: purposeLead, error: error, notice: notice,
                body: form("""
                    \(nameField(name, value: username ?? "", autofocus: username == nil))
                    \(field("password", label: "Password", type: "password", autocomplete: "current-password", autofocus: username != nil))
                    \(forgotPassword)
                    """, submit: "Sign in"),
                alternatives: providerButtons + (canSignUp ? [
                    signUpLink,
                ] : []))
        case .signUp(let name, let attributes, let values, let rules, let error):
            let first = ["email": 0, "phone_number": 1]
            let ordered = attributes.enumerated().sorted { (first[$0.element] ?? 2, $0.offset) < (first[$1.element] ?? 2, $1.offset) }
            let extra = ordered.map(\.element).map { attribute -> String in
                let kind: (type: String, autocomplete: String?) = switch attribute {
                case "email": ("email", "email")
                case "phone_number": ("tel", "tel")
                default: ("text", ["given_name": "given-name", "family_name": "family-name", "name": "name", "nickname": "nickname",
                                   "middle_name": "additional-name", "birthdate": "bday", "address": "street-address",
                                   "website": "url", "zoneinfo": nil, "locale": "language", "gender": "sex"][attribute] ?? nil)
                }
                return field("attribute.\(attribute)", label: attributeLabel(attribute), type: kind.type,
                             value: values["attribute.\(attribute)"] ?? "", autocomplete: kind.autocomplete)
            }
            card = Card(
                title: "Create an account", error: error,
                body: form("""
                    \(nameField(name, value: values["username"] ?? "", autofocus: values.isEmpty, signUp: true))
                    \(extra.joined(separator: "\n"))
                    \(passwordField("password", label: "Password", rules: rules, autofocus: !values.isEmpty))
                    \(termsNotice(terms))
                    """, submit: "Create account"),
                alternatives: ["<p>Already have an account? <a class=\"redirect-customizable\" href=\"\(signIn)\">Sign in</a></p>"])
        case .confirmSignUp(let destination, let error, let notice):
            card = Card(
                title: "Confirm your account", lead: "Enter the code we sent to \(sentTo(destination)).",
                graphic: graphic(for: destination), error: error, notice: notice,
                body: form(codeField("code", label: "Confirmation code"), submit: "Confirm account"),
                alternatives: [linkForm("Didn't get a code?", "Send a new code", name: "resend"), backToSignIn])
        case .forgotPassword(let name, let username, let error):
            card = Card(
                title: "Reset your password",
                lead: "Enter your \(escape(name.label.lowercased())) and we'll send you a code to reset your password.",
                graphic: "password", error: error,
                body: form(nameField(name, value: username ?? "", autofocus: true), submit: "Send code"),
                alternatives: [backToSignIn])
        case .resetPassword(let destination, let rules, let error, let notice):
            card = Card(
                title: "Choose a new password", lead: "Enter the code we sent to \(sentTo(destination)), then choose a new password.",
                graphic: "password", error: error, notice: notice,
                body: form("""
                    \(codeField("code", label: "Code"))
                    \(passwordField("new_password", label: "New password", rules: rules, autofocus: false))
                    """, submit: "Change password"),
                alternatives: [linkForm("Didn't get a code?", "Send a new code", name: "resend"), backToSignIn])
        case .code(let challenge, let destination, let error):
            let authenticator = challenge == "SOFTWARE_TOKEN_MFA"
            card = Card(
                title: "Verify it's you",
                lead: authenticator ? "Enter the code your authenticator app shows."
                    : "Enter the code we sent to \(sentTo(destination)).",
                graphic: authenticator ? "authApp" : challenge == "EMAIL_OTP" ? "email" : "sms", error: error,
                body: form(codeField("code", label: authenticator ? "Code from the app" : "Code"), submit: "Verify"),
                alternatives: [backToSignIn])
        case .newPassword(let required, let values, let rules, let error):
            let extra = required.map {
                field("attribute.\($0)", label: attributeLabel($0), value: values["attribute.\($0)"] ?? "")
            }
            card = Card(
                title: "Choose a new password", lead: "Your account needs a new password before you can continue.",
                graphic: "password", error: error,
                body: form("""
                    \(passwordField("new_password", label: "New password", rules: rules, autofocus: true))
                    \(extra.joined(separator: "\n"))
                    """, submit: "Save and sign in"),
                alternatives: [backToSignIn])
        case .totpSetup(let secret, let uri, let error):
            let qr = QRCode(uri)?.svg() ?? ""
            // The key in groups of four to read and type, one word to copy.
            let groups = stride(from: 0, to: secret.count, by: 4).map { start -> String in
                let from = secret.index(secret.startIndex, offsetBy: start)
                return "<span>" + escape(String(secret[from..<(secret.index(from, offsetBy: 4, limitedBy: secret.endIndex) ?? secret.endIndex)])) + "</span>"
            }
            card = Card(
                title: "Set up your authenticator app",
                lead: "This account needs a second step at sign-in. Scan the code with an authenticator app, then enter the code it shows.",
                graphic: "authApp", error: error,
                body: """
                    <figure class="qr">\(qr)</figure>
                    <p class="key">Can't scan it? Enter this key in the app:<code class="secret">\(groups.joined())</code></p>
                    """ + form(codeField("code", label: "Code from the app"), submit: "Verify and sign in"),
                alternatives: [backToSignIn])
        case .selectFactor(let factors, let error):
            let names = [
                "SOFTWARE_TOKEN_MFA": ("Authenticator app", "A code from the app on your phone"),
                "SMS_MFA": ("Text message", "A code sent to your phone"),
                "EMAIL_OTP": ("Email", "A code sent to your email address"),
            ]
            let choices = factorChoices(factors, names: names)
            card = Card(
                title: "Verify it's you", lead: "Choose how to get your sign-in code.", error: error,
                body: form("<fieldset><legend class=\"visually-hidden\">Verification method</legend>\n\(choices.joined(separator: "\n"))\n</fieldset>",
                           submit: "Continue"),
                alternatives: [backToSignIn])
        case .signInName(let username, let name, let error, let notice, let canSignUp):
            card = Card(
                title: "Sign in", lead: purposeLead, error: error, notice: notice,
                body: form(nameField(name, value: username ?? "", autofocus: true), submit: "Next"),
                alternatives: providerButtons + (canSignUp ? [
                    signUpLink,
                ] : []))
        case .chooseFactor(let factors, let username, let error):
            let names = [
                "WEB_AUTHN": ("Sign in with a passkey", "Your fingerprint, face or screen lock"),
                "EMAIL_OTP": ("Email me a code", "A one-time code to your email address"),
                "SMS_OTP": ("Text me a code", "A one-time code to your phone"),
                "PASSWORD": ("Use my password", "The password of your account"),
            ]
            let choices = factorChoices(factors, names: names)
            card = Card(
                title: "Choose how to sign in", lead: signingInAs(username), error: error,
                body: form("<fieldset><legend class=\"visually-hidden\">Sign-in method</legend>\n\(choices.joined(separator: "\n"))\n</fieldset>",
                           submit: "Continue"),
                alternatives: [notYou])
        case .password(let username, let canChoose, let error):
            card = Card(
                title: "Enter your password", lead: signingInAs(username), graphic: "password", error: error,
                body: form("""
                    <label for="username" hidden>Username</label>\
                    <input id="username" type="text" name="username" value="\(escape(username))" autocomplete="username" hidden>
                    \(field("password", label: "Password", type: "password", autocomplete: "current-password", autofocus: true))
                    \(forgotPassword)
                    """, submit: "Sign in"),
                alternatives: [chooseAnother(canChoose), notYou].compactMap { $0 })
        case .passkey(let options, let username, let canChoose, let error):
            card = Card(
                title: "Sign in with a passkey",
                lead: signingInAs(username, "Use the passkey on this device, or on your phone."), graphic: "passkey",
                error: error, body: passkeyForm("get", options: options, button: "Sign in with a passkey"),
                alternatives: [chooseAnother(canChoose), notYou].compactMap { $0 }, script: true)
        case .signInCode(let challenge, let destination, let username, let canChoose, let error, let notice):
            let email = challenge == "EMAIL_OTP"
            card = Card(
                title: email ? "Check your email" : "Check your phone",
                lead: signingInAs(username, "Enter the 8\u{2011}digit code we sent to \(sentTo(destination))."),
                graphic: email ? "email" : "sms", error: error, notice: notice,
                body: form(codeField("code", label: "Code"), submit: "Sign in"),
                alternatives: [linkForm("Didn't get a code?", "Send a new code", name: "resend"), chooseAnother(canChoose), notYou]
                    .compactMap { $0 })
        case .addPasskey(let options, let username, let returnURL, let error):
            card = Card(
                title: "Add a passkey",
                lead: "Next time, sign in as <strong>\(escape(username))</strong> with your fingerprint, face or screen lock "
                    + "instead of a password.",
                graphic: "passkey", error: error, body: passkeyForm("create", options: options, button: "Add a passkey"),
                alternatives: ["<p><a class=\"redirect-customizable\" href=\"\(escape(returnURL))\">Not now</a></p>"], script: true)
        case .passkeyAdded(let username, let returnURL):
            card = Card(
                title: "Passkey added", graphic: "passkey",
                notice: "Your passkey is ready. Next time, sign in as \(username) with it.",
                body: "<a class=\"primary submitButton-customizable\" href=\"\(escape(returnURL))\">Continue</a>")
        }
        return html(.ok, card, style: style)
    }

    /// An error page: what happened in words for the person at the browser (with `message`, the
    /// developer's detail, below when it is technical), and a way back: to the app's sign-in
    /// when the request is known, else to the app (no redirect: the request could not be
    /// trusted with one).
    static func error(_ status: HTTPResponse.Status, _ message: String, reason: AuthorizationPageError.Reason? = nil,
                      signIn: AuthorizationRequest? = nil, style: HostedPageStyle = HostedPageStyle()) -> Response {
        let title: String, text: String
        var details: String? = message
        switch (reason, status.code) {
        case (.expired?, _):
            (title, text, details) = ("This page has expired", "Sign-in pages stay open for 15 minutes, and each form can be sent once.", nil)
        case (.otherBrowser?, _):
            (title, text, details) = ("Sign in again", "This sign-in was started in another browser, or this browser's cookies were cleared.", nil)
        case (.unsupportedStep?, _):
            (title, text) = ("Sign in in the app", "Your account needs a step that this page can't show yet.")
        case (.passkeysUnavailable?, _):
            (title, text) = ("You can't add a passkey here", "This app doesn't let your account add a passkey now.")
        case (_, 429):
            (title, text) = ("Too many attempts", "Wait a minute, then try again.")
        case (_, 404):
            (title, text, details) = ("Page not found", "There is nothing at this address.", nil)
        case (_, 500...):
            (title, text, details) = ("Something went wrong", "We couldn't finish your sign-in. Try again in a moment.", nil)
        default:
            (title, text) = ("This sign-in link isn't valid", "The app sent you here with a link that can't be used to sign in.")
        }
        let back = signIn.map {
            "<a class=\"primary submitButton-customizable\" href=\"\($0.pagePath)?\(escape($0.query))\">Back to sign in</a>"
        }
            ?? "<p class=\"lead\">Go back to the app and start again.</p>"
        let card = Card(
            title: title, error: text,
            body: back + (details.map { "<p class=\"details\">Details for the app's developer: \(escape($0))</p>" } ?? ""))
        return html(status, card, style: style)
    }

    /// A page that only says something (a link from an email opened): `message` in a success or
    /// an error box as `status` says.
    static func message(_ status: HTTPResponse.Status, title: String, _ message: String) -> Response {
        let ok = (200..<300).contains(status.code)
        return html(status, Card(title: title, error: ok ? nil : message, notice: ok ? message : nil, body: ""),
                    style: HostedPageStyle())
    }

    static func redirect(_ location: String) -> Response {
        Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
    }

    /// "By signing up you agree to the terms of use and the privacy policy", with their links.
    private static func termsNotice(_ terms: [(name: String, url: String)]) -> String {
        guard !terms.isEmpty else { return "" }
        let names = ["terms-of-use": "terms of use", "privacy-policy": "privacy policy"]
        let links = terms.map { "<a href=\"\(escape($0.url))\" rel=\"noopener\">the \(escape(names[$0.name] ?? $0.name))</a>" }
        return "<p class=\"terms legalText-customizable\">By signing up you agree to \(links.joined(separator: " and ")).</p>"
    }

    /// "Given name" for `given_name`, "Custom department" for `custom:department`.
    private static func attributeLabel(_ attribute: String) -> String {
        let words = attribute.replacingOccurrences(of: "custom:", with: "").replacingOccurrences(of: "_", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    /// The field naming the account, typed as the pool's sign-in name is.
    private static func nameField(_ name: HostedNameField, value: String, autofocus: Bool, signUp: Bool = false) -> String {
        switch name.kind {
        case .email:
            return field("username", label: name.label, type: "email", value: value,
                         autocomplete: signUp ? "email" : "username", autofocus: autofocus)
        case .phone:
            return field("username", label: name.label, type: "tel", value: value, autocomplete: signUp ? "tel" : "username",
                         autofocus: autofocus)
        case .text:
            return field("username", label: name.label, value: value, autocomplete: "username", autofocus: autofocus,
                         plain: true)
        }
    }

    private static func codeField(_ name: String, label: String) -> String {
        field(name, label: label, autocomplete: "one-time-code", inputmode: "numeric", autofocus: true, plain: true, className: "code")
    }

    /// A new password and, below it, what the pool's policy asks of it.
    private static func passwordField(_ name: String, label: String, rules: [String], autofocus: Bool = false) -> String {
        let id = "\(name)-rules"
        let list = rules.isEmpty ? "" : """
            <div class="rules textDescription-customizable" id="\(id)"><p>Your password needs:</p>
            <ul>\(rules.map { "<li>\(escape($0))</li>" }.joined())</ul></div>
            """
        return field(name, label: label, type: "password", autocomplete: "new-password", autofocus: autofocus,
                     describedBy: rules.isEmpty ? nil : id, after: list)
    }

    /// A labelled input; `plain`: no spelling correction or capitals (names, codes).
    private static func field(_ name: String, label: String, type: String = "text", value: String = "",
                              autocomplete: String? = nil, inputmode: String? = nil, autofocus: Bool = false,
                              plain: Bool = false, className: String? = nil, describedBy: String? = nil,
                              after: String = "") -> String {
        var attributes = "id=\"\(escape(name))\" name=\"\(escape(name))\" type=\"\(type)\" value=\"\(escape(value))\" required"
        attributes += " class=\"inputField-customizable\(className.map { " \($0)" } ?? "")\""
        if let autocomplete { attributes += " autocomplete=\"\(autocomplete)\"" }
        if let inputmode { attributes += " inputmode=\"\(inputmode)\"" }
        if plain || type == "email" { attributes += " autocapitalize=\"none\" spellcheck=\"false\"" }
        if let describedBy { attributes += " aria-describedby=\"\(describedBy)\"" }
        if autofocus { attributes += " autofocus" }
        return """
            <div class="field"><label class="label-customizable" for="\(escape(name))">\(escape(label))</label>
            <input \(attributes)>\(after)</div>
            """
    }

    /// An image for the page's colour scheme (nil: none for it). With DYNAMIC, the browser's
    /// preference picks the light or dark one; an image of one mode only is hidden in the other.
    private static func picture(_ image: HostedBranding.Image, scheme: HostedBranding.Scheme, alt: String, className: String?)
        -> String?
    {
        func img(_ source: String, _ extraClass: String?) -> String {
            let classes = [className, extraClass].compactMap { $0 }.joined(separator: " ")
            return "<img src=\"\(source)\" alt=\"\(escape(alt))\"\(classes.isEmpty ? "" : " class=\"\(classes)\"")>"
        }
        switch (scheme, image.light, image.dark) {
        case (.light, let light?, _): return img(light, nil)
        case (.dark, _, let dark?): return img(dark, nil)
        case (.dynamic, let light?, let dark?) where light == dark: return img(light, nil)
        case (.dynamic, let light?, let dark?):
            return "<picture><source media=\"(prefers-color-scheme: dark)\" srcset=\"\(dark)\">\(img(light, nil))</picture>"
        case (.dynamic, let light?, nil): return img(light, "light-only")
        case (.dynamic, nil, let dark?): return img(dark, "dark-only")
        default: return nil
        }
    }

    /// A page: the card in the page's layout (header, the form where the branding places it,
    /// the logo in or around it, footer), with the theme's style sheet.
    private static func html(_ status: HTTPResponse.Status, _ card: Card, style: HostedPageStyle) -> Response {
        let branding = style.branding ?? HostedBranding()
        let scheme = branding.scheme
        let appName = style.appName
        let logoAlt = appName.map { "\($0) logo" } ?? "Logo"
        var logo: String?
        if let path = style.logoPath {
            logo = "<img class=\"logo-customizable\" src=\"\(escape(path))\" alt=\"\(escape(logoAlt))\">"
        } else if let image = branding.formLogo {
            logo = picture(image, scheme: scheme, alt: logoAlt, className: "logo-customizable")
        }
        func logoRow(top: Bool) -> String {
            guard let logo, branding.logoAtTop == top else { return "" }
            return "<div class=\"logo-row \(branding.logoPlace.rawValue)\(top ? "" : " bottom")\">\(logo)</div>"
        }
        func bar(_ bar: HostedBranding.Bar?, tag: String) -> String {
            guard let bar else { return "" }
            let logo = bar.logo.flatMap { picture($0, scheme: scheme, alt: logoAlt, className: nil) } ?? ""
            return "<\(tag) class=\"bar \(bar.logoPlace.rawValue)\">\(logo)</\(tag)>"
        }
        let graphic = card.graphic.flatMap { branding.graphics[$0] }.flatMap {
            picture($0, scheme: scheme, alt: "", className: "graphic")
        } ?? ""
        let alerts = (card.notice.map { "<div class=\"alert notice\" role=\"status\"><span>\(escape($0))</span></div>" } ?? "")
            + (card.error.map { "<div class=\"alert error errorMessage-customizable\" role=\"alert\"><span>\(escape($0))</span></div>" } ?? "")
        let inForm = branding.logoInForm
        let alternatives = card.alternatives.isEmpty ? "" : "<div class=\"alternatives\">\n\(card.alternatives.joined(separator: "\n"))\n</div>"
        let favicon = branding.favicon ?? "data:,"
        let title = card.title + (appName.map { " · \($0)" } ?? "")
        let document = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="\(scheme == .dynamic ? "light dark" : scheme.rawValue)">
            <title>\(escape(title))</title>
            <link rel="icon" href="\(favicon)">
            <style>
            \(HostedPageTheme.css(branding: style.branding, customCSS: style.css))
            .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
            </style></head>
            <body class="background-customizable">
            \(bar(branding.header, tag: "header"))
            <div class="page h-\(branding.formHorizontal.rawValue) v-\(branding.formVertical.rawValue)"><div class="stack">
            \(inForm ? "" : logoRow(top: true))
            <main class="card">
            \(inForm ? logoRow(top: true) : "")
            \(appName.map { "<p class=\"app-name banner-customizable\">\(escape($0))</p>" } ?? "")
            \(graphic)
            <h1>\(escape(card.title))</h1>
            \(card.lead.map { "<p class=\"lead textDescription-customizable\">\($0)</p>" } ?? "")
            \(alerts)
            \(card.body)
            \(alternatives)
            \(inForm ? logoRow(top: false) : "")
            </main>
            \(inForm ? "" : logoRow(top: false))
            </div></div>
            \(bar(branding.footer, tag: "footer"))
            \(card.script ? "<script>\(HostedPageScript.source)</script>" : "")
            </body></html>
            """
        return Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy: card.script ? scriptContentSecurityPolicy : contentSecurityPolicy,
                HTTPField.Name("X-Frame-Options")!: "DENY",
            ],
            body: .init(byteBuffer: ByteBuffer(string: document)))
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }
}
