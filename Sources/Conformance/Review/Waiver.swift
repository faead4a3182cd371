import Foundation
import ICUOracle

/// A known, explained difference: failures it matches are `waived` instead of unexpected.
///
/// A waiver matches cases by check (a glob, or a list of them) and dimension values (globs;
/// a list means any of them;
/// `!` negates), and may narrow to failures of a `pattern` or `triage`. A passing case that
/// a waiver without such failure-only conditions matches is an *unexpected pass*: the
/// difference it explains is gone. A waiver applies only while it has not expired and its
/// version conditions hold.
public struct Waiver: Sendable {
  public var id: String
  /// The checks it applies to (any of these globs).
  public var checks: [Glob]
  /// Dimension key (`locale`, `calendar`, `fw`, `zone`, `month`, `variant`) → any of these.
  public var match: [(key: String, globs: [Glob])]
  public var pattern: Glob?
  public var triage: Triage?
  public var reason: String
  public var link: String
  /// The last day the waiver applies (UTC), if it expires.
  public var expires: LocalDay?
  /// Version conditions: `libicu`, `foundationICU`, `oracleCLDR`, `subjectCLDR`, `oracleTZ`,
  /// `subjectTZ` → glob.
  public var versions: [(key: String, glob: Glob)]
  /// Where it was written, for messages: `file` entry N.
  public var location: String

  /// Whether the waiver can only match failures (it names a pattern or a triage).
  public var failuresOnly: Bool { pattern != nil || triage != nil }

  /// Whether the waiver matches a case's check and dimensions.
  public func matches(_ id: CaseID) -> Bool {
    guard checks.contains(where: { $0.matches(id.check) }) else { return false }
    for (key, globs) in match {
      guard let value = id.value(of: key) else { return false }
      if globs.allSatisfy({ $0.text.hasPrefix("!") }) {
        guard globs.allSatisfy({ $0.matches(value) }) else { return false }
      } else {
        guard globs.contains(where: { $0.matches(value) }) else { return false }
      }
    }
    return true
  }

  /// Whether the waiver matches a failing case it matches by id (its pattern and triage).
  public func matchesFailure(_ record: CaseRecord) -> Bool {
    if let pattern, !pattern.matches(record.outcome.pattern) { return false }
    if let triage, record.review.triage != triage { return false }
    return true
  }

  /// Why the waiver does not apply to this run, or `nil` when it does.
  public func inactiveReason(today: LocalDay, versions run: RunVersions) -> String? {
    if let expires, expires < today { return "expired on \(expires)" }
    for (key, glob) in versions {
      let value: String? = switch key {
      case "libicu": run.oracle.icu
      case "foundationICU": run.subjectICU?.icu
      case "oracleCLDR": run.oracle.cldr
      case "subjectCLDR": run.subjectICU?.cldr
      case "oracleTZ": run.oracle.tz
      case "subjectTZ": run.subjectTimeZoneData
      default: nil
      }
      guard let value, glob.matches(value) else {
        return "\(key) is \(value ?? "unknown"), not \(glob)"
      }
    }
    return nil
  }
}

/// The waiver file (`Corpora/known-differences.json`).
public enum WaiverFile {
  public static let schema = "conformance-waivers/1"
  static let dimensionKeys = Set(CaseID.keys)
  static let versionKeys: Set<String> = ["libicu", "foundationICU", "oracleCLDR", "subjectCLDR",
                                         "oracleTZ", "subjectTZ"]

  /// Reads and validates a waiver file.
  ///
  /// - Throws: `InputError` naming the file and the entry at fault (exit 2).
  public static func load(_ url: URL) throws(InputError) -> [Waiver] {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw InputError("cannot read waiver file \(url.path)")
    }
    return try parse(data, name: url.path)
  }

  public static func parse(_ data: Data, name: String) throws(InputError) -> [Waiver] {
    let root: [String: Any]
    do {
      guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        throw InputError("\(name): the top level must be an object")
      }
      root = object
    } catch let error as InputError {
      throw error
    } catch {
      throw InputError("\(name): not valid JSON (\(error.localizedDescription))")
    }
    guard root["schema"] as? String == schema else {
      throw InputError("\(name): schema must be \"\(schema)\", found \(root["schema"].map { "\($0)" } ?? "none")")
    }
    guard let entries = root["waivers"] as? [[String: Any]] else {
      throw InputError("\(name): \"waivers\" must be an array of objects")
    }
    var seen: Set<String> = []
    var waivers: [Waiver] = []
    for (index, entry) in entries.enumerated() {
      let waiver = try parseEntry(entry, location: "\(name) waiver \(index + 1)")
      guard seen.insert(waiver.id).inserted else {
        throw InputError("\(waiver.location): id '\(waiver.id)' is used twice")
      }
      waivers.append(waiver)
    }
    return waivers
  }

  static func parseEntry(_ entry: [String: Any], location index: String) throws(InputError)
    -> Waiver
  {
    // Errors name the entry by position and, once known, by id.
    let location = (entry["id"] as? String).map { "\(index) (\($0))" } ?? index
    func string(_ key: String, required: Bool = true) throws(InputError) -> String? {
      guard let value = entry[key] else {
        if required { throw InputError("\(location): missing \"\(key)\"") }
        return nil
      }
      guard let text = value as? String, !text.isEmpty else {
        throw InputError("\(location): \"\(key)\" must be a non-empty string")
      }
      return text
    }
    let known: Set<String> = ["id", "check", "match", "pattern", "triage", "reason", "link",
                              "expires", "when"]
    if let unknown = entry.keys.first(where: { !known.contains($0) }) {
      throw InputError("\(location): unknown key \"\(unknown)\"")
    }
    let id = try string("id") ?? ""
    let checks: [String]
    if let list = entry["check"] as? [String], !list.isEmpty {
      checks = list
    } else {
      checks = [try string("check") ?? ""]
    }
    for check in checks
    where !check.contains("*") && !check.contains("?") && CheckCatalog.check(check) == nil {
      throw InputError("\(location): unknown check '\(check)'")
    }
    var match: [(String, [Glob])] = []
    if let object = entry["match"] {
      guard let dictionary = object as? [String: Any] else {
        throw InputError("\(location): \"match\" must be an object")
      }
      for key in dictionary.keys.sorted() {
        guard dimensionKeys.contains(key) else {
          throw InputError("\(location): \"match\" has unknown dimension \"\(key)\"")
        }
        if let text = dictionary[key] as? String {
          match.append((key, [Glob(text)]))
        } else if let list = dictionary[key] as? [String], !list.isEmpty {
          match.append((key, list.map(Glob.init)))
        } else {
          throw InputError("\(location): match.\(key) must be a string or a list of strings")
        }
      }
    }
    var triage: Triage?
    if let text = try string("triage", required: false) {
      guard let value = Triage(rawValue: text) else {
        throw InputError("\(location): triage '\(text)' is not one of "
          + Triage.allCases.map(\.rawValue).joined(separator: ", "))
      }
      triage = value
    }
    var expires: LocalDay?
    if let text = try string("expires", required: false) {
      guard let day = LocalDay(isoText: text) else {
        throw InputError("\(location): expires '\(text)' is not yyyy-MM-dd")
      }
      expires = day
    }
    var versions: [(String, Glob)] = []
    if let object = entry["when"] {
      guard let dictionary = object as? [String: String] else {
        throw InputError("\(location): \"when\" must map version names to strings")
      }
      for key in dictionary.keys.sorted() {
        guard versionKeys.contains(key) else {
          throw InputError("\(location): \"when\" has unknown version \"\(key)\" (known: "
            + versionKeys.sorted().joined(separator: ", ") + ")")
        }
        versions.append((key, Glob(dictionary[key] ?? "")))
      }
    }
    let reason = try string("reason") ?? ""
    let link = try string("link") ?? ""
    return Waiver(id: id, checks: checks.map(Glob.init), match: match,
                  pattern: try string("pattern", required: false).map(Glob.init), triage: triage,
                  reason: reason, link: link, expires: expires, versions: versions,
                  location: location)
  }
}
