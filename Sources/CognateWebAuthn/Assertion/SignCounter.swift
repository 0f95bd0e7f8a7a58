/// The signature counter rule of WebAuthn §6.1.1 and §7.2 step 22.
enum SignCounter {
    /// The counter to store after an assertion that reported `received`. When either counter
    /// is non-zero the received one must be greater than the stored one: a counter that stands
    /// still or goes back (to zero included) means two copies of the key may be signing.
    /// Authenticators without a counter always report zero and are let through.
    static func next(stored: UInt32, received: UInt32) throws(WebAuthnError) -> UInt32 {
        guard stored != 0 || received != 0 else { return 0 }
        guard received > stored else { throw .clonedAuthenticator(storedSignCount: stored, receivedSignCount: received) }
        return received
    }
}
