import Foundation

/// The real loaderd on a private socket, drawing into an image display (a .ppm the tests read),
/// terminated when released. For the loaderctl features that take more than one request.
final class RealDaemon {
    let directory: String
    let socket: String
    let image: String
    private let process = Process()

    /// `fps`: the image display's frame rate (nil: its default).
    init(size: String = "32x8", fps: Int? = nil, arguments: [String] = []) throws {
        directory = "/tmp/lctl-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        socket = directory + "/loaderd.sock"
        image = directory + "/frame.ppm"
        process.executableURL = Binary.productsDirectory.appendingPathComponent("loaderd")
        process.arguments = ["--display", "image:path=\(image),size=\(size)" + (fps.map { ",fps=\($0)" } ?? ""), "--socket", socket, "--log-level", "warning"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Up when it answers (generous limit, only so that a bug cannot hang the tests).
        let up = eventually { (try? self.ctl(["ping"]))?.status == 0 }
        if !up { throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "loaderd did not come up at \(socket)"]) }
    }

    /// loaderctl with this daemon's socket.
    func ctl(_ arguments: [String]) throws -> Binary.Result {
        try Binary.run("loaderctl", arguments + ["--socket", socket])
    }

    /// The daemon's `status` as JSON.
    func status() throws -> [String: Any] {
        let r = try ctl(["status", "--json"])
        return (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]) ?? [:]
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Polls `condition` every 20 ms until it holds or `limit` seconds pass (a limit only so that a
/// bug cannot hang the tests; nothing asserts on time).
func eventually(_ limit: Double = 10, _ condition: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(limit)
    while Date() < end {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}
