// Types of CognateProtocol (and CognateIdentityProtocol) that CognateAuth's public API shows, so that `import CognateAuth`
// alone is enough to name them (`AuthError.cognitoCode`, `AuthError.service(_:_:)`).
@_exported import enum CognateProtocol.CognitoErrorCode
@_exported import struct CognateProtocol.PinPolicy
@_exported import enum CognateProtocol.PinPolicyViolation
@_exported import enum CognateIdentityProtocol.CognitoIdentityErrorCode
