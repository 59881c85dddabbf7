/// `array.map { … }` as a call rather than inlined code.
///
/// The standard library's `map` is `@inlinable`, and at `-Osize` in Embedded Swift each of the
/// board code's ~90 maps (option lists for messages, names, tables built at start-up) expanded in
/// place into its own allocation, growth checks and loop. This overload, more specific than the
/// standard library's `Collection.map`, is the same operation kept out of line: one body per
/// element and result type, the closure passed to it. x86_64 loaderd −6.4 KB, loaderctl −4.4 KB
/// (docs/PERFORMANCE.md, "29 Nov"). Nothing per frame maps (a frame allocates nothing).
///
/// A board source file that maps an array imports this module, as one that interpolates does.
extension Array {
    @inline(never) public func map<T, E: Error>(_ transform: (Element) throws(E) -> T) throws(E) -> [T] {
        var result: [T] = []
        result.reserveCapacity(count)
        for element in self { result.append(try transform(element)) }
        return result
    }
}
