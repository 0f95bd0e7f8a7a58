// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Cognate",
    // The minimum CognateAuth needs (async URLSession): an app that adds the package gets these
    // minimums. The server is built and deployed on Linux, where platform minimums do not apply.
    platforms: [.macOS(.v12), .iOS(.v15)],
    products: [
        .executable(name: "cognate", targets: ["cognate"]),
        .library(name: "CognateAuth", targets: ["CognateAuth"]),
        .library(name: "CognateAuthUI", targets: ["CognateAuthUI"]),
        .library(name: "CognateProtocol", targets: ["CognateProtocol"]),
        .library(name: "CognateIdentityProtocol", targets: ["CognateIdentityProtocol"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/attaswift/BigInt", from: "6.0.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .systemLibrary(name: "CGMP", pkgConfig: nil, providers: [.apt(["libgmp-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: nil, providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: nil, providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CXMLSec", pkgConfig: "xmlsec1-openssl", providers: [.apt(["libxmlsec1-dev", "pkg-config"])]),
        // XML signatures and encryption (xmlsec1) behind a few checked C functions.
        // pkg-config's include paths reach C targets, its definitions do not: these are
        // `pkg-config --cflags xmlsec1-openssl`'s (they select the engine and xmlsec's size types).
        .target(
            name: "CXMLSecurity", dependencies: ["CXMLSec"],
            cSettings: [
                .define("XMLSEC_CRYPTO_OPENSSL", to: "1"), .define("XMLSEC_NO_SIZE_T"), .define("XMLSEC_OPENSSL3_ENGINES", to: "1"),
                .define("XMLSEC_NO_GOST", to: "1"), .define("XMLSEC_NO_GOST2012", to: "1"),
                .define("XMLSEC_NO_CRYPTO_DYNAMIC_LOADING", to: "1"), .define("__XMLSEC_FUNCTION__", to: "__func__"),
            ],
            linkerSettings: [
                .linkedLibrary("xmlsec1-openssl"), .linkedLibrary("xmlsec1"), .linkedLibrary("xml2"), .linkedLibrary("crypto"),
                .linkedLibrary("z"),
            ]),
        // SAML 2.0 as a service provider speaks it: metadata, requests, verified responses.
        .target(name: "CognateSAML", dependencies: ["CXMLSecurity"]),
        .target(
            name: "CognateProtocol",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        // The identity-pool API's wire types (botocore's cognito-identity model), on
        // CognateProtocol's wire infrastructure; a module of its own so names do not clash.
        .target(name: "CognateIdentityProtocol", dependencies: ["CognateProtocol"]),
        .target(
            name: "CognateCore",
            dependencies: [
                "CognateProtocol", "CognateIdentityProtocol", "CognateWebAuthn", "CognateSAML", "CGMP", "COpenSSL",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        .target(
            name: "CognateStorage",
            dependencies: [
                "CognateCore", "CognateProtocol", "CognateIdentityProtocol", "CSQLite",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .target(
            name: "CognateServer",
            dependencies: [
                "CognateCore", "CognateProtocol", "CognateIdentityProtocol", "CognateSMTP",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            // The hosted pages' passkey script, compiled into the binary (no resource bundle to
            // deploy beside it): PackageResources.passkeys_js.
            resources: [.embedInCode("OAuth/Scripts/passkeys.js")]
        ),
        // The composition root: the only target that knows the server and the storage both.
        .target(
            name: "CognateAssembly",
            dependencies: [
                "CognateCore", "CognateServer", "CognateStorage",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // WebAuthn relying-party verification: pure logic, no storage, no knowledge of Cognito.
        .target(
            name: "CognateWebAuthn",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .target(
            name: "CognateAuth",
            dependencies: [
                "CognateProtocol", "CognateIdentityProtocol",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // A drop-in sign-in UI: a platform-neutral model of every screen, SwiftUI views on it.
        .target(name: "CognateAuthUI", dependencies: ["CognateAuth"]),
        .target(
            name: "RegistrationDemoKit",
            dependencies: ["CognateAuth"],
            path: "Examples/RegistrationDemo/Sources/RegistrationDemoKit"
        ),
        .executableTarget(
            name: "RegistrationDemo",
            dependencies: ["RegistrationDemoKit", "CognateAuth"],
            path: "Examples/RegistrationDemo/Sources/RegistrationDemo"
        ),
        // SwiftUI on CognateAuthUI's Authenticator; compiles on Apple platforms, empty elsewhere.
        .target(
            name: "SwiftUISample",
            dependencies: ["CognateAuth", "CognateAuthUI"],
            path: "Examples/SwiftUISample/Sources/SwiftUISample"
        ),
        .executableTarget(
            name: "cognate-load",
            dependencies: ["CognateCore", "CognateProtocol", "CLoadSystem"],
            path: "bench/Load"
        ),
        .systemLibrary(name: "CLoadSystem", path: "bench/LoadSystem"),
        // bench/run.py's HTTP floor: Cognate's server stack answering a fixed body.
        .executableTarget(
            name: "http-floor",
            dependencies: ["CognateServer", .product(name: "Hummingbird", package: "hummingbird")],
            path: "bench/HTTPFloor"
        ),
        .executableTarget(
            name: "srp-client-cost",
            dependencies: ["CognateProtocol"],
            path: "bench/SRPClientCost"
        ),
        .target(
            name: "CognateSMTP",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "cognate",
            dependencies: [
                "CognateAssembly", "CognateServer", "CognateStorage", "CognateCore", "CognateProtocol",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // What several test targets use: child processes without Foundation's Process, free ports.
        .target(name: "CognateTestSupport", path: "Tests/CognateTestSupport"),
        .testTarget(
            name: "CognateProtocolTests",
            dependencies: ["CognateProtocol", "CognateIdentityProtocol", .product(name: "BigInt", package: "BigInt")]
        ),
        .testTarget(
            name: "CognateCoreTests",
            dependencies: ["CognateCore", "CognateStorage", "CognateIdentityProtocol", .product(name: "CryptoExtras", package: "swift-crypto")]),
        .testTarget(name: "CognateSAMLTests", dependencies: ["CognateSAML"], exclude: ["Fixtures"]),
        .testTarget(name: "CognateStorageTests", dependencies: ["CognateStorage", "CognateCore", "CognateIdentityProtocol"]),
        .testTarget(
            name: "CognateServerTests",
            dependencies: [
                "CognateServer", "CognateAssembly", "CognateCore", "CognateStorage",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "CognateSMTPTests",
            dependencies: ["CognateSMTP", "CognateTestSupport", .product(name: "NIOCore", package: "swift-nio")],
            exclude: ["smtp_test_server.py"]
        ),
        .testTarget(
            name: "CognateWebAuthnTests",
            dependencies: [
                "CognateWebAuthn",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            exclude: ["Vectors"]
        ),
        .testTarget(
            name: "CognateAuthTests",
            dependencies: [
                "CognateAuth", "CognateProtocol", "CognateIdentityProtocol", "CognateServer", "CognateAssembly", "CognateCore",
                "CognateStorage", "RegistrationDemoKit", "CognateTestSupport",
                .product(name: "Logging", package: "swift-log"), .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "CognateAuthUITests",
            dependencies: [
                "CognateAuthUI", "CognateAuth", "CognateProtocol", "CognateServer", "CognateAssembly", "CognateCore",
                "CognateStorage", "CognateTestSupport", .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
)
