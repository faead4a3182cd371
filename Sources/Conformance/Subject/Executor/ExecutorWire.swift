import Foundation

/// The executor protocol's text (`Schemas/executor-protocol.schema.json`): one JSON object a
/// line each way. Questions are written here by hand, members in a fixed order, because the
/// text without its `id` is also the key an answer is kept under (equal arguments, equal
/// text) and a sweep writes millions of them; answers are read by `Reply(members:)`, and by
/// `JSONDecoder` where that reader is not sure.
enum ExecutorWire {
  static let protocolName = "conformance-executor/1"

  /// JSON text built member by member: `{"function":"days","month":1541300400.0,…}`.
  struct Writer {
    private(set) var text: String

    init(function: String) {
      text = "\"function\":\"\(function)\""
    }

    /// The members so far as an object.
    var object: String { "{" + text + "}" }

    mutating func instant(_ key: String, _ date: Date) {
      text += ",\""
      text += key
      text += "\":"
      text += Self.number(date.timeIntervalSince1970)
    }

    mutating func int(_ key: String, _ value: Int) { text += ",\"\(key)\":\(value)" }

    mutating func string(_ key: String, _ value: String) {
      text += ",\"\(key)\":"
      JSONValue.writeString(value, into: &text)
    }

    /// A member whose value is JSON text already.
    mutating func raw(_ key: String, _ json: String) {
      text += ",\""
      text += key
      text += "\":"
      text += json
    }

    /// The shortest text that reads back as the same `Double` (Swift's `description`), so an
    /// instant survives the trip exactly; JSON has no infinities, so they are clamped.
    static func number(_ value: Double) -> String {
      guard value.isFinite else { return value > 0 ? "1e308" : "-1e308" }
      if value == value.rounded(.towardZero), abs(value) < 1e15 { return String(Int64(value)) }
      return "\(value)"
    }
  }

  /// A calendar as the protocol describes it: identifier, zone, week rules and locale.
  static func calendar(_ calendar: Calendar) -> String {
    var text = "{\"identifier\":"
    JSONValue.writeString(CalendarIdentifiers.cldr(calendar.identifier), into: &text)
    text += ",\"timeZone\":"
    JSONValue.writeString(calendar.timeZone.identifier, into: &text)
    text += ",\"firstWeekday\":\(calendar.firstWeekday)"
      + ",\"minimumDaysInFirstWeek\":\(calendar.minimumDaysInFirstWeek),\"locale\":"
    JSONValue.writeString(calendar.locale?.identifier ?? "", into: &text)
    return text + "}"
  }

  static func selection(_ selection: Subject.Selection) -> String {
    var text = "{"
    if let start = selection.start { text += "\"start\":" + Writer.number(start.timeIntervalSince1970) }
    if let end = selection.end {
      text += (selection.start == nil ? "\"end\":" : ",\"end\":") + Writer.number(end.timeIntervalSince1970)
    }
    return text + "}"
  }

  static func actions(_ actions: [DisclosureAction]) -> String {
    "[" + actions.map { action in
      switch action {
      case .tap: "{\"action\":\"tap\"}"
      case .select(let date): "{\"action\":\"select\",\"date\":\(Writer.number(date.timeIntervalSince1970))}"
      }
    }.joined(separator: ",") + "]"
  }

  /// One line an executor wrote: the question's `id` and one of `answer`, `unsupported` or
  /// `error`. `answer` may be `null` (no date), which is not the same as no `answer`.
  struct Reply: Decodable, Equatable {
    var id: Int?
    var answer: JSONValue?
    var hasAnswer: Bool
    var unsupported: String?
    var error: String?

    private enum Key: String, CodingKey { case id, answer, unsupported, error }
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Key.self)
      id = try container.decodeIfPresent(Int.self, forKey: .id)
      hasAnswer = container.contains(.answer)
      answer = hasAnswer ? try container.decode(JSONValue.self, forKey: .answer) : nil
      unsupported = try container.decodeIfPresent(String.self, forKey: .unsupported)
      error = try container.decodeIfPresent(String.self, forKey: .error)
    }
  }

  /// What an executor says of itself in answer to `hello`.
  struct Hello: Sendable, Equatable {
    var name: String
    var version: String?
    var functions: Set<Subject.Function>
    /// The calendars it computes in; `nil`: all.
    var calendars: Set<String>?
    /// Why a function is not offered, by its name.
    var reasons: [String: String]
    /// The known differences it shares (`seeds`: it is the seeds' logic; `foundation`: it
    /// computes with this harness's Foundation): the waivers about those apply to it too.
    var shares: Set<WaiverSubjects> = []
    /// The data releases it declares (`"data": {"cldr": "46", "tz": "2025b", "icu": "76.1"}`,
    /// each optional): none when it says nothing.
    var data = DataReleases()

    /// Reads a `hello` answer, or says what is wrong with it.
    init(_ answer: JSONValue?) throws(InputError) {
      guard case .object(let members)? = answer else {
        throw InputError("its answer to hello is not an object")
      }
      let fields = Dictionary(members, uniquingKeysWith: { first, _ in first })
      guard case .string(let name)? = fields["name"], !name.isEmpty else {
        throw InputError("its answer to hello has no name")
      }
      guard case .array(let listed)? = fields["functions"] else {
        throw InputError("its answer to hello has no functions list")
      }
      var functions: Set<Subject.Function> = []
      for item in listed {
        guard case .string(let spelling) = item else {
          throw InputError("its answer to hello lists a function that is not a string")
        }
        if spelling == "hello" { continue }
        guard let function = Subject.Function.allCases.first(where: { $0.description == spelling }) else {
          throw InputError("its answer to hello lists an unknown function '\(spelling)' (known: "
            + Subject.Function.allCases.map(\.description).joined(separator: ", ") + ")")
        }
        functions.insert(function)
      }
      self.name = name
      self.functions = functions
      if case .string(let version)? = fields["version"] { self.version = version }
      if case .array(let names)? = fields["calendars"] {
        calendars = Set(names.compactMap { if case .string(let id) = $0 { id } else { nil } })
      }
      if let listed = fields["shares"] {
        guard case .array(let items) = listed else { throw InputError("its answer to hello has shares that is not an array") }
        for item in items {
          guard case .string(let spelling) = item, let family = WaiverSubjects(rawValue: spelling), family != .any else {
            throw InputError("its answer to hello shares '\(item.shown)', not one of seeds, foundation")
          }
          shares.insert(family)
        }
      }
      if let declared = fields["data"] {
        guard case .object(let members) = declared else {
          throw InputError("its answer to hello has data that is not an object")
        }
        var releases: [String: String] = [:]
        for (key, value) in members {
          guard ["cldr", "tz", "icu"].contains(key) else {
            throw InputError("its answer to hello declares data '\(key)', not one of cldr, tz, icu")
          }
          guard case .string(let release) = value, !release.isEmpty,
            release.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." })
          else {
            throw InputError("its answer to hello declares data \(key) \(value.shown), not a release "
              + "such as \(key == "cldr" ? "\"46\"" : key == "tz" ? "\"2025b\"" : "\"76.1\"")")
          }
          releases[key] = release
        }
        data = DataReleases(cldr: releases["cldr"], tz: releases["tz"], icu: releases["icu"])
      }
      reasons = [:]
      if case .object(let given)? = fields["reasons"] {
        for case (let key, .string(let reason)) in given { reasons[key] = reason }
      }
    }
  }
}
