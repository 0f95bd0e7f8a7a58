extension Dictionary where Key == String, Value == String {
    /// The map as a request member: omitted (nil) when empty, as Cognito's own SDKs send it.
    var nilIfEmpty: [String: String]? { isEmpty ? nil : self }
}
