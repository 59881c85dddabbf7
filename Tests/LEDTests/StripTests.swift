import Displays
import Raster
import Testing
import Transports

@Suite struct APA102Tests {
    @Test(arguments: StripLayout.allCases)
    func everyLoaderLayoutOriginRotation(layout: StripLayout) throws {
        let (w, h) = (8, 6)
        var cache: [String: [(String, Canvas)]] = [:]
        var lit = 0
        defer { #expect(lit > 1000) }
        for origin in StripOrigin.allCases {
            for rotation in MatrixRotation.allCases {
                for variant in [APA102Display.Variant.apa102, .sk9822] {
                    var c = APA102Display.Configuration()
                    c.width = w; c.height = h; c.layout = layout; c.origin = origin; c.rotation = rotation
                    c.variant = variant; c.brightness = 70; c.gamma = 2.2
                    let capture = SPICapture()
                    let d = APA102Display(configuration: c, bus: capture)
                    let key = "\(d.canvasWidth)x\(d.canvasHeight)"
                    if cache[key] == nil { cache[key] = try loaderFrames(width: d.canvasWidth, height: d.canvasHeight) }
                    let positions = walk(width: w, height: h, layout: layout, origin: origin)
                    for (label, canvas) in cache[key]! {
                        capture.removeAll()
                        try d.show(canvas)
                        let bytes = Array(capture.messages.joined())
                        guard !bytes.isEmpty else { continue }  // unchanged from the previous frame
                        let leds = try parseAPA102(bytes, count: w * h, sk9822: variant == .sk9822)
                        lit += leds.filter { $0.r > 0 || $0.g > 0 || $0.b > 0 }.count
                        let panel = Picture(canvas).rotated(clockwise: rotation.rawValue)
                        for (i, (x, y)) in positions.enumerated() {
                            let p = panel[x, y]
                            let want = APA102LED(brightness: 22, r: referenceGamma(p.r, 2.2), g: referenceGamma(p.g, 2.2), b: referenceGamma(p.b, 2.2))
                            #expect(leds[i] == want, "\(label) \(layout) \(origin) \(rotation) LED \(i)")
                        }
                    }
                }
            }
        }
    }

    @Test func unchangedFrameIsNotSentAndLongFramesAreSplit() throws {
        var c = APA102Display.Configuration()
        c.width = 16; c.height = 16
        let capture = SPICapture(maximumMessageLength: 100)
        let d = APA102Display(configuration: c, bus: capture)
        let frames = try loaderFrames(width: 16, height: 16)
        try d.show(frames[1].1)
        #expect(capture.messages.count == (d.frameLength + 99) / 100)
        #expect(capture.messages.allSatisfy { $0.count <= 100 })
        #expect(capture.messageCount > 0)
        let leds = try parseAPA102(Array(capture.messages.joined()), count: 256, sk9822: false)
        #expect(leds.count == 256)
        capture.removeAll()
        try d.show(frames[1].1)
        #expect(capture.messages.isEmpty)
        try d.clear()
        #expect(!capture.messages.isEmpty)
        #expect(try parseAPA102(Array(capture.messages.joined()), count: 256, sk9822: false).allSatisfy { $0.r == 0 && $0.g == 0 && $0.b == 0 })
    }

    @Test func frameLengths() {
        #expect(APA102Display.endFrameLength(leds: 1) == 4)
        #expect(APA102Display.endFrameLength(leds: 64) == 4)
        #expect(APA102Display.endFrameLength(leds: 256) == 16)
        #expect(APA102Display.endFrameLength(leds: 1024) == 64)
        #expect(APA102Display.globalBrightness(percent: 100) == 31)
        #expect(APA102Display.globalBrightness(percent: 0) == 0)
        #expect(APA102Display.globalBrightness(percent: 50) == 16)
    }

    @Test func bitBangedSpecDecodes() throws {
        let d = try APA102Display.open(DisplaySpec(parsing: "apa102:gpiochip=gpiochip0,clock=11,data=10,size=16x16,layout=serpentine,dry-run=true"))
        let bus = try #require(d.bus as? BitBangSPI)
        let lines = try #require(bus.lines as? GPIOCapture)
        lines.recording = .everything
        lines.removeAll()
        let frame = try loaderFrames(width: 16, height: 16)[2].1
        try d.show(frame)
        let messages = decodeBitBang(lines.states, hasLatch: false)
        #expect(messages.count == 1)
        let leds = try parseAPA102(messages[0], count: 256, sk9822: false)
        let positions = walk(width: 16, height: 16, layout: .serpentine, origin: .topLeft)
        for (i, (x, y)) in positions.enumerated() {
            #expect(leds[i].r == referenceGamma(frame[x, y].r, 2.2) && leds[i].b == referenceGamma(frame[x, y].b, 2.2))
        }
        #expect(lines.writeCount == 16 * d.frameLength + 1)
    }
}

@Suite struct WS2812Tests {
    /// The six orders `order=` accepts, each named as it sends: the name's letters are the wire
    /// positions' source channels (a typo in the written-out table would swap two colours).
    @Test func everyColorOrderIsTheChannelsItsNameSpells() {
        #expect(ColorOrder.all.count == 6)
        for (name, order) in ColorOrder.all {
            #expect(order.description == name)
            let source = [order.channels.0, order.channels.1, order.channels.2]
            #expect(source.map { [UInt8(ascii: "r"), UInt8(ascii: "g"), UInt8(ascii: "b")][Int($0)] } == Array(name.utf8))
        }
        #expect(Set(ColorOrder.all.map { $0.0 }) == ["rgb", "rbg", "grb", "gbr", "brg", "bgr"])
        #expect(ColorOrder.all.first { $0.0 == "grb" }?.1 == .grb && ColorOrder.all.first { $0.0 == "bgr" }?.1 == .bgr)
    }

    @Test(arguments: [3, 8])
    func everyLoaderDecodes(encoding: Int) throws {
        var cache: [String: [(String, Canvas)]] = [:]
        for layout in StripLayout.allCases {
            for origin in [StripOrigin.topLeft, .bottomRight] {
                for rotation in MatrixRotation.allCases {
                    for (orderName, order) in [("grb", ColorOrder.grb), ("rgb", .rgb), ("bgr", .bgr)] {
                        var c = WS2812Display.Configuration()
                        c.width = 8; c.height = 4; c.layout = layout; c.origin = origin; c.rotation = rotation
                        c.order = order; c.encoding = encoding; c.brightness = 100; c.resetMicroseconds = 80
                        let capture = SPICapture()
                        let d = try WS2812Display(configuration: c, bus: capture)
                        let key = "\(d.canvasWidth)x\(d.canvasHeight)"
                        if cache[key] == nil { cache[key] = try loaderFrames(width: d.canvasWidth, height: d.canvasHeight) }
                        let positions = walk(width: 8, height: 4, layout: layout, origin: origin)
                        for (label, canvas) in cache[key]! {
                            capture.removeAll()
                            try d.show(canvas)
                            guard let bytes = capture.messages.first else { continue }
                            #expect(capture.messages.count == 1)
                            let (colour, gap) = try decodeWS2812(bytes, encoding: encoding, leds: 32)
                            // Reset: at least 80 µs low at the encoding's clock.
                            #expect(gap * 8 * 1_000_000 >= 80 * Int(WS2812Display.speed(encoding: encoding)))
                            let panel = Picture(canvas).rotated(clockwise: rotation.rawValue)
                            for (i, (x, y)) in positions.enumerated() {
                                let p = panel[x, y]
                                let rgb = [referenceGamma(p.r, 2.2), referenceGamma(p.g, 2.2), referenceGamma(p.b, 2.2)]
                                let want = orderName.map { rgb[$0 == "r" ? 0 : $0 == "g" ? 1 : 2] }
                                #expect(Array(colour[(3 * i)..<(3 * i + 3)]) == want, "\(label) \(layout) \(origin) \(rotation) \(orderName) LED \(i)")
                            }
                        }
                    }
                }
            }
        }
    }

    @Test func brightnessScalesEachChannel() throws {
        var c = WS2812Display.Configuration()
        c.width = 1; c.height = 1; c.brightness = 50; c.gamma = 1
        let capture = SPICapture()
        let d = try WS2812Display(configuration: c, bus: capture)
        var canvas = Canvas(width: 1, height: 1)
        canvas.clear(to: Color(r: 255, g: 100, b: 0))
        try d.show(canvas)
        let (colour, _) = try decodeWS2812(capture.messages[0], encoding: 3, leds: 1)
        // scale 50 % → 128: 255 × 129 >> 8 = 128, 100 × 129 >> 8 = 50.
        #expect(colour == [50, 128, 0])
        capture.removeAll()
        try d.show(canvas)
        #expect(capture.messages.isEmpty)
    }

    @Test func resetLengthsAndFrameSizes() {
        #expect(WS2812Display.resetLength(microseconds: 280, encoding: 3) == 84)
        #expect(WS2812Display.resetLength(microseconds: 50, encoding: 3) == 15)
        #expect(WS2812Display.resetLength(microseconds: 280, encoding: 8) == 224)
    }

    @Test func frameLongerThanBufsizIsRefusedWithTheFix() throws {
        var c = WS2812Display.Configuration()
        c.width = 32; c.height = 32
        let capture = SPICapture(name: "/dev/spidev0.0", maximumMessageLength: 4096)
        #expect {
            _ = try WS2812Display(configuration: c, bus: capture)
        } throws: { error in
            let text = "\(error)"
            return text.contains("frame is 9300 bytes, spidev bufsiz is 4096: add spidev.bufsiz=65536 to the kernel command line")
        }
        c.height = 8
        let d = try WS2812Display(configuration: c, bus: capture)
        #expect(d.frameLength == 32 * 8 * 9 + 84)
    }
}

@Suite struct ColorHelperTests {
    @Test func gammaTableMatchesPow() {
        for g in [1.0, 1.8, 2.2, 2.8] {
            let table = LED8.gammaTable(g)
            for i in 0..<256 { #expect(table[i] == referenceGamma(UInt8(i), g), "gamma \(g) at \(i)") }
        }
        #expect(LED8.gammaTable(2.2)[128] == 56)
    }

    /// The table is computed without libm (LED8's own exp and log): over the whole accepted range
    /// of `gamma` (0.1 to 5, in hundredths) every byte equals the C library's `pow`, rounded.
    @Test func gammaTableAgreesWithTheCLibraryOverTheAcceptedRange() {
        var differing: [String] = []
        for hundredths in 10...500 {
            let g = Double(hundredths) / 100
            let table = LED8.gammaTable(g)
            for i in 0..<256 where table[i] != referenceGamma(UInt8(i), g) {
                differing.append("gamma \(g) at \(i): \(table[i]), pow gives \(referenceGamma(UInt8(i), g))")
            }
        }
        #expect(differing.isEmpty, "\(differing.prefix(10))")
    }

    @Test func scale8() {
        for i in 0...255 {
            #expect(LED8.scale8(UInt8(i), 255) == UInt8(i))
            #expect(LED8.scale8(UInt8(i), 0) == 0)
            #expect(LED8.scale8Video(UInt8(i), 1) == (i == 0 ? 0 : 1))
        }
        #expect(LED8.scale8(128, 128) == 64)
        #expect(LED8.qadd8(200, 100) == 255)
        #expect(LED8.qsub8(10, 20) == 0)
    }
}
