import Foundation
import XCTest

import YOLODetect

final class LabelMapTests: XCTestCase {
    let coco = LabelMap(names: ["person", "bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck",
                                "boat", "traffic light", "fire hydrant"])

    func write(_ text: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "labels-\(UUID().uuidString).txt"
        try Data(text).write(to: URL(fileURLWithPath: path))
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    func testLabelsFile() throws {
        let path = try write(Array("\u{FEFF}person\r\nbicycle\n  fire hydrant \nÖl-Tanker 🚢\n\n\n".utf8))
        let labels = try LabelMap(contentsOfFile: path, classCount: 4)
        XCTAssertEqual(labels.names, ["person", "bicycle", "fire hydrant", "Öl-Tanker 🚢"])
        XCTAssertEqual(labels.name(for: 3), "Öl-Tanker 🚢")
        XCTAssertEqual(labels.name(for: 9), "9")
        XCTAssertEqual(try LabelMap(contentsOfFile: path).count, 4)  // no count check without a class count
    }

    func testLabelsFileCountMismatchNamesTheFile() throws {
        let path = try write(Array("a\nb\nc\n".utf8))
        XCTAssertThrowsError(try LabelMap(contentsOfFile: path, classCount: 80)) { error in
            XCTAssertEqual(error as? DetectError, .labelsCountMismatch(file: path, found: 3, expected: 80))
            XCTAssertTrue("\(error)".contains(path) && "\(error)".contains("80"), "\(error)")
        }
    }

    func testLabelsFileErrors() throws {
        let gap = try write(Array("a\n\nb\n".utf8))
        XCTAssertThrowsError(try LabelMap(contentsOfFile: gap)) {
            XCTAssertEqual($0 as? DetectError, .labelsEmptyLine(file: gap, line: 2))
        }
        let binary = try write([0x61, 0x0A, 0xFF, 0xFE, 0x0A])
        XCTAssertThrowsError(try LabelMap(contentsOfFile: binary)) {
            XCTAssertTrue("\($0)".contains(binary) && "\($0)".contains("UTF-8"), "\($0)")
        }
        let missing = NSTemporaryDirectory() + "no-such-labels.txt"
        XCTAssertThrowsError(try LabelMap(contentsOfFile: missing)) {
            guard case .labelsUnreadable(missing, _)? = $0 as? DetectError else { return XCTFail("\($0)") }
        }
    }

    func testClassFilterByNameAndId() throws {
        XCTAssertEqual(try coco.classIds(parsing: "person,bus"), [0, 5])
        XCTAssertEqual(try coco.classIds(parsing: "0,5"), [0, 5])
        XCTAssertEqual(try coco.classIds(parsing: " bus , 0 ,Traffic Light,5"), [0, 5, 9])
        XCTAssertEqual(try coco.classIds(parsing: ["car", "1,2"]), [1, 2])
    }

    func testUnknownClassListsValidNames() {
        XCTAssertThrowsError(try coco.classIds(parsing: "person,buss")) { error in
            guard case .unknownClassName("buss", let examples, 11)? = error as? DetectError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(examples.first, "bus")  // names sharing the first letters come first
            XCTAssertEqual(examples.count, 5)
            XCTAssertTrue("\(error)".contains("'buss'") && "\(error)".contains("'bus'"), "\(error)")
        }
    }

    func testBadClassIds() {
        XCTAssertThrowsError(try coco.classIds(parsing: "11")) {
            XCTAssertEqual($0 as? DetectError, .classIdOutOfRange(11, classCount: 11))
        }
        XCTAssertThrowsError(try coco.classIds(parsing: "-1")) { XCTAssertNotNil($0 as? DetectError) }
        XCTAssertThrowsError(try coco.classIds(parsing: "")) {
            guard case .invalidClassFilter? = $0 as? DetectError else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try coco.classIds(parsing: "person,,bus"))
        XCTAssertThrowsError(try coco.classIds(parsing: "٣"))  // a non-ASCII digit is a name, and unknown
    }
}
