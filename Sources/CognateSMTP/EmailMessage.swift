/// One email: sender, recipients, subject, a plain-text body and optionally an HTML
/// alternative. Every part is validated when the value is made, so a message that exists can be
/// rendered and sent without any header injection: addresses are checked (``EmailAddress``),
/// and no header text can contain a line break.
///
/// ``SMTPClient`` renders it as RFC 5322 (see ``rendered(date:)``), with the envelope sender
/// `from.address` and the envelope recipients `to`.
public struct EmailMessage: Sendable, Hashable {
    public let from: EmailAddress
    /// One or more recipients, all in the `To` header.
    public let to: [EmailAddress]
    public let subject: String
    public let textBody: String
    /// When set, the message is `multipart/alternative` with the text first.
    public let htmlBody: String?
    public let extraHeaders: [EmailHeader]

    /// - Throws: ``SMTPError/invalidMessage(_:)`` when there is no recipient or the subject
    ///   contains a line break or another control character.
    public init(
        from: EmailAddress,
        to: [EmailAddress],
        subject: String,
        textBody: String,
        htmlBody: String? = nil,
        extraHeaders: [EmailHeader] = []
    ) throws {
        guard !to.isEmpty else { throw SMTPError.invalidMessage("a message needs at least one recipient") }
        try HeaderText.requireSingleLine(subject, what: "the subject")
        self.from = from
        self.to = to
        self.subject = subject
        self.textBody = textBody
        self.htmlBody = htmlBody
        self.extraHeaders = extraHeaders
    }

    /// A message to one recipient.
    public init(
        from: EmailAddress,
        to: EmailAddress,
        subject: String,
        textBody: String,
        htmlBody: String? = nil,
        extraHeaders: [EmailHeader] = []
    ) throws {
        try self.init(from: from, to: [to], subject: subject, textBody: textBody, htmlBody: htmlBody, extraHeaders: extraHeaders)
    }
}
