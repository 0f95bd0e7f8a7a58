import Foundation

// The types that carry bearer secrets describe themselves without them — in `print`,
// string interpolation, `debugPrint`, `dump` and the debugger — as ``ChallengeSession`` does:
// an app that logs a value for diagnosis must not log a token, a device secret, a PIN key or
// the client secret with it.

extension AuthTokens: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "AuthTokens(user: \(user.username), sub: \(user.userId), expiresAt: \(expiresAt), tokens redacted)"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["user": user, "expiresAt": expiresAt], displayStyle: .struct)
    }
}

extension RememberedDevice: CustomDebugStringConvertible, CustomReflectable {
    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["deviceKey": deviceKey, "groupKey": groupKey, "hasPIN": hasPIN], displayStyle: .struct)
    }
}

extension ProfileRecord: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        let parts = [
            tokens.map { "tokens: \($0)" }, registration.map { "registration: \($0.step)" },
            pendingCodes.isEmpty ? nil : "pendingCodes: \(pendingCodes.count)", device.map { "device: \($0)" },
            identity.map { "identity: \($0.userId == nil ? "guest" : "user"), id redacted" },
        ]
        return "ProfileRecord(\(parts.compactMap { $0 }.joined(separator: ", ")))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: [
            "tokens": tokens as Any, "registration": registration as Any, "pendingCodes": pendingCodes, "device": device as Any,
            // A guest's identity id is a bearer secret (it gets the guest's AWS credentials).
            "identity": identity.map { $0.userId == nil ? "guest, id redacted" : "user, id redacted" } as Any,
        ], displayStyle: .struct)
    }
}

extension AuthConfiguration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "AuthConfiguration(endpoint: \(endpoint.absoluteString), userPoolId: \(userPoolId), clientId: \(clientId), "
            + "clientSecret: \(clientSecret == nil ? "none" : "redacted"), profile: \(profile))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: [
            "endpoint": endpoint, "region": region, "userPoolId": userPoolId, "clientId": clientId,
            "clientSecret": clientSecret == nil ? "none" : "redacted", "profile": profile, "refreshMargin": refreshMargin,
            "deviceName": deviceName,
        ], displayStyle: .struct)
    }
}
