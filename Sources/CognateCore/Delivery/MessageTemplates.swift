import CognateProtocol
import Foundation

/// The texts of the messages a pool sends, from its settings or Cognito's defaults.
enum MessageTemplates {
    static let defaultCodeMessage = "Your verification code is {####}. "
    static let defaultCodeSubject = "Your verification code"

    static let defaultLinkMessage = "Please click the link below to verify your email address. {##Verify Email##} "
    static let defaultLinkSubject = "Your verification link"

    /// The sign-up / attribute verification message for a code. `link`: the sign-up
    /// confirmation link, used when the pool's DefaultEmailOption is CONFIRM_WITH_LINK (email
    /// only; SMS and other codes always carry the code).
    static func verification(pool: UserPoolType, medium: DeliveryMediumType, code: String, username: String,
                             link: String? = nil) -> (subject: String?, body: String)
    {
        let template = pool.verificationMessageTemplate
        if medium == .email {
            if let link, template?.defaultEmailOption == .confirmWithLink {
                let body = template?.emailMessageByLink ?? defaultLinkMessage
                let subject = template?.emailSubjectByLink ?? defaultLinkSubject
                return (fill(subject, code: code, username: username, link: link),
                        fill(body, code: code, username: username, link: link))
            }
            let body = template?.emailMessage ?? pool.emailVerificationMessage ?? defaultCodeMessage
            let subject = template?.emailSubject ?? pool.emailVerificationSubject ?? defaultCodeSubject
            return (fill(subject, code: code, username: username), fill(body, code: code, username: username))
        }
        let body = template?.smsMessage ?? pool.smsVerificationMessage ?? defaultCodeMessage
        return (nil, fill(body, code: code, username: username))
    }

    static let defaultMfaMessage = "Your authentication code is {####}. "
    static let defaultMfaSubject = "Your authentication code"

    /// The message of an SMS_MFA or EMAIL_OTP code (unfilled), from SetUserPoolMfaConfig's
    /// templates or Cognito's defaults.
    static func mfaCode(mfa: PoolMfaSettings, medium: DeliveryMediumType) -> (subject: String?, body: String) {
        medium == .email
            ? (mfa.emailSubject ?? defaultMfaSubject, mfa.emailMessage ?? defaultMfaMessage)
            : (nil, mfa.smsMessage ?? defaultMfaMessage)
    }

    /// Fills `{####}`, `{username}` and — given a link — every `{##text##}`, which becomes an
    /// HTML anchor with that text, as in Cognito.
    static func fill(_ template: String, code: String, username: String, link: String? = nil) -> String {
        var text = template.replacingEvery("{####}", with: code).replacingEvery("{username}", with: username)
        guard let link else { return text }
        while let open = text.range(of: "{##"), let close = text.range(of: "##}", range: open.upperBound..<text.endIndex) {
            let label = text[open.upperBound..<close.lowerBound]
            text.replaceSubrange(open.lowerBound..<close.upperBound, with: "<a href=\"\(link)\">\(label)</a>")
        }
        return text
    }
}

/// The link of a CONFIRM_WITH_LINK sign-up message, as Cognito builds it:
/// `<public base URL>/confirmUser?client_id=…&user_name=…&confirmation_code=…`. Opening it
/// confirms the sign-up (the server's ConfirmationLinkRoutes; `Registration.confirmSignUpByLink`).
public enum ConfirmationLink {
    public static let path = "/confirmUser"

    static func url(base: String, clientId: String, username: String, code: String) -> String {
        var components = URLComponents()
        components.queryItems = [
            URLQueryItem(name: "client_id", value: clientId), URLQueryItem(name: "user_name", value: username),
            URLQueryItem(name: "confirmation_code", value: code),
        ]
        // URLComponents leaves "+" as is; a form decoder would read it as a space.
        let query = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        return base + path + "?" + query
    }
}
