import Testing
import YOLOImage

/// Which names in a directory are its images or frames: `.png`, `.jpg` and `.jpeg` in any case,
/// not hidden.
@Suite struct ImageFileNameTests {
    @Test func imageNamesAreTheVisibleOnesWithAnImageExtension() {
        for name in ["bus.jpg", "BUS.JPEG", "a.b.png", "frame_000001.Png", "x.jpg"] { #expect(ImageFormat.isImageFileName(name), "\(name)") }
        for name in ["._bus.jpg", ".bus.png", ".jpg", "bus.jpg.tmp", "bus.gif", "bus", "png", "bus.jpg/"] {
            #expect(!ImageFormat.isImageFileName(name), "\(name)")
        }
    }
}
