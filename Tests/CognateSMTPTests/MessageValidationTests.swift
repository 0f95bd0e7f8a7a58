import CognateSMTP
import Testing

/// Header injection is impossible: no address, name, subject or header value that could end a
/// line or smuggle a command can become part of an EmailMessage.
struct MessageValidationTests {
    @Test(arguments: [
        "user@example.com>\r\nRCPT TO:<evil@example.net",
        "user@example.com\nBcc: evil@example.net",
        "user@exa mple.com",
        "<user@example.com>",
        "user@",
        "@example.com",
        "user",
        "user..name@example.com",
        ".user@example.com",
        "user@-example.com",
        "\"quoted local\"@example.com",
        "üser@example.com",
        "user@bücher.example",
        String(repeating: "a", count: 65) + "@example.com",
    ])
    func unsupportedAddressesAreRefused(address: String) {
        #expect(throws: SMTPError.self) { try EmailAddress(address) }
    }

    @Test(arguments: ["user@example.com", "first.last+tag@sub.example.co.uk", "o'neil@example.com", "x@xn--bcher-kva.example"])
    func ordinaryAddressesAreAccepted(address: String) throws {
        #expect(try EmailAddress(address).address == address)
    }

    @Test(arguments: ["Evil\r\nBcc: victim@example.com", "Evil\nBcc: x@y.z", "Evil\rX: y", "Null\u{0}byte", "Next\u{85}line"])
    func displayNamesWithControlCharactersAreRefused(name: String) {
        #expect(throws: SMTPError.self) { try EmailAddress("user@example.com", displayName: name) }
    }

    @Test(arguments: ["Code\r\nBcc: victim@example.com", "Code\nX-Injected: 1", "Code\r", "Code\u{0}"])
    func subjectsWithLineBreaksAreRefused(subject: String) throws {
        let from = try EmailAddress("no-reply@cognate.example")
        let to = try EmailAddress("user@example.com")
        #expect(throws: SMTPError.self) { try EmailMessage(from: from, to: to, subject: subject, textBody: "body") }
    }

    @Test func headerValuesWithLineBreaksAreRefused() {
        #expect(throws: SMTPError.self) { try EmailHeader(name: "X-Pool", value: "a\r\nBcc: victim@example.com") }
        #expect(throws: SMTPError.self) { try EmailHeader(name: "X-Pool", value: "a\nb") }
    }

    @Test(arguments: ["X Pool", "X-Pool:", "X-Pöol", "", "Bcc", "bcc", "Subject", "Content-Type", "MESSAGE-ID"])
    func invalidOrReservedHeaderNamesAreRefused(name: String) {
        #expect(throws: SMTPError.self) { try EmailHeader(name: name, value: "value") }
    }

    @Test func aMessageNeedsARecipient() throws {
        let from = try EmailAddress("no-reply@cognate.example")
        let error = #expect(throws: SMTPError.self) { try EmailMessage(from: from, to: [], subject: "s", textBody: "b") }
        #expect(error?.isPermanent == true)
    }

    @Test func bodiesMayContainAnythingAndStillRenderSafely() throws {
        let message = try EmailMessage(
            from: EmailAddress("no-reply@cognate.example"), to: EmailAddress("user@example.com"),
            subject: "s", textBody: "line\r\n.\r\nQUIT\r\nbare\rcr and bare\nlf \u{0} nul",
            htmlBody: "<p>\u{1F510}</p>\r\n.")
        let rendered = Array(message.rendered().utf8)
        expectWireSafe(rendered)
        let text = String(decoding: rendered, as: UTF8.self)
        #expect(text.hasSuffix("\r\n"))
        #expect(!text.contains("\r\nQUIT\r\n.") )
    }
}
