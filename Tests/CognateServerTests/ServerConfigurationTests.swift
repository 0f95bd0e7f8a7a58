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
