import NIOCore
import Testing

@testable import CognateSMTP

/// Reply framing, including the bounds that protect against a hostile server.
struct ReplyParserTests {
    private func replies(_ chunks: [String]) throws -> [SMTPReply] {
        var parser = SMTPReplyParser()
        var result: [SMTPReply] = []
        for chunk in chunks {
            parser.append(ByteBuffer(string: chunk))
            while let reply = try parser.nextReply() { result.append(reply) }
        }
        return result
    }

    @Test func multiLineRepliesAreJoinedAcrossReads() throws {
        let parsed = try replies(["250-mail.example.com\r\n250-SIZE 1000\r", "\n250-AUTH PLAIN LOGIN\r\n250 STARTTLS\r\n220 next\r\n"])
        #expect(parsed == [
            SMTPReply(code: 250, lines: ["mail.example.com", "SIZE 1000", "AUTH PLAIN LOGIN", "STARTTLS"]),
            SMTPReply(code: 220, lines: ["next"]),
        ])
    }

    @Test func bareLineFeedsAndCodeOnlyLinesAreAccepted() throws {
        #expect(try replies(["250\n354 go ahead\n"]) == [SMTPReply(code: 250, lines: [""]), SMTPReply(code: 354, lines: ["go ahead"])])
    }

    @Test func incompleteReplyWaitsForMoreBytes() throws {
        #expect(try replies(["250-first\r\n250 sec"]).isEmpty)
    }

    @Test(arguments: ["hello\r\n", "25\r\n", "250x\r\n", "650 no\r\n", "150 no\r\n", "250-a\r\n550 b\r\n"])
    func malformedRepliesAreViolations(input: String) {
        #expect(throws: SMTPError.self) { try replies([input]) }
    }

    @Test func controlCharactersInReplyTextAreNeutralized() throws {
        let reply = try #require(try replies(["550 bad\u{1B}[31m text\r\n"]).first)
        #expect(reply.text == "bad\u{FFFD}[31m text")
    }

    @Test func overLongLineIsAViolationEvenWithoutALineBreak() {
        let flood = "220 " + String(repeating: "x", count: SMTPReplyParser.maximumLineLength + 1)
        #expect(throws: SMTPError.protocolViolation("reply line longer than \(SMTPReplyParser.maximumLineLength) bytes")) {
            try replies([flood])
        }
    }

    @Test func replyWithTooManyLinesIsAViolation() {
        let lines = String(repeating: "250-x\r\n", count: SMTPReplyParser.maximumLinesPerReply + 1)
        #expect(throws: SMTPError.self) { try replies([lines]) }
    }

    @Test func capabilitiesAreReadFromTheEHLOReply() {
        let capabilities = SMTPCapabilities(ehloReply: SMTPReply(
            code: 250, lines: ["mail.example.com greets you", "SIZE 35882577", "auth login plain", "AUTH=CRAM-MD5", "STARTTLS", "8BITMIME"]))
        #expect(capabilities.supportsStartTLS)
        #expect(capabilities.sizeLimit == 35_882_577)
        #expect(capabilities.authenticationMechanisms == ["LOGIN", "PLAIN", "CRAM-MD5"])
        #expect(SMTPAuthenticationMechanism.preferred(amongOffered: capabilities.authenticationMechanisms) == .plain)
        #expect(SMTPAuthenticationMechanism.preferred(amongOffered: ["CRAM-MD5"]) == nil)
        #expect(SMTPCapabilities(ehloReply: SMTPReply(code: 250, lines: ["x", "SIZE 0"])).sizeLimit == nil)
    }
}
