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
///
/// With a baseline, a case that newly fails (it passed in a baseline that swept it) is the
/// waiver's only when the waiver's `scope` lists it: a waiver written for one defect does not
/// swallow another that happens to share its check or pattern. New is news.
///
/// A waiver is about some subjects (`subjects`): one that explains the seeds' algorithms never
/// waives a team's case of the same pattern, whose cause is the team's own code.
package struct Waiver: Sendable {
  /// Which subjects the difference a waiver explains is about (`WaiverSubjects`: a subject
  /// says which it shares).
  package typealias Subjects = WaiverSubjects


  package var id: String
  /// The subjects it is about.
  package var subjects: Subjects = .any
  /// The checks it applies to (any of these globs).
  package var checks: [Glob]
  /// Dimension key (`locale`, `calendar`, `fw`, `zone`, `month`, `variant`) → any of these.
  package var match: [(key: String, globs: [Glob])]
  /// The cases the waiver was written for, in the same form as `match`; `nil` when it names
  /// none (then no newly failing case is its own).
  package var scope: [(key: String, globs: [Glob])]?
  package var pattern: Glob?
  package var triage: Triage?
  package var reason: String
  package var link: String
  /// The last day the waiver applies (UTC), if it expires.
  package var expires: LocalDay?
  /// Version conditions: `libicu`, `foundationICU`, `oracleCLDR`, `subjectCLDR`, `oracleTZ`,
  /// `subjectTZ` → glob.
  package var versions: [(key: String, glob: Glob)]
  /// Where it was written, for messages: `file` entry N.
  package var location: String

  /// Whether the waiver can only match failures (it names a pattern or a triage).
  package var failuresOnly: Bool { pattern != nil || triage != nil }

  /// Whether the waiver matches a case's check and dimensions.
  package func matches(_ id: CaseID) -> Bool {
    checks.contains(where: { $0.matches(id.check) }) && Self.dimensions(match, hold: id)
  }

  /// Whether the waiver's scope lists a case (it matches it by id): what lets it waive a
  /// case that newly fails against a baseline.
  package func scopeLists(_ id: CaseID) -> Bool {
    guard let scope else { return false }
    return Self.dimensions(scope, hold: id)
  }

  /// The scope as a reader reads it: `zone Pacific/Apia, Pacific/Kiritimati; month 2011-12-01`.
  package var scopeText: String {
    (scope ?? []).map { key, globs in
      "\(key) " + globs.prefix(6).map(\.text).joined(separator: ", ")
        + (globs.count > 6 ? " … (\(globs.count) values)" : "")
    }.joined(separator: "; ")
  }

  /// Whether a case has each dimension, with a value one of its globs matches (or, when
  /// every glob is negated, that none excludes).
  static func dimensions(_ conditions: [(key: String, globs: [Glob])], hold id: CaseID) -> Bool {
    for (key, globs) in conditions {
      guard let value = id.value(of: key) else { return false }
      if globs.allSatisfy({ $0.text.hasPrefix("!") }) {
        guard globs.allSatisfy({ $0.matches(value) }) else { return false }
      } else {
        guard globs.contains(where: { $0.matches(value) }) else { return false }
      }
    }
    return true
  }

  /// What the waiver makes of a failing case it matches by id.
  package enum Judgement: Equatable {
    /// The case is outside the waiver: another pattern, a fault the waiver does not name, or
    /// no triage to check its claim against.
    case outside
    /// The waiver explains the case.
    case waives
    /// The case is the waiver's by check, dimensions and pattern, but its triage is not the
    /// one the waiver claims: the waiver's explanation does not hold for it.
    case contradicted
  }

  /// Judges a failing (or errored) case the waiver matches by id.
  ///
  /// A fault (an errored case: a trap, a hang, an executor's exit, a case the breaker did not
  /// run) is the waiver's only when its pattern names the fault: a positive pattern with
  /// literal text that matches the case's signature. A waiver written for a data difference
  /// (`*`, or `!missing cells`) never hides a crash.
  package func judge(_ record: CaseRecord) -> Judgement {
    if record.outcome.verdict == .errored {
      guard let pattern, pattern.namesLiterally else { return .outside }
    }
    if let pattern, !pattern.matches(record.outcome.pattern) { return .outside }
    if let triage {
      guard let found = record.review.triage else { return .outside }
      return found == triage ? .waives : .contradicted
    }
    return .waives
  }


  /// Whether a run swept every case this waiver can match, so that matching nothing means
  /// the difference is gone (a stale waiver), not that this run's selection left it out.
  /// Each dimension its checks depend on must be swept whole (`all`, every first weekday,
  /// the default years or more), or be named by the waiver with plain values, each swept.
  /// Which of `checks` it applies to.
  package func checks(of ids: [String]) -> [String] {
    ids.filter { id in checks.contains { $0.matches(id) } }
  }

  package func sweptWhole(checks: [String], request: CorpusRequest, corpus: Corpus) -> Bool {
    let named = CheckCatalog.all.filter { check in self.checks.contains { $0.matches(check.id) } }
    guard !named.isEmpty, named.allSatisfy({ checks.contains($0.id) }) else { return false }
    /// The waiver names `key` by plain values only, and the run swept each of them.
    func namesSwept(_ dimension: Dimension, _ swept: [String]) -> Bool {
      guard let globs = match.first(where: { $0.key == dimension.rawValue })?.globs else { return false }
      return globs.allSatisfy { glob in
        !glob.text.contains(where: { "*?![".contains($0) }) && swept.contains(glob.text)
      }
    }
    for dimension in Set(named.flatMap(\.dimensions)) {
      let whole = switch dimension {
      case .locale: request.locales == .all || namesSwept(.locale, corpus.locales.map(\.spelling))
      case .calendar: request.calendars == .all || namesSwept(.calendar, corpus.calendars)
      case .zone: request.zones == .all || namesSwept(.zone, corpus.zones.map(\.id))
      case .firstWeekday: Set(request.firstWeekdays) == Set(FirstWeekdaySetting.all)
        || namesSwept(.firstWeekday, corpus.firstWeekdays.map(\.description))
      case .month: request.years.contains(Corpus.defaultYears.lowerBound)
        && request.years.contains(Corpus.defaultYears.upperBound)
      case .variant: true
      }
      guard whole else { return false }
    }
    return true
  }

  /// Why the waiver does not apply to this run, or `nil` when it does.
  package func inactiveReason(today: LocalDay, versions run: RunVersions) -> String? {
    if let expires, expires < today { return "expired on \(expires)" }
    for (key, glob) in versions {
      let value: String? = switch key {
      case "libicu": run.oracle.icu
      case "foundationICU": run.subjectICU?.icu
      case "oracleCLDR": run.oracle.cldr
      case "subjectCLDR": run.judgedReleases.cldr
      case "oracleTZ": run.oracle.tz
      case "subjectTZ": run.judgedReleases.tz
      default: nil
      }
      guard let value, glob.matches(value) else {
        return "\(key) is \(value ?? "not declared by the subject"), not \(glob)"
      }
    }
    return nil
  }
}

/// The waiver file (`Corpora/known-differences.json`).
package enum WaiverFile {
  /// The waiver file a `--waivers` value names: `none` is none, a path that file, and no
  /// value the corpora's shipped file when there is one.
  package static func chosen(_ option: String?, corpora: URL) -> URL? {
    switch option {
    case "none"?: return nil
    case let path?: return URL(fileURLWithPath: path)
    case nil:
      let file = corpora.appendingPathComponent(Corpus.Files.waivers)
      return FileManager.default.fileExists(atPath: file.path) ? file : nil
    }
  }

  package static let schema = "conformance-waivers/1"
  static let dimensionKeys = Set(CaseID.keys)
  static let versionKeys: Set<String> = ["libicu", "foundationICU", "oracleCLDR", "subjectCLDR",
                                         "oracleTZ", "subjectTZ"]

  /// Reads and validates a waiver file.
  ///
  /// - Throws: `InputError` naming the file and the entry at fault (exit 2).
  package static func load(_ url: URL) throws(InputError) -> [Waiver] {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw InputError("cannot read waiver file \(url.path)")
    }
    return try parse(data, name: url.path)
  }

  package static func parse(_ data: Data, name: String) throws(InputError) -> [Waiver] {
    let root: JSONValue
    do {
      root = try JSONDecoder().decode(JSONValue.self, from: data)
    } catch {
      throw InputError("\(name): not valid JSON (\(JSONValueReader.describe(error)))")
    }
    guard let members = root.members else {
      throw InputError("\(name): the top level must be an object")
    }
    guard case .string(schema)? = members["schema"] else {
      throw InputError("\(name): schema must be \"\(schema)\", found \(members["schema"]?.shown ?? "none")")
    }
    guard case .array(let list)? = members["waivers"] else {
      throw InputError("\(name): \"waivers\" must be an array of objects")
    }
    var entries: [[String: JSONValue]] = []
    for item in list {
      guard let entry = item.members else {
        throw InputError("\(name): \"waivers\" must be an array of objects")
      }
      entries.append(entry)
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

  static func parseEntry(_ entry: [String: JSONValue], location index: String) throws(InputError)
    -> Waiver
  {
    // Errors name the entry by position and, once known, by id.
    let location = entry["id"]?.text.map { "\(index) (\($0))" } ?? index
    func string(_ key: String, required: Bool = true) throws(InputError) -> String? {
      guard let value = entry[key] else {
        if required { throw InputError("\(location): missing \"\(key)\"") }
        return nil
      }
      guard let text = value.text, !text.isEmpty else {
        throw InputError("\(location): \"\(key)\" must be a non-empty string")
      }
      return text
    }
    let known: Set<String> = ["id", "subjects", "check", "match", "scope", "pattern", "triage", "reason",
                              "link", "expires", "when"]
    if let unknown = entry.keys.first(where: { !known.contains($0) }) {
      throw InputError("\(location): unknown key \"\(unknown)\"")
    }
    let id = try string("id") ?? ""
    let checks: [String]
    if let list = entry["check"]?.strings, !list.isEmpty {
      checks = list
    } else {
      checks = [try string("check") ?? ""]
    }
    for check in checks
    where !check.contains("*") && !check.contains("?") && CheckCatalog.check(check) == nil {
      throw InputError("\(location): unknown check '\(check)'")
    }
    let match = try dimensionGlobs(entry["match"], key: "match", location: location) ?? []
    let scope = try dimensionGlobs(entry["scope"], key: "scope", location: location)
    if scope?.isEmpty == true {
      throw InputError("\(location): \"scope\" must name at least one dimension")
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
      guard let fields = object.members, fields.values.allSatisfy({ $0.text != nil }) else {
        throw InputError("\(location): \"when\" must map version names to strings")
      }
      let dictionary = fields.mapValues { $0.text ?? "" }
      for key in dictionary.keys.sorted() {
        guard versionKeys.contains(key) else {
          throw InputError("\(location): \"when\" has unknown version \"\(key)\" (known: "
            + versionKeys.sorted().joined(separator: ", ") + ")")
        }
        versions.append((key, Glob(dictionary[key] ?? "")))
      }
    }
    var subjects = Waiver.Subjects.any
    if let text = try string("subjects", required: false) {
      guard let value = Waiver.Subjects(rawValue: text) else {
        throw InputError("\(location): subjects '\(text)' is not one of "
          + Waiver.Subjects.allCases.map(\.rawValue).joined(separator: ", "))
      }
      subjects = value
    }
    let reason = try string("reason") ?? ""
    let link = try string("link") ?? ""
    var waiver = Waiver(id: id, checks: checks.map(Glob.init), match: match, scope: scope,
                        pattern: try string("pattern", required: false).map(Glob.init), triage: triage,
                        reason: reason, link: link, expires: expires, versions: versions,
                        location: location)
    waiver.subjects = subjects
    return waiver
  }
}

extension WaiverFile {
  /// `match` or `scope`: dimension key → a glob or a list of them; `nil` when absent.
  static func dimensionGlobs(_ field: JSONValue?, key name: String, location: String)
    throws(InputError) -> [(key: String, globs: [Glob])]?
  {
    guard let field else { return nil }
    guard let dictionary = field.members else {
      throw InputError("\(location): \"\(name)\" must be an object")
    }
    var result: [(key: String, globs: [Glob])] = []
    for key in dictionary.keys.sorted() {
      guard dimensionKeys.contains(key) else {
        throw InputError("\(location): \"\(name)\" has unknown dimension \"\(key)\"")
      }
      if let text = dictionary[key]?.text {
        result.append((key, [Glob(text)]))
      } else if let list = dictionary[key]?.strings, !list.isEmpty {
        result.append((key, list.map(Glob.init)))
      } else {
        throw InputError("\(location): \(name).\(key) must be a string or a list of strings")
      }
    }
    return result
  }
}

extension WaiverFile {
  /// The waivers about `subject` (`Waiver.subjects` among those it shares), and the others:
  /// a waiver for the seeds' algorithms is no explanation of a team's case.
  package static func about(_ subject: Subject, _ waivers: [Waiver]) -> (applied: [Waiver], others: [Waiver]) {
    let shares = subject.shares
    return (waivers.filter { shares.contains($0.subjects) }, waivers.filter { !shares.contains($0.subjects) })
  }
}
