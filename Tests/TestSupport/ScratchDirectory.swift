import Foundation

/// The test process's scratch directory, `swift-yolo-tests-<pid>` under the system temporary
/// directory: made on first use and removed, with everything the tests wrote into it, when the
/// process exits (the tests of one `swift test` run share one process). Shared by the test targets
/// so that no run leaves files behind.
public enum ScratchDirectory {
    public static let path: String = {
        let path = NSTemporaryDirectory() + "swift-yolo-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "swift-yolo-tests-\(getpid())") }
        return path
    }()

    /// `path/name`, its parent directories made; an existing file or directory there is removed first.
    public static func fresh(_ name: String) throws -> String {
        let file = path + "/" + name
        try? FileManager.default.removeItem(atPath: file)
        try makeParent(of: file)
        return file
    }

    /// Writes `bytes` to `path/name`, its parent directories made, and returns the file's path.
    /// The write is atomic (a temporary file renamed into place), never a removal then a write:
    /// tests run in parallel, and two of them may write the same fixture under the same name while
    /// a third reads it, which must then find the whole file, never none or part of it.
    public static func write(_ bytes: [UInt8], to name: String) throws -> String {
        let file = path + "/" + name
        try makeParent(of: file)
        try Data(bytes).write(to: URL(fileURLWithPath: file), options: .atomic)
        return file
    }

    /// Makes the directories that `file` lies in.
    private static func makeParent(of file: String) throws {
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    }
}
