import CognateSMTP
import Foundation
import Testing

/// Messages sent to a real aiosmtpd server arrive exactly as sent, as decoded by Python's own
/// email parser, and in a form every SMTP hop accepts.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct DeliveryTests {
    @Test func plainTextMessageArrivesExactlyAsSent() async throws {
        let longLine = String(repeating: "0123456789", count: 200)
        let text = """
            Your confirmation code is 123456.
            .
            ..two dots
            .hidden line
            \(longLine)
            trailing spaces\u{20}\u{20}\u{20}
            tab\tinside and = sign
            From the team — naïve café ✓

            """
        let message = try EmailMessage(
            from: EmailAddress("no-reply@cognate.example", displayName: "Cognate Ünïcode Team"),
            to: [EmailAddress("ann@example.com", displayName: "Ann \"the Admin\" O'Neil"), EmailAddress("bob@example.org")],
            subject: "Ihr Bestätigungscode: 123456 ✓",
            textBody: text,
            extraHeaders: [EmailHeader(name: "X-Cognate-Pool", value: "eu-west-1_abc")]
        )
        try await SMTPTestServer.with { server in
            try await withClient(try await server.configuration()) { try await $0.send(message) }

            let received = try #require(try server.messages().only)
            #expect(received.sender == "no-reply@cognate.example")
            #expect(received.recipients == ["ann@example.com", "bob@example.org"])
            let parsed = try #require(received.parsed)
            #expect(parsed.defects == [])
            #expect(parsed.subject == "Ihr Bestätigungscode: 123456 ✓")
            #expect(parsed.from == [.init(name: "Cognate Ünïcode Team", address: "no-reply@cognate.example")])
            #expect(parsed.to == [.init(name: "Ann \"the Admin\" O'Neil", address: "ann@example.com"), .init(name: "", address: "bob@example.org")])
            #expect(parsed.contentType == "text/plain")
            #expect(parsed.text?.replacingOccurrences(of: "\r\n", with: "\n") == text)
            #expect(parsed.html == nil)
            #expect(parsed.header("X-Cognate-Pool") == ["eu-west-1_abc"])
            #expect(parsed.mimeVersion == "1.0")
            #expect(parsed.dateValid)
            let messageID = try #require(parsed.messageId)
            #expect(messageID.wholeMatch(of: /<[0-9a-f]{32}@cognate\.example>/) != nil)

            let raw = received.rawBytes
            expectWireSafe(raw)
            // The lines that start with a dot survived the DATA transfer (dot-stuffing), and the
            // lone "." did not end the message early.
            let rawText = String(decoding: raw, as: UTF8.self)
            #expect(rawText.contains("\r\n.\r\n..two dots\r\n.hidden line\r\n"))
            #expect(rawText.contains("trailing spaces  =20\r\n"))
        }
    }

    @Test func headersFoldAndEncodeWithoutChangingTheirText() async throws {
        let subjects = [
            String(repeating: "A long plain ASCII subject ", count: 12).trimmingCharacters(in: .whitespaces),
            String(repeating: "Größenänderung für Ünïcode-Benutzer 🔐 ", count: 6),
            "Looks encoded =?UTF-8?B?Zm9v?= but is not",
            "  spaces  kept   inside ",
        ]
        try await SMTPTestServer.with { server in
            try await withClient(try await server.configuration()) { client in
                for subject in subjects { try await client.send(testMessage(subject: subject)) }
            }
            let received = try server.messages()
            #expect(received.map { $0.parsed?.subject } == subjects)
            for message in received {
                #expect(message.parsed?.defects == [])
                expectWireSafe(message.rawBytes)
                let headerLines = String(decoding: message.rawBytes, as: UTF8.self).components(separatedBy: "\r\n\r\n")[0].components(separatedBy: "\r\n")
                #expect(headerLines.allSatisfy { $0.utf8.count <= 78 }, "header lines longer than 78: \(headerLines.filter { $0.utf8.count > 78 })")
            }
        }
    }

    @Test func htmlAlternativeArrivesAsMultipartAlternative() async throws {
        let text = "Your code is 654321.\n"
        let html = "<!doctype html>\n<p style=\"font-size: 20px\">Your code is <b>654321</b> — gültig 24 h.</p>\n"
        let message = try EmailMessage(
            from: EmailAddress("no-reply@cognate.example"), to: EmailAddress("user@example.com"),
            subject: "Code", textBody: text, htmlBody: html
        )
        try await SMTPTestServer.with { server in
            try await withClient(try await server.configuration()) { try await $0.send(message) }
            let parsed = try #require(try server.messages().only?.parsed)
            #expect(parsed.defects == [])
            #expect(parsed.contentType == "multipart/alternative")
            #expect(parsed.text?.replacingOccurrences(of: "\r\n", with: "\n") == text)
            #expect(parsed.html?.replacingOccurrences(of: "\r\n", with: "\n") == html)
        }
    }
}

/// What every SMTP hop accepts: 7-bit ASCII, CRLF line endings only, no line over 998 octets.
func expectWireSafe(_ raw: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!raw.isEmpty, sourceLocation: sourceLocation)
    #expect(raw.allSatisfy { $0 < 0x80 }, "non-ASCII bytes on the wire", sourceLocation: sourceLocation)
    var lineLength = 0
    var longest = 0
    var bareLineBreaks = 0
    for (index, byte) in raw.enumerated() {
        switch byte {
        case UInt8(ascii: "\n"):
            if index == 0 || raw[index - 1] != UInt8(ascii: "\r") { bareLineBreaks += 1 }
            lineLength = 0
        case UInt8(ascii: "\r"):
            if index + 1 >= raw.count || raw[index + 1] != UInt8(ascii: "\n") { bareLineBreaks += 1 }
        default:
            lineLength += 1
            longest = max(longest, lineLength)
        }
    }
    #expect(bareLineBreaks == 0, "bare CR or LF on the wire", sourceLocation: sourceLocation)
    #expect(longest <= 998, "a line of \(longest) octets", sourceLocation: sourceLocation)
}

extension Array {
    /// The single element, or nil when there are none or several.
    var only: Element? { count == 1 ? first : nil }
}
