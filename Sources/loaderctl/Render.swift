import CommandLineKit
import Displays
import FixedPoint
import ImageCodecs
import Loaders
import Raster
import CompactText

enum RenderVerb {
    static let atOption = OptionSpec(name: "at", kind: .value, valueName: "SECONDS", help: "Time since start of the (first) frame, in seconds. (default: 0.0)")
    static let durationOption = OptionSpec(name: "duration", kind: .value, valueName: "SECONDS", help: "Length of a GIF animation in seconds (default: one period of the loader).")
    static let fpsOption = OptionSpec(name: "fps", kind: .value, help: "Frames per second of a GIF animation (1 to 50; GIF players slow down faster rates). (default: 25)")
    static let zoomOption = OptionSpec(name: "zoom", kind: .value, help: "Enlarge every pixel to an NxN block in the file (to look at LED-sized frames; 1 to 64). (default: 1)")
    static let outputOption = OptionSpec(name: "output", short: "o", kind: .value, valueName: "FILE", help: "Output file: .ppm (binary P6), .png or .gif.")

    static let verb: Verb = {
        var page = HelpPage(
            abstract: "Render a loader to a file: one frame (.ppm, .png) or an animation (.gif).",
            discussion: """
                The frame is a pure function of time: --at picks the moment. A .gif holds --duration \
                seconds at --fps (default: one full period of the loader, so it loops seamlessly).
                Example: loaderctl render linkedin --size 64x8 --output linkedin.gif
                """,
            usage: "loaderctl render [<options>] <name> --output <FILE>")
        page.arguments = [SceneOptionsGroup.nameArgument]
        page.options = SceneOptionsGroup.options + [atOption, durationOption, fpsOption, zoomOption, outputOption]
        return Verb(name: "render", page: page, unlistedOptions: ConnectionOptions.options) { [page] (parsed) throws(CommandError) in
            let name = try parsed.verbArguments(required: ["<name>"], optional: 0, options: page.options)[0]
            try ConnectionOptions.checkUnused(parsed)
            guard let output = parsed.last("output") else { throw .usage("Missing expected argument '--output <FILE>'") }
            let scene = try SceneOptionsGroup(parsed, name: name)
            let at = try parsed.number(atOption) { Double($0) } ?? 0
            let duration = try parsed.number(durationOption) { Double($0) }
            let fps = try parsed.number(fpsOption) { Int($0) } ?? 25
            let zoom = try parsed.number(zoomOption) { Int($0) } ?? 1
            guard at.isFinite, at >= 0, at <= 1_000_000 else { throw .usage("--at must be from 0 to 1000000 seconds, got \(at)") }
            if let duration, !(duration.isFinite && duration > 0 && duration <= 600) {
                throw .usage("--duration must be more than 0 and at most 600 seconds, got \(duration)")
            }
            guard (1...64).contains(zoom) else { throw .usage("--zoom must be from 1 to 64, got \(zoom)") }
            guard (1...50).contains(fps) else { throw .usage("--fps must be from 1 to 50, got \(fps)") }
            let format: ImageFormat
            do throws(ImageCodecError) { format = try ImageFormat(path: output) } catch { throw .usage(error.description) }
            try checkOutputSize(width: scene.width, height: scene.height, zoom: zoom, format: format)
            do throws(ImageCodecError) {
                try render(scene, format: format, output: output, at: at, duration: duration, fps: fps, zoom: zoom)
            } catch {
                // Codec errors name the file and the reason; they are not usage errors (exit 1).
                throw .failure(RuntimeFailure(error.description))
            }
        }
    }()

    /// The most pixels a file gets: 8192x8192, 192 MiB of RGB (a .ppm of 4096x4096 at --zoom 2
    /// peaks at 480 MB resident, 1.3 s). --size (4096 a side) and --zoom (64) are each in range,
    /// but together they asked for up to 262144x262144: 206 GB, a trap in the allocation.
    static let maximumPixels: Int64 = 8192 * 8192

    /// The zoomed image, checked before anything is drawn or allocated (Int64: 32-bit boards).
    static func checkOutputSize(width: Int, height: Int, zoom: Int, format: ImageFormat) throws(CommandError) {
        let w = Int64(width) * Int64(zoom), h = Int64(height) * Int64(zoom)
        let what = "--size \(width)x\(height) at --zoom \(zoom) makes a \(w)x\(h) image"
        if w * h > maximumPixels {
            throw .usage(what + " (\(w * h) pixels); at most \(maximumPixels) pixels (8192x8192) are written")
        }
        if format.isAnimated && max(w, h) > 0xFFFF { throw .usage(what + "; a GIF's sides are at most 65535") }
    }

    static func render(_ options: SceneOptionsGroup, format: ImageFormat, output: String, at: Double, duration: Double?,
                       fps: Int, zoom: Int) throws(ImageCodecError) {
        var scene = options.makeScene()
        let start = Time.microseconds(seconds: at)
        if format.isAnimated {
            let length = duration.map { Time.microseconds(seconds: $0) } ?? scene.loader.period
            let frameCount = Swift.max(1, Int((length * Int64(fps) + Time.perSecond / 2) / Time.perSecond))
            let delays = GIF.delays(frameCount: frameCount, fps: fps)
            // Each frame is written as soon as it is drawn: memory holds one frame, however long
            // the animation (held whole, 20 s at 1920x1080 was 4 GB).
            let writer = try GIFWriter(path: output)
            for i in 0..<frameCount {
                // Frame i shows time start + i/fps exactly (integer µs), never an accumulated sum.
                let t = start + Int64(i) * Time.perSecond / Int64(fps)
                scene.render(options.state(at: t))
                try writer.add(GIFFrame(RGBImage(canvas: options.shown(scene), background: options.background).zoomed(by: zoom), delay: delays[i]))
            }
            try writer.finish()
        } else {
            scene.render(options.state(at: start))
            try ImageFile.write(RGBImage(canvas: options.shown(scene), background: options.background).zoomed(by: zoom), to: output)
        }
    }
}
