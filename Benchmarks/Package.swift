// swift-tools-version: 6.1
import PackageDescription

// Kept apart from the main package so that `swift build` / `swift test` of loaderd never build
// the benchmark harness. Run with: cd Benchmarks && swift package benchmark
// SwiftPM names a path dependency after its directory, which depends on where the repository was
// cloned; derive it instead of assuming "loaderd".
let parentName = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "loaderd")

let package = Package(
    name: "loaderd-benchmarks",
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "RenderBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "FixedPoint", package: parentName),
                .product(name: "Raster", package: parentName),
                .product(name: "Loaders", package: parentName),
                .product(name: "Displays", package: parentName),
                .product(name: "Transports", package: parentName),
            ],
            path: "Benchmarks/RenderBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Renders N frames of one loader, for instruction counts with callgrind (docs/PERFORMANCE.md).
        .executableTarget(
            name: "FrameCost",
            dependencies: [
                .product(name: "FixedPoint", package: parentName),
                .product(name: "Raster", package: parentName),
                .product(name: "Loaders", package: parentName),
                .product(name: "Displays", package: parentName),
                .product(name: "Transports", package: parentName),
            ],
            // Outside Benchmarks/: the benchmark plugin runs every executable it finds there.
            path: "Tools/FrameCost"
        ),
        // A hash of every frame of every loader, to check that a renderer change is byte-identical.
        .executableTarget(
            name: "FrameHash",
            dependencies: [
                .product(name: "FixedPoint", package: parentName),
                .product(name: "Raster", package: parentName),
                .product(name: "Loaders", package: parentName),
            ],
            path: "Tools/FrameHash"
        ),
        // One display's frame write (fb: or drm:), for the DRM display measured beside fbdev.
        .executableTarget(
            name: "DisplayFrameCost",
            dependencies: [
                .product(name: "FixedPoint", package: parentName),
                .product(name: "Raster", package: parentName),
                .product(name: "Loaders", package: parentName),
                .product(name: "Displays", package: parentName),
            ],
            path: "Tools/DisplayFrameCost",
            linkerSettings: [.unsafeFlags(["-static-stdlib"])]
        ),
    ]
)
