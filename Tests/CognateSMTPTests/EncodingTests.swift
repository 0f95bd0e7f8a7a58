import Foundation
import Testing

@testable import CognateSMTP

/// The encoders behind EmailMessage.rendered(), checked on exact outputs.
struct EncodingTests {
    @Test func quotedPrintableEscapesAndBreaksLines() {
        #expect(QuotedPrintable.encode("a=b café") == "a=3Db caf=C3=A9\r\n")
        #expect(QuotedPrintable.encode("trailing \nx\t") == "trailing=20\r\nx=09\r\n")
        #expect(QuotedPrintable.encode("one\r\ntwo\rthree\n") == "one\r\ntwo\r\nthree\r\n")
        #expect(QuotedPrintable.encode("") == "\r\n")
        let long = String(repeating: "x", count: 200)
        let encoded = QuotedPrintable.encode(long)
        let lines = encoded.components(separatedBy: "\r\n").dropLast()
        #expect(lines.allSatisfy { $0.utf8.count <= 76 })
        #expect(lines.dropLast().allSatisfy { $0.hasSuffix("=") })
        #expect(encoded.replacingOccurrences(of: "=\r\n", with: "") == long + "\r\n")
    }

    @Test func quotedPrintableNeverSplitsAnEscape() {
        let encoded = QuotedPrintable.encode(String(repeating: "é", count: 60))
        for line in encoded.components(separatedBy: "\r\n") where !line.isEmpty {
            #expect(line.utf8.count <= 76)
            // Each line is whole escapes, plus the soft-break "=".
            let body = line.hasSuffix("=") ? String(line.dropLast()) : line
            #expect(body.utf8.count % 3 == 0)
        }
    }

    @Test func encodedWordsStayShortAndKeepCharactersWhole() throws {
        let text = String(repeating: "ü🔐", count: 30)
        let words = HeaderEncoding.encodedWords(text)
        #expect(words.count > 1)
        var decoded: [UInt8] = []
        for word in words {
            #expect(word.utf8.count <= 75)
            #expect(word.hasPrefix("=?UTF-8?B?") && word.hasSuffix("?="))
            let payload = try #require(Data(base64Encoded: String(word.dropFirst(10).dropLast(2))))
            // Every word is valid UTF-8 on its own: no character is split between two words.
            #expect(String(validating: payload, as: UTF8.self) != nil)
            decoded += payload
        }
        #expect(String(decoding: decoded, as: UTF8.self) == text)
    }

    @Test func asciiHeadersFoldOnlyAtSpaces() {
        let subject = Array(repeating: "word", count: 40).joined(separator: " ")
        let field = HeaderEncoding.field("Subject", HeaderEncoding.unstructured(subject))
        let lines = field.components(separatedBy: "\r\n").dropLast()
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.utf8.count <= 78 })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(" ") && $0.trimmingCharacters(in: .whitespaces) != "" })
        #expect(field.replacingOccurrences(of: "\r\n ", with: " ") == "Subject: " + subject + "\r\n")
    }

    @Test func edgeSpacesAndEncodedWordLookalikesAreEncoded() {
        #expect(HeaderEncoding.unstructured(" leading").allSatisfy { $0.hasPrefix("=?UTF-8?B?") })
        #expect(HeaderEncoding.unstructured("trailing ").allSatisfy { $0.hasPrefix("=?UTF-8?B?") })
        #expect(HeaderEncoding.unstructured("=?UTF-8?B?Zm9v?=").allSatisfy { $0.hasPrefix("=?UTF-8?B?") && $0 != "=?UTF-8?B?Zm9v?=" })
        #expect(HeaderEncoding.unstructured("two  spaces") == ["two", "", "spaces"])
    }

    @Test func displayNamesAreQuotedOrEncoded() {
        #expect(HeaderEncoding.phrase("Ann \"the\" O\\Neil") == ["\"Ann", "\\\"the\\\"", "O\\\\Neil\""])
        #expect(HeaderEncoding.phrase("Zoë") == ["=?UTF-8?B?Wm/Dqw==?="])
    }

    @Test func dotStuffingDoublesLeadingDotsAndTerminates() {
        func stuffed(_ text: String) -> String { String(decoding: DotStuffing.dataPayload(Array(text.utf8)), as: UTF8.self) }
        #expect(stuffed(".a\r\nb\r\n..c\r\n.\r\n") == "..a\r\nb\r\n...c\r\n..\r\n.\r\n")
        #expect(stuffed("no final break") == "no final break\r\n.\r\n")
        #expect(stuffed("") == ".\r\n")
        #expect(stuffed("a.b\r\n") == "a.b\r\n.\r\n")
    }

    @Test func datesAreRFC5322InUTC() {
        #expect(RFC5322Date.format(secondsSince1970: 0) == "Thu, 1 Jan 1970 00:00:00 +0000")
        #expect(RFC5322Date.format(secondsSince1970: 951_782_400) == "Tue, 29 Feb 2000 00:00:00 +0000")
        #expect(RFC5322Date.format(secondsSince1970: 1_795_000_000) == "Wed, 18 Nov 2026 11:06:40 +0000")
        #expect(RFC5322Date.format(secondsSince1970: -1) == "Wed, 31 Dec 1969 23:59:59 +0000")
    }

    @Test func renderedMessageHasTheRequiredHeadersInOrder() throws {
        let message = try EmailMessage(
            from: EmailAddress("no-reply@cognate.example"), to: EmailAddress("user@example.com"),
            subject: "Hi", textBody: "Body", extraHeaders: [EmailHeader(name: "Reply-To", value: "help@cognate.example")])
        let text = MessageRenderer(date: "Thu, 1 Jan 1970 00:00:00 +0000", messageID: "<id@cognate.example>", boundary: "=_b").render(message)
        #expect(text == """
            Date: Thu, 1 Jan 1970 00:00:00 +0000\r
            From: no-reply@cognate.example\r
            To: user@example.com\r
            Subject: Hi\r
            Message-ID: <id@cognate.example>\r
            MIME-Version: 1.0\r
            Reply-To: help@cognate.example\r
            Content-Type: text/plain; charset=utf-8\r
            Content-Transfer-Encoding: quoted-printable\r
            \r
            Body\r

            """)
    }
}
