import Foundation

/// How the Authenticator looks, in platform-neutral values the SwiftUI views turn into colors
/// and fonts: colors as hex strings (`#RRGGBB` or `#RRGGBBAA`), sizes in points, and the name of
/// an image in the app's asset catalog for the logo.
///
/// ```swift
/// var theme = AuthenticatorTheme()
/// theme.primaryColor = "#0B6E4F"
/// theme.logoName = "Logo"
/// Authenticator(auth: client, theme: theme) { state in HomeView(user: state.user) }
/// ```
public struct AuthenticatorTheme: Sendable, Equatable {
    /// Buttons, links, the focus.
    public var primaryColor = "#2F6FEB"
    /// The text on primary buttons.
    public var onPrimaryColor = "#FFFFFF"
    /// Titles and field text; nil: the system's (dark mode follows).
    public var textColor: String?
    /// Instructions and labels.
    public var secondaryTextColor = "#6B7280"
    /// The screen behind the form; nil: the system's.
    public var backgroundColor: String?
    /// Field borders.
    public var fieldBorderColor = "#D1D5DB"
    /// The error banner and field errors.
    public var errorColor = "#C62828"
    /// The information banner.
    public var noticeColor = "#1B5E20"
    public var cornerRadius = 10.0
    public var titleFontSize = 28.0
    public var bodyFontSize = 17.0
    public var captionFontSize = 13.0
    /// Space between the form's parts.
    public var spacing = 16.0
    /// The widest the form gets (on iPad and the Mac).
    public var maximumWidth = 440.0
    /// An image of the app's asset catalog shown above the title; nil: none.
    public var logoName: String?
    public var logoHeight = 64.0

    public init() {}

    /// A color's red, green, blue and opacity, 0…1; nil when `hex` is not `#RGB`, `#RRGGBB` or
    /// `#RRGGBBAA`.
    public static func components(ofHex hex: String) -> (red: Double, green: Double, blue: Double, opacity: Double)? {
        var digits = Substring(hex.trimmingCharacters(in: .whitespaces))
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        if digits.count == 3 { digits = Substring(digits.map { "\($0)\($0)" }.joined()) }
        guard digits.count == 6 || digits.count == 8, let value = UInt64(digits, radix: 16) else { return nil }
        let rgba = digits.count == 6 ? value << 8 | 0xFF : value
        func channel(_ shift: UInt64) -> Double { Double((rgba >> shift) & 0xFF) / 255 }
        return (channel(24), channel(16), channel(8), channel(0))
    }
}
