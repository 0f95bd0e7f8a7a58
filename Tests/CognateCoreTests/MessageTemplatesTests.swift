@testable import CognateCore
import CognateProtocol
import Testing

struct MessageTemplatesTests {
    @Test func replacingEveryOccurrenceByteForByte() {
        #expect("a {####} b {####}".replacingEvery("{####}", with: "123456") == "a 123456 b 123456")
        #expect("no placeholder".replacingEvery("{####}", with: "1") == "no placeholder")
        #expect("aaaa".replacingEvery("aa", with: "b") == "bb")
        #expect("aaa".replacingEvery("aa", with: "b") == "ba")
        #expect("{####}".replacingEvery("{####}", with: "") == "")
        #expect("x".replacingEvery("", with: "y") == "x")
        #expect("café {username} ☕️".replacingEvery("{username}", with: "zoë") == "café zoë ☕️")
        #expect("é".replacingEvery("e", with: "x") == "é")   // precomposed: no byte of it is "e"
        #expect("🙂{####}🙂".replacingEvery("{####}", with: "🎉") == "🙂🎉🙂")
    }

    @Test func verificationMessagesFillCodeUsernameAndLinks() {
        var pool = UserPoolType()
        pool.verificationMessageTemplate = VerificationMessageTemplateType(
            smsMessage: "SMS {####}", emailMessage: "Hi {username}, {####} / {####}", emailSubject: "Code {####}",
            emailMessageByLink: "{username}: {##Verify Email##} or {##here##}", emailSubjectByLink: "Link for {username}",
            defaultEmailOption: .confirmWithLink)
        let email = MessageTemplates.verification(pool: pool, medium: .email, code: "123456", username: "zoë")
        #expect(email.subject == "Code 123456")
        #expect(email.body == "Hi zoë, 123456 / 123456")
        let link = MessageTemplates.verification(pool: pool, medium: .email, code: "1", username: "zoë", link: "https://x/c?a=1")
        #expect(link.subject == "Link for zoë")
        #expect(link.body == "zoë: <a href=\"https://x/c?a=1\">Verify Email</a> or <a href=\"https://x/c?a=1\">here</a>")
        #expect(MessageTemplates.verification(pool: pool, medium: .sms, code: "42", username: "u") == (nil, "SMS 42"))
        #expect(MessageTemplates.verification(pool: UserPoolType(), medium: .email, code: "7", username: "u").body
            == "Your verification code is 7. ")
    }
}
