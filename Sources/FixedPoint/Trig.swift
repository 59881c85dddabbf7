/// Sine and cosine of an angle in *turns* (1.0 = a full circle), from a quarter-wave table.
///
/// Why turns: loaders describe rotation and oscillation as fractions of a period, which time
/// already is (`Fixed.ratio(elapsed % period, period)`). In turns the reduction to one circle is a
/// bit mask (the fraction bits of a Q16.16 number), with no π and no rounding, so `sine(turns:)`
/// of a whole number of turns is exactly 0 however many turns have passed.
///
/// Why a table: there is no FPU to rely on, and a 257-entry quarter wave (1 KiB, `Int32`, built
/// into the binary, identical on every machine) with linear interpolation needs one multiply.
/// The other three quarters follow from symmetry, so sine is exactly odd and periodic.
///
/// Error: the table is Q2.30; interpolating sin over steps of (π/2)/256 is off by at most
/// h²/8 ≈ 4.7 × 10⁻⁶, the Q2.30 entries add < 10⁻⁹, and rounding to Q16.16 adds ≤ 1/131072
/// (7.6 × 10⁻⁶). So |sine(turns: a) − sin(2π a)| ≤ 1.3 × 10⁻⁵ < 1/75000 for every Fixed `a`
/// (measured 1.23 × 10⁻⁵ over every Q16.16 phase in TrigTests, which asserts ≤ 1.3 × 10⁻⁵).
/// The Q2.30 entry points (`sineQ30(phase:)`) are good to 4.8 × 10⁻⁶ for internal use.
extension Fixed {
    /// sin(2π · turns). Only the fraction of `turns` matters; negative angles work.
    @inlinable public static func sine(turns: Fixed) -> Fixed {
        Fixed(raw: Int32(truncatingIfNeeded: roundQ30toQ16(sineQ30(phase: UInt32(truncatingIfNeeded: turns.raw) << 16))))
    }

    /// cos(2π · turns) = sin(2π · (turns + 1/4)).
    @inlinable public static func cosine(turns: Fixed) -> Fixed {
        Fixed(raw: Int32(truncatingIfNeeded: roundQ30toQ16(sineQ30(phase: (UInt32(truncatingIfNeeded: turns.raw) << 16) &+ (1 << 30)))))
    }

    /// sin(2π · phase / 2³²) in Q2.30 (2³⁰ = 1). `phase` is an angle with 32 fraction bits of a
    /// turn, so it wraps for free; error ≤ 4.8 × 10⁻⁶. Used by `Spring` for its oscillation.
    @inlinable public static func sineQ30(phase: UInt32) -> Int64 {
        let quadrant = phase >> 30
        var p = phase & 0x3FFF_FFFF            // position within the quadrant, 30 bits
        if quadrant & 1 == 1 { p = 0x4000_0000 - p }  // second and fourth quarters run backwards
        let index = Int(p >> 22)                  // 0...256
        let value: Int64
        if index >= 256 {
            value = Int64(quarterSineQ30[256])
        } else {
            let a = Int64(quarterSineQ30[index]), b = Int64(quarterSineQ30[index + 1])
            let frac = Int64(p & 0x3F_FFFF)       // 22 bits
            value = a + (((b - a) * frac + (1 << 21)) >> 22)
        }
        return quadrant >= 2 ? -value : value
    }

    /// cos(2π · phase / 2³²) in Q2.30.
    @inlinable public static func cosineQ30(phase: UInt32) -> Int64 { sineQ30(phase: phase &+ (1 << 30)) }

    /// A Q2.30 value rounded to Q16.16 raw, halves away from zero (so sine stays exactly odd).
    @inlinable static func roundQ30toQ16(_ v: Int64) -> Int64 {
        v >= 0 ? (v + (1 << 13)) >> 14 : -((-v + (1 << 13)) >> 14)
    }

    /// sin(π/2 · i/256) × 2³⁰, rounded, i = 0...256.
    @usableFromInline static let quarterSineQ30: [Int32] = [
        0, 6588356, 13176464, 19764076, 26350943, 32936819, 39521455, 46104602,
        52686014, 59265442, 65842639, 72417357, 78989349, 85558366, 92124163, 98686491,
        105245103, 111799753, 118350194, 124896179, 131437462, 137973796, 144504935, 151030634,
        157550647, 164064728, 170572633, 177074115, 183568930, 190056834, 196537583, 203010932,
        209476638, 215934457, 222384147, 228825464, 235258165, 241682010, 248096755, 254502159,
        260897982, 267283981, 273659918, 280025552, 286380643, 292724951, 299058239, 305380268,
        311690799, 317989595, 324276419, 330551034, 336813204, 343062693, 349299266, 355522689,
        361732726, 367929144, 374111709, 380280190, 386434353, 392573967, 398698801, 404808624,
        410903207, 416982319, 423045732, 429093217, 435124548, 441139496, 447137835, 453119340,
        459083786, 465030947, 470960600, 476872522, 482766489, 488642281, 494499676, 500338453,
        506158392, 511959275, 517740883, 523502998, 529245404, 534967884, 540670223, 546352205,
        552013618, 557654248, 563273883, 568872310, 574449320, 580004702, 585538248, 591049748,
        596538995, 602005783, 607449906, 612871159, 618269338, 623644239, 628995660, 634323400,
        639627258, 644907034, 650162530, 655393548, 660599890, 665781362, 670937767, 676068911,
        681174602, 686254647, 691308855, 696337036, 701339000, 706314559, 711263525, 716185713,
        721080937, 725949013, 730789757, 735602987, 740388522, 745146182, 749875788, 754577161,
        759250125, 763894504, 768510122, 773096806, 777654384, 782182683, 786681534, 791150767,
        795590213, 799999706, 804379079, 808728167, 813046808, 817334838, 821592095, 825818421,
        830013654, 834177638, 838310216, 842411232, 846480531, 850517961, 854523370, 858496606,
        862437520, 866345964, 870221790, 874064853, 877875009, 881652112, 885396022, 889106597,
        892783698, 896427186, 900036924, 903612776, 907154608, 910662286, 914135678, 917574653,
        920979082, 924348837, 927683790, 930983817, 934248793, 937478595, 940673101, 943832191,
        946955747, 950043650, 953095785, 956112036, 959092290, 962036435, 964944360, 967815955,
        970651112, 973449725, 976211688, 978936898, 981625251, 984276646, 986890984, 989468165,
        992008094, 994510675, 996975812, 999403415, 1001793390, 1004145648, 1006460100, 1008736660,
        1010975242, 1013175761, 1015338134, 1017462281, 1019548121, 1021595575, 1023604567, 1025575020,
        1027506862, 1029400018, 1031254418, 1033069992, 1034846671, 1036584389, 1038283080, 1039942680,
        1041563127, 1043144360, 1044686319, 1046188946, 1047652185, 1049075980, 1050460278, 1051805027,
        1053110176, 1054375676, 1055601479, 1056787540, 1057933813, 1059040255, 1060106826, 1061133483,
        1062120190, 1063066909, 1063973603, 1064840240, 1065666786, 1066453210, 1067199483, 1067905576,
        1068571464, 1069197120, 1069782521, 1070327646, 1070832474, 1071296985, 1071721163, 1072104991,
        1072448455, 1072751542, 1073014240, 1073236540, 1073418433, 1073559913, 1073660973, 1073721611,
        1073741824,
    ]
}
