import ArgumentParser
import YOLOImage

// The options whose values are a fixed set of words: ArgumentParser checks them, lists them in
// --help and completes them in the shell.

extension ResizeMode: ExpressibleByArgument {}

extension PictureFormat: ExpressibleByArgument {}

/// What `detect` prints per image.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    /// A line and a table per image, for people.
    case table
    /// One JSON object per image per line (DESIGN.md's contract); `--json` is short for it.
    case json
    /// One flat JSON array per image per line: `[class, score, xmin, xmax, ymin, ymax]` per detection.
    case array
}

/// What `video` prints per frame (always JSON Lines).
enum VideoOutputFormat: String, CaseIterable, ExpressibleByArgument {
    /// Detection objects.
    case json
    /// One flat array per frame: `[class, score, xmin, xmax, ymin, ymax]` per detection.
    case array
}
