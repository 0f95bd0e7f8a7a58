import CognateCore
import CognateIdentityProtocol
import CognateProtocol

extension OperationTable {
    /// Every operation Cognate serves. Keep README's "Supported operations" in step (a test
    /// compares them). An operation that computes a password verifier, an SRP step, a token's
    /// signature or a key is `.cryptographic`.
    static let cognate: OperationTable = {
        var table = OperationTable()
        // User pools
        table.register(CognitoAPI.CreateUserPool.self, { $0.pools.createUserPool }, work: .cryptographic)
        table.register(CognitoAPI.DescribeUserPool.self, { $0.pools.describeUserPool })
        table.register(CognitoAPI.UpdateUserPool.self, { $0.pools.updateUserPool })
        table.register(CognitoAPI.DeleteUserPool.self, { $0.pools.deleteUserPool })
        table.register(CognitoAPI.ListUserPools.self, { $0.pools.listUserPools })
        table.register(CognitoAPI.AddCustomAttributes.self, { $0.pools.addCustomAttributes })
        table.register(CognitoAPI.TagResource.self, { $0.pools.tagResource })
        table.register(CognitoAPI.UntagResource.self, { $0.pools.untagResource })
        table.register(CognitoAPI.ListTagsForResource.self, { $0.pools.listTagsForResource })
        // App clients
        table.register(CognitoAPI.CreateUserPoolClient.self, { $0.clients.createUserPoolClient })
        table.register(CognitoAPI.DescribeUserPoolClient.self, { $0.clients.describeUserPoolClient })
        table.register(CognitoAPI.UpdateUserPoolClient.self, { $0.clients.updateUserPoolClient })
        table.register(CognitoAPI.DeleteUserPoolClient.self, { $0.clients.deleteUserPoolClient })
        table.register(CognitoAPI.ListUserPoolClients.self, { $0.clients.listUserPoolClients })
        table.register(CognitoAPI.AddUserPoolClientSecret.self, { $0.clients.addUserPoolClientSecret })
        table.register(CognitoAPI.ListUserPoolClientSecrets.self, { $0.clients.listUserPoolClientSecrets })
        table.register(CognitoAPI.DeleteUserPoolClientSecret.self, { $0.clients.deleteUserPoolClientSecret })
        // Sign-up and confirmation
        table.register(CognitoAPI.SignUp.self, { $0.registration.signUp }, work: .cryptographic)
        table.register(CognitoAPI.ConfirmSignUp.self, { $0.registration.confirmSignUp })
        table.register(CognitoAPI.ResendConfirmationCode.self, { $0.registration.resendConfirmationCode })
        table.register(CognitoAPI.AdminConfirmSignUp.self, { $0.registration.adminConfirmSignUp })
        // Sign-in
        table.register(CognitoAPI.InitiateAuth.self, { $0.signIn.initiateAuth }) { .of($0.authFlow) }
        table.register(CognitoAPI.AdminInitiateAuth.self, { $0.signIn.adminInitiateAuth }) { .of($0.authFlow) }
        table.register(CognitoAPI.RespondToAuthChallenge.self, { $0.signIn.respondToAuthChallenge }, work: .cryptographic)
        table.register(CognitoAPI.AdminRespondToAuthChallenge.self, { $0.signIn.adminRespondToAuthChallenge }, work: .cryptographic)
        // MFA
        table.register(CognitoAPI.SetUserPoolMfaConfig.self, { $0.pools.setUserPoolMfaConfig })
        table.register(CognitoAPI.GetUserPoolMfaConfig.self, { $0.pools.getUserPoolMfaConfig })
        table.register(CognitoAPI.AssociateSoftwareToken.self, { $0.mfa.associateSoftwareToken })
        table.register(CognitoAPI.VerifySoftwareToken.self, { $0.mfa.verifySoftwareToken })
        table.register(CognitoAPI.SetUserMFAPreference.self, { $0.mfa.setUserMFAPreference })
        table.register(CognitoAPI.AdminSetUserMFAPreference.self, { $0.mfa.adminSetUserMFAPreference })
        table.register(CognitoAPI.GetUserAuthFactors.self, { $0.mfa.getUserAuthFactors })
        table.register(CognitoAPI.AdminGetUserAuthFactors.self, { $0.mfa.adminGetUserAuthFactors })
        table.register(CognitoAPI.AdminDeleteSoftwareToken.self, { $0.mfa.adminDeleteSoftwareToken })
        // Disaster recovery (answered for what it is in a self-hosted deployment)
        table.register(CognitoAPI.InitiatePointInTimeRecovery.self, { $0.disasterRecovery.initiatePointInTimeRecovery })
        table.register(CognitoAPI.StartPointInTimeRecovery.self, { $0.disasterRecovery.startPointInTimeRecovery })
        table.register(CognitoAPI.CancelPointInTimeRecovery.self, { $0.disasterRecovery.cancelPointInTimeRecovery })
        table.register(CognitoAPI.DescribePointInTimeRecovery.self, { $0.disasterRecovery.describePointInTimeRecovery })
        table.register(CognitoAPI.ListPointInTimeRecoveries.self, { $0.disasterRecovery.listPointInTimeRecoveries })
        table.register(CognitoAPI.CreateUserPoolReplica.self, { $0.disasterRecovery.createUserPoolReplica })
        table.register(CognitoAPI.DeleteUserPoolReplica.self, { $0.disasterRecovery.deleteUserPoolReplica })
        table.register(CognitoAPI.ListUserPoolReplicas.self, { $0.disasterRecovery.listUserPoolReplicas })
        table.register(CognitoAPI.UpdateUserPoolReplica.self, { $0.disasterRecovery.updateUserPoolReplica })
        // User sessions
        table.register(CognitoAPI.GetClientToken.self, { $0.clientTokens.getClientToken }, work: .cryptographic,
                       authorization: .unsigned)
        table.register(CognitoAPI.GetDerivedToken.self, { $0.tokenExchange.getDerivedToken }, work: .cryptographic,
                       authorization: .unsigned)
        table.register(CognitoAPI.ListUserSessions.self, { $0.userSessions.listUserSessions })
        table.register(CognitoAPI.RevokeUserSession.self, { $0.userSessions.revokeUserSession })
        table.register(CognitoAPI.AdminListUserSessions.self, { $0.userSessions.adminListUserSessions })
        table.register(CognitoAPI.AdminRevokeUserSession.self, { $0.userSessions.adminRevokeUserSession })
        table.register(CognitoAPI.GetUserPoolSessionConfiguration.self, { $0.userSessions.getUserPoolSessionConfiguration })
        table.register(CognitoAPI.SetUserPoolSessionConfiguration.self, { $0.userSessions.setUserPoolSessionConfiguration })
        table.register(
            CognitoAPI.GetUserPoolClientSessionConfiguration.self, { $0.userSessions.getUserPoolClientSessionConfiguration })
        table.register(
            CognitoAPI.SetUserPoolClientSessionConfiguration.self, { $0.userSessions.setUserPoolClientSessionConfiguration })
        // Client ID metadata documents
        table.register(CognitoAPI.CreateCIMDPolicy.self, { $0.clientMetadataDocuments.createCIMDPolicy })
        table.register(CognitoAPI.DescribeCIMDPolicy.self, { $0.clientMetadataDocuments.describeCIMDPolicy })
        table.register(CognitoAPI.UpdateCIMDPolicy.self, { $0.clientMetadataDocuments.updateCIMDPolicy })
        table.register(CognitoAPI.DeleteCIMDPolicy.self, { $0.clientMetadataDocuments.deleteCIMDPolicy })
        table.register(CognitoAPI.ListCIMDPolicies.self, { $0.clientMetadataDocuments.listCIMDPolicies })
        table.register(CognitoAPI.ListClientMetadataURLs.self, { $0.clientMetadataDocuments.listClientMetadataURLs })
        table.register(
            CognitoAPI.UpdateClientMetadataURLState.self, { $0.clientMetadataDocuments.updateClientMetadataURLState })
        // Passkeys
        table.register(CognitoAPI.StartWebAuthnRegistration.self, { $0.passkeys.startWebAuthnRegistration })
        table.register(
            CognitoAPI.CompleteWebAuthnRegistration.self, { $0.passkeys.completeWebAuthnRegistration }, work: .cryptographic)
        table.register(CognitoAPI.ListWebAuthnCredentials.self, { $0.passkeys.listWebAuthnCredentials })
        table.register(CognitoAPI.DeleteWebAuthnCredential.self, { $0.passkeys.deleteWebAuthnCredential })
        table.register(CognitoAPI.SetUserSettings.self, { $0.mfa.setUserSettings })
        table.register(CognitoAPI.AdminSetUserSettings.self, { $0.mfa.adminSetUserSettings })
        // Devices
        table.register(CognitoAPI.ConfirmDevice.self, { $0.devices.confirmDevice })
        table.register(CognitoAPI.GetDevice.self, { $0.devices.getDevice })
        table.register(CognitoAPI.ListDevices.self, { $0.devices.listDevices })
        table.register(CognitoAPI.UpdateDeviceStatus.self, { $0.devices.updateDeviceStatus })
        table.register(CognitoAPI.ForgetDevice.self, { $0.devices.forgetDevice })
        table.register(CognitoAPI.AdminGetDevice.self, { $0.devices.adminGetDevice })
        table.register(CognitoAPI.AdminListDevices.self, { $0.devices.adminListDevices })
        table.register(CognitoAPI.AdminUpdateDeviceStatus.self, { $0.devices.adminUpdateDeviceStatus })
        table.register(CognitoAPI.AdminForgetDevice.self, { $0.devices.adminForgetDevice })
        // OAuth 2.0: domains and resource servers
        table.register(CognitoAPI.CreateUserPoolDomain.self, { $0.managedLogin.createUserPoolDomain })
        table.register(CognitoAPI.DescribeUserPoolDomain.self, { $0.managedLogin.describeUserPoolDomain })
        table.register(CognitoAPI.UpdateUserPoolDomain.self, { $0.managedLogin.updateUserPoolDomain })
        table.register(CognitoAPI.DeleteUserPoolDomain.self, { $0.managedLogin.deleteUserPoolDomain })
        table.register(CognitoAPI.CreateResourceServer.self, { $0.managedLogin.createResourceServer })
        table.register(CognitoAPI.DescribeResourceServer.self, { $0.managedLogin.describeResourceServer })
        table.register(CognitoAPI.UpdateResourceServer.self, { $0.managedLogin.updateResourceServer })
        table.register(CognitoAPI.DeleteResourceServer.self, { $0.managedLogin.deleteResourceServer })
        table.register(CognitoAPI.ListResourceServers.self, { $0.managedLogin.listResourceServers })
        table.register(CognitoAPI.SetUICustomization.self, { $0.managedLogin.setUICustomization })
        table.register(CognitoAPI.CreateTerms.self, { $0.managedLogin.createTerms })
        table.register(CognitoAPI.DescribeTerms.self, { $0.managedLogin.describeTerms })
        table.register(CognitoAPI.DescribeTermsByClient.self, { $0.managedLogin.describeTermsByClient })
        table.register(CognitoAPI.UpdateTerms.self, { $0.managedLogin.updateTerms })
        table.register(CognitoAPI.DeleteTerms.self, { $0.managedLogin.deleteTerms })
        table.register(CognitoAPI.ListTerms.self, { $0.managedLogin.listTerms })
        table.register(CognitoAPI.GetUICustomization.self, { $0.managedLogin.getUICustomization })
        // Federation
        table.register(CognitoAPI.CreateIdentityProvider.self, { $0.federation.createIdentityProvider })
        table.register(CognitoAPI.DescribeIdentityProvider.self, { $0.federation.describeIdentityProvider })
        table.register(CognitoAPI.UpdateIdentityProvider.self, { $0.federation.updateIdentityProvider })
        table.register(CognitoAPI.DeleteIdentityProvider.self, { $0.federation.deleteIdentityProvider })
        table.register(CognitoAPI.ListIdentityProviders.self, { $0.federation.listIdentityProviders })
        table.register(CognitoAPI.GetIdentityProviderByIdentifier.self, { $0.federation.getIdentityProviderByIdentifier })
        table.register(CognitoAPI.AdminLinkProviderForUser.self, { $0.federation.adminLinkProviderForUser })
        table.register(CognitoAPI.AdminDisableProviderForUser.self, { $0.federation.adminDisableProviderForUser })
        // PIN sign-in (Cognate's own operations)
        table.register(CognitoAPI.SetUserPoolPinPolicy.self, { $0.pools.setUserPoolPinPolicy })
        table.register(CognitoAPI.GetPinPolicy.self, { $0.pools.getPinPolicy })
        table.register(CognitoAPI.RegisterDevicePin.self, { $0.devices.registerDevicePin }, work: .cryptographic)
        // Custom registration (Cognate's own operations)
        table.register(CognitoAPI.SetUserPoolCustomRegistration.self, { $0.customRegistration.setUserPoolCustomRegistration })
        table.register(CognitoAPI.GetUserPoolCustomRegistration.self, { $0.customRegistration.getUserPoolCustomRegistration })
        table.register(
            CognitoAPI.StartCustomRegistration.self, { $0.customRegistration.startCustomRegistration }, work: .cryptographic)
        table.register(
            CognitoAPI.RespondToCustomRegistration.self, { $0.customRegistration.respondToCustomRegistration },
            work: .cryptographic)
        // Recovery and sign-out
        table.register(CognitoAPI.ForgotPassword.self, { $0.registration.forgotPassword })
        table.register(CognitoAPI.ConfirmForgotPassword.self, { $0.registration.confirmForgotPassword }, work: .cryptographic)
        table.register(CognitoAPI.ChangePassword.self, { $0.account.changePassword }, work: .cryptographic)
        table.register(CognitoAPI.GlobalSignOut.self, { $0.sessions.globalSignOut })
        table.register(CognitoAPI.RevokeToken.self, { $0.sessions.revokeToken })
        table.register(CognitoAPI.GetTokensFromRefreshToken.self, { $0.sessions.getTokensFromRefreshToken })
        // The signed-in user
        table.register(CognitoAPI.GetUser.self, { $0.account.getUser })
        table.register(CognitoAPI.UpdateUserAttributes.self, { $0.account.updateUserAttributes })
        table.register(CognitoAPI.DeleteUserAttributes.self, { $0.account.deleteUserAttributes })
        table.register(CognitoAPI.GetUserAttributeVerificationCode.self, { $0.account.getUserAttributeVerificationCode })
        table.register(CognitoAPI.VerifyUserAttribute.self, { $0.account.verifyUserAttribute })
        table.register(CognitoAPI.DeleteUser.self, { $0.account.deleteUser })
        // Users (admin)
        table.register(CognitoAPI.AdminGetUser.self, { $0.userAdministration.adminGetUser })
        table.register(CognitoAPI.AdminDeleteUser.self, { $0.userAdministration.adminDeleteUser })
        table.register(CognitoAPI.ListUsers.self, { $0.userAdministration.listUsers })
        // User import
        table.register(CognitoAPI.GetCSVHeader.self, { $0.pools.getCSVHeader })
        table.register(CognitoAPI.GetSigningCertificate.self, { $0.pools.getSigningCertificate }, work: .cryptographic)
        // Managed login branding (applied to the hosted pages)
        table.register(CognitoAPI.CreateManagedLoginBranding.self, { $0.managedLogin.createManagedLoginBranding })
        table.register(CognitoAPI.DescribeManagedLoginBranding.self, { $0.managedLogin.describeManagedLoginBranding })
        table.register(CognitoAPI.DescribeManagedLoginBrandingByClient.self, { $0.managedLogin.describeManagedLoginBrandingByClient })
        table.register(CognitoAPI.UpdateManagedLoginBranding.self, { $0.managedLogin.updateManagedLoginBranding })
        table.register(CognitoAPI.DeleteManagedLoginBranding.self, { $0.managedLogin.deleteManagedLoginBranding })
        // Threat protection: auth events, risk configuration, log delivery
        table.register(CognitoAPI.AdminListUserAuthEvents.self, { $0.threatProtection.adminListUserAuthEvents })
        table.register(CognitoAPI.AdminUpdateAuthEventFeedback.self, { $0.threatProtection.adminUpdateAuthEventFeedback })
        table.register(CognitoAPI.UpdateAuthEventFeedback.self, { $0.threatProtection.updateAuthEventFeedback })
        table.register(CognitoAPI.DescribeRiskConfiguration.self, { $0.threatProtection.describeRiskConfiguration })
        table.register(CognitoAPI.SetRiskConfiguration.self, { $0.threatProtection.setRiskConfiguration })
        table.register(CognitoAPI.GetLogDeliveryConfiguration.self, { $0.threatProtection.getLogDeliveryConfiguration })
        table.register(CognitoAPI.SetLogDeliveryConfiguration.self, { $0.threatProtection.setLogDeliveryConfiguration })
        table.register(CognitoAPI.CreateUserImportJob.self, { $0.userImport.createUserImportJob })
        table.register(CognitoAPI.StartUserImportJob.self, { $0.userImport.startUserImportJob })
        table.register(CognitoAPI.StopUserImportJob.self, { $0.userImport.stopUserImportJob })
        table.register(CognitoAPI.DescribeUserImportJob.self, { $0.userImport.describeUserImportJob })
        table.register(CognitoAPI.ListUserImportJobs.self, { $0.userImport.listUserImportJobs })
        // User administration
        table.register(CognitoAPI.AdminCreateUser.self, { $0.userAdministration.adminCreateUser }, work: .cryptographic)
        table.register(CognitoAPI.AdminSetUserPassword.self, { $0.userAdministration.adminSetUserPassword }, work: .cryptographic)
        table.register(CognitoAPI.AdminResetUserPassword.self, { $0.userAdministration.adminResetUserPassword })
        table.register(CognitoAPI.AdminUpdateUserAttributes.self, { $0.userAdministration.adminUpdateUserAttributes })
        table.register(CognitoAPI.AdminDeleteUserAttributes.self, { $0.userAdministration.adminDeleteUserAttributes })
        table.register(CognitoAPI.AdminDisableUser.self, { $0.userAdministration.adminDisableUser })
        table.register(CognitoAPI.AdminEnableUser.self, { $0.userAdministration.adminEnableUser })
        table.register(CognitoAPI.AdminUserGlobalSignOut.self, { $0.userAdministration.adminUserGlobalSignOut })
        // Groups
        table.register(CognitoAPI.CreateGroup.self, { $0.userAdministration.createGroup })
        table.register(CognitoAPI.GetGroup.self, { $0.userAdministration.getGroup })
        table.register(CognitoAPI.UpdateGroup.self, { $0.userAdministration.updateGroup })
        table.register(CognitoAPI.DeleteGroup.self, { $0.userAdministration.deleteGroup })
        table.register(CognitoAPI.ListGroups.self, { $0.userAdministration.listGroups })
        table.register(CognitoAPI.AdminAddUserToGroup.self, { $0.userAdministration.adminAddUserToGroup })
        table.register(CognitoAPI.AdminRemoveUserFromGroup.self, { $0.userAdministration.adminRemoveUserFromGroup })
        table.register(CognitoAPI.AdminListGroupsForUser.self, { $0.userAdministration.adminListGroupsForUser })
        table.register(CognitoAPI.ListUsersInGroup.self, { $0.userAdministration.listUsersInGroup })
        registerIdentityOperations(&table)
        return table
    }()

    /// The identity-pool API (`cognito-identity`), on the same endpoint. GetId, GetOpenIdToken,
    /// GetCredentialsForIdentity and UnlinkIdentity are public (the model's `authtype: none`);
    /// the others are admin operations (SigV4 outside dev mode). Those that sign an OpenID token
    /// are `.cryptographic`.
    private static func registerIdentityOperations(_ table: inout OperationTable) {
        table.register(CognitoIdentityAPI.CreateIdentityPool.self, { $0.identityPools.createIdentityPool })
        table.register(CognitoIdentityAPI.DescribeIdentityPool.self, { $0.identityPools.describeIdentityPool })
        table.register(CognitoIdentityAPI.UpdateIdentityPool.self, { $0.identityPools.updateIdentityPool })
        table.register(CognitoIdentityAPI.DeleteIdentityPool.self, { $0.identityPools.deleteIdentityPool })
        table.register(CognitoIdentityAPI.ListIdentityPools.self, { $0.identityPools.listIdentityPools })
        table.register(CognitoIdentityAPI.SetIdentityPoolRoles.self, { $0.identityPools.setIdentityPoolRoles })
        table.register(CognitoIdentityAPI.GetIdentityPoolRoles.self, { $0.identityPools.getIdentityPoolRoles })
        table.register(CognitoIdentityAPI.SetPrincipalTagAttributeMap.self, { $0.identityPools.setPrincipalTagAttributeMap })
        table.register(CognitoIdentityAPI.GetPrincipalTagAttributeMap.self, { $0.identityPools.getPrincipalTagAttributeMap })
        table.register(CognitoIdentityAPI.TagResource.self, { $0.identityPools.tagResource })
        table.register(CognitoIdentityAPI.UntagResource.self, { $0.identityPools.untagResource })
        table.register(CognitoIdentityAPI.ListTagsForResource.self, { $0.identityPools.listTagsForResource })
        table.register(CognitoIdentityAPI.GetId.self, { $0.identities.getId })
        table.register(CognitoIdentityAPI.GetOpenIdToken.self, { $0.identities.getOpenIdToken }, work: .cryptographic)
        table.register(
            CognitoIdentityAPI.GetCredentialsForIdentity.self, { $0.identities.getCredentialsForIdentity }, work: .cryptographic)
        table.register(CognitoIdentityAPI.DescribeIdentity.self, { $0.identities.describeIdentity })
        table.register(CognitoIdentityAPI.ListIdentities.self, { $0.identities.listIdentities })
        table.register(CognitoIdentityAPI.DeleteIdentities.self, { $0.identities.deleteIdentities })
        table.register(CognitoIdentityAPI.UnlinkIdentity.self, { $0.identities.unlinkIdentity })
        table.register(
            CognitoIdentityAPI.GetOpenIdTokenForDeveloperIdentity.self, { $0.identities.getOpenIdTokenForDeveloperIdentity },
            work: .cryptographic)
        table.register(CognitoIdentityAPI.LookupDeveloperIdentity.self, { $0.identities.lookupDeveloperIdentity })
        table.register(CognitoIdentityAPI.MergeDeveloperIdentities.self, { $0.identities.mergeDeveloperIdentities })
        table.register(CognitoIdentityAPI.UnlinkDeveloperIdentity.self, { $0.identities.unlinkDeveloperIdentity })
    }
}
