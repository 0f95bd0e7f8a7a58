import Testing

@testable import CognateServer

struct ServerConfigurationTests {
    @Test func bannerNeverShowsADatabasePassword() {
        var configuration = ServerConfiguration()
        configuration.mode = .production
        configuration.adminCredentials = ["AKID": "secret"]
        configuration.database = "postgres://cognate:hunter2@db.internal:5432/cognate"
        let banner = configuration.banner(port: 9229)
        #expect(!banner.contains("hunter2"))
        #expect(banner.contains("postgres://cognate:***@db.internal:5432/cognate"))
    }

    @Test func devModeListensOnLoopbackUnlessToldOtherwise() {
        var configuration = ServerConfiguration()
        for host in ["127.0.0.1", "localhost", "::1"] {
            configuration.host = host
            #expect(configuration.problems().isEmpty, "\(host)")
        }
        configuration.host = "0.0.0.0"
        #expect(configuration.problems().first?.contains("--dev-mode-on-network") == true)
        configuration.allowDevModeOnNetwork = true
        #expect(configuration.problems().isEmpty)
        configuration.allowDevModeOnNetwork = false
        configuration.mode = .production
        configuration.adminCredentials = ["AKID": "secret"]
        configuration.delivery.email = .outbox
        #expect(configuration.problems().isEmpty)
    }

    /// The refusal names the way deploy.md recommends: a file only its owner may read.
    @Test func productionWithoutKeysNamesTheCredentialsFile() {
        var configuration = ServerConfiguration()
        configuration.mode = .production
        configuration.delivery.email = .outbox
        let problem = configuration.problems().first ?? ""
        #expect(problem.contains("--admin-credentials-file") && problem.contains("COGNATE_ADMIN_CREDENTIALS_FILE")
            && problem.contains("admin_credentials_file"))
    }

    /// Found before the database is opened: a start that fails on them creates nothing.
    @Test func anUnusableSenderOrUnreadableFileIsAProblem() {
        var configuration = ServerConfiguration()
        configuration.delivery.email = .smtp
        configuration.delivery.smtpHost = "mail.example.com"
        configuration.delivery.smtpFrom = "nobody"
        configuration.tlsCertificatePath = "/nonexistent/chain.pem"
        configuration.tlsKeyPath = "/nonexistent/key.pem"
        configuration.delivery.smtpCAFile = "/nonexistent/ca.pem"
        let problems = configuration.problems()
        #expect(problems.contains("--smtp-from must be an address or 'Name <address>', not nobody."))
        #expect(problems.contains("tls.certificate: cannot read /nonexistent/chain.pem."))
        #expect(problems.contains("tls.key: cannot read /nonexistent/key.pem."))
        #expect(problems.contains("smtp.ca_file: cannot read /nonexistent/ca.pem."))
    }

    @Test func deliveryChannelsNeedWhatTheyUse() {
        var configuration = ServerConfiguration()
        configuration.mode = .production
        configuration.adminCredentials = ["AKID": "secret"]
        #expect(configuration.problems().contains { $0.contains("--email-delivery") })
        configuration.delivery.email = .smtp
        #expect(configuration.problems().contains { $0.contains("--smtp-host") })
        #expect(configuration.problems().contains { $0.contains("--smtp-from") })
        configuration.delivery.smtpHost = "mail.example.com"
        configuration.delivery.smtpFrom = "Cognate <no-reply@example.com>"
        #expect(configuration.problems().isEmpty)
        configuration.delivery.sms = .webhook
        configuration.delivery.smsWebhookURL = "https://sms.example.com/send"
        #expect(configuration.problems().contains { $0.contains("secret") })
        configuration.delivery.webhookSecret = "s3cret"
        #expect(configuration.problems().isEmpty)
        configuration.delivery.sms = .smtp
        #expect(configuration.problems().contains { $0.contains("SMS cannot go through SMTP") })
    }
}
