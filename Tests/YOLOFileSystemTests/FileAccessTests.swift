import Foundation
import Testing
import TestSupport
import YOLOFileSystem

/// Reading only regular files, listing directories byte for byte, and writing outputs that never
/// replace a file and never appear half-written.
@Suite struct FileAccessTests {
    static func directory(_ name: String) throws -> String {
        let path = try ScratchDirectory.fresh("filesystem-" + name)
        try Directory.create(path)
        return path
    }

    /// A FIFO would block `open` until a writer came: it is refused at once, as are directories and
    /// devices.
    @Test func nonRegularFilesAreRefusedWithoutBlocking() throws {
        let fifo = try Self.directory("fifo") + "/frame.jpg"
        #expect(mkfifo(fifo, 0o600) == 0)
        let clock = ContinuousClock(), start = clock.now
        #expect(throws: FileSystemError.unreadable(path: fifo, reason: "it is a FIFO (named pipe), not a regular file")) {
            try RegularFile.read(fifo, maxBytes: 100)
        }
        #expect(clock.now - start < .seconds(1))
        #expect(throws: FileSystemError.unreadable(path: "/dev/zero", reason: "it is a character device, not a regular file")) {
            try RegularFile.read("/dev/zero", maxBytes: 100)
        }
        #expect(throws: FileSystemError.unreadable(path: "/tmp", reason: "it is a directory")) { try RegularFile.read("/tmp", maxBytes: 100) }
        #expect(throws: FileSystemError.unreadable(path: "/nonexistent", reason: "No such file or directory")) {
            try RegularFile.read("/nonexistent", maxBytes: 100)
        }
    }

    @Test func readsWholeFilesUnderTheLimit() throws {
        let file = try ScratchDirectory.write([1, 2, 3, 4], to: "filesystem-read/four")
        #expect(try RegularFile.read(file, maxBytes: 4) == [1, 2, 3, 4])
        #expect(throws: FileSystemError.unreadable(path: file, reason: "the file is 4 bytes, over the limit of 3")) {
            try RegularFile.read(file, maxBytes: 3)
        }
    }

    /// A name that is not UTF-8 is listed, opened and written under its own bytes.
    @Test func namesThatAreNotUTF8KeepTheirBytes() throws {
        let directory = try Self.directory("latin1")
        let name = PathEncoding.string(fromFileSystem: [0x66, 0xE9, 0x65, 0x2E, 0x6A, 0x70, 0x67])  // "fée.jpg" in Latin-1
        let path = Directory.appending(name, to: directory)
        let written = try NewFile.write(path) { descriptor in #expect(write(descriptor, "abc", 3) == 3) }
        defer { _ = PathEncoding.withCString(written) { unlink($0) } }
        #expect(written == path)
        let entries = try Directory.entries(of: directory)
        #expect(entries.map(\.name) == [name])
        #expect(PathEncoding.bytes(of: entries[0].name) == [0x66, 0xE9, 0x65, 0x2E, 0x6A, 0x70, 0x67])
        #expect(try RegularFile.read(path, maxBytes: 10) == Array("abc".utf8))
    }

    @Test func listingsSayWhatIsNotARegularFile() throws {
        let directory = try Self.directory("kinds")
        try Directory.create(directory + "/sub.jpg")
        #expect(mkfifo(directory + "/pipe.png", 0o600) == 0)
        _ = try ScratchDirectory.write([1], to: "filesystem-kinds/a.jpg")
        let entries = try Directory.entries(of: directory)
        #expect(entries.map(\.name) == ["a.jpg", "pipe.png", "sub.jpg"])
        #expect(entries.map(\.isRegularFile) == [true, false, false])
        #expect(entries[1].otherKind == "it is a FIFO (named pipe), not a regular file")
        #expect(entries[2].isDirectory)
        #expect(entries.allSatisfy { $0.examinationFailure == nil })
    }

    @Test func listingsSayWhyAnEntryCannotBeExamined() throws {
        let directory = try Self.directory("unexaminable")
        #expect(symlink(directory + "/gone.jpg", directory + "/link.jpg") == 0)
        let entries = try Directory.entries(of: directory)
        #expect(entries.map(\.name) == ["link.jpg"])
        #expect(entries[0].examinationFailure == "No such file or directory" && !entries[0].isRegularFile)
        #expect(entries[0].otherKind == "it cannot be examined: No such file or directory")
    }

    /// An existing file (an input, or anyone's) is never replaced: the output takes the next free name.
    @Test func newFilesNeverReplaceExistingOnes() throws {
        let directory = try Self.directory("noclobber")
        let input = try ScratchDirectory.write(Array("the input photo".utf8), to: "filesystem-noclobber/bus.png")
        let first = try NewFile.write(input) { descriptor in #expect(write(descriptor, "one", 3) == 3) }
        let second = try NewFile.write(input) { descriptor in #expect(write(descriptor, "two", 3) == 3) }
        #expect(first == directory + "/bus_2.png" && second == directory + "/bus_3.png")
        #expect(try RegularFile.read(input, maxBytes: 100) == Array("the input photo".utf8))
        #expect(try RegularFile.read(second, maxBytes: 100) == Array("two".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["bus.png", "bus_2.png", "bus_3.png"])
    }

    /// A symbolic link in the way is an existing name: it is neither replaced nor written through.
    @Test func linksAreNotWrittenThrough() throws {
        let directory = try Self.directory("links")
        let target = try ScratchDirectory.write(Array("precious".utf8), to: "filesystem-links/target.txt")
        #expect(symlink(target, directory + "/out.png") == 0)
        let written = try NewFile.write(directory + "/out.png") { descriptor in #expect(write(descriptor, "new", 3) == 3) }
        #expect(written == directory + "/out_2.png")
        #expect(try RegularFile.read(target, maxBytes: 100) == Array("precious".utf8))
    }

    /// A write that fails, or an error thrown while writing, leaves neither the file nor a temporary.
    @Test func failedWritesLeaveNothing() throws {
        struct Refused: Error {}
        let directory = try Self.directory("failed")
        #expect(throws: Refused.self) { try NewFile.write(directory + "/x.png") { _ in throw Refused() } }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
        #expect(throws: FileSystemError.unwritable(path: "/nonexistent-dir/x.png", reason: "No such file or directory")) {
            try NewFile.write("/nonexistent-dir/x.png") { _ in }
        }
    }

    @Test func directoriesAreCreatedWithTheirParents() throws {
        let base = try Self.directory("mkdir")
        try Directory.create(base + "/a/b/c/")
        #expect(Directory.exists(base + "/a/b/c"))
        _ = try ScratchDirectory.write([1], to: "filesystem-mkdir/file")
        #expect(throws: FileSystemError.unwritable(path: base + "/file", reason: "it exists and is not a directory")) { try Directory.create(base + "/file/sub") }
        #expect(throws: FileSystemError.unwritable(path: base + "/file", reason: "it exists and is not a directory")) { try Directory.create(base + "/file") }
    }
}
