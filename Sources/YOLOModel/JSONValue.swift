/// A JSON value as it appears in a tensor file's metadata (the model's yaml, class names, …).
package enum JSONValue: Sendable, Equatable, Codable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int.self) { self = .int(value) }
        else if let value = try? container.decode(Double.self) { self = .double(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case let .bool(value): try container.encode(value)
        case let .int(value): try container.encode(value)
        case let .double(value): try container.encode(value)
        case let .string(value): try container.encode(value)
        case let .array(values): try container.encode(values)
        case let .object(members): try container.encode(members)
        }
    }

    package subscript(key: String) -> JSONValue? {
        if case let .object(members) = self { members[key] } else { nil }
    }

    package var intValue: Int? {
        switch self {
        case let .int(value): value
        case let .double(value) where value.rounded() == value && abs(value) < 1e15: Int(value)
        default: nil
        }
    }

    package var doubleValue: Double? {
        switch self {
        case let .int(value): Double(value)
        case let .double(value): value
        default: nil
        }
    }

    package var stringValue: String? { if case let .string(value) = self { value } else { nil } }
    package var boolValue: Bool? { if case let .bool(value) = self { value } else { nil } }
    package var arrayValue: [JSONValue]? { if case let .array(value) = self { value } else { nil } }

    /// Python-literal spelling, as Ultralytics prints module arguments (`[64, 3, 2]`, `None`, `'nearest'`).
    package var description: String {
        switch self {
        case .null: "None"
        case let .bool(value): value ? "True" : "False"
        case let .int(value): String(value)
        case let .double(value): String(value)
        case let .string(value): "'\(value)'"
        case let .array(values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        case let .object(members): "{" + members.sorted { $0.key < $1.key }.map { "'\($0.key)': \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}
