import NIOSSL

extension SMTPTLSTrust {
    /// The TLS client context for this trust setting: TLS 1.2 or later, full certificate and
    /// host name verification except with ``insecureSkipVerificationForTestsOnly``.
    ///
    /// A CA file is read here, once, so a missing or malformed file is reported when the client
    /// is made rather than at the first message.
    /// - Throws: ``SMTPError/invalidConfiguration(_:)`` when the CA file cannot be loaded.
    func makeClientContext() throws -> NIOSSLContext {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        switch self {
        case .systemRoots:
            break
        case .systemRootsAndCertificateAuthorities(let pemFile):
            tls.additionalTrustRoots = [.certificates(try Self.loadCertificates(pemFile))]
        case .onlyCertificateAuthorities(let pemFile):
            tls.trustRoots = .certificates(try Self.loadCertificates(pemFile))
        case .insecureSkipVerificationForTestsOnly:
            tls.certificateVerification = .none
        }
        do {
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw SMTPError.invalidConfiguration("cannot set up TLS: \(error)")
        }
    }

    private static func loadCertificates(_ pemFile: String) throws -> [NIOSSLCertificate] {
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMFile(pemFile)
        } catch {
            throw SMTPError.invalidConfiguration("cannot read CA certificates from \(pemFile): \(error)")
        }
        guard !certificates.isEmpty else {
            throw SMTPError.invalidConfiguration("\(pemFile) holds no PEM certificate")
        }
        return certificates
    }
}
