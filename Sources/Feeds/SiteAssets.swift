import Foundation

/// The site's style sheet, script and icon, named by their contents (`site.3f2a9c01.css`):
/// a new version has a new address, so browsers and caches that keep the old one for a
/// day still show every page as it was built.
enum SiteAssets {
    struct Asset: Sendable {
        let name: String
        let data: Data
    }

    static let all: [Asset] = {
        var assets = ["site.css", "site.js", "favicon.svg"].map { file -> Asset in
            let url = Bundle.module.url(forResource: file, withExtension: nil, subdirectory: "Site")
            let data = url.flatMap { try? Data(contentsOf: $0) } ?? Data()
            let dot = file.lastIndex(of: ".")!
            let version = String(format: "%08x", UInt32(truncatingIfNeeded: FeedFileHash.of(data)))
            return Asset(name: "\(file[..<dot]).\(version)\(file[dot...])", data: data)
        }
        assets.sort { $0.name < $1.name }
        return assets
    }()

    private static func named(_ suffix: String) -> String { all.first { $0.name.hasSuffix(suffix) }!.name }

    static let css = named(".css")
    static let js = named(".js")
    static let favicon = named(".svg")
}
