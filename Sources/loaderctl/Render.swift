import ArgumentParser
import FixedPoint
import ImageCodecs
import Loaders
import Raster

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a loader to a file: one frame (.ppm, .png) or an animation (.gif).",
        discussion: """
            The frame is a pure function of time: --at picks the moment. A .gif holds --duration \
            seconds at --fps (default: one full period of the loader, so it loops seamlessly).
            Example: loaderctl render linkedin --size 64x8 --output linkedin.gif
            """
    )

    @OptionGroup var scene: SceneOptionsGroup

    @Option(help: ArgumentHelp("Time since start of the (first) frame, in seconds.", valueName: "SECONDS"))
    var at: Double = 0

    @Option(help: ArgumentHelp("Length of a GIF animation in seconds (default: one period of the loader).", valueName: "SECONDS"))
    var duration: Double?

    @Option(help: "Frames per second of a GIF animation (1 to 50; GIF players slow down faster rates).")
    var fps: Int = 25

    @Option(help: "Enlarge every pixel to an NxN block in the file (to look at LED-sized frames; 1 to 64).")
    var zoom: Int = 1

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file: .ppm (binary P6), .png or .gif.", valueName: "FILE"))
    var output: String

    func validate() throws {
        guard at.isFinite, at >= 0, at <= 1_000_000 else { throw ValidationError("--at must be from 0 to 1000000 seconds, got \(at)") }
        if let duration, !(duration.isFinite && duration > 0 && duration <= 600) {
            throw ValidationError("--duration must be more than 0 and at most 600 seconds, got \(duration)")
        }
        guard (1...64).contains(zoom) else { throw ValidationError("--zoom must be from 1 to 64, got \(zoom)") }
        guard (1...50).contains(fps) else { throw ValidationError("--fps must be from 1 to 50, got \(fps)") }
        do { _ = try ImageFormat(path: output) } catch { throw ValidationError(error.description) }
    }

    func run() throws {
        var scene = try scene.makeScene()
        let background = try self.scene.backgroundColor()
        let format = try ImageFormat(path: output)
        let start = Time.microseconds(seconds: at)
        do {
            if format.isAnimated {
                let length = duration.map { Time.microseconds(seconds: $0) } ?? scene.loader.period
                let frameCount = Swift.max(1, Int((length * Int64(fps) + Time.perSecond / 2) / Time.perSecond))
                let delays = GIF.delays(frameCount: frameCount, fps: fps)
                var frames: [GIFFrame] = []
                frames.reserveCapacity(frameCount)
                for i in 0..<frameCount {
                    // Frame i shows time start + i/fps exactly (integer µs), never an accumulated sum.
                    let t = start + Int64(i) * Time.perSecond / Int64(fps)
                    scene.render(self.scene.state(at: t))
                    frames.append(GIFFrame(RGBImage(canvas: scene.canvas, background: background).zoomed(by: zoom), delay: delays[i]))
                }
                try GIF.write(frames, to: output)
            } else {
                scene.render(self.scene.state(at: start))
                try ImageFile.write(RGBImage(canvas: scene.canvas, background: background).zoomed(by: zoom), to: output)
            }
        } catch {
            // Codec errors name the file and the reason; they are not usage errors (exit 1).
            throw RuntimeFailure(String(describing: error))
        }
    }
}
