import Foundation

extension EmailMessage {
    /// The message as RFC 5322 text, ready for `DATA` (before dot-stuffing): 7-bit ASCII with
    /// CRLF line endings, no line longer than 998 octets, ending with CRLF.
    ///
    /// Headers: `Date`, `From`, `To`, `Subject` (RFC 2047 encoded-words when not ASCII),
    /// `Message-ID` (random, at the sender's domain), `MIME-Version`, the extra headers, then the
    /// content headers. Bodies are UTF-8 in quoted-printable; with an HTML body the message is
    /// `multipart/alternative`.
    public func rendered(date: Date = Date()) -> String {
        MessageRenderer(
            date: RFC5322Date.format(secondsSince1970: Int64(date.timeIntervalSince1970.rounded(.down))),
            messageID: "<\(RandomToken.hex(byteCount: 16))@\(from.domain)>",
            boundary: "=_cognate_\(RandomToken.hex(byteCount: 16))"
        ).render(self)
    }
}

/// Renders an ``EmailMessage`` with a given date, message ID and MIME boundary.
struct MessageRenderer {
    let date: String
    let messageID: String
    /// Starts with `=_`, which quoted-printable output can never contain, so no body line can
    /// be mistaken for a boundary.
    let boundary: String

    func render(_ message: EmailMessage) -> String {
        var text = HeaderEncoding.field("Date", [date])
        text += HeaderEncoding.field("From", HeaderEncoding.mailboxList([message.from]))
        text += HeaderEncoding.field("To", HeaderEncoding.mailboxList(message.to))
        text += HeaderEncoding.field("Subject", HeaderEncoding.unstructured(message.subject))
        text += HeaderEncoding.field("Message-ID", [messageID])
        text += "MIME-Version: 1.0\r\n"
        for header in message.extraHeaders {
            text += HeaderEncoding.field(header.name, HeaderEncoding.unstructured(header.value))
        }
        guard let html = message.htmlBody else {
            return text + textPart(subtype: "plain", body: message.textBody)
        }
        // The CRLF before each delimiter belongs to the delimiter (RFC 2046 §5.1.1), so each
        // part's own final line break is kept.
        text += "Content-Type: multipart/alternative; boundary=\"\(boundary)\"\r\n\r\n"
        text += "--\(boundary)\r\n" + textPart(subtype: "plain", body: message.textBody)
        text += "\r\n--\(boundary)\r\n" + textPart(subtype: "html", body: html)
        return text + "\r\n--\(boundary)--\r\n"
    }

    /// Content headers, a blank line and the quoted-printable body (which ends with CRLF).
    private func textPart(subtype: String, body: String) -> String {
        "Content-Type: text/\(subtype); charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
            + QuotedPrintable.encode(body)
    }
}

enum RandomToken {
    /// `byteCount` bytes from the system's secure random generator, as lowercase hex.
    static func hex(byteCount: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        for _ in 0..<byteCount {
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            bytes += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
