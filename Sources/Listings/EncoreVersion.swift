/// Encore's release: what `encore --version` prints, and what the crawler may name itself
/// with (`Encore/<version>` in its User-Agent), kept in one place so the two agree.
public enum EncoreVersion {
    public static let current = "0.9.0"

    /// `Encore/0.9.0`, the product token for a User-Agent header.
    public static var product: String { "Encore/\(current)" }
}
