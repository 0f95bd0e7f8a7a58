import Foundation
import Testing

@testable import CognateProtocol

/// The signer against AWS's published SigV4 test suite ("get-vanilla", "post-x-www-form-urlencoded"
/// style headers), and the shared pieces the server's verifier uses.
struct SigV4SignerTests {
    let signer = SigV4Signer(
        accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", region: "us-east-1",
        service: "service")
    let date = SigV4.parseAmzDate("20150830T123600Z")!

    @Test func signsTheReferenceRequest() {
        let headers = signer.sign(method: "GET", url: URL(string: "https://example.amazonaws.com/")!, headers: [:],
                                  body: Data(), date: date)
        #expect(headers["X-Amz-Date"] == "20150830T123600Z")
        #expect(headers["Authorization"] == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            + "SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31")
    }

    /// AWS's "post-header-key-sort": an extra header signed in sorted order.
    @Test func signsExtraHeadersSorted() {
        let headers = signer.sign(method: "POST", url: URL(string: "https://example.amazonaws.com/")!,
                                  headers: ["My-Header1": "value1"], body: Data(), date: date)
        #expect(headers["Authorization"]?.hasSuffix("SignedHeaders=host;my-header1;x-amz-date, "
            + "Signature=c5410059b04c1ee005303aed430f6e6645f61f4dc9e1461ec8f8916fdf18852c") == true)
    }

    @Test func hostLeavesOutTheDefaultPort() {
        #expect(SigV4Signer.host(of: URL(string: "http://127.0.0.1:9229/")!) == "127.0.0.1:9229")
        #expect(SigV4Signer.host(of: URL(string: "https://cognate.example:443/")!) == "cognate.example")
        #expect(SigV4Signer.host(of: URL(string: "http://cognate.example/")!) == "cognate.example")
    }

    @Test func amzDateRoundTrips() {
        #expect(SigV4.amzDate(date) == "20150830T123600Z")
        #expect(SigV4.parseAmzDate("2015-08-30") == nil)
    }
}
