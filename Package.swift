// swift-tools-version: 6.1
import PackageDescription

// Dependencies are chosen, not collected; README.md ("Dependencies") says why each one is here.

/// The per-frame modules' setting (see Raster below).
let perFrame: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"])]
let package = Package(
    name: "loaderd",
    products: [
        .executable(name: "loaderd", targets: ["loaderd"]),
        .executable(name: "loaderctl", targets: ["loaderctl"]),
        // Libraries, so that Benchmarks/ (its own package) can measure the renderer.
        .library(name: "FixedPoint", targets: ["FixedPoint"]),
        .library(name: "Raster", targets: ["Raster"]),
        .library(name: "Loaders", targets: ["Loaders"]),
        .library(name: "Displays", targets: ["Displays"]),
        .library(name: "Transports", targets: ["Transports"]),
    ],
    dependencies: [
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // Per-frame code: fixed point only, no Foundation.
        .target(name: "FixedPoint"),
        // String interpolation compiled as calls, not inlined: a quarter of the board binaries
        // (Sources/CompactText). Every board module that builds messages depends on it.
        .target(name: "CompactText"),
        // Per frame, no dynamic exclusivity checks (swift_beginAccess on every access to a class's
        // stored array or a global): the renderer and the displays' encoders are single-threaded
        // and the static checks still hold (docs/PERFORMANCE.md: a twelfth of a MAX7219 frame).
        // scripts/cross-build passes the same flag for these modules.
        .target(name: "Raster", dependencies: ["FixedPoint", "CompactText", "CLinux"], swiftSettings: perFrame),
        // ImageCodecs: the boot screen's logo (PNG, decoded once per scene). CFreeType: a screen's
        // anti-aliased text, FreeType opened with dlopen when first drawn (Sources/CFreeType).
        .target(name: "Loaders", dependencies: ["FixedPoint", "CompactText", "Raster", "ImageCodecs", "CFreeType"], swiftSettings: perFrame),
        .target(name: "CFreeType"),
        // Kernel interfaces Swift cannot express (ioctl numbers from macros, struct layouts), and the
        // C library as board code sees it (Embedded Swift has no Glibc module).
        .target(name: "CLinux", exclude: ["embedded"]),
        // Typed wrappers over the system calls board code makes, in swift-system's manner
        // (swift-system itself does not build in Embedded mode).
        .target(name: "LinuxSystem", dependencies: ["CLinux", "CompactText"]),
        // The command lines of loaderd and loaderctl, parsed by hand: options as data, ArgumentParser's
        // help layout and messages, one exit-status convention (README, "Dependencies").
        .target(name: "CommandLineKit", dependencies: ["CLinux", "CompactText"]),
        // LED wire transports: spidev, SPI bit-banged over libgpiod, and capture transports for tests.
        .systemLibrary(name: "CGpiod", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        // Per frame as well (a display's bytes go out through it every frame): see Raster.
        .target(name: "Transports", dependencies: ["CLinux", "CGpiod", "LinuxSystem", "CompactText"], swiftSettings: perFrame),
        // A screen's per-frame encoding (pixel formats, placement, the frame writer, the changed
        // rectangle), apart from the displays' set-up: see Raster for its setting.
        .target(name: "ScreenEncoding", dependencies: ["CompactText", "Raster", "CLinux"], swiftSettings: perFrame),
        .target(
            name: "Displays",
            dependencies: ["FixedPoint", "CompactText", "Raster", "ScreenEncoding", "ImageCodecs", "CLinux", "LinuxSystem", "Transports"],
            swiftSettings: perFrame
        ),
        // The daemon: event loop, control server, protocol, state, config, systemd glue.
        .target(
            name: "LoaderDaemon",
            dependencies: [
                "FixedPoint", "CompactText", "Raster", "Loaders", "Displays", "Transports", "CLinux", "LinuxSystem",
            ]
        ),

        // File formats written by `loaderctl render` (and later the daemon's image display).
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        .target(name: "ImageCodecs", dependencies: ["Raster", "CompactText", "CPNG", "CGIF", "CLinux", "LinuxSystem"]),

        .executableTarget(
            name: "loaderd",
            dependencies: ["LoaderDaemon", "Displays", "FixedPoint", "CompactText", "Loaders", "LinuxSystem", "CommandLineKit"],
            // The Swift runtime linked in: a dynamic one costs ~2 ms of loading and relocation per start
            // and ~3 MB of resident file pages (docs/PERFORMANCE.md, "The daemon").
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux]))]
        ),
        .executableTarget(
            name: "loaderctl",
            // Board code too (Embedded Swift in scripts/cross-build): no ArgumentParser, whose
            // conformance scans were half of a `loaderctl ping`.
            dependencies: ["FixedPoint", "CompactText", "Raster", "Loaders", "Displays", "ImageCodecs", "CLinux", "LinuxSystem", "CommandLineKit"],
            // libm by name: Foundation used to bring it along. The runtime linked in, as loaderd's.
            linkerSettings: [.linkedLibrary("m"), .unsafeFlags(["-static-stdlib"], .when(platforms: [.linux]))]
        ),

        .testTarget(
            name: "FixedPointTests",
            dependencies: ["FixedPoint", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "RasterTests", dependencies: ["Raster", "FixedPoint"]),
        .testTarget(name: "LoadersTests", dependencies: ["Loaders", "Raster", "FixedPoint", "ImageCodecs"], exclude: ["Golden"]),
        .testTarget(name: "DisplaysTests", dependencies: ["Displays", "Raster", "FixedPoint", "ImageCodecs", "CLinux", "LinuxSystem"]),
        .testTarget(name: "LEDTests", dependencies: ["Displays", "Transports", "Loaders", "Raster", "FixedPoint", "CLinux", "ImageCodecs"]),
        .testTarget(name: "DaemonTests", dependencies: ["LoaderDaemon", "Loaders", "Displays", "Raster", "FixedPoint", "ImageCodecs"]),
        .testTarget(
            name: "ConfigTests",
            dependencies: ["LoaderDaemon", "Loaders", "Displays", "FixedPoint", "CompactText"]
        ),
        .testTarget(name: "ImageCodecsTests", dependencies: ["ImageCodecs", "Raster", "Displays"]),
        .testTarget(name: "CLITests", dependencies: ["ImageCodecs", "Raster", "Loaders", "FixedPoint"], exclude: ["Help"]),
    ],
    swiftLanguageModes: [.v6]
)
