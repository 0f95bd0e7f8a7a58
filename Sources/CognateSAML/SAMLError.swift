/// Why a SAML document was refused; `reason` is fit to show to an administrator or a user.
public struct SAMLError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
