import Foundation

/// Runs the real built binaries (`swift test` builds them next to the test bundle).
enum Binary {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The directory of the binaries under test: $LOADERD_BINARIES when set (scripts/test sets it to
    /// dist/x86_64, the Embedded Swift build that ships), else the test runner's own directory.
    static var productsDirectory: URL {
        if let dir = ProcessInfo.processInfo.environment["LOADERD_BINARIES"], !dir.isEmpty { return URL(fileURLWithPath: dir) }
        let exe = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        var dir = exe.deletingLastPathComponent()
        // On Linux the runner is <bin>/loaderdPackageTests.xctest; with bundles, walk up out of them.
        while dir.pathExtension == "xctest" || dir.lastPathComponent == "Contents" || dir.lastPathComponent == "MacOS" {
            dir = dir.deletingLastPathComponent()
        }
        return dir
    }

    static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        // An absolute path (a shell that passes bytes Process cannot) is run as it is.
        process.executableURL = name.hasPrefix("/") ? URL(fileURLWithPath: name) : productsDirectory.appendingPathComponent(name)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["COLUMNS"] = "80"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes to the end before waiting, so a chatty child never blocks on a full pipe.
        let errData = Data.readAll(err)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData.value, as: UTF8.self))
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("loaderd-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Reads a pipe on a background thread (stderr), so stdout and stderr drain concurrently.
final class AsyncRead: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)
    init(_ pipe: Pipe) {
        DispatchQueue.global().async {
            self.data = pipe.fileHandleForReading.readDataToEndOfFile()
            self.done.signal()
        }
    }
    var value: Data { done.wait(); return data }
}

extension Data {
    static func readAll(_ pipe: Pipe) -> AsyncRead { AsyncRead(pipe) }
}
