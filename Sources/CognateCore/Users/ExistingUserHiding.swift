import CognateProtocol

extension PoolSettings {
    /// A Cognate setting carried as a user pool tag (Cognito has no such setting): `"true"` makes
    /// clients with PreventUserExistenceErrors ENABLED hide more than Cognito does — the state of
    /// users who exist, too (see ``ClientRecord/hidesExistingUsers(in:)``).
    static let hideExistingUsersTag = "cognate:HideExistingUsers"
}

extension ClientRecord {
    /// Whether answers hide the state of users who *exist*, beyond Cognito's
    /// PreventUserExistenceErrors (which hides users who do not): ConfirmSignUp for a user who is
    /// already confirmed, and a sign-up or reset code that was already used (or never sent),
    /// are then answered as a wrong code (CodeMismatchException) instead of Cognito's
    /// NotAuthorizedException "User cannot be confirmed. Current status is CONFIRMED" and
    /// ExpiredCodeException. Off unless the pool's `cognate:HideExistingUsers` tag is `true`.
    func hidesExistingUsers(in pool: PoolRecord) -> Bool {
        preventsUserExistenceErrors && pool.settings.userPoolTags?[PoolSettings.hideExistingUsersTag]?.lowercased() == "true"
    }
}
