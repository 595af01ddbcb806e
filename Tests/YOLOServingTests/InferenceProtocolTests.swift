import Foundation
import SwiftYOLO
import Testing
import YOLOServing

@Suite struct InferenceProtocolTests {
    static func request(_ inputs: String, parameters: String = "") -> [UInt8] {
        Array("{\"id\": \"7\", \"inputs\": [\(inputs)]\(parameters)}".utf8)
    }

    @Test func decodesTheImageAndTheParameters() throws {
        let image: [UInt8] = [0xFF, 0xD8, 0xFF, 0x00, 0x10]
        let body = Self.request("{\"name\": \"image\", \"shape\": [1], \"datatype\": \"BYTES\", \"data\": [\"\(Data(image).base64EncodedString())\"]}",
                                parameters: ", \"parameters\": {\"conf\": 0.5, \"agnostic\": true, \"imgsz\": 320, \"classes\": \"person,bus\"}")
        let decoded = try InferenceProtocol.decodeRequest(body)
        #expect(decoded.id == "7")
        #expect(decoded.image == image)
        #expect(decoded.parameters.map { "\($0.name)=\($0.value)" } == ["agnostic=true", "classes=person,bus", "conf=0.5", "imgsz=320"])
    }

    @Test func refusesWhatIsNotOneBase64Image() {
        let cases: [(body: [UInt8], message: String)] = [
            (Array("not json".utf8), "not a KServe v2 inference request"),
            (Array("{\"inputs\": 3}".utf8), "not a KServe v2 inference request"),
            (Self.request("{\"name\": \"input0\", \"shape\": [1], \"datatype\": \"BYTES\", \"data\": [\"AA==\"]}"), "no input named 'image'"),
            (Self.request("{\"name\": \"image\", \"shape\": [1], \"datatype\": \"FP32\", \"data\": [\"AA==\"]}"), "datatype FP32"),
            (Self.request("{\"name\": \"image\", \"shape\": [2], \"datatype\": \"BYTES\", \"data\": [\"AA==\", \"AA==\"]}"), "one image"),
            (Self.request("{\"name\": \"image\", \"shape\": [1], \"datatype\": \"BYTES\", \"data\": [\"%%%\"]}"), "not base64"),
            // It said "Expected to decode String but found number".
            (Self.request("{\"name\": \"image\", \"shape\": [1], \"datatype\": \"BYTES\", \"data\": [\"AA==\"]}", parameters: ", \"parameters\": {\"conf\": 1e999}"),
             "a parameter is a string, a finite number or a boolean at parameters.conf"),
            (Self.request("{\"name\": \"image\", \"shape\": [1], \"datatype\": \"BYTES\", \"data\": [\"AA==\"]}", parameters: ", \"parameters\": {\"conf\": [1]}"),
             "a parameter is a string, a finite number or a boolean at parameters.conf"),
        ]
        for (body, message) in cases {
            #expect {
                try InferenceProtocol.decodeRequest(body)
            } throws: { error in
                let error = error as? RequestError
                return error?.status == 400 && error?.message.contains(message) == true
            }
        }
    }

    @Test func theResponseIsAnNBy6Tensor() throws {
        let detections = [Detection(classId: 5, label: "bus", confidence: 0.875, box: BoundingBox(x1: 1, y1: 2, x2: 30.5, y2: 40)),
                          Detection(classId: 0, label: "person", confidence: 0.5, box: BoundingBox(x1: 3, y1: 4, x2: 5, y2: 6))]
        let text = InferenceProtocol.response(modelName: "yolo11n", id: "7", detections: detections)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["model_name"] as? String == "yolo11n" && object["id"] as? String == "7")
        let output = try #require((object["outputs"] as? [[String: Any]])?.first)
        #expect(output["name"] as? String == "detections" && output["datatype"] as? String == "FP32")
        #expect(output["shape"] as? [Int] == [2, 6])
        #expect(output["data"] as? [Double] == [1, 2, 30.5, 40, 0.875, 5, 3, 4, 5, 6, 0.5, 0])
        let labels = try #require((output["parameters"] as? [String: Any])?["labels"] as? String)
        #expect(try JSONSerialization.jsonObject(with: Data(labels.utf8)) as? [String] == ["bus", "person"])

        let empty = InferenceProtocol.response(modelName: "m", id: nil, detections: [])
        #expect(empty.contains("\"shape\": [0, 6], \"data\": []") && !empty.contains("\"id\""))
    }
}

@Suite struct RequestOptionsTests {
    let labels = LabelMap(names: ["person", "bicycle", "car", "motorcycle", "airplane", "bus"])

    /// Queries decode as forms are encoded: Python's `requests` sends `classes=traffic+light`, and
    /// `%63onf` is `conf` (names were not decoded, nor `+`, so both were refused).
    @Test func queriesAreFormDecodedInNamesAndValues() {
        func pairs(_ query: String) -> [String] { RequestOptions.parameters(query: query).map { "\($0.name)=\($0.value)" } }
        #expect(pairs("classes=traffic+light&%63onf=0.5") == ["classes=traffic light", "conf=0.5"])
        #expect(pairs("classes=bus%2Cperson&agnostic&&imgsz=") == ["classes=bus,person", "agnostic=", "imgsz="])
        #expect(pairs("a=%zz%4&b=%e2%80%94%2B") == ["a=%zz%4", "b=—+"])
        #expect(pairs("c=0.5%00junk&=5&x=1=2") == ["c=0.5\0junk", "=5", "x=1=2"])
        #expect(pairs("") == [] && pairs("&&") == [])
    }

    @Test func parametersOverrideTheDefaults() throws {
        var defaults = DetectionOptions()
        defaults.maxDetections = 100
        let options = try RequestOptions.options(
            [("conf", "0.5"), ("iou", "0.3"), ("imgsz", "320"), ("agnostic", ""), ("classes", "person,Bus"), ("end2end", "false")],
            defaults: defaults, labels: labels)
        #expect(options.confidenceThreshold == 0.5 && options.iouThreshold == 0.3 && options.imageSize == 320)
        #expect(options.agnostic && !options.endToEnd && options.classes == [0, 5] && options.maxDetections == 100)
        #expect(try RequestOptions.options([], defaults: defaults, labels: labels) == defaults)
    }

    @Test func unknownNamesAndUnparsableValuesAreA400() {
        for (name, value, message) in [("confidence", "0.5", "unknown parameter 'confidence'"), ("conf", "high", "not a number"),
                                       ("conf", "nan", "not a number"), ("conf", "0.9\0junk", "not a number"),
                                       ("iou", "0.5\0", "not a number"), ("imgsz", "3.5", "not an integer"), ("imgsz", "320\0", "not an integer"),
                                       ("imgsz", "1", "imgsz: 1 is not in 32…16384"), ("imgsz", "16385", "not in 32…16384"),
                                       ("agnostic", "yes", "not true or false"), ("classes", "zebra", "classes:")] {
            #expect {
                try RequestOptions.options([(name, value)], defaults: DetectionOptions(), labels: labels)
            } throws: { error in
                let error = error as? RequestError
                return error?.status == 400 && error?.message.contains(message) == true
            }
        }
    }
}

@Suite struct ResultJSONTests {
    @Test func anUnnamedImageIsNull() {
        let result = DetectionResult(detections: [], imageWidth: 4, imageHeight: 3, inputWidth: 32, inputHeight: 32, timings: StageTimings())
        #expect(ResultJSON.line(image: nil, result: result).hasPrefix("{\"image\": null, \"width\": 4, \"height\": 3, \"detections\": [], \"timing_ms\": {\"decode\": 0.00"))
        #expect(ResultJSON.errorLine(image: nil, error: RequestError.badRequest("x")) == "{\"image\": null, \"error\": \"x\"}")
    }
}
