import Displays
import Raster
import Testing
import Transports
import CLinux
import Glibc

@Suite struct SpecTests {
    func open(_ text: String) throws -> any Display {
        try #require(try LEDDisplays.open(DisplaySpec(parsing: text)))
    }

    /// The spec's grammar: type, then key=value items split at commas; empty items skipped;
    /// non-ASCII values kept whole; what is malformed named.
    @Test func specGrammar() throws {
        let spec = try DisplaySpec(parsing: "FB:device=/dev/fb0,,label=Café ☕,scale=4,")
        #expect(spec.type == "fb")
        #expect(spec.options == [.init("device", "/dev/fb0"), .init("label", "Café ☕"), .init("scale", "4")])
        #expect(try DisplaySpec(parsing: "image").options.isEmpty && DisplaySpec(parsing: "image:").options.isEmpty)
        #expect(try DisplaySpec(parsing: "x:a=b=c")["a"] == "b=c")
        for (text, message) in [
            ("fb:device", "'device' is not key=value"), ("fb:=3", "'=3' is not key=value"),
            ("fb:scale=2,scale=3", "'scale' is given twice"), ("fb:a=1,é", "'é' is not key=value"),
            (":a=1", "expected TYPE:key=value,... (e.g. fb:device=/dev/fb0,scale=4)"),
            ("fé:a=1", "expected TYPE:key=value,... (e.g. fb:device=/dev/fb0,scale=4)"),
        ] {
            #expect(throws: DisplaySpecError(spec: text, message: message), "\(text)") { try DisplaySpec(parsing: text) }
        }
    }

    @Test(arguments: [
        ("max7219:spi=/dev/spidev0.0,modules=8,dry-run=true", 64, 8),
        ("apa102:gpiochip=gpiochip0,clock=11,data=10,size=16x16,layout=serpentine,dry-run=true", 16, 16),
        ("ws2812:spi=/dev/spidev0.0,size=32x8,dry-run=true", 32, 8),
        ("sk9822:size=8x4,rotate=90,dry-run=true", 4, 8),
        ("max7219:modules=8,rows=2,rotate=90,block_orientation=-90,reverse_order=true,flip=vertical,mono=dither,dry-run=true", 16, 32),
        ("max7219:gpiochip=gpiochip0,clock=11,data=10,latch=8,modules=4,dry-run=true", 32, 8),
        ("ws2812:size=8x16,layout=column-serpentine,origin=bottom-right,encoding=8,order=rgb,reset_us=50,fps=30,dry-run=true", 8, 16),
    ])
    func examplesOpenDryRun(spec: String, width: Int, height: Int) throws {
        let d = try open(spec)
        #expect(d.canvasWidth == width && d.canvasHeight == height)
        #expect(d.framesPerSecond == (spec.contains("fps=30") ? 30 : 60))
        for (_, canvas) in try loaderFrames(width: width, height: height, times: [0, 500_000]) { try d.show(canvas) }
        try d.clear()
        d.close()
    }

    @Test func dryRunRecordsTheInitialisation() throws {
        let d = try #require(try open("max7219:spi=/dev/spidev0.0,modules=8,dry-run=true") as? MAX7219Display)
        let capture = try #require(d.bus as? SPICapture)
        #expect(capture.messages.count == 13)
        #expect(capture.messages.allSatisfy { $0.count == 16 })
    }

    @Test(arguments: [
        ("max7219:modules=8,colour=red", "unknown option 'colour'; max7219 accepts: spi, speed, gpiochip, clock, data, latch, dry-run, modules, rows"),
        ("max7219:modules=0", "'modules' must be an integer in 1...256, got '0'"),
        ("max7219:modules=6,rows=4", "'rows' must divide 'modules' evenly"),
        ("max7219:block_orientation=45", "'block_orientation' must be one of 0, 90, -90, 270, 180, got '45'"),
        ("max7219:mono=halftone", "'mono' must be one of threshold, dither, got 'halftone'"),
        ("max7219:gpiochip=gpiochip0,clock=11,data=10", "max7219 over GPIO needs latch="),
        ("max7219:gpiochip=gpiochip0,clock=11", "gpiochip= needs clock= and data= line offsets"),
        ("apa102:spi=/dev/spidev0.0", "'size' is required, e.g. size=16x16"),
        ("apa102:size=16by16", "'size' must be WIDTHxHEIGHT"),
        ("apa102:size=8x8,layout=spiral", "'layout' must be one of rows, serpentine, columns, column-serpentine, got 'spiral'"),
        ("apa102:size=8x8,origin=middle", "'origin' must be one of top-left, top-right, bottom-left, bottom-right"),
        ("apa102:size=8x8,rotate=45", "'rotate' must be one of 0, 90, 180, 270, got '45'"),
        ("apa102:size=8x8,brightness=150", "'brightness' must be an integer in 0...100, got '150'"),
        ("apa102:size=8x8,spi=/dev/spidev0.0,gpiochip=gpiochip0,clock=1,data=2", "give either spi= or gpiochip=, not both"),
        ("apa102:size=8x8,clock=11", "'clock' needs gpiochip="),
        ("apa102:size=8x8,dry-run=maybe", "dry-run= takes true, false, or a file ending in .png or .ppm, got 'maybe'"),
        ("ws2812:size=8x8,encoding=4", "'encoding' must be one of 3, 8, got '4'"),
        ("ws2812:size=8x8,order=rgbw", "'order' must be one of rgb, rbg, grb, gbr, brg, bgr, got 'rgbw'"),
        ("ws2812:size=8x8,gpiochip=gpiochip0,clock=1,data=2", "cannot be bit-banged over GPIO"),
        ("ws2812:size=8x8,reset_us=10", "'reset_us' must be an integer in 50...10000, got '10'"),
        // Each chip's fastest clock (docs/HARDWARE.md); WS2812's is its encoding's, not settable.
        ("max7219:dry-run=true,speed=20000000", "'speed' must be an integer in 10000...10000000, got '20000000' (in Hz; max7219's clock is at most 10 MHz)"),
        ("apa102:size=8x8,dry-run=true,speed=24000000", "'speed' must be an integer in 10000...20000000, got '24000000' (in Hz; apa102's clock is at most 20 MHz)"),
        ("sk9822:size=8x8,dry-run=true,speed=24000000", "sk9822's clock is at most 20 MHz"),
        ("ws2812:size=8x8,dry-run=true,speed=2400000", "unknown option 'speed'; ws2812 accepts"),
    ])
    func badSpecsNameTheKeyAndWhatIsAccepted(spec: String, message: String) throws {
        #expect {
            _ = try LEDDisplays.open(DisplaySpec(parsing: spec))
        } throws: { error in
            guard case .spec(let e) = error as? DisplayOpenError else { return false }
            return e.message.contains(message) && e.description.hasPrefix("invalid display '")
        }
    }

    @Test func otherTypesAreNotLEDs() throws {
        #expect(try LEDDisplays.open(DisplaySpec(parsing: "fb:device=/dev/fb0")) == nil)
    }

    @Test func dryRunFindsFramesTooBigForBufsiz() {
        // No spidev module here: the dry run assumes the default 4096.
        #expect {
            _ = try LEDDisplays.open(DisplaySpec(parsing: "ws2812:size=32x32,dry-run=true"))
        } throws: { error in
            "\(error)".contains("frame is 9300 bytes, spidev bufsiz is 4096: add spidev.bufsiz=65536 to the kernel command line")
        }
    }
}

/// The real kernel and library paths, as far as a machine without SPI or GPIO hardware allows.
@Suite struct RealTransportTests {
    @Test func missingSpidevSaysHowToEnableSPI() throws {
        #expect {
            _ = try LEDDisplays.open(DisplaySpec(parsing: "max7219:spi=/dev/spidev7.3,modules=4"))
        } throws: { error in
            guard case .device(let e) = error as? DisplayOpenError else { return false }
            return e.message.contains("no /dev/spidev7.3: enable SPI (dtparam=spi=on in /boot/firmware/config.txt") && e.message.contains("or load spidev")
        }
    }

    @Test func notAnSpidevDeviceIsRefusedByTheRealIoctl() {
        // /dev/null opens read-write; SPI_IOC_WR_MODE on it fails with ENOTTY from the kernel.
        #expect {
            _ = try SPIDevice(path: "/dev/null", mode: 0, speedHz: 1_000_000)
        } throws: { error in
            guard let e = error as? TransportError else { return false }
            return e.errno == .inappropriateIOCTLForDevice && e.message.contains("not an spidev device")
        }
    }

    @Test func bufsizIsReadFromSysfsOrDefaults() throws {
        #expect(SPIDevice.readBufsiz(path: "/nonexistent/bufsiz") == 4096)
        let path = "/tmp/loaderd-led-bufsiz-\(getpid())"
        let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        _ = "65536\n".withCString { write(fd, $0, 6) }
        close(fd)
        defer { unlink(path) }
        #expect(SPIDevice.readBufsiz(path: path) == 65536)
    }

    @Test func ioctlRequestNumbersMatchTheKernelEncoding() {
        // _IOW('k', 0, char[32 × n]): dir 1 << 30, size << 16, type 'k' << 8, nr 0.
        for n in [1, 2, 8] {
            let expected = UInt(1) << 30 | UInt(32 * n) << 16 | UInt(UInt8(ascii: "k")) << 8
            #expect(UInt(loaderd_spi_ioc_message_request(UInt32(n))) == expected)
        }
    }

    @Test(arguments: ["gpiochip0", "/dev/gpiochip0", "0", "pinctrl-bcm2711"])
    func missingGPIOChipThroughRealLibgpiod(chip: String) {
        #expect(GPIOChipLines.libraryAPI == 1)
        #expect(GPIOChipLines.libraryVersion.hasPrefix("1.6"))
        #expect {
            _ = try BitBangSPI(chip: chip, clock: 11, data: 10, latch: nil)
        } throws: { error in
            guard let e = error as? TransportError else { return false }
            return e.message.hasPrefix("no such GPIO chip '\(chip)' (by path, name, number or label): no GPIO chips on this machine")
                && e.errno == .noSuchFileOrDirectory
        }
    }

    @Test func specWithoutDryRunReachesLibgpiod() {
        #expect {
            _ = try LEDDisplays.open(DisplaySpec(parsing: "apa102:gpiochip=gpiochip0,clock=11,data=10,size=16x16,layout=serpentine"))
        } throws: { error in
            "\(error)" == "apa102:gpiochip=gpiochip0,clock=11,data=10,size=16x16,layout=serpentine: gpiochip0: no such GPIO chip 'gpiochip0' (by path, name, number or label): no GPIO chips on this machine"
        }
    }

    @Test func sameLineTwiceIsRefusedBeforeTheRequest() {
        #expect {
            _ = try BitBangSPI(chip: "gpiochip0", clock: 10, data: 10, latch: nil)
        } throws: { error in
            "\(error)".contains("clock and data are both line 10")
        }
    }

    /// `dry-run=true` keeps the last 64 messages in a ring whose slots are made with the first
    /// message and reused in place.
    @Test func captureOfTheLastMessagesKeepsThemInOrder() throws {
        let capture = SPICapture(recording: .last(3))
        for b in UInt8(1)...5 { try [b, b].withUnsafeBytes { try capture.send($0) } }
        #expect(capture.messages.count == 3)
        #expect(Array(capture.recentMessages) == [[3, 3], [4, 4], [5, 5]])
        #expect(capture.messageCount == 5 && capture.byteCount == 10)
        try [UInt8(9)].withUnsafeBytes { try capture.send($0) }  // a shorter message in a reused slot
        #expect(Array(capture.recentMessages) == [[4, 4], [5, 5], [9]])
        capture.removeAll()
        #expect(capture.recentMessages.isEmpty && capture.messageCount == 0)
        try [UInt8(7)].withUnsafeBytes { try capture.send($0) }
        #expect(Array(capture.recentMessages) == [[7]])
        // The slots are made with the first message's length; a longer one still fits whole.
        for message: [UInt8] in [[8, 8, 8], [9, 9, 9, 9], [10]] { try message.withUnsafeBytes { try capture.send($0) } }
        #expect(Array(capture.recentMessages) == [[8, 8, 8], [9, 9, 9, 9], [10]])
    }
}
