/// Patterns of the hand-written PIN operations' members, named so that regenerating the
/// botocore-derived `WirePatterns` (numbered by order of appearance) cannot shift them.
/// They are Cognito's own patterns for the same member types.
enum PinWirePatterns {
    /// `UserPoolIdType`.
    static let userPoolId = WirePattern("[\\w-]+_[0-9a-zA-Z]+", icu: "[A-Za-z0-9_-]+_[0-9a-zA-Z]+")
    /// `TokenModelType` (an access token).
    static let accessToken = WirePattern("[A-Za-z0-9-_=.]+", icu: "[A-Za-z0-9-_=.]+")
}
