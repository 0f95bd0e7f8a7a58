/// The service extensions a server announced in its `EHLO` reply (RFC 5321 §4.1.1.1): every line
/// after the first is a keyword and its parameters, such as `AUTH PLAIN LOGIN` or `SIZE 35882577`.
struct SMTPCapabilities: Sendable, Hashable {
    /// Upper-cased keyword → its parameters.
    private let extensions: [String: [String]]

    /// No extensions: what a server that only understands `HELO` offers.
    static let none = SMTPCapabilities(extensions: [:])

    private init(extensions: [String: [String]]) { self.extensions = extensions }

    init(ehloReply reply: SMTPReply) {
        var extensions: [String: [String]] = [:]
        for line in reply.lines.dropFirst() {
            let words = line.split(separator: " ").map(String.init)
            guard let keyword = words.first?.uppercased() else { continue }
            // Some old servers also announce "AUTH=LOGIN PLAIN"; both spellings count.
            if keyword.hasPrefix("AUTH=") {
                extensions["AUTH", default: []] += [String(keyword.dropFirst(5))] + words.dropFirst()
            } else {
                extensions[keyword, default: []] += words.dropFirst()
            }
        }
        self.extensions = extensions
    }

    var supportsStartTLS: Bool { extensions["STARTTLS"] != nil }

    /// The SASL mechanisms after `AUTH`, upper-cased.
    var authenticationMechanisms: [String] { (extensions["AUTH"] ?? []).map { $0.uppercased() } }

    /// The largest message the server accepts, when it announced one (`SIZE 0` means no limit).
    var sizeLimit: Int? {
        guard let parameter = extensions["SIZE"]?.first, let limit = Int(parameter), limit > 0 else { return nil }
        return limit
    }
}
