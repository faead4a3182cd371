import Foundation

/// One option of a `conformance` command line, declared once in its subcommand's table: the
/// parser, the help, "did you mean" and, for a sweep's options, the options a run reports and
/// the explain commands it prints are all made from the table, so none can miss an option.
package struct CommandOption<Parsed>: Sendable {
  /// `--locales`.
  package let name: String
  /// The value's placeholder in the help, `<set>`; `nil` for a flag, which takes no value.
  package let placeholder: String?
  /// What it is for: one paragraph, which the help wraps.
  package let help: String
  /// What the help shows as `(default: …)`; `nil` shows none.
  package let defaultValue: String?
  /// Parsing ends at this option, whatever follows (`--version`, as `--help`).
  package let endsParsing: Bool
  /// Sets what the option says on the value being parsed (a flag gets no text); it throws
  /// `InputError` only (a closure's thrown type is not inferred from its table).
  package let parse: @Sendable (inout Parsed, OptionValue) throws -> Void
  /// A sweep's option: how `results.json` and the page report it, a (key, value) pair each.
  package let reported: [Reported]
  /// A sweep's option that the explain commands of the run carry; `nil`: explain's default
  /// is the run's whatever it was.
  package let explain: ExplainCarry?

  /// An option that takes a value.
  package init(_ name: String, _ placeholder: String, default defaultValue: String? = nil,
               help: String, reported: [Reported] = [], explain: ExplainCarry? = nil,
               parse: @escaping @Sendable (inout Parsed, OptionValue) throws -> Void) {
    (self.name, self.placeholder, self.defaultValue, self.help) = (name, placeholder, defaultValue, help)
    (self.reported, self.explain, self.parse, self.endsParsing) = (reported, explain, parse, false)
  }

  private init(flag name: String, help: String, reported: [Reported], endsParsing: Bool,
               set: @escaping @Sendable (inout Parsed) throws -> Void) {
    (self.name, self.placeholder, self.defaultValue, self.help) = (name, nil, nil, help)
    (self.reported, self.explain, self.endsParsing) = (reported, nil, endsParsing)
    parse = { parsed, _ in try set(&parsed) }
  }

  /// An option that takes no value: present or not.
  package static func flag(_ name: String, help: String, reported: [Reported] = [],
                           set: @escaping @Sendable (inout Parsed) throws -> Void) -> Self {
    Self(flag: name, help: help, reported: reported, endsParsing: false, set: set)
  }

  /// A flag that ends parsing and answers by itself (`--version`).
  package static func answer(_ name: String, help: String) -> Self {
    Self(flag: name, help: help, reported: [], endsParsing: true, set: { _ in })
  }

  /// `--corpora <dir>`: one option, with one default, in every table that reads the corpus.
  package static func corpora(help: String = "the corpus files", explain: ExplainCarry? = nil,
                              set: @escaping @Sendable (inout Parsed, URL) -> Void) -> Self {
    Self("--corpora", "<dir>", default: "./Corpora, else the package's", help: help, explain: explain) {
      set(&$0, $1.file())
    }
  }

  /// How a run reports one of its options: `key` (the option's name without `--` unless
  /// given) and its value, the default resolved, from the options the run ran with.
  package struct Reported: Sendable {
    package let key: String?
    package let value: @Sendable (RunOptions) -> String

    /// Reported under the option's own name.
    package static func value(_ value: @escaping @Sendable (RunOptions) -> String) -> Self {
      Self(key: nil, value: value)
    }

    /// Reported under another key (`--no-isolation` as `isolation`), or a second one.
    package static func named(_ key: String, _ value: @escaping @Sendable (RunOptions) -> String)
      -> Self
    {
      Self(key: key, value: value)
    }
  }

  /// How the explain commands a run prints carry one of its options: the explain subcommand
  /// takes an option of the same name, and `ExplainCommand` keeps its value in `field` (its
  /// key in `results.json`) as `value` makes it from the run's options (`nil`: left out, since
  /// explain reads the same by default); the command writes `prefix` and the kept value.
  package struct ExplainCarry: Sendable {
    package let field: WritableKeyPath<ExplainCommand, String?> & Sendable
    package let prefix: String
    package let value: @Sendable (RunOptions) -> String?

    package init(_ field: WritableKeyPath<ExplainCommand, String?> & Sendable, prefix: String = "",
                 value: @escaping @Sendable (RunOptions) -> String?) {
      (self.field, self.prefix, self.value) = (field, prefix, value)
    }
  }
}

/// The text an option was given (`--opt value` or `--opt=value`), read into what the option
/// means; every refusal names the option and the text.
package struct OptionValue: Sendable {
  package let option: String
  package let text: String

  package init(option: String, text: String) { (self.option, self.text) = (option, text) }

  /// A value that must not be empty (a path).
  package func nonEmpty() throws(InputError) -> String {
    guard !text.isEmpty else { throw InputError("\(option) has an empty value") }
    return text
  }

  /// A path, as given (relative to the working directory).
  package func file() -> URL { URL(fileURLWithPath: text) }

  /// One of an option's named values, with the choices (and the closest one) when not.
  package func choice<Value: RawRepresentable & CaseIterable>(expected: String)
    throws(InputError) -> Value where Value.RawValue == String
  {
    guard let value = Value(rawValue: text) else {
      throw InputError("\(option) \(text): expected \(expected)"
        + Suggestion.didYouMean(text, among: Value.allCases.map(\.rawValue)))
    }
    return value
  }

  /// `--jobs`, for a run, `bench` and `self-test` alike.
  package func jobs() throws(InputError) -> Int {
    guard let jobs = Int(text), (1...256).contains(jobs) else {
      throw InputError("\(option) \(text): expected a number from 1 to 256")
    }
    return jobs
  }

  /// `core`, `all`, `@file` or a comma list.
  package func selection() throws(InputError) -> CorpusRequest.Selection {
    guard !text.isEmpty, text != "@" else { throw InputError("\(option) has an empty value") }
    return CorpusRequest.Selection(parsing: text)
  }

  /// `all`, or a comma list of `own` and 1…7, each once.
  package func firstWeekdays() throws(InputError) -> [FirstWeekdaySetting] {
    if text == "all" { return FirstWeekdaySetting.all }
    var settings: [FirstWeekdaySetting] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      guard let setting = FirstWeekdaySetting(String(part)) else {
        throw InputError("\(option): '\(part)' is not all, own or 1…7")
      }
      if !settings.contains(setting) { settings.append(setting) }
    }
    return settings
  }

  /// `A...B` (or one year) within the years both sides' data speak for.
  package func years() throws(InputError) -> ClosedRange<Int> {
    let parts = text.components(separatedBy: "...")
    guard parts.count <= 2, let low = Int(parts[0]), let high = Int(parts.last ?? "") else {
      throw InputError("\(option) \(text): expected A...B, e.g. 1970...2037")
    }
    guard low <= high else { throw InputError("\(option) \(text): \(low) comes after \(high)") }
    let supported = CorpusRequest.supportedYears
    guard supported.contains(low), supported.contains(high) else {
      throw InputError("\(option) \(text): outside \(supported.lowerBound)...\(supported.upperBound)")
    }
    return low...high
  }

  /// `K/N` with 1 ≤ K ≤ N.
  package func shard() throws(InputError) -> (index: Int, count: Int) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
      (1...count).contains(index)
    else { throw InputError("\(option) \(text): expected K/N with 1 ≤ K ≤ N, e.g. 2/4, or auto") }
    return (index, count)
  }

  /// `--subject`: `nil` for picker-logic, else an executor's command.
  package func subject() throws(InputError) -> String? {
    let text = try nonEmpty()
    if text == "picker-logic" { return nil }
    guard text.hasPrefix("exec:"), !text.dropFirst(5).allSatisfy(\.isWhitespace) else {
      throw InputError("\(option) '\(text)': expected picker-logic or exec:<command>")
    }
    return String(text.dropFirst(5))
  }
}
