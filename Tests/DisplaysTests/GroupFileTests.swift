import Foundation
import Testing
import LinuxSystem

/// Group lookups from an /etc/group file (the socket's group by name, a device's group by number
/// for a "permission denied" message), read as NSS's "files" module reads it.
struct GroupFileTests {
    func groupFile(_ text: String) throws -> String {
        let path = "/tmp/ldt-group-" + String(UUID().uuidString.prefix(8))
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func namesAndNumbersBothWays() throws {
        let path = try groupFile("root:x:0:\nvideo:x:44:pi,loaderd\n\nbroken line\nrender:x:105:\nvideo2:x:44:\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(GroupFile.groupID(named: "video", path: path) == 44)
        #expect(GroupFile.groupID(named: "render", path: path) == 105)
        #expect(GroupFile.groupID(named: "vid", path: path) == nil)
        #expect(GroupFile.name(of: 105, path: path) == "render")
        // Two names for one number: the first line wins, as getgrgid's files module answers.
        #expect(GroupFile.name(of: 44, path: path) == "video")
        #expect(GroupFile.name(of: 0, path: path) == "root")
        #expect(GroupFile.name(of: 7, path: path) == nil)
    }

    @Test func aMissingFileOrMalformedLinesAnswerNothing() throws {
        #expect(GroupFile.groupID(named: "video", path: "/nonexistent/group") == nil)
        #expect(GroupFile.name(of: 44, path: "/nonexistent/group") == nil)
        let path = try groupFile("video:x\n:x:44:\nvideo:x:forty-four:\naudio:x:29\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(GroupFile.groupID(named: "video", path: path) == nil)
        #expect(GroupFile.name(of: 44, path: path) == nil)
        #expect(GroupFile.groupID(named: "audio", path: path) == 29)
    }
}
