/// Where the request being served comes from, set by the server around each use case (a task
/// local, so use cases need no extra parameter). Nil outside a request (tests, the CLI).
public enum RequestOrigin {
    /// The client's network address as the server determined it (the peer, or the header of a
    /// trusted proxy).
    @TaskLocal public static var clientAddress: String?
}
