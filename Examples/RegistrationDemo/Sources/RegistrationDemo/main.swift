import CognateAuth
import Foundation
import RegistrationDemoKit

// A thin shell: read the settings, run the demo on the terminal, exit with its outcome.
let configuration: DemoConfiguration
do {
    configuration = try DemoConfiguration.parse(
        arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(64)
}
let demo = RegistrationDemo(
    configuration: configuration.authConfiguration(), io: StandardLineIO(), passwordless: configuration.passwordless)
exit(await demo.run().rawValue)
