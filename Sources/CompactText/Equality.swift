/// Comparing strings as calls. The standard library's `==` is `@inlinable`, and its generic `!=`
/// and `~=` (a `case "literal":` of a `switch` over a String) inline that `==`: x86_64 loaderd held
/// copies of its small-string and ASCII fast paths in 35 functions (7.5 KB, ~200 bytes a site).
/// These are the same comparisons (canonical equivalence, as before) kept out of line; `==`
/// reaches the standard library's through `Equatable`, so that the overload does not call itself.
/// x86_64 loaderd −3.0 KB for `==`, −5.5 KB more for `~=` and `!=`; armv6 −15.4 KB for `==`
/// (docs/PERFORMANCE.md).
extension String {
    @inline(never) public static func == (lhs: String, rhs: String) -> Bool { equatableEqual(lhs, rhs) }
    @inline(never) public static func != (lhs: String, rhs: String) -> Bool { !equatableEqual(lhs, rhs) }
    @inline(never) public static func ~= (pattern: String, value: String) -> Bool { equatableEqual(pattern, value) }
}

@inline(__always) func equatableEqual<T: Equatable>(_ a: T, _ b: T) -> Bool { a == b }
