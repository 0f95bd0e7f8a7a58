import CognateCore
import Foundation
import HTTPTypes
import Hummingbird

/// The hosted sign-in pages: server-rendered HTML, usable without JavaScript, accessible
/// (labelled fields, autocomplete hints, errors announced with `role="alert"`), every value
/// escaped. Each form posts to `/login` with its flow, which must belong to the browser the
/// flow began in (its ``BrowserBinding`` cookie: `HttpOnly`, `SameSite=Lax`, so a cross-site
/// page can neither read it nor have it sent with a form it posts).
enum HostedPages {
    static let browserCookieName = "cognate_browser"

    /// The browser's binding: its cookie's, or a new one (`isNew`: set the cookie).
    static func browser(of request: Request) -> (binding: BrowserBinding, isNew: Bool) {
        if let known = BrowserBinding(cookieValue: request.cookies[browserCookieName]?.value) { return (known, false) }
        return (BrowserBinding.new(), true)
    }

    /// The `Set-Cookie` value that keeps `binding` in the browser (an hour after its latest page).
    static func browserCookie(_ binding: BrowserBinding, secure: Bool) -> String {
        "\(browserCookieName)=\(binding.cookieValue); Path=/; Max-Age=3600; HttpOnly; SameSite=Lax\(secure ? "; Secure" : "")"
    }

    /// `terms`: the client's terms of use and privacy policy (name, URL), shown on the sign-up page.
    static func page(_ page: HostedPage, flow: String, request: AuthorizationRequest, style: HostedPageStyle,
                     terms: [(name: String, url: String)] = []) -> Response {
        let body: String
        switch page {
        case .signIn(let username, let error, let notice):
            body = form(title: "Sign in", flow: flow, error: error, fields: """
                \(notice.map { "<p class=\"notice\" role=\"status\">\(escape($0))</p>" } ?? "")
                \(field("username", label: "Username or email", value: username ?? "", autocomplete: "username", autofocus: username == nil))
                \(field("password", label: "Password", type: "password", autocomplete: "current-password", autofocus: username != nil))
                """, submit: "Sign in") + """
                <p><a href="/forgotPassword?\(escape(request.query))">Forgot your password?</a></p>
                <p>New here? <a href="/signup?\(escape(request.query))">Create an account</a></p>
                """
        case .forgotPassword(let error):
            body = form(title: "Reset your password", flow: flow, error: error, fields: """
                <p>We will send a code to reset your password.</p>
                \(field("username", label: "Username or email", autocomplete: "username", autofocus: true))
                """, submit: "Send a code") + """
                <p><a href="/login?\(escape(request.query))">Back to sign in</a></p>
                """
        case .resetPassword(let destination, let error):
            body = form(title: "Choose a new password", flow: flow, error: error, fields: """
                <p>Enter the code we sent to \(escape(destination ?? "you")).</p>
                \(field("code", label: "Code", autocomplete: "one-time-code", inputmode: "numeric", autofocus: true))
                \(field("new_password", label: "New password", type: "password", autocomplete: "new-password"))
                """, submit: "Change password")
        case .signUp(let attributes, let error):
            let extra = attributes.map {
                field("attribute.\($0)", label: $0.replacingOccurrences(of: "_", with: " ").capitalized,
                      type: $0 == "email" ? "email" : $0 == "phone_number" ? "tel" : "text",
                      autocomplete: ["email": "email", "phone_number": "tel", "given_name": "given-name",
                                     "family_name": "family-name", "name": "name"][$0])
            }
            body = form(title: "Create an account", flow: flow, error: error, fields: """
                \(field("username", label: "Username", autocomplete: "username", autofocus: true))
                \(extra.joined(separator: "\n"))
                \(field("password", label: "Password", type: "password", autocomplete: "new-password"))
                \(termsNotice(terms))
                """, submit: "Sign up") + """
                <p>Have an account? <a href="/login?\(escape(request.query))">Sign in</a></p>
                """
        case .confirmSignUp(let destination, let error):
            body = form(title: "Confirm your account", flow: flow, error: error, fields: """
                <p>Enter the code we sent to \(escape(destination ?? "you")).</p>
                \(field("code", label: "Code", autocomplete: "one-time-code", inputmode: "numeric", autofocus: true))
                """, submit: "Confirm") + form(title: nil, flow: flow, error: nil, fields: """
                <input type="hidden" name="resend" value="1">
                """, submit: "Send a new code")
        case .code(let challenge, let destination, let error):
            let hint = challenge == "SOFTWARE_TOKEN_MFA"
                ? "Enter the code your authenticator app shows."
                : "Enter the code we sent to \(escape(destination ?? "you"))."
            body = form(title: "Verify it's you", flow: flow, error: error, fields: """
                <p>\(hint)</p>
                \(field("code", label: "Code", autocomplete: "one-time-code", inputmode: "numeric", autofocus: true))
                """, submit: "Continue")
        case .newPassword(let required, let error):
            let extra = required.map { field("attribute.\($0)", label: $0.replacingOccurrences(of: "_", with: " ").capitalized) }
            body = form(title: "Choose a new password", flow: flow, error: error, fields: """
                <p>Your account needs a new password.</p>
                \(field("new_password", label: "New password", type: "password", autocomplete: "new-password", autofocus: true))
                \(extra.joined(separator: "\n"))
                """, submit: "Save and sign in")
        case .totpSetup(let secret, let uri, let error):
            let qr = QRCode(uri)?.svg() ?? ""
            body = form(title: "Set up your authenticator app", flow: flow, error: error, fields: """
                <p>This account needs a second factor. Scan the code with an authenticator app, or enter the key.</p>
                <figure class="qr">\(qr)</figure>
                <p>Key: <code class="secret">\(escape(secret))</code></p>
                \(field("code", label: "Code from the app", autocomplete: "one-time-code", inputmode: "numeric", autofocus: true))
                """, submit: "Verify and sign in")
        case .selectFactor(let factors, let error):
            let names = ["SOFTWARE_TOKEN_MFA": "Authenticator app", "SMS_MFA": "Text message", "EMAIL_OTP": "Email"]
            let buttons = factors.map {
                "<button type=\"submit\" name=\"factor\" value=\"\(escape($0))\">\(escape(names[$0] ?? $0))</button>"
            }
            body = form(title: "How do you want to verify it's you?", flow: flow, error: error,
                        fields: buttons.joined(separator: "\n"), submit: nil)
        }
        return html(.ok, title: "Sign in", body: body, style: style)
    }

    /// A page saying what went wrong (no redirect: the request could not be trusted with one).
    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        html(status, title: "Sign-in error", body: "<h1>Something went wrong</h1><p role=\"alert\">\(escape(message))</p>")
    }

    static func redirect(_ location: String) -> Response {
        Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
    }

    /// "By signing up you agree to the terms of use and the privacy policy", with their links.
    private static func termsNotice(_ terms: [(name: String, url: String)]) -> String {
        guard !terms.isEmpty else { return "" }
        let names = ["terms-of-use": "terms of use", "privacy-policy": "privacy policy"]
        let links = terms.map { "<a href=\"\(escape($0.url))\" rel=\"noopener\">the \(escape(names[$0.name] ?? $0.name))</a>" }
        return "<p class=\"terms\">By signing up you agree to \(links.joined(separator: " and ")).</p>"
    }

    private static func form(title: String?, flow: String, error: String?, fields: String, submit: String?) -> String {
        """
        \(title.map { "<h1>\(escape($0))</h1>" } ?? "")
        \(error.map { "<p class=\"error\" role=\"alert\">\(escape($0))</p>" } ?? "")
        <form method="post" action="/login">
        <input type="hidden" name="flow" value="\(escape(flow))">
        \(fields)
        \(submit.map { "<button type=\"submit\">\(escape($0))</button>" } ?? "")
        </form>
        """
    }

    private static func field(_ name: String, label: String, type: String = "text", value: String = "",
                              autocomplete: String? = nil, inputmode: String? = nil, autofocus: Bool = false) -> String {
        var attributes = "id=\"\(escape(name))\" name=\"\(escape(name))\" type=\"\(type)\" value=\"\(escape(value))\" required"
        if let autocomplete { attributes += " autocomplete=\"\(autocomplete)\"" }
        if let inputmode { attributes += " inputmode=\"\(inputmode)\"" }
        if autofocus { attributes += " autofocus" }
        return "<label for=\"\(escape(name))\">\(escape(label))</label>\n<input \(attributes)>"
    }

    /// A page: the layout, the pool's or client's CSS after the pages' own (it cannot close the
    /// style element), its logo above `body`.
    private static func html(_ status: HTTPResponse.Status, title: String, body: String,
                             style: HostedPageStyle = HostedPageStyle()) -> Response {
        let customCSS = (style.css ?? "").replacingOccurrences(of: "<", with: "\\3c ")   // a CSS escape: no tag can start
        let logo = style.logoPath.map { "<img class=\"logo-customizable\" src=\"\(escape($0))\" alt=\"Logo\">" } ?? ""
        let document = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title))</title>
            <style>
            body { font-family: system-ui, sans-serif; max-width: 24rem; margin: 3rem auto; padding: 0 1rem; color: #1d1d1f; }
            label { display: block; margin-top: 1rem; font-weight: 600; }
            input { width: 100%; box-sizing: border-box; padding: .6rem; font-size: 1rem; margin-top: .25rem; }
            button { margin-top: 1.25rem; padding: .7rem 1rem; font-size: 1rem; width: 100%; }
            .error { color: #b00020; font-weight: 600; }
            .notice { color: #0b6e24; font-weight: 600; }
            .logo-customizable { display: block; max-width: 100%; max-height: 6rem; margin: 0 auto 1rem; }
            \(customCSS)
            </style></head>
            <body><main>
            \(logo)
            \(body)
            </main></body></html>
            """
        return Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
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
