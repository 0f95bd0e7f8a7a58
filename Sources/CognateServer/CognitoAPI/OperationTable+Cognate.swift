import CognateCore
import CognateProtocol

extension OperationTable {
    /// Every operation Cognate serves. Keep README's "Supported operations" in step (a test
    /// compares them).
    static let cognate: OperationTable = {
        var table = OperationTable()
        // User pools
        table.register(CognitoAPI.CreateUserPool.self, IdentityService.createUserPool)
        table.register(CognitoAPI.DescribeUserPool.self, IdentityService.describeUserPool)
        table.register(CognitoAPI.UpdateUserPool.self, IdentityService.updateUserPool)
        table.register(CognitoAPI.DeleteUserPool.self, IdentityService.deleteUserPool)
        table.register(CognitoAPI.ListUserPools.self, IdentityService.listUserPools)
        // App clients
        table.register(CognitoAPI.CreateUserPoolClient.self, IdentityService.createUserPoolClient)
        table.register(CognitoAPI.DescribeUserPoolClient.self, IdentityService.describeUserPoolClient)
        table.register(CognitoAPI.UpdateUserPoolClient.self, IdentityService.updateUserPoolClient)
        table.register(CognitoAPI.DeleteUserPoolClient.self, IdentityService.deleteUserPoolClient)
        table.register(CognitoAPI.ListUserPoolClients.self, IdentityService.listUserPoolClients)
        // Sign-up and confirmation
        table.register(CognitoAPI.SignUp.self, IdentityService.signUp)
        table.register(CognitoAPI.ConfirmSignUp.self, IdentityService.confirmSignUp)
        table.register(CognitoAPI.ResendConfirmationCode.self, IdentityService.resendConfirmationCode)
        table.register(CognitoAPI.AdminConfirmSignUp.self, IdentityService.adminConfirmSignUp)
        // Sign-in
        table.register(CognitoAPI.InitiateAuth.self, IdentityService.initiateAuth)
        table.register(CognitoAPI.AdminInitiateAuth.self, IdentityService.adminInitiateAuth)
        table.register(CognitoAPI.RespondToAuthChallenge.self, IdentityService.respondToAuthChallenge)
        table.register(CognitoAPI.AdminRespondToAuthChallenge.self, IdentityService.adminRespondToAuthChallenge)
        // MFA
        table.register(CognitoAPI.SetUserPoolMfaConfig.self, IdentityService.setUserPoolMfaConfig)
        table.register(CognitoAPI.GetUserPoolMfaConfig.self, IdentityService.getUserPoolMfaConfig)
        table.register(CognitoAPI.AssociateSoftwareToken.self, IdentityService.associateSoftwareToken)
        table.register(CognitoAPI.VerifySoftwareToken.self, IdentityService.verifySoftwareToken)
        table.register(CognitoAPI.SetUserMFAPreference.self, IdentityService.setUserMFAPreference)
        table.register(CognitoAPI.AdminSetUserMFAPreference.self, IdentityService.adminSetUserMFAPreference)
        table.register(CognitoAPI.GetUserAuthFactors.self, IdentityService.getUserAuthFactors)
        table.register(CognitoAPI.SetUserSettings.self, IdentityService.setUserSettings)
        table.register(CognitoAPI.AdminSetUserSettings.self, IdentityService.adminSetUserSettings)
        // Devices
        table.register(CognitoAPI.ConfirmDevice.self, IdentityService.confirmDevice)
        table.register(CognitoAPI.GetDevice.self, IdentityService.getDevice)
        table.register(CognitoAPI.ListDevices.self, IdentityService.listDevices)
        table.register(CognitoAPI.UpdateDeviceStatus.self, IdentityService.updateDeviceStatus)
        table.register(CognitoAPI.ForgetDevice.self, IdentityService.forgetDevice)
        table.register(CognitoAPI.AdminGetDevice.self, IdentityService.adminGetDevice)
        table.register(CognitoAPI.AdminListDevices.self, IdentityService.adminListDevices)
        table.register(CognitoAPI.AdminUpdateDeviceStatus.self, IdentityService.adminUpdateDeviceStatus)
        table.register(CognitoAPI.AdminForgetDevice.self, IdentityService.adminForgetDevice)
        // OAuth 2.0: domains and resource servers
        table.register(CognitoAPI.CreateUserPoolDomain.self, IdentityService.createUserPoolDomain)
        table.register(CognitoAPI.DescribeUserPoolDomain.self, IdentityService.describeUserPoolDomain)
        table.register(CognitoAPI.UpdateUserPoolDomain.self, IdentityService.updateUserPoolDomain)
        table.register(CognitoAPI.DeleteUserPoolDomain.self, IdentityService.deleteUserPoolDomain)
        table.register(CognitoAPI.CreateResourceServer.self, IdentityService.createResourceServer)
        table.register(CognitoAPI.DescribeResourceServer.self, IdentityService.describeResourceServer)
        table.register(CognitoAPI.UpdateResourceServer.self, IdentityService.updateResourceServer)
        table.register(CognitoAPI.DeleteResourceServer.self, IdentityService.deleteResourceServer)
        table.register(CognitoAPI.ListResourceServers.self, IdentityService.listResourceServers)
        // PIN sign-in (Cognate's own operations)
        table.register(CognitoAPI.SetUserPoolPinPolicy.self, IdentityService.setUserPoolPinPolicy)
        table.register(CognitoAPI.GetPinPolicy.self, IdentityService.getPinPolicy)
        table.register(CognitoAPI.RegisterDevicePin.self, IdentityService.registerDevicePin)
        // Recovery and sign-out
        table.register(CognitoAPI.ForgotPassword.self, IdentityService.forgotPassword)
        table.register(CognitoAPI.ConfirmForgotPassword.self, IdentityService.confirmForgotPassword)
        table.register(CognitoAPI.ChangePassword.self, IdentityService.changePassword)
        table.register(CognitoAPI.GlobalSignOut.self, IdentityService.globalSignOut)
        table.register(CognitoAPI.RevokeToken.self, IdentityService.revokeToken)
        // The signed-in user
        table.register(CognitoAPI.GetUser.self, IdentityService.getUser)
        table.register(CognitoAPI.UpdateUserAttributes.self, IdentityService.updateUserAttributes)
        table.register(CognitoAPI.DeleteUserAttributes.self, IdentityService.deleteUserAttributes)
        table.register(CognitoAPI.GetUserAttributeVerificationCode.self, IdentityService.getUserAttributeVerificationCode)
        table.register(CognitoAPI.VerifyUserAttribute.self, IdentityService.verifyUserAttribute)
        table.register(CognitoAPI.DeleteUser.self, IdentityService.deleteUser)
        // Users (admin)
        table.register(CognitoAPI.AdminGetUser.self, IdentityService.adminGetUser)
        table.register(CognitoAPI.AdminDeleteUser.self, IdentityService.adminDeleteUser)
        table.register(CognitoAPI.ListUsers.self, IdentityService.listUsers)
        // User administration
        table.register(CognitoAPI.AdminCreateUser.self, IdentityService.adminCreateUser)
        table.register(CognitoAPI.AdminSetUserPassword.self, IdentityService.adminSetUserPassword)
        table.register(CognitoAPI.AdminResetUserPassword.self, IdentityService.adminResetUserPassword)
        table.register(CognitoAPI.AdminUpdateUserAttributes.self, IdentityService.adminUpdateUserAttributes)
        table.register(CognitoAPI.AdminDeleteUserAttributes.self, IdentityService.adminDeleteUserAttributes)
        table.register(CognitoAPI.AdminDisableUser.self, IdentityService.adminDisableUser)
        table.register(CognitoAPI.AdminEnableUser.self, IdentityService.adminEnableUser)
        table.register(CognitoAPI.AdminUserGlobalSignOut.self, IdentityService.adminUserGlobalSignOut)
        // Groups
        table.register(CognitoAPI.CreateGroup.self, IdentityService.createGroup)
        table.register(CognitoAPI.GetGroup.self, IdentityService.getGroup)
        table.register(CognitoAPI.UpdateGroup.self, IdentityService.updateGroup)
        table.register(CognitoAPI.DeleteGroup.self, IdentityService.deleteGroup)
        table.register(CognitoAPI.ListGroups.self, IdentityService.listGroups)
        table.register(CognitoAPI.AdminAddUserToGroup.self, IdentityService.adminAddUserToGroup)
        table.register(CognitoAPI.AdminRemoveUserFromGroup.self, IdentityService.adminRemoveUserFromGroup)
        table.register(CognitoAPI.AdminListGroupsForUser.self, IdentityService.adminListGroupsForUser)
        table.register(CognitoAPI.ListUsersInGroup.self, IdentityService.listUsersInGroup)
        return table
    }()
}
