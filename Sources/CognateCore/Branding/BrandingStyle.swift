import CognateProtocol
import Foundation

/// What the hosted pages take from a managed login branding (docs/oauth.md lists it): the
/// settings document's colours for light and dark mode, its radii, spacing, colour scheme, form
/// and logo placement, header and footer, and the images of its assets. The rest of the
/// document is stored and returned unchanged but not rendered.
///
/// Only validated values leave this type: colours as `#rrggbb` or `#rrggbbaa`, lengths as
/// whole pixels, images as base64 `data:` URLs of the asset types the pages know, placements
/// as a closed set. Nothing in a settings document can add CSS or markup of its own.
public struct HostedBranding: Sendable, Equatable {
    public enum Scheme: String, Sendable { case light, dark, dynamic }
    /// START, CENTER or END of a settings document.
    public enum Place: String, Sendable { case start, center, end }

    /// An image for light and for dark mode: an asset of that mode, or a browser-adaptive one
    /// (nil: none for that mode).
    public struct Image: Sendable, Equatable {
        public var light: String?
        public var dark: String?
    }

    /// A page header or footer: shown when the branding enables it.
    public struct Bar: Sendable, Equatable {
        public var logo: Image?
        public var logoPlace: Place = .start
        public var background: Image?
    }

    public var scheme: Scheme = .light
    /// CSS custom properties (`--page-bg` …) the settings give for light and for dark mode.
    public var light: [String: String] = [:]
    public var dark: [String: String] = [:]
    /// Custom properties that do not depend on the mode (radii, spacing).
    public var shared: [String: String] = [:]
    public var formHorizontal: Place = .center
    public var formVertical: Place = .center
    public var formLogo: Image?
    /// Where the form logo goes: in the form or above/below it, at its start, centre or end.
    public var logoInForm = true
    public var logoPlace: Place = .center
    public var logoAtTop = true
    public var pageBackground: Image?
    public var formBackground: Image?
    public var header: Bar?
    public var footer: Bar?
    /// A `data:` URL of the favicon (ICO or SVG).
    public var favicon: String?
    /// The pages' illustrations (`categories.form.displayGraphics`): `password`, `authApp`,
    /// `email`, `sms`.
    public var graphics: [String: Image] = [:]

    public init() {}
}

enum BrandingStyle {
    /// Colour settings → custom properties: the path before the mode (`lightMode`/`darkMode`)
    /// and the path after it.
    static let colors: [(variable: String, component: [String], key: [String])] = [
        ("--page-bg", ["components", "pageBackground"], ["color"]),
        ("--form-bg", ["components", "form"], ["backgroundColor"]),
        ("--form-border", ["components", "form"], ["borderColor"]),
        ("--text", ["components", "pageText"], ["bodyColor"]),
        ("--heading", ["components", "pageText"], ["headingColor"]),
        ("--muted", ["components", "pageText"], ["descriptionColor"]),
        ("--primary-bg", ["components", "primaryButton"], ["defaults", "backgroundColor"]),
        ("--primary-text", ["components", "primaryButton"], ["defaults", "textColor"]),
        ("--primary-hover-bg", ["components", "primaryButton"], ["hover", "backgroundColor"]),
        ("--primary-hover-text", ["components", "primaryButton"], ["hover", "textColor"]),
        ("--primary-active-bg", ["components", "primaryButton"], ["active", "backgroundColor"]),
        ("--primary-active-text", ["components", "primaryButton"], ["active", "textColor"]),
        ("--error-bg", ["components", "alert"], ["error", "backgroundColor"]),
        ("--error-border", ["components", "alert"], ["error", "borderColor"]),
        ("--header-bg", ["components", "pageHeader"], ["background", "color"]),
        ("--header-border", ["components", "pageHeader"], ["borderColor"]),
        ("--footer-bg", ["components", "pageFooter"], ["background", "color"]),
        ("--footer-border", ["components", "pageFooter"], ["borderColor"]),
        ("--input-bg", ["componentClasses", "input"], ["defaults", "backgroundColor"]),
        ("--input-border", ["componentClasses", "input"], ["defaults", "borderColor"]),
        ("--placeholder", ["componentClasses", "input"], ["placeholderColor"]),
        ("--label", ["componentClasses", "inputLabel"], ["textColor"]),
        ("--hint", ["componentClasses", "inputDescription"], ["textColor"]),
        ("--link", ["componentClasses", "link"], ["defaults", "textColor"]),
        ("--link-hover", ["componentClasses", "link"], ["hover", "textColor"]),
        ("--focus", ["componentClasses", "focusState"], ["borderColor"]),
        ("--divider", ["componentClasses", "divider"], ["borderColor"]),
        ("--error-indicator", ["componentClasses", "statusIndicator"], ["error", "indicatorColor"]),
        ("--success-bg", ["componentClasses", "statusIndicator"], ["success", "backgroundColor"]),
        ("--success-border", ["componentClasses", "statusIndicator"], ["success", "borderColor"]),
        ("--success-indicator", ["componentClasses", "statusIndicator"], ["success", "indicatorColor"]),
        ("--option-selected", ["componentClasses", "optionControls"], ["selected", "backgroundColor"]),
        ("--option-border", ["componentClasses", "optionControls"], ["defaults", "borderColor"]),
    ]

    /// Corner radii (pixels, 0…64).
    static let radii: [(variable: String, path: [String])] = [
        ("--form-radius", ["components", "form", "borderRadius"]),
        ("--alert-radius", ["components", "alert", "borderRadius"]),
        ("--button-radius", ["componentClasses", "buttons", "borderRadius"]),
        ("--input-radius", ["componentClasses", "input", "borderRadius"]),
    ]

    /// `categories.global.spacingDensity` → the pages' spacing unit.
    static let spacing = ["COMPACT": "0.75rem", "REGULAR": "1rem", "SPACIOUS": "1.375rem"]

    /// The look of `settings` and `assets`.
    static func branding(_ settings: JSONValue?, assets: [AssetType]?) -> HostedBranding {
        let settings = settings ?? .object([:])
        var look = HostedBranding()
        func string(_ path: [String]) -> String? {
            guard case .string(let text)? = value(at: path, in: settings) else { return nil }
            return text
        }
        func enabled(_ path: [String]) -> Bool? {
            guard case .bool(let flag)? = value(at: path, in: settings) else { return nil }
            return flag
        }
        func place(_ path: [String]) -> HostedBranding.Place? {
            string(path).flatMap { HostedBranding.Place(rawValue: $0.lowercased()) }
        }
        let images = Images(assets ?? [])

        switch string(["categories", "global", "colorSchemeMode"])?.uppercased() {
        case "DARK": look.scheme = .dark
        case "DYNAMIC": look.scheme = .dynamic
        default: look.scheme = .light
        }
        for rule in colors {
            if let color = string(rule.component + ["lightMode"] + rule.key).flatMap(hexColor) { look.light[rule.variable] = color }
            if let color = string(rule.component + ["darkMode"] + rule.key).flatMap(hexColor) { look.dark[rule.variable] = color }
        }
        for rule in radii {
            guard case .number(let radius)? = value(at: rule.path, in: settings), radius.isFinite else { continue }
            look.shared[rule.variable] = "\(Int(min(max(radius, 0), 64)))px"
        }
        if let density = string(["categories", "global", "spacingDensity"]).flatMap({ spacing[$0.uppercased()] }) {
            look.shared["--space"] = density
        }

        look.formHorizontal = place(["categories", "form", "location", "horizontal"]) ?? .center
        look.formVertical = place(["categories", "form", "location", "vertical"]) ?? .center
        // An uploaded logo shows unless the settings turn it off (Cognito's own documents
        // always say, and show it only when `enabled` is true).
        if enabled(["components", "form", "logo", "enabled"]) != false { look.formLogo = images[.formLogo] }
        look.logoInForm = string(["components", "form", "logo", "formInclusion"])?.uppercased() != "OUT"
        look.logoPlace = place(["components", "form", "logo", "location"]) ?? .center
        look.logoAtTop = string(["components", "form", "logo", "position"])?.uppercased() != "BOTTOM"
        if enabled(["components", "pageBackground", "image", "enabled"]) != false { look.pageBackground = images[.pageBackground] }
        if enabled(["components", "form", "backgroundImage", "enabled"]) == true { look.formBackground = images[.formBackground] }

        for (category, component, logo, background) in [
            ("pageHeader", \HostedBranding.header, AssetCategoryType.pageHeaderLogo, AssetCategoryType.pageHeaderBackground),
            ("pageFooter", \HostedBranding.footer, .pageFooterLogo, .pageFooterBackground),
        ] where enabled(["categories", "global", category, "enabled"]) == true {
            var bar = HostedBranding.Bar()
            if enabled(["components", category, "logo", "enabled"]) != false { bar.logo = images[logo] }
            bar.logoPlace = place(["components", category, "logo", "location"]) ?? .start
            if enabled(["components", category, "backgroundImage", "enabled"]) == true { bar.background = images[background] }
            look[keyPath: component] = bar
        }

        let favicons: [String]
        if case .array(let types)? = value(at: ["components", "favicon", "enabledTypes"], in: settings) {
            favicons = types.compactMap { if case .string(let type) = $0 { type.uppercased() } else { nil } }
        } else {
            favicons = ["ICO", "SVG"]
        }
        look.favicon = favicons.lazy.compactMap {
            images[$0 == "SVG" ? .faviconSvg : .faviconIco].flatMap { $0.light ?? $0.dark }
        }.first

        if enabled(["categories", "form", "displayGraphics"]) != false {
            for (name, category) in [("password", AssetCategoryType.passwordGraphic), ("authApp", .authAppGraphic),
                                     ("email", .emailGraphic), ("sms", .smsGraphic),
                                     ("passkey", .passkeyGraphic)] {
                look.graphics[name] = images[category]
            }
        }
        return look
    }

    /// The assets as `data:` URLs, by category, for light and dark mode: an asset of the mode,
    /// else the browser-adaptive one.
    struct Images {
        static let types: [AssetExtensionType: String] = [
            .png: "image/png", .jpeg: "image/jpeg", .svg: "image/svg+xml", .ico: "image/x-icon", .webp: "image/webp",
        ]
        var urls: [String: String] = [:]

        init(_ assets: [AssetType]) {
            for asset in assets {
                guard let type = Self.types[asset.extension], let bytes = asset.bytes, !bytes.isEmpty else { continue }
                urls[asset.category.rawValue + "/" + asset.colorMode.rawValue] = "data:\(type);base64,\(bytes.base64EncodedString())"
            }
        }

        subscript(category: AssetCategoryType) -> HostedBranding.Image? {
            func url(_ modes: [ColorSchemeModeType]) -> String? {
                modes.lazy.compactMap { urls[category.rawValue + "/" + $0.rawValue] }.first
            }
            let image = HostedBranding.Image(light: url([.light, .dynamic]), dark: url([.dark, .dynamic]))
            return image.light == nil && image.dark == nil ? nil : image
        }
    }

    static func value(at path: [String], in document: JSONValue) -> JSONValue? {
        path.reduce(Optional(document)) { node, key in
            guard case .object(let members)? = node else { return nil }
            return members[key]
        }
    }

    static func hexColor(_ text: String) -> String? {
        let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard [6, 8].contains(digits.count), digits.allSatisfy(\.isHexDigit) else { return nil }
        return "#" + digits.lowercased()
    }
}
