import CognateProtocol
import Foundation

/// What the hosted pages take from a managed login branding: a few colours of its settings
/// document (light mode) and its form logo. The rest of the document is stored and returned
/// unchanged but not rendered (docs/oauth.md lists what is).
enum BrandingStyle {
    /// Settings paths → CSS rules; `%@` is the colour.
    static let colorRules: [(path: [String], css: String)] = [
        (["components", "pageBackground", "lightMode", "color"], "body { background: %@; }"),
        (["components", "form", "lightMode", "backgroundColor"], "main { background: %@; }"),
        (["components", "pageText", "lightMode", "bodyColor"], "body, label, p { color: %@; }"),
        (["components", "pageText", "lightMode", "headingColor"], "h1, h2 { color: %@; }"),
        (["components", "primaryButton", "lightMode", "defaults", "backgroundColor"], "button { background: %@; border-color: %@; }"),
        (["components", "primaryButton", "lightMode", "defaults", "textColor"], "button { color: %@; }"),
    ]

    /// CSS for the colours the settings give; only hex colours (`RRGGBB` or `RRGGBBAA`, with
    /// or without `#`) are used, so nothing in the document can inject CSS.
    static func css(_ settings: JSONValue?) -> String {
        guard let settings else { return "" }
        return colorRules.compactMap { rule -> String? in
            guard case .string(let text)? = value(at: rule.path, in: settings), let color = hexColor(text) else { return nil }
            return rule.css.replacingOccurrences(of: "%@", with: color)
        }.joined(separator: "\n")
    }

    /// The form logo as a data URL (light or dynamic colour mode; PNG, JPEG or SVG).
    static func logo(_ assets: [AssetType]?) -> String? {
        let types: [AssetExtensionType: String] = [.png: "image/png", .jpeg: "image/jpeg", .svg: "image/svg+xml"]
        guard let asset = (assets ?? []).first(where: {
            $0.category == .formLogo && ($0.colorMode == .light || $0.colorMode == .dynamic) && types[$0.extension] != nil
        }), let bytes = asset.bytes, let type = types[asset.extension] else { return nil }
        return "data:\(type);base64,\(bytes.base64EncodedString())"
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
