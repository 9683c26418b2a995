extension SourcesConfiguration {
    /// The sources that name an API key variable the environment does not set (or sets
    /// empty): a configuration that cannot run, caught before any request is made.
    ///
    /// ```swift
    /// let unset = configuration.unsetKeyVariables(in: ProcessInfo.processInfo.environment, file: "encore.toml")
    /// // encore.toml:1: source "songkick": its API key variable SONGKICK_API_KEY is not set
    /// ```
    public func unsetKeyVariables(in environment: [String: String], file: String? = nil) -> [ConfigurationError] {
        sources.compactMap { source in
            guard let variable = source.apiKeyEnvironmentVariable, environment[variable, default: ""].isEmpty else { return nil }
            return ConfigurationError(
                file: file, line: source.line, message: "source \"\(source.name)\": its API key variable \(variable) is not set")
        }
    }
}
