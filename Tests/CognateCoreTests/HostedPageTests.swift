import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

/// What the hosted pages take from a pool and its branding.
struct HostedPageTests {
    @Test func brandingTakesOnlyValidatedValues() {
        let settings = JSONValue.object([
            "categories": .object([
                "global": .object(["colorSchemeMode": .string("DYNAMIC"), "spacingDensity": .string("COMPACT")]),
                "form": .object(["location": .object(["horizontal": .string("START"), "vertical": .string("} body {")])]),
            ]),
            "components": .object([
                "pageBackground": .object([
                    "lightMode": .object(["color": .string("#ABCDEF")]), "darkMode": .object(["color": .string("0f1b2aff")]),
                ]),
                "form": .object([
                    "lightMode": .object(["backgroundColor": .string("red; } * { display:none")]),
                    "borderRadius": .number(400), "logo": .object(["position": .string("BOTTOM")]),
                ]),
                "alert": .object(["borderRadius": .string("9px; color: red")]),
            ]),
        ])
        let look = BrandingStyle.branding(settings, assets: [])
        #expect(look.scheme == .dynamic && look.light == ["--page-bg": "#abcdef"] && look.dark == ["--page-bg": "#0f1b2aff"])
        #expect(look.shared == ["--form-radius": "64px", "--space": "0.75rem"])
        #expect(look.formHorizontal == .start && look.formVertical == .center && !look.logoAtTop && look.logoInForm)
        #expect(BrandingStyle.branding(.array([]), assets: nil) == HostedBranding())

        let dark = AssetType(category: .formLogo, colorMode: .dark, extension: .png, bytes: Data([1, 2, 3]))
        #expect(BrandingStyle.branding(nil, assets: [dark]).formLogo
            == HostedBranding.Image(light: nil, dark: "data:image/png;base64,AQID"))        // each mode its own
        let adaptive = AssetType(category: .formLogo, colorMode: .dynamic, extension: .png, bytes: Data([1, 2, 3]))
        #expect(BrandingStyle.branding(nil, assets: [adaptive]).formLogo
            == HostedBranding.Image(light: "data:image/png;base64,AQID", dark: "data:image/png;base64,AQID"))
        let light = AssetType(category: .formLogo, colorMode: .light, extension: .png, bytes: Data([4]))
        let both = BrandingStyle.branding(nil, assets: [dark, light]).formLogo
        #expect(both?.light == "data:image/png;base64,BA==" && both?.dark == "data:image/png;base64,AQID")
        let off = JSONValue.object(["components": .object(["form": .object(["logo": .object(["enabled": .bool(false)])])])])
        #expect(BrandingStyle.branding(off, assets: [light]).formLogo == nil)
    }

    @Test func theSignInFieldIsNamedAsThePoolNamesItsUsers() {
        func label(usernames: [UsernameAttributeType]? = nil, aliases: [AliasAttributeType]? = nil) -> String {
            HostedPageContent.signInNameField(UserPoolType(aliasAttributes: aliases, usernameAttributes: usernames)).label
        }
        #expect(label() == "Username" && label(aliases: [.preferredUsername]) == "Username")
        #expect(label(usernames: [.email]) == "Email" && label(usernames: [.phoneNumber]) == "Phone number")
        #expect(label(usernames: [.email, .phoneNumber]) == "Email or phone number")
        #expect(label(aliases: [.email]) == "Username or email")
        #expect(label(aliases: [.email, .phoneNumber, .preferredUsername]) == "Username, email or phone number")
        #expect(HostedPageContent.signUpNameField(UserPoolType(aliasAttributes: [.email])).label == "Username")
        #expect(HostedPageContent.passwordRules(PasswordPolicyType(minimumLength: 12, requireNumbers: true))
            == ["At least 12 characters", "A number"])
        #expect(HostedPageContent.passwordRules(nil).count == 5)
    }
}
