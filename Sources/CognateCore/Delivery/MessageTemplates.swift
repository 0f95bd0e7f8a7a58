import CognateProtocol

/// The texts of the messages a pool sends, from its settings or Cognito's defaults.
enum MessageTemplates {
    static let defaultCodeMessage = "Your verification code is {####}. "
    static let defaultCodeSubject = "Your verification code"

    /// The sign-up / attribute verification message for a code.
    static func verification(pool: UserPoolType, medium: DeliveryMediumType, code: String, username: String)
        -> (subject: String?, body: String)
    {
        let template = pool.verificationMessageTemplate
        if medium == .email {
            let body = template?.emailMessage ?? pool.emailVerificationMessage ?? defaultCodeMessage
            let subject = template?.emailSubject ?? pool.emailVerificationSubject ?? defaultCodeSubject
            return (fill(subject, code: code, username: username), fill(body, code: code, username: username))
        }
        let body = template?.smsMessage ?? pool.smsVerificationMessage ?? defaultCodeMessage
        return (nil, fill(body, code: code, username: username))
    }

    static func fill(_ template: String, code: String, username: String) -> String {
        template.replacingOccurrences(of: "{####}", with: code).replacingOccurrences(of: "{username}", with: username)
    }
}
