import ArgumentParser
import Foundation

/// `--user`: which local profile a fan command is about.
struct FanOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The local profile (default: $ENCORE_USER, else \"me\").", valueName: "name"))
    var user: String?

    var name: String {
        if let user { return user }
        if let fromEnvironment = ProcessInfo.processInfo.environment["ENCORE_USER"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return "me"
    }

    /// A command to suggest, with `--user NAME` when the profile came from `--user`, so
    /// that typing it acts on the same profile.
    func command(_ text: String) -> String {
        user.map { "\(text) --user \($0)" } ?? text
    }

    func validate() throws {
        // Profile names become directory names in the static feeds (users/NAME/).
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        let name = self.name
        guard !name.isEmpty, name.count <= 64, !name.hasPrefix("."),
            name.unicodeScalars.allSatisfy({ allowed.contains($0) })
        else {
            throw ValidationError(
                "A profile name uses letters, digits, '.', '_' or '-' (at most 64, not starting with '.'); got \"\(name)\".")
        }
    }
}
