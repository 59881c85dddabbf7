extension Config {
    /// What `loaderd --check-config FILE` reports: every error in the file (not only the first;
    /// up to `ConfigDecoder.reportedLimit`), and what start-up would refuse about this machine,
    /// a socket group that does not exist, at its line and column. Empty when the daemon would
    /// start with the file.
    public static func check(path: String) -> [ConfigError] {
        do {
            let text = try decodeUTF8(try readFile(path), source: path)
            _ = try parse(text, source: path, checksMachine: true)
            return []
        } catch {
            return error.all
        }
    }
}
