import Foundation

/// A private CA and two server certificates it signed with one key: one for `localhost` and
/// `127.0.0.1`, one for `mail.other.test` only; plus a second, unrelated CA that must not be
/// trusted for either. Made with the `openssl` command once per test run, in a temporary directory.
struct TestCertificates: Sendable {
    let directory: URL
    var caFile: String { directory.appendingPathComponent("ca.pem").path }
    var otherCAFile: String { directory.appendingPathComponent("other-ca.pem").path }
    var serverCertificateFile: String { directory.appendingPathComponent("server.pem").path }
    var otherNameCertificateFile: String { directory.appendingPathComponent("other-name.pem").path }
    var serverKeyFile: String { directory.appendingPathComponent("server.key").path }

    /// The certificates of this test run, made on first use.
    static func shared() async throws -> TestCertificates { try await cache.value }

    private static let cache = Task { try await make() }

    private static func make() async throws -> TestCertificates {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cognate-smtp-certs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let ecKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        for name in ["ca", "other-ca"] {
            try await ChildProcess.run(
                ["openssl", "req", "-x509"] + ecKey + [
                    "-keyout", "\(name).key", "-out", "\(name).pem", "-days", "2",
                    "-subj", "/CN=Cognate SMTP test \(name)",
                    "-addext", "basicConstraints=critical,CA:TRUE",
                    "-addext", "keyUsage=critical,keyCertSign,cRLSign",
                ],
                in: directory
            )
        }
        try await ChildProcess.run(
            ["openssl", "req"] + ecKey + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=Cognate SMTP test server"],
            in: directory
        )
        for (file, names) in [("server", "DNS:localhost,IP:127.0.0.1"), ("other-name", "DNS:mail.other.test")] {
            let extensions = """
                subjectAltName=\(names)
                basicConstraints=critical,CA:FALSE
                keyUsage=critical,digitalSignature
                extendedKeyUsage=serverAuth
                """
            try extensions.write(to: directory.appendingPathComponent("\(file).ext"), atomically: true, encoding: .utf8)
            try await ChildProcess.run(
                ["openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                 "-out", "\(file).pem", "-days", "2", "-extfile", "\(file).ext"],
                in: directory
            )
        }
        return TestCertificates(directory: directory)
    }
}
