/// Which server certificates a TLS session (`.startTLS` or `.implicitTLS`) accepts.
///
/// In every mode but ``insecureSkipVerificationForTestsOnly`` the certificate chain must lead to
/// a trusted root and name the configured host (a DNS name, or an IP address SAN when the host
/// is an IP literal).
public enum SMTPTLSTrust: Sendable, Hashable {
    /// The operating system's root certificates.
    case systemRoots

    /// The operating system's roots plus the CA certificates in a PEM file (a private CA, or a
    /// self-signed server certificate).
    case systemRootsAndCertificateAuthorities(pemFile: String)

    /// Only the CA certificates in a PEM file; the system roots are not trusted.
    case onlyCertificateAuthorities(pemFile: String)

    /// Accepts any certificate for any name: the connection is encrypted but not authenticated,
    /// so anyone on the path can read the password and the mail. Tests and development only.
    case insecureSkipVerificationForTestsOnly
}
