/// Everything an ``SMTPClient`` needs to reach and use one SMTP server (a submission server or
/// relay). A value type: build it once from the deployment's settings.
public struct SMTPConfiguration: Sendable, Hashable {
    /// The server's DNS name or IP literal; with TLS, the name its certificate must carry.
    public var host: String
    public var port: Int
    public var security: SMTPSecurity
    /// When set, the client authenticates after the session is secured and fails permanently
    /// when the server does not offer `AUTH PLAIN` or `AUTH LOGIN`.
    public var credentials: SMTPCredentials?
    public var tlsTrust: SMTPTLSTrust
    /// The name the client gives in `EHLO`: this machine's fully qualified public DNS name.
    /// Some servers reject or score down mail whose `EHLO` name is not a resolvable domain.
    public var ehloHostname: String
    public var timeouts: SMTPTimeouts
    /// How long a connection is kept open after a message for the next one to reuse. Zero
    /// closes it (with `QUIT`) after every message.
    public var idleConnectionTimeout: Duration

    /// - Parameter port: defaults to the conventional port of `security` (25, 587 or 465).
    public init(
        host: String,
        port: Int? = nil,
        security: SMTPSecurity,
        credentials: SMTPCredentials? = nil,
        tlsTrust: SMTPTLSTrust = .systemRoots,
        ehloHostname: String = "localhost",
        timeouts: SMTPTimeouts = SMTPTimeouts(),
        idleConnectionTimeout: Duration = .seconds(30)
    ) {
        self.host = host
        self.port = port ?? security.defaultPort
        self.security = security
        self.credentials = credentials
        self.tlsTrust = tlsTrust
        self.ehloHostname = ehloHostname
        self.timeouts = timeouts
        self.idleConnectionTimeout = idleConnectionTimeout
    }

    /// Throws ``SMTPError/invalidConfiguration(_:)`` naming the first setting that cannot work.
    func validate() throws {
        func invalid(_ reason: String) -> SMTPError { .invalidConfiguration(reason) }
        guard !host.isEmpty, host.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw invalid("host must be a non-empty DNS name or IP address without spaces")
        }
        guard (1...65535).contains(port) else { throw invalid("port \(port) is outside 1...65535") }
        guard EHLOHostname.isValid(ehloHostname) else {
            throw invalid("ehloHostname '\(ehloHostname)' is neither a domain name nor an address literal")
        }
        for (name, duration) in [("connect", timeouts.connect), ("command", timeouts.command), ("dataTransfer", timeouts.dataTransfer)]
        where duration <= .zero {
            throw invalid("the \(name) timeout must be positive")
        }
        guard idleConnectionTimeout >= .zero else { throw invalid("idleConnectionTimeout must not be negative") }
        if let credentials {
            guard !credentials.username.isEmpty else { throw invalid("the SMTP user name is empty") }
            guard !credentials.username.contains("\0"), !credentials.password.contains("\0") else {
                throw invalid("SMTP credentials cannot contain NUL characters")
            }
        }
    }
}

/// The syntax RFC 5321 allows after `EHLO`: a domain or an address literal such as `[192.0.2.1]`.
enum EHLOHostname {
    static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 255 else { return false }
        if bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") {
            return bytes.dropFirst().dropLast().allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":") }
        }
        return DomainName.isValid(name)
    }
}
